"""``python -m referee.dev generate``: every generated file written again, or checked
(``--check``: CI fails when one is stale)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee import dev

from .conftest import ROOT


def test_every_generated_file_is_current() -> None:
    """The parser tables, docs/codes.md, the catalogues (.po, .mo) and the conventions
    pages are what their generators write from the sources of this checkout."""
    pytest.importorskip("lark")
    pytest.importorskip("babel")
    done = subprocess.run([sys.executable, "-m", "referee.dev", "generate", "--check"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_names_a_stale_file_writes_nothing_and_generate_writes_it(tmp_path: Path) -> None:
    said: list[str] = []
    names = ["codes", "conventions"]  # one made here, one by a new process
    assert dev.generate(root=tmp_path, names=names, say=said.append) == 0  # into an empty folder: all written
    assert sorted(said) == ["docs/codes.md written (codes)", "docs/fr/conventions.md written (conventions)"]
    codes = tmp_path / "docs" / "codes.md"
    assert codes.read_bytes() == (ROOT / "docs" / "codes.md").read_bytes()
    codes.write_text("# Violation codes\n", encoding="utf-8")
    said.clear()
    assert dev.generate(check=True, root=tmp_path, names=names, say=said.append) == 1
    assert said == ["docs/codes.md is not current (codes)", "run python -m referee.dev generate"]
    assert codes.read_text(encoding="utf-8") == "# Violation codes\n"
    said.clear()
    assert dev.generate(root=tmp_path, names=names, say=said.append) == 0 and said == ["docs/codes.md written (codes)"]
    said.clear()
    assert dev.generate(check=True, root=tmp_path, names=names, say=said.append) == 0
    assert said == ["every generated file is current"]


def test_a_generator_that_cannot_run_is_said_and_fails_the_check(monkeypatch, tmp_path: Path) -> None:
    def missing() -> dict[str, bytes]:
        raise dev.Unavailable("needs lark (pip install -e '.[test]')")

    monkeypatch.setattr(dev, "GENERATORS", (dev.Generator("parser", "the parser", missing),))
    said: list[str] = []
    assert dev.generate(check=True, root=tmp_path, say=said.append) == 2
    assert said == ["parser: not run: needs lark (pip install -e '.[test]')"]
