"""The layers of referee go one way, and no import circle hides in a function.

cli → commands (check's reports and formats, fmt, export, import, state, explain, simulate,
play, serve, the HTML report, the language server…) → engine → games → notation/record →
cards/messages. Every import counts, at the top of a module or inside a function; those
under ``if TYPE_CHECKING:`` (annotations, never run) are left out of the layers, but not
of the circles: a circle closed under TYPE_CHECKING is the same knot, which some import
inside a function closes at run time (issue 32: Caroleto's rules ↔ legal ↔ mistakes ↔
ruling). A circle is reported edge by edge, each import with its line and the function it
sits in. A game imports the shared machinery of ``referee/games/`` (base, seating,
tricks) and its own package, never another game. The registry of games
(``referee/games/registry.py``) is data below notation, and no module outside
``referee/games/`` names a game.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import NamedTuple

from referee.games.registry import GAMES

from .conftest import ROOT

PACKAGE = ROOT / "referee"
SHARED_GAME_MODULES = {"referee.games", "referee.games.base", "referee.games.seating", "referee.games.tricks"}


GROUND = ("referee.sentences", "referee.text", "referee.fast")
"""The wings below everything: the sentences, text in and out, the compiled fast path."""


def layer(module: str) -> int:
    """0 cards/messages and the ground wings, 1 notation/record, 2 games, 3 engine,
    4 commands, 5 cli (and referee.dev: the generators, the catalogue tools among them,
    which read the help of the command line)."""
    if module in {"referee.cli", "referee.cli.group", "referee.__main__"} or module.startswith("referee.dev"):
        return 5
    if module == "referee.games.registry":  # data only: notation reads it
        return 0
    if module.startswith("referee.games"):
        return 2
    if module in {"referee.engine", "referee.match"}:
        return 3
    if module in {"referee.notation", "referee.record", "referee.record_rules", "referee.spelling"} or module.startswith("referee._grammar"):
        return 1
    if module.startswith(GROUND) or module in {"referee", "referee.cards", "referee.messages"}:
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


class Import(NamedTuple):
    """One import of a referee module: its line, the function it sits in (None at the
    top of the module) and whether it is under ``if TYPE_CHECKING:``."""

    target: str
    line: int
    function: str | None
    typing_only: bool

    def where(self) -> str:
        place = f"inside {self.function}()" if self.function else "at the top"
        return f"line {self.line}, {place}" + (", under TYPE_CHECKING" if self.typing_only else "")


def found_imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[Import]:
    """Every referee module ``module`` imports, TYPE_CHECKING blocks and functions included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]

    def visit(node: ast.AST, scope: tuple[str, ...], function: bool, typing_only: bool) -> Iterator[Import]:
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
                yield Import(name, getattr(node, "lineno", 0), ".".join(scope) if function else None, typing_only)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):  # a method: Class.method
            scope, function = (*scope, node.name), function or not isinstance(node, ast.ClassDef)
        typed = node.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) else []
        for child in ast.iter_child_nodes(node):
            yield from visit(child, scope, function, typing_only or any(child is line for line in typed))

    yield from visit(tree, (), False, False)


def imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The referee modules ``module`` imports, with the line, outside TYPE_CHECKING blocks."""
    for found in found_imports(module, path, known):
        if not found.typing_only:
            yield found.target, found.line


def import_graph(known: dict[str, Path], typing_too: bool) -> dict[str, dict[str, Import]]:
    """Each module's imports by target (the first one found of each), with or without
    those under TYPE_CHECKING."""
    graph: dict[str, dict[str, Import]] = {}
    for module, path in known.items():
        edges = graph.setdefault(module, {})
        for found in found_imports(module, path, known):
            if typing_too or not found.typing_only:
                edges.setdefault(found.target, found)
    return graph


@cache  # read once for the three tests of the tree (a second each); none changes it
def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {module: {target: found.line for target, found in edges.items()}
            for module, edges in import_graph(known, typing_too=False).items()}


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


def circles(edges: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Each import circle (Tarjan's strongly connected components), edge by edge: one
    import of each module of the circle that leads back to it, with where it is made."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in edges.get(module, {}):
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
                inside = set(component)
                found.append([f"{m} → {t} ({i.where()})" for m in sorted(inside)
                              for t, i in sorted(edges[m].items()) if t in inside])

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle() -> None:
    """No circle among the imports that run, at the top of a module or inside a function."""
    found = circles(import_graph(modules(), typing_too=False))
    assert not found, "\n\n".join("\n".join(c) for c in found)


def test_no_import_circle_closed_under_type_checking() -> None:
    """Nor one that an import under TYPE_CHECKING closes: the annotations name the module
    the code cannot import, so an import inside a function closes the circle at run time
    (Caroleto's rules ↔ legal ↔ mistakes ↔ ruling before issue 32). The modules stand on
    a state of their own instead, as Carte et Plouc's do (state.py)."""
    found = circles(import_graph(modules(), typing_too=True))
    assert not found, "\n\n".join("\n".join(c) for c in found)


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


def test_a_circle_closed_inside_a_function_is_reported(tmp_path: Path) -> None:
    """The checker itself: two modules that import each other, one at the top and one
    inside a method, are a circle, and the report names the method; the same import
    under TYPE_CHECKING is a circle for the second test only."""
    (tmp_path / "rules.py").write_text("from .legal import legal\n", encoding="utf-8")
    (tmp_path / "legal.py").write_text("class Legal:\n    def moves(self):\n        from .rules import Rules\n", encoding="utf-8")
    (tmp_path / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .rules import Rules\n",
                                       encoding="utf-8")
    known = {"referee.rules": tmp_path / "rules.py", "referee.legal": tmp_path / "legal.py"}
    assert circles(import_graph(known, typing_too=False)) == [[
        "referee.legal → referee.rules (line 3, inside Legal.moves())", "referee.rules → referee.legal (line 1, at the top)"]]
    known = {"referee.rules": tmp_path / "rules.py", "referee.legal": tmp_path / "typed.py"}
    assert circles(import_graph(known, typing_too=False)) == []
    assert circles(import_graph(known, typing_too=True)) == [[
        "referee.legal → referee.rules (line 3, at the top, under TYPE_CHECKING)", "referee.rules → referee.legal (line 1, at the top)"]]


def test_at_most_twelve_modules_sit_at_the_top() -> None:
    """The house in wings (issue 32): besides __init__, __main__ and the generated parsers,
    at most 12 modules directly in referee/; the rest live in a wing (docs/architecture.md)."""
    top = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in {"__init__.py", "__main__.py"}
                 and not p.name.startswith("_grammar"))
    assert len(top) <= 12, top


def test_every_import_of_the_api_page_works() -> None:
    """docs/api.md's imports: the wings moved modules, never the API."""
    lines = sorted({line for line in (ROOT / "docs" / "api.md").read_text(encoding="utf-8").splitlines()
                    if line.startswith(("from referee", "import referee"))})
    assert lines
    done = subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
