"""The command line: ``referee check``, ``referee games``, ``referee export``.

Heavy modules (lark, rich, jsonschema) are imported inside the commands that need
them, so that a small check starts fast."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from .engine import Found, GameReport
    from .games.base import Violation
    from .notation import RecordError
    from .record import Record

EXIT_OK, EXIT_VIOLATIONS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report an interrupted command."""
EXIT_OUTPUT_CLOSED = 141
"""The reader of the output went away (``| head -1``): 128 + SIGPIPE, as shells report
``cat`` or ``grep`` stopped the same way. The output was cut short: neither 0 nor 1."""


class _Referee(click.Group):
    """The commands, with the endings they share: Ctrl-C exits 130 and a closed output
    141, quietly; running out of memory is said in a sentence, exit 2. Never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            try:
                return super().invoke(ctx)
            finally:  # a closed pipe shows when the output is flushed: here, not at exit
                sys.stdout.flush()
        except KeyboardInterrupt:
            _drop_output()
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            _drop_output()
            sys.exit(EXIT_OUTPUT_CLOSED)
        except MemoryError:
            from .messages import say

            _drop_output()
            sys.stderr.write(say("run.out-of-memory") + "\n")
            sys.exit(EXIT_ERROR)


def _drop_output() -> None:
    """Send what is left in the output's buffer nowhere: the reader is gone, or the run
    stops short; Python's own flush at exit then has nothing to fail on."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


@click.group(cls=_Referee, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
def main() -> None:
    """Referee and validator for card games played at a real table."""
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show ♠ gets ? rather than a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _records_out() -> None:
    """Records and JSON are written in UTF-8 whatever the locale: never a character lost.
    (Only a file name that is not UTF-8 can hold what UTF-8 cannot write: a JSON escape.)"""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")


class _Printer:
    """Prints lines of styled pieces: through rich on a terminal (or when FORCE_COLOR asks
    for colours), as plain text otherwise, without the cost of loading rich. Every piece is
    made visible (safe_text) on its way out; ``degraded`` tells whether the output's
    encoding could not show some character (it was printed as ?)."""

    def __init__(self) -> None:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        self.encoding = None if encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig") else encoding
        self.degraded = False
        self.width: int | None = None
        """The terminal's width, to wrap sentences to (none in a pipe: lines stay whole)."""
        plain = bool(os.environ.get("NO_COLOR"))  # no-color.org: no colour, and here no style at all
        if sys.stdout.isatty():
            import shutil

            self.width = shutil.get_terminal_size().columns
        if (sys.stdout.isatty() or os.environ.get("FORCE_COLOR")) and not plain:
            from rich.console import Console
            from rich.text import Text

            console = Console(highlight=False, soft_wrap=True)
            self.write = lambda pieces: console.print(Text.assemble(*pieces))
        else:
            self.write = lambda pieces: sys.stdout.write("".join(text for text, _ in pieces) + "\n")

    def __call__(self, pieces: list[tuple[str, str]]) -> None:
        from .safe_text import visible

        pieces = [(visible(text), style) for text, style in pieces]
        if self.encoding is not None and not self.degraded:
            try:
                "".join(text for text, _ in pieces).encode(self.encoding)
            except (UnicodeEncodeError, LookupError):
                self.degraded = True
        self.write(pieces)


def _read(path: str, lazy: bool = False) -> Iterator[Record | RecordError]:
    """The games of a file, or of the standard input for ``-`` (``lazy``: each game's
    events read as they are taken, see read_games)."""
    from .notation import RecordError, read_games

    if path != "-":
        return read_games(path, lazy=lazy)
    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:  # started with its standard input closed (<&-)
        from .messages import say

        return iter([RecordError("<stdin>", 0, 0, say("file.unreadable", reason=say("file.stdin-closed")))])
    return read_games("<stdin>", stdin, lazy=lazy)


class _JsonReports:
    """``check --json``: each game's report written as it comes, its violations streamed
    as they are found (however many, they take no memory)."""

    def __init__(self) -> None:
        import json

        self.dumps = lambda data: json.dumps(data, ensure_ascii=False)
        self.games = self.streamed = 0
        self.found: Found | None = None

    def _next_game(self) -> None:
        sys.stdout.write(",\n" if self.games else "\n")
        self.games += 1

    def _violation(self, violation: Violation) -> None:
        from .report import violation_json

        sys.stdout.write((", " if self.streamed else "") + self.dumps(violation_json(violation)))
        self.streamed += 1

    def sink(self, record: Record) -> Found:
        """Where a game's violations go: written at once, the first of the game opening it."""
        from .engine import Found

        def each(violation: Violation) -> None:
            if not self.streamed:
                self._next_game()
                sys.stdout.write(f'{{"file": {self.dumps(record.path)}, "line": {record.line}, "violations": [')
            self._violation(violation)

        self.found = Found(1, each)
        return self.found

    def write(self, report: GameReport) -> None:
        """The rest of a game's report (all of it when no violation was streamed)."""
        from .report import to_json

        data = to_json(report)
        if not self.streamed:
            self._next_game()
            sys.stdout.write(self.dumps(data))
        else:
            kept = {id(v) for v in self.found.kept}
            for violation in report.violations:  # found after the game: its match's
                if id(violation) not in kept:
                    self._violation(violation)
            for key in ("file", "line", "violations"):
                del data[key]
            sys.stdout.write("], " + self.dumps(data)[1:])
        self.streamed, self.found = 0, None


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (schemas/report.schema.json).")
@click.option("--play-out", is_flag=True, help="Play each game on to its end from the known deal.")
def check(files: tuple[str, ...], as_json: bool, play_out: bool) -> None:
    """Replay records and report every rule broken, the result and the statistics.

    FILE - reads a record from standard input. Exit status: 0 all valid, 1 violations
    found, 2 a file could not be read."""
    from .engine import Found, check_games

    counts = {"valid": 0, "violations": 0, "in-progress": 0, "never-ends": 0, "error": 0}
    if as_json:
        _records_out()
        sys.stdout.write("[")
        reports = _JsonReports()
        found = reports.sink
    else:
        from .report import SHOWN_PER_KIND, render

        show = _Printer()

        def found(record: Record) -> Found:
            return Found(SHOWN_PER_KIND)

    accepted = 0
    width = show.width if not as_json else None
    for path in files:
        for item, report in check_games(_read(path, lazy=True), play_out, found):
            counts[report.status] += 1
            accepted += sum(v.accepted for v in report.violations)
            if as_json:
                reports.write(report)
            else:
                for pieces in render(report, report.sources, width):
                    show(pieces)
            del item, report  # not held while the next game is read: one game in memory at a time
    if as_json:
        sys.stdout.write("\n]\n")
    else:
        from .messages import say

        total = sum(counts.values())
        summary = say("report.summary", games=total, files=len(files), valid=counts["valid"], never=counts["never-ends"],
                      violations=counts["violations"], progress=counts["in-progress"], errors=counts["error"])
        show([(summary + (say("report.summary-accepted", count=accepted) if accepted else ""), "")])
        if show.degraded:
            show([(say("report.degraded", encoding=show.encoding), "")])
    sys.exit(EXIT_ERROR if counts["error"] else EXIT_VIOLATIONS if counts["violations"] else EXIT_OK)


@main.command()
def games() -> None:
    """List the games and their variants."""
    from .games import GAMES, load_rules

    for entry in GAMES:
        if entry.module is None:
            click.echo(f"{entry.name}  {entry.title}  (not refereed yet)")
            continue
        rules = load_rules(entry)
        click.echo(f"{entry.name}  {entry.title}  {rules.min_players}-{rules.max_players} players")
        for option in rules.options:
            click.echo(f"  [{option.tag} \"...\"]  {option.help}: {option.accepted()} (default: {_default_text(option, rules)})")


def _default_text(option, rules) -> str:
    """An option's default in words; one that depends on the number of players, for each."""
    if callable(option.default):
        return ", ".join(f"{_value_text(option.default(n))} for {n}" for n in range(rules.min_players, rules.max_players + 1))
    return _value_text(option.default)


def _value_text(value) -> str:
    return (" ".join(sorted(value)) or "none") if isinstance(value, frozenset) else str(value)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--to", "form", type=click.Choice(["json", "text"]), default="json", show_default=True,
              help="json: the record as JSON (schemas/record.schema.json); text: the record rewritten in canonical form.")
def export(file: str, form: str) -> None:
    """Print a record in another form, comments kept. Nothing is written to the file."""
    import json

    from .export import record_to_json, record_to_text
    from .notation import RecordError

    _records_out()
    failed = False
    games = 0
    if form == "json":  # as json.dumps(..., indent=1) writes {"file": ..., "games": [...]}, one game at a time
        sys.stdout.write(f'{{\n "file": {json.dumps(file, ensure_ascii=False)},\n "games": [')
    for item in _read(file):
        if isinstance(item, RecordError):
            click.echo(str(item), err=True)
            failed = True
        elif form == "json":
            game = json.dumps(record_to_json(item), ensure_ascii=False, indent=1).replace("\n", "\n  ")
            sys.stdout.write(("\n  " if not games else ",\n  ") + game)
            games += 1
        else:
            sys.stdout.write(record_to_text(item))
        del item
    if form == "json":
        sys.stdout.write("\n ]\n}\n" if games else "]\n}\n")
    sys.exit(EXIT_ERROR if failed else EXIT_OK)


@main.command()
@click.argument("game")
@click.option("--players", "-n", type=int, required=True, help="How many players.")
@click.option("--variants", "-v", multiple=True, metavar="TAG=VALUE", help="An option header, e.g. Slaps='pair sandwich'.")
@click.option("--seed", type=int, default=0, show_default=True, help="The random seed: the same seed gives the same records.")
@click.option("--count", type=int, default=1, show_default=True, help="How many games.")
@click.option("--hidden", is_flag=True, help="Leave the deal out: write only what the table saw.")
@click.option("--mistakes", type=float, default=0.0, metavar="RATE",
              help="The chance per event of a real table mistake (0.03: about three events in a hundred), "
                   "marked '; expect CODE' on its line.")
def simulate(game: str, players: int, variants: tuple[str, ...], seed: int, count: int, hidden: bool,
             mistakes: float) -> None:
    """Write random legal records of GAME, or with --mistakes, records with known mistakes."""
    from .simulate import run

    sys.exit(run(game, players, variants, seed, count, hidden, mistakes))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--at", "at", type=click.IntRange(min=1), metavar="LINE", help="The line after which to show the table (default: the end).")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON (schemas/state.schema.json).")
def state(file: str, at: int | None, as_json: bool) -> None:
    """The table after a line of a record: hands, piles, what is owed, whose turn it is,
    and what each player may legally do now."""
    from .state import run

    sys.exit(run(file, at, as_json))


@main.command()
@click.argument("targets", nargs=-1, required=True, metavar="CODE|FILE:LINE...")
def explain(targets: tuple[str, ...]) -> None:
    """The rule behind a violation code, the convention referee follows and an example;
    or, for FILE:LINE (as reports write it), why referee ruled as it did on that line."""
    from .explain import run

    sys.exit(run(targets))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
def play(file: str) -> None:
    """A live session at the table: type events as they happen; each is ruled at once
    and written to FILE (created with its headers when new). undo, state, legal, end."""
    from .live import run

    sys.exit(run(file))
