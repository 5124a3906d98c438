"""The configuration: ``[tool.referee]`` in a ``pyproject.toml``, or a ``referee.toml``.

Where it is looked for: in the current folder, then in each folder above it, up to the
root of the git repository (the first folder holding ``.git``) or of the file system; in
each folder a ``referee.toml`` first, then a ``pyproject.toml`` that has a
``[tool.referee]`` table. The first one found is the configuration; ``--config FILE``
names one instead, ``--no-config`` reads none.

It is data only: TOML read with ``tomllib``, every key checked, nothing in it is run or
imported. Because it can hide violations (``ignore``, ``exclude``), a file found by the
search is read only if it belongs to the user running referee (or to root) and is not
writable by every user: a configuration planted by someone else in a shared folder
above the work (``/tmp/referee.toml``) is skipped, with a warning, and never parsed
(the owner and mode are those of the file opened: what is checked is what is read).
Command-line flags win over it."""

from __future__ import annotations

import functools

import os
import stat
from collections.abc import Iterator
from typing import Any, BinaryIO, Final

from .games.codes import known_codes
from .games import find_game, load_rules
from .text.locales import languages
from .messages import say
from .record import Header, Record
from .files.record_file import open_regular

FORMATS = ("text", "concise", "json", "jsonl", "github", "junit", "sarif", "html")
SUITS = ("ascii", "symbols")
RANKS = ("english", "french")
FILES = ("referee.toml", "pyproject.toml")
KEYS = ("extensions", "exclude", "force-exclude", "format", "lang", "select", "extend-select", "ignore",
        "per-file-ignores", "strict", "docs-url", "fmt", "games", "standings")
"""The keys of the configuration, as the error for an unknown one lists them."""
MAX_CONFIG = 1 << 20
"""The largest configuration file read, in bytes."""


class ConfigError(Exception):
    """A configuration file that cannot be used: its path and what is wrong."""


class Config:
    """What the configuration says; the defaults when there is none. Written by hand, not
    as a dataclass (start-up: referee/fast/plain.py); its fields never change (Final, which
    mypy checks)."""

    path: Final[str | None]
    """The file it was read from."""
    root: Final[str]
    """The folder of that file: exclude patterns with a ``/`` start there."""
    extensions: Final[tuple[str, ...]]
    exclude: Final[tuple[str, ...]]
    force_exclude: Final[bool]
    format: Final[str]
    select: Final[tuple[str, ...]]
    extend_select: Final[tuple[str, ...]]
    """Codes added to those selected (``select`` or ``--select``), as ruff's."""
    ignore: Final[tuple[str, ...]]
    per_file_ignores: Final[tuple[tuple[str, tuple[str, ...]], ...]]
    """(pattern, codes): codes not reported in the files a pattern matches, as ruff's
    ``per-file-ignores``; a pattern matches as an exclude pattern does."""
    strict: Final[bool]
    fmt_exclude: Final[tuple[str, ...]]
    """Patterns that ``fmt`` leaves out besides ``exclude`` (records kept as written on
    purpose, such as those that test spellings); ``check`` still reads them."""
    suits: Final[str | None]
    """None: as each record writes its cards (fmt)."""
    ranks: Final[str | None]
    lang: Final[str | None]
    """The language of messages and help (``--lang`` wins); None: the locale's."""
    games: Final[dict[str, dict[str, str]]]
    """Default options per game: game name -> {tag: value}, for records that do not set them."""
    warnings: Final[tuple[str, ...]]
    """Configuration files skipped, in words."""
    docs_url: Final[str | None]
    """Where referee's docs/ folder is published (an absolute URL ending in ``/``): SARIF's
    ``helpUri`` of a code is its heading of codes.md there; None: no ``helpUri``."""
    aliases: Final[dict[str, str]]
    """``[standings] aliases``: a name as written -> the player it is (referee standings)."""

    def __init__(self, path: str | None = None, root: str = ".", extensions: tuple[str, ...] = (".txt",),
                 exclude: tuple[str, ...] = (), force_exclude: bool = False, format: str = "text",
                 select: tuple[str, ...] = (), extend_select: tuple[str, ...] = (), ignore: tuple[str, ...] = (),
                 per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (), strict: bool = False,
                 fmt_exclude: tuple[str, ...] = (), suits: str | None = None, ranks: str | None = None,
                 lang: str | None = None, games: dict[str, dict[str, str]] | None = None,
                 warnings: tuple[str, ...] = (), aliases: dict[str, str] | None = None, docs_url: str | None = None) -> None:
        self.path = path
        self.root = root
        self.extensions = extensions
        self.exclude = exclude
        self.force_exclude = force_exclude
        self.format = format
        self.select = select
        self.extend_select = extend_select
        self.ignore = ignore
        self.per_file_ignores = per_file_ignores
        self.strict = strict
        self.fmt_exclude = fmt_exclude
        self.suits = suits
        self.ranks = ranks
        self.lang = lang
        self.games = {} if games is None else games
        self.warnings = warnings
        self.docs_url = docs_url
        self.aliases = {} if aliases is None else aliases

    def chosen(self, code: str) -> bool:
        return chosen(code, self.select, self.ignore)


def chosen(code: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """Whether a violation code is reported: selected (all when ``select`` is empty) and
    not ignored; a code or a prefix of one (``BC``, ``BC-``) names codes."""
    return (not select or _matches(code, select)) and not _matches(code, ignore)


def _matches(code: str, names: tuple[str, ...]) -> bool:
    return any(code == n or code.startswith(n if n.endswith("-") else n + "-") for n in names)


def codes(names: tuple[str, ...], where: str) -> tuple[str, ...]:
    """Codes or prefixes for ``select`` and ``ignore``, in upper case (as reports write
    them); ConfigError for one that names no code referee reports: a typo would select
    nothing, or ignore nothing, and the check would pass or fail for the wrong reason."""
    if not names:  # the usual case: every game's codes are not loaded for nothing (start-up)
        return ()
    import difflib

    names = tuple(n.strip().upper() for n in names)
    known = known_codes()
    for name in names:
        if not any(_matches(code, (name,)) for code in known):
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = say("syntax.did-you-mean", suggestion=close[0]) if close else ""
            raise ConfigError(say("config.unknown-code", where=where, name=name, hint=hint))
    return names


# --- Finding it -------------------------------------------------------------------------

def _candidates(start: str) -> Iterator[str]:
    folder = os.path.abspath(start)
    while True:
        for name in FILES:
            yield os.path.join(folder, name)
        parent = os.path.dirname(folder)
        if os.path.exists(os.path.join(folder, ".git")) or parent == folder:
            return
        folder = parent


def _untrusted(info: os.stat_result) -> str | None:
    """Why a configuration found by the search is not read; None when it may be."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: no owners to compare
        return None
    if info.st_uid not in (getuid(), 0):
        return say("config.not-owned")
    if info.st_mode & 0o002:
        return say("config.world-writable")
    return None


def _open_found(path: str) -> tuple[str | None, bytes]:
    """A file the search found: why it is not read (None when it may be), else its bytes.
    Its owner and mode are checked on the file opened, before a byte of it is read, so
    that what is checked is what is read, and a file planted by another user, whatever
    it holds (not TOML, unreadable, huge), is never read. FileNotFoundError when there
    is no regular file there (a folder, a pipe)."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe must not block
    except PermissionError as error:
        why = _untrusted(os.stat(path))
        if why is not None:
            return why, b""
        raise ConfigError(say("config.unreadable", path=path, reason=error.strerror or str(error))) from None
    except (NotADirectoryError, IsADirectoryError):
        raise FileNotFoundError(path) from None
    with os.fdopen(handle, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise FileNotFoundError(path)
        why = _untrusted(info)
        return (why, b"") if why is not None else (None, _bounded(path, file, info))


def _bounded(path: str, file: BinaryIO, info: os.stat_result) -> bytes:
    """A configuration's bytes, at most MAX_CONFIG (checked before a byte is read)."""
    data = file.read(MAX_CONFIG + 1) if info.st_size <= MAX_CONFIG else b"x" * (MAX_CONFIG + 1)
    if len(data) > MAX_CONFIG:
        raise ConfigError(say("config.too-large", path=path, limit=MAX_CONFIG >> 20))
    return data


def find(start: str = ".") -> Config:
    """The configuration that applies in ``start``: see the module's docstring."""
    warnings: list[str] = []
    for path in _candidates(start):
        try:
            why, data = _open_found(path)
        except FileNotFoundError:
            continue
        except OSError as error:
            raise ConfigError(say("config.unreadable", path=path, reason=error.strerror or str(error))) from None
        if why is not None:
            warnings.append(say("config.skipped", path=path, why=why))
            continue
        table = _table(path, data)
        if table is None:
            continue
        return read(path, table, tuple(warnings))
    return Config(warnings=tuple(warnings))


def load(path: str) -> Config:
    """The configuration in a file named by ``--config`` (trusted: the user named it)."""
    try:
        with open_regular(path) as file:
            data = _bounded(path, file, os.fstat(file.fileno()))
    except OSError as error:
        raise ConfigError(say("config.unreadable", path=path, reason=error.strerror or str(error))) from None
    except ValueError as error:  # not a regular file
        raise ConfigError(say("config.unreadable", path=path, reason=str(error))) from None
    table = _table(path, data)
    if table is None:
        raise ConfigError(say("config.no-table", path=path))
    return read(path, table)


def _table(path: str, data: bytes) -> dict[str, Any] | None:
    """The referee table of a configuration file's bytes: all of a referee.toml,
    ``[tool.referee]`` of a pyproject.toml (None when it has none)."""
    import tomllib

    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(say("config.not-toml", path=path, reason=str(error))) from None
    except RecursionError:
        raise ConfigError(say("config.not-toml", path=path, reason=say("config.too-deep"))) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise ConfigError(say("config.not-toml", path=path, reason=say("config.long-number"))) from None
    if os.path.basename(path) != "pyproject.toml":
        return document
    table = document.get("tool", {}).get("referee") if isinstance(document.get("tool"), dict) else None
    return table if isinstance(table, dict) else None


# --- Reading it ---------------------------------------------------------------------------

def _strings(path: str, key: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(say("config.bad-value", path=path, name=key, expected=say("config.expect.strings")))
    return tuple(value)


def _choice(path: str, key: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(say("config.bad-value", path=path, name=key, expected=say("config.expect.one-of", choices=", ".join(choices))))
    return value


def _url(path: str, key: str, value: object) -> str:
    """An absolute http(s) URL, ending in ``/`` (a folder's address)."""
    from urllib.parse import urlsplit

    parts = urlsplit(value) if isinstance(value, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in str(value)):
        raise ConfigError(say("config.bad-value", path=path, name=key, expected=say("config.expect.url")))
    return str(value).rstrip("/") + "/"


def _flag(path: str, key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(say("config.bad-value", path=path, name=key, expected=say("config.expect.bool")))
    return value


def read(path: str, table: dict[str, Any], warnings: tuple[str, ...] = ()) -> Config:
    """A Config from the referee table of ``path``; ConfigError for an unknown key or a
    value of the wrong kind."""
    values: dict[str, Any] = {}  # Config's fields, each checked here (TOML values)
    prefix = "tool.referee." if os.path.basename(path) == "pyproject.toml" else ""
    for key, value in table.items():
        where = prefix + key
        if key in ("extensions", "exclude", "select", "extend-select", "ignore"):
            name = key.replace("-", "_")
            values[name] = _strings(path, where, value)
            if key in ("select", "extend-select", "ignore"):
                values[name] = codes(values[name], f"{path}: {where}")
        elif key == "per-file-ignores":
            values["per_file_ignores"] = _per_file(path, where, value)
        elif key in ("force-exclude", "strict"):
            values[key.replace("-", "_")] = _flag(path, where, value)
        elif key == "format":
            values["format"] = _choice(path, where, value, FORMATS)
        elif key == "docs-url":
            values["docs_url"] = _url(path, where, value)
        elif key == "lang":
            values["lang"] = _choice(path, where, value, languages())
        elif key in ("fmt", "games", "standings") and not isinstance(value, dict):
            keys = {"fmt": "suits, ranks, exclude", "games": "a game's name", "standings": "aliases"}[key]
            raise ConfigError(say("config.bad-value", path=path, name=where, expected=say("config.expect.table", keys=keys)))
        elif key == "fmt":
            for name, choice in value.items():
                if name == "exclude":
                    values["fmt_exclude"] = _strings(path, f"{where}.{name}", choice)
                    continue
                choices = {"suits": SUITS, "ranks": RANKS}.get(name)
                if choices is None:
                    raise ConfigError(say("config.unknown-key", path=path, name=f"{where}.{name}", keys="suits, ranks, exclude",
                                          hint=_hint(name, ("suits", "ranks", "exclude"))))
                values[name] = _choice(path, f"{where}.{name}", choice, choices)
        elif key == "games":
            values["games"] = _games(path, where, value)
        elif key == "standings":
            values["aliases"] = _aliases(path, where, value)
        else:
            raise ConfigError(say("config.unknown-key", path=path, name=where, keys=", ".join(KEYS), hint=_hint(key, KEYS)))
    if "extensions" in values:
        values["extensions"] = tuple(e if e.startswith(".") else "." + e for e in values["extensions"])
    return Config(path=path, root=os.path.dirname(os.path.abspath(path)), warnings=warnings, **values)


def _hint(name: str, known: tuple[str, ...]) -> str:
    """`` (did you mean 'select'?)`` for a key close to a known one; else nothing."""
    import difflib

    close = difflib.get_close_matches(name.lower().replace("_", "-"), known, n=1, cutoff=0.6)
    return say("syntax.did-you-mean", suggestion=close[0]) if close else ""


def _aliases(path: str, where: str, table: dict[str, Any]) -> dict[str, str]:
    """``[standings] aliases = {Zoe = "Zoé"}``: each name as written, the player it is."""
    for name in table:
        if name != "aliases":
            raise ConfigError(say("config.unknown-key", path=path, name=f"{where}.{name}", keys="aliases",
                                  hint=_hint(name, ("aliases",))))
    aliases = table.get("aliases", {})
    if not isinstance(aliases, dict) or not all(isinstance(v, str) and v.strip() and k.strip() for k, v in aliases.items()):
        raise ConfigError(say("config.bad-value", path=path, name=f"{where}.aliases", expected=say("config.expect.aliases")))
    return {k.strip(): v.strip() for k, v in aliases.items()}


def _per_file(path: str, where: str, table: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``per-file-ignores = {"records/old/*" = ["BC-FALSE-SLAP"]}``: each pattern with its
    codes, checked as ``ignore``'s are."""
    if not isinstance(table, dict):
        raise ConfigError(say("config.bad-value", path=path, name=where, expected=say("config.expect.per-file")))
    return tuple((pattern, codes(_strings(path, f"{where}.{pattern}", names), f"{path}: {where}.{pattern}"))
                 for pattern, names in table.items())


def _games(path: str, where: str, table: dict[str, Any]) -> dict[str, dict[str, str]]:
    """``[games.bataille-corse]`` tables: each tag an option of that game, each value one
    it accepts."""
    games: dict[str, dict[str, str]] = {}
    for name, options in table.items():
        entry = find_game(name)
        if entry is None or entry.module is None:
            raise ConfigError(say("config.unknown-game", path=path, name=f"{where}.{name}", game=name))
        if not isinstance(options, dict):
            keys = say("config.expect.options", game=entry.name)
            raise ConfigError(say("config.bad-value", path=path, name=f"{where}.{name}", expected=say("config.expect.table", keys=keys)))
        rules = load_rules(entry)
        known = {o.tag.lower(): o for o in rules.options}
        picked: dict[str, str] = {}
        for tag, value in options.items():
            option = known.get(tag.lower())
            if option is None:
                raise ConfigError(say("config.unknown-option", path=path, name=f"{where}.{name}.{tag}", game=entry.name,
                                      tags=", ".join(o.tag for o in rules.options) or "none"))
            if not isinstance(value, str | int) or isinstance(value, bool):
                raise ConfigError(say("config.bad-value", path=path, name=f"{where}.{name}.{tag}", expected=option.accepted()))
            try:
                option.read(str(value))
            except ValueError:
                raise ConfigError(say("config.bad-value", path=path, name=f"{where}.{name}.{tag}", expected=option.accepted())) from None
            picked[option.tag] = str(value)
        games[entry.name] = picked
    return games


def add_defaults(record: Record, games: dict[str, dict[str, str]]) -> None:
    """Give a record the configured options of its game that it does not set itself (nor
    takes from its match): after what it inherits, never written back."""
    entry = find_game(record.tag("Game", "") or "")
    defaults = games.get(entry.name) if entry is not None else None
    for tag, value in (defaults or {}).items():
        if record.header(tag) is None:
            record.inherited.append(Header(tag, value, record.line, 1))


# --- What it says for one file -------------------------------------------------------------

def ignored_in(per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...], root: str, name: str) -> tuple[str, ...]:
    """The codes ``per-file-ignores`` leaves out in the file ``name`` (each pattern matched
    as an exclude pattern is, from ``root``; standard input, ``-``, matches none)."""
    if not per_file_ignores or name == "-":
        return ()
    from .files.paths import Excludes

    return tuple(code for patterns, codes in _by_codes(per_file_ignores) if Excludes(patterns, root).match(name)
                 for code in codes)


@functools.lru_cache(maxsize=8)
def _by_codes(per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The per-file ignores as (patterns, codes), the patterns that ignore the same codes
    together: one match (its patterns compiled once, paths.compiled_patterns) per set of
    codes and file, rather than one per pattern."""
    grouped: dict[tuple[str, ...], list[str]] = {}
    for pattern, codes in per_file_ignores:
        grouped.setdefault(codes, []).append(pattern)
    return [(tuple(patterns), codes) for codes, patterns in grouped.items()]


class Resolved:
    """What the configuration says for one file, every key worked out once, the same way
    for every face (``check``, ``fmt``, ``play``, ``serve``, the editor): the values given
    on the command line win over the configuration's. Written by hand (referee/fast/plain.py)."""

    def __init__(self, config: Config, path: str, lang: str | None, notation: str | None, select: tuple[str, ...],
                 ignore: tuple[str, ...], strict: bool, suits: str | None, ranks: str | None, excluded: bool,
                 fmt_excluded: bool) -> None:
        self.config: Final = config
        self.path: Final = path
        self.lang: Final = lang
        """The language of messages: ``--lang`` or ``lang``; None: the locale's (or the editor's)."""
        self.notation: Final = notation
        """The notation records are shown in when a reader asks for one (``en``, ``fr``);
        None: each record's own (referee/spelling.py)."""
        self.select: Final = select
        """The codes reported (``select`` with ``extend-select``); empty: all."""
        self.ignore: Final = ignore
        """The codes not reported: ``ignore``, and the ``per-file-ignores`` that match the file."""
        self.strict: Final = strict
        self.suits: Final = suits
        self.ranks: Final = ranks
        self.excluded: Final = excluded
        """Whether ``exclude`` leaves the file out (when a folder is searched, or under ``force-exclude``)."""
        self.fmt_excluded: Final = fmt_excluded
        """Whether ``fmt`` (and the editor's formatting) leaves the file as written:
        ``exclude`` or ``[fmt] exclude`` match it."""

    @property
    def games(self) -> dict[str, dict[str, str]]:
        """Default options per game."""
        return self.config.games

    def chosen(self, code: str) -> bool:
        """Whether a violation code is reported in this file."""
        return chosen(code, self.select, self.ignore)


def chosen_codes(config: Config, select: tuple[str, ...] = (), extend_select: tuple[str, ...] = (),
                 ignore: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The codes selected and ignored in every file: ``select`` and ``ignore`` given
    replace the configuration's, ``extend_select`` adds to both."""
    picked = select or config.select
    return (*picked, *config.extend_select, *extend_select) if picked else (), ignore or config.ignore


def resolve(config: Config, path: str, lang: str | None = None, notation: str | None = None,
            select: tuple[str, ...] = (), extend_select: tuple[str, ...] = (), ignore: tuple[str, ...] = (),
            strict: bool | None = None, suits: str | None = None, ranks: str | None = None) -> Resolved:
    """Every key of the configuration for the file ``path`` (see ``Resolved``): ``select``
    and ``ignore`` given replace the configuration's, ``extend_select`` adds to both;
    ``per-file-ignores`` add to ``ignore`` where they match."""
    from .files.paths import Excludes

    selected, ignored = chosen_codes(config, select, extend_select, ignore)
    ignored = (*ignored, *ignored_in(config.per_file_ignores, config.root, path))
    excluded = bool(config.exclude) and path != "-" and Excludes(config.exclude, config.root).match(path)
    fmt_excluded = excluded or (bool(config.fmt_exclude) and path != "-" and Excludes(config.fmt_exclude, config.root).match(path))
    return Resolved(config, path, lang or config.lang, notation, selected, ignored, config.strict if strict is None else strict, suits or config.suits, ranks or config.ranks,
                    excluded, fmt_excluded)
