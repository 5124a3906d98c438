"""The parser's tables, built once from the grammar and kept where only the user can write.

Lark's own cache (``cache=True``) pickles them into the shared temporary directory under
a name anyone can predict: a pickle planted there by another user runs as whoever reads
it, and a symbolic link planted there turns the cache's write into an overwrite of the
file it points to. Here:
- the tables live in the user's cache directory (``$XDG_CACHE_HOME/referee``, else
  ``~/.cache/referee``), created 0700 and used only while it is the user's own and
  writable by nobody else; the file is opened without following a symbolic link, checked
  to be the user's, and written through a fresh temporary file renamed into place;
- they are plain data (dicts, lists, strings, numbers) and are read back as plain data
  only: the unpickler refuses every global, the one way a pickle reaches code, so even a
  planted file could run nothing (pickle rather than JSON: it adds nothing to start-up,
  as Lark imports it, where JSON took 3 ms to import and decode).
When any of this fails, the parser is built from the grammar: a slower start, never an
unsafe one."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
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
        status = os.lstat(folder)
    except FileNotFoundError:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            status = os.lstat(folder)
        except OSError:
            return None
    except OSError:
        return None
    return folder if stat.S_ISDIR(status.st_mode) and _own(status) else None


class _PlainData(pickle.Unpickler):
    """Reads plain data only (dicts, lists, tuples, strings, numbers): every global (a
    class, a function), the only way a pickle reaches code, is refused."""

    def find_class(self, module: str, name: str) -> object:
        raise pickle.UnpicklingError(f"{module}.{name}: the parser's tables are plain data")


def _plain(file) -> object:
    return _PlainData(file).load()


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
            saved = _plain(file)
    except (OSError, ValueError, EOFError, pickle.UnpicklingError, MemoryError, TypeError, IndexError, KeyError):
        return None
    return saved if isinstance(saved, dict) and saved.get("key") == key else None


def _prefix(kind: str) -> str:
    """How the files of one kind of tables are named: ``parser-`` then the key (English
    notation), ``parser-fr-`` then the key (French)."""
    return f"parser-{kind}-" if kind else "parser-"


def _write(parser: Lark, folder: str, path: str, key: str, kind: str = "") -> None:
    """Save the tables: a new private file, renamed over ``path`` (a link there is replaced,
    never followed); older tables of the same kind in the folder are removed (the other
    kind's are kept: each notation has its tables)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _OBJECTS}
    tables = {"key": key, "data": data, "memo": memo}
    try:
        saved = pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL)
        if _plain(io.BytesIO(saved)) != tables:
            return
    except (pickle.PicklingError, pickle.UnpicklingError, TypeError, AttributeError):  # tables that are not plain data
        return
    try:
        fd, temporary = tempfile.mkstemp(prefix=".parser-", suffix=".tmp", dir=folder)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(saved)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    for name in os.listdir(folder):
        same_kind = name.startswith(_prefix(kind)) and name[len(_prefix(kind)):].count("-") == 0
        if same_kind and os.path.join(folder, name) != path:
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def load_parser(grammar: str, transformer: object, kind: str = "", **options: object) -> Lark:
    """A Lark LALR parser for ``grammar`` with ``transformer`` inline: its tables loaded
    from the user's cache when they are there and current, else built and saved there;
    ``kind`` names tables kept beside the others (``fr``: French notation's)."""
    version = ".".join(map(str, sys.version_info[:2]))
    key = hashlib.sha256("\0".join((grammar, repr(sorted(options.items())), LARK_VERSION, version)).encode()).hexdigest()
    folder = _private_folder()
    path = os.path.join(folder, f"{_prefix(kind)}{key[:32]}.tables") if folder else None
    saved = _read(path, key) if path else None
    if saved is not None:
        try:
            return Lark._load_from_dict(saved["data"], saved["memo"], transformer=transformer)
        except Exception:  # noqa: BLE001 - tables that do not load are rebuilt
            pass
    parser = Lark(grammar, transformer=transformer, **options)
    if path:
        _write(parser, folder, path, key, kind)
    return parser
