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
- a damaged file costs nothing: the file starts with a line that gives the size and the
  SHA-256 digest of the pickle after it, both checked before a byte is unpickled (a
  pickle's opcodes can ask for gigabytes: a LONG_BINPUT at index 2**30), the file is no
  larger than MAX_TABLES, and any failure to read or load it at all means "rebuild".
When any of this fails, the parser is built from the grammar (and saved again): a
slower start, never an unsafe or a failing one, and nothing said."""

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

MAGIC = b"referee-parser-tables 1"
MAX_TABLES = 8 << 20
"""The largest tables file read, in bytes (the tables take some 25 KB)."""
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


def _sealed(pickled: bytes) -> bytes:
    """The file's content: a line with the pickle's size and digest, then the pickle."""
    return b"%s %d %s\n" % (MAGIC, len(pickled), hashlib.sha256(pickled).hexdigest().encode()) + pickled


def _unsealed(data: bytes) -> bytes | None:
    """The pickle of a file's content, when its size and digest are those its first line
    gives; else None."""
    head, newline, pickled = data.partition(b"\n")
    parts = head.split(b" ")
    if not newline or len(parts) != 4 or b" ".join(parts[:2]) != MAGIC or not parts[2].isdigit():
        return None
    if int(parts[2]) != len(pickled) or hashlib.sha256(pickled).hexdigest().encode() != parts[3]:
        return None
    return pickled


def _read(path: str, key: str) -> dict | None:
    """The tables saved under ``path`` for this key; None if absent, foreign, stale or
    damaged in any way (the digest is checked before anything is unpickled)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            status = os.fstat(file.fileno())
            if not stat.S_ISREG(status.st_mode) or not _own(status) or status.st_size > MAX_TABLES:
                return None
            data = file.read(MAX_TABLES + 1)
        pickled = _unsealed(data) if len(data) <= MAX_TABLES else None
        saved = _plain(io.BytesIO(pickled)) if pickled is not None else None
    except Exception:  # noqa: BLE001 - whatever reading the file raises, the tables are rebuilt
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
            file.write(_sealed(saved))
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
