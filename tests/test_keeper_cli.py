"""The options linters have: ``--statistics``, ``--exit-zero``, ``--color``,
``--stdin-filename``, ``--extend-select``, and in the configuration ``extend-select``,
``per-file-ignores`` and "did you mean" for an unknown key; ``--records-only``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.files.paths import looks_like_record

from .test_formats import FILES, SLAP, check, folder  # noqa: F401 - folder is a fixture

SUMMARY = ("2 games with 2 violations; 1 game that could not be checked whole; 2 in progress; 1 valid "
           "(6 games in 6 files); 1 fault accepted by the table")


# --- --statistics ---------------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_statistics_count_each_code_the_most_frequent_first(folder, jobs: str) -> None:
    (folder / "g-two.txt").write_text(SLAP + "Bob slaps\n", encoding="utf-8")
    code, out = check("--statistics", "--jobs", jobs, "records")
    assert code == 2
    assert out.splitlines() == [
        "3  BC-FALSE-SLAP       a slap when the pile shows no pair",  # the accepted one in c-accepted.txt left out
        "1  BC-NOT-WON          a pile taken before anyone has won it",
        "1  BC-OUT-OF-TURN      a card turned out of turn",
        "1  REC-STALE-ACCEPTED  an « accepted » mark with no such fault",
        "1  unreadable          a line or a game that cannot be read",
        SUMMARY.replace("6 games in 6 files", "7 games in 7 files").replace("2 games with 2", "3 games with 4")]


def test_statistics_follow_select_and_ignore_and_count_a_game_in_progress_under_strict(folder) -> None:
    code, out = check("--statistics", "--strict", "--ignore", "BC-NOT-WON,REC", "records/a-good.txt", "records/b-slap.txt",
                      "records/f-broken.txt")
    assert [line.split()[:2] for line in out.splitlines()[:-1]] == [
        ["1", "BC-FALSE-SLAP"], ["1", "BC-OUT-OF-TURN"], ["1", "in-progress"], ["1", "unreadable"]]


def test_statistics_with_concise_and_github_print_no_finding(folder) -> None:
    for form in ("concise", "github"):
        code, out = check("--statistics", "--format", form, "records/b-slap.txt")
        assert code == 1 and out.splitlines()[0] == "1  BC-FALSE-SLAP  a slap when the pile shows no pair"
        assert len(out.splitlines()) == 2 and "::error" not in out


def test_statistics_with_a_machine_format_is_refused(folder) -> None:
    code, out = check("--statistics", "--format", "json", "records")
    assert code == 2 and "--statistics prints lines for people" in out


def test_statistics_speak_french(folder) -> None:
    result = CliRunner().invoke(main, ["--lang", "fr", "check", "--no-config", "--statistics", "records/b-slap.txt"])
    assert result.output.splitlines()[0] == "1  BC-FALSE-SLAP  une tape sur la pile quand elle ne montre pas de paire"


# --- --exit-zero ----------------------------------------------------------------------------

def test_exit_zero_makes_violations_exit_0_but_not_what_cannot_be_read(folder) -> None:
    assert check("--exit-zero", "records/b-slap.txt")[0] == 0
    assert check("--exit-zero", "--strict", "records/a-good.txt")[0] == 0
    assert check("--strict", "records/a-good.txt")[0] == 1
    assert check("--exit-zero", "records/f-broken.txt")[0] == 2


# --- --color --------------------------------------------------------------------------------

@pytest.mark.parametrize(("color", "env", "coloured"), [
    ("auto", {}, False), ("auto", {"FORCE_COLOR": "1"}, True), ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ("always", {}, True), ("always", {"NO_COLOR": "1"}, True), ("never", {"FORCE_COLOR": "1"}, False),
])
def test_color(folder, color: str, env: dict[str, str], coloured: bool) -> None:
    env = {"FORCE_COLOR": "", "NO_COLOR": "", **env}
    out = CliRunner().invoke(main, ["check", "--no-config", "--color", color, "records/b-slap.txt"], env=env).output
    assert ("\x1b[" in out) is coloured, out
    assert "BC-FALSE-SLAP" in out


# --- --stdin-filename -----------------------------------------------------------------------

def test_stdin_filename_names_the_record_read_from_stdin(folder) -> None:
    result = CliRunner().invoke(main, ["check", "--no-config", "--format", "concise", "--stdin-filename", "club/friday.txt", "-"],
                                input=SLAP)
    assert result.output.startswith("club/friday.txt:6:1: BC-FALSE-SLAP ")


def test_stdin_filename_is_matched_by_the_excludes_and_the_per_file_ignores(folder) -> None:
    (folder.parent / "referee.toml").write_text('exclude = ["drafts"]\nper-file-ignores = {"old/*" = ["BC"]}\n', encoding="utf-8")
    (folder.parent / ".git").mkdir()

    def run(*args: str) -> CliRunner:
        return CliRunner().invoke(main, ["check", "--format", "concise", *args, "-"], input=SLAP)

    assert run("--stdin-filename", "old/a.txt").exit_code == 0
    assert run("--stdin-filename", "new/a.txt").exit_code == 1
    assert run("--stdin-filename", "drafts/a.txt").exit_code == 1  # excludes apply to a file named only with --force-exclude
    skipped = run("--force-exclude", "--stdin-filename", "drafts/a.txt")
    assert skipped.exit_code == 0 and skipped.output == "no game\n"


# --- The configuration ----------------------------------------------------------------------

def configured(folder, toml: str, *args: str) -> tuple[int, str]:
    (folder.parent / "referee.toml").write_text(toml, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", "concise", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_extend_select_adds_to_select(folder) -> None:
    files = ("records/b-slap.txt", "records/d-stale.txt")
    assert configured(folder, 'select = ["REC"]\n', *files)[1].count(": REC-") == 1
    assert ": BC-FALSE-SLAP " not in configured(folder, 'select = ["REC"]\n', *files)[1]
    code, out = configured(folder, 'select = ["REC"]\nextend-select = ["BC-FALSE-SLAP"]\n', *files)
    assert code == 1 and ": BC-FALSE-SLAP " in out and ": REC-STALE-ACCEPTED " in out
    code, out = configured(folder, "", "--select", "REC", "--extend-select", "bc-false-slap", *files)
    assert ": BC-FALSE-SLAP " in out and ": REC-STALE-ACCEPTED " in out


def test_per_file_ignores_leave_codes_out_of_the_files_they_match(folder) -> None:
    (folder / "old").mkdir()
    (folder / "old" / "slap.txt").write_text(SLAP, encoding="utf-8")
    code, out = configured(folder, '[per-file-ignores]\n"records/old/*" = ["BC-FALSE-SLAP"]\n', "records/old", "records/b-slap.txt")
    assert code == 1 and "records/b-slap.txt:6:1: BC-FALSE-SLAP" in out and "old/slap.txt:6" not in out
    code, out = configured(folder, '[per-file-ignores]\n"slap.txt" = ["BC"]\n', "records/old")
    assert code == 0


@pytest.mark.parametrize(("toml", "said"), [
    ('extend-selec = ["BC"]\n', "unknown key 'extend-selec' (did you mean 'extend-select'?); referee reads extensions"),
    ('per_file_ignores = {}\n', "(did you mean 'per-file-ignores'?)"),
    ("[fmt]\nsuit = 'ascii'\n", "unknown key 'fmt.suit' (did you mean 'suits'?)"),
    ('colour = "never"\n', "unknown key 'colour'; referee reads"),
    ('per-file-ignores = ["BC"]\n', "per-file-ignores: expected a table of patterns"),
    ('per-file-ignores = {"old/*" = ["BC-FALSE-SLAPP"]}\n', "(did you mean 'BC-FALSE-SLAP'?)"),
    ('extend-select = ["XX"]\n', "extend-select"),
])
def test_a_configuration_mistake_is_said_with_what_it_is_closest_to(folder, toml: str, said: str) -> None:
    code, out = configured(folder, toml, "records/a-good.txt")
    assert code == 2 and said in out, out


# --- --records-only -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "record"), [
    (SLAP, True),
    ("\ufeff; Friday night\n\n  ; at Bob's\n" + SLAP, True),
    ('[Jeu "bataille-corse"]\n', True),
    ('[Players "Alice Bob"]\n[Game "bataille-corse"]\n', True),
    ('{\n "file": "x.txt",\n "games": []}\n', True),
    ("referee>=0.1\nrich\n", False),
    ("# A title\n\n[Game \"x\"] in markdown\n", False),
    ('{"name": "site", "files": ["a"]}\n', False),
    ("; only a comment\n\n", False),
    ("", False),
])
def test_what_is_a_record(tmp_path, text: str, record: bool) -> None:
    path = tmp_path / "f.txt"
    path.write_text(text, encoding="utf-8")
    assert looks_like_record(str(path)) is record


def test_records_only_skips_what_is_not_a_record_and_checks_the_rest(folder) -> None:
    (folder / "requirements.txt").write_text("rich\n", encoding="utf-8")
    code, out = check("--records-only", "records/requirements.txt", "records/b-slap.txt")
    assert code == 1 and out.splitlines()[-1] == "1 game with 1 violation"
    assert check("records/requirements.txt")[0] == 2  # without it, named is checked
    assert check("--records-only", "records/missing.txt")[0] == 2  # a file that cannot be read is still said
