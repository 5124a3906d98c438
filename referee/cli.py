"""The command line: ``referee check``, ``fmt``, ``export``, ``import``, ``games``,
``simulate``, ``state``, ``explain``, ``play``, ``serve`` and ``lsp``.

Heavy modules (lark, rich, jsonschema) are imported inside the commands that need
them, so that a small check starts fast."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from .config import Config

EXIT_OK, EXIT_VIOLATIONS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report an interrupted command."""
EXIT_OUTPUT_CLOSED = 141
"""The reader of the output went away (``| head -1``): 128 + SIGPIPE, as shells report
``cat`` or ``grep`` stopped the same way. The output was cut short: neither 0 nor 1."""


class _Referee(click.Group):
    """The commands, with the endings they share: Ctrl-C exits 130 and a closed output
    141, quietly; running out of memory is said in a sentence, exit 2. Never a traceback."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _translate_help(self)
        super().format_help(ctx, formatter)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from .i18n import from_locale
        from .messages import use

        use(from_locale(), explicit=False)  # before --help, which click may handle before --lang
        _click_words()
        return super().main(*args, **kwargs)

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


class _Command(click.Command):
    """A command whose help is shown in the language in use (see _translate_help)."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _translate_help(ctx.find_root().command)  # type: ignore[arg-type]
        super().format_help(ctx, formatter)


_Referee.command_class = _Command


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
    from .messages import help_text, language

    for command in (group, *group.commands.values()):
        command._help_option = None  # click keeps it, with its words, once made
    if getattr(group, "_help_language", "en") == language():
        return
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
    referee/i18n.py). An unknown language ends the command with the list of those known."""
    from .i18n import from_locale, languages
    from .messages import say, use

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
    import click.types

    from .messages import help_text, language

    if language() == "en" and getattr(click.core, "_referee", False) is False:
        return
    from .i18n import click_context

    def translate(text: str) -> str:
        return help_text(click_context(text), text)

    for module in (click.core, click.decorators, click.exceptions, click.formatting, click.types):
        module._ = translate  # type: ignore[attr-defined]
    click.core._referee = language() != "en"


def _language_from_config(config: Config) -> None:
    """The configuration's ``lang``, unless --lang was given."""
    from .messages import explicit, use

    if config.lang and not explicit():
        use(config.lang)


def _machine_output() -> None:
    """A machine format's messages change language only on --lang or ``lang``, never by
    the locale alone (a CI runner's LANG does not change CI output)."""
    from .messages import explicit, use

    if not explicit():
        use("en", explicit=False)


def _drop_output() -> None:
    """Send what is left in the output's buffer nowhere: the reader is gone, or the run
    stops short; Python's own flush at exit then has nothing to fail on."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class _VersionLine(str):
    """click's version line, followed by the path that runs (compiled or pure Python,
    from speedups), worked out only when the line is shown."""

    def __mod__(self, values: object) -> str:
        from .speedups import running

        return f"{str.__mod__(self, values)} ({running()})"


@click.group(cls=_Referee, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee", message=_VersionLine("%(prog)s, version %(version)s"))
@click.option("--lang", metavar="LANG", is_eager=True, expose_value=False, callback=_set_language,
              help="The language of messages and help: en or fr (default: the configuration's lang, else the locale's).")
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

    def __init__(self, color: str = "auto") -> None:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        self.encoding = None if encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig") else encoding
        self.degraded = False
        self.width: int | None = None
        """The terminal's width, to wrap sentences to (none in a pipe: lines stay whole)."""
        plain = bool(os.environ.get("NO_COLOR"))  # no-color.org: no colour, and here no style at all
        if sys.stdout.isatty():
            import shutil

            self.width = shutil.get_terminal_size().columns
        if color == "always" or (color == "auto" and (sys.stdout.isatty() or os.environ.get("FORCE_COLOR")) and not plain):
            from rich.console import Console
            from rich.text import Text

            forced = color == "always"  # a pipe, NO_COLOR and TERM=dumb aside
            console = Console(highlight=False, soft_wrap=True, force_terminal=True if forced else None,
                              no_color=False if forced else None, color_system="standard" if forced else "auto")
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


def _configuration(path: str | None, none: bool):
    """The configuration: the file named, none, or the one found from the current folder
    (see referee/config.py); a file that cannot be used ends the command (exit 2)."""
    from .config import Config, ConfigError, find, load

    try:
        config = Config() if none else load(path) if path else find()
    except ConfigError as error:
        from .safe_text import visible

        click.echo(visible(str(error)), err=True)
        sys.exit(EXIT_ERROR)
    for warning in config.warnings:
        from .safe_text import visible

        click.echo(visible(warning), err=True)
    _language_from_config(config)
    return config


def _targets(files: tuple[str, ...], config, extensions: tuple[str, ...], exclude: tuple[str, ...], force_exclude: bool,
             records_only: bool = False, stdin_name: str | None = None):
    from .paths import Excludes, expand

    excludes = Excludes((*config.exclude, *exclude), config.root)
    return expand(files, extensions or config.extensions, excludes, force_exclude or config.force_exclude,
                  records_only, stdin_name)


def _codes(values: tuple[str, ...], option: str) -> tuple[str, ...]:
    """The codes of --select or --ignore (comma-separated, repeated), each checked: one
    that names no code ends the command (exit 2)."""
    from .config import ConfigError, codes

    try:
        return codes(tuple(code for value in values for code in value.split(",") if code.strip()), option)
    except ConfigError as error:
        from .safe_text import visible

        click.echo(visible(str(error)), err=True)
        sys.exit(EXIT_ERROR)


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


def _with_config_options(command):
    for option in reversed(_config_options):
        command = option(command)
    return command


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "form", type=click.Choice(["text", "concise", "json", "jsonl", "github", "junit", "sarif", "html"]),
              help="The report's format (default: text, or the configuration's).")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the games that fail the check, and the summary.")
@click.option("--strict/--no-strict", default=None, help="A game still in progress fails the check too (exit 1).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Check files in this many processes (0: one per core); the output keeps the files' order.")
@click.option("--select", multiple=True, metavar="CODES", help="Report only these codes or prefixes (BC, CP-SWEAR), comma-separated.")
@click.option("--extend-select", multiple=True, metavar="CODES",
              help="Add these codes or prefixes to those selected (by --select or the configuration), comma-separated.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Never report these codes or prefixes, comma-separated.")
@click.option("--play-out", is_flag=True, help="Play each game on to its end from the known deal.")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE (replaced once the check is over) instead of the standard output.")
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

    Exit status: 0 every game valid, in progress or never ending (accepted rulings
    included); 1 some violation, or under --strict a game in progress; 2 a file, folder,
    pattern or game that cannot be read (over 1)."""
    from .batch import run
    from .formats import WRITERS, Settings

    config = _configuration(config_path, no_config)
    form = "json" if as_json else form or config.format
    if statistics and form not in STATISTICS_FORMATS:
        from .messages import say

        raise click.UsageError(say("check.statistics-format", format=form, formats=", ".join(STATISTICS_FORMATS)))
    if form not in ("text", "concise", "html"):  # html: a page for people, in their language
        _machine_output()
    out = _output_file(output_file) if output_file else None
    show = _Printer(color) if form == "text" and out is None else None
    chosen = _codes(select, "--select") or config.select
    extended = (*config.extend_select, *_codes(extend_select, "--extend-select"))
    settings = Settings(form, quiet, config.strict if strict is None else strict, play_out,
                        (*chosen, *extended) if chosen else (), _codes(ignore, "--ignore") or config.ignore, config.games,
                        show.width if show is not None else None, statistics, config.per_file_ignores, config.root,
                        stdin_filename)
    if show is not None:
        emit = show
    elif out is not None:
        emit = out.write
    else:
        _records_out()
        emit = sys.stdout.write
    writer = WRITERS[form](emit, settings)
    targets = _targets(files, config, extensions, exclude, force_exclude, records_only, stdin_filename)
    try:
        summary = run(targets, writer, settings, jobs or os.cpu_count() or 1)
    except BaseException:
        if out is not None:
            out.discard()
        raise
    if out is not None:
        out.commit()
    if show is not None and show.degraded:
        from .messages import say

        show([(say("report.degraded", encoding=show.encoding), "")])
    code = summary.exit_code(settings.strict)
    sys.exit(EXIT_OK if exit_zero and code == EXIT_VIOLATIONS else code)


STATISTICS_FORMATS = ("text", "concise", "github")
"""The formats --statistics prints in: lines for people (a machine format has the counts in it)."""


def _output_file(path: str):
    """The file of ``-o`` opened for writing (beside it, renamed at the end); one that
    cannot be written ends the command (exit 2)."""
    from .output import OutputFile

    try:
        return OutputFile(path)
    except OSError as error:
        from .messages import say
        from .safe_text import visible

        click.echo(visible(say("output.cannot-write", path=path, reason=error.strerror or error)), err=True)
        sys.exit(EXIT_ERROR)


@main.command()
def games() -> None:
    """List the games and their variants."""
    from .fit import fit, terminal_width
    from .games import GAMES, load_rules
    from .messages import help_text, say

    width = terminal_width()  # a phone's terminal: each line cut between words

    def echo(line: str) -> None:
        click.echo("\n".join(fit(line, width, 6 if line.startswith(" ") else 2)))

    for entry in GAMES:
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
    from .games import GAMES, load_rules

    for entry in GAMES:
        if entry.module is not None:
            for option in load_rules(entry).options:
                yield f"game-option.{entry.name}.{option.tag}", option.help


def _default_text(option, rules) -> str:
    """An option's default in words; one that depends on the number of players, for each."""
    from .messages import say

    if callable(option.default):
        return ", ".join(say("games.default-for", value=_value_text(option.default(n)), count=n)
                         for n in range(rules.min_players, rules.max_players + 1))
    return _value_text(option.default)


def _value_text(value) -> str:
    from .messages import say

    return (" ".join(sorted(value)) or say("games.none")) if isinstance(value, frozenset) else str(value)


def _style(config, suits: str | None, ranks: str | None, notation: str | None = None):
    from .fmt import Style

    return Style(suits or config.suits, ranks or config.ranks, notation)


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

    config = _configuration(config_path, no_config)
    _records_out()
    targets = _targets(files, config, extensions, (*config.fmt_exclude, *exclude), force_exclude, records_only)
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

    from .export import record_to_json
    from .fmt import Formatter
    from .importer import read_any
    from .notation import RecordError

    formatter = Formatter(_style(_configuration(config_path, no_config), suits, ranks, notation)) if form == "text" else None
    _records_out()
    failed = False
    games = 0
    if form == "json":  # as json.dumps(..., indent=1) writes {"file": ..., "games": [...]}, one game at a time
        sys.stdout.write(f'{{\n "file": {json.dumps(file, ensure_ascii=False)},\n "games": [')
    for item in read_any(file):
        if isinstance(item, RecordError):
            click.echo(str(item), err=True)
            failed = True
        elif form == "json":
            game = json.dumps(record_to_json(item), ensure_ascii=False, indent=1).replace("\n", "\n  ")
            sys.stdout.write(("\n  " if not games else ",\n  ") + game)
            games += 1
        else:
            sys.stdout.write(formatter.game_text(item))
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
    from .importer import read_json
    from .notation import RecordError, unreadable_reason

    formatter = Formatter(_style(_configuration(config_path, no_config), suits, ranks, notation))
    _records_out()
    from .importer import MAX_JSON, read_json_bytes
    from .record_file import FileRefused

    try:
        data = read_json_bytes(file, MAX_JSON)
    except FileRefused as error:
        click.echo(str(error), err=True)
        sys.exit(EXIT_ERROR)
    except OSError as error:
        from .messages import say

        click.echo(str(RecordError(file, 0, 0, say("file.unreadable", reason=unreadable_reason(error)))), err=True)
        sys.exit(EXIT_ERROR)
    failed = False
    for item in read_json("<stdin>" if file == "-" else file, data):
        if isinstance(item, RecordError):
            click.echo(str(item), err=True)
            failed = True
        else:
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
    from .simulate import run

    sys.exit(run(game, players, variants, seed, count, hidden, mistakes, notation))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--at", "at", type=click.IntRange(min=1), metavar="LINE", help="The line after which to show the table (default: the end).")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON (schemas/state.schema.json).")
def state(file: str, at: int | None, as_json: bool) -> None:
    """The table after a line of a record: hands, piles, what is owed, whose turn it is,
    and what each player may legally do now."""
    from .state import run

    if as_json:  # its names (piles, labels) are field names: English whatever the language
        from .messages import use

        use("en", explicit=False)
    sys.exit(run(file, at, as_json))


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
def play(file: str) -> None:
    """A live session at the table: type events as they happen; each is ruled at once
    and written to FILE (created with its headers when new). undo, state, legal, end."""
    from .live import run

    sys.exit(run(file))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The address to listen on; any other than this machine's (0.0.0.0: every network) needs the token printed.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port (0: any free one, printed).")
def serve(file: str, host: str, port: int) -> None:
    """The table on everyone's phone: a web page that shows the game in FILE, offers
    the legal moves and rules each line as it is played (needs referee[serve])."""
    from .serve import run

    sys.exit(run(file, host, port))


@main.command()
@click.option("--stdio", is_flag=True, help="Speak over standard input and output: the default, and the only way (editors' clients often pass it).")
def lsp(stdio: bool) -> None:
    """A language server for records, for editors (the Language Server Protocol over
    standard input and output): live rulings as diagnostics, completion of what is legal,
    the table on hover, fixes, formatting and an outline. Needs the lsp extra: pip install
    'referee[lsp]'. See docs/editors.md."""
    try:
        from .lsp.server import run
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise
        from .messages import say

        click.echo(say("lsp.not-installed"), err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(run())
