"""The build hook (hatch_build.py): the C files of mypyc's group are compiled several at
a time, and a second build of the same sources (README's test command after its first)
takes what the first compiled instead of compiling again. The compile itself is too long
for the suite: CI's ``pip install .`` and tests/test_fast_path.py check its result."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import threading
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture
def hatch_build():
    spec = importlib.util.spec_from_file_location("hatch_build_under_test", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Compiler:
    """A C compiler as distutils' CCompiler drives one: ``_compile`` per source. Each
    compile waits for another to be under way at the same time (a barrier, no clock):
    compiled one after another, the first never gets past it."""

    compiler_type = "unix"

    def __init__(self, sources: list[str]) -> None:
        self.sources = sources
        self.barrier = threading.Barrier(2, timeout=30)
        self.compiled: list[str] = []

    def _setup_compile(self, output_dir, macros, include_dirs, sources, depends, extra):
        objects = [s.replace(".c", ".o") for s in sources]
        return macros, objects, extra, [], {o: (s, ".c") for o, s in zip(objects, sources)}

    def _get_cc_args(self, pp_opts, debug, before):
        return []

    def _compile(self, obj, src, ext, cc_args, extra_postargs, pp_opts):
        self.barrier.wait()
        self.compiled.append(obj)


def test_the_c_files_of_one_extension_are_compiled_at_once(hatch_build, tmp_path) -> None:
    sources = []
    for n, size in enumerate((10, 3000, 200, 40)):
        path = tmp_path / f"m{n}.c"
        path.write_text("x" * size)
        sources.append(str(path))
    compiler = _Compiler(sources)
    objects = hatch_build._parallel_compile(compiler, 2)(sources, output_dir=str(tmp_path))
    assert objects == [s.replace(".c", ".o") for s in sources]
    assert sorted(compiler.compiled) == sorted(objects)


def test_jobs_are_one_per_core_unless_told(hatch_build, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_BUILD_JOBS", "3")
    assert hatch_build.jobs() == 3
    monkeypatch.delenv("REFEREE_BUILD_JOBS")
    assert hatch_build.jobs() >= 1


class _App:
    def __init__(self) -> None:
        self.said: list[str] = []

    def display_info(self, text: str) -> None:
        self.said.append(text)

    display_warning = display_info


def _project(tmp_path: Path) -> Path:
    """A copy of the project's sources, as pip builds them in place."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "referee", root / "referee", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.mo"))
    shutil.copy(ROOT / "hatch_build.py", root / "hatch_build.py")
    return root


def _hook(hatch_build, root: Path):
    hook = hatch_build.MypycBuildHook.__new__(hatch_build.MypycBuildHook)
    hook.target_name, hook.root, hook.app = "wheel", str(root), _App()
    return hook


def test_a_second_build_of_the_same_sources_does_not_compile_again(hatch_build, tmp_path, monkeypatch) -> None:
    """The first build compiles (here: a stand-in for the compile process, which writes
    what mypyc would) and keeps its output; the second, from the same sources, takes it."""
    root = _project(tmp_path)
    runs: list[list[str]] = []

    def compile_process(command, **_):
        runs.append(command)
        lib = Path(command[2]) / "lib" / "referee"
        lib.mkdir(parents=True)
        (lib / "cards.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
        return type("Done", (), {"returncode": 0, "stdout": ""})()

    monkeypatch.setattr(hatch_build.subprocess, "run", compile_process)
    monkeypatch.delenv("REFEREE_PURE_BUILD", raising=False)
    first, second = {"force_include": {}}, {"force_include": {}}
    hook = _hook(hatch_build, root)
    hook.initialize("standard", first)
    hook.finalize("standard", first, "")
    assert len(runs) == 1 and "compiling" in hook.app.said[0]
    again = _hook(hatch_build, root)
    again.initialize("standard", second)
    assert len(runs) == 1, "compiled a second time"
    assert list(second["force_include"].values()) == ["referee/cards.cpython-311-x86_64-linux-gnu.so"]
    assert second["pure_python"] is False and Path(next(iter(second["force_include"]))).is_file()
    (root / "referee" / "cards.py").write_text((root / "referee" / "cards.py").read_text() + "\n# changed\n")
    _hook(hatch_build, root).initialize("standard", {"force_include": {}})
    assert len(runs) == 2, "a changed source must be compiled"
    assert len(list((root / hatch_build.CACHE).iterdir())) == 1, "only the latest compile is kept"


def test_the_cache_key_follows_the_sources_and_the_python(hatch_build, tmp_path, monkeypatch) -> None:
    root = _project(tmp_path)
    key = hatch_build.cache_key(root)
    assert hatch_build.cache_key(root) == key
    (root / "referee" / "report.py").write_text("# another module\n", encoding="utf-8")
    assert hatch_build.cache_key(root) != key
    key = hatch_build.cache_key(root)
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert hatch_build.cache_key(root) != key
