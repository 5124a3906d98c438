"""The fast path gives the same results as pure Python, byte for byte (issue 25).

``pip install .`` compiles some of referee's modules with mypyc (hatch_build.py);
``REFEREE_PURE=1`` makes that same install run its ``.py`` sources. These tests run the
record suite (records/, records/bad included) and about two thousand simulated games,
table mistakes included, through ``referee check`` in every report format on both paths,
and compare the outputs.

They test the *installed* referee: ``python -I`` (no checkout on the path, no
PYTHONPATH), whereas this process imports the checkout's sources. Under an editable
install (a developer's) the installed package is the pure one: the tests skip, saying so.
Under ``CI=true`` a package that is not compiled fails them: CI's ``pip install .`` must
give the fast path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_WHICH = """
import json
import referee
try:
    from referee.speedups import compiled_modules, running
except ImportError:  # an install older than the fast path
    compiled_modules, running = list, lambda: "pure Python"
print(json.dumps({"file": referee.__file__, "running": running(), "compiled": compiled_modules()}))
"""

_SIMULATE = """
import sys
from pathlib import Path
from referee.simulate import rules_class, simulable_games, simulate

folder, games = Path(sys.argv[1]), int(sys.argv[2])
for game in simulable_games():
    cls = rules_class(game)
    counts = range(cls.min_players, cls.max_players + 1)
    texts = [simulate(game, counts[s % len(counts)], s, hidden=s % 2 == 1, mistakes=0.03 if s % 4 else 0.0,
                      notation="fr" if s % 5 == 4 else "en", max_events=5000 if s < 4 else 8 + s * 7 % 24)
             for s in range(games)]
    (folder / f"{game}.txt").write_text("\\n".join(texts), encoding="utf-8")
"""
"""Simulated records of every game: every player count, deal written or hidden, English
or French notation, three in four with table mistakes; four whole games each, the others
cut short (8 to 31 events) so that many games fit in a few seconds."""

GAMES = 400
"""Simulated games per refereed game."""

FORMATS = ["json", "jsonl", "text", "concise", "github", "junit", "sarif"]


def _installed(*args: str, pure: bool = False, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the installed referee's Python (``-I``: neither the checkout nor PYTHONPATH on
    its path), on the fast path or, with ``pure``, on its sources."""
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_PURE"} | {"LANG": "C.UTF-8", "NO_COLOR": "1"}
    if pure:
        env["REFEREE_PURE"] = "1"
    return subprocess.run([sys.executable, "-I", *args], capture_output=True, env=env, cwd=cwd, check=False)


@pytest.fixture(scope="module")
def compiled() -> list[str]:
    """The installed referee's compiled modules; skips (or fails under CI) when it has none."""
    done = _installed("-c", _WHICH)
    found = json.loads(done.stdout) if done.returncode == 0 else {"running": "not installed", "compiled": []}
    if not found["running"].startswith("compiled"):
        message = (f"the installed referee is not compiled ({found['running']}, {found.get('file')}): "
                   "the fast path is not tested; `pip install .` (not editable) builds it")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        warnings.warn(message, stacklevel=1)
        pytest.skip(message)
    pure = json.loads(_installed("-c", _WHICH, pure=True).stdout)
    assert pure["running"].startswith("pure Python"), pure
    return list(found["compiled"])


@pytest.fixture(scope="module")
def simulated(compiled: list[str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("simulated")
    done = _installed("-c", _SIMULATE, str(folder), str(GAMES))
    assert done.returncode == 0, done.stderr.decode()
    return folder


def test_the_switch_runs_the_sources(compiled: list[str]) -> None:
    """REFEREE_PURE=1 loads every compiled module from its source; without it, from its
    extension."""
    probe = "import importlib, sys\nfor name in sys.argv[1:]: print(importlib.import_module(name).__file__)"
    fast = _installed("-c", probe, *compiled).stdout.decode().split()
    pure = _installed("-c", probe, *compiled, pure=True).stdout.decode().split()
    assert len(fast) == len(compiled) and all(not f.endswith(".py") for f in fast), fast
    assert len(pure) == len(compiled) and all(f.endswith(".py") for f in pure), pure
    assert "compiled (mypyc)" in _installed("-m", "referee", "--version").stdout.decode()
    assert "pure Python" in _installed("-m", "referee", "--version", pure=True).stdout.decode()


@pytest.mark.parametrize("form", FORMATS)
def test_same_reports(form: str, compiled: list[str], request: pytest.FixtureRequest) -> None:
    """Every format's report, and the exit status, are the same on both paths: on the
    record suite, and (json) on the simulated games."""
    paths = [str(ROOT / "records")] + ([str(request.getfixturevalue("simulated"))] if form == "json" else [])
    command = ["-m", "referee", "check", "--no-config", "--format", form, *paths]
    fast, pure = _installed(*command, cwd=ROOT), _installed(*command, pure=True, cwd=ROOT)
    assert fast.returncode == pure.returncode == 2  # records/bad: rules broken, games unreadable
    assert fast.stdout == pure.stdout
    assert fast.stderr == pure.stderr
    assert len(fast.stdout) > 1000


_PYTHON_INITS = """
import importlib, json, sys, types
from typing import Protocol
found = []
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for attribute, value in vars(module).items():
        if isinstance(value, type) and value.__module__ == name and Protocol not in value.__mro__:
            init = value.__dict__.get("__init__")
            if isinstance(init, types.FunctionType):
                found.append(f"{name}.{attribute}")
print(json.dumps(found))
"""


def test_compiled_classes_are_built_in_c(compiled: list[str]) -> None:
    """No class of a compiled module is built by a Python ``__init__``: mypyc leaves a
    dataclass's in Python (it ran at every trick, card and round), so each writes its own."""
    done = _installed("-c", _PYTHON_INITS, *compiled)
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout) == []
