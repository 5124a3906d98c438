"""Behaviours a mutation run found unpinned: each test fails on a mutant that changes it."""

from __future__ import annotations

import io

from click.testing import CliRunner

from referee.cli import main
from referee.notation import RecordError, read_games
from referee.state import state_in_text

HEAD = '[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n\n'


def test_round_zero_cannot_be_read() -> None:
    text = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n\n-- round 0\n'
    from referee.engine import check_games

    ((_, report),) = check_games(read_games("<r>", io.BytesIO(text.encode()), lazy=True))
    assert report.status == "error" and [e.line for e in report.errors] == [4]


def test_a_byte_that_is_not_utf8_late_in_a_file_keeps_the_games_before_it() -> None:
    raw = b'[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 5H\n\n' \
          b'[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 6H\nBob plays \xff7C\n'
    items = list(read_games("<r>", io.BytesIO(raw)))
    assert [type(i).__name__ for i in items] == ["Record", "Record", "RecordError"]
    assert isinstance(items[2], RecordError) and items[2].line == 8


def test_after_a_card_not_in_a_known_hand_which_card_left_it_is_unknown() -> None:
    state = state_in_text(HEAD + "Ann holds 7H 8H 9H 10S JS QS KD AD\nAnn plays 7S\n")
    ann = state.table.hands["Ann"]
    assert [v.code for v in state.violations] == ["TR-NOT-IN-HAND"]
    assert (ann.count, list(ann.known)) == (7, [])


def test_explain_a_line_that_follows_suit(tmp_path) -> None:
    path = tmp_path / "follow.txt"
    path.write_text(HEAD + "Ann plays 7H\nBen plays 8H\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", f"{path}:6"])
    assert result.exit_code == 0, result.output
    assert "legal" in result.output and "8H" in result.output and "heart" in result.output
