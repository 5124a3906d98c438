"""The CI snippets of README.md and the pre-commit hooks, run as a user would run them:
the GitHub Actions steps' commands, and each hook's entry on the files it selects."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
import yaml

from .conftest import RECORDS, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```yaml\n(.*?)^```", README, re.MULTILINE | re.DOTALL)
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
    assert "6 games in 6 files" in referee(steps[0], club).stdout
    (club / "records" / "bataille-corse" / "slap.txt").write_text(GOOD + "Alice slaps\n", encoding="utf-8")
    done = referee(steps[0], club)
    assert done.returncode == 1 and "::error file=records/bataille-corse/slap.txt,line=7,col=1,title=BC-FALSE-SLAP::" in done.stdout


def run_hook(hook_id: str, club, staged: list[str]) -> subprocess.CompletedProcess:
    """A hook as pre-commit runs it: its entry, then the staged files its ``files`` selects."""
    hook = HOOKS[hook_id]
    selected = [f for f in staged if re.search(hook["files"], f)]
    return referee(hook["entry"] + " " + " ".join(shlex.quote(f) for f in selected), club)


def test_the_pre_commit_snippet_names_the_hooks() -> None:
    (config,) = [yaml.safe_load(block) for block in BLOCKS if "repos" in block]
    ids = [hook["id"] for repo in config["repos"] for hook in repo["hooks"]]
    assert ids == ["referee-check", "referee-fmt"] and set(ids) <= set(HOOKS)
    for hook in HOOKS.values():
        assert {"id", "name", "entry", "language", "files"} <= hook.keys() and hook["language"] == "python"


def test_the_hooks_run_on_staged_files(club) -> None:
    staged = ["records/bataille-corse/" + p.name for p in sorted((club / "records" / "bataille-corse").iterdir())]
    staged += ["records/drafts/half.txt", "README.md"]
    (club / "README.md").write_text("# not a record\n", encoding="utf-8")
    done = run_hook("referee-check", club, staged)
    assert done.returncode == 0, done.stdout  # the draft left out (--force-exclude), README.md not selected
    assert done.stdout.splitlines() == ["3 games in 3 files: 0 valid, 0 with violations, 3 in progress, 0 that never end, "
                                        "0 that could not be checked (or not whole)"]
    (club / "records" / "bataille-corse" / "x.txt").write_text(GOOD + "Alice slaps\n", encoding="utf-8")
    assert run_hook("referee-check", club, ["records/bataille-corse/x.txt"]).returncode == 1
    messy = club / "records" / "bataille-corse" / "messy.txt"
    messy.write_text(GOOD.replace("Alice plays JD", "Alice   plays jd"), encoding="utf-8")
    assert run_hook("referee-fmt", club, ["records/bataille-corse/messy.txt"]).returncode == 0
    assert messy.read_text(encoding="utf-8") == GOOD
