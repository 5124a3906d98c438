"""The record a server keeps (referee/serve/table.py), without the web: the headers a new
game writes, what the new-game form refuses, and undo's answers. The pages themselves are
tested in tests/test_serve.py."""

from __future__ import annotations

from pathlib import Path

from referee.serve.table import Served

HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'


def served(tmp_path: Path, text: str = "", name: str = "game.txt") -> tuple[Served, Path]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return Served(str(path)), path


# --- A new game -------------------------------------------------------------------------------

def test_a_new_game_writes_the_dealer_given_and_no_dealer_when_none_is(tmp_path) -> None:
    table, path = served(tmp_path)
    assert table.start("bataille-corse", "Alice Bob Chloe", "  Bob ", {}) == []
    assert path.read_text() == "" and not table.is_new()  # held until the first line
    assert table.play("Chloe plays 5H").kind == "written"  # the dealer's left
    assert path.read_text().startswith('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Dealer "Bob"]\n[Date "')
    other, path = served(tmp_path, "", "other.txt")
    assert other.start("bataille-corse", "Alice Bob Chloe", " ", {}) == []
    assert other.pending is not None and "[Dealer" not in other.pending


def test_an_unknown_game_is_refused_with_the_games_refereed_and_nothing_written(tmp_path) -> None:
    table, path = served(tmp_path)
    (problem,) = table.start("chess", "Alice Bob", "", {})
    assert "bataille-corse" in problem and "caroleto" in problem
    assert path.read_text() == "" and table.version == 0


def test_an_option_value_not_accepted_is_refused_and_nothing_written(tmp_path) -> None:
    table, path = served(tmp_path)
    (problem,) = table.start("bataille-corse", "Alice Bob", "", {"Penalty": "give-9"})
    assert "Penalty" in problem and "give-9" in problem
    assert path.read_text() == "" and table.version == 0
    assert table.start("bataille-corse", "Alice Bob", "", {"Penalty": " give-1 "}) == []
    assert table.pending is not None and '[Penalty "give-1"]' in table.pending


# --- Undo -------------------------------------------------------------------------------------

def test_undo_with_nothing_after_the_headers_says_so(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS)
    ruling = table.undo("Alice plays 5H")
    assert (ruling.kind, ruling.line, ruling.message) == ("error", "", "nothing to undo: the file ends with its headers")
    assert path.read_text() == HEADERS


def test_undo_of_a_line_that_is_no_longer_the_last_names_the_last_one(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\nBob plays KC\n")
    ruling = table.undo("Alice plays 5H")
    assert (ruling.kind, ruling.line) == ("error", "Bob plays KC")
    assert "the last line is now" in ruling.message and "Bob plays KC" in ruling.message
    assert path.read_text().endswith("Bob plays KC\n")


def test_an_undo_makes_a_new_version_so_that_every_page_redraws(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\n")
    before = table.version
    assert table.session().record is not None
    ruling = table.undo("Alice plays 5H")
    assert ruling.kind == "written" and path.read_text() == HEADERS
    assert table.version > before
    assert table.last_line() is None  # read anew: the line taken back is gone
