"""bench/mutate.py measures how well a module's tests notice a broken rule: on a tiny
module of three mutants, a test that notices two of them kills two, lets the third survive
and shows it, and the survivor judged equivalent leaves the score."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

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


def test_a_mutant_runs_the_tests_that_run_its_lines() -> None:
    """The tests chosen for a mutant: those that ran its lines on the clean run (or a shared
    fixture that did), and those that start processes; every test for a line run when the
    module is imported (whichever test imports it first) or behind a cache; none for a line no
    test runs."""
    mutate = _mutate_module()
    source = b"import functools\nLIMIT = 3\n\n\ndef f(a):\n    return a > LIMIT\n\n\n" \
             b"@functools.cache\ndef g(a):\n    return a < 2\n\n\ndef h(a):\n    return a == 1\n"
    found = {(m.line, m.kind): m for m in mutate.mutants_of(source)}
    cover = {"lines": {"2": ["t3"], "6": ["t2", "fixture:table"], "11": ["t1"]},
             "fixtures": {"t1": [], "t2": [], "t3": ["table"], "t4": []},
             "opaque": [], "order": ["t1", "t2", "t3", "t4"]}
    assert mutate.tests_for(found[6, "compare"], cover) == ["t2", "t3"]
    assert mutate.tests_for(found[2, "number"], cover) == ["t1", "t2", "t3", "t4"]  # LIMIT, imported by t3, read anywhere
    assert mutate.tests_for(found[11, "compare"], cover) == ["t1", "t2", "t3", "t4"]  # behind a cache
    assert mutate.tests_for(found[15, "compare"], cover) == []  # not covered
    cover["opaque"] = ["t4"]
    assert mutate.tests_for(found[6, "compare"], cover) == ["t2", "t3", "t4"]
    assert mutate.tests_for(found[15, "compare"], cover) == ["t4"]


def test_a_mutant_on_a_line_no_test_runs_is_not_covered(tmp_path) -> None:
    """Chosen by coverage: a mutant of a function no test calls survives as 'not covered'
    and runs nothing; the others run the one test that runs their line."""
    pytest.importorskip("coverage")
    project = _project(tmp_path)
    (project / "pkg" / "rule.py").write_text(MODULE + "\n\ndef unused(a: int) -> bool:\n    return a < 0\n")
    result = _run(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "8 mutants: killed 2, timeout 0, survived 6 (0 equivalent), error 0" in result.stdout
    assert "not covered: 5 of the survivors" in result.stdout
    assert result.stdout.count("(not covered: no test runs this line)") == 5
    assert "(0.0 s)" in result.stdout and ", 1 tests)" in result.stdout
