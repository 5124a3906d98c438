"""The record a server keeps (referee/serve/table.py), without the web: the headers a new
game writes, what the new-game form refuses, and undo's answers. The pages themselves are
tested in tests/test_serve.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.files.lock import LockHeld, RecordLock
from referee.files.record_file import RecordFile
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


# --- The file held ----------------------------------------------------------------------------

def test_a_record_the_server_makes_has_its_name_synced_to_the_disk(tmp_path, monkeypatch) -> None:
    synced: list[str] = []
    monkeypatch.setattr(RecordFile, "sync_folder", lambda self: synced.append(self.path))
    Served(str(tmp_path / "new.txt"))
    assert synced == [str(tmp_path / "new.txt")]


def test_a_record_the_server_makes_is_held_under_each_of_its_names(tmp_path) -> None:
    path = tmp_path / "nw.txt"
    with RecordLock(str(path), "serve") as lock:  # no file yet: nothing of it to lock
        Served(str(path), lock=lock)
        os.link(path, tmp_path / "nw2.txt")
        with pytest.raises(LockHeld):
            with RecordLock(str(tmp_path / "nw2.txt"), "play"):
                pass


# --- Another hand ------------------------------------------------------------------------------

def test_a_game_started_on_the_page_gives_way_to_a_file_another_hand_wrote(tmp_path) -> None:
    table, path = served(tmp_path)
    assert table.start("bataille-corse", "Ana Ben", "", {}) == []
    path.write_text(HEADERS + "Alice plays 5H\n", encoding="utf-8")
    assert table.session().state is not None and table.session().state.players == ["Alice", "Bob", "Chloe"]
    version = table.version
    assert table.play("Bob plays KC").kind == "written"
    assert path.read_text() == HEADERS + "Alice plays 5H\nBob plays KC\n"
    assert table.session() and table.version == version + 1  # one change, one version: no new one at each look


def test_a_record_rewritten_with_the_same_size_and_time_is_seen_before_a_write(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\n")
    assert table.session().record is not None
    before = os.stat(path).st_mtime_ns
    with open(path, "r+", encoding="utf-8") as file:  # in place, the same size, the same time
        file.seek(len(HEADERS))
        file.write("Alice plays 6H\n")
    os.utime(path, ns=(before, before))
    ruling = table.play("Bob plays KC")
    assert ruling.kind == "changed" and "nothing was written" in ruling.message
    assert path.read_text() == HEADERS + "Alice plays 6H\n"


# --- A double tap -------------------------------------------------------------------------------

def test_a_double_tap_is_already_written_even_with_a_comment_or_accepted(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\n")
    for line, choice, written in [("Bob plays KC ; a king", "", "Bob plays KC ; a king"),
                                  ("Bob plays 3C", "accepted", "Bob plays 3C ; accepted BC-OUT-OF-TURN")]:
        seen = table.table()
        first = table.play(line, choice, version=seen)
        assert (first.kind, first.line) == ("written", written)
        second = table.play(line, choice, version=seen)
        assert (second.kind, second.message) == ("already", f"already written: {line} (sent twice: written once)")
        assert path.read_text().count(written) == 1


def test_a_move_chosen_on_an_older_table_is_refused_unless_it_made_the_table(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\n")
    seen = table.table()
    assert table.play("Bob plays KC", version=seen).kind == "written"
    assert table.play("Chloe plays 2H", version=seen).kind == "changed"  # another move on the old table
    assert table.play("Chloe plays 2H").kind == "written"
    assert table.play("Bob plays KC", version=seen).kind == "changed"  # no longer the last line
    assert path.read_text() == HEADERS + "Alice plays 5H\nBob plays KC\nChloe plays 2H\n"


def test_a_double_tap_after_its_line_was_taken_out_by_hand_is_refused(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS)
    seen = table.table()
    assert table.play("Alice plays 5H", version=seen).kind == "written"
    path.write_text(HEADERS + "\n", encoding="utf-8")  # the line taken out in an editor
    ruling = table.play("Alice plays 5H", version=seen)
    assert ruling.kind == "changed" and path.read_text() == HEADERS + "\n"


def test_a_double_tap_after_another_hand_wrote_a_line_is_refused(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS)
    seen = table.table()
    assert table.play("Alice plays 5H", version=seen).kind == "written"
    with open(path, "a", encoding="utf-8") as file:
        file.write("Bob plays KC\n")
    assert table.play("Alice plays 5H", version=seen).kind == "changed"
    assert path.read_text() == HEADERS + "Alice plays 5H\nBob plays KC\n"


def test_a_second_new_game_in_a_file_emptied_by_hand_shows_its_own_players(tmp_path) -> None:
    table, path = served(tmp_path)
    assert table.start("bataille-corse", "Ana Ben", "", {}) == []
    assert table.session().state is not None and table.session().state.players == ["Ana", "Ben"]
    assert table.play("Ana plays 5H").kind == "written"
    path.write_text("", encoding="utf-8")  # emptied in an editor
    assert table.is_new() and table.start("bataille-corse", "Cleo Dan Eve", "", {}) == []
    assert table.session().state is not None and table.session().state.players == ["Cleo", "Dan", "Eve"]


# --- A play of several cards --------------------------------------------------------------------

FRENCH_GROUPS = ('[Jeu "carte-et-plouc"]\n[Notation "fr"]\n[Joueurs "Ana Ben Cas"]\n[Retournée "5T"]\n\n'
                 "Ben tient ?? ?? ?? ?? ?? ?? ??\nCas tient ?? ?? ?? ?? ?? ?? ??\nAna tient AT AC 4K 9K 8C 2P 3P\n")


def test_a_play_picked_card_by_card_is_written_in_the_records_french_notation(tmp_path) -> None:
    table, path = served(tmp_path, FRENCH_GROUPS)
    ruling = table.play_group("Ana", "AC AH", "D")  # the page sends English letters
    assert (ruling.kind, ruling.line) == ("written", "Ana joue AT AC pour carreau")
    assert path.read_text() == FRENCH_GROUPS + "Ana joue AT AC pour carreau\n"


def test_the_first_line_of_a_new_game_makes_one_new_version(tmp_path) -> None:
    table, path = served(tmp_path)
    assert table.start("bataille-corse", "Ana Ben", "", {}) == []
    assert table.play("Ana plays 5H").kind == "written"
    version = table.version
    assert table.session().record is not None and table.table() and table.version == version
    assert path.read_text().endswith("\n\nAna plays 5H\n")


def test_a_new_game_is_a_new_version_that_every_page_redraws(tmp_path) -> None:
    table, _ = served(tmp_path)
    before = table.version
    assert table.start("bataille-corse", "Ana Ben", "", {}) == []
    assert table.version > before


def test_a_new_game_names_its_card_turned_up_after_the_players(tmp_path) -> None:
    table, _ = served(tmp_path)
    assert table.start("carte-et-plouc", "Ana Ben Cas", "Cas", {}, turned="5C") == []
    assert table.pending is not None
    assert table.pending.startswith('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "5C"]\n[Dealer "Cas"]\n[Date "')


def test_a_new_game_in_a_file_another_hand_wrote_is_refused(tmp_path) -> None:
    table, path = served(tmp_path)
    path.write_text(HEADERS, encoding="utf-8")
    assert table.start("bataille-corse", "Ana Ben", "", {}) == ["the file is no longer empty: a game was started meanwhile"]
    assert table.pending is None and path.read_text() == HEADERS


def test_a_new_game_in_a_file_an_editor_emptied_by_rename(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\n")
    assert table.session().record is not None
    (tmp_path / "copy.txt").write_text("", encoding="utf-8")
    os.replace(tmp_path / "copy.txt", path)
    assert table.start("bataille-corse", "Ana Ben", "", {}) == []
    assert table.play("Ana plays 5H").kind == "written"
    assert path.read_text().startswith('[Game "bataille-corse"]\n[Players "Ana Ben"]\n')


def test_a_move_chosen_on_a_game_started_before_is_refused_on_another_started_since(tmp_path) -> None:
    table, path = served(tmp_path)
    assert table.start("bataille-corse", "Ana Ben", "", {}) == []
    seen = table.table()  # a page shows the game held
    path.write_text(HEADERS, encoding="utf-8")  # another hand writes the file, then empties it
    assert table.session().record is not None
    path.write_text("", encoding="utf-8")
    assert table.start("bataille-corse", "Ana Bob", "", {}) == []
    assert table.play("Ana plays 5H", version=seen).kind == "changed"
    assert path.read_text() == ""


# --- The record as text, and undo of a line that cannot be read ---------------------------------

def test_the_record_as_text_follows_an_editors_save(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS)
    assert table.session().record is not None
    (tmp_path / "copy.txt").write_text(HEADERS + "Alice plays 5H\n", encoding="utf-8")
    os.replace(tmp_path / "copy.txt", path)
    assert table.text() == HEADERS + "Alice plays 5H\n"


@pytest.mark.parametrize(("text", "last"), [
    (HEADERS + "Alice plays 5H\nZorg frobnicates 99X\n\n", "Zorg frobnicates 99X"),
    ("Zorg frobnicates 99X\n", "Zorg frobnicates 99X"),  # the only line
    ('[Game "chess"]\nZorg frobnicates 99X\n', "Zorg frobnicates 99X"),  # right after a header
    ('[Game "chess"]\n[Players "A B"]\n', None),  # a header is never taken back
    ("\n\n\n", None),
    ("", None),
])
def test_the_last_line_of_a_record_that_cannot_be_read_may_be_taken_back(tmp_path, text, last) -> None:
    table, path = served(tmp_path, text)
    assert table.last_line() == last
    if last is not None:
        assert table.undo(last).kind == "written"
        assert path.read_text() == text[:text.index(last)]


def test_undo_of_a_line_rewritten_with_the_same_size_and_time_is_refused(tmp_path) -> None:
    table, path = served(tmp_path, HEADERS + "Alice plays 5H\n")
    assert table.last_line() == "Alice plays 5H"
    before = os.stat(path).st_mtime_ns
    with open(path, "r+", encoding="utf-8") as file:
        file.seek(len(HEADERS))
        file.write("Alice plays 6H\n")
    os.utime(path, ns=(before, before))
    ruling = table.undo("Alice plays 5H")
    assert (ruling.kind, ruling.line) == ("error", "Alice plays 5H") and "changed" in ruling.message
    assert path.read_text() == HEADERS + "Alice plays 6H\n"


# --- A fault's convention ------------------------------------------------------------------------

def test_a_fault_comes_with_its_games_own_convention(tmp_path) -> None:
    text = '[Game "caroleto"]\n[Players "Ann Ben Cas"]\n\nAnn holds KS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH\n'
    table, _ = served(tmp_path, text)
    ruling = table.play("Ben holds 2H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC")
    assert ruling.kind == "flagged" and "REC-DUPLICATE-CARD" in ruling.why
    assert ruling.why["REC-DUPLICATE-CARD"].startswith("A card is tracked wherever it may be")
