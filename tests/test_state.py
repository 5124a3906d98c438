"""``referee state``: the table at a line, against the schema, in 80 columns. The states
written in the records (``; expect state LABEL: VALUE``) are checked with the records
(tests/test_records.py)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.notation import read_games
from referee.files.resources import read_resource
from referee.simulate import simulable_games
from referee.state import WIDTH, game_at, render, state_in_text, state_of, to_json

from .conftest import RECORDS
from .expectations import check_expectations

SCHEMA = json.loads(read_resource("schemas", "state.schema.json"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
REFEREED = sorted(p for game in simulable_games() for p in (RECORDS / game).glob("*.txt"))

TEXT = '''[Game "bataille-corse"]
[Players "Alice Bob Chloe"]
Alice plays 5H
Bob plays KC
Chloe plays 5C 3D
'''


@pytest.mark.parametrize("path", REFEREED, ids=lambda p: p.name)
def test_every_line_of_the_records_has_a_state_valid_against_the_schema_in_80_columns(path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    for at in range(1, text.count("\n") + 2, 7):
        record = game_at(read_games(str(path)), at)
        state = state_of(record, at)
        VALIDATOR.validate(to_json(state))
        assert all(len(line) <= WIDTH or " " not in line.strip() for line in render(state))


def test_state_after_a_line_and_at_the_end() -> None:
    middle = state_in_text(TEXT, 4)
    assert (middle.table.turn, middle.table.owed) == ("Chloe", ["Chloe pays 3 more cards to Bob"])
    assert middle.may == ["Chloe may play any card not known to be elsewhere"]
    end = state_in_text(TEXT)
    assert end.table.owed == ["Chloe pays 1 more card to Bob"] and end.at == 5


def test_a_known_hand_is_listed_and_an_unknown_one_said_as_the_table_can_tell() -> None:
    known = state_in_text(TEXT.replace("Alice plays", "Bob holds 9C 2D 24\nAlice plays"))
    assert "Chloe may play any card not known to be elsewhere" in known.may
    before = state_in_text(TEXT.replace("Alice plays", "Bob holds 9C 2D 24\nAlice plays"), 3)
    assert before.table.hands["Bob"].known[:2] and before.table.hands["Bob"].count == 26


def test_the_state_of_the_game_that_holds_the_line() -> None:
    two = TEXT + "\n" + TEXT.replace("Alice Bob Chloe", "Dan Eve").replace("Alice", "Dan").replace("Bob", "Eve")
    assert state_in_text(two, 4).players == ["Alice", "Bob", "Chloe"]
    assert state_in_text(two, 9).players == ["Dan", "Eve"]
    assert state_in_text(two).players == ["Dan", "Eve"]


def test_cli_text_and_json(tmp_path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(TEXT, encoding="utf-8")
    runner = CliRunner()
    text = runner.invoke(main, ["state", str(path), "--at", "4"])
    assert text.exit_code == 0, text.output
    assert "  line 4: Bob plays KC\n  turn: Chloe\n" in text.output
    assert "  legal: Chloe may play any card not known to be elsewhere\n" in text.output
    data = runner.invoke(main, ["state", str(path), "--json"])
    state = json.loads(data.output)
    jsonschema.validate(state, SCHEMA)
    assert state["table"]["piles"]["pile"] == ["5H", "KC", "5C", "3D"] and state["event"] == "Chloe plays 5C 3D"
    piped = runner.invoke(main, ["state", "-", "--at", "3"], input=TEXT)
    assert "line 3: Alice plays 5H" in piped.output


@pytest.mark.parametrize(("text", "message"), [
    ('[Game "belote"]\n[Players "A B"]\nA plays 7H\n', "unknown game 'belote'"),
    ('[Game "bataille-corse"]\n[Players "A B"]\nA plays 11H\n', "expected a card"),
])
def test_a_game_that_cannot_be_read_is_a_clear_error(tmp_path, text, message) -> None:
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["state", str(path)])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_wrong_state_expectation_fails() -> None:
    with pytest.raises(AssertionError):
        check_expectations(TEXT.replace("Bob plays KC\n", "Bob plays KC\n; expect state turn: Alice\n"))
    check_expectations(TEXT.replace("Bob plays KC\n", "Bob plays KC\n; expect state turn: Chloe\n"))


@pytest.mark.parametrize("command", [["state"], ["explain"]])
def test_what_a_record_or_its_name_brings_reaches_the_terminal_escaped(tmp_path, command: list[str]) -> None:
    """As in check's reports: an escape sequence in a file name, a right-to-left override
    in a header, are shown as escapes, never sent to the terminal."""
    path = tmp_path / "a\x1b[2Jb.txt"
    path.write_text(TEXT.replace("[Players", '[Event "\u202e evil"]\n[Players'), encoding="utf-8")
    target = f"{path}:2" if command == ["explain"] else str(path)  # line 2: the [Event] header
    result = CliRunner().invoke(main, [*command, target])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "a\\x1b[2Jb.txt" in result.output
    if command == ["explain"]:
        assert "\u202e" not in result.output and '[Event "\\u202e evil"]' in result.output


def test_state_and_explain_read_a_json_record_as_check_does(tmp_path) -> None:
    """check reads a JSON record and points at ``referee explain FILE.json:LINE``: state and
    explain read it too, at the lines its items give."""
    runner = CliRunner()
    text = tmp_path / "g.txt"
    text.write_text(runner.invoke(main, ["fmt", "--no-config", "-"],
                                  input=(RECORDS / "bataille-corse" / "false-slap-burn-3.txt").read_bytes()).output, encoding="utf-8")
    path = tmp_path / "h.txt"  # JSON by its first character; a name as long as the text's: the same wrapping
    path.write_text(runner.invoke(main, ["export", "--no-config", str(text)]).output, encoding="utf-8")
    assert f"referee explain {path}:8" in runner.invoke(main, ["check", "--no-config", str(path)]).output
    for command in (["state", "--at", "8"], ["state", "--json"], ["explain"]):
        result, expected = (runner.invoke(main, [*command, f"{p}:8" if command == ["explain"] else str(p)]) for p in (path, text))
        assert result.exit_code == expected.exit_code == 0, result.output
        same = [" ".join(r.output.replace(str(p), "X").split()) for r, p in ((result, path), (expected, text))]
        assert same[0] == same[1]  # (a JSON line is written out: its comment not aligned as in the file)
    assert runner.invoke(main, ["state", "--at", "99", str(path)]).exit_code == 2


def test_a_group_of_cards_is_said_as_a_choice_and_given_as_data() -> None:
    """Cards of one value laid together: ``legal`` says the cards and the one to start
    with; the JSON gives the choice (``groups``) rather than every order of every subset."""
    state = state_in_text('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "5C"]\n'
                          'Ana holds KC KH KS AC AH 9D 2S\n')
    assert state.may == ["Ana may play KC or AC for S, H or D, lay several of KS KH KC, KC first, or lay several "
                         "of AH AC, AC first, the last announcing a suit"]
    data = to_json(state)
    VALIDATOR.validate(data)
    assert "Ana plays KC KH" not in data["legal"]
    kings = next(g for g in data["groups"] if g["first"] == "KC")
    assert (sorted(kings["more"]), kings["hand"], kings["suits"]) == (["KH", "KS"], 7, [None])


def test_the_gorgees_a_player_may_drink_in_parts_are_said_once() -> None:
    """Caroleto: a table may write what is owed one effect at a time (``Ben drinks 4``
    then ``Ben drinks 2``); ``legal`` says it as « up to 6 gorgées », in English and French."""
    text = ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\nBen takes ?? from Ann\nCas takes ?? from Ben\n'
            'Dom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays 4H on Ben\nBen plays 3D on Ann\nCas plays 5S on Ann\n'
            'Dom plays 2C on Ben\n')
    may = state_in_text(text).may
    assert "Ben may drink up to 6 gorgées" in may and "Ann may drink up to 8 gorgées" in may
    assert not any("drink 1" in sentence or "drink 4" in sentence for sentence in may)
    from referee.messages import use

    use("fr")
    try:
        french = state_in_text(text).may
    finally:
        use("en", explicit=False)
    assert any("jusqu'à 6 gorgées" in sentence for sentence in french), french
