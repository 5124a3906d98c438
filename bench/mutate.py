"""Mutation testing of one module against its own tests: do the tests notice a broken rule?

    python bench/mutate.py referee/games/tricks.py
    python bench/mutate.py referee/games/tricks.py --tests tests/test_tricks.py --sample 40 --seed 1
    python bench/mutate.py referee/notation.py --list

The module is parsed with ``ast`` and changed one place at a time (a mutant):

- ``compare``: a comparison negated (``<`` to ``>=``, ``==`` to ``!=``, ``in`` to ``not in``…);
- ``boundary``: a comparison moved by one (``<`` to ``<=``, ``>=`` to ``>``…);
- ``number``: an integer constant plus or minus one;
- ``boolean``: ``and`` and ``or`` swapped;
- ``delete``: a statement of a function replaced by ``pass``;
- ``none``: a returned value replaced by ``None`` (but not ``False``);
- ``negate``: the condition of an ``if``, ``while``, conditional expression or
  comprehension negated.

Type annotations, docstrings, f-strings and ``if TYPE_CHECKING:`` blocks are left alone,
and so is a line marked ``# pragma: no mutate``. Each mutant is written into a temporary
copy of the project (never into the working tree), and the chosen tests are run on it
with ``pytest -x -q -n 0 -p no:cacheprovider``, with the copy first on PYTHONPATH and as
the working directory (so commands the tests start use it too).

Which tests: the clean run goes under coverage.py (bench/mutate_plugin.py), one context a
test, and each mutant runs only the tests that ran one of its lines (or a shared fixture
that did), in the clean run's order; every test for a line run at import (a constant, a
default value) or inside a cached function; and always the tests that start a process
(coverage does not follow them). A mutant of a line no test runs is *not covered*: a
survivor, with nothing run. ``--all-tests`` runs every test for every mutant (to check the
choice), and so does a run without coverage.py installed. How: a *zygote* process imports
pytest and the libraries the tests use (never the project) once, and forks a pytest for
each mutant (``--no-fork`` starts a new pytest each time). A mutant is *killed* when
a test fails (or the tests cannot even be collected), *survives* when they all pass, and
*times out* when they take longer than ``--timeout`` (counted as noticed: a mutant that
loops forever is caught). The tests must pass on the unchanged copy first.

The score is the share of the behaviour-changing mutants that the tests notice (killed or
timed out). A surviving mutant may change nothing a player could see (an *equivalent*
mutant: a bound that no game reaches, a cache that is only faster); once a person has
judged it so, it goes into ``bench/equivalent-mutants.txt`` with the reason, one per line,
as ``module | kind: change | the line as written | why`` (``[2]`` after the change for the
second of its kind on the line; lines written alike share the judgement), and is left out
of the score.
Surviving mutants are printed as diffs.

Without ``--tests``, the tests of a module of referee are those of ``DEFAULT_TESTS``
below; ``-k`` selects among them as pytest's ``-k`` does. ``--sample N`` draws N mutants
(``--seed``), ``--rerun OUTPUT`` runs again only the survivors an earlier run printed
(once tests are added), ``--kinds`` keeps some kinds, ``--jobs`` runs several copies at once
(default 1: a run is long; keep the sample small). Exit status 1 when the score is under
``--fail-under`` (default 0: never).
"""

from __future__ import annotations

import argparse
import ast
import bisect
import dataclasses
import difflib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "bench" / "equivalent-mutants.txt"
KINDS = ("compare", "boundary", "number", "boolean", "delete", "none", "negate")
PRAGMA = "pragma: no mutate"
IGNORED = (".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "mutants",
           ".venv", "venv", "node_modules", "*.pyc", "build", "dist", "*.egg-info")

def _game_tests(files: list[str], games: list[str], folders: str) -> tuple[list[str], str]:
    """A rules module's tests: its game's test files, the behaviours pinned after mutation
    runs, then its records (chosen by folder with ``-k``), then the simulated mistakes (the recall and precision run of its games
    only)."""
    del games
    return [*files, "tests/test_pinned.py", "tests/test_records.py", "tests/test_mistakes.py"], \
        f"(not test_records.py or {folders}) and (not are_complete or {folders})"


DEFAULT_TESTS: dict[str, tuple[list[str], str]] = {
    # module: (test files or node ids, -k expression)
    "referee/games/tricks.py": _game_tests(
        ["tests/test_tricks.py", "tests/test_pierre_qui_roule.py", "tests/test_flaschenteufel.py"],
        ["pierre-qui-roule", "flaschenteufel"], "pierre or flaschen or regressions"),
    "referee/games/pierre_qui_roule.py": _game_tests(
        ["tests/test_pierre_qui_roule.py", "tests/test_tricks.py"],
        ["pierre-qui-roule"], "pierre or regressions"),
    "referee/games/flaschenteufel.py": _game_tests(
        ["tests/test_flaschenteufel.py", "tests/test_tricks.py"], ["flaschenteufel"], "flaschen"),
    "referee/games/bataille_corse.py": _game_tests(
        ["tests/test_bataille_corse.py"], ["bataille-corse"], "bataille or regressions"),
    "referee/games/seating.py": (["tests/test_seating.py", "tests/test_records.py"], "not test_record_round_trip"),
    # a game's package: every module of it, by its folder
    "referee/games/caroleto/": _game_tests(["tests/test_caroleto.py", "tests/test_legal.py"], ["caroleto"],
                                           "caroleto or regressions"),
    "referee/games/carte_et_plouc/": _game_tests(
        ["tests/test_carte_et_plouc.py", "tests/test_legal.py"], ["carte-et-plouc"], "carte or regressions"),
    # the three tests that start a process (the generated parser current, no lark imported, a dead
    # writer's lock) would run for every mutant (12 to 15 s each): left out
    "referee/notation.py": (["tests/test_notation.py", "tests/test_notation_fr.py", "tests/test_pinned.py",
                             "tests/test_records.py", "tests/test_hardening_files.py"],
                            "not test_record_round_trip and not french_mistakes and not generated_parser_is_current"
                            " and not imports_no_lark and not dead_process"),
    "referee/match.py": (["tests/test_match.py", "tests/test_records.py", "tests/test_replayer.py"],
                         "not test_record_round_trip and (not test_records.py or match or superscript)"),
    # the engine: its pinned behaviours and the records first, then the tests that call it directly
    # (accepted marks, the live record's replay in parts, bounded notes and claims) and test_cli.py's
    # in-process tests; test_cli.py's three tests that start a process (a terminal without Unicode, the
    # modules a plain check loads, the plain check against click's) are left out: coverage does not
    # follow a process, so they would run for every mutant (about 20 processes each time)
    "referee/engine.py": (["tests/test_pinned.py", "tests/test_records.py", "tests/test_accepted.py",
                           "tests/test_replayer.py", "tests/test_cli.py",
                           "tests/test_hardening.py::test_blank_lines_after_a_game_without_a_game_header",
                           "tests/test_hardening.py::test_a_long_game_is_read_a_block_at_a_time",
                           "tests/test_hardening.py::test_notes_and_claims_stay_bounded_however_many_lines_ask_for_them"],
                          "not test_record_round_trip and not without_unicode_gets_no_traceback"
                          " and not imports_only_what_it_needs and not says_what_the_click_group_says"),
    # the contract every game follows: its own tests, those of what its games share (player names, the
    # choice of a group of cards, bounded notes), then the pinned behaviours and every record (setup
    # errors, options, tags, accepted faults); test_names.py's test that starts a process is left out
    "referee/games/base.py": (["tests/test_base.py", "tests/test_names.py",
                               "tests/test_legal.py::test_a_group_is_a_choice_the_first_card_fits_the_others_share_its_value",
                               "tests/test_legal.py::test_a_group_of_aces_announces_a_suit_with_its_last_ace",
                               "tests/test_legal.py::test_a_group_that_goes_out_does_not_end_on_a_forbidden_card",
                               "tests/test_hardening.py::test_notes_and_claims_stay_bounded_however_many_lines_ask_for_them",
                               "tests/test_pinned.py", "tests/test_records.py"],
                              "not test_record_round_trip and not latin_1_names_does_not_read"),
    "referee/serve/table.py": (["tests/test_table.py", "tests/test_serve.py"], ""),
    # the live record: its own tests, the Replayer's, the table page's record; the tests that start
    # a process (play through a terminal, a second server, a signal) would run for every mutant: left out
    "referee/live.py": (["tests/test_live.py", "tests/test_replayer.py", "tests/test_table.py", "tests/test_serve_record.py"],
                        "not through_a_terminal and not killed_mid_game and not undo_rewrites and not undo_through_a_link"
                        " and not undo_refuses and not prompt_toolkit and not other_names and not signal_stops"
                        " and not editor_saved_before_it_writes"),
}


@dataclass(frozen=True)
class Mutant:
    """One change of the module: the bytes ``start:end`` of its source become ``replacement``."""

    kind: str
    line: int
    start: int
    end: int
    replacement: bytes
    change: str
    source_line: str
    occurrence: str = ""
    """`` [2]`` for the second change of the same kind on the line (empty when alone)."""
    lines: tuple[int, ...] = ()
    """The lines whose run runs the change: those of the changed text, and the first of its statement."""
    everywhere: bool = False
    """Run at import (a statement of the module or a class: a constant, a default value) or
    behind a cache (its function is ``@cache``d or sets a global): the tests that run its
    lines are not all the tests it can change."""

    def apply(self, source: bytes) -> bytes:
        return source[: self.start] + self.replacement + source[self.end :]

    @property
    def signature(self) -> str:
        """What names the mutant across edits of other lines: ``kind: change | line``."""
        return f"{self.kind}: {self.change}{self.occurrence} | {self.source_line.strip()}"


NEGATED = {ast.Eq: "!=", ast.NotEq: "==", ast.Lt: ">=", ast.GtE: "<", ast.Gt: "<=", ast.LtE: ">",
           ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is"}
MOVED = {ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">"}
WRITTEN = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
           ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Raise, ast.Delete, ast.Continue, ast.Break)


class Finder:
    """Every mutant of a module's source."""

    def __init__(self, source: bytes):
        self.source = source
        self.lines = source.split(b"\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.mutants: list[Mutant] = []
        self.statement: ast.stmt | None = None
        self.cached = False
        self.top = True
        """In a statement of the module or of a class, run once at import (by whichever test
        imports it first): what it makes may be read by any test."""

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column  # ast columns count UTF-8 bytes

    def span(self, node: ast.stmt | ast.expr) -> tuple[int, int]:
        end_line, end_column = node.end_lineno, node.end_col_offset
        assert end_line is not None and end_column is not None  # set by ast.parse
        return self.offset(node.lineno, node.col_offset), self.offset(end_line, end_column)

    def text(self, start: int, end: int) -> bytes:
        return self.source[start:end]

    def add(self, kind: str, node: ast.stmt | ast.expr, start: int, end: int, replacement: bytes, change: str) -> None:
        line = self.lines[node.lineno - 1].decode("utf-8", "replace")
        if PRAGMA in line:
            return
        first, last = self.line_of(start), self.line_of(max(end - 1, start))
        if self.statement is not None:
            first = min(first, self.statement.lineno)
        self.mutants.append(Mutant(kind, node.lineno, start, end, replacement, change, line,
                                   lines=tuple(range(first, last + 1)), everywhere=self.cached or self.top))

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    # the walk, which leaves out what cannot change behaviour by design
    def walk(self, node: ast.AST, in_function: bool = False) -> None:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
                self.walk(default, in_function)
            cached = self.cached
            self.cached = cached or _cached(node)
            self.body(node.body, True)
            self.cached = cached
            return
        if isinstance(node, ast.ClassDef):
            self.body(node.body, False)
            return
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.walk(node.value, in_function)
            return
        if isinstance(node, (ast.Module,)):
            self.body(node.body, False)
            return
        self.mutate(node)
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self.body(value, in_function)
            elif field == "handlers":
                for handler in value:
                    self.body(handler.body, in_function)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.walk(item, in_function)
            elif isinstance(value, ast.AST):
                self.walk(value, in_function)

    def body(self, statements: list[ast.stmt], in_function: bool) -> None:
        for index, statement in enumerate(statements):
            docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
                and isinstance(statement.value.value, str)  # a docstring, or an attribute's
            if docstring:
                continue
            outer, self.statement, top = self.statement, statement, self.top
            self.top = not in_function
            if in_function and isinstance(statement, SIMPLE) and not _abstract(statement):
                start, end = self.span(statement)
                first = self.text(start, end).decode("utf-8", "replace").splitlines()[0]
                self.add("delete", statement, start, end, b"pass", f"delete `{_short(first)}`")
            self.walk(statement, in_function)
            self.statement, self.top = outer, top

    def mutate(self, node: ast.AST) -> None:
        if isinstance(node, ast.Compare):
            before = node.left
            for op, after in zip(node.ops, node.comparators):
                start, end = self.span(before)[1], self.span(after)[0]
                written = WRITTEN[type(op)]
                for kind, table in (("compare", NEGATED), ("boundary", MOVED)):
                    if type(op) in table:
                        replacement = _swap_token(self.text(start, end), written, table[type(op)])
                        if replacement is not None:
                            self.add(kind, node, start, end, replacement, f"{written} → {table[type(op)]}")
                before = after
        elif isinstance(node, ast.BoolOp):
            start, end = self.span(node)
            old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            pieces, cursor = [], start
            for left, right in zip(node.values, node.values[1:]):
                a, b = self.span(left)[1], self.span(right)[0]
                swapped = _swap_token(self.text(a, b), old, new)
                if swapped is None:
                    return
                pieces += [self.text(cursor, a), swapped]
                cursor = b
            pieces.append(self.text(cursor, end))
            self.add("boolean", node, start, end, b"".join(pieces), f"{old} → {new}")
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            start, end = self.span(node)
            for delta in (1, -1):
                value = node.value + delta
                self.add("number", node, start, end, (str(value) if value >= 0 else f"({value})").encode(),
                         f"{node.value} → {value}")
        elif isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value in (None, False)):
            start, end = self.span(node.value)
            self.add("none", node, start, end, b"None", f"return `{_short(self.text(start, end).decode())}` → None")
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            self.negate(node, node.test)
        elif isinstance(node, ast.comprehension):
            for test in node.ifs:
                self.negate(test, test)

    def negate(self, node: ast.stmt | ast.expr, test: ast.expr) -> None:
        start, end = self.span(test)
        text = self.text(start, end)
        self.add("negate", node, start, end, b"not (" + text + b")", f"`{_short(text.decode())}` → `not ({_short(text.decode())})`")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _cached(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function whose result outlives the call: decorated with a cache, or setting a global
    (a table made once). Which tests its lines change is more than which tests run them."""
    for decorator in function.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = called.attr if isinstance(called, ast.Attribute) else called.id if isinstance(called, ast.Name) else ""
        if "cache" in name:
            return True
    return any(isinstance(node, (ast.Global, ast.Nonlocal)) for node in ast.walk(function))


def _abstract(statement: ast.stmt) -> bool:
    """``raise NotImplementedError``: what a subclass must give (deleting it is no mutant)."""
    if not isinstance(statement, ast.Raise) or statement.exc is None:
        return False
    exc = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _swap_token(segment: bytes, old: str, new: str) -> bytes | None:
    """The segment between two operands with its operator ``old`` written as ``new``;
    None when the operator is not found there alone (a comment in the way)."""
    import re

    words = r"\s+".join(re.escape(w) for w in old.split())
    if old[0].isalpha():
        pattern = rf"(?<![\w.]){words}(?!\w)"
    else:
        pattern = rf"(?<![<>=!]){words}(?![<>=])"
    code = segment.split(b"#")[0].decode("utf-8") if b"#" in segment else segment.decode("utf-8")
    found = list(re.finditer(pattern, code))
    if len(found) != 1 or b"#" in segment:
        return None
    match = found[0]
    text = segment.decode("utf-8")
    return (text[: match.start()] + new + text[match.end():]).encode("utf-8")


def mutants_of(source: bytes) -> list[Mutant]:
    """The mutants of a module that compile and differ from it (as a syntax tree)."""
    tree = ast.parse(source)
    finder = Finder(source)
    finder.walk(tree)
    original = ast.dump(tree)
    kept, seen = [], set()
    for mutant in finder.mutants:
        changed = mutant.apply(source)
        if changed in seen:
            continue
        try:
            if ast.dump(ast.parse(changed)) == original:
                continue
        except SyntaxError:
            continue
        seen.add(changed)
        kept.append(mutant)
    alike: dict[tuple[int, str, str], list[int]] = {}
    for index, mutant in enumerate(kept):
        alike.setdefault((mutant.line, mutant.kind, mutant.change), []).append(index)
    for indexes in alike.values():
        if len(indexes) > 1:
            for n, index in enumerate(sorted(indexes, key=lambda i: kept[i].start), 1):
                kept[index] = dataclasses.replace(kept[index], occurrence=f" [{n}]")
    return kept


def diff(mutant: Mutant, source: bytes, name: str) -> str:
    before = source.decode("utf-8").splitlines(keepends=True)
    after = mutant.apply(source).decode("utf-8").splitlines(keepends=True)
    return "".join(difflib.unified_diff(before, after, f"{name}:{mutant.line}", f"{name} ({mutant.kind})", n=1))


def read_equivalents(path: Path, module: str) -> dict[str, str]:
    """The mutants of ``module`` judged equivalent: signature to reason."""
    known: dict[str, str] = {}
    if not path.is_file():
        return known
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = raw.split(" | ")
        if len(fields) >= 4 and fields[0].strip() == module:
            known[f"{fields[1].strip()} | {' | '.join(fields[2:-1]).strip()}"] = fields[-1].strip()
    return known


# running the tests
RUNNING: set[subprocess.Popen[bytes]] = set()
"""The test runs under way (and the zygotes), ended with the command (Ctrl-C, or a SIGTERM)."""


STOPPING = threading.Event()
PLUGIN = Path(__file__).resolve().with_name("mutate_plugin.py")
PYTEST = ["-x", "-q", "-n", "0", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning",
          "-p", "mutate_plugin"]
IMPORT = "(import)"
PRELOAD = ("pytest", "click", "rich", "jsonschema", "prompt_toolkit", "starlette", "jinja2", "httpx", "yaml",
           "hypothesis", "lsprotocol.types", "pygls", "anyio", "uvicorn")
"""What a zygote imports before it forks (never the project itself): pytest's start-up."""


def _stop(*_: object) -> None:
    if STOPPING.is_set():
        return
    STOPPING.set()
    for process in list(RUNNING):
        try:
            os.killpg(process.pid, signal.SIGTERM)  # a zygote ends its test run's process group first
        except ProcessLookupError:
            pass
    raise SystemExit(130)


def copy_tree(root: Path, into: Path) -> Path:
    tree = into / "tree"
    shutil.copytree(root, tree, ignore=shutil.ignore_patterns(*IGNORED), symlinks=True)
    return tree


def _env(tree: Path, plugins: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_", "MUTATE_"))}
    env.update(PYTHONPATH=f"{tree}{os.pathsep}{plugins}", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.update(extra)
    return env


def _outcome(code: int | None) -> str:
    if code is None:
        return "timeout"
    if code == 0:
        return "survived"
    if code in (1, 2, 3):  # failed; interrupted (collection failed); internal error
        return "killed"
    return "error"


def _tail(output: str) -> str:
    return "\n".join(output.strip().splitlines()[-15:])


def run_tests(tree: Path, args: list[str], env: dict[str, str], timeout: float) -> tuple[str, float, str]:
    """``killed``, ``survived`` or ``timeout``, the seconds taken, and pytest's last lines, for
    one pytest started afresh. Any other ending (no test collected, a bad option) is ``error``."""
    began = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=tree, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    RUNNING.add(process)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "timeout", time.monotonic() - began, ""
    finally:
        RUNNING.discard(process)
    return _outcome(process.returncode), time.monotonic() - began, _tail(output.decode("utf-8", "replace"))


class Zygote:
    """A process that has imported pytest and the libraries the tests use (not the project) and
    forks once for each test run: each run starts with the project unimported, as a new pytest
    would, without paying pytest's start-up (2 to 4 s on a loaded machine) again."""

    def __init__(self, tree: Path, env: dict[str, str], package: str) -> None:
        self.process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--zygote", package],
                                        cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        RUNNING.add(self.process)
        assert self.process.stdout is not None
        ready = self.process.stdout.readline().decode()
        if ready.strip() != "ready":
            self.close()
            raise RuntimeError(f"the zygote did not start: {ready.strip() or 'no answer'}")

    def run(self, args: list[str], env: dict[str, str], timeout: float, log: Path) -> tuple[str, float, str]:
        import json

        assert self.process.stdin is not None and self.process.stdout is not None
        began = time.monotonic()
        self.process.stdin.write(json.dumps({"args": args, "env": env, "timeout": timeout, "log": str(log)}).encode() + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        seconds = time.monotonic() - began
        if not answer:
            return "error", seconds, "the zygote ended"
        code = json.loads(answer)["code"]
        return _outcome(code), seconds, _tail(log.read_text(encoding="utf-8", errors="replace")) if code else ""

    def close(self) -> None:
        RUNNING.discard(self.process)
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.process.wait()


def zygote(package: str) -> int:
    """The zygote's side (``mutate.py --zygote PACKAGE``): preload, say ``ready``, then for each
    job read on standard input (JSON: args, env, timeout, log) fork a pytest and answer its exit
    code (null when it ran out of time and was ended)."""
    import importlib
    import importlib.metadata
    import json

    sys.path[0] = os.getcwd()  # as ``python -m pytest`` has it (not bench/, whose html.py would hide the standard one)
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:  # not installed, or broken: the run imports it itself, if it needs it
            pass
    for entry in importlib.metadata.entry_points(group="pytest11"):
        try:
            entry.load()
        except Exception:
            pass
    import pytest

    if any(name == package or name.startswith(package + ".") for name in sys.modules):
        print(f"{package} was imported while preloading", flush=True)
        return 2
    child = 0

    def end(*_: object) -> None:
        if child:
            try:
                os.killpg(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os._exit(1)

    signal.signal(signal.SIGTERM, end)
    print("ready", flush=True)
    for raw in sys.stdin:
        job = json.loads(raw)
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            code = 70
            try:
                os.setpgid(0, 0)
                os.environ.update(job["env"])
                log = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(log, 1)
                os.dup2(log, 2)
                code = int(pytest.main(job["args"]))
            except BaseException:  # anything at all: the child must never go back to the loop
                import traceback

                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        deadline = time.monotonic() + job["timeout"]
        status: int | None = None
        while True:
            pid, found = os.waitpid(child, os.WNOHANG)
            if pid:
                status = found
                break
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        try:
            os.killpg(child, signal.SIGKILL)  # what the run started and left, or the run itself when late
        except ProcessLookupError:
            pass
        if status is None:
            os.waitpid(child, 0)
        child = 0
        print(json.dumps({"code": None if status is None else os.waitstatus_to_exitcode(status)}), flush=True)
    return 0


# which tests run which line
def read_cover(path: Path) -> dict[str, object]:
    import json

    cover: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return cover


def tests_for(mutant: Mutant, cover: dict) -> list[str]:  # type: ignore[type-arg]
    """The tests to run for a mutant, in the order of the clean run: those that ran its lines
    (or a shared fixture that did), and the opaque ones (which start processes); all of them
    for a line run by import or behind a cache. None at all for a line nobody runs (when no test
    starts a process)."""
    lines: dict[str, list[str]] = cover["lines"]
    contexts = {context for n in mutant.lines for context in lines.get(str(n), ())}
    order: list[str] = cover["order"]
    if not contexts:
        return list(cover["opaque"])
    if mutant.everywhere or IMPORT in contexts:
        return list(order)
    users: dict[str, set[str]] = {}
    for test, fixtures in cover["fixtures"].items():
        for fixture in fixtures:
            users.setdefault(fixture, set()).add(test)
    chosen = set(cover["opaque"])
    for context in contexts:
        chosen |= users.get(context[len("fixture:"):], set()) if context.startswith("fixture:") else {context}
    return [test for test in order if test in chosen]


def _files(tests: list[str]) -> list[str]:
    return list(dict.fromkeys(test.split("::")[0] for test in tests))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--zygote"]:
        return zygote(argv[1])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module", help="the module to mutate, e.g. referee/games/tricks.py")
    parser.add_argument("--tests", nargs="+", action="extend", help="test files or node ids (default: DEFAULT_TESTS)")
    parser.add_argument("-k", dest="keyword", default=None, help="pytest -k expression among the tests")
    parser.add_argument("--sample", type=int, default=0, help="run N mutants drawn at random (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, help="only these kinds of mutant")
    parser.add_argument("--lines", help="only the mutants of these lines, as 10-20,31")
    parser.add_argument("--timeout", type=float, default=0,
                        help="seconds per mutant (default: 3 × what its tests took on the clean run + 15 s)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--root", type=Path, default=ROOT, help="the project copied for each run (default: this one)")
    parser.add_argument("--equivalents", type=Path, default=None, help=f"default: {EQUIVALENTS.relative_to(ROOT)}")
    parser.add_argument("--rerun", type=Path, help="only the survivors printed by an earlier run (its output)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--all-tests", action="store_true",
                        help="run all the tests for every mutant (no choice by coverage)")
    parser.add_argument("--no-fork", action="store_true", help="start a new pytest for each mutant (no zygote)")
    parser.add_argument("--fail-under", type=float, default=0, help="exit 1 when the score (in %%) is lower")
    parser.add_argument("--show-killed", action="store_true", help="also print the diffs of the killed mutants")
    args = parser.parse_args(argv)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)

    root = args.root.resolve()
    path = (root / args.module).resolve() if not Path(args.module).is_absolute() else Path(args.module)
    if not path.is_file() or path.suffix != ".py":
        parser.error(f"{args.module}: not a Python module (one file, such as referee/games/tricks.py)")
    module = path.relative_to(root).as_posix()
    source = path.read_bytes()
    everything = [m for m in mutants_of(source) if not args.kinds or m.kind in args.kinds]
    chosen = list(everything)
    if args.lines:
        wanted_lines = {n for part in args.lines.split(",") for n in
                        range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)}
        chosen = [m for m in chosen if m.line in wanted_lines]
    if args.rerun:
        wanted = {line[2:].strip() for line in args.rerun.read_text(encoding="utf-8").splitlines() if line.startswith("# ")}
        chosen = [m for m in chosen if m.signature in wanted]
    elif args.sample and args.sample < len(chosen):
        chosen = sorted(random.Random(args.seed).sample(chosen, args.sample), key=lambda m: (m.line, m.start))
    if args.list:
        for mutant in chosen:
            print(f"{module}:{mutant.line}  {mutant.kind:8}  {mutant.change}{mutant.occurrence}")
        print(f"{len(chosen)} of {len(everything)} mutants")
        return 0

    folder = next((key for key in DEFAULT_TESTS if key.endswith("/") and module.startswith(key)), module)
    default_tests, default_keyword = DEFAULT_TESTS.get(module, DEFAULT_TESTS.get(folder, ([], "")))
    tests = args.tests or default_tests
    keyword = args.keyword if args.keyword is not None else ("" if args.tests else default_keyword)
    if not tests:
        parser.error(f"no tests known for {module}: give --tests")
    equivalents_path = args.equivalents or (root / "bench" / "equivalent-mutants.txt")
    equivalent = read_equivalents(equivalents_path, module)
    select = not args.all_tests
    if select:
        import importlib.util

        if importlib.util.find_spec("coverage") is None:  # not imported here: bench/html.py hides the standard html
            print("coverage.py is not installed (pip install -e '.[bench]'): every mutant runs all the tests", flush=True)
            select = False

    sampled = f"the {len(chosen)} survivors printed in {args.rerun.name}" if args.rerun else \
        f"a sample of {len(chosen)} of {len(everything)} mutants, seed {args.seed}" if len(chosen) < len(everything) \
        else f"{len(chosen)} of {len(everything)} mutants" if args.lines or args.kinds else f"all {len(everything)} mutants"
    print(f"{module}: {sampled}; tests: {' '.join(tests)}{f' -k {keyword!r}' if keyword else ''}", flush=True)

    with tempfile.TemporaryDirectory(prefix="referee-mutate-") as scratch_name:
        scratch = Path(scratch_name)
        plugins = scratch / "plugins"
        plugins.mkdir()
        shutil.copy(PLUGIN, plugins / PLUGIN.name)
        first = copy_tree(root, scratch / "0")
        chosen_args = [*PYTEST, *tests, *(["-k", keyword] if keyword else [])]
        # the clean run, under coverage when the tests are chosen by it; bytecode written, for the mutants' runs
        extra = {"MUTATE_COVER": str(scratch / "cover.json"), "MUTATE_MODULE": str(first / module)} if select else {}
        env = _env(first, plugins, **extra)
        del env["PYTHONDONTWRITEBYTECODE"]
        outcome, clean_seconds, tail = run_tests(first, chosen_args, env, args.timeout * 10 or 3600)
        if outcome != "survived":
            print(f"the tests do not pass on the unchanged module ({outcome}):\n{tail}", file=sys.stderr)
            return 2
        cover = read_cover(scratch / "cover.json") if select else None
        if cover is not None and not any(IMPORT in c for c in cover["lines"].values()):  # type: ignore[attr-defined]
            print(f"{module} was imported before coverage started: every mutant runs all the tests", flush=True)
            cover = None
        trees: Queue[Path] = Queue()
        trees.put(first)
        for job in range(1, max(args.jobs, 1)):
            (scratch / str(job)).mkdir()
            trees.put(Path(shutil.copytree(first, scratch / str(job) / "tree", symlinks=True)))
        for tree_path in list(trees.queue):  # the module's bytecode goes: each mutant is compiled afresh
            for cached in (tree_path / module).parent.glob(f"__pycache__/{path.stem}.*.pyc"):
                cached.unlink()
        seconds_of: dict[str, float] = cover["seconds"] if cover else {}  # type: ignore[assignment]
        if cover:
            print(f"clean run under coverage: {clean_seconds:.1f} s, {len(cover['order'])} tests "  # type: ignore[arg-type]
                  f"({len(cover['opaque'])} start processes: run for every mutant)", flush=True)  # type: ignore[arg-type]
        else:
            print(f"clean run: {clean_seconds:.1f} s; timeout per mutant: {args.timeout or 5 * clean_seconds + 10:.0f} s",
                  flush=True)
        package = module.split("/")[0].removesuffix(".py")
        zygotes: dict[Path, Zygote] = {}
        zygote_lock = threading.Lock()

        lock = threading.Lock()
        results: dict[Mutant, str] = {}
        ran: dict[Mutant, int] = {}

        def one(mutant: Mutant) -> None:
            if STOPPING.is_set():
                return
            selected = tests_for(mutant, cover) if cover else None
            seconds, count = 0.0, 0
            if selected is not None and not selected:
                outcome, tail = "uncovered", ""
            else:
                tree = trees.get()
                target = tree / module
                run_args = [*PYTEST, *tests, *(["-k", keyword] if keyword else [])]
                env = _env(tree, plugins)
                timeout = args.timeout or 5 * clean_seconds + 10
                if selected is not None:
                    listing = tree.parent / "selected.txt"
                    listing.write_text("\n".join(selected) + "\n", encoding="utf-8")
                    run_args = [*PYTEST, *_files(selected)]
                    env["MUTATE_SELECT"] = str(listing)
                    # the tests' seconds under coverage, slower than without it: 3 × is ample
                    timeout = args.timeout or 3 * sum(seconds_of.get(t, 0.0) for t in selected) + 15
                    count = len(selected)
                try:
                    target.write_bytes(mutant.apply(source))
                    if args.no_fork:
                        outcome, seconds, tail = run_tests(tree, run_args, env, timeout)
                    else:
                        with zygote_lock:
                            if tree not in zygotes:
                                zygotes[tree] = Zygote(tree, _env(tree, plugins), package)
                        outcome, seconds, tail = zygotes[tree].run(run_args, env, timeout, tree.parent / "log.txt")
                finally:
                    target.write_bytes(source)
                    trees.put(tree)
            with lock:
                if STOPPING.is_set():
                    return
                results[mutant] = outcome
                ran[mutant] = count
                known = " (known equivalent)" if outcome in ("survived", "uncovered") and mutant.signature in equivalent else ""
                tests_run = f", {count} tests" if count else ""
                print(f"[{len(results)}/{len(chosen)}] {outcome:9} {module}:{mutant.line} {mutant.kind}: "
                      f"{mutant.change}{mutant.occurrence}{known}  ({seconds:.1f} s{tests_run})", flush=True)
                if outcome == "error":
                    print(tail, flush=True)

        began = time.monotonic()
        try:
            with ThreadPoolExecutor(max(args.jobs, 1)) as pool:
                list(pool.map(one, chosen))
        except SystemExit:  # stopped (Ctrl-C, SIGTERM): the report of the mutants run so far
            if not results:
                raise
            print(f"\nstopped: the report covers the {len(results)} of {len(chosen)} mutants run", flush=True)
            chosen = [m for m in chosen if m in results]
        finally:
            for running in zygotes.values():
                running.close()
        run = [m for m in chosen if results.get(m) not in (None, "uncovered")]
        if run:
            print(f"\n{len(run)} mutants run in {time.monotonic() - began:.0f} s "
                  f"({(time.monotonic() - began) / len(run):.1f} s a mutant run, "
                  f"{sum(ran.values()) / len(run):.0f} tests a mutant on average)", flush=True)

    return report(module, source, chosen, results, equivalent, args)


def report(module: str, source: bytes, chosen: list[Mutant], results: dict[Mutant, str], equivalent: dict[str, str],
           args: argparse.Namespace) -> int:
    uncovered = [m for m in chosen if results[m] == "uncovered"]
    count = {k: sum(1 for m in chosen if results[m] == k) for k in ("killed", "timeout", "survived", "error")}
    count["survived"] += len(uncovered)
    survivors = [m for m in chosen if results[m] in ("survived", "uncovered")]
    judged = [m for m in survivors if m.signature in equivalent]
    open_ = [m for m in survivors if m.signature not in equivalent]
    changing = len(chosen) - len(judged) - count["error"]
    noticed = count["killed"] + count["timeout"]
    score = 100.0 * noticed / changing if changing else 100.0
    if args.show_killed:
        for mutant in chosen:
            if results[mutant] in ("killed", "timeout"):
                print(diff(mutant, source, module))
    if judged:
        print(f"\nEquivalent mutants ({len(judged)}), as judged in {EQUIVALENTS.name}:")
        for mutant in judged:
            print(f"- {module}:{mutant.line} {mutant.kind}: {mutant.change}{mutant.occurrence}: {equivalent[mutant.signature]}")
    if open_:
        print(f"\nSurviving mutants ({len(open_)}):")
        for mutant in open_:
            print(f"# {mutant.signature}")
            if results[mutant] == "uncovered":
                print("(not covered: no test runs this line)")
            print(diff(mutant, source, module))
    print(f"\n{module}: {len(chosen)} mutants: killed {count['killed']}, timeout {count['timeout']}, "
          f"survived {count['survived']} ({len(judged)} equivalent), error {count['error']}")
    if uncovered:
        print(f"not covered: {len(uncovered)} of the survivors (no test runs their line; nothing was run for them)")
    print(f"score: {noticed}/{changing} = {score:.1f}% of the behaviour-changing mutants noticed")
    return 1 if score < args.fail_under else 0


if __name__ == "__main__":
    sys.exit(main())
