"""The pytest plugin of bench/mutate.py: which tests run which lines of a module, and a run
of some tests only.

- ``MUTATE_COVER=OUT`` and ``MUTATE_MODULE=FILE``: the tests run under coverage.py, each in a
  context of its own (its node id), and OUT (JSON) tells, for each line of FILE, the tests
  that ran it. A fixture shared by several tests (class, module or session scope) has a
  context of its own too, counted for every test that uses it; what runs while the tests are
  collected (the module's import: its constants, classes and default values) is counted as
  ``(import)``. A test that starts a process (``subprocess``, ``os.fork``) is *opaque*: what
  the process runs is not seen, so bench/mutate.py runs it for every mutant.
- ``MUTATE_SELECT=FILE``: only the tests whose node ids FILE lists (one a line) run, in
  that order.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

IMPORT = "(import)"


class Cover:
    """Coverage of one module, in one context a test (or a shared fixture)."""

    def __init__(self, module: str, out: str) -> None:
        import coverage

        self.module, self.out = module, out
        self.cov = coverage.Coverage(data_file=None, include=[module], config_file=False)
        self.cov.start()
        self.current = IMPORT
        self.cov.switch_context(IMPORT)
        self.fixtures: dict[str, list[str]] = {}
        self.opaque: set[str] = set()
        self.order: list[str] = []
        self.seconds: dict[str, float] = {}
        self._undo: list[Callable[[], None]] = []
        self._watch_processes()

    def _watch_processes(self) -> None:
        cover = self

        def wrap(owner: Any, name: str) -> None:
            original = getattr(owner, name)

            def started(*args: Any, **kwargs: Any) -> Any:
                cover.opaque.add(cover.current)
                return original(*args, **kwargs)

            setattr(owner, name, started)
            self._undo.append(lambda: setattr(owner, name, original))

        wrap(subprocess.Popen, "__init__")
        for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp"):
            if hasattr(os, name):
                wrap(os, name)

    def switch(self, context: str) -> None:
        self.current = context
        self.cov.switch_context(context)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, None, None]:
        self.order.append(item.nodeid)
        self.fixtures[item.nodeid] = list(getattr(item, "fixturenames", ()))
        self.switch(item.nodeid)
        began = time.monotonic()
        yield
        self.seconds[item.nodeid] = time.monotonic() - began
        self.switch(IMPORT)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Generator[None, None, None]:
        if fixturedef.scope == "function":
            yield
            return
        test = self.current
        self.switch(f"fixture:{fixturedef.argname}")
        yield
        self.switch(test)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.cov.stop()
        for undo in self._undo:
            undo()
        data = self.cov.get_data()
        lines: dict[str, list[str]] = {}
        for name in data.measured_files():
            if Path(name).resolve() == Path(self.module).resolve():
                lines = {str(n): sorted(c) for n, c in data.contexts_by_lineno(name).items()}
        Path(self.out).write_text(json.dumps({
            "lines": lines, "fixtures": self.fixtures, "opaque": sorted(self.opaque - {IMPORT}),
            "order": self.order, "seconds": self.seconds, "failed": session.testsfailed}), encoding="utf-8")


class Select:
    """Only the tests listed, in the order listed."""

    def __init__(self, path: str) -> None:
        self.wanted = [line for line in Path(path).read_text(encoding="utf-8").splitlines() if line]

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        rank = {nodeid: n for n, nodeid in enumerate(self.wanted)}
        kept = sorted((item for item in items if item.nodeid in rank), key=lambda item: rank[item.nodeid])
        dropped = [item for item in items if item.nodeid not in rank]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("MUTATE_COVER"):
        config.pluginmanager.register(Cover(os.environ["MUTATE_MODULE"], os.environ["MUTATE_COVER"]), "mutate-cover")
    if os.environ.get("MUTATE_SELECT"):
        config.pluginmanager.register(Select(os.environ["MUTATE_SELECT"]), "mutate-select")
