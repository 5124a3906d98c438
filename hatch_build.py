"""Build hook: compile the listed referee modules with mypyc (issue 25, speed).

A wheel built with a C compiler and mypyc at hand holds, for each module of ``COMPILED``,
a C extension beside its ``.py`` source (the sources stay: ``REFEREE_PURE=1`` runs them,
and tracebacks, tools and readers use them), and is tagged for its platform. When the
compile fails, or ``REFEREE_PURE_BUILD=1`` is set, the wheel is the pure-Python one, and
the build says so in a warning line (pip shows it with ``-v``; ``referee --version`` says
which path runs). An editable install and the sdist are never compiled.

The compile runs in a process of its own (``python hatch_build.py OUT MODULE...``), so
that whatever the compiler does, the build goes on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

COMPILED = [
    "referee/cards.py",
    "referee/text/numbers.py",
    "referee/record.py",
    "referee/notation.py",
    "referee/games/registry.py",
    "referee/games/__init__.py",
    "referee/games/base.py",
    "referee/games/seating.py",
    "referee/games/tricks.py",
    "referee/match.py",
    "referee/engine.py",
    "referee/games/bataille_corse.py",
    "referee/games/pierre_qui_roule.py",
    "referee/games/carte_et_plouc/__init__.py",
    "referee/games/carte_et_plouc/cards.py",
    "referee/games/carte_et_plouc/state.py",
    "referee/games/carte_et_plouc/calls.py",
    "referee/games/carte_et_plouc/play.py",
    "referee/games/carte_et_plouc/ruling.py",
    "referee/games/carte_et_plouc/examples.py",
    "referee/games/carte_et_plouc/rules.py",
    "referee/games/flaschenteufel.py",
    "referee/games/caroleto/__init__.py",
    "referee/games/caroleto/cards.py",
    "referee/games/caroleto/places.py",
    "referee/games/caroleto/round.py",
    "referee/games/caroleto/state.py",
    "referee/games/caroleto/mistakes.py",
    "referee/games/caroleto/legal.py",
    "referee/games/caroleto/ruling.py",
    "referee/games/caroleto/examples.py",
    "referee/games/caroleto/rules.py",
    "referee/reports/report.py",
    "referee/messages.py",
    "referee/text/french.py",
    "referee/record_rules.py",
    "referee/games/shared_examples.py",
]
"""The modules mypyc compiles, as paths from the project's root: only modules whose
annotations are true at run time (mypyc checks them), which ``mypy --strict`` accepts.
Adding a module is one line here; tests/test_fast_path.py then checks that both paths
give the same results. The reader, the replay and the five games are here; not yet the
writers (class-level settings that the HTML writer, not compiled, overrides), nor the
generated parser (``_grammar_parser``: Lark's code). What mypyc needs of a module is in
docs/performance.md."""

OPT_LEVEL = os.environ.get("MYPYC_OPT_LEVEL", "3")
"""The C compiler's optimisation level for the compiled modules (``-O3``; mypyc's own
``MYPYC_OPT_LEVEL`` changes it, as it does for mypyc's command line)."""

GROUP = "referee"
"""mypyc's group: its runtime and the compiled code go in one shared library,
``referee__mypyc``, beside the package; each module's extension is a small shim."""

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # the compile process itself needs no hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]  # only when run as a script


class MypycBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]  # hatchling ships no types
    """Compiles ``COMPILED`` into the wheel, or leaves it pure Python with a warning."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("REFEREE_PURE_BUILD") == "1":
            self._warn("REFEREE_PURE_BUILD=1: building the pure-Python wheel, not compiled with mypyc")
            return
        cache = Path(self.root, CACHE, cache_key(Path(self.root)))
        if not cache.joinpath("lib").is_dir():
            self.app.display_info(f"referee: compiling {len(COMPILED)} modules with mypyc, about a minute on 2 cores "
                                  "(REFEREE_PURE_BUILD=1 skips it: pure Python, slower)")
            began = time.monotonic()
            out = Path(tempfile.mkdtemp(prefix="referee-mypyc-"))
            self._out = out
            done = subprocess.run([sys.executable, __file__, str(out), *COMPILED], cwd=self.root,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
            if done.returncode != 0 or not any(p.is_file() for p in out.joinpath("lib").rglob("*")):
                tail = "\n".join(done.stdout.strip().splitlines()[-15:])
                self._warn(f"compiling with mypyc failed, building the pure-Python wheel (referee runs, slower):\n{tail}")
                return
            keep(out / "lib", cache)
            self.app.display_info(f"referee: {len(COMPILED)} modules compiled with mypyc in {time.monotonic() - began:.0f} s")
        else:
            self.app.display_info(f"referee: {len(COMPILED)} modules compiled with mypyc from these very sources "
                                  f"before, taken from {cache.parent.relative_to(self.root)}")
        lib = cache / "lib" if cache.joinpath("lib").is_dir() else self._out / "lib"
        for path in sorted(p for p in lib.rglob("*") if p.is_file()):
            build_data["force_include"][str(path)] = path.relative_to(lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)

    def _warn(self, text: str) -> None:
        self.app.display_warning(f"referee: {text}")


CACHE = "build/referee-mypyc"
"""Where a build keeps what it compiled, in the project's folder, under a key of everything
that goes into it (``cache_key``): the README's second command (``pip install '.[test]'``
after ``pip install .``) builds the wheel again, as pip does for a folder, but does not
compile again. Only the latest key is kept; ``rm -r build`` forgets it."""


def cache_key(root: Path) -> str:
    """A digest of what the compiled extensions depend on: every source of the package
    (the modules compiled, and those read for their types), this file, the Python, the
    platform, mypy's version and the C compiler's settings."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256()
    for path in sorted([*root.joinpath("referee").rglob("*.py"), root / "hatch_build.py"]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    try:
        mypy = version("mypy")
    except PackageNotFoundError:
        mypy = "none"
    setting = [sys.version, sysconfig.get_platform(), str(sysconfig.get_config_var("EXT_SUFFIX")), mypy,
               OPT_LEVEL, *(os.environ.get(name, "") for name in ("CC", "CFLAGS", "LDFLAGS", "MYPYC_DEBUG_LEVEL"))]
    digest.update("\0".join(setting).encode())
    return digest.hexdigest()[:32]


def keep(lib: Path, cache: Path) -> None:
    """Put a compile's ``lib`` in the cache at ``cache`` (whole or not at all), the other
    keys removed; a cache that cannot be written is only a later compile."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        for old in cache.parent.iterdir():
            if old != cache:
                shutil.rmtree(old, ignore_errors=True)
        staged = Path(tempfile.mkdtemp(prefix=".new-", dir=cache.parent))
        shutil.copytree(lib, staged / "lib")
        os.replace(staged, cache)
    except OSError:
        pass


def compile_modules(out: Path, modules: list[str]) -> None:
    """Compile ``modules`` with mypyc into ``out/lib`` (the extensions, laid out as in the
    wheel), the generated C and objects in ``out``. Raises, or exits non-zero, on failure."""
    if not (sysconfig.get_config_var("CC") or shutil.which("cc")):
        sys.exit("no C compiler")
    import setuptools  # noqa: F401  (mypyc builds with setuptools when it is imported)
    from mypyc.build import mypycify
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    extensions = mypycify(
        # Modules that are not compiled are read for their types, and their errors left out.
        ["--follow-imports=silent", f"--cache-dir={out / 'mypy-cache'}", *modules],
        opt_level=OPT_LEVEL, group_name=GROUP, target_dir=str(out / "c"), multi_file=True,
    )
    class BuildExt(build_ext):  # type: ignore[misc,valid-type]  # setuptools' command, untyped here
        """setuptools' ``parallel`` builds several extensions at once, but mypyc puts nearly
        all the C of its group (some fifty files) in one extension, whose files would be
        compiled one after another: here they are compiled ``jobs()`` at a time."""

        def build_extensions(self) -> None:
            if getattr(self.compiler, "compiler_type", "") == "unix" and hasattr(self.compiler, "_setup_compile"):
                self.compiler.compile = _parallel_compile(self.compiler, jobs())
            super().build_extensions()

    command = BuildExt(Distribution({"name": "referee", "ext_modules": extensions}))
    command.build_lib = str(out / "lib")
    command.build_temp = str(out / "temp")
    command.parallel = jobs()
    command.ensure_finalized()
    command.run()


def jobs() -> int:
    """How many C files are compiled at once: ``REFEREE_BUILD_JOBS``, else one per core."""
    wanted = os.environ.get("REFEREE_BUILD_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _parallel_compile(compiler: Any, workers: int) -> Any:
    """A ``compile`` for ``compiler`` that compiles its sources in ``workers`` threads (each
    compile is a process of the C compiler: the threads only wait)."""
    from concurrent.futures import ThreadPoolExecutor

    def compile(sources: list[str], output_dir: str | None = None, macros: Any = None, include_dirs: Any = None,
                debug: bool = False, extra_preargs: Any = None, extra_postargs: Any = None,
                depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        todo = sorted((obj for obj in objects if obj in build), key=lambda obj: -os.path.getsize(build[obj][0]))

        def one(obj: str) -> None:
            source, ext = build[obj]
            compiler._compile(obj, source, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for _ in pool.map(one, todo):
                pass
        return list(objects)

    return compile


if __name__ == "__main__":
    compile_modules(Path(sys.argv[1]), sys.argv[2:])
