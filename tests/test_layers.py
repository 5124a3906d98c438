"""The layers of referee go one way, and no import circle hides in a function.

cli → commands (check's reports and formats, fmt, export, import, state, explain, simulate,
play, serve, the HTML report, the language server…) → engine → games → notation/record →
cards/messages. Every import counts, at the top of a module or inside a function; only
those under ``if TYPE_CHECKING:`` (annotations, never run) are left out. A game imports the
shared machinery of ``referee/games/`` (base, seating, tricks) and its own package, never
another game. The registry of games (``referee/games/registry.py``) is data below notation,
and no module outside ``referee/games/`` names a game.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from referee.games.registry import GAMES

from .conftest import ROOT

PACKAGE = ROOT / "referee"
SHARED_GAME_MODULES = {"referee.games", "referee.games.base", "referee.games.seating", "referee.games.tricks"}


def layer(module: str) -> int:
    """0 cards/messages, 1 notation/record, 2 games, 3 engine, 4 commands, 5 cli (and the catalogue tools,
    which read the help of the command line, and referee.dev, which runs them)."""
    if module in {"referee.cli", "referee.cli_group", "referee.__main__", "referee.i18n"}:  # i18n: the catalogue tools
        return 5
    if module.startswith("referee.dev"):  # the generators of the project's files, the catalogue tools among them
        return 5
    if module == "referee.games.registry":  # data only: notation reads it
        return 0
    if module.startswith("referee.games"):
        return 2
    if module in {"referee.engine", "referee.match"}:
        return 3
    if module in {"referee.notation", "referee.record", "referee.record_rules", "referee.spelling"} or module.startswith("referee._grammar"):
        return 1
    if module.startswith("referee.sentences") or module in {
            "referee", "referee.cards", "referee.messages", "referee.locales", "referee.safe_text",
            "referee.french", "referee.speedups", "referee.plain", "referee.numbers"}:
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


def test_importing_the_registry_loads_no_rules() -> None:
    """``notation`` reads the registry below the games: importing it runs the package
    ``referee.games`` too, which must load no rules (nor ``notation``, half read then)."""
    done = subprocess.run([sys.executable, "-c", "import sys, referee.notation, referee.games.registry; "
                           "print(sorted(m for m in sys.modules if m.startswith('referee.games')))"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['referee.games',", "'referee.games.registry']"], done.stdout + done.stderr


# --- No game named outside referee/games/ ------------------------------------------------------

def _spelled(name: str) -> str:
    """A name as a pattern: its words joined by a hyphen, an underscore, a space or nothing."""
    return "[-_ ]?".join(re.escape(word) for word in re.split(r"[-_ ]+", name))


GAME_NAME = re.compile("|".join(sorted({_spelled(n) for g in GAMES for n in (g.name, g.title, g.module or g.name)}
                                       | {"bataille"})), re.IGNORECASE)
"""Any game's name, title or package, in any case (and Bataille alone)."""
NAMING_ALLOWED = ("referee.games", "referee.sentences")
"""Where games may be named: the games themselves, and the catalogue's English source."""


def _named(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every name and string literal of a module's code, with its line; docstrings (a
    string standing alone as a statement) left out, as comments are."""
    standing = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in standing:
            yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, f"{node.name} {node.asname or ''}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module


def game_names_in(path: Path) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}" for line, text in _named(ast.parse(path.read_text(encoding="utf-8")))
            if GAME_NAME.search(text)]


def test_no_module_outside_the_games_names_a_game() -> None:
    """What differs per game lives in the game (the ``Rules`` contract): a module outside
    referee/games/ names no game in its code or its strings (its docstrings and comments
    may, as may the catalogue's English source, referee/sentences/)."""
    found = [hit for module, path in sorted(modules().items()) if not module.startswith(NAMING_ALLOWED)
             for hit in game_names_in(path)]
    assert not found, "\n".join(found)


def test_the_names_check_sees_code_and_strings_but_not_docstrings(tmp_path: Path) -> None:
    """The checker itself: a name in a string, an f-string, an import or an identifier is
    found; in a docstring or a comment it is not."""
    module = tmp_path / "m.py"
    module.write_text('"""Caroleto, in a docstring."""\nfrom .games.caroleto import X  # caroleto\n'
                      'def f(game):\n    """Bataille corse."""\n    return game == "pierre-qui-roule" or f"{game} Flaschenteufel"\n'
                      'CARTE_ET_PLOUC = 1\nWORDS = ("carte", "plouc")\n', encoding="utf-8")
    found = [(line, text) for line, text in _named(ast.parse(module.read_text(encoding="utf-8"))) if GAME_NAME.search(text)]
    assert sorted(found) == [(2, "games.caroleto"), (5, " Flaschenteufel"), (5, "pierre-qui-roule"), (6, "CARTE_ET_PLOUC")]
