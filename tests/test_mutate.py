"""bench/mutate.py measures how well a module's tests notice a broken rule: on a tiny
module of three mutants, a test that notices two of them kills two, lets the third survive
and shows it, and the survivor judged equivalent leaves the score."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from .conftest import ROOT

MUTATE = ROOT / "bench" / "mutate.py"

MODULE = '''"""A tiny rule."""


def bigger(a: int, b: int) -> bool:
    """Whether a beats b."""
    return a > b
'''

TESTS = """from pkg.rule import bigger


def test_bigger():
    assert bigger(2, 1)
    assert not bigger(1, 2)
"""


def _project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "rule.py").write_text(MODULE)
    (tmp_path / "test_rule.py").write_text(TESTS)
    # the tiny project's own pytest settings: its tests need neither hypothesis nor anyio,
    # whose plugins take most of each pytest's start (1.3 s of CPU of 1.6)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:hypothesispytest -p no:anyio\n")
    return tmp_path


def _run(tmp_path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(MUTATE), "pkg/rule.py", "--root", str(tmp_path),
                           "--tests", "test_rule.py", *options], capture_output=True, text=True, timeout=120)


def _mutate_module():
    spec = importlib.util.spec_from_file_location("bench_mutate", MUTATE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_mutate"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_mutants_of_a_module_leave_annotations_and_docstrings_alone() -> None:
    mutants = _mutate_module().mutants_of(MODULE.encode())
    assert sorted((m.kind, m.change) for m in mutants) == [
        ("boundary", "> → >="), ("compare", "> → <="), ("none", "return `a > b` → None")]


def test_a_run_counts_the_killed_and_shows_the_survivor(tmp_path) -> None:
    project = _project(tmp_path)
    result = _run(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 mutants: killed 2, timeout 0, survived 1 (0 equivalent), error 0" in result.stdout
    assert "score: 2/3 = 66.7%" in result.stdout
    assert "-    return a > b\n+    return a >= b" in result.stdout
    assert (project / "pkg" / "rule.py").read_text() == MODULE  # the working tree is never changed

    (project / "equivalents.txt").write_text(
        "pkg/rule.py | boundary: > → >= | return a > b | the tests never compare equal values\n")
    result = _run(project, "--equivalents", str(project / "equivalents.txt"), "--fail-under", "100")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "survived 1 (1 equivalent)" in result.stdout and "score: 2/2 = 100.0%" in result.stdout
    assert "the tests never compare equal values" in result.stdout


def test_tests_that_fail_on_the_unchanged_module_stop_the_run(tmp_path) -> None:
    project = _project(tmp_path)
    (project / "test_rule.py").write_text(TESTS.replace("assert not", "assert"))
    result = _run(project)
    assert result.returncode == 2 and "do not pass on the unchanged module" in result.stderr
