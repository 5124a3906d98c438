"""The live record's checkpoints (referee/live.py ``Replayer``): a replay cut at a
checkpoint rules as ``check``'s replay in one piece, even where what the replay holds
between two events is not the rules' state (a card outside the deck waiting to see
whether the table lets it stand)."""

from __future__ import annotations

from referee.live import SNAPSHOT_EVERY, Replayer
from referee.notation import parse_text
from referee.simulate import simulate

from .test_replayer import every_game, seen


def strays_on_checkpoints() -> tuple[list[str], list[int]]:
    """A simulated game of Bataille corse whose events that end a checkpoint's stretch (the
    100th, the 200th...) lay a card outside the deck (``CC``) where the next event is
    another player's: the table lets it stand, and it comes off its player's pack (see
    records/bataille-corse/not-in-deck.txt). Its lines, and the lines changed."""
    lines = simulate("bataille-corse", 2, 1, hidden=True, max_events=1000).split("\n")
    (record,) = [g for g in parse_text("\n".join(lines) + "\n") if hasattr(g, "events")]
    events, changed = record.events, []
    for done in range(SNAPSHOT_EVERY, len(events) - 1, SNAPSHOT_EVERY):
        last, after = events[done - 1], events[done]
        if last.verb == "plays" and len(last.cards) == 1 and after.player != last.player:
            lines[last.line - 1] = lines[last.line - 1].replace(f" plays {last.cards_text}", " plays CC", 1)
            changed.append(last.line)
    return lines, changed


def test_a_card_outside_the_deck_that_ends_a_checkpoints_stretch_is_ruled_as_check_rules_it() -> None:
    lines, changed = strays_on_checkpoints()
    assert len(changed) >= 2, "the game lays a card outside the deck on a checkpoint twice at least"
    text = "\n".join(lines) + "\n"
    replayer = Replayer("r.txt")
    replayer.update(text)
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)


def test_a_change_after_a_checkpoint_that_holds_a_waiting_card_is_ruled_as_check_rules_it() -> None:
    """The next event changed, then the card itself: each replayed from the checkpoint
    that keeps the card waiting (or the one before it), as a whole replay rules it."""
    lines, changed = strays_on_checkpoints()
    replayer = Replayer("r.txt")
    replayer.update("\n".join(lines) + "\n")
    first = changed[0]
    after = next(n for n in range(first, len(lines)) if " plays " in lines[n])  # the next event: a play
    for edit in ((after, lines[after] + " ; a comment"), (after, lines[after].rsplit(" ", 1)[0] + " 2C"),
                 (first - 1, lines[first - 1].replace(" CC", " TT"))):
        version = list(lines)
        version[edit[0]] = edit[1]
        text = "\n".join(version) + "\n"
        replayer.update(text)
        assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text), edit


def test_the_editors_hint_after_a_card_outside_the_deck_is_the_table_as_check_leaves_it() -> None:
    """The hint at a game's last line (the cards in each hand) is worked out by replaying
    the lines asked for one at a time, from the rules before them: a card outside the deck
    laid on one of them waits for the next, and the table lets it stand, as in one replay."""
    import pytest

    pytest.importorskip("pygls")
    from referee.lsp.hints import hints, summary
    from referee.lsp.model import Document
    from referee.state import replayed_at

    text = """[Game "bataille-corse"]
[Players "Alice Bob"]

Alice plays 5H
Bob plays CC
Alice plays 6C
"""
    document = Document("r.txt")
    document.update(text)
    record = document.record_at(4)
    assert record is not None
    (hint,) = hints(document, 5, 6)  # from Bob's card outside the deck to the end
    assert hint.line == 6
    assert hint.label == summary(replayed_at(record).table()) == "in hand: Alice 24 and Bob 25"


def test_an_edit_undone_takes_the_game_back_as_it_was_refereed() -> None:
    """A card made unreadable early in a long game (every turn after it thrown off, the
    game replayed to its end), then put back: the game as it was refereed before the edit
    is taken back, not replayed again, and answers as a whole replay does."""
    from .test_replayer import long_game

    lines = long_game(faults=False)
    text = "\n".join(lines) + "\n"
    n = next(i for i, line in enumerate(lines) if " plays " in line and i > 40)
    broken = list(lines)
    broken[n] = broken[n].rsplit(" ", 1)[0] + " ZZ"
    replayer = Replayer("r.txt")
    replayer.update(text)
    replayer.update("\n".join(broken) + "\n")
    replayed = replayer.counts["events replayed"]
    replayer.update(text)
    assert replayer.counts["games taken back"] == 1
    assert replayer.counts["events replayed"] == replayed, "nothing replayed"
    assert [seen((item, report)) for _, item, report in replayer.reports] == every_game(text)
    record = replayer.reports[-1][1]
    assert replayer.rules_after(record) is not None, "its end kept, for the table"
