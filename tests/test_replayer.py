"""The live record's replayer (referee/live.py ``Replayer``): the last game of a record
that grows at its end, replayed from the last game on, answers as a replay of the whole
text does, matches and French notation included (issue 33)."""

from __future__ import annotations

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
    assert replayer.lines > 0, "the games before the last were kept"
    changed = "; a comment typed at the top\n" + text
    assert seen(replayer.last(changed)) == whole(changed)
    first_game_cut = text[: text.index("\n", text.index("\n[", 1) + 1) + 1] if "\n[" in text else text
    assert seen(replayer.last(first_game_cut)) == whole(first_game_cut)


def test_a_match_hand_that_names_no_game_plays_its_matchs() -> None:
    text = text_of(ROOT / "records/pierre-qui-roule/match.txt")  # the second hand names no game
    replayer = Replayer("r.txt")
    assert seen(replayer.last(text)) == whole(text)
    assert replayer.games == {"Friday": "pierre-qui-roule"} and replayer.lines > 0
    more = text + "\n; a third hand, after the match\n"
    assert seen(replayer.last(more)) == whole(more)
