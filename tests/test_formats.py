"""``referee check``'s output formats, --quiet, --strict, the summary, the exit policy and
--jobs, each read back against its format."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote_to_bytes

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.reports.formats import github_data, github_property
from referee.files.resources import read_resource

from .conftest import RECORDS

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
SLAP = GOOD + "Alice slaps\n"
ACCEPTED = GOOD + "Alice slaps  ; accepted BC-FALSE-SLAP\nAlice plays 3H\n"
STALE = GOOD + "Alice plays 3H  ; accepted BC-FALSE-SLAP\n"
FINISHED = (RECORDS / "bataille-corse" / "finished-winner.txt").read_text(encoding="utf-8")
BROKEN = GOOD.replace("JD", "11D")
FILES = {"a-good.txt": GOOD, "b-slap.txt": SLAP, "c-accepted.txt": ACCEPTED, "d-stale.txt": STALE,
         "e-finished.txt": FINISHED, "f-broken.txt": BROKEN}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    records = tmp_path / "records"
    records.mkdir()
    for name, text in FILES.items():
        (records / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return records


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--no-config", *args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def test_the_summary_counts_each_status_and_the_accepted_rulings_apart(folder) -> None:
    code, out = check("records")
    assert code == 2
    assert out.splitlines()[-1] == ("2 games with 2 violations; 1 game that could not be checked whole; 2 in progress; "
                                    "1 valid (6 games in 6 files); 1 fault accepted by the table")


@pytest.mark.parametrize(("files", "strict", "code"), [
    (["a-good.txt", "e-finished.txt", "c-accepted.txt"], False, 0),
    (["a-good.txt", "e-finished.txt", "c-accepted.txt"], True, 1),
    (["e-finished.txt"], True, 0),
    (["b-slap.txt", "a-good.txt"], False, 1),
    (["d-stale.txt"], False, 1),
    (["f-broken.txt", "b-slap.txt"], False, 2),
])
def test_the_exit_policy(folder, files: list[str], strict: bool, code: int) -> None:
    args = [f"records/{f}" for f in files] + (["--strict"] if strict else [])
    assert check(*args)[0] == code


def test_quiet_prints_only_the_games_that_fail_and_the_summary(folder) -> None:
    code, out = check("--quiet", "records")
    titles = [line for line in out.splitlines() if line.startswith("records/")]
    assert sorted({t.split(":")[0] for t in titles}) == ["records/b-slap.txt", "records/d-stale.txt", "records/f-broken.txt"]
    assert "(6 games in 6 files)" in out.splitlines()[-1]
    code, out = check("--quiet", "--strict", "records")
    assert "records/a-good.txt:1 bataille-corse" in out


def test_concise_is_one_line_per_finding(folder) -> None:
    code, out = check("--format", "concise", "--strict", "records")
    assert out.splitlines()[:-1] == [
        "records/a-good.txt:1:1: in progress: Alice turns the next card",
        "records/b-slap.txt:6:1: BC-FALSE-SLAP Alice slapped, but the pile shows no pair (the pile is empty)",
        "records/c-accepted.txt:6:1: BC-FALSE-SLAP (accepted) Alice slapped, but the pile shows no pair (the pile is empty)",
        "records/c-accepted.txt:1:1: in progress: Bob turns the next card",
        "records/d-stale.txt:6:1: REC-STALE-ACCEPTED the line says the table accepted BC-FALSE-SLAP, but referee finds "
        "no BC-FALSE-SLAP here: remove the mark",
        "records/f-broken.txt:3:13: error: expected a card such as 7H or 10♥, got '11D'",
        "records/f-broken.txt:4:11: BC-OUT-OF-TURN Bob turned 8C, but it is Alice's turn: Alice turns the first card",
        "records/f-broken.txt:5:1: BC-NOT-WON Alice took the pile, but nobody has won it yet",
    ]
    code, out = check("--format", "concise", "--quiet", "records")
    assert "(accepted)" not in out and "in progress" not in out.splitlines()[0]


def test_github_annotations_and_their_escapes(folder) -> None:
    odd = folder / "odd, name: 100%.txt"
    odd.write_text(SLAP, encoding="utf-8")
    code, out = check("--format", "github", "records/c-accepted.txt", str(odd.relative_to(folder.parent)), "records/f-broken.txt")
    command = re.compile(r"^::(error|notice) file=([^,:]*)(?:,line=(\d+),col=(\d+))?,title=([^,:]*)::(.*)$")
    lines = [command.match(line) for line in out.splitlines()[:-1]]
    assert all(lines), out
    kinds = [(m.group(1), m.group(5)) for m in lines]
    assert kinds[:3] == [("notice", "BC-FALSE-SLAP (accepted)"), ("error", "BC-FALSE-SLAP"), ("error", "cannot be checked")]
    assert lines[1].group(2) == "records/odd%2C name%3A 100%25.txt" and lines[1].group(3, 4) == ("6", "1")
    assert lines[1].group(6).startswith("Alice slapped") and "%0A« un joueur qui commet une erreur" in lines[1].group(6)
    assert github_data("50% a\r\nb") == "50%25 a%0D%0Ab" and github_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_github_escapes_what_a_record_brings(folder) -> None:
    """A control character in a file name is made visible before GitHub's escapes: no
    annotation can be split or forged by a name."""
    odd = folder / "x\n::error file=forged::boom.txt"
    odd.write_text(SLAP, encoding="utf-8")
    code, out = check("--format", "github", str(odd.relative_to(folder.parent)))
    assert out.count("\n") == 2 and out.startswith("::error file=records/x\\n%3A%3Aerror file=forged%3A%3Aboom.txt,line=6")


@pytest.mark.parametrize("form", ["concise", "github"])
def test_each_file_that_cannot_be_read_is_named(folder, form: str) -> None:
    """A file with no game read (not UTF-8, a line too long) after one with a line that
    cannot be read is named too: the count of lines already told is the game's, not the
    run's."""
    (folder / "g-latin1.txt").write_bytes(GOOD.encode() + b"; caf\xe9\n")
    (folder / "h-long.txt").write_text('[Game "bataille-corse"]\n' + "x" * 5000 + "\n", encoding="utf-8")
    (folder / "i-binary.txt").write_bytes(b"\xff\xfe\x00binary")
    code, out = check("--format", form, "records/f-broken.txt", "records/h-long.txt", "records/i-binary.txt", "records/g-latin1.txt")
    named = [name for name in ("f-broken", "h-long", "i-binary", "g-latin1") if f"records/{name}.txt" in out]
    assert named == ["f-broken", "h-long", "i-binary", "g-latin1"], out
    assert code == 2


def test_json_and_its_old_flag(folder) -> None:
    schema = json.loads(read_resource("schemas", "report.schema.json"))
    code, out = check("--format", "json", "records")
    data = json.loads(out)
    jsonschema.validate(data, schema)
    assert check("--json", "records")[1] == out
    assert [g["status"] for g in data] == ["in-progress", "violations", "in-progress", "violations", "valid", "error"]
    assert data[2]["violations"][0]["accepted"] is True


def test_jsonl_is_one_game_per_line_streamed(folder) -> None:
    schema = json.loads(read_resource("schemas", "report.schema.json"))
    games = '[Game "bataille-corse"]\n[Players "A B"]\nA plays 3H\nA plays 4H\n\n' * 3
    (folder / "g-three.txt").write_text(games, encoding="utf-8")
    code, out = check("--format", "jsonl", "records")
    lines = out.splitlines()
    assert len(lines) == 9 and out.endswith("\n")
    data = [json.loads(line) for line in lines]
    jsonschema.validate(data, schema)
    assert [(d["file"], d["line"]) for d in data[-3:]] == [("records/g-three.txt", n) for n in (1, 6, 11)]


def test_jsonl_writes_each_game_once_it_is_checked() -> None:
    from referee.engine import check_games
    from referee.reports.formats import JsonLinesWriter, Settings
    from referee.notation import parse_text

    out: list[str] = []
    writer = JsonLinesWriter(out.append, Settings("jsonl"))
    games = parse_text('[Game "bataille-corse"]\n[Players "A B"]\nA plays 3H\nA plays 4H\n\n' * 3)
    for n, (item, report) in enumerate(check_games(games, found=writer.sink), 1):
        writer.report(item, report)
        written = "".join(out)
        assert written.endswith("\n") and written.count("\n") == n
        assert json.loads(written.splitlines()[-1])["violations"][0]["code"] == "BC-OUT-OF-TURN"


def test_junit_reads_back_as_junit(folder) -> None:
    from junitparser import Error, Failure, JUnitXml

    code, out = check("--format", "junit", "--quiet", "--strict", "records")
    xml = JUnitXml.fromstring(out.encode("utf-8"))
    suites = {suite.name: suite for suite in xml}
    assert list(suites) == [f"records/{name}" for name in FILES]
    cases = {name: list(suite) for name, suite in suites.items()}
    assert all(len(c) == 1 for c in cases.values())  # --quiet does not apply: passing games count
    results = {name: [type(r) for r in c[0].result] for name, c in cases.items()}
    assert results == {"records/a-good.txt": [Failure], "records/b-slap.txt": [Failure], "records/c-accepted.txt": [Failure],
                       "records/d-stale.txt": [Failure], "records/e-finished.txt": [], "records/f-broken.txt": [Error]}
    slap = cases["records/b-slap.txt"][0].result[0]
    assert slap.type == "violations" and slap.message == "1 violation" and "6:1: BC-FALSE-SLAP" in slap.text
    assert cases["records/a-good.txt"][0].result[0].type == "in-progress"
    assert "BC-FALSE-SLAP (accepted)" in cases["records/c-accepted.txt"][0].system_out
    assert (suites["records/f-broken.txt"].errors, suites["records/b-slap.txt"].failures, suites["records/e-finished.txt"].tests) == (1, 1, 1)
    code, out = check("--format", "junit", "records/c-accepted.txt")
    assert not list(list(JUnitXml.fromstring(out.encode("utf-8")))[0])[0].result  # in progress: passes without --strict


def test_junit_writes_one_finding_per_line(folder) -> None:
    """The lines of a failure, an error and system-out are lines, not a ``\\n`` shown."""
    import xml.etree.ElementTree as ElementTree

    (folder / "g-two.txt").write_text(SLAP + "Bob slaps\n", encoding="utf-8")
    code, out = check("--format", "junit", "records/f-broken.txt", "records/g-two.txt")
    suites = ElementTree.fromstring(out)
    error = suites.find("testsuite/testcase/error").text.split("\n")
    assert error[0] == "records/f-broken.txt:3:13: expected a card such as 7H or 10♥, got '11D'"
    assert error[-2:] == ["4:11: BC-OUT-OF-TURN Bob turned 8C, but it is Alice's turn: Alice turns the first card",
                          "5:1: BC-NOT-WON Alice took the pile, but nobody has won it yet"]
    failure = suites.find("testsuite[2]/testcase/failure").text.split("\n")
    assert [line.split(" ")[:2] for line in failure] == [["6:1:", "BC-FALSE-SLAP"], ["7:1:", "BC-FALSE-SLAP"]]
    assert "\\n" not in out


def test_sarif(folder) -> None:
    code, out = check("--format", "sarif", "records")
    data = json.loads(out)
    assert data["version"] == "2.1.0" and data["$schema"].endswith("sarif-2.1.0.json")
    (run,) = data["runs"]
    assert run["tool"]["driver"]["name"] == "referee"
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert "gifler" in rules["BC-FALSE-SLAP"]["fullDescription"]["text"]
    found = [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"]["region"]["startLine"], "suppressions" in r) for r in run["results"]]
    assert found == [("BC-FALSE-SLAP", "records/b-slap.txt", 6, False), ("BC-FALSE-SLAP", "records/c-accepted.txt", 6, True),
                     ("REC-STALE-ACCEPTED", "records/d-stale.txt", 6, False), ("BC-OUT-OF-TURN", "records/f-broken.txt", 4, False),
                     ("BC-NOT-WON", "records/f-broken.txt", 5, False), ("unreadable", "records/f-broken.txt", 3, False)]


def test_a_sarif_uri_names_the_file_itself(folder) -> None:
    """Percent-encoded from the file name's bytes: an escape, a '#', a byte that is not
    UTF-8; it was made visible first, and then named another file (a\\x1bb)."""
    name = os.fsdecode(b"a\x1bb #1 caf\xe9.txt")
    try:
        (folder / name).write_text(SLAP, encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("the file system refuses such a name")
    code, out = check("--format", "sarif", f"records/{name}")
    uri = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "records/a%1Bb%20%231%20caf%E9.txt"
    assert os.fsdecode(unquote_to_bytes(uri)) == f"records/{name}"


def test_sarif_quotes_the_rule_of_each_game_that_reports_a_shared_code(tmp_path) -> None:
    """TR-REVOKE breaks a rule of Pierre qui Roule and one of Flaschenteufel: both are
    quoted, whatever the order the files are checked in (--jobs added them in another
    order than one process did, and the last one replaced the first)."""
    files = [str(RECORDS / "flaschenteufel" / "follow-colour.txt"), str(RECORDS / "pierre-qui-roule" / "follow-suit.txt")]
    outputs = [check("--format", "sarif", *order)[1] for order in (files, files[::-1])]
    rules = [{r["id"]: r for r in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]} for out in outputs]
    assert rules[0]["TR-REVOKE"] == rules[1]["TR-REVOKE"]
    text = rules[0]["TR-REVOKE"]["fullDescription"]["text"]
    assert "Les autres joueurs doivent poser une carte de la même couleur" in text  # Flaschenteufel
    assert "Chaque joueur suivant doit jouer une carte de la couleur demandée" in text  # Pierre qui Roule


@pytest.mark.parametrize("form", ["text", "concise", "json", "jsonl", "github", "junit", "sarif"])
def test_select_and_ignore_in_every_format(folder, form: str) -> None:
    assert check("--format", form, "--ignore", "BC-FALSE-SLAP", "records/b-slap.txt")[0] == 0
    assert check("--format", form, "--select", "REC", "records/b-slap.txt")[0] == 0
    code, out = check("--format", form, "--select", "BC", "records/b-slap.txt")
    assert code == 1 and "BC-FALSE-SLAP" in out


@pytest.mark.parametrize("form", ["text", "concise", "json", "jsonl", "github", "junit", "sarif"])
def test_every_format_says_a_ruling_was_accepted(folder, form: str) -> None:
    code, out = check("--format", form, "records/c-accepted.txt")
    assert code == 0
    said = {"text": "BC-FALSE-SLAP (accepted)", "concise": "BC-FALSE-SLAP (accepted)", "json": '"accepted": true',
            "jsonl": '"accepted": true', "github": "::notice", "junit": "BC-FALSE-SLAP (accepted)", "sarif": '"kind": "inSource"'}
    assert said[form] in out


def test_jobs_keep_the_order_of_a_thousand_records(tmp_path) -> None:
    """A folder of 1,000 records checked by two processes prints exactly what one prints."""
    for n in range(1000):
        text = SLAP if n % 7 == 0 else ACCEPTED if n % 11 == 0 else GOOD
        (tmp_path / f"{n % 10}" / f"r{n:04d}.txt").parent.mkdir(exist_ok=True)
        (tmp_path / f"{n % 10}" / f"r{n:04d}.txt").write_text(text, encoding="utf-8")

    def run(*args: str) -> bytes:
        done = subprocess.run([sys.executable, "-m", "referee", "check", "--no-config", *args, str(tmp_path)],
                              capture_output=True, check=False)
        assert done.returncode == 1 and not done.stderr, done.stderr
        return done.stdout

    one = run("--format", "concise")
    assert run("--format", "concise", "--jobs", "2") == one
    paths = [line.split(":")[0] for line in one.decode().splitlines()[:-1]]
    assert paths == sorted(paths) and len(paths) == 143 + 78
    assert "(1000 games in 1000 files)" in one.decode().splitlines()[-1]
    jsons = run("--format", "json", "--jobs", "2")
    assert jsons == run("--format", "json") and len(json.loads(jsons)) == 1000


@pytest.mark.parametrize(("asked", "files", "cores", "started"), [
    (256, 300, 2, 4), (256, 3, 8, 3), (0, 100, 2, 2), (2, 1, 2, 1), (3, 300, 2, 3), (0, 1, 16, 1)])
def test_jobs_are_at_most_the_files_and_twice_the_cores(asked: int, files: int, cores: int, started: int) -> None:
    from referee.cli.batch import worker_count

    assert worker_count(asked, files, cores) == started


@pytest.mark.parametrize(("files", "started"), [(12, [4]), (3, [3]), (1, [])])
def test_jobs_256_start_no_more_processes_than_files_and_twice_the_cores(tmp_path, monkeypatch, files: int,
                                                                        started: list[int]) -> None:
    """``--jobs 256`` on 300 small files had forked 176 processes (issue 38)."""
    import concurrent.futures

    sizes: list[int] = []

    class Recording(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers=None, *args, **kwargs) -> None:
            sizes.append(max_workers)
            super().__init__(max_workers, *args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    for n in range(files):
        (tmp_path / f"r{n:02d}.txt").write_text(GOOD, encoding="utf-8")
    code, out = check("--jobs", "256", "--format", "concise", str(tmp_path))
    assert code == 0 and sizes == started
    assert out.splitlines()[-1] == f"{files} in progress" + (f" ({files} games in {files} files)" if files > 1 else "")


# --- The first minute: the [Game] header, a missing file, the summary -------------------------

def check_text(text: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--no-config", "-"], input=text)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def test_a_missing_game_header_is_said_with_the_games() -> None:
    code, out = check_text('[Players "Ana Ben"]\nAna plays 5H\n')
    assert code == 2 and "a header after a game's events" not in out
    assert ('<stdin>:1:1: this game has no [Game "..."] header; say which game it is: bataille-corse, carte-et-plouc, '
            "pierre-qui-roule, flaschenteufel or caroleto") in out


def test_a_misspelled_game_header_gets_did_you_mean() -> None:
    code, out = check_text('[Gmae "carte-et-plouc"]\n[Players "Ana Ben"]\nAna plays 5H\n')
    assert code == 2 and '<stdin>:1:1: this game has no [Game "..."] header: did you mean [Game "carte-et-plouc"] for [Gmae]?' in out


def test_a_header_after_the_events_still_starts_a_game_of_its_own() -> None:
    code, out = check_text('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\nAna plays 5H\n\n[Result "Ana"]\n')
    assert "<stdin>:5:1: a header after a game's events starts a new game" in out


def test_a_missing_file_and_a_pattern_that_matches_nothing_are_counted_as_files(folder) -> None:
    code, out = check("records/a-good.txt", "records/none.txt", "nothing/*.txt")
    assert code == 2
    assert out.splitlines()[-1] == "2 files not found or unreadable; 1 in progress"


def test_bad_games_of_a_json_record_are_counted_as_games_and_a_bad_file_once(folder) -> None:
    """A JSON file read whole, with three games that cannot be read, is three games not
    checked, not three files; a file refused for two reasons is one file (issue 38)."""
    assert check("--format", "json", "records/a-good.txt")[0] == 0
    game = json.loads(CliRunner().invoke(main, ["export", "records/a-good.txt"]).output)["games"][0]
    bad = json.loads(json.dumps(game))
    bad["events"][0]["verb"] = "flies"
    Path("three.json").write_text(json.dumps({"file": "x", "games": [game, bad, bad, bad]}), encoding="utf-8")
    Path("whole.json").write_text('{"games": 3}', encoding="utf-8")
    code, out = check("three.json", "whole.json")
    assert code == 2
    assert out.splitlines()[-1] == ("3 games that could not be checked whole; 1 file not found or unreadable; 1 in progress")


@pytest.mark.parametrize(("files", "summary"), [
    (["a-good.txt"], "1 in progress"),
    (["e-finished.txt"], "1 valid"),
    (["b-slap.txt"], "1 game with 1 violation"),
    (["b-slap.txt", "a-good.txt", "e-finished.txt"], "1 game with 1 violation; 1 in progress; 1 valid (3 games in 3 files)"),
])
def test_the_summary_names_only_what_there_is(folder, files: list[str], summary: str) -> None:
    assert check(*[f"records/{f}" for f in files])[1].splitlines()[-1] == summary


TYPO = GOOD.replace('[Players "Alice Bob"]\n', '[Players "Alice Bob"]\n[Slap "sandwich"]\n')


@pytest.mark.parametrize("form", ["text", "concise", "json", "jsonl", "github", "junit", "sarif"])
def test_a_header_close_to_an_option_fails_in_every_format(tmp_path, form: str) -> None:
    """[Slap "sandwich"] for [Slaps]: the sandwich rule would be off in silence. A
    violation with its code and "did you mean", exit 1, whatever the format."""
    (tmp_path / "typo.txt").write_text(TYPO, encoding="utf-8")
    code, out = check("--format", form, str(tmp_path / "typo.txt"))
    assert code == 1, out
    assert "REC-MISSPELLED-TAG" in out and "did you mean [Slaps]?" in out
    assert {"github": "::error file=", "junit": "<failure", "sarif": '"ruleId": "REC-MISSPELLED-TAG"'}.get(form, "") in out


def test_a_tag_far_from_every_option_is_the_record_s_own(tmp_path) -> None:
    (tmp_path / "own.txt").write_text(GOOD.replace("[Players", '[Colour "red backs"]\n[Players'), encoding="utf-8")
    assert check(str(tmp_path / "own.txt")) == (0, f"{tmp_path / 'own.txt'}:1 bataille-corse (Alice and Bob): in progress\n"
                                                 "  now: Alice turns the next card\n"
                                                 "  cards played: 2, piles collected: 1, cards unseen: 50\n1 in progress\n")
