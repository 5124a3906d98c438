"""Numbers (issue 38): one strict reader for every number a person writes, digits 0 to 9
only and bounded; a bad number is a finding at its line, never a traceback, and every
file after it is still checked, by ``check`` alone as by ``check --jobs 2``. A
configuration or a JSON record with a number Python cannot take is refused, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.text.numbers import MAX_DIGITS, is_digits, shown, signed, too_long, whole

# --- The reader ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("7", 7), ("007", 7), ("0" * 5000 + "12", 12), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS)),
])
def test_whole_reads_the_digits_0_to_9(text: str, value: int) -> None:
    assert whole(text) == value


@pytest.mark.parametrize("text", [
    "", "²", "¹²", "1²", "٣", "３", "𝟙", "-1", "+1", " 1", "1 ", "1.0", "1e3", "1_000", "9" * (MAX_DIGITS + 1), "9" * 5000,
])
def test_whole_refuses_anything_else(text: str) -> None:
    assert whole(text) is None


def test_signed_takes_one_sign() -> None:
    assert [signed(t) for t in ("-5", "+3", "0", "-0", "--5", "-", "+", "-²", "-" + "9" * 10)] == \
        [-5, 3, 0, 0, None, None, None, None, None]


def test_too_long_and_shown() -> None:
    assert too_long("1" * 10) and too_long("-" + "1" * 10) and not too_long("0" * 20 + "1") and not too_long("²" * 20)
    assert is_digits("0123") and not is_digits("²") and not is_digits("٣")
    assert shown("123") == "123" and shown("9" * 400) == "9" * 11 + "…"


# --- In a record: a finding at its line; the files after it checked -------------------------------------

CAROLETO = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n'
FRENCH = '[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas Dom"]\n'
OWED = "Ben says roi\nAnn plays 4S on Ben\n"
BAD = {
    "target": (CAROLETO + '[Match "m"]\n[Target "²"]\nBen says roi\n', 4,
               '[Target "²"]: expected a whole number from 1, written with the digits 0 to 9'),
    "objectif": (FRENCH + '[Partie "m"]\n[Objectif "³"]\nBen dit roi\n', 5, '[Objectif "³"]: expected a whole number'),
    "hands": (CAROLETO + '[Match "m"]\n[Hands "¹²"]\nBen says roi\n', 4, '[Hands "¹²"]: expected a whole number'),
    "donnes": (FRENCH + '[Partie "m"]\n[Donnes "٣"]\nBen dit roi\n', 5, '[Donnes "٣"]: expected a whole number'),
    "drinks": (CAROLETO + OWED + "Ben drinks ²\n", 5, "'²' is not a number written with the digits 0 to 9"),
    "boit": (FRENCH + "Ben dit roi\nAnn joue 4P sur Ben\nBen boit ²\n", 6, "'²' is not a number written with the digits 0 to 9"),
    "drinks-309": (CAROLETO + OWED + "Ben drinks " + "9" * 309 + "\n", 5,
                   "99999999999… gorgées is more than one drink line writes (at most 999)"),
    "drinks-1000": (CAROLETO + OWED + "Ben drinks 1000\n", 5, "1000 gorgées is more than one drink line writes (at most 999)"),
}
AFTER = CAROLETO + "Ben says roi\n"


def referee(*args: str, cwd=None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command in its own process (a traceback is seen as the user sees it)."""
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=dict(os.environ, PYTHONPATH=os.getcwd(), NO_COLOR="1", **(env or {})))


@pytest.mark.parametrize("name", BAD)
def test_a_bad_number_is_a_finding_at_its_line_and_the_next_file_is_checked(tmp_path, name: str) -> None:
    text, line, said = BAD[name]
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    (tmp_path / "b.txt").write_text(AFTER, encoding="utf-8")
    alone = referee("check", "--no-config", "a.txt", "b.txt", cwd=tmp_path)
    assert "Traceback" not in alone.stderr, alone.stderr
    assert alone.returncode == 2
    assert f"a.txt:{line}:" in alone.stdout and said in alone.stdout, alone.stdout
    assert "b.txt:1 caroleto (Ann, Ben, Cas and Dom): in progress" in alone.stdout
    together = referee("check", "--no-config", "--jobs", "2", "a.txt", "b.txt", cwd=tmp_path)
    assert (together.returncode, together.stdout, together.stderr) == (alone.returncode, alone.stdout, alone.stderr)


@pytest.mark.parametrize("command, status", [
    (["state"], 2), (["check", "--format", "html"], 2), (["check", "--format", "sarif"], 2),
    (["fmt", "--check"], None), (["export"], None), (["export", "--to", "json"], None)])
@pytest.mark.parametrize("name", ["target", "boit", "drinks-309"])
def test_no_command_fails_on_a_bad_number(tmp_path, name: str, command: list[str], status: int | None) -> None:
    """The commands that replay a game exit 2 (a game that cannot be checked whole); those
    that only read it (a header's value is not theirs to judge) as they do otherwise."""
    (tmp_path / ".git").mkdir()  # no configuration from above
    (tmp_path / "a.txt").write_text(BAD[name][0], encoding="utf-8")
    done = referee(*command, "a.txt", cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == status if status is not None else done.returncode in (0, 1, 2), done.stderr


ROUND = CAROLETO + """Ben says roi
Ben takes ?? from Ann
Cas takes ?? from Ben
Dom takes ?? from Cas
Ann takes ?? from Dom
Ann plays 4S on Ben
Ben plays VH on Cas
Cas plays 6H on Dom
Dom plays 10C on Ann
Ann votes pourri
Ben votes pourri
Dom votes bon
Ann beats Dom
"""
"""A round of records/caroleto/drinks.txt: Ben owes 4 gorgées."""


def test_drinks_up_to_the_limit_are_read_and_kept_exact(check_text) -> None:
    report = check_text(ROUND + "Ben drinks 999\n")
    assert [v.code for v in report.violations] == ["CA-DRINK-WRONG"]
    assert report.drunk["Ben"] == {"sips": 999} and isinstance(report.drunk["Ben"]["sips"], int)


def test_a_round_and_a_score_past_the_digits_are_findings(tmp_path) -> None:
    (tmp_path / "r.txt").write_text('[Game "carte-et-plouc"]\n[Players "Ann Ben Cas Dom"]\n-- round 1234567890\n'
                                    "Ann scores -" + "9" * 400 + "\n-- round 0\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", str(tmp_path / "r.txt")])
    assert result.exit_code == 2
    for line, said in ((3, "1234567890 has more than 9 digits: no count of a game runs so high"),
                       (4, "-9999999999… has more than 9 digits"), (5, "a round is numbered from 1: -- round 2, not '0'")):
        assert f"r.txt:{line}:" in result.output and said in result.output, result.output


# --- Configurations ---------------------------------------------------------------------------------------

LONG = "9" * 5000


@pytest.mark.parametrize("where", ["--config", "referee.toml", "pyproject.toml"])
@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"]])
def test_a_configuration_with_a_number_too_long_is_not_toml(tmp_path, where: str, command: list[str]) -> None:
    (tmp_path / ".git").mkdir()
    name = "pyproject.toml" if where == "pyproject.toml" else "referee.toml"
    table = "[tool.referee]\n" if name == "pyproject.toml" else ""
    (tmp_path / name).write_text(f"{table}strict = {LONG}\n", encoding="utf-8")
    (tmp_path / "g.txt").write_text(AFTER, encoding="utf-8")
    done = referee(*command, *(["--config", name] if where == "--config" else []), "g.txt", cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2
    assert f"{name}: this configuration is not TOML: a number is too long (more than 4,300 digits)" in done.stderr


# --- JSON records: lines and columns are whole numbers ------------------------------------------------------

def _json_game(**changes: object) -> str:
    document = {"file": "g.txt", "games": [{
        "line": 1, "headers": [{"tag": "Game", "value": "caroleto", "line": 1},
                               {"tag": "Players", "value": "Ann Ben Cas Dom", "line": 2}],
        "events": [{"line": 3, "column": 1, "player": "Ben", "verb": "says", "word": "roi"}],
        "comments": [{"text": "; a note", "line": 4}]}]}
    game = document["games"][0]
    for where, value in changes.items():
        kind, _, key = where.rpartition("_")
        (game[kind][0] if kind else game)[key] = value
    return json.dumps(document)


@pytest.mark.parametrize("where, value, field, shown_as", [
    ("events_line", 5.0, "games[0].events[0].line", "5.0"),
    ("events_line", 1e308, "games[0].events[0].line", "1e+308"),
    ("events_column", 1.0, "games[0].events[0].column", "1.0"),
    ("headers_line", 2.0, "games[0].headers[0].line", "2.0"),
    ("comments_line", 4.0, "games[0].comments[0].line", "4.0"),
    ("_line", 1.0, "games[0].line", "1.0"),
    ("events_line", 10 ** 12, "games[0].events[0].line", "10000000000…"),
])
@pytest.mark.parametrize("command", [["check"], ["import"], ["export", "--to", "json"]])
def test_a_json_line_or_column_must_be_a_whole_number(tmp_path, where: str, value: object, field: str, shown_as: str,
                                                      command: list[str]) -> None:
    (tmp_path / "g.json").write_text(_json_game(**{where: value}), encoding="utf-8")
    result = CliRunner().invoke(main, [*command, "--no-config", str(tmp_path / "g.json")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    assert f"{field}: expected a whole number from 1 to 999,999,999,999, such as 12, got {shown_as}" in result.output


def test_a_json_boolean_line_is_refused_by_its_field(tmp_path) -> None:
    (tmp_path / "g.json").write_text(_json_game(events_line=True), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", str(tmp_path / "g.json")])
    assert result.exit_code == 2 and "games[0].events[0].line: " in result.output


def test_a_json_record_with_whole_numbers_still_reads(tmp_path) -> None:
    (tmp_path / "g.json").write_text(_json_game(), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", str(tmp_path / "g.json")])
    assert result.exit_code == 0 and "g.json:1 caroleto" in result.output, result.output


def test_a_numbered_card_in_json_is_read_with_digits_only(tmp_path) -> None:
    document = {"file": "g.txt", "games": [{
        "line": 1, "headers": [{"tag": "Game", "value": "flaschenteufel", "line": 1},
                               {"tag": "Players", "value": "Ann Ben Cas", "line": 2}],
        "events": [{"line": 3, "column": 1, "player": "Ann", "verb": "plays", "cards": ["²"]}], "comments": []}]}
    (tmp_path / "g.json").write_text(json.dumps(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", str(tmp_path / "g.json")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2 and "games[0].events[0].cards[0]: '²' is not a card" in result.output


def test_a_match_reads_its_round_with_the_same_reader(tmp_path) -> None:
    """[Round "02"] is the second hand (leading zeros are the same number everywhere);
    [Round "²"] is no number: REC-ROUND-ORDER, not a traceback."""
    hand = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n[Match "m"]\n[Round "{n}"]\nAlice plays 7H\n'
    (tmp_path / "m.txt").write_text("\n".join(hand.replace("{n}", n) for n in ("1", "02", "²")), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", "--format", "json", str(tmp_path / "m.txt")])
    flagged = [[v["code"] for v in game["violations"]] for game in json.loads(result.output)]
    assert flagged == [[], [], ["REC-ROUND-ORDER"]], flagged
