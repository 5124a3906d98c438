"""The command line's click group: ``referee check``, ``fmt``, ``export``, ``import``,
``standings``, ``games``, ``simulate``, ``state``, ``explain``, ``play``, ``serve`` and ``lsp``, their
options and help. Loaded by referee.cli for any command line but a plain check.

Heavy modules (rich, jsonschema) are imported inside the commands that need them."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ..config import Config
    from ..convert.formatter import Style
    from ..games.base import Option, Rules

from .running import EXIT_ERROR, EXIT_OK, check_files, configuration, named_files, reconfigure_streams, records_out, with_endings


class _Referee(click.Group):
    """The commands, with the endings they share: Ctrl-C exits 130 and a closed output
    141, quietly; running out of memory is said in a sentence, exit 2. Never a traceback."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _translate_help(self)
        super().format_help(ctx, formatter)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from ..text.locales import from_locale
        from ..messages import use

        use(from_locale(), explicit=False)  # before --help, which click may handle before --lang
        _click_words()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> object:
        return with_endings(lambda: super(_Referee, self).invoke(ctx))


class _Command(click.Command):
    """A command whose help is shown in the language in use (see _translate_help)."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _translate_help(ctx.find_root().command)  # type: ignore[arg-type]
        super().format_help(ctx, formatter)


METAVARS = ("OPTIONS", "COMMAND", "ARGS", "FILE", "FILES", "GAME", "CODE", "CODES", "LINE", "PATTERN", "NAME", "PLAYER",
            "EXT", "LANG", "RATE", "TAG", "VALUE", "ADDRESS", "INTEGER RANGE", "INTEGER", "FLOAT", "TEXT", "PATH")
"""The words of the usage lines and the options' arguments (FILE, INTEGER RANGE), said in
the language in use (context ``metavar.<WORD>``); the help texts name them as said."""
_METAVAR = re.compile(r"INTEGER RANGE|[A-Z]{2,}")


def _metavars(text: str) -> str:
    """``text`` with each metavar in the language in use: ``[FILES]...`` is ``[FICHIERS]...``."""
    from ..messages import help_text

    return _METAVAR.sub(lambda m: help_text("metavar." + m[0].replace(" ", "-"), m[0]) if m[0] in METAVARS else m[0], text)


class _Formatter(click.HelpFormatter):
    """click's help, its metavars, headings (« Options : ») and bracketed notes
    (« [par défaut : 1 ; x>=0] ») in the language in use."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, _metavars(args), prefix)

    def write_heading(self, heading: str) -> None:
        from ..text.locales import click_context
        from ..messages import help_text

        self.write(f"{'':>{self.current_indent}}{help_text(click_context(HEADING), HEADING).format(heading=heading)}\n")

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        from ..messages import say

        separator = say("join.semicolon")
        notes = re.compile(r"\[([^\[\]]*)\]$")
        super().write_dl([(_metavars(first), notes.sub(lambda m: "[" + m[1].replace("; ", separator) + "]", second))
                          for first, second in rows], col_max, col_spacing)


HEADING = "{heading}:"
"""How click ends a heading of the help (Options:), as said in the language in use."""


class _Context(click.Context):
    formatter_class = _Formatter


_Referee.command_class = _Command
_Referee.context_class = _Context
_Command.context_class = _Context


def help_strings(group: click.Group) -> Iterator[tuple[str, str]]:
    """Every help text of the command line, as (context, English text): the context is
    ``cli.<command>`` for a command and ``cli.<command>.<option>`` for its options
    (``cli`` and ``cli.<option>`` for the group's own)."""
    import inspect

    for prefix, command in (("cli", group), *((f"cli.{n}", c) for n, c in sorted(group.commands.items()))):
        english = getattr(command, "_english_help", None) or {}
        if command.help:
            yield prefix, english.get(prefix) or inspect.cleandoc(command.help).partition("\f")[0]
        for param in command.params:
            text = getattr(param, "help", None)
            if text and param.name not in ("help", "version"):
                context = f"{prefix}.{max(param.opts, key=len)}"
                yield context, english.get(context) or text


def _translate_help(group: click.Group) -> None:
    """Put the help of every command and option in the language in use, once (only
    when help is shown: nothing is looked up otherwise)."""
    from ..messages import help_text, language

    for command in (group, *group.commands.values()):
        command._help_option = None  # click keeps it, with its words, once made
    if getattr(group, "_help_language", "en") == language():
        return
    from ..text.locales import click_context

    for param in group.params:
        if param.name == "version":  # its help was made when the group was, in English
            param.help = help_text(click_context(VERSION_HELP), VERSION_HELP)
    for context, english in list(help_strings(group)):
        command = group if context.count(".") == 0 or context.startswith("cli.-") else group.commands[context.split(".")[1]]
        command._english_help = {**(getattr(command, "_english_help", None) or {}), context: english}  # type: ignore[attr-defined]
        text = help_text(context, english)
        if context in ("cli", f"cli.{command.name}"):
            command.help = text
        else:
            param = next(p for p in command.params if context.endswith("." + max(p.opts, key=len)))
            param.help = text
    group._help_language = language()  # type: ignore[attr-defined]


def _set_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """--lang: the language of messages and help; without it, the locale's (see
    referee/dev/catalogue.py). An unknown language ends the command with the list of those known."""
    from ..text.locales import from_locale, languages
    from ..messages import say, use

    if value is None:
        use(from_locale(), explicit=False)
    elif value in languages():
        use(value)
    else:
        raise click.BadParameter(say("lang.unknown", lang=value, languages=", ".join(languages())), ctx, param)
    _click_words()


def _click_words() -> None:
    """click's own words (Usage:, Options, Error: ...) in the language in use: click looks
    them up through each module's ``_``, which is pointed at referee's catalogue (only
    when the language is not English)."""
    import click.core
    import click.decorators
    import click.exceptions
    import click.formatting
    import click.parser
    import click.types

    from ..messages import help_plural, help_text, language

    if language() == "en" and getattr(click.core, "_referee", False) is False:
        return
    from ..text.locales import click_context

    def translate(text: str) -> str:
        return help_text(click_context(text), text)

    def translate_count(one: str, many: str, count: int) -> str:
        return help_plural(click_context(one), one, many, count)

    for module in (click.core, click.decorators, click.exceptions, click.formatting, click.parser, click.types):
        module._ = translate  # type: ignore[attr-defined]
    for module in (click.core, click.exceptions, click.parser):
        module.ngettext = translate_count  # type: ignore[attr-defined]
    click.core._referee = language() != "en"
    for command in (main, *main.commands.values()):
        for param in command.params:
            english = getattr(param.type, "_english_name", None) or param.type.name
            if english in TYPE_NAMES:  # « 'x' n'est pas un entier valide », and its metavar ENTIER
                param.type._english_name = english  # type: ignore[attr-defined]
                param.type.name = help_text(f"type.{english.replace(' ', '-')}", english)


TYPE_NAMES = ("integer", "integer range", "float", "float range")
"""The names of click's number types, said in errors (« 'x' is not a valid integer ») and
as the metavar (INTEGER): in the language in use (context ``type.<name>``)."""



VERSION_HELP = "Show the version and exit."


class _VersionLine(str):
    """click's version line, followed by the path that runs (compiled or pure Python,
    from speedups), worked out only when the line is shown."""

    def __mod__(self, values: object) -> str:
        from ..fast.speedups import running

        return f"{str.__mod__(self, values)} ({running()})"

@click.group(cls=_Referee, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee", message=_VersionLine("%(prog)s, version %(version)s"))
@click.option("--lang", metavar="LANG", is_eager=True, expose_value=False, callback=_set_language,
              help="The language of messages and help: en or fr (default: the configuration's lang, else the locale's).")
def main() -> None:
    """Referee and validator for card games played at a real table."""
    reconfigure_streams()


_config_options = [
    click.option("--config", "config_path", type=click.Path(dir_okay=False), metavar="FILE",
                 help="Read this configuration (a referee.toml, or a pyproject.toml's [tool.referee]) instead of looking for one."),
    click.option("--no-config", is_flag=True, help="Read no configuration file."),
    click.option("--exclude", multiple=True, metavar="PATTERN",
                 help="Leave out the files and folders this matches, besides the configuration's excludes."),
    click.option("--force-exclude", is_flag=True, help="Apply the excludes to files named on the command line too (pre-commit)."),
    click.option("--extension", "extensions", multiple=True, metavar="EXT",
                 help="The extension of the records looked for in folders (default: .txt, or the configuration's)."),
    click.option("--records-only", is_flag=True,
                 help="Skip, without an error, a file named on the command line that is not a record "
                      "(a record's first line, past comments and blank lines, is a header such as [Game \"...\"], "
                      "or it is a JSON record): the pre-commit hooks use it."),
]


def _with_config_options(command: Callable[..., None]) -> Callable[..., None]:
    for option in reversed(_config_options):
        command = option(command)
    return command


@main.command()
@click.argument("files", nargs=-1)
@click.option("--format", "form", type=click.Choice(["text", "concise", "json", "jsonl", "github", "junit", "sarif", "html"]),
              help="The report's format (default: text, or the configuration's).")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the games that fail the check, and the summary.")
@click.option("--strict/--no-strict", default=None, help="A game still in progress fails the check too (exit 1).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Check files in this many processes (0: one per core; never more than the files, nor twice the cores); "
                   "the output keeps the files' order.")
@click.option("--select", multiple=True, metavar="CODES", help="Report only these codes or prefixes (BC, CP-SWEAR), comma-separated.")
@click.option("--extend-select", multiple=True, metavar="CODES",
              help="Add these codes or prefixes to those selected (by --select or the configuration), comma-separated.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Never report these codes or prefixes, comma-separated.")
@click.option("--play-out", is_flag=True, help="Play each game on to its end from the known deal.")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE instead of the standard output: a file is replaced once the check is over; a named pipe or a device (/dev/null, /dev/stdout) is written in place; a link is refused.")
@click.option("--statistics", is_flag=True,
              help="Print how many times each code was found (most frequent first, with its title) and the summary, "
                   "instead of the findings (text, concise and github formats).")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when violations are found (2 still says what could not be read).")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the text report: auto on a terminal (NO_COLOR turns it off, FORCE_COLOR on), always, or never.")
@click.option("--stdin-filename", metavar="NAME",
              help="The name of the record read from standard input (-): in the report, and for the excludes "
                   "(with --force-exclude) and the configuration's per-file ignores.")
@_with_config_options
def check(files: tuple[str, ...], form: str | None, as_json: bool, quiet: bool, strict: bool | None, jobs: int,
          select: tuple[str, ...], extend_select: tuple[str, ...], ignore: tuple[str, ...], play_out: bool,
          output_file: str | None, statistics: bool, exit_zero: bool, color: str, stdin_filename: str | None,
          config_path: str | None, no_config: bool, exclude: tuple[str, ...], force_exclude: bool,
          extensions: tuple[str, ...], records_only: bool) -> None:
    """Replay records and report every rule broken, the result and the statistics.

    FILES are record files (text, or JSON as `referee export` writes it), folders
    (searched for *.txt records, at any depth) and patterns such as 'records/**/*.txt'
    (quoted: referee expands them itself); - reads a record from standard input.
    With no FILES, the current folder, as the configuration says (its excludes apply).

    Exit status: 0 every game valid, in progress or never ending (accepted rulings
    included); 1 some violation, or under --strict a game in progress; 2 a file, folder,
    pattern or game that cannot be read (over 1)."""
    check_files(files or (".",), form, as_json, quiet, strict, jobs, select, extend_select, ignore, play_out, output_file, statistics,
                exit_zero, color, stdin_filename, config_path, no_config, exclude, force_exclude, extensions, records_only)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "form", type=click.Choice(["text", "json", "html"]), default="text", show_default=True,
              help="text: for people (40 columns fit); json: schemas/standings.schema.json; html: a page, a leaderboard per game.")
@click.option("--alias", "aliases", multiple=True, metavar="NAME=PLAYER",
              help="Count the games of NAME as PLAYER's (a name written two ways: --alias Zoe=Zoé); besides the configuration's.")
@click.option("--rating", is_flag=True,
              help="Add a rating per game from the finishing orders (openskill; needs referee[rating]): a guide, not a truth.")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the standings to FILE (replaced once they are added up) instead of the standard output.")
@_with_config_options
def standings(files: tuple[str, ...], form: str, aliases: tuple[str, ...], rating: bool, output_file: str | None, config_path: str | None,
              no_config: bool, exclude: tuple[str, ...], force_exclude: bool, extensions: tuple[str, ...],
              records_only: bool) -> None:
    """Add up the games of records, per player: games played and won per game,
    finishing places, points and penalty points, match totals, drinks (by unit and
    by cause), faults made and accepted. Games in progress and games that cannot be
    read are counted apart. FILES as for `referee check`.

    Exit status: 0; 2 when a file, folder, pattern or game could not be read (it is
    counted apart, and the standings are written all the same)."""
    from .standings import run

    config = configuration(config_path, no_config)
    targets = named_files(files, config, extensions, exclude, force_exclude, records_only)
    sys.exit(run(targets, config, form, aliases, output_file, rating))


@main.command()
@click.argument("game", required=False)
def games(game: str | None) -> None:
    """List the games and their variants; GAME: only that one (its name or its title)."""
    from ..text.fit import fit, terminal_width
    from ..games import GAMES, GameEntry, find_game, load_rules
    from ..messages import help_text, say

    entries: tuple[GameEntry, ...] = GAMES
    if game is not None:
        from ..engine import close_game, refereed_games

        found = find_game(game)
        if found is None:
            raise click.BadParameter(say("setup.unknown-game", game=game, hint=close_game(game), games=refereed_games()),
                                     param_hint="GAME")
        entries = (found,)

    width = terminal_width()  # a phone's terminal: each line cut between words

    def echo(line: str) -> None:
        click.echo("\n".join(fit(line, width, 6 if line.startswith(" ") else 2)))

    for entry in entries:
        if entry.module is None:
            echo(say("games.not-refereed", name=entry.name, title=entry.title))
            continue
        rules = load_rules(entry)
        echo(say("games.game", name=entry.name, title=entry.title, low=rules.min_players, high=rules.max_players))
        for option in rules.options:
            echo(say("games.option", tag=option.tag, help=help_text(f"game-option.{entry.name}.{option.tag}", option.help),
                     accepted=option.accepted(), default=_default_text(option, rules)))


def option_helps() -> Iterator[tuple[str, str]]:
    """Each game option's help, as (context, English text): ``game-option.<game>.<tag>``."""
    from ..games import GAMES, load_rules

    for entry in GAMES:
        if entry.module is not None:
            for option in load_rules(entry).options:
                yield f"game-option.{entry.name}.{option.tag}", option.help


def _default_text(option: Option, rules: type[Rules]) -> str:
    """An option's default in words; one that depends on the number of players, for each."""
    from ..messages import say

    if callable(option.default):
        return ", ".join(say("games.default-for", value=_value_text(option.default(n)), count=n)
                         for n in range(rules.min_players, rules.max_players + 1))
    return _value_text(option.default)


def _value_text(value: object) -> str:
    from ..games.base import option_value
    from ..messages import say

    if isinstance(value, frozenset):
        return " ".join(sorted(map(option_value, value))) or say("games.none")
    return option_value(value) if isinstance(value, str) else str(value)


def _style(config: Config, suits: str | None, ranks: str | None, notation: str | None = None) -> Style:
    from ..config import resolve
    from .fmt import Style

    settings = resolve(config, ".", notation=notation, suits=suits, ranks=ranks)  # as every face resolves them
    return Style(settings.suits, settings.ranks, settings.notation)


_style_options = [
    click.option("--suits", type=click.Choice(["ascii", "symbols"]), help="Suits as letters (10H) or symbols (10♥); default: the configuration's, else as the record writes them."),
    click.option("--ranks", type=click.Choice(["english", "french"]), help="Ranks J Q K or V D R in English notation; default: the configuration's, else as the record writes them."),
    click.option("--notation", type=click.Choice(["en", "fr"]), help="Write the records in English or French notation (verbs, cards, header names); default: each record's own."),
]


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--check", "only_check", is_flag=True, help="Change nothing: list the files fmt would change (exit 1 if any).")
@click.option("--diff", is_flag=True, help="Change nothing: show the changes as a unified diff (exit 1 if any).")
@_style_options[0]
@_style_options[1]
@_style_options[2]
@_with_config_options
def fmt(files: tuple[str, ...], only_check: bool, diff: bool, suits: str | None, ranks: str | None, notation: str | None,
        config_path: str | None, no_config: bool, exclude: tuple[str, ...], force_exclude: bool, extensions: tuple[str, ...],
        records_only: bool) -> None:
    """Rewrite records in canonical form: card spellings, spacing, header order, numbers.

    Nothing is lost: comments, unknown tags, timestamps and the blank lines that group
    events stay. Each file is rewritten whole or not at all (a temporary file in its
    folder, renamed over it; its mode kept); a file with a game that cannot be read is
    left as it is (exit 2). FILES as for `referee check`; - formats standard input to
    standard output."""
    from .fmt import run

    config = configuration(config_path, no_config)
    records_out()
    targets = named_files(files, config, extensions, (*config.fmt_exclude, *exclude), force_exclude, records_only)
    sys.exit(run(targets, _style(config, suits, ranks, notation), only_check, diff, sys.stdout.write, sys.stderr.write))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--to", "form", type=click.Choice(["json", "text"]), default="json", show_default=True,
              help="json: the record as JSON (schemas/record.schema.json); text: the record in canonical form, "
                   "as `referee fmt` writes it (comments and blank lines kept).")
@_style_options[0]
@_style_options[1]
@_style_options[2]
@_config_options[0]
@_config_options[1]
def export(file: str, form: str, suits: str | None, ranks: str | None, notation: str | None, config_path: str | None, no_config: bool) -> None:
    """Print a record (text or JSON) in another form, comments kept. Nothing is written to the file."""
    import json

    from ..convert.export import json_game
    from .fmt import Formatter
    from ..convert.importer import read_any
    from ..notation import RecordError
    from ..files.twice import Twice

    formatter = Formatter(_style(configuration(config_path, no_config), suits, ranks, notation)) if form == "text" else None
    records_out()
    failed = False
    games = 0
    if form == "json":  # as json.dumps(..., indent=1) writes {"file": ..., "games": [...]}, one game at a time
        sys.stdout.write(f'{{\n "file": {json.dumps(file, ensure_ascii=False)},\n "games": [')
    twice = Twice(file)  # each game read lazily, twice: its memory bounded (referee/files/twice.py)
    for item in read_any(file, lazy=True, comments=True):
        if isinstance(item, RecordError):
            click.echo(str(item), err=True)
            failed = True
            continue
        with twice.game(item) as passes:
            pieces = json_game(item, passes) if formatter is None else (line + "\n" for line in formatter.stream(item, passes))
            try:
                first = next(pieces)  # the game is read whole first: a line that cannot be read is said here
            except RecordError as error:
                click.echo(str(error), err=True)
                failed = True
                continue
            if formatter is None:
                sys.stdout.write(("\n  " if not games else ",\n  ") + first.replace("\n", "\n  "))
                for piece in pieces:
                    sys.stdout.write(piece.replace("\n", "\n  "))
                games += 1
            else:
                sys.stdout.write(first)
                for piece in pieces:
                    sys.stdout.write(piece)
        del item
    if form == "json":
        sys.stdout.write("\n ]\n}\n" if games else "]\n}\n")
    sys.exit(EXIT_ERROR if failed else EXIT_OK)


@main.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@_style_options[0]
@_style_options[1]
@_style_options[2]
@_config_options[0]
@_config_options[1]
def import_(file: str, suits: str | None, ranks: str | None, notation: str | None, config_path: str | None, no_config: bool) -> None:
    """Print a record given in its JSON form (schemas/record.schema.json, as `referee
    export` writes it) as text, in canonical form. The JSON is validated: an error names
    its place (games[0].events[12].cards[1]). Nothing is written to the file."""
    from .fmt import Formatter
    from ..convert.importer import read_json
    from ..notation import RecordError, unreadable_reason

    formatter = Formatter(_style(configuration(config_path, no_config), suits, ranks, notation))
    records_out()
    from ..convert.importer import MAX_JSON, read_json_bytes
    from ..files.record_file import FileRefused

    try:
        data = read_json_bytes(file, MAX_JSON)
    except FileRefused as error:
        click.echo(str(error), err=True)
        sys.exit(EXIT_ERROR)
    except OSError as error:
        from ..messages import say

        click.echo(str(RecordError(file, 0, 0, say("file.unreadable", reason=unreadable_reason(error)))), err=True)
        sys.exit(EXIT_ERROR)
    failed = False
    for item in read_json("<stdin>" if file == "-" else file, data):
        if isinstance(item, RecordError):
            click.echo(str(item), err=True)
            failed = True
        else:
            assert formatter is not None  # the text form has its formatter
            sys.stdout.write(formatter.game_text(item))
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
@click.option("--notation", type=click.Choice(["en", "fr"]), default="en", show_default=True,
              help="Write the records in English or French notation.")
def simulate(game: str, players: int, variants: tuple[str, ...], seed: int, count: int, hidden: bool,
             mistakes: float, notation: str) -> None:
    """Write random legal records of GAME, or with --mistakes, records with known mistakes."""
    from ..simulate import run

    sys.exit(run(game, players, variants, seed, count, hidden, mistakes, notation))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--at", "at", type=click.IntRange(min=1), metavar="LINE", help="The line after which to show the table (default: the end).")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON (schemas/state.schema.json).")
@click.option("--notation", type=click.Choice(["en", "fr"]),
              help="Write the cards and moves in English or French notation; default: the record's own (JSON: English).")
def state(file: str, at: int | None, as_json: bool, notation: str | None) -> None:
    """The table after a line of a record: hands, piles, what is owed, whose turn it is,
    and what each player may legally do now."""
    from ..state import run

    if as_json:  # its names (piles, labels) are field names: English whatever the language
        from ..messages import use

        use("en", explicit=False)
    sys.exit(run(file, at, as_json, notation))


@main.command()
@click.argument("targets", nargs=-1, metavar="[CODE|FILE:LINE]...")
@click.option("--list", "as_list", is_flag=True, help="List every code with its title, grouped by game (as with no argument).")
def explain(targets: tuple[str, ...], as_list: bool) -> None:
    """The rule behind a violation code, the convention referee follows and an example;
    or, for FILE:LINE (as reports write it), why referee ruled as it did on that line.
    With no argument, or --list: every code with its one-line title, grouped by game."""
    from .explain import run

    sys.exit(run(() if as_list else targets))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@_config_options[0]
@_config_options[1]
def play(file: str, config_path: str | None, no_config: bool) -> None:
    """A live session at the table: type events as they happen; each is ruled at once
    and written to FILE (created with its headers when new). undo, state, legal, end."""
    from ..config import resolve
    from .play import run

    sys.exit(run(file, resolve(configuration(config_path, no_config), file)))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The address to listen on; any other than this machine's (0.0.0.0: every network) needs the token printed.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port (0: any free one, printed).")
@_config_options[0]
@_config_options[1]
def serve(file: str, host: str, port: int, config_path: str | None, no_config: bool) -> None:
    """The table on everyone's phone: a web page that shows the game in FILE, offers
    the legal moves and rules each line as it is played (needs referee[serve])."""
    from ..config import resolve
    from ..serve import run

    sys.exit(run(file, host, port, resolve(configuration(config_path, no_config), file)))


@main.command()
@click.option("--stdio", is_flag=True, help="Speak over standard input and output: the default, and the only way (editors' clients often pass it).")
def lsp(stdio: bool) -> None:
    """A language server for records, for editors (the Language Server Protocol over
    standard input and output): live rulings as diagnostics, completion of what is legal,
    the table on hover, fixes, formatting and an outline. Needs the lsp extra: pip install
    'referee[lsp]'. See docs/editors.md."""
    try:
        from ..lsp.server import run
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise
        from ..messages import say

        click.echo(say("lsp.not-installed"), err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(run())
