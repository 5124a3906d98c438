"""The command line: ``referee check``, ``referee games``, ``referee export``.

Heavy modules (lark, rich, jsonschema) are imported inside the commands that need
them, so that a small check starts fast."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from .notation import RecordError
    from .record import Record

EXIT_OK, EXIT_VIOLATIONS, EXIT_ERROR = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
def main() -> None:
    """Referee and validator for card games played at a real table."""
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show ♠ gets ? rather than a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _printer() -> Callable[[list[tuple[str, str]]], None]:
    """Prints a line of styled pieces: through rich on a terminal (or when FORCE_COLOR
    asks for colours), as plain text otherwise, without the cost of loading rich."""
    if not (sys.stdout.isatty() or os.environ.get("FORCE_COLOR")):
        return lambda pieces: sys.stdout.write("".join(text for text, _ in pieces) + "\n")
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    return lambda pieces: console.print(Text.assemble(*pieces))


def _read(path: str) -> Iterator[Record | RecordError]:
    """The games of a file, or of the standard input for ``-``."""
    from .notation import read_games

    return read_games("<stdin>", sys.stdin.buffer) if path == "-" else read_games(path)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (schemas/report.schema.json).")
@click.option("--play-out", is_flag=True, help="Play each game on to its end from the known deal.")
def check(files: tuple[str, ...], as_json: bool, play_out: bool) -> None:
    """Replay records and report every rule broken, the result and the statistics.

    FILE - reads a record from standard input. Exit status: 0 all valid, 1 violations
    found, 2 a file could not be read."""
    from .engine import check_games
    from .report import to_json

    counts = {"valid": 0, "violations": 0, "in-progress": 0, "never-ends": 0, "error": 0}
    if as_json:
        import json

        sys.stdout.write("[")
    else:
        from .report import render

        show = _printer()
    first = True
    for path in files:
        for item, report in check_games(_read(path), play_out):
            counts[report.status] += 1
            if as_json:
                sys.stdout.write(("\n" if first else ",\n") + json.dumps(to_json(report), ensure_ascii=False))
            else:
                for pieces in render(report, item.sources(v.line for v in report.violations) if report.violations else None):
                    show(pieces)
            first = False
    if as_json:
        sys.stdout.write("\n]\n")
    else:
        from .messages import say

        total = sum(counts.values())
        show([(say("report.summary", games=total, files=len(files), valid=counts["valid"] + counts["never-ends"],
                   violations=counts["violations"], progress=counts["in-progress"], errors=counts["error"]), "")])
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

    failed = False
    games = []
    for item in _read(file):
        if isinstance(item, RecordError):
            click.echo(str(item), err=True)
            failed = True
        elif form == "json":
            games.append(record_to_json(item))
        else:
            click.echo(record_to_text(item), nl=False)
    if form == "json":
        click.echo(json.dumps({"file": file, "games": games}, ensure_ascii=False, indent=1))
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
