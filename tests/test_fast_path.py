"""The fast path gives the same results as pure Python, byte for byte (issue 25).

``pip install .`` compiles some of referee's modules with mypyc (hatch_build.py);
``REFEREE_PURE=1`` makes that same install run its ``.py`` sources. These tests run the
record suite (records/, records/bad included) and about two thousand simulated games,
table mistakes included, through ``referee check`` in every report format on both paths,
and compare the outputs; and the hostile inputs of bench/fuzz.py (numbers that are not
0 to 9 or run long, JSON records whose lines are floats, booleans or huge integers, lone
surrogates, pathological lines and control characters) through ``check``, ``fmt
--check`` and ``import``, which must give the same bytes and exit status (issue 38: the
compiled path failed where the pure one read on).

They test the *installed* referee: ``python -I`` (no checkout on the path, no
PYTHONPATH), whereas this process imports the checkout's sources. Under an editable
install (a developer's) the installed package is the pure one: the tests skip, saying so.
Under ``CI=true`` a package that is not compiled fails them: CI's ``pip install .`` must
give the fast path.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import random
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
    from referee.fast.speedups import compiled_modules, running
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


def _fuzz():
    """bench/fuzz.py, loaded from its file (bench/ is no package): its hostile inputs."""
    spec = importlib.util.spec_from_file_location("bench_fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _json_places(value: object) -> list[bytes]:
    """A JSON record whose first event's line, column, or the game's line, is ``value``
    (JSON Schema's integer takes 5.0 and 1e308; referee must refuse them on both paths)."""
    game = {"line": 1, "headers": [{"tag": "Game", "value": "caroleto", "line": 1},
                                   {"tag": "Players", "value": "Ann Ben Cas Dom", "line": 2}],
            "events": [{"line": 3, "column": 1, "player": "Ben", "verb": "says", "word": "roi"}], "comments": []}
    found = []
    for place in ("line", "column", "game"):
        changed = json.loads(json.dumps(game))
        (changed if place == "game" else changed["events"][0])["line" if place == "game" else place] = value
        found.append(json.dumps({"file": "g.txt", "games": [changed]}).encode())
    return found


@pytest.fixture(scope="module")
def hostile(compiled: list[str], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[str]]:
    """A folder of bench/fuzz.py's hostile inputs: every place a record writes a number
    with every hostile number, JSON records with hostile lines and columns (and its
    random JSON mutants), pathological lines and control characters. The folder, the
    text inputs' names and the JSON inputs' names."""
    fuzz = _fuzz()
    folder = tmp_path_factory.mktemp("hostile")
    texts: list[bytes] = [place.replace("{n}", value).encode() for place, _ in fuzz.NUMBER_PLACES for value in fuzz.NUMBER_VALUES]
    texts += [fuzz.number_input(random.Random(f"fast-path:{n}")) for n in range(40)]
    texts += [fuzz.hostile_input(shape, random.Random(f"fast-path:{shape}:{n}")) for shape in ("line", "control") for n in range(10)]
    texts.append('[Game "caroleto"]\n[Players "Ann Ben"]\n[Event "\ud800"]\n'.encode("utf-8", "surrogatepass"))
    jsons = [data for value in (5.0, 1e308, True, 0, 10 ** 300, 10 ** 4000) for data in _json_places(value)]
    jsons.append(_json_places(5)[0].replace(b'"roi"', b'"\\ud800"'))
    jsons.append(_json_places(5)[0].replace(b'"line": 5', b'"line": 1' + b"0" * 5000))
    mutants = (fuzz._json_mutant(random.Random(f"fast-path:json:{n}")) for n in range(1000))
    jsons += itertools.islice((data for kind, data in mutants if kind in ("place", "float", "long-number", "surrogate", "type")
                               and len(data) < 100_000), 15)
    # a game refused (no verb) beside a good one: the compiled RecordError took no subclass made in Python
    refused = json.loads(_json_places(5)[0])
    del refused["games"][0]["events"][0]["verb"]
    refused["games"].append(json.loads(_json_places(3)[0])["games"][0])
    jsons.append(json.dumps(refused).encode())
    names = ([f"n{i:03d}.txt" for i in range(len(texts))], [f"j{i:03d}.json" for i in range(len(jsons))])
    for name, data in zip([*names[0], *names[1]], [*texts, *jsons]):
        (folder / name).write_bytes(data)
    return folder, *names


@pytest.mark.parametrize("command", [["check", "--format", "json"], ["check", "--format", "text"], ["fmt", "--check"]])
def test_same_results_on_hostile_inputs(command: list[str], hostile: tuple[Path, list[str], list[str]]) -> None:
    """Hostile numbers, JSON places, surrogates, huge integers: the same bytes and exit
    status on both paths, and no traceback on either."""
    folder, texts, jsons = hostile
    args = ["-m", "referee", *command, "--no-config", *texts, *(jsons if command[0] == "check" else [])]
    fast, pure = _installed(*args, cwd=folder), _installed(*args, pure=True, cwd=folder)
    assert b"Traceback" not in fast.stderr + pure.stderr, (fast.stderr or pure.stderr).decode()[-2000:]
    assert fast.returncode == pure.returncode == 2
    assert fast.stdout == pure.stdout
    assert fast.stderr == pure.stderr


def test_same_imports_of_hostile_json(hostile: tuple[Path, list[str], list[str]]) -> None:
    """``import`` of the JSON records whose line or column is 5.0, 1e308 or 10**300: the
    same on both paths (the compiled one raised a TypeError)."""
    folder, _, jsons = hostile
    for name in (jsons[0], jsons[1], jsons[3], jsons[12]):
        fast = _installed("-m", "referee", "import", "--no-config", name, cwd=folder)
        pure = _installed("-m", "referee", "import", "--no-config", name, pure=True, cwd=folder)
        assert b"Traceback" not in fast.stderr + pure.stderr, (name, (fast.stderr or pure.stderr).decode()[-2000:])
        assert (fast.returncode, fast.stdout, fast.stderr) == (pure.returncode, pure.stdout, pure.stderr), name
        assert fast.returncode == 2, name
