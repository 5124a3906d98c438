"""Which path runs: referee's modules compiled with mypyc, or its pure-Python sources.

A wheel built with a C compiler holds, beside the ``.py`` source of each module that
hatch_build.py lists, a C extension that Python loads in its place: the fast path. With
``REFEREE_PURE=1`` in the environment, referee's ``__init__`` puts :class:`SourceFirst`
before Python's own finders, so that the same install runs its sources (to compare the
two, or to rule the compiled code out). ``referee --version`` says which path runs.

This module is never compiled: it must tell the two apart.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

PURE_SWITCH = "REFEREE_PURE"
"""The environment variable that makes referee run its pure-Python sources."""


class SourceFirst:
    """A meta path finder: each ``referee.*`` module from its ``.py`` source when there
    is one, even where a compiled extension lies beside it."""

    @classmethod
    def find_spec(cls, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith("referee.") or path is None:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            package = os.path.join(folder, leaf, "__init__.py")
            if os.path.isfile(package):
                return importlib.util.spec_from_file_location(name, package,
                                                              submodule_search_locations=[os.path.dirname(package)])
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(name, source)
        return None


def prefer_sources() -> None:
    """Run referee's pure-Python sources from now on (for the modules not yet imported)."""
    if SourceFirst not in sys.meta_path:
        sys.meta_path.insert(0, SourceFirst)


def compiled_modules() -> list[str]:
    """The referee modules that this install holds compiled (an extension beside the
    source), whichever path runs."""
    folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # referee's own folder (not ``import referee``: a circle)
    found = []
    for top, _, files in os.walk(folder):
        inside = os.path.relpath(top, folder)
        package = "referee" if inside == os.curdir else "referee." + inside.replace(os.sep, ".")
        for file in files:
            suffix = next((s for s in importlib.machinery.EXTENSION_SUFFIXES if file.endswith(s)), None)
            if suffix is not None:
                found.append(f"{package}.{file.removesuffix(suffix)}")
    return sorted(found)


def running() -> str:
    """The path that runs: "compiled (mypyc)" when referee's modules load from their
    extensions, else "pure Python" (and why, when the extensions are there)."""
    modules = compiled_modules()
    if not modules:
        return "pure Python"
    spec = importlib.util.find_spec(modules[0])
    if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return f"compiled (mypyc), {len(modules)} modules"
    return f"pure Python ({PURE_SWITCH}=1)" if os.environ.get(PURE_SWITCH) == "1" else "pure Python"
