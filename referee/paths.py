"""The files a command is given: files, folders and glob patterns, made into one list of
record files in a stable order.

- A file is taken as it is named, whatever its extension (unless ``force_exclude`` and
  an exclude pattern matches it: pre-commit names every file it checks).
- A folder is searched recursively for files with a record extension (``.txt`` unless the
  configuration says otherwise); names that start with a dot (``.git``, ``.venv``) are
  skipped, and symbolic links to folders are not followed.
- A pattern (``records/**/*.txt``) is expanded by referee itself, so that a quoted
  pattern works where no shell expands it (CI); ``**`` matches any depth of folders.
  A pattern that matches nothing, and a folder that holds no record, are errors: a check
  of nothing must not pass silently.
- An exclude pattern without ``/`` is matched against each file or folder name
  (``drafts``, ``*.draft.txt``); one with ``/`` against the path from ``root`` (the
  folder of the configuration file), ``*`` matching across folders (``records/old/*``).

Files come in the order they are named; those a folder or a pattern finds, sorted; a
file found twice is checked once."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase

from .messages import join, say

DEFAULT_EXTENSIONS = (".txt",)
"""The extension of record files, looked for in folders."""
_MAGIC = frozenset("*?[")


@dataclass(frozen=True)
class NotFound:
    """A folder or a pattern that gave no record file: an error to report."""

    path: str
    message: str


@dataclass(frozen=True)
class Excludes:
    """The exclude patterns, and the folder the ones with a ``/`` start from."""

    patterns: tuple[str, ...] = ()
    root: str = "."

    def match(self, path: str) -> bool:
        """Whether ``path`` (a file or a folder) is excluded."""
        if not self.patterns:
            return False
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root)).replace(os.sep, "/")
        parts = relative.split("/")
        for pattern in self.patterns:
            pattern = pattern.rstrip("/")
            if "/" in pattern:
                if fnmatchcase(relative, pattern.lstrip("/")) or fnmatchcase(relative, pattern.lstrip("/") + "/*"):
                    return True
            elif any(fnmatchcase(part, pattern) for part in parts):
                return True
        return False


def _hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


def _walk(folder: str, extensions: tuple[str, ...], excludes: Excludes) -> list[str]:
    """The record files under ``folder``, sorted by their path's parts."""
    found: list[str] = []
    for top, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if not _hidden(f) and not excludes.match(os.path.join(top, f))]
        for name in files:
            path = os.path.join(top, name)
            if name.endswith(extensions) and not _hidden(name) and not excludes.match(path):
                found.append(path)
    return sorted(found, key=lambda p: p.split(os.sep))


def _is_pattern(argument: str) -> bool:
    return not os.path.lexists(argument) and not _MAGIC.isdisjoint(argument)


def expand(arguments: Iterable[str], extensions: tuple[str, ...] = DEFAULT_EXTENSIONS,
           excludes: Excludes = Excludes(), force_exclude: bool = False) -> Iterator[str | NotFound]:
    """Each record file to check (``-`` is the standard input), or a NotFound."""
    seen: set[str] = set()

    def new(path: str) -> bool:
        key = os.path.normcase(os.path.normpath(path)) if path != "-" else path
        if key in seen:
            return False
        seen.add(key)
        return True

    for argument in arguments:
        if argument != "-" and os.path.isdir(argument):
            files = _walk(argument, extensions, excludes)
            if not files:
                yield NotFound(argument, say("files.no-record-folder", extensions=join(extensions, "or")))
            yield from (f for f in files if new(f))
        elif argument != "-" and _is_pattern(argument):
            files = []
            for match in sorted(glob.glob(argument, recursive=True), key=lambda p: p.split(os.sep)):
                if os.path.isdir(match):
                    files += _walk(match, extensions, excludes)
                elif not excludes.match(match):
                    files.append(match)
            if not files:
                yield NotFound(argument, say("files.no-record-pattern"))
            yield from (f for f in files if new(f))
        elif argument == "-" or not (force_exclude and excludes.match(argument)):
            if new(argument):
                yield argument
