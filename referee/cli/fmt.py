"""``referee fmt``: record files rewritten in their canonical form (referee/convert/formatter.py
says what it is), or, with ``--check`` or ``--diff``, only said or shown."""

from __future__ import annotations

import difflib
import io
import os
from collections.abc import Callable, Iterable, Iterator

from ..files.atomic import OUTPUT_FULL
from ..text.fit import fit, terminal_width
# imported by name from here too:
from ..convert.formatter import (
    COUNT_VERBS as COUNT_VERBS, Formatter as Formatter, Style as Style, card_text as card_text,
    known_tags as known_tags,
)
from ..convert.importer import looks_json
from ..files.lock import LockHeld, RecordLock
from ..messages import say
from ..notation import Readable, RecordError, read_games, unreadable_reason
from ..files.paths import NotFound
from ..files import record_file
from ..files.record_file import FileRefused, RecordFile, read_stdin, replace_file
from ..text.safe_text import visible
from ..files.twice import Twice

Writer = Callable[[str], object]
"""Where text goes (``sys.stdout.write``)."""


def write_atomically(path: str, text: str) -> None:
    """Replace a file's content with ``text`` (UTF-8), whole or not at all (a killed
    ``fmt`` leaves at most a stray ``.NAME.*.referee-fmt`` file): see RecordFile.replace."""
    replace_file(path, text.encode("utf-8"), "referee-fmt")


def canonical(path: str, raw: bytes, style: Style = Style()) -> str:
    """The canonical text of a record file's bytes; RecordError for the first game that
    cannot be read (then the file is not to be touched)."""
    records = []
    for item in read_games(path, io.BytesIO(raw)):
        if isinstance(item, RecordError):
            raise item
        records.append(item)
    return Formatter(style).text(records)


def _diff(path: str, before: bytes, after: str) -> str:
    """A unified diff of a file and its canonical form: lines split at LF only (U+2028
    is no line end in a record), every unsafe character shown as an escape, as check
    shows a record's lines."""

    def lines(text: str) -> list[str]:
        parts = text.split("\n")
        return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])

    old = lines(before.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n"))
    name = visible(path)
    diff = difflib.unified_diff(old, lines(after), f"{name}", f"{name} (formatted)")
    return "".join(visible(line[:-1] if line.endswith("\n") else line) + "\n" for line in diff)


def run(targets: Iterable[str | NotFound], style: Style, check: bool, diff: bool, out: Writer, err: Writer) -> int:
    """``referee fmt``: each target rewritten in canonical form (or, with ``check`` or
    ``diff``, only said or shown); the exit status: 2 when a file could not be read or
    written (it is left as it was), else 1 when ``check`` or ``diff`` found a file to
    change, else 0. A file is rewritten under its writing lock, through what was opened
    and checked (referee/files/record_file.py, docs/files.md)."""

    limit = record_file.RECORD_LIMIT  # read when the command runs (a test lowers it)
    counts = {"changed": 0, "same": 0, "error": 0, "": 0}
    for target in targets:
        if isinstance(target, NotFound):
            err(visible(f"{target.path}: {target.message}") + "\n")
            counts["error"] += 1
            continue
        try:
            if target == "-":
                counts[_one(target, read_stdin(limit), None, style, check, diff, out, err)] += 1
                continue
            with RecordLock(target, "fmt") if not (check or diff) else _Unlocked():
                with RecordFile.open(target, write=not (check or diff), limit=limit) as opened:
                    if diff:  # a diff compares the whole texts
                        counts[_one(target, opened.read_bytes(), opened, style, check, diff, out, err)] += 1
                    else:
                        counts[_streamed(target, opened, style, check, out, err)] += 1
        except (FileRefused, LockHeld) as error:
            err(str(error) + "\n")
            counts["error"] += 1
        except OSError as error:
            if error.errno in OUTPUT_FULL or isinstance(error, BrokenPipeError):
                raise  # the standard output is full or closed (every file fmt writes says its own errors)
            err(_unreadable(target, error) + "\n")
            counts["error"] += 1
    changed, same, errors = counts["changed"], counts["same"], counts["error"]
    if changed or same or errors:
        key = "fmt.summary.to-change" if check or diff else "fmt.summary.changed"
        summary = say("fmt.summary", changed=say(key, count=changed), same=say("fmt.summary.same", count=same),
                      errors=say("fmt.summary.errors", count=errors))
        err("\n".join(fit(summary, terminal_width())) + "\n")  # on a terminal, cut between words
    return 2 if errors else 1 if (check or diff) and changed else 0


class _Unlocked:
    """No lock: ``--check`` and ``--diff`` only read."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _unreadable(target: str, error: OSError) -> str:

    return visible(f"{target}: " + say("file.unreadable", reason=unreadable_reason(error)))


class _Reading:
    """A record file read from its start through the descriptor opened and checked, by
    blocks (``read_games``'s stream); FileRefused past the size limit (it grew)."""

    def __init__(self, opened: RecordFile) -> None:
        self.opened, self.offset = opened, 0

    def read(self, size: int, /) -> bytes:
        block = os.pread(self.opened.fd, size, self.offset)
        self.offset += len(block)
        if self.offset > self.opened.limit:
            raise FileRefused(self.opened.path, say("file.too-large", limit=self.opened.limit >> 20))
        return block


def formatted(path: str, stream: Readable, style: Style) -> Iterator[bytes]:
    """The canonical text of a record file, in pieces of UTF-8, read as it is written: one
    game at a time, each read twice with its memory bounded (referee/files/twice.py), so that
    memory does not grow with the file nor with a game. RecordError for the first game
    that cannot be read (then nothing is to be written)."""
    formatter, twice = Formatter(style), Twice(path)
    pending: list[str] = []
    for item in read_games(path, stream, lazy=True, comments=True):
        if isinstance(item, RecordError):
            raise item
        with twice.game(item) as passes:
            for line in formatter.stream(item, passes):
                pending.append(line)
                if len(pending) >= 4096:
                    pending.append("")
                    yield "\n".join(pending).encode("utf-8")
                    pending = []
    if pending:
        pending.append("")
        yield "\n".join(pending).encode("utf-8")


def _streamed(target: str, opened: RecordFile, style: Style, check: bool, out: Writer, err: Writer) -> str:
    """Format one record file, its memory bounded: the canonical text, as it is made,
    compared with the file's bytes; kept (to replace the file) only from where it differs,
    and only when the file is to be rewritten. 'changed', 'same' or 'error' (said on
    ``err``)."""
    if looks_json(target, os.pread(opened.fd, 4096, 0)):
        err(visible(f"{target}: " + say("fmt.json")) + "\n")
        return "error"
    offset, changed = 0, bytearray() if not check else None
    same = True
    try:
        for piece in formatted(target, _Reading(opened), style):
            if same and os.pread(opened.fd, len(piece), offset) == piece:
                offset += len(piece)
                continue
            if same:  # the first difference: the text so far is the file's
                same = False
                if changed is not None:
                    changed += _prefix(opened, offset)
            if changed is not None:
                changed += piece
    except RecordError as error:
        err(str(error) + "\n")
        return "error"
    if same and offset == opened.size():
        return "same"
    if check:
        out(visible(say("fmt.would-change", path=target)) + "\n")
        return "changed"
    if same:  # the file goes on past its canonical text
        changed = _prefix(opened, offset)
    assert changed is not None
    return _rewrite(opened, changed, target, out, err)


def _rewrite(opened: RecordFile, text: str | bytearray, target: str, out: Writer, err: Writer) -> str:
    """Write a file's canonical text over it (the one write path: RecordFile.replace):
    'changed', or 'error' said on ``err``."""
    try:
        opened.replace(text, "referee-fmt")
    except FileRefused as error:
        err(str(error) + "\n")
        return "error"
    except OSError as error:
        err(visible(f"{target}: " + say("fmt.unwritable", reason=unreadable_reason(error))) + "\n")
        return "error"
    out(visible(say("fmt.changed", path=target)) + "\n")
    return "changed"


def _prefix(opened: RecordFile, size: int) -> bytearray:
    """The first ``size`` bytes of the file."""
    data = bytearray()
    while len(data) < size:
        block = os.pread(opened.fd, min(1 << 20, size - len(data)), len(data))
        if not block:
            break
        data += block
    return data


def _one(target: str, raw: bytes, opened: RecordFile | None, style: Style, check: bool, diff: bool, out: Writer,
         err: Writer) -> str:
    """Format one file's bytes: 'changed', 'same' or 'error' (said on ``err``)."""

    if looks_json(target, raw):
        err(visible(f"{target}: " + say("fmt.json")) + "\n")
        return "error"
    try:
        text = canonical(target, raw, style)
    except RecordError as error:
        err(str(error) + "\n")
        return "error"
    if target == "-" and not (check or diff):
        out(text)
        return ""
    if text.encode("utf-8") == raw:
        return "same"
    if diff:
        out(_diff(target, raw, text))
    elif check:
        out(visible(say("fmt.would-change", path=target)) + "\n")
    else:
        assert opened is not None  # only the standard input has none, and it was written out above
        return _rewrite(opened, text, target, out, err)
    return "changed"
