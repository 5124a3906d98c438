"""The command line's entry: the console script ``referee`` and ``python -m referee`` run
``main``.

``referee check FILE...`` with no option, the common start, checks without loading click
(a sixth of the start-up); any other command line goes to the click group
(referee/cli/group.py: every command with its options and help), which ``main`` also
stands for in every other use (click's test runner, shell completion, the help texts of
the catalogue). Both run the check and the endings every command shares from
referee/cli/running.py."""

from __future__ import annotations

import os
import sys
from typing import Any

from .running import check_files, reconfigure_streams, with_endings


def _group() -> Any:
    """The click group of every command (imported, with click, on first use)."""
    from .group import main as group

    return group


class _Main:
    """``referee``: ``main()`` (or ``main(["check", "game.txt"])``) runs a command line.
    A plain check, ``check`` and file names without an option, runs here without click;
    any other goes to the click group, as does every other use of this object (its
    attributes are the group's)."""

    def __call__(self, args: list[str] | None = None, **extra: Any) -> Any:
        arguments = sys.argv[1:] if args is None else list(args)
        if not extra and _plain_check(arguments):
            return _quick_check(tuple(arguments[1:]))
        return _group()(args, **extra)

    def __getattr__(self, name: str) -> Any:
        return getattr(_group(), name)

    def __setattr__(self, name: str, value: object) -> None:
        setattr(_group(), name, value)

    def __repr__(self) -> str:
        return repr(_group())


main: Any = _Main()


def __getattr__(name: str) -> Any:
    """The names of the click group's module (help_strings, option_helps), as before."""
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    try:  # a submodule's name (``from referee.cli import batch``) falls through to the import
        return getattr(importlib.import_module(f"{__name__}.group"), name)
    except AttributeError:
        raise AttributeError(name) from None


def _plain_check(arguments: list[str]) -> bool:
    """Whether a command line is ``check`` and file names only: nothing for click to do
    but to pass them on (no option, no standard input, no shell completion asked, not
    Windows, where click expands the arguments itself)."""
    return (len(arguments) > 1 and arguments[0] == "check" and all(a and not a.startswith("-") for a in arguments[1:])
            and os.name != "nt" and not any(k.startswith("_") and k.endswith("_COMPLETE") and v for k, v in os.environ.items()))


def _quick_check(files: tuple[str, ...]) -> None:
    """``referee check FILES``, as the click group runs it with every option left out."""
    from ..text.locales import from_locale
    from ..messages import use

    def run() -> None:
        use(from_locale(), explicit=False)
        reconfigure_streams()
        check_files(files, form=None, as_json=False, quiet=False, strict=None, jobs=1, select=(), extend_select=(),
                    ignore=(), play_out=False, output_file=None, statistics=False, exit_zero=False, color="auto",
                    stdin_filename=None, config_path=None, no_config=False, exclude=(), force_exclude=False,
                    extensions=(), records_only=False)

    with_endings(run)
