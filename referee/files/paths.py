"""The files a command is given: files, folders and glob patterns, made into one list of
record files in a stable order.

- A file is taken as it is named, whatever its extension (unless ``force_exclude`` and
  an exclude pattern matches it: pre-commit names every file it checks).
- A folder is searched recursively for files with a record extension (``.txt`` unless the
  configuration says otherwise); names that start with a dot (``.git``, ``.venv``) are
  skipped, and symbolic links to folders are not followed.
- A pattern (``records/**/*.txt``) is expanded by referee itself, so that a quoted
  pattern works where no shell expands it (CI); ``**`` matches any depth of folders.
  It is matched by the same walk: links to folders are not followed there either (two
  links to ``..`` would make a loop).
- Only regular files (and links to regular files) are taken from a folder or a pattern:
  a named pipe, a device or a socket found there is left out (reading one could hang or
  never end).
- A pattern that matches nothing, and a folder that holds no record, are errors: a check
  of nothing must not pass silently. So is a folder under the ones given that cannot be
  listed (no permission, a path too long): it is named, and the command exits 2.
- An exclude pattern without ``/`` is matched against each file or folder name
  (``drafts``, ``*.draft.txt``); one with ``/`` against the path from ``root`` (the
  folder of the configuration file), ``*`` matching across folders (``records/old/*``).

With ``records_only`` (``--records-only``, which the pre-commit hooks use), a file named
on the command line that is not a record is skipped without a word: a record is a file
whose first line that is neither blank nor a comment is a header (``[Game "..."]``,
``[Jeu "..."]``, any ``[Tag "..."]``), or a JSON record (its first character ``{`` and a
``"games"`` or ``"file"`` key near its start). Only its first bytes are read, and a file
that cannot be opened is left to the check (which says why).

Files come in the order they are named; those a folder or a pattern finds, sorted; a
file found twice is checked once."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from fnmatch import translate
from functools import lru_cache
from typing import Final

from ..messages import join, say
from ..fast.plain import field_values, fields_repr
from .record_file import open_regular

DEFAULT_EXTENSIONS = (".txt",)
"""The extension of record files, looked for in folders."""
_MAGIC = frozenset("*?[")
SNIFF_BYTES = 64 << 10
"""How much of a named file --records-only reads to tell a record."""
_HEADER = re.compile(rb'\[[A-Za-z][\w-]*[ \t]+"')
_JSON_KEY = re.compile(rb'"(?:games|file)"\s*:')


_NOT_FOUND: Final = ("path", "message")


class NotFound:
    """A folder or a pattern that gave no record file: an error to report. Equal to
    another with the same path and message (``expand`` tells each once)."""

    path: Final[str]
    message: Final[str]

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_values(self, _NOT_FOUND) == field_values(other, _NOT_FOUND)

    def __hash__(self) -> int:
        return hash(field_values(self, _NOT_FOUND))

    def __repr__(self) -> str:
        return fields_repr(self, _NOT_FOUND)


class Excludes:
    """The exclude patterns, and the folder the ones with a ``/`` start from."""

    patterns: Final[tuple[str, ...]]
    root: Final[str]

    def __init__(self, patterns: tuple[str, ...] = (), root: str = ".") -> None:
        self.patterns = patterns
        self.root = root

    def match(self, path: str) -> bool:
        """Whether ``path`` (a file or a folder) is excluded."""
        if not self.patterns:
            return False
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root)).replace(os.sep, "/")
        return compiled_patterns(self.patterns).match(relative)


class CompiledPatterns:
    """Exclude patterns made ready once, however many paths they are matched against
    (each pattern matched on its own for every path took seconds for thousands of them;
    20,000 overflowed fnmatch's cache and took minutes): the patterns without a magic
    character as sets of names and paths, the others as two regular expressions. A
    pattern with a ``/`` matches the path from the root, or a folder above it; one
    without, any name on the path."""

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self.names: set[str] = set()
        self.paths: set[str] = set()
        self.under: set[str] = set()
        """Folders whatever is under is excluded (a pattern ``folder/*``), not the folder itself."""
        by_path: list[str] = []
        by_name: list[str] = []
        for pattern in patterns:
            pattern = pattern.rstrip("/")
            if "/" in pattern:
                pattern = pattern.lstrip("/")
                head, slash, tail = pattern.rpartition("/")
                if _MAGIC.isdisjoint(pattern):
                    self.paths.add(pattern)
                elif slash and tail == "*" and _MAGIC.isdisjoint(head):
                    self.under.add(head)
                else:
                    by_path.append(_translated(pattern))
            elif _MAGIC.isdisjoint(pattern):
                self.names.add(pattern)
            else:
                by_name.append(_translated(pattern))
        self.by_path = re.compile(f"(?s:(?:{'|'.join(by_path)})(?:/.*)?)") if by_path else None
        self.by_name = re.compile(f"(?s:{'|'.join(by_name)})") if by_name else None

    def match(self, relative: str) -> bool:
        """Whether a path (from the root, with ``/``) is matched."""
        parts = relative.split("/")
        if self.names and not self.names.isdisjoint(parts):
            return True
        if self.by_name is not None and any(self.by_name.fullmatch(part) for part in parts):
            return True
        if self.paths or self.under:
            folder = ""
            for n, part in enumerate(parts):
                folder = f"{folder}/{part}" if n else part
                if folder in self.paths or (n < len(parts) - 1 and folder in self.under):
                    return True
        return self.by_path is not None and self.by_path.fullmatch(relative) is not None


@lru_cache(maxsize=64)
def compiled_patterns(patterns: tuple[str, ...]) -> CompiledPatterns:
    """The patterns made ready, once for each set of them."""
    return CompiledPatterns(patterns)


def _translated(pattern: str) -> str:
    """A pattern as ``fnmatchcase`` reads it (``*`` across folders too), as a regular
    expression to match whole (without fnmatch's ``\\Z``)."""
    return "(?:" + translate(pattern).removesuffix("\\Z") + ")"


def _hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


def _regular(entry: os.DirEntry[str]) -> bool:
    """Whether a folder's entry is a regular file, or a link to one."""
    try:
        return entry.is_file() and stat.S_ISREG(entry.stat().st_mode)
    except OSError:
        return False


def _tree(folder: str, excludes: Excludes, skipped: list[NotFound],
          depth: int | None = None) -> Iterator[tuple[str, bool]]:
    """Every path under ``folder`` with whether it is a folder: hidden and excluded names
    left out, links to folders not followed, only regular files; a folder that cannot be
    listed is added to ``skipped``. ``depth``: how many levels down, at most."""
    stack = [(folder, 0)]
    while stack:
        top, level = stack.pop()
        try:
            with os.scandir(top) as entries:
                listed = list(entries)
        except OSError as error:
            skipped.append(NotFound(top, say("files.unlistable", reason=error.strerror or type(error).__name__)))
            continue
        for entry in listed:
            if _hidden(entry.name) or excludes.match(entry.path):
                continue
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_folder:
                yield entry.path, True
                if depth is None or level + 1 < depth:
                    stack.append((entry.path, level + 1))
            elif _regular(entry):
                yield entry.path, False


def _walk(folder: str, extensions: tuple[str, ...], excludes: Excludes, skipped: list[NotFound]) -> list[str]:
    """The record files under ``folder``, sorted by their path's parts."""
    found = [path for path, is_folder in _tree(folder, excludes, skipped)
             if not is_folder and os.path.basename(path).endswith(extensions)]
    return sorted(found, key=lambda p: p.split(os.sep))


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """A pattern's regular expression over paths with ``/``: ``*`` and ``?`` within a
    name, ``[...]`` a set, ``**`` any number of folders (none included)."""
    out = []
    parts = pattern.split("/")
    for n, part in enumerate(parts):
        last = n == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]*/)*")
            continue
        i = 0
        while i < len(part):
            char = part[i]
            if char == "*":
                out.append("[^/]*")
            elif char == "?":
                out.append("[^/]")
            elif char == "[" and (end := _set_end(part, i)) > 0:
                body = part[i + 1:end]
                negated = body.startswith("!")
                body = "".join(c if c == "-" else re.escape(c) for c in body[negated:])
                out.append(("[^" if negated else "[") + body + "]")
                i = end
            else:
                out.append(re.escape(char))
            i += 1
        if not last:
            out.append("/")
    return re.compile("".join(out))


def _set_end(part: str, at: int) -> int:
    """Where the set that opens at ``part[at]`` (``[``) closes; 0 when it does not (a
    ``[`` then stands for itself)."""
    i = at + 1
    if part[i:i + 1] == "!":
        i += 1
    if part[i:i + 1] == "]":
        i += 1
    end = part.find("]", i)
    return max(end, 0)


def _expand_pattern(pattern: str, excludes: Excludes, skipped: list[NotFound]) -> list[tuple[str, bool]]:
    """The paths a pattern matches, each with whether it is a folder, found by walking
    from its folder without a magic character (never following a link to a folder)."""
    parts = (pattern.replace(os.sep, "/").rstrip("/") or "/").split("/")  # 'dir/**/' as 'dir/**'
    fixed = 0
    while fixed < len(parts) - 1 and _MAGIC.isdisjoint(parts[fixed]):
        fixed += 1
    base = "/".join(parts[:fixed]) if fixed else ""
    if parts[:1] == [""] and fixed:  # an absolute pattern
        base = base or "/"
    rest = parts[fixed:]
    regex = _pattern_regex("/".join(rest))
    depth = None if "**" in rest else len(rest)
    start = base or "."
    if not os.path.isdir(start):
        return []
    found = []
    for path, is_folder in _tree(start, excludes, skipped, depth):
        relative = os.path.relpath(path, start).replace(os.sep, "/")
        if regex.fullmatch(relative):
            found.append((path if base else os.path.relpath(path, "."), is_folder))
    return sorted(found, key=lambda p: p[0].split(os.sep))


def looks_like_record(path: str) -> bool:
    """Whether a file is a record by its first bytes (see the module's docstring): True
    when it cannot be read (the check then says why)."""
    try:
        with open_regular(path) as file:
            head = file.read(SNIFF_BYTES)
    except (OSError, ValueError):
        return True
    head = head.removeprefix(b"\xef\xbb\xbf")
    if head.lstrip()[:1] == b"{":
        return bool(_JSON_KEY.search(head))
    for line in head.splitlines():
        line = line.strip()
        if line and not line.startswith(b";"):
            return bool(_HEADER.match(line))
    return False


def _is_pattern(argument: str) -> bool:
    return not os.path.lexists(argument) and not _MAGIC.isdisjoint(argument)


def expand(arguments: Iterable[str], extensions: tuple[str, ...] = DEFAULT_EXTENSIONS,
           excludes: Excludes = Excludes(), force_exclude: bool = False, records_only: bool = False,
           stdin_name: str | None = None) -> Iterator[str | NotFound]:
    """Each record file to check (``-`` is the standard input, named ``stdin_name`` for
    the excludes), or a NotFound."""
    seen: set[str] = set()

    def new(path: str) -> bool:
        key = os.path.normcase(os.path.normpath(path)) if path != "-" else path
        if key in seen:
            return False
        seen.add(key)
        return True

    for argument in arguments:
        skipped: list[NotFound] = []
        if argument != "-" and os.path.isdir(argument):
            files = _walk(argument, extensions, excludes, skipped)
            if argument == os.curdir:  # records/x.txt rather than ./records/x.txt, as ruff names them
                files = [f[len(os.curdir + os.sep):] for f in files]
            yield from skipped
            if not files and not skipped:
                yield NotFound(argument, say("files.no-record-folder", extensions=join(extensions, "or")))
            yield from (f for f in files if new(f))
        elif argument != "-" and _is_pattern(argument):
            files = []
            for match, is_folder in _expand_pattern(argument, excludes, skipped):
                files += _walk(match, extensions, excludes, skipped) if is_folder else [match]
            yield from dict.fromkeys(skipped)
            if not files and not skipped:
                yield NotFound(argument, say("files.no-record-pattern"))
            yield from (f for f in files if new(f))
        elif argument == "-":
            if not (force_exclude and stdin_name and excludes.match(stdin_name)) and new(argument):
                yield argument
        elif not (force_exclude and excludes.match(argument)) and (not records_only or looks_like_record(argument)):
            if new(argument):
                yield argument
