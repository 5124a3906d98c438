"""The CI snippets of docs/ci.md and the pre-commit hooks, run as a user would run them:
the GitHub Actions steps' commands, and each hook's entry on the files it selects."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
import yaml

from .conftest import RECORDS, ROOT

CI_PAGE = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```yaml\n(.*?)^```", CI_PAGE, re.MULTILINE | re.DOTALL)
"""The GitHub Actions workflow and the pre-commit set-ups of docs/ci.md (CI's page)."""
HOOKS = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays JD\nBob plays 8C\nAlice collects\n'


def referee(command: str, cwd) -> subprocess.CompletedProcess:
    """A command line that starts with ``referee``, run with this checkout's referee."""
    words = shlex.split(command)
    assert words[0] == "referee", command
    return subprocess.run([sys.executable, "-m", "referee", *words[1:]], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.fixture
def club(tmp_path):
    """A club's repository: its records, one a draft left out by the configuration."""
    for game in ("bataille-corse", "pierre-qui-roule"):
        for path in sorted((RECORDS / game).glob("*.txt"))[:3]:
            (tmp_path / "records" / game).mkdir(parents=True, exist_ok=True)
            (tmp_path / "records" / game / path.name).write_text(GOOD, encoding="utf-8")
    (tmp_path / "records" / "drafts").mkdir()
    (tmp_path / "records" / "drafts" / "half.txt").write_text(GOOD + "Alice slaps\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.referee]\nexclude = ["drafts"]\n', encoding="utf-8")
    (tmp_path / ".git").mkdir()
    return tmp_path


def workflow() -> dict:
    (found,) = [yaml.safe_load(block) for block in BLOCKS if "runs-on" in block]
    return found


def test_the_github_actions_snippet_runs(club) -> None:
    steps = [step["run"] for step in workflow()["jobs"]["referee"]["steps"] if step.get("run", "").startswith("referee")]
    assert len(steps) == 2
    for command in steps:
        done = referee(command, club)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert "(6 games in 6 files)" in referee(steps[0], club).stdout
    (club / "records" / "bataille-corse" / "slap.txt").write_text(GOOD + "Alice slaps\n", encoding="utf-8")
    done = referee(steps[0], club)
    assert done.returncode == 1 and "::error file=records/bataille-corse/slap.txt,line=7,col=1,title=BC-FALSE-SLAP::" in done.stdout


def selects(hook: dict, club, path: str) -> bool:
    """Whether pre-commit gives a hook a staged file: its ``files`` pattern, and ``types:
    [text]`` as pre-commit's identify tells text (no NUL byte in its first kilobytes)."""
    if "files" in hook and not re.search(hook["files"], path):
        return False
    types = set(hook.get("types", ["file"]))
    assert types <= {"file", "text"}, types
    return "text" not in types or b"\0" not in (club / path).read_bytes()[:1024]


def run_hook(hook_id: str, club, staged: list[str]) -> subprocess.CompletedProcess:
    """A hook as pre-commit runs it: its entry, then the staged files it selects."""
    hook = HOOKS[hook_id]
    selected = [f for f in staged if selects(hook, club, f)]
    return referee(hook["entry"] + " " + " ".join(shlex.quote(f) for f in selected), club)


def test_the_pre_commit_snippet_names_the_hooks() -> None:
    config, _local = [yaml.safe_load(block) for block in BLOCKS if "repos" in block]
    ids = [hook["id"] for repo in config["repos"] for hook in repo["hooks"]]
    assert ids == ["referee-check", "referee-fmt"] and set(ids) <= set(HOOKS)
    for hook in HOOKS.values():
        assert {"id", "name", "entry", "language"} <= hook.keys() and hook["language"] == "python"
        assert hook.get("types") == ["text"] and "--records-only" in hook["entry"]


def test_the_hooks_run_on_staged_files(club) -> None:
    staged = ["records/bataille-corse/" + p.name for p in sorted((club / "records" / "bataille-corse").iterdir())]
    staged += ["records/drafts/half.txt", "README.md", "requirements.txt", "pyproject.toml", "logo.png"]
    (club / "README.md").write_text("# not a record\n", encoding="utf-8")
    (club / "requirements.txt").write_text("referee>=0.1\n", encoding="utf-8")
    (club / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    done = run_hook("referee-check", club, staged)
    assert done.returncode == 0, done.stdout  # the draft left out (--force-exclude), README.md not selected
    assert done.stdout.splitlines() == ["3 in progress (3 games in 3 files)"]
    (club / "records" / "bataille-corse" / "x.txt").write_text(GOOD + "Alice slaps\n", encoding="utf-8")
    assert run_hook("referee-check", club, ["records/bataille-corse/x.txt"]).returncode == 1
    messy = club / "records" / "bataille-corse" / "messy.txt"
    messy.write_text(GOOD.replace("Alice plays JD", "Alice   plays jd"), encoding="utf-8")
    assert run_hook("referee-fmt", club, ["records/bataille-corse/messy.txt"]).returncode == 0
    assert messy.read_text(encoding="utf-8") == GOOD
    assert run_hook("referee-fmt", club, ["requirements.txt", "README.md"]).returncode == 0
    assert (club / "requirements.txt").read_text(encoding="utf-8") == "referee>=0.1\n"


def test_the_hooks_check_every_record_they_are_given(club) -> None:
    """What starts like a record is one: a text record with comments before its headers,
    one in French notation, a JSON record, whatever their names; a broken one fails."""
    (club / "notes").mkdir()
    (club / "notes" / "game.rec").write_text("; Friday\n\n" + GOOD + "Alice slaps\n", encoding="utf-8")
    done = run_hook("referee-check", club, ["notes/game.rec"])
    assert done.returncode == 1 and "BC-FALSE-SLAP" in done.stdout
    (club / "notes" / "jeu.txt").write_text('[Jeu "bataille-corse"]\n[Joueurs "Alice Bob"]\n', encoding="utf-8")
    assert run_hook("referee-check", club, ["notes/jeu.txt"]).stdout == "1 in progress\n"  # one game, one file
    exported = referee("referee export records/bataille-corse/" + sorted(p.name for p in (club / "records" / "bataille-corse").iterdir())[0], club)
    (club / "notes" / "game.json").write_text(exported.stdout, encoding="utf-8")
    (club / "package.json").write_text('{"name": "site", "files": []}\n', encoding="utf-8")
    done = run_hook("referee-check", club, ["notes/game.json", "package.json"])
    assert done.returncode == 0 and done.stdout.splitlines()[-1] in ("1 valid", "1 in progress"), done.stdout  # package.json skipped
    (club / "notes" / "broken.txt").write_text('; a record\n[Game "bataille-corse"\n', encoding="utf-8")
    assert run_hook("referee-check", club, ["notes/broken.txt"]).returncode == 2


@pytest.mark.parametrize(("page", "heading", "exits", "lines"), [
    ("README.md", "## On a fresh machine", "exits 1", "{} lines"),
    ("docs/fr/README.md", "## Pour commencer", "sort avec le code 1", "{} lignes"),
])
def test_the_readme_s_first_command_prints_what_the_readme_shows(page: str, heading: str, exits: str, lines: str) -> None:
    """The command of "On a fresh machine", run on this checkout: the lines the README
    shows, the number of lines it says, the summary, and exit 1 (after a change of the
    records or of the summary: python tests/refresh_readme.py)."""
    section = (ROOT / page).read_text(encoding="utf-8").split(heading, 1)[1].split("\n## ", 1)[0]
    command = re.search(r"\.venv/bin/(referee [^\n]+)", section)[1]
    shown = re.search(r"^```\n(.*?)^```", section, re.MULTILINE | re.DOTALL)[1].splitlines()
    done = referee(command, ROOT)
    assert "check --statistics" in command and done.returncode == 1 and exits in section, done.stderr
    printed = done.stdout.splitlines()
    head = shown[:shown.index("…")]
    assert printed[:len(head)] == head and printed[-1] == shown[-1]
    assert lines.format(len(printed) - 1) in section


def test_the_readme_s_local_hook_counts_every_file_as_a_record(club) -> None:
    """docs/ci.md's way to widen the hook: every file under records/ is a record, and one
    that is not fails the commit instead of being skipped."""
    _config, local = [yaml.safe_load(block) for block in BLOCKS if "repos" in block]
    (hook,) = local["repos"][0]["hooks"]
    (club / "records" / "notes.txt").write_text("bring crisps\n", encoding="utf-8")
    staged = ["records/notes.txt", "requirements.txt"]
    (club / "requirements.txt").write_text("referee\n", encoding="utf-8")
    selected = [f for f in staged if re.search(hook["files"], f)]
    assert selected == ["records/notes.txt"]
    assert referee(hook["entry"] + " " + " ".join(selected), club).returncode == 2
    assert run_hook("referee-check", club, staged).returncode == 0


def _meant_to_pass(path) -> bool:
    """A record of the project's whose every game is valid or in progress, with no mark."""
    text = path.read_text(encoding="utf-8")
    statuses = re.findall(r"^;\s*expect status (\S+)", text, re.MULTILINE)
    marks = re.search(r"\S.*;\s*(expect|accepted) [A-Z]", text)
    return bool(statuses) and set(statuses) <= {"valid", "in-progress"} and not marks


def test_the_github_actions_steps_pass_on_this_repository(tmp_path) -> None:
    """docs/ci.md's steps on referee's own records: fmt --check on all of them (the
    configuration keeps the spelling records as written), check on those meant to pass."""
    steps = [step["run"] for step in workflow()["jobs"]["referee"]["steps"] if step.get("run", "").startswith("referee")]
    (fmt_step,) = [s for s in steps if s.startswith("referee fmt")]
    done = referee(fmt_step, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    passing = sorted(p for p in RECORDS.rglob("*.txt") if "bad" not in p.parts and _meant_to_pass(p))
    assert len(passing) >= 20
    for path in passing:
        (tmp_path / "records" / path.parent.name).mkdir(parents=True, exist_ok=True)
        (tmp_path / "records" / path.parent.name / path.name).write_bytes(path.read_bytes())
    (check_step,) = [s for s in steps if s.startswith("referee check")]
    done = referee(check_step, tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr


def test_the_readme_s_ci_example_runs_the_workflow_s_steps() -> None:
    """The README's example for CI is the workflow's two commands, as docs/ci.md gives them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("## In CI", 1)[1].split("\n## ", 1)[0]
    steps = [step["run"] for step in workflow()["jobs"]["referee"]["steps"] if step.get("run", "").startswith("referee")]
    assert len(steps) == 2 and all(f"\n    {step}" in readme for step in steps)
