"""The layers of referee go one way, and no import circle hides in a function.

cli → commands (check's reports and formats, fmt, export, import, state, explain, simulate,
play, serve, the HTML report, the language server…) → engine → games → notation/record →
cards/messages. Every import counts, at the top of a module or inside a function; only
those under ``if TYPE_CHECKING:`` (annotations, never run) are left out. A game imports the
shared machinery of ``referee/games/`` (base, seating, tricks) and its own package, never
another game.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from .conftest import ROOT

PACKAGE = ROOT / "referee"
SHARED_GAME_MODULES = {"referee.games", "referee.games.base", "referee.games.seating", "referee.games.tricks"}


def layer(module: str) -> int:
    """0 cards/messages, 1 notation/record, 2 games, 3 engine, 4 commands, 5 cli (and the catalogue tools,
    which read the help of the command line)."""
    if module in {"referee.cli", "referee.cli_group", "referee.__main__", "referee.i18n"}:  # i18n: the catalogue tools
        return 5
    if module.startswith("referee.games"):
        return 2
    if module in {"referee.engine", "referee.match"}:
        return 3
    if module in {"referee.notation", "referee.record", "referee.record_rules", "referee.spelling"} or module.startswith("referee._grammar"):
        return 1
    if module.startswith("referee.sentences") or module in {
            "referee", "referee.cards", "referee.messages", "referee.locales", "referee.safe_text",
            "referee.french", "referee.game_names", "referee.speedups", "referee.plain", "referee.numbers"}:
        return 0
    return 4


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The referee modules ``module`` imports, with the line, outside TYPE_CHECKING blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
              for node in ast.walk(block)}
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) if node.level else node.module or ""
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        for name in names:
            while name not in known and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in known and name != module:
                yield name, node.lineno


@cache  # read once for the three tests of the tree (a second each); none changes it
def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {module: dict(imports(module, path, known)) for module, path in known.items()}


def test_every_import_goes_down_or_sideways() -> None:
    upward = [f"{module} (line {line}) imports {target}: layer {layer(module)} → {layer(target)}"
              for module, targets in graph().items() for target, line in targets.items() if layer(target) > layer(module)]
    assert not upward, "\n".join(sorted(upward))


def test_a_game_imports_no_other_game() -> None:
    def game(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and module.startswith("referee.games.") and module not in SHARED_GAME_MODULES else None
    crossing = [f"{module} imports {target}" for module, targets in graph().items() if game(module)
                for target in targets if game(target) and game(target) != game(module)]
    assert not crossing, "\n".join(crossing)


def test_no_import_circle() -> None:
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert not circles, circles


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The checker itself: an upward import inside a function is found, one under TYPE_CHECKING is not."""
    (tmp_path / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import X\n"
                                     "def f():\n    from .high import Y\n", encoding="utf-8")
    found = dict(imports("referee.cards", tmp_path / "low.py", {"referee.cards": tmp_path, "referee.high": tmp_path}))
    assert found == {"referee.high": 5}
