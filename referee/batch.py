"""Checking many files: in one process, or with ``--jobs N`` in N worker processes, the
output always in the files' order.

A worker checks a whole file and hands back what the file's games write (referee/
formats.py); the main process prints each file's output when its turn comes, keeping at
most a few files per worker ahead. A file larger than INLINE_BYTES, and the standard
input, are checked in the main process, streamed as in one process: what a worker hands
back is held in memory, so only small files go to the workers."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable

from .formats import WRITERS, Settings, Summary, Writer
from .paths import NotFound

INLINE_BYTES = 1 << 20
AHEAD = 4
"""Files submitted per worker before the first of them is printed."""


def check_file(path: str, writer: Writer, settings: Settings) -> None:
    """Check the games of one file (text or JSON) and write their reports."""
    from .config import add_defaults
    from .engine import check_games
    from .importer import read_any

    prepare = (lambda record: add_defaults(record, settings.games)) if settings.games else None
    writer.file_start(path)
    for item, report in check_games(read_any(path), settings.play_out, writer.sink, prepare):
        writer.report(item, report)
        del item, report  # not held while the next game is read
    writer.file_end(path)


def _not_found(missing: NotFound, writer: Writer) -> None:
    from .engine import error_report
    from .notation import RecordError

    error = RecordError(missing.path, 0, 0, missing.message)
    writer.file_start(missing.path)
    writer.report(error, error_report(error))
    writer.file_end(missing.path)


def _in_worker(path: str, settings: Settings) -> tuple[list, Summary, int]:
    chunks: list = []
    writer = WRITERS[settings.format](chunks.append, settings)
    check_file(path, writer, settings)
    return chunks, writer.summary, writer.written


def _quiet_interrupts() -> None:
    """A worker leaves Ctrl-C to the main process (which exits 130), without a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _inline(target: str | NotFound) -> bool:
    if isinstance(target, NotFound) or target == "-":
        return True
    try:
        return os.path.getsize(target) > INLINE_BYTES
    except OSError:
        return True  # the reader says why


def run(targets: Iterable[str | NotFound], writer: Writer, settings: Settings, jobs: int = 1) -> Summary:
    """Check every target with ``writer``; the summary of them all (written last)."""
    writer.begin()
    if jobs <= 1:
        for target in targets:
            _one(target, writer, settings)
        summary = writer.summary
    else:
        summary = _parallel(targets, writer, settings, jobs)
    writer.end(summary)
    return summary


def _one(target: str | NotFound, writer: Writer, settings: Settings) -> None:
    if isinstance(target, NotFound):
        _not_found(target, writer)
    else:
        check_file(target, writer, settings)


def _parallel(targets: Iterable[str | NotFound], writer: Writer, settings: Settings, jobs: int) -> Summary:
    from concurrent.futures import ProcessPoolExecutor

    summary = Summary()
    pending: deque = deque()
    queue = iter(targets)
    pool = ProcessPoolExecutor(jobs, initializer=_quiet_interrupts)
    try:
        def fill() -> None:
            while len(pending) < jobs * AHEAD:
                target = next(queue, None)
                if target is None:
                    return
                pending.append((target, None if _inline(target) else pool.submit(_in_worker, target, settings)))

        fill()
        while pending:
            target, future = pending.popleft()
            if future is None:
                _one(target, writer, settings)
            else:
                try:
                    chunks, counted, written = future.result()
                except Exception as error:  # a worker that died (out of memory, killed)
                    from .messages import say

                    _not_found(NotFound(target, say("run.worker-failed", reason=str(error) or type(error).__name__)), writer)
                    fill()
                    continue
                if chunks and written and writer.written and writer.SEPARATOR:
                    writer.emit(writer.SEPARATOR)
                for chunk in chunks:
                    writer.emit(chunk)
                writer.written += written
                summary.add(counted)
            fill()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    summary.add(writer.summary)
    return summary
