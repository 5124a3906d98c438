"""The live record's replayer (referee/live.py ``Replayer``): the last game of a record
that grows at its end, replayed from the last game on, answers as a replay of the whole
text does, matches and French notation included (issue 33)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from referee.engine import check_games
from referee.live import Replayer
from referee.notation import RecordError, parse_text

from .conftest import ROOT

RECORDS = sorted(p for p in (ROOT / "records").rglob("*.txt") if "bad" not in p.parts)
MANY = [p for p in RECORDS if len(parse_text(p.read_bytes().decode("utf-8-sig", "replace"), str(p))) >= 2]


def text_of(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def seen(game: tuple[object, object]) -> tuple[object, ...]:
    """What a face shows of a game: its verdict, each violation where and why, its result
    and its match's standing."""
    record, report = game
    if isinstance(record, RecordError):
        return ("error", record.line, record.column, record.message)
    return (report.status, [(v.code, v.line, v.column, v.message) for v in report.violations],
            fields(report.result), fields(getattr(report, "match", None)), [e.line for e in record.events])


def with_sources(game: tuple[object, object]) -> tuple[object, ...]:
    """``seen``, and the text of the lines its violations point at (shown under each)."""
    _, report = game
    return (*seen(game), dict(getattr(report, "sources", {})))

def fields(value: object) -> object:
    """A value's public fields, to compare two values that have no ``==`` of their own."""
    if value is None:
        return None
    return {k: getattr(value, k) for k in dir(value) if not k.startswith("_") and not callable(getattr(value, k))}


def whole(text: str) -> tuple[object, ...]:
    return seen(list(check_games(parse_text(text, "r.txt")))[-1])


def starts(text: str) -> list[int]:
    """The offsets where each line after the first begins."""
    return [i + 1 for i, c in enumerate(text) if c == "\n" and i + 1 < len(text)]


def test_a_record_not_read_yet_holds_no_game() -> None:
    """A replayer before its first text (an editor asked about a line at once): no game,
    no report, no rules, rather than an error."""
    replayer = Replayer("r.txt")
    assert replayer.games == [] and replayer.reports == [] and replayer.lines == []
    assert replayer.game_at(1) is None and replayer.record_at(1) is None and replayer.rules_before(1) is None


@pytest.mark.parametrize("ends", ["\r\n", "\r", "no final line end"])
def test_a_text_with_other_line_ends_is_read_as_with_lf(ends: str) -> None:
    """An editor's text in CRLF or CR line ends, or without a final line end: its lines
    and its games are those of the same text in LF (the last line read too)."""
    text = BC + "Alice plays 5H\nBob plays 6C\n\n" + BC + "Alice plays 7H\nChloe plays 8C\n"
    replayer, plain = Replayer("r.txt"), Replayer("r.txt")
    for lf in (text, text + text):  # read, then grown
        replayer.update(lf[:-1] if ends == "no final line end" else lf.replace("\n", ends))
        plain.update(lf)
        assert replayer.lines == plain.lines
        assert [everything((item, report)) for _, item, report in replayer.reports] == [
            everything((item, report)) for _, item, report in plain.reports]
    assert plain.reports[-1][2].violations  # Chloe out of turn: the last line read


def test_a_record_emptied_then_written_again_is_read_as_a_whole() -> None:
    """An editor's text cut to nothing (select all, delete), then typed again: no game,
    then the games as read whole."""
    text = BC + "Alice plays 5H\n\n" + BC + "Bob plays 6C\n\n" + BC + "Alice plays 7H\nChloe plays 8C\n"
    replayer = Replayer("r.txt")
    for version in (text, "", text, "; nothing yet\n", text):
        replayer.update(version)
        assert [everything((item, report)) for _, item, report in replayer.reports] == (
            every_game(version, everything) if version.startswith("[") else [])


def test_each_line_belongs_to_its_game_and_the_line_after_the_text_to_the_last() -> None:
    """Which game holds a line (the editor's hover, completion and fixes ask it): each
    game from its first line to the line before the next, the last one to the line after
    the text (where the next line is typed); none past that."""
    text = "; Friday\n" + BC + "Alice plays 5H\n\n" + BC + "Bob plays 6C\n\n" + BC + "Chloe plays 7D\n"
    replayer = Replayer("r.txt")
    for version in (text, text + "Alice plays 8S\n"):  # read whole, then cut again around the change
        replayer.update(version)
        lines = len(version.split("\n")) - 1
        firsts = [1, 7, 12]  # the comment above the first game is the first game's
        for line in range(1, lines + 3):
            found = replayer.game_at(line)
            expected = None if line > lines + 1 else max(f for f in firsts if f <= line)
            assert (found[0].start if found else None) == expected, line


@pytest.mark.parametrize("path", MANY, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_record_growing_line_by_line_is_replayed_as_a_whole(path) -> None:
    text = text_of(path)
    replayer = Replayer("r.txt")
    cuts = starts(text)
    step = max(1, len(cuts) // 15)  # about fifteen lengths of each record
    for end in [*cuts[::step], len(text)]:
        part = text[:end]
        if not part.strip():
            continue
        assert seen(replayer.last(part)) == whole(part), f"{path} up to offset {end}"


@pytest.mark.parametrize("path", MANY[:6], ids=lambda p: str(p.relative_to(ROOT)))
def test_a_change_before_the_last_game_is_replayed_again(path) -> None:
    text = text_of(path)
    replayer = Replayer("r.txt")
    assert seen(replayer.last(text)) == whole(text)
    read = replayer.counts["games read"]
    changed = "; a comment typed at the top\n" + text
    assert seen(replayer.last(changed)) == whole(changed)
    assert replayer.counts["games read"] == read + 1, "the first game read again, the others moved"
    first_game_cut = text[: text.index("\n", text.index("\n[", 1) + 1) + 1] if "\n[" in text else text
    assert seen(replayer.last(first_game_cut)) == whole(first_game_cut)


def test_a_match_hand_that_names_no_game_plays_its_matchs() -> None:
    text = text_of(ROOT / "records/pierre-qui-roule/match.txt")  # the second hand names no game
    replayer = Replayer("r.txt")
    assert seen(replayer.last(text)) == whole(text)
    assert replayer.counts["games read"] == 2
    more = text + "\n; a third hand, after the match\n"
    assert seen(replayer.last(more)) == whole(more)
    assert replayer.counts["games read"] == 2 and replayer.counts["lines read"] > 0, "only the lines added were read"


def with_errors(game: tuple[object, object]) -> tuple[object, ...]:
    """``seen``, and the lines that cannot be read, as the report tells them."""
    _, report = game
    error = getattr(report, "error", None)
    return (*seen(game), [(e.line, e.message) for e in getattr(report, "errors", [])],
            (error.line, error.message) if error is not None else None)


def every_game(text: str, shown: Callable[[tuple[object, object]], tuple[object, ...]] | None = None) -> list[tuple[object, ...]]:
    """Each game of the text as check sees it (read whole, its unreadable lines left out)."""
    import io

    from referee.live import _whole
    from referee.notation import read_games

    items = []
    for item in read_games("r.txt", io.BytesIO(text.encode()), lazy=True):
        if not isinstance(item, RecordError):
            _whole(item)  # its batches taken before the next game is read
        items.append(item)
    return [(shown or seen)(game) for game in check_games(items)]


def long_game(faults: bool = True) -> list[str]:
    """A simulated game of Bataille corse of about a thousand lines (hands hidden as a
    table sees them), with a line of a player who is not at the table every 150 lines
    (flagged, and left out of the replay: the state is the same after it)."""
    from referee.simulate import simulate

    lines = simulate("bataille-corse", 4, 3, hidden=True, max_events=1000).split("\n")
    if faults:
        for n in range(len(lines) - 1, 20, -150):
            lines.insert(n, "Zoe plays 7H")
    return lines


def test_edits_inside_a_long_game_answer_as_a_whole_replay() -> None:
    """Cards changed, lines taken out, added, made unreadable, at the start, the middle
    and the end of a long game: each answer is that of replaying the whole text."""
    import random

    lines = long_game()
    text = "\n".join(lines) + "\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    pick = random.Random(33)
    events = [n for n, line in enumerate(lines) if " plays " in line]
    for round_ in range(12):
        n = pick.choice(events)
        changed = list(lines)
        kind = round_ % 4
        if kind == 0:
            changed[n] = changed[n].rsplit(" ", 1)[0] + " ZZ"  # cannot be read
        elif kind == 1:
            del changed[n]
        elif kind == 2:
            changed.insert(n, changed[n])
        else:
            changed[n] = changed[n].rsplit(" ", 1)[0] + " 2C"
        for version in (changed, lines):  # the change, then back
            text = "\n".join(version) + "\n"
            replayer.update(text)
            assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text), (round_, n)
    assert replayer.counts["games read"] == 1, "the game was read once, then only the lines that changed"
    assert replayer.counts["events replayed"] < 24 * 1000, "replayed from checkpoints"


def test_a_change_the_game_forgets_takes_the_old_runs_end() -> None:
    """A comment changed on an event line early in a long game: the replay goes on from
    the checkpoint before it until its state meets the old run's, then takes the old
    run's end (its faults after that point, on their lines); the answer is that of
    replaying the whole text."""
    lines = long_game()
    text = "\n".join(lines) + "\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    n = next(i for i, line in enumerate(lines) if " plays " in line and i > 60)
    before = replayer.counts["events replayed"]
    for comment in (" ; first", " ; second", ""):
        changed = list(lines)
        changed[n] += comment
        text = "\n".join(changed) + "\n"
        replayer.update(text)
        assert [with_sources((item, report)) for _, item, report in replayer.reports] == every_game(text, with_sources), comment
    assert replayer.counts["runs met"] == 3
    assert replayer.counts["events replayed"] - before < 3 * 2 * 100, "at most two checkpoints' worth each time"
    assert sum(report.violations != [] for _, _, report in replayer.reports) == 1
    assert len(replayer.reports[-1][2].violations) >= 3, "the faults after the change were taken over"


@pytest.mark.parametrize("change", ["first event changed", "comment above the first event"])
def test_a_change_at_the_first_event_of_a_long_game_replays_it_from_its_start(change: str) -> None:
    """The first event of a long game written otherwise (another player: out of turn), or
    a comment typed above it (every event one line further on): no checkpoint holds, the
    answer is that of replaying the whole text (its faults, on their new lines)."""
    lines = long_game()
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    first = next(n for n, line in enumerate(lines) if " plays " in line)
    if change == "first event changed":
        player = lines[first].split()[0]
        players = next(line for line in lines if line.startswith("[Players")).split('"')[1].split()
        lines[first] = lines[first].replace(player, next(p for p in players if p != player), 1)
    else:
        lines.insert(first, "; the cards dealt late")
    text = "\n".join(lines) + "\n"
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)


def test_a_change_the_game_forgets_and_a_change_of_its_last_event_are_both_ruled() -> None:
    """A comment changed early in a long game (the runs meet again after it) and its last
    event written otherwise, in one change: the old run's end is not taken over (the
    events after the first change are not all alike), the last event is ruled anew."""
    lines = long_game()
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    n = next(i for i, line in enumerate(lines) if " plays " in line and i > 60)
    lines[n] += " ; a comment"
    last = max(i for i, line in enumerate(lines) if " plays " in line)
    player = lines[last].split()[0]
    players = next(line for line in lines if line.startswith("[Players")).split('"')[1].split()
    lines[last] = lines[last].replace(player, next(p for p in players if p != player), 1)
    text = "\n".join(lines) + "\n"
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)


@pytest.mark.parametrize("change", ["one taken out, the next event changed", "two of three taken out"])
def test_lines_left_out_of_the_replay_taken_out_at_a_checkpoint_answer_as_a_whole(change: str) -> None:
    """Lines of a player not at the table (flagged, left out of the replay: the state is
    the same after them) around the first checkpoint of a long game, made comments: the
    new run's state meets the old run's one event earlier than where the events are
    alike again, and must not take over the old run's end there."""
    lines = long_game(faults=False)
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    (checked,) = replayer._by_start.values()
    if change == "one taken out, the next event changed":
        at = checked.record.events[99].line - 1  # the left-out line is the 100th event: a checkpoint after it
        lines.insert(at, "Zoe plays 7H")
        replayer.update("\n".join(lines) + "\n")
        player = lines[at + 1].split()[0]
        players = next(line for line in lines if line.startswith("[Players")).split('"')[1].split()
        lines[at] = "; Zoe left"
        lines[at + 1] = lines[at + 1].replace(player, next(p for p in players if p != player), 1)
    else:
        at = checked.record.events[98].line - 1  # the 99th to 101st events
        lines[at:at] = ["Zoe plays 7H", "Zoe plays 8H", "Zoe plays 9H"]
        replayer.update("\n".join(lines) + "\n")
        lines[at + 1:at + 3] = ["; Zoe left", "; for good"]
    text = "\n".join(lines) + "\n"
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)


def test_a_record_cut_again_only_around_a_change_is_cut_as_a_whole() -> None:
    """Lines typed, taken out, or replaced anywhere in a record of many games (a header
    line, a comment between games, an event, a blank line): the games found around the
    change and those kept are the games of the whole text, each answered as ``check``."""
    import random

    text = "\n".join(text_of(p).rstrip("\n") for p in MANY[:12]) + "\n"
    lines = text.split("\n")[:-1]
    pick = random.Random(7)
    typed = ['[Game "bataille-corse"]', "; a comment", "", "Alice plays 5H", '[Players "Alice Bob"]', "x"]
    replayer = Replayer("r.txt")
    replayer.update(text)
    for round_ in range(40):
        n = pick.randrange(len(lines) + 1)
        changed = list(lines)
        kind = round_ % 3
        if kind == 0:
            changed.insert(n, pick.choice(typed))
        elif kind == 1 and n < len(changed):
            del changed[n:n + pick.randrange(1, 4)]
        elif n < len(changed):
            changed[n] = changed[n][:-1] + pick.choice("xZ ;")
        new = "\n".join(changed) + "\n" if changed else ""
        replayer.update(new)
        whole_cut = Replayer("r.txt")
        whole_cut.update(new)
        assert replayer._starts == whole_cut._starts and replayer._chunks == whole_cut._chunks, (round_, n)
        assert replayer.lines == whole_cut.lines
        assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(new), (round_, n)
        lines = changed


def test_a_character_typed_or_taken_out_at_a_lines_start_is_cut_as_a_whole() -> None:
    """The first character of a line taken out, or one typed before it, on each line of
    a record of two games: its lines, games and answers are those of the text read whole."""
    text = BC + "Alice plays 5H\nBob plays 6C\n\n" + BC + "Alice plays 7H\nXChloe plays 8C\nBob plays 9D\n"
    lines = text.split("\n")[:-1]
    replayer = Replayer("r.txt")
    replayer.update(text)
    for n, line in enumerate(lines):
        for changed in (line[1:], "X" + line):
            new = "\n".join([*lines[:n], changed, *lines[n + 1:]]) + "\n"
            replayer.update(new)
            whole_cut = Replayer("r.txt")
            whole_cut.update(new)
            assert (replayer.lines, replayer._starts) == (whole_cut.lines, whole_cut._starts), (n, changed)
            assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(new), (n, changed)


@pytest.mark.parametrize("start, added", [
    (b'\xef\xbb\xbf[Game "bataille-corse"]\r\n[Players "Alice Bob"]\r\nAlice plays 5H\r\n', b"Bob plays 6C\r\n"),
    (b'[Game "bataille-corse"]\n[Players "Zo\xc3\xa9 Bob"]\nZo\xc3\xa9 plays 5H', b" ; \xe2\x99\xa5 a comment\nBob plays 6C\n"),
    (b'[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 5H\n', b"Bob plays 6C\r\nAlice plays 7D\r\n"),
    (b'[Game "bataille-corse"]\r[Players "Alice Bob"]\rAlice plays 5H\r', b"\nBob plays 6C\n"),
])
def test_a_record_grown_at_its_end_is_read_as_read_whole(tmp_path, start: bytes, added: bytes) -> None:
    """Bytes added at the end of a record (a line played, an outside append) are decoded
    alone, and the session holds what reading the whole file gives: its text, its line
    ends, its last game."""
    from referee.files.record_file import RecordFile
    from referee.live import Session

    path = tmp_path / "r.txt"
    path.write_bytes(start)
    with RecordFile.open(str(path)) as opened:
        session = Session(str(path), opened)
        session.load()
        with open(path, "ab") as outside:
            outside.write(added)
        grown = []
        original = session._grown
        session._grown = lambda data: grown.append(original(data)) or grown[-1]  # type: ignore[method-assign]
        assert session.follow()
        assert grown and (grown[0] is not None) == (not start.endswith(b"\r"))
        with RecordFile.open(str(path)) as again:
            whole = Session(str(path), again)
            whole.load()
            assert (session.text, session.newline) == (whole.text, whole.newline)
            assert [e.line for e in session.replayed()[0].events] == [e.line for e in whole.replayed()[0].events]


def test_a_game_edited_many_times_keeps_one_run_of_violations() -> None:
    """Each checkpoint of a game refers to the violations of the game's latest run only:
    the runs before it are not kept alive by the checkpoints they left (a game flagged
    on many lines, edited all evening, would hold every run's faults)."""
    lines = long_game()
    replayer = Replayer("r.txt")
    events = [n for n, line in enumerate(lines) if " plays " in line]
    for n in events[150:160]:  # a card changed after the first checkpoints, each time elsewhere
        changed = list(lines)
        changed[n] = changed[n].rsplit(" ", 1)[0] + " ZZ"
        replayer.update("\n".join(changed) + "\n")
    (checked,) = replayer._by_start.values()
    assert len(checked.snapshots) > 3
    assert len({id(s.found) for s in [*checked.snapshots, checked.end]}) == 1


@pytest.mark.parametrize("tag", ["Match", "Partie"])  # [Partie] is [Match] in French
def test_a_hand_read_otherwise_when_its_match_changes_notation_is_refereed_anew(tag: str) -> None:
    """A hand that names no notation is read in its match's: when the first hand stops
    being in French notation, the second hand's lines (the same text, at the same place)
    read otherwise, and are refereed anew, not answered from before."""
    french = (f'[{tag} "Friday"]\n[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Notation "fr"]\n\nAna joue 5P\nAna ??\n\n'
              f'[{tag} "Friday"]\nBen pioche\n')  # the first hand cannot be read whole: the second inherits no header
    english = french.replace('[Notation "fr"]', "; no notation")
    replayer = Replayer("r.txt")
    for text in (french, english, french):
        replayer.update(text)
        assert [with_errors((item, report)) for _, item, report in replayer.reports] == every_game(text, with_errors)


def test_a_line_changed_under_a_head_that_cannot_be_read_keeps_its_errors_in_place() -> None:
    """A game whose head holds a header that cannot be read, changed in its events: the
    lines read again are read with the head, and the head's error stays on its line."""
    text = '[Game "pierre-qui-roule"\n[Players "Ann Ben Cas Dom"]\n\n' + "".join(
        f"{p} plays {c}\n" for p, c in zip(["Ann", "Ben", "Cas", "Dom"] * 3, "8S 10S 9S JS 7H 8H 9H 10H 7C 8C 9C 10C".split()))
    replayer = Replayer("r.txt")
    replayer.update(text)
    lines = text.split("\n")
    lines[10] += " ; a comment"
    changed = "\n".join(lines)
    replayer.update(changed)
    assert [with_errors((item, report)) for _, item, report in replayer.reports] == every_game(changed, with_errors)
    assert replayer.counts["lines read"] > 0


def _same_start_is(old: str, new: str, start: int) -> bool:
    """Whether ``start`` characters are the same at the start of both texts, and no more."""
    return old[:start] == new[:start] and (start == min(len(old), len(new)) or old[start] != new[start])


def _same_end_is(old: str, new: str, limit: int, end: int) -> bool:
    """Whether ``end`` characters are the same at the end of both texts, and no more (at most ``limit``)."""
    return (old[len(old) - end:] == new[len(new) - end:] if end else True) and (
        end == limit or old[len(old) - end - 1] != new[len(new) - end - 1])


def test_two_texts_are_compared_a_block_at_a_time_as_character_by_character() -> None:
    """Where two long texts (over a block of 64 Ki characters) first and last differ: the
    change found block by block, then by halves, is where the texts differ."""
    from referee.live import BLOCK, _same_end, _same_start

    base = "".join(f"Alice plays {n % 13 + 1}H\n" for n in range(3 * BLOCK // 14))
    for at in (0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 7, len(base) - 1):
        for new in (base[:at] + "#" + base[at + 1:], base[:at] + "##" + base[at:], base[:at] + base[at + 1:]):
            start = _same_start(base, new)
            assert _same_start_is(base, new, start), at
            limit = min(len(base), len(new)) - start
            assert _same_end_is(base, new, limit, _same_end(base, new, limit)), at
    assert _same_start(base, base + "more") == len(base) and _same_end(base, "more" + base, len(base)) == len(base)
    assert _same_end(base, base, 5) == 5 and _same_start(base, base) == len(base)


def test_two_short_texts_are_compared_as_character_by_character_wherever_they_differ() -> None:
    """Where two texts within one block first and last differ, for a change at each place
    (the halving search ends on the first difference, not one before)."""
    import random

    from referee.live import _same_end, _same_start

    base = "".join(f"Alice plays {n % 13 + 1}H\n" for n in range(12))
    for at in range(len(base)):
        for new in (base[:at] + "#" + base[at + 1:], base[:at] + "##" + base[at:], base[:at] + base[at + 1:]):
            start = _same_start(base, new)
            assert _same_start_is(base, new, start), at
            limit = min(len(base), len(new)) - start
            assert _same_end_is(base, new, limit, _same_end(base, new, limit)), at
    pick = random.Random(41)
    for _ in range(2000):  # texts of two letters, alike in long stretches
        old, new = ("".join(pick.choice("ab") for _ in range(pick.randrange(1, 40))) for _ in range(2))
        start = _same_start(old, new)
        assert _same_start_is(old, new, start), (old, new)
        limit = pick.randrange(min(len(old), len(new)) + 1)
        assert _same_end_is(old, new, limit, _same_end(old, new, limit)), (old, new, limit)


def _rules_after(text: str):
    """A game's rules after its events, its violations a Found (as the live record keeps them)."""
    from referee.engine import Found, replay, start

    (record,) = parse_text(text, "r.txt")
    rules = start(record)
    rules.violations = Found()
    replay(rules, record)
    return rules, record


@pytest.mark.parametrize("copied", ["pickled", "deep-copied"])
def test_copies_of_the_rules_go_on_each_on_its_own(copied: str) -> None:
    """A fork of the rules as they stand (the editor tries moves on them): each copy holds
    the state and the faults of then, goes on without touching the others, and shares the
    setup; rules that cannot be pickled are deep-copied instead."""
    from referee.live import fork_of
    from referee.notation import parse_text as parse

    rules, record = _rules_after('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\nAlice plays 5H\nChloe plays 3C\n')
    found = rules.violations
    source_of = found.source_of = lambda line: None
    if copied == "deep-copied":
        rules.unpicklable = lambda: None  # a function: pickled by name only, so not at all
    fork = fork_of(rules)
    assert fork is not None and found.source_of is source_of  # given back once pickled
    first, second = fork(), fork()
    assert first is not rules and first.setup is rules.setup and len(first.violations) == len(found) == 1
    (more,) = parse('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\nBob slaps\n', "r.txt")
    from referee.engine import replay

    replay(first, record.replace(events=more.events))
    assert len(first.violations) == 2 and len(second.violations) == len(rules.violations) == 1
    assert repr(first.table()) != repr(rules.table()) and repr(second.table()) == repr(rules.table())


def test_rules_that_cannot_be_copied_give_no_fork() -> None:
    from referee.live import fork_of

    rules, _ = _rules_after('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\nAlice plays 5H\n')
    rules.uncopiable = (n for n in range(3))  # a generator: neither pickled nor copied
    assert fork_of(rules) is None


BC = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'


def everything(game: tuple[object, object]) -> tuple[object, ...]:
    """``with_errors``, the report's own line and the text of its faulty lines."""
    _, report = game
    return (*with_errors(game), getattr(report, "line", None), dict(getattr(report, "sources", {})),
            [str(note) for note in getattr(report, "notes", [])])


def test_games_moved_by_a_line_added_above_them_answer_as_read_whole() -> None:
    """Games that only moved are numbered anew, not read again: a game whose head cannot be
    read, a game with a line that cannot be read, and the same game twice (each moved on
    its own)."""
    text = ('[Game "bataille-corse"]\n[Players "Ann Ben"]\n\n' + BC + "Bob plays 11H\n\n"  # a line that cannot be read, whose message names a line of its game (7): replayed when moved
            + '[Game "bataille-corse"\n[Players "Alice Bob"]\n\nAlice plays 5H\n' + "; ...\n" * 40 + "\n"  # a header that cannot be read
            + BC + "Alice plays 5H\nBob plays 11H\nChloe plays 2C\n\n"  # a line that cannot be read (its message names no line of it)
            + '[Game "chess"]\n[Players "Alice Bob"]\n\nAlice plays 5H\n\n'  # a game that cannot be set up
            + '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "5C"]\n\nAna plays ??\nBen plays 6C\n\n'  # a note naming its line
            + BC + "Alice plays 5H\nBob plays 6C\n\n" + BC + "Alice plays 5H\nBob plays 6C\n")  # twice the same
    replayer = Replayer("r.txt")
    replayer.update(text)
    for top in ("; one\n", "; one\n; two\n", "; two\n", "", "; three\n"):  # moved by 1, 1, -1, -1, 1
        changed = top + text
        replayer.update(changed)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything), top
    assert replayer.counts["games read"] == 7 + 5, "the first game read again each time (the lines above it are its), the others moved"
    assert all(game.record is game.items[0] for game in replayer.games)


def test_a_fault_accepted_before_a_checkpoint_stays_accepted_after_an_edit_past_it() -> None:
    """A long game resumed from a checkpoint after an edit keeps the faults the table
    accepted before it: their marks are settled at the end, with no REC-STALE-ACCEPTED."""
    lines = long_game(faults=False)
    first = next(n for n, line in enumerate(lines) if " plays " in line)
    lines.insert(first + 3, "Zoe plays 7H ; accepted REC-UNKNOWN-PLAYER")
    text = "\n".join(lines) + "\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    n = [i for i, line in enumerate(lines) if " plays " in line][-40]
    changed = list(lines)
    changed[n] += " ; a comment"
    changed_text = "\n".join(changed) + "\n"
    replayer.update(changed_text)
    (game,) = [seen((item, report)) for _, item, report in replayer.reports]
    assert game == every_game(changed_text)[0]
    assert "REC-STALE-ACCEPTED" not in str(game)



def test_a_game_seen_three_times_and_a_game_edited_then_moved_answer_as_read_whole() -> None:
    """The same game at more places than it was read at is copied (its events numbered
    anew on the copy, not on the game it is copied from); a game whose line was edited in
    place, then moved, still shows the text of its faulty lines."""
    same = BC + "Alice plays 5H\nBob plays 6C\nChloe plays 7D\n\n"
    edited = BC + "Alice plays 5H\nBob plays 6C\nAlice plays 7D\nBob plays 8S\n\n"
    last = BC + "Chloe plays 2H\n"  # the last game's text ends otherwise
    text = edited + same + same + last
    replayer = Replayer("r.txt")
    replayer.update(text)
    steps = [edited.replace("Bob plays 8S", "Bob plays 9S") + same + same + last,  # a line edited in place
             "; above\n" + edited.replace("Bob plays 8S", "Bob plays 9S") + same + same + same + last]
    for changed in steps:
        replayer.update(changed)
        assert [with_sources((item, report)) for _, item, report in replayer.reports] == every_game(changed, with_sources)
    assert replayer.counts["lines read"] > 0 and replayer.counts["games moved"] >= 3


def test_a_record_that_opens_with_a_blank_line_is_cut_again_as_a_whole() -> None:
    text = "\n" + BC + "Alice plays 5H\nBob plays 6C\n\n" + BC + "Alice plays 7H\nBob plays 8C\nChloe plays 9D\n" * 3
    replayer = Replayer("r.txt")
    replayer.update(text)
    for changed in (text.replace("5H", "4H"), text.replace("Bob plays 6C\n", ""), "\n" + text):
        replayer.update(changed)
        whole_cut = Replayer("r.txt")
        whole_cut.update(changed)
        assert (replayer.lines, replayer._starts) == (whole_cut.lines, whole_cut._starts)
        assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(changed)


def test_a_moved_game_whose_unreadable_line_names_a_line_of_it_is_replayed_with_its_errors_moved() -> None:
    """A game with a line that cannot be read, whose message names a number among the
    game's lines (« got '11H' » in a game on lines 6 to 11): moved by a line added above
    it, it is replayed (not renumbered), its errors on their new lines and the text of
    its faulty lines shown."""
    text = BC + "Alice plays 5H\n\n" + BC + "Alice plays 5H\nBob plays 11H\nChloe plays 2C\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    for top in ("; one\n", ""):
        changed = top + text
        replayer.update(changed)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything), top


def test_a_moved_game_holding_a_part_that_cannot_be_read_at_all_answers_as_read_whole() -> None:
    """A game that reads as a game and then a part that cannot be read at all (a NUL
    byte: binary data, where check stops reading), moved by a line added above it: both
    are numbered anew."""
    text = BC + "Alice plays 5H\n\n" + BC + "Alice plays 5H\n\x00\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    for top in ("; one\n", ""):
        changed = top + text
        replayer.update(changed)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything), top
    assert replayer.counts["games moved"] >= 2


def test_a_fault_at_the_start_of_a_game_longer_than_four_blocks_shows_its_line() -> None:
    """A game read in many blocks of 64 Ki (a long evening of comments): the text of a
    faulty line in its first block is still shown under the fault."""
    text = BC + "Alice plays 5H\nChloe plays 6H\n" + "; a long evening at the table\n" * 12000 + "Bob plays 7C\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    ((_, _, report),) = replayer.reports
    assert [(v.code, v.line) for v in report.violations] == [("BC-OUT-OF-TURN", 5)]
    assert report.sources == {5: "Chloe plays 6H"}


def test_a_hand_moved_when_its_match_changes_what_it_inherits_is_refereed_anew() -> None:
    """The first hand of a match changes its players and gains a line: the second hand
    (the same text, a line further on) inherits other players, and is refereed anew, not
    numbered anew from its old report."""
    first = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n[Match "Friday"]\n\nAlice plays 5H\n\n'
    second = '[Match "Friday"]\n\nAlice plays 6H\nChloe plays 7C\n'
    replayer = Replayer("r.txt")
    replayer.update(first + second)
    changed = first.replace('"Alice Bob"]', '"Alice Bob Chloe"]\n; Chloe came late') + second
    replayer.update(changed)
    assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything)
    assert replayer.reports[-1][2].violations[0].code == "BC-OUT-OF-TURN"  # not REC-UNKNOWN-PLAYER


def test_a_moved_game_whose_setup_error_names_a_line_of_it_says_its_new_line() -> None:
    """A game that cannot be set up, its message naming one of its lines (« [Players] is
    given twice, as 'Ann Ben' (line 8) »): moved by a line added above it, the message
    names the line where the header now is."""
    text = BC + "Alice plays 5H\n\n" + '[Game "bataille-corse"]\n[Players "Ann Ben"]\n[Players "Alice Bob"]\n\nAlice plays 5H\n'
    replayer = Replayer("r.txt")
    replayer.update(text)
    for top in ("; one\n", ""):
        changed = top + text
        replayer.update(changed)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything), top
    assert "(line 7)" in replayer.reports[-1][2].error.message


def test_a_copy_of_the_first_game_pasted_at_the_end_leaves_the_first_in_place() -> None:
    """A game typed at the end that is the very text of the first game (pasted): it is
    copied from the first, whose lines stay where they are, then played on."""
    first = BC + "Alice plays 5H\nBob plays 6C\n\n"
    text = first + BC + "Chloe plays 7D\n\n" + BC + "Alice plays 8S\n\n"
    replayer = Replayer("r.txt")
    for version in (text, text + first, text + first + "Chloe plays 2C\n"):
        replayer.update(version)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(version, everything)
    assert replayer.counts["games moved"] == 1


def test_a_game_written_over_with_the_copy_of_the_next_leaves_the_next_on_its_lines() -> None:
    """A game replaced by a copy of the game after it (the same number of lines): the
    copy is read from the game after it (its events renumbered there), and the game after
    it, found at its place, is copied back, not shown on the copy's lines."""
    head = BC + "Alice plays 5H\n\n"
    other = BC + "Bob plays 9S\n\n"
    game = BC + "Alice plays 6H\n\n"
    last = BC + "Chloe plays 2C\n"
    replayer = Replayer("r.txt")
    for version in (head + other + game + last, head + game + game + last):
        replayer.update(version)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(version, everything)
    assert replayer.counts["games moved"] >= 2


def test_a_copy_of_a_game_pasted_after_it_leaves_the_game_on_its_lines() -> None:
    """A game's text pasted right after it: the game stays where it was read (never moved
    to the copy's place), the copy is copied from it."""
    head = BC + "Alice plays 5H\n\n"
    game = BC + "Alice plays 6H\nBob plays 7C\nAlice plays 8D\n\n"
    last = BC + "Chloe plays 2C\n"
    replayer = Replayer("r.txt")
    for version in (head + game + last, head + game + game + last):
        replayer.update(version)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(version, everything)


_HEAD = BC + "Alice plays 5H\n\n"
_ALIKE = BC + "Alice plays 6H\nBob plays 7C\n\n"
_OTHER = BC + "Chloe plays 8D\nAlice plays 9S\n\n"  # as many lines as _ALIKE
_LAST = BC + "Chloe plays 2C\n"


@pytest.mark.parametrize("before, after", [
    (_HEAD + _ALIKE + _OTHER + _ALIKE + _LAST, _HEAD + _ALIKE + _ALIKE + _OTHER + _ALIKE + _LAST),  # a copy after the first
    (_HEAD + _ALIKE + _OTHER + _ALIKE + _LAST, _HEAD + _OTHER + _OTHER + _ALIKE + _ALIKE + _LAST),  # the second in place, a copy after it
    (_HEAD + _OTHER + _ALIKE + _LAST, _HEAD + _ALIKE + _ALIKE.replace("7C", "8C") + _LAST),  # moved up, and written otherwise where it was
], ids=["copy after the first of two", "copy after the second", "moved and changed"])
def test_alike_games_copied_moved_and_changed_answer_as_read_whole(before: str, after: str) -> None:
    """Games of the same text at several places, copies pasted among them, one moved where
    another game was and changed where it stood: each game shows its own lines."""
    replayer = Replayer("r.txt")
    for version in (before, after):
        replayer.update(version)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(version, everything)


@pytest.mark.parametrize("body", [
    "Alice plays 11H\nBob plays 6C\nChloe plays 7D\n",  # after an unreadable first line: the error shown once
    "Alice plays 5H\nBob plays 6C\nChloe plays 11D\nAlice plays 8S\n",  # right before one: its error kept on its line
])
def test_a_line_changed_beside_an_unreadable_line_keeps_its_one_error(body: str) -> None:
    """An event written otherwise just after the first line of a game's body, which cannot
    be read, or just before a line that cannot be read: the lines are read again from the
    head's end, or kept after the change, and the answer is that of reading the whole."""
    text = BC + body
    replayer = Replayer("r.txt")
    replayer.update(text)
    changed = text.replace("Bob plays 6C", "Bob plays 5C")
    replayer.update(changed)
    assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything)
    assert replayer.counts["lines read"] > 0


def test_a_game_changed_in_place_and_its_old_text_pasted_below_keep_their_lines() -> None:
    """A line of a game written otherwise (read in part: its other events shared with the
    game as read before), and the game's old text pasted at the end: the old game is
    copied there, never moved, and the changed game keeps its lines."""
    head = BC + "Alice plays 5H\n\n"
    game = BC + "Alice plays 6H\nBob plays 7C\nChloe plays 8D\n\n"
    last = BC + "Chloe plays 2C\n\n"
    replayer = Replayer("r.txt")
    replayer.update(head + game + last)
    changed = head + game.replace("7C", "9C") + last + game
    replayer.update(changed)
    assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything)
    assert replayer.counts["lines read"] > 0


def test_a_matchs_faults_on_its_headers_show_their_lines() -> None:
    """Faults the match finds after the replay (a dealer out of rotation, hands out of
    order, totals that do not add up: on the next hand's headers) show the text of their
    lines, as check shows it."""
    text = text_of(ROOT / "records/bataille-corse/match-hands.txt")
    replayer = Replayer("r.txt")
    replayer.update(text)
    assert [with_sources((item, report)) for _, item, report in replayer.reports] == every_game(text, with_sources)
    assert any("[Dealer" in line for _, _, report in replayer.reports for line in report.sources.values())


def test_an_edit_undone_takes_the_game_back_without_replaying_it() -> None:
    """A card changed in a long game, then changed back (the editor's undo): the game as
    refereed for the text before is taken back whole (counted), nothing replayed."""
    lines = long_game()
    text = "\n".join(lines) + "\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    n = [i for i, line in enumerate(lines) if " plays " in line][20]
    changed = list(lines)
    changed[n] = changed[n].rsplit(" ", 1)[0] + " 2C"
    replayer.update("\n".join(changed) + "\n")
    replayed = replayer.counts["events replayed"]
    replayer.update(text)
    assert replayer.counts["games taken back"] == 1 and replayer.counts["events replayed"] == replayed
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)


def test_a_nul_byte_ends_the_record_for_the_live_record_as_for_check() -> None:
    """``check`` reads no further than a NUL byte (binary data): the games after it are
    not refereed. The live record (the editor, the page) says the same of the same text,
    and takes the games after it back when the byte is gone."""
    import io

    from referee.engine import check_games
    from referee.notation import read_games

    game = '[Game "bataille-corse"]\n[Players "A B"]\nA plays 5H\nA plays 6H\n\n'
    text = game.replace("5H", "5H\x00") + game

    def said(items) -> list[tuple[str, int, list[str]]]:
        return [(type(item).__name__, item.line, [v.code for v in report.violations]) for item, report in items]

    checked = said(check_games(read_games("<r>", io.BytesIO(text.encode()))))
    live = Replayer("<r>")
    live.update(text)
    assert said((item, report) for _, item, report in live.reports) == checked == [("RecordError", 3, [])]
    live.update(game + game)
    assert said((item, report) for _, item, report in live.reports) == [("Record", 1, ["BC-OUT-OF-TURN"]),
                                                                         ("Record", 6, ["BC-OUT-OF-TURN"])]


def test_a_hand_whose_match_stops_being_followed_inherits_nothing_more() -> None:
    """The first hand of a match made one that cannot be set up (a player named twice,
    written on the same line): the second hand, read as before, no longer inherits its
    players (no [Players] header: an error, as check says), rather than keeping what it
    inherited when the first hand still counted."""
    first = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Match "Friday"]\n\nAlice plays 5H\n\n'
    second = '[Game "bataille-corse"]\n[Match "Friday"]\n\nAlice plays 6H\nChloe plays 7C\n'
    replayer = Replayer("r.txt")
    for version in (first + second, first.replace("Alice Bob Chloe", "Alice Alice") + second):
        replayer.update(version)
        assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(version, everything)
    assert replayer.reports[-1][2].error is not None


def test_the_configured_options_of_a_game_apply_to_each_game_refereed() -> None:
    """The configuration's default options for a game (``[games.bataille-corse]``), given
    to each game that does not set them, as check gives them: a sandwich slapped is no
    false slap once the configuration adds sandwiches, in every game of the record."""
    from referee.config import Config, resolve

    game = BC + "Alice plays 5H\nBob plays 7C\nChloe plays 5S\nAlice slaps\n\n"
    text = game + game
    for games, codes in (({}, ["BC-FALSE-SLAP"]), ({"bataille-corse": {"Slaps": "pair sandwich"}}, [])):
        replayer = Replayer("r.txt", resolve(Config(games=games), "r.txt"))
        for version in (text, text + "Bob plays 8D\n"):
            replayer.update(version)
            assert [[v.code for v in report.violations if v.code == "BC-FALSE-SLAP"]
                    for _, _, report in replayer.reports] == [codes, codes]


def test_games_moved_by_a_line_typed_above_them_keep_their_reports_numbered_anew() -> None:
    """A comment typed at the top of a record: the first game is refereed again (the line
    is its own), the games after it (the same text, a line further on) keep their
    reports, their lines numbered anew, not replayed (``reports moved`` counts each, as
    the editor's ``referee.stats`` shows)."""
    text = BC + "Alice plays 5H\n\n" + BC + "Alice plays KH\nChloe plays QC\n\n" + BC + "Bob plays JD\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    replayed = replayer.counts["events replayed"]
    changed = "; Friday\n" + text
    replayer.update(changed)
    assert [everything((item, report)) for _, item, report in replayer.reports] == every_game(changed, everything)
    assert replayer.counts["reports moved"] == 2
    assert replayer.counts["events replayed"] == replayed + 1, "only the first game's event"


def test_a_card_changed_twice_near_the_end_of_a_long_game_is_replayed_from_the_checkpoint_before_it() -> None:
    """A card written otherwise near the end of a long game, then otherwise again: each
    time the game is replayed from the last checkpoint before the change (one every
    SNAPSHOT_EVERY events), the one it resumed from kept for the next change, and the
    answer is that of replaying the whole text."""
    from referee.live import SNAPSHOT_EVERY

    lines = long_game()
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    n = [i for i, line in enumerate(lines) if " plays " in line][-20]
    (checked,) = replayer._by_start.values()
    events = [e.line for e in checked.record.events]
    after = len(events) - events.index(n + 1)  # the events from the changed one on
    for card in ("2C", "3C"):
        lines[n] = lines[n].rsplit(" ", 1)[0] + " " + card
        text = "\n".join(lines) + "\n"
        before = replayer.counts["events replayed"]
        replayer.update(text)
        assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text), card
        assert replayer.counts["events replayed"] - before < SNAPSHOT_EVERY + after, card


def test_a_change_the_game_forgets_on_a_checkpoints_last_event_meets_the_old_run_there() -> None:
    """A comment typed on the last event before a long game's first checkpoint (its
    100th): the new run, from the game's start, meets the old run's state at that very
    checkpoint and takes over its end from there (those 100 events replayed, no more)."""
    from referee.live import SNAPSHOT_EVERY

    lines = long_game(faults=False)
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    (checked,) = replayer._by_start.values()
    lines[checked.record.events[SNAPSHOT_EVERY - 1].line - 1] += " ; a comment"
    text = "\n".join(lines) + "\n"
    before, met = replayer.counts["events replayed"], replayer.counts["runs met"]
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)
    assert (replayer.counts["events replayed"] - before, replayer.counts["runs met"] - met) == (SNAPSHOT_EVERY, 1)


def _standing(rules) -> tuple[object, ...]:
    """What the editor shows of rules as they stand: the table, the counts, the legal
    events, the faults flagged."""
    return (repr(rules.table()), rules.stats(), sorted(repr(e.lines() if hasattr(e, "lines") else e) for e in rules.legal()),
            sorted((v.line, v.code) for v in rules.violations))


def test_the_rules_before_a_line_are_those_of_its_events_replayed_from_the_checkpoint_before_it() -> None:
    """What the editor asks at a line of a long game (completion, hover, fixes): the rules
    with every event before the line replayed, from the last checkpoint at or before them
    (only the events after it replayed), a card outside the deck laid on the checkpoint's
    last event still waiting (given back in ``held``); as a replay of those events from
    the game's start, with or without ``held`` asked for."""
    from referee.engine import Found, replay, start
    from referee.live import SNAPSHOT_EVERY

    from .test_live_checkpoints import strays_on_checkpoints

    lines, changed = strays_on_checkpoints()
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    record = replayer.reports[-1][1]
    events = record.events
    stray = next(n + 1 for n, e in enumerate(events) if e.line == changed[0])  # a checkpoint's: a card waits
    for before in (0, 1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, stray, stray + 7, len(events)):
        line = events[before].line if before < len(events) else events[-1].line + 1
        fresh = start(record)
        fresh.violations = Found()
        waiting: list = []
        replay(fresh, record.replace(events=events[:before]), waiting)
        held: list = []
        replayed = replayer.counts["events replayed"]
        assert _standing(replayer.rules_before(line, held=held)) == _standing(fresh), before
        assert held == waiting, before
        checkpoint = max(d for d in range(0, before + 1, SNAPSHOT_EVERY) if d < len(events))  # one after every 100
        assert replayer.counts["events replayed"] - replayed == before - checkpoint, before
        assert _standing(replayer.rules_before(line, record)) == _standing(fresh), before
    assert replayer.rules_before(events[stray].line, held=(held := [])) is not None and held, "a card waits"


ENDS = [p for p in RECORDS if "\n[Result " in text_of(p) or "\n[Résultat " in text_of(p)] + [
    ROOT / "records/caroleto/bouts.txt"]  # its last game's round, all laid, is closed by the end (settled)


@pytest.mark.parametrize("path", ENDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_rules_after_a_game_are_those_of_its_whole_replay_settled_and_concluded(path) -> None:
    """The rules a table shows after a game's last line (``rules_after``, from the end its
    replay kept, not replayed): as ``state.rules_at`` leaves them, settled, and concluded
    where the game's [Result] header says it is over; none for a record not refereed here."""
    from referee.state import rules_at

    text = text_of(path)
    replayer = Replayer("r.txt")
    replayer.update(text)
    for _, record, report in replayer.reports:
        if isinstance(record, RecordError) or report.error is not None:
            continue
        rules = replayer.rules_after(record)
        whole_rules = rules_at(record)
        assert (fields(rules.result()), [str(t) for t in rules.todo()], _standing(rules)) == (
            fields(whole_rules.result()), [str(t) for t in whole_rules.todo()], _standing(whole_rules)), record.line
        (again,) = [r for r in parse_text(text, "r.txt") if getattr(r, "line", 0) == record.line]
        assert replayer.rules_after(again) is None, "not the record refereed"


def test_edits_after_a_takeover_that_moved_the_old_runs_checkpoints_answer_as_a_whole() -> None:
    """A comment early in a long game made a line of a player not at the table (an event
    more: the runs meet again one event after the first checkpoint, the old run's end
    taken over, its later checkpoints one event further on, the faults before the meeting
    point kept with them, a fault the table accepted after it still accepted), then a card
    changed after the meeting point, replayed from a checkpoint taken over: each answer is
    that of replaying the whole text."""
    lines = long_game()
    (record,) = parse_text("\n".join(lines) + "\n", "r.txt")
    events = record.events
    lines.insert(events[400].line - 1, "Zoe plays 9H ; accepted REC-UNKNOWN-PLAYER")
    at = events[50].line - 1
    lines.insert(at, "; Zoe came by")
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    lines[at] = "Zoe plays 7H"
    edits = [list(lines)]
    n = events[460].line + 1  # the line of the 461st event, two lines further on
    lines[n] = lines[n].rsplit(" ", 1)[0] + " 2C" if " plays " in lines[n] else "Zoe plays 2C"
    edits.append(lines)
    for version in edits:
        text = "\n".join(version) + "\n"
        replayer.update(text)
        assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)
        assert not any(v.code == "REC-STALE-ACCEPTED" for v in replayer.reports[-1][2].violations)
    assert replayer.counts["runs met"] >= 1
    (checked,) = replayer._by_start.values()
    assert [s.done for s in checked.snapshots][:3] == [100, 101, 201]


def test_a_long_games_players_changed_in_place_replay_it_from_its_start() -> None:
    """A player renamed in the [Players] header of a long game (the same lines, the same
    events): no checkpoint of the old players holds, the game is replayed from its start,
    that player's every line flagged, as a whole replay says."""
    lines = long_game(faults=False)
    n = next(i for i, line in enumerate(lines) if line.startswith("[Players "))
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    player = lines[n].split('"')[1].split()[-1]
    lines[n] = lines[n].replace(f" {player}\"", ' Zed"')
    text = "\n".join(lines) + "\n"
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)


def test_a_change_on_the_first_event_after_a_checkpoint_replays_from_that_checkpoint() -> None:
    """A card changed on the event right after a checkpoint (the 201st of a long game):
    the game is replayed from that checkpoint, not from the one before it."""
    from referee.live import SNAPSHOT_EVERY

    lines = long_game(faults=False)
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    (checked,) = replayer._by_start.values()
    event = checked.record.events[2 * SNAPSHOT_EVERY]
    n = event.line - 1
    lines[n] = lines[n].rsplit(" ", 1)[0] + " 2C" if event.verb == "plays" else lines[n] + " ; a comment"
    text = "\n".join(lines) + "\n"
    before = replayer.counts["events replayed"]
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)
    assert replayer.counts["events replayed"] - before <= len(checked.record.events) - 2 * SNAPSHOT_EVERY


def test_a_change_past_a_checkpoint_meets_the_old_run_too() -> None:
    """A comment typed past a long game's third checkpoint: the run resumed from the
    checkpoint before it (a state unpickled) meets the old run's at the next one, byte for
    byte (a set of cards pickles in one order however it was made), and takes its end."""
    from referee.live import SNAPSHOT_EVERY

    lines = long_game(faults=False)
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    (checked,) = replayer._by_start.values()
    lines[checked.record.events[3 * SNAPSHOT_EVERY + 10].line - 1] += " ; a comment"
    text = "\n".join(lines) + "\n"
    before, met = replayer.counts["events replayed"], replayer.counts["runs met"]
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)
    assert replayer.counts["runs met"] - met == 1 and replayer.counts["events replayed"] - before <= 2 * SNAPSHOT_EVERY


def test_two_states_are_alike_value_for_value_and_only_so() -> None:
    """Sets whatever their order, strings shared or not, objects by their state; one value
    apart anywhere (deep in an object, a set's item, a list's length) and they differ."""
    from types import SimpleNamespace

    from referee.live import alike

    word = "plays"
    one = SimpleNamespace(cards=frozenset(range(40)), how=[(3, word), (4, word)], seen={1: SimpleNamespace(n=[1, 2])})
    two = SimpleNamespace(cards=frozenset(reversed(range(40))), how=[(3, "".join("plays")), (4, "pl" + "ays")],
                          seen={1: SimpleNamespace(n=[1, 2])})
    assert alike(one, two, set())
    for change in (lambda s: s.seen[1].n.append(3), lambda s: setattr(s, "cards", frozenset(range(41))),
                   lambda s: s.how.__setitem__(1, (5, "plays")), lambda s: setattr(s, "extra", 1)):
        other = SimpleNamespace(**{k: __import__("copy").deepcopy(v) for k, v in vars(two).items()})
        change(other)
        assert not alike(one, other, set())


class _Plain:
    """An object equal only to itself, as the rules' are."""

    def __init__(self, **fields: object) -> None:
        self.__dict__.update(fields)


def test_objects_are_alike_by_their_state_along_cycles_and_globals_by_name() -> None:
    from referee.live import alike

    first, second = _Plain(cards=[1, 2], up=None), _Plain(cards=[1, 2], up=None)
    first.up, second.up = first, second  # a cycle each
    assert alike(first, second, set()) and not alike(first, _Plain(cards=[1, 3], up=None), set())
    assert alike([len, first], [len, second], set()) and not alike(len, abs, set())
