"""What every command shares, below the command line: the exit statuses, the endings
(Ctrl-C, a closed pipe, no memory left: never a traceback), the configuration read for a
command, the files it names, and ``referee check`` itself with its options' values (the
click group of referee/cli/group.py and the quick path of referee/cli/__init__.py both run it).
Heavy modules (rich, jsonschema) are imported inside what needs them, so that a small
check starts fast."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

    from ..config import Config
    from ..files.output import OutputFile
    from ..files.paths import NotFound
    from ..reports.report import Piece
    from ..reports.writer import Emit

EXIT_OK, EXIT_VIOLATIONS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report an interrupted command."""
EXIT_OUTPUT_CLOSED = 141
"""The reader of the output went away (``| head -1``): 128 + SIGPIPE, as shells report
``cat`` or ``grep`` stopped the same way. The output was cut short: neither 0 nor 1."""


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, taken as Ctrl-C is (see ``stopping_as_ctrl_c``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stopping_as_ctrl_c(interrupt: bool = False) -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP stop the command as Ctrl-C does (a
    Stopped, which is a KeyboardInterrupt, raised where it is): what it holds is released
    on the way out (the record's writing lock), and it exits 128 + the signal's number
    (143, 129) as a shell reports it. ``interrupt``: Ctrl-C (SIGINT) too, by the same
    handler (so that no library takes Python's own for a sign that nobody handles it).
    ``signal`` is imported here: ``check`` never needs it (its import builds three enums)."""
    import signal

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stopped(signum)

    before = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)[: 2 + interrupt]}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def interrupted(error: KeyboardInterrupt) -> int:
    """The exit status of a command stopped by Ctrl-C (130), SIGTERM (143) or SIGHUP (129)."""
    return 128 + error.signum if isinstance(error, Stopped) else EXIT_INTERRUPTED


def with_endings(run: Callable[[], object]) -> object:
    """Run a command with the endings every command shares: Ctrl-C exits 130 and a closed
    output 141, quietly; running out of memory, and a standard output that cannot take
    more (a full disk), are said in a sentence, exit 2. Never a traceback. A Ctrl-C is
    never lost (``_keep_interrupts``)."""
    lost: list[BaseException] = []
    hook = sys.unraisablehook
    sys.unraisablehook = _keep_interrupts(hook, lost)
    try:
        try:
            done = run()
        finally:  # a closed pipe shows when the output is flushed: here, not at exit
            sys.stdout.flush()
            sys.unraisablehook = hook
        if lost:
            raise KeyboardInterrupt
        return done
    except KeyboardInterrupt as error:
        _drop_output()
        sys.exit(interrupted(error))
    except BrokenPipeError:
        _drop_output()
        sys.exit(EXIT_OUTPUT_CLOSED)
    except MemoryError:
        from ..messages import say

        _drop_output()
        sys.stderr.write(say("run.out-of-memory") + "\n")
        sys.exit(EXIT_ERROR)
    except OSError as error:  # every file referee writes says its own errors: this is the standard output
        from ..files.atomic import OUTPUT_FULL, reason

        if error.errno not in OUTPUT_FULL:
            raise
        from ..messages import say

        _drop_output()
        sys.stderr.write(say("output.stdout", reason=reason(error)) + "\n")
        sys.exit(EXIT_ERROR)


def _keep_interrupts(hook: Callable[[Any], object], lost: list[BaseException]) -> Callable[[Any], object]:
    """An unraisable hook that keeps a Ctrl-C. Python raises KeyboardInterrupt wherever it
    next runs Python code after the signal, and when that is a finalizer (a generator
    closed as its game is let go, a ``__del__``), the exception cannot propagate: Python
    prints it and goes on, and the run would end as if never interrupted (exit 0, where
    130 is due; more likely when the modules compiled with mypyc run most of the code). The
    hook prints nothing, notes it, and has the main thread interrupted again a moment
    later, once out of the hook (interrupted from within, the hook itself would swallow
    it), so that Python code outside a finalizer raises it; the run raises it at its end
    in any case. (``threading`` is imported only then: every command's start is spared it.)"""

    def keep(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            import _thread
            import threading

            lost.append(unraisable.exc_value)
            again = threading.Timer(0.01, _thread.interrupt_main)
            again.daemon = True
            again.start()
            return None
        return hook(unraisable)

    return keep


def reconfigure_streams() -> None:
    """What every command does first: a terminal that cannot show ♠ gets ? rather than a crash."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _language_from_config(config: Config) -> None:
    """The configuration's ``lang``, unless --lang was given."""
    from ..messages import explicit, use

    if config.lang and not explicit():
        use(config.lang)


def _machine_output() -> None:
    """A machine format's messages change language only on --lang or ``lang``, never by
    the locale alone (a CI runner's LANG does not change CI output)."""
    from ..messages import explicit, use

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


def _say_error(text: str) -> None:
    """A sentence on standard error, made visible (safe_text)."""
    import click

    from ..text.safe_text import visible

    click.echo(visible(text), err=True)


def _stop(text: str) -> NoReturn:
    """End the command on a sentence: a file or an option that cannot be used (exit 2)."""
    _say_error(text)
    sys.exit(EXIT_ERROR)


def records_out() -> None:
    """Records and JSON are written in UTF-8 whatever the locale: never a character lost.
    (Only a file name that is not UTF-8 can hold what UTF-8 cannot write: a JSON escape.)"""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")


class _Printer:
    """Prints the text report's chunks, each a list of lines of styled pieces (a game's
    report, or the lines at the end): through rich on a terminal (or when FORCE_COLOR asks
    for colours), as plain text otherwise, without the cost of loading rich. Every piece is
    made visible (safe_text) on its way out; ``degraded`` tells whether the output's
    encoding could not show some character (it was printed as ?)."""

    def __init__(self, color: str = "auto") -> None:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        self.encoding = None if encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig") else encoding
        self.degraded = False
        self.width: int | None = None
        """The terminal's width, to wrap sentences to (none in a pipe: lines stay whole)."""
        self.console: Console | None = None
        """rich's console, when the lines are shown in colour; None for plain text."""
        plain = bool(os.environ.get("NO_COLOR"))  # no-color.org: no colour, and here no style at all
        if sys.stdout.isatty():
            import shutil

            self.width = shutil.get_terminal_size().columns
        if color == "always" or (color == "auto" and (sys.stdout.isatty() or os.environ.get("FORCE_COLOR")) and not plain):
            from rich.console import Console

            forced = color == "always"  # a pipe, NO_COLOR and TERM=dumb aside
            self.console = Console(highlight=False, soft_wrap=True, force_terminal=True if forced else None,
                                   no_color=False if forced else None, color_system="standard" if forced else "auto")

    def __call__(self, chunk: object) -> None:
        """Print lines of (text, style) pieces: what the text report emits, a game's at once."""
        from ..text.safe_text import plain_lines, visible_pieces

        assert isinstance(chunk, list)
        lines: list[list[Piece]] = visible_pieces(chunk)
        out = plain_lines(lines)  # visible already: one look at the text tells so
        if self.encoding is not None and not self.degraded:
            try:
                out.encode(self.encoding)
            except (UnicodeEncodeError, LookupError):
                self.degraded = True
        if self.console is None:
            sys.stdout.write(out)
        elif lines:
            from rich.text import Text

            # one print for the lines: rich's cost is mostly per print (the same bytes as a print per line)
            self.console.print(Text("\n").join([Text.assemble(*line) for line in lines]))


def configuration(path: str | None, none: bool) -> Config:
    """The configuration: the file named, none, or the one found from the current folder
    (see referee/config.py); a file that cannot be used ends the command (exit 2)."""
    from ..config import Config, ConfigError, find, load

    try:
        config = Config() if none else load(path) if path else find()
    except ConfigError as error:
        _stop(str(error))
    for warning in config.warnings:
        _say_error(warning)
    _language_from_config(config)
    return config


def named_files(files: tuple[str, ...], config: Config, extensions: tuple[str, ...], exclude: tuple[str, ...], force_exclude: bool,
             records_only: bool = False, stdin_name: str | None = None) -> Iterator[str | NotFound]:
    from ..files.paths import Excludes, expand

    excludes = Excludes((*config.exclude, *exclude), config.root)
    return expand(files, extensions or config.extensions, excludes, force_exclude or config.force_exclude,
                  records_only, stdin_name)


def _codes(values: tuple[str, ...], option: str) -> tuple[str, ...]:
    """The codes of --select or --ignore (comma-separated, repeated), each checked: one
    that names no code ends the command (exit 2)."""
    from ..config import ConfigError, codes

    try:
        return codes(tuple(code for value in values for code in value.split(",") if code.strip()), option)
    except ConfigError as error:
        _stop(str(error))


def check_files(files: tuple[str, ...], form: str | None, as_json: bool, quiet: bool, strict: bool | None, jobs: int,
          select: tuple[str, ...], extend_select: tuple[str, ...], ignore: tuple[str, ...], play_out: bool,
          output_file: str | None, statistics: bool, exit_zero: bool, color: str, stdin_filename: str | None,
          config_path: str | None, no_config: bool, exclude: tuple[str, ...], force_exclude: bool,
          extensions: tuple[str, ...], records_only: bool) -> None:
    """``referee check`` with its options' values (see cli_group.check): replay the
    records, report, and exit with the status."""
    from .batch import run
    from ..reports.formats import WRITERS, Settings

    config = configuration(config_path, no_config)
    form = "json" if as_json else form or config.format
    if statistics and form not in STATISTICS_FORMATS:
        import click

        from ..messages import say

        raise click.UsageError(say("check.statistics-format", format=form, formats=", ".join(STATISTICS_FORMATS)))
    if form not in ("text", "concise", "html"):  # html: a page for people, in their language
        _machine_output()
    out = _output_file(output_file) if output_file else None
    show = _Printer(color) if form == "text" and out is None else None
    from ..config import chosen_codes

    chosen, ignored = chosen_codes(config, _codes(select, "--select"), _codes(extend_select, "--extend-select"),
                                   _codes(ignore, "--ignore"))  # each file's are resolve()'s (Settings.for_file)
    settings = Settings(form, quiet, config.strict if strict is None else strict, play_out, chosen, ignored, config.games,
                        show.width if show is not None else None, statistics, config.per_file_ignores, config.root,
                        stdin_filename, config.docs_url)
    emit: Emit
    if show is not None:
        emit = show
    elif out is not None:
        emit = out.write
    else:
        records_out()
        emit = _write_stdout
    writer = WRITERS[form](emit, settings)
    targets = named_files(files, config, extensions, exclude, force_exclude, records_only, stdin_filename)
    try:
        summary = run(targets, writer, settings, jobs or os.cpu_count() or 1)  # at most the files and 2 × the cores
        if out is not None:
            out.commit()
    except BaseException as error:
        if out is not None:
            out.discard()
            _cannot_write(out.path, error)
        raise
    if show is not None and show.degraded:
        from ..messages import say

        show([[(say("report.degraded", encoding=show.encoding), "")]])
    code = summary.exit_code(settings.strict)
    sys.exit(EXIT_OK if exit_zero and code == EXIT_VIOLATIONS else code)


STATISTICS_FORMATS = ("text", "concise", "github")
"""The formats --statistics prints in: lines for people (a machine format has the counts in it)."""


def _write_stdout(chunk: object) -> None:
    assert isinstance(chunk, str)
    sys.stdout.write(chunk)


def _output_file(path: str) -> OutputFile:
    """The file of ``-o`` opened for writing (referee/files/atomic.py: beside it and renamed at
    the end, or in place); one that cannot be written ends the command (exit 2)."""
    from ..files.output import OutputFile

    try:
        return OutputFile(path)
    except BaseException as error:
        _cannot_write(path, error)
        raise


def _cannot_write(path: str, error: BaseException) -> None:
    """End the command when the report could not be written to ``path`` (exit 2); any
    other error goes on its way."""
    from ..files.output import WriteFailed

    if isinstance(error, WriteFailed):
        from ..messages import say

        _stop(say("output.cannot-write", path=path, reason=error.reason))
