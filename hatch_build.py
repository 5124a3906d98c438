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
    "referee/numbers.py",
    "referee/record.py",
    "referee/notation.py",
    "referee/game_names.py",
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
    "referee/games/caroleto/mistakes.py",
    "referee/games/caroleto/legal.py",
    "referee/games/caroleto/ruling.py",
    "referee/games/caroleto/examples.py",
    "referee/games/caroleto/rules.py",
    "referee/report.py",
    "referee/messages.py",
    "referee/french.py",
    "referee/record_rules.py",
]
"""The modules mypyc compiles, as paths from the project's root: only modules whose
annotations are true at run time (mypyc checks them), which ``mypy --strict`` accepts.
Adding a module is one line here; tests/test_fast_path.py then checks that both paths
give the same results. The reader, the replay and the five games are here; not yet the
writers (class-level settings that the HTML writer, not compiled, overrides), nor the
generated parser (``_grammar_parser``: Lark's code). What mypyc needs of a module is in
docs/performance.md."""

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
        began = time.monotonic()
        out = Path(tempfile.mkdtemp(prefix="referee-mypyc-"))
        self._out = out
        done = subprocess.run([sys.executable, __file__, str(out), *COMPILED], cwd=self.root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        built = sorted(p for p in out.joinpath("lib").rglob("*") if p.is_file()) if done.returncode == 0 else []
        if not built:
            tail = "\n".join(done.stdout.strip().splitlines()[-15:])
            self._warn(f"compiling with mypyc failed, building the pure-Python wheel (referee runs, slower):\n{tail}")
            return
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"referee: {len(COMPILED)} modules compiled with mypyc in {time.monotonic() - began:.0f} s")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)

    def _warn(self, text: str) -> None:
        self.app.display_warning(f"referee: {text}")


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
        opt_level="3", group_name=GROUP, target_dir=str(out / "c"), multi_file=True,
    )
    command = build_ext(Distribution({"name": "referee", "ext_modules": extensions}))
    command.build_lib = str(out / "lib")
    command.build_temp = str(out / "temp")
    command.parallel = os.cpu_count() or 1
    command.ensure_finalized()
    command.run()


if __name__ == "__main__":
    compile_modules(Path(sys.argv[1]), sys.argv[2:])
