"""The parser's tables, built once from the grammar and kept where only the user can write.

Lark's own cache (``cache=True``) pickles them into the shared temporary directory under
a name anyone can predict: a pickle planted there by another user runs as whoever reads
it, and a symbolic link planted there turns the cache's write into an overwrite of the
file it points to. Here the tables are plain JSON (reading them cannot run code), in the
user's cache directory (``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``), created
0700 and used only while it is the user's own and writable by nobody else; the file is
opened without following a symbolic link, checked to be the user's, and written through
a fresh temporary file renamed into place. When any of this fails, the parser is built
from the grammar: a slower start, never an unsafe one."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile

from lark import Lark
from lark import __version__ as LARK_VERSION
from lark.grammar import Rule
from lark.lexer import TerminalDef

_OBJECTS = frozenset({"transformer", "postlex", "lexer_callbacks", "edit_terminals", "tree_class", "_plugins"})
"""Options that hold code, not data: never written; given again when the tables are loaded."""


def cache_folder() -> str | None:
    """Where the user's caches go (the folder may not exist yet); None when unknown."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        if sys.platform == "win32":
            base = os.environ.get("LOCALAPPDATA", "")
        else:
            base = os.path.expanduser(os.path.join("~", "Library", "Caches") if sys.platform == "darwin" else "~/.cache")
    return os.path.join(base, "referee") if os.path.isabs(base) else None


def _own(status: os.stat_result) -> bool:
    """Whether a file or folder is the user's and nobody else may write to it."""
    if not hasattr(os, "getuid"):  # Windows: the folder is under the user's own profile
        return True
    return status.st_uid == os.getuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _private_folder() -> str | None:
    """The cache folder, made if need be; None unless it is a real folder of the user's own."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        status = os.lstat(folder)
    except OSError:
        return None
    return folder if stat.S_ISDIR(status.st_mode) and _own(status) else None


def _int_keys(pairs: list[tuple[str, object]]) -> dict:
    """JSON has only text keys; the tables number their states and tokens."""
    return {int(k) if k.isdigit() else k: v for k, v in pairs}


def _read(path: str, key: str) -> dict | None:
    """The tables saved under ``path`` for this key; None if absent, foreign or stale."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            status = os.fstat(file.fileno())
            if not stat.S_ISREG(status.st_mode) or not _own(status):
                return None
            saved = json.loads(file.read(), object_pairs_hook=_int_keys)
    except (OSError, ValueError):
        return None
    return saved if isinstance(saved, dict) and saved.get("key") == key else None


def _write(parser: Lark, folder: str, path: str, key: str) -> None:
    """Save the tables: a new private file, renamed over ``path`` (a link there is replaced,
    never followed); older tables in the folder are removed."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _OBJECTS}
    try:
        text = json.dumps({"key": key, "data": data, "memo": memo}, separators=(",", ":"))
    except (TypeError, ValueError):  # a Lark version whose tables are not plain data
        return
    try:
        fd, temporary = tempfile.mkstemp(prefix=".parser-", suffix=".tmp", dir=folder)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    for name in os.listdir(folder):
        if name.startswith("parser-") and name.endswith(".json") and os.path.join(folder, name) != path:
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def load_parser(grammar: str, transformer: object, **options: object) -> Lark:
    """A Lark LALR parser for ``grammar`` with ``transformer`` inline: its tables loaded
    from the user's cache when they are there and current, else built and saved there."""
    version = ".".join(map(str, sys.version_info[:2]))
    key = hashlib.sha256("\0".join((grammar, repr(sorted(options.items())), LARK_VERSION, version)).encode()).hexdigest()
    folder = _private_folder()
    path = os.path.join(folder, f"parser-{key[:32]}.json") if folder else None
    saved = _read(path, key) if path else None
    if saved is not None:
        try:
            return Lark._load_from_dict(saved["data"], saved["memo"], transformer=transformer)
        except Exception:  # noqa: BLE001 - tables that do not load are rebuilt
            pass
    parser = Lark(grammar, transformer=transformer, **options)
    if path:
        _write(parser, folder, path, key)
    return parser
