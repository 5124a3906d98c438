"""``export`` and ``fmt`` read a game as ``check`` does, a block at a time, and read it twice
rather than hold it (referee/files/twice.py, Formatter.stream, export.json_game): one game of 1.5
million events took 2.8 GB to export as JSON where check took 18 MB (issue 38). Memory
itself is measured by bench/bench.py; here, what is held, and that nothing changes in what
is written."""

from __future__ import annotations

import gc
import io
import json
import os

import pytest
from click.testing import CliRunner

from referee.convert import formatter
from referee.files import twice
from referee.cli import main
from referee.convert.export import record_to_json
from referee.cli.fmt import Formatter
from referee.notation import RecordError, read_games
from referee.record import Event

from .conftest import RECORDS

EVENTS = 60_000
HEAD = '; a long game\n[Game "bataille-corse"]\n[Players "Alice Bob"]\n\n'


def long_game(events: int = EVENTS) -> str:
    lines = [f"{'Alice' if n % 2 else 'Bob'} plays ??" + ("  ; a comment" if n % 997 == 0 else "") for n in range(events)]
    lines[events // 2:events // 2] = ["", "; a comment line", ""]
    return HEAD + "\n".join(lines) + "\n"


@pytest.fixture
def low(monkeypatch):
    """Limits low enough for a test's games to take the long-game paths."""
    monkeypatch.setattr(twice, "KEPT_EVENTS", 2000)
    monkeypatch.setattr(formatter, "GROUP_KEPT", 2000)


def live_events() -> int:
    return sum(isinstance(o, Event) for o in gc.get_objects())


@pytest.mark.parametrize("args", [["export", "--to", "json"], ["export", "--to", "text"], ["fmt", "--check"]])
def test_a_long_game_is_never_held_whole(tmp_path, monkeypatch, low, args: list[str]) -> None:
    """While a game of 60,000 events is written, a few thousand of them at most are alive
    (those of the blocks being read): the whole game was held, and more than once."""
    path = tmp_path / "long.txt"
    path.write_text(long_game(), encoding="utf-8")
    seen: list[int] = []
    calls = 0
    event_text = formatter.Formatter._event

    def counting(self, event, counts):  # each event written: now and then, how many are alive
        nonlocal calls
        calls += 1
        if calls % 15_000 == 0:
            seen.append(live_events())
        return event_text(self, event, counts)

    monkeypatch.setattr(formatter.Formatter, "_event", counting)
    from referee.convert import export

    event_json = export._event_json

    def counting_json(event):
        nonlocal calls
        calls += 1
        if calls % 15_000 == 0:
            seen.append(live_events())
        return event_json(event)

    monkeypatch.setattr(export, "_event_json", counting_json)
    gc.collect()
    before = live_events()  # what other tests of this process left alive (caches): not this game's
    result = CliRunner().invoke(main, [*args, "--no-config", str(path)])
    assert result.exit_code == (1 if args[0] == "fmt" else 0), result.output
    assert len(seen) >= 3 and max(seen) - before < EVENTS // 4, (before, seen)


def _whole_json(text: str, path: str) -> str:
    games = [json.dumps(record_to_json(r), ensure_ascii=False, indent=1).replace("\n", "\n  ")
             for r in read_games(path, io.BytesIO(text.encode("utf-8"))) if not isinstance(r, RecordError)]
    return (f'{{\n "file": {json.dumps(path, ensure_ascii=False)},\n "games": ['
            + "".join(("\n  " if n == 0 else ",\n  ") + g for n, g in enumerate(games)) + ("\n ]\n}\n" if games else "]\n}\n"))


def _whole_text(text: str, path: str) -> str:
    writer = Formatter()
    return "".join(writer.game_text(r) for r in read_games(path, io.BytesIO(text.encode("utf-8")))
                   if not isinstance(r, RecordError))


SAMPLES = sorted(RECORDS.rglob("*.txt"))[::7]


@pytest.mark.parametrize("path", SAMPLES, ids=[str(p.relative_to(RECORDS)) for p in SAMPLES])
def test_read_twice_the_records_are_written_as_read_whole(low, monkeypatch, path) -> None:
    """With every game past the limits (a game read again from its text, every group of
    lines kept in a file), export and fmt write what they wrote with each game held whole."""
    monkeypatch.setattr(twice, "KEPT_EVENTS", 0)
    monkeypatch.setattr(formatter, "GROUP_KEPT", 0)
    text = path.read_text(encoding="utf-8")
    name = str(path)
    runner = CliRunner()
    exported = runner.invoke(main, ["export", "--no-config", name])
    assert exported.stdout == _whole_json(text, name)
    written = runner.invoke(main, ["export", "--no-config", "--to", "text", name])
    assert written.stdout == _whole_text(text, name)


def test_a_long_game_with_comments_and_groups_is_written_as_read_whole(tmp_path, low) -> None:
    text = long_game(9000).replace("Bob plays ??\nAlice", "Bob  plays ?? ; x\n\nAlice", 40)
    path = tmp_path / "long.txt"
    path.write_text(text + text.replace("; a long game\n", ""), encoding="utf-8")
    name = str(path)
    assert CliRunner().invoke(main, ["export", "--no-config", name]).stdout == _whole_json(path.read_text(), name)
    expected = _whole_text(path.read_text(), name)
    assert CliRunner().invoke(main, ["export", "--no-config", "--to", "text", name]).stdout == expected
    result = CliRunner().invoke(main, ["fmt", "--no-config", name])
    assert result.exit_code == 0 and path.read_text(encoding="utf-8") == expected
    assert CliRunner().invoke(main, ["fmt", "--no-config", "--check", name]).exit_code == 0


def test_a_long_game_with_a_line_that_cannot_be_read_is_not_written(tmp_path, low) -> None:
    """The game is read whole before a line of it is written: nothing of it is written."""
    lines = long_game(9000).split("\n")
    lines[7000] = "Alice plays ZZ9"
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + '[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays 7H\n', encoding="utf-8")
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["export", "--no-config", "--to", "text", str(path)])
    assert result.exit_code == 2 and result.stdout == '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna plays 7H\n'
    assert ":7001:13: expected a card" in result.stderr
    result = CliRunner().invoke(main, ["fmt", "--no-config", str(path)])
    assert result.exit_code == 2 and path.read_bytes() == before
    assert os.listdir(tmp_path) == ["bad.txt"]
