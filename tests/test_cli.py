"""The command line, through click's runner: exit codes, JSON against the schemas."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.files.resources import read_resource

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
BAD = GOOD + "Alice slaps\n"


def schema(name: str) -> dict:
    return json.loads(read_resource("schemas", name))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("text", "code"), [(GOOD, 0), (BAD, 1), (GOOD.replace("plays JD", "plays 11D"), 2), ("", 2)])
def test_exit_status(runner, tmp_path, text: str, code: int) -> None:
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", text)])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output


def test_missing_file(runner) -> None:
    result = runner.invoke(main, ["check", "no/such/file.txt"])
    assert result.exit_code == 2
    assert "no/such/file.txt: cannot read the file: No such file or directory" in result.output


def test_violation_shows_its_line_and_rule(runner, tmp_path) -> None:
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", BAD)])
    assert "6:1 BC-FALSE-SLAP" in result.output
    assert "Alice slaps" in result.output
    assert "gifler" in result.output


def test_a_record_piped_in(runner) -> None:
    result = runner.invoke(main, ["check", "-"], input=BAD)
    assert result.exit_code == 1
    assert "<stdin>:1" in result.output and "6:1 BC-FALSE-SLAP" in result.output
    assert "      Alice slaps\n      ^" in result.output


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_the_source_line_whatever_the_line_ends(runner, tmp_path, end: str) -> None:
    path = tmp_path / "g.txt"
    path.write_bytes(("\ufeff" + BAD).replace("\n", end).encode())
    result = runner.invoke(main, ["check", str(path)])
    assert "6:1 BC-FALSE-SLAP" in result.output
    assert "      Alice slaps\n      ^" in result.output


def test_a_terminal_gets_the_same_text_in_colour(runner, tmp_path) -> None:
    path = write(tmp_path, "g.txt", BAD + "Bob plays 11H\n")
    plain = runner.invoke(main, ["check", path]).output
    coloured = runner.invoke(main, ["check", path], env={"FORCE_COLOR": "1"}).output
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_a_terminal_without_unicode_gets_no_traceback(tmp_path) -> None:
    path = write(tmp_path, "g.txt", BAD.replace("JD", "J♦"))
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "referee", "check", path], capture_output=True, env=env, check=False)
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"? un joueur qui commet une erreur" in done.stdout  # « shown as ?


def test_the_printer_shows_a_chunk_of_lines_each_piece_visible(monkeypatch, capsys) -> None:
    """The text report's printer gets a game's lines at once: plain, in colour, or to an
    output that cannot show ♠ (``degraded``), every piece made visible on its own."""
    import io

    from referee.cli.running import _Printer

    monkeypatch.delenv("NO_COLOR", raising=False)
    lines = [[("a\nb\x1b[2J", "bold"), (" ok ♠", "")], [("  \u202e", "red")]]
    for color in ("never", "always"):
        show = _Printer(color)
        show(lines)
        show([])
        out = capsys.readouterr().out
        assert re.sub(r"\x1b\[[0-9;]*m", "", out) == "a\\nb\\x1b[2J ok ♠\n  \\u202e\n"
        assert ("\x1b[1m" in out) == (color == "always") and not show.degraded
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="replace"))
    show = _Printer("never")
    show([[("plain", "")]])
    assert not show.degraded
    show(lines)
    assert show.degraded


def test_syntax_error_points_at_the_spot(runner, tmp_path) -> None:
    path = write(tmp_path, "g.txt", GOOD.replace("plays JD", "plays 11D"))
    result = runner.invoke(main, ["check", path])
    assert f"{path}:3:13: expected a card such as 7H or 10♥, got '11D'" in result.output
    assert "            ^" in result.output


def test_json_report_matches_its_schema(runner, tmp_path) -> None:
    files = [write(tmp_path, f"{n}.txt", t) for n, t in (("a", GOOD), ("b", BAD), ("c", "Alice plays 3H\n"))]
    result = runner.invoke(main, ["check", "--json", *files])
    data = json.loads(result.output)
    jsonschema.validate(data, schema("report.schema.json"))
    assert [g["status"] for g in data] == ["in-progress", "violations", "error"]
    assert data[1]["violations"][0] | {"message": "", "rule": "", "fields": {}} == {
        "code": "BC-FALSE-SLAP", "line": 6, "column": 1, "player": "Alice", "message": "", "key": "BC-FALSE-SLAP",
        "fields": {}, "rule": "", "accepted": False}
    assert data[1]["violations"][0]["fields"]["why"]["key"] == "bc.no-pattern"  # the reason, a sentence within it
    assert data[0]["stats"]["cards_played"] == 2 and data[0]["stats"]["piles_collected"] == 1
    assert data[0]["todo"] == ["Alice turns the next card"]


def test_unknown_game_is_a_clear_error(runner, tmp_path) -> None:
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", '[Game "belote"]\n[Players "A B"]\nA plays 7H\n')])
    assert result.exit_code == 2
    assert "1:1: unknown game 'belote'" in result.output


def test_an_unknown_game_close_to_one_gets_did_you_mean(runner, tmp_path) -> None:
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", '[Game "bataile-corse"]\n[Players "A B"]\nA plays 7H\n')])
    assert result.exit_code == 2
    assert "1:1: unknown game 'bataile-corse' (did you mean 'bataille-corse'?); referee knows" in result.output


def test_an_empty_file_is_an_empty_file(runner, tmp_path) -> None:
    """Not "1 game that could not be checked whole": there is no game in it, nor anything
    else; it is counted as a file, and a check of nothing does not pass (exit 2)."""
    empty = write(tmp_path, "empty.txt", "")
    result = runner.invoke(main, ["check", empty, write(tmp_path, "good.txt", GOOD)])
    assert result.exit_code == 2
    assert f"{empty}: an empty file" in result.output
    assert result.output.splitlines()[-1] == "1 empty file; 1 in progress (1 game in 2 files)"
    result = runner.invoke(main, ["check", "--format", "json", empty])
    assert result.exit_code == 2 and json.loads(result.output)[0]["error"]["message"].startswith("an empty file")
    result = runner.invoke(main, ["check", write(tmp_path, "empty.json", " \n")])  # JSON by its name
    assert result.exit_code == 2 and result.output.splitlines()[-1] == "1 empty file", result.output


def test_check_with_no_file_checks_the_current_folder_as_configured(runner, tmp_path, monkeypatch) -> None:
    """As ``ruff check``: the folder it runs in, searched as a folder named is, with the
    configuration's excludes; paths as found from there."""
    (tmp_path / "records" / "drafts").mkdir(parents=True)
    write(tmp_path / "records", "a.txt", BAD)
    write(tmp_path / "records", "b.txt", GOOD)
    write(tmp_path / "records" / "drafts", "c.txt", "not a record\n")
    (tmp_path / "pyproject.toml").write_text('[tool.referee]\nexclude = ["drafts"]\n', encoding="utf-8")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["check", "--format", "concise"])
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == ["records/a.txt:6:1: BC-FALSE-SLAP Alice slapped, but the pile shows no pair (the pile is empty)",
                                          "1 game with 1 violation; 1 in progress (2 games in 2 files)"]


def test_games_lists_variants(runner) -> None:
    result = runner.invoke(main, ["games"])
    assert result.exit_code == 0
    for word in ("bataille-corse", "Slaps", "big-mac", "no-slap-30", "carte-et-plouc"):
        assert word in result.output


def test_games_names_one_game_by_its_name_or_title(runner) -> None:
    one = runner.invoke(main, ["games", "Carte et Plouc de Charlotte"])
    assert one.exit_code == 0 and one.output.startswith("carte-et-plouc") and "bataille-corse" not in one.output
    assert "[Sanction" in one.output and "[Slaps" not in one.output
    wrong = runner.invoke(main, ["games", "carolet"])
    assert wrong.exit_code == 2 and "unknown game 'carolet' (did you mean 'caroleto'?)" in wrong.output


def test_export_json_matches_its_schema(runner, tmp_path) -> None:
    path = write(tmp_path, "g.txt", "; a match\n" + GOOD + "; the end\n")
    result = runner.invoke(main, ["export", "--to", "json", path])
    data = json.loads(result.output)
    jsonschema.validate(data, schema("record.schema.json"))
    assert [c["text"] for c in data["games"][0]["comments"]] == ["; a match", "; the end"]


def test_export_never_writes_the_file(runner, tmp_path) -> None:
    path = write(tmp_path, "g.txt", "; keep me\n" + GOOD)
    before = open(path, encoding="utf-8").read()
    result = runner.invoke(main, ["export", "--to", "text", path])
    assert "; keep me" in result.output
    assert open(path, encoding="utf-8").read() == before


def test_shipped_records_report_matches_schema(runner) -> None:
    from .conftest import RECORDS

    files = [str(p) for p in sorted(RECORDS.rglob("*.txt")) if p.parent.name != "bad"]
    if not files:
        pytest.skip("no records")
    result = runner.invoke(main, ["check", "--json", *files])
    jsonschema.validate(json.loads(result.output), schema("report.schema.json"))


def test_a_game_not_refereed_yet_is_named_as_such(runner, tmp_path) -> None:
    from referee.games import GAMES

    waiting = next((g for g in GAMES if g.module is None), None)
    if waiting is None:
        pytest.skip("every game is refereed")
    text = f'[Game "{waiting.title}"]\n[Players "Alice Bob Chloe"]\nAlice plays 7H\n'
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", text)])
    assert result.exit_code == 2
    assert f"1:1: {waiting.title} is not refereed yet (the record's notation was read without error)" in result.output


@pytest.mark.parametrize(("line", "message"), [
    ('[Players "Alice 2Bob"]', "'2Bob' cannot be a player's name"),
    ('[Players "Alice Bob."]', "'Bob.' cannot be a player's name"),
])
def test_player_names_are_checked(runner, tmp_path, line: str, message: str) -> None:
    text = GOOD.replace('[Players "Alice Bob"]', line)
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", text)])
    assert result.exit_code == 2 and f"g.txt:2:1: {message}" in result.output
    assert f"    {line}\n    ^" in result.output


def test_the_caret_under_a_tab_indented_line(runner, tmp_path) -> None:
    text = GOOD + "\tBob\tplays\t9C\n"
    result = runner.invoke(main, ["check", write(tmp_path, "g.txt", text)])
    assert "6:12 BC-OUT-OF-TURN" in result.output
    assert "\n       Bob plays 9C\n" + " " * 17 + "^\n" in result.output


def test_json_headers_show_the_first_of_a_tag_given_twice(tmp_path):
    import json

    path = tmp_path / "twice.txt"
    path.write_text('[Game "bataille-corse"]\n[Players "A B"]\n[Event "one"]\n[Event "two"]\nA plays 3H\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    (report,) = json.loads(result.output)
    assert report["headers"]["Event"] == "one"


def test_a_plain_check_imports_only_what_it_needs(tmp_path) -> None:
    """Start-up is measured in bench/bench.py; this keeps what it loads from creeping back:
    a text check of one Bataille corse record, printed to a pipe, with no configuration,
    loads no other game, no JSON, no rich, no TOML and no spelling suggestions."""
    import subprocess
    import sys

    record = tmp_path / "g.txt"
    record.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 7H\n', encoding="utf-8")
    code = ("import sys, runpy; sys.argv = ['referee', 'check', '--no-config', sys.argv[1]]\n"
            "try:\n    runpy.run_module('referee', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code, str(record)], capture_output=True, text=True,
                                cwd=tmp_path).stderr.split())
    assert "referee.games.bataille_corse" in loaded
    unwanted = {"json", "rich", "tomllib", "difflib", "jsonschema", "prompt_toolkit", "referee.cli.explain",
                "referee.games.carte_et_plouc", "referee.games.caroleto", "referee.games.tricks", "signal"}
    assert not loaded & unwanted


# --- A plain check runs without click ------------------------------------------------------

PLAIN = [["records/bataille-corse/accepted.txt"], ["records/bataille-corse/fr-partie.txt", "records/bad"],
         ["records/bad/unknown-verb.txt", "records/bad/fr-english-card.txt", "no-such-file.txt"],
         ["records/caroleto", "records/bad/empty.txt", "records/*/fr-*.txt"]]


def _in_a_process(code: str, *arguments: str, env: dict | None = None) -> subprocess.CompletedProcess:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, cwd=root,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("files", PLAIN)
def test_a_plain_check_says_what_the_click_group_says(files: list[str]) -> None:
    """``referee check FILES`` (no option) runs without click: the same report, errors and
    exit status as through the click group, in English and in French; and it loads
    neither click nor Lark."""
    quick = ("import sys\nfrom referee.cli import main\nsys.argv = ['referee', *sys.argv[1:]]\n"
             "try:\n    main()\nfinally:\n"
             "    assert not [m for m in sys.modules if m.split('.')[0] in ('click', 'lark')], 'click or lark loaded'")
    grouped = ("import sys\nfrom referee.cli.group import main\nsys.argv = ['referee', *sys.argv[1:]]\nmain()")
    for lang in ("C.UTF-8", "fr_FR.UTF-8"):
        env = {"LC_ALL": lang, "LANG": lang}
        done, expected = _in_a_process(quick, "check", *files, env=env), _in_a_process(grouped, "check", *files, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (expected.returncode, expected.stdout, expected.stderr)
        assert done.stdout and done.returncode in (0, 1, 2)


@pytest.mark.parametrize("arguments, plain", [
    (["check", "a.txt", "b"], True), (["check"], False), (["check", "-"], False), (["check", "--json", "a.txt"], False),
    (["check", "a.txt", "-q"], False), (["check", ""], False), (["fmt", "a.txt"], False), (["--lang", "fr", "check", "a"], False),
    (["check", "--", "a.txt"], False),
])
def test_only_a_check_with_files_alone_skips_click(arguments: list[str], plain: bool, monkeypatch) -> None:
    from referee.cli import _plain_check

    assert _plain_check(arguments) is plain
    monkeypatch.setenv("_REFEREE_COMPLETE", "bash_complete")  # shell completion is click's
    assert _plain_check(arguments) is False


def test_main_stands_for_the_click_group(tmp_path) -> None:
    """What used the group through referee.cli.main still does: its commands, its help
    texts, click's runner (with options), and the module's other names."""
    import click

    from referee import cli
    from referee.cli.group import main as group

    assert main.commands is group.commands and main.name == group.name and isinstance(main.commands["check"], click.Command)
    assert cli.help_strings is __import__("referee.cli.group", fromlist=["help_strings"]).help_strings
    (tmp_path / "good.txt").write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--quiet", str(tmp_path / "good.txt")])
    assert result.exit_code == 0 and result.output == "1 in progress\n"
