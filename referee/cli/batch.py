"""Checking many files: in one process, or with ``--jobs N`` in N worker processes, the
output always in the files' order.

A worker checks a whole file and hands back what the file's games write (referee/
formats.py); the main process prints each file's output when its turn comes, keeping at
most a few files per worker ahead. A file larger than INLINE_BYTES, and the standard
input, are checked in the main process, streamed as in one process: what a worker hands
back is held in memory, so only small files go to the workers."""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..config import add_defaults
from ..engine import check_games, error_report
from ..reports.formats import WRITERS, Settings, Summary, Writer
from ..convert.importer import read_any
from ..messages import say
from ..notation import RecordError
from ..files.paths import NotFound

if TYPE_CHECKING:
    from concurrent.futures import Future

Done = tuple[list[object], Summary, int]
"""A file checked in a worker: what its games write (the chunks), its summary, and how
many games (or results) it wrote."""

INLINE_BYTES = 1 << 20
AHEAD = 4
"""Batches submitted per worker before the first of them is printed."""
BATCH_FILES, BATCH_BYTES = 32, 256 << 10
"""A worker's batch: this many files, or files this large together, whichever comes first."""


def check_file(path: str, writer: Writer, settings: Settings) -> None:
    """Check the games of one file (text or JSON) and write their reports."""
    prepare = (lambda record: add_defaults(record, settings.games)) if settings.games else None
    name = settings.name(path)  # --stdin-filename's for -
    writer.file_start(name)
    for item, report in check_games(read_any(path, lazy=True, name=settings.stdin_filename), settings.play_out,
                                    writer.sink, prepare):
        writer.report(item, report)
        del item, report  # not held while the next game is read
    writer.file_end(name)


def _not_found(missing: NotFound, writer: Writer, read: bool = False) -> None:
    """A path that gave no file to check, counted as such; ``read``: a file that was
    found but could not be checked (its worker died), counted as a game not checked."""
    error = RecordError(missing.path, 0, 0, missing.message)
    writer.file_start(missing.path)
    writer.report(error, error_report(error), missing=not read)
    writer.file_end(missing.path)


def _in_worker(paths: list[str], settings: Settings) -> list[Done]:
    """Check some files in a worker: for each, what its games write, its summary, and how
    many games (or results) it wrote."""
    done: list[Done] = []
    for path in paths:
        chunks: list[object] = []
        writer = WRITERS[settings.format](chunks.append, settings)
        check_file(path, writer, settings)
        done.append((chunks, writer.summary, writer.written))
    return done


def _quiet_interrupts() -> None:
    """A worker leaves Ctrl-C to the main process (which exits 130), without a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_size(target: str | NotFound) -> int | None:
    """The size of a file small enough for a worker; None for what is checked here (the
    standard input, a large file, a path that is not found or cannot be read: the reader
    says why)."""
    if isinstance(target, NotFound) or target == "-":
        return None
    try:
        size = os.path.getsize(target)
    except OSError:
        return None
    return size if size <= INLINE_BYTES else None


def worker_count(asked: int, files: int, cores: int) -> int:
    """The processes ``--jobs`` starts: as many as asked (0: one per core), but never more
    than the files to check, nor than twice the cores (more only compete for them)."""
    return max(1, min(asked or cores, files, 2 * cores))


def run(targets: Iterable[str | NotFound], writer: Writer, settings: Settings, jobs: int = 1) -> Summary:
    """Check every target with ``writer``; the summary of them all (written last). With
    ``jobs`` over 1, in that many processes, bounded by ``worker_count`` (the first
    targets are looked at to count the files, when there may be fewer)."""
    writer.begin()
    if jobs > 1:
        cores = os.cpu_count() or 1
        queue = iter(targets)
        first = list(itertools.islice(queue, min(jobs, 2 * cores)))
        jobs = worker_count(jobs, len(first), cores)
        targets = itertools.chain(first, queue)
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
    """Files to the workers in batches (a file is small: one task per file would cost
    more than its check), the output printed in the files' order.

    A worker that dies (the out-of-memory killer, a kill) breaks the pool: every batch in
    flight fails with it. Each failed batch is then checked again alone, in a new process
    of its own: the batches that did not kill it come back whole, and the one that kills
    its process again is reported file by file as not checked (exit 2). A new pool takes
    the files still to come."""
    from concurrent.futures import ProcessPoolExecutor  # here: one process does without it (start-up)

    summary = Summary()
    # (targets, future): a batch for a worker, or one target (future None) for here
    pending: deque[tuple[list[str], Future[list[Done]]] | tuple[list[str | NotFound], None]] = deque()
    queue = iter(targets)
    pools = [ProcessPoolExecutor(jobs, initializer=_quiet_interrupts)]

    def submit(batch: list[str]) -> None:
        try:
            pending.append((batch, pools[-1].submit(_in_worker, batch, settings)))
        except RuntimeError:  # the pool broke (BrokenProcessPool) or shut down: a new one
            pools.append(ProcessPoolExecutor(jobs, initializer=_quiet_interrupts))
            pending.append((batch, pools[-1].submit(_in_worker, batch, settings)))

    try:
        def fill() -> None:
            batch: list[str] = []
            size = 0
            while len(pending) < jobs * AHEAD:
                target = next(queue, None)
                if target is None:
                    break
                weight = _worker_size(target)
                if weight is None or isinstance(target, NotFound):  # a NotFound has no weight
                    if batch:
                        submit(batch)
                        batch, size = [], 0
                    pending.append(([target], None))
                    continue
                batch.append(target)
                size += weight
                if len(batch) >= BATCH_FILES or size >= BATCH_BYTES:
                    submit(batch)
                    batch, size = [], 0
            if batch:
                submit(batch)

        fill()
        while pending:
            entry = pending.popleft()
            if entry[1] is None:
                _one(entry[0][0], writer, settings)
                fill()
                continue
            batch, future = entry
            done: list[Done] | str
            try:
                done = future.result()
            except Exception:  # noqa: BLE001 - the worker died, or the pool broke with another one
                done = _alone(batch, settings)
            if isinstance(done, str):
                for target in batch:
                    _not_found(NotFound(target, say("run.worker-failed", reason=done)), writer, read=True)
                fill()
                continue
            for chunks, counted, written in done:
                if chunks and written and writer.written and writer.SEPARATOR:
                    writer.emit(writer.SEPARATOR)
                for chunk in chunks:
                    writer.emit(chunk)
                writer.written += written
                summary.add(counted)
            fill()
    finally:
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
    summary.add(writer.summary)
    return summary


def _alone(batch: list[str], settings: Settings) -> list[Done] | str:
    """A batch whose pool broke, checked again in a process of its own: what it gives, or
    why that process failed too (the batch is then not checked)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, initializer=_quiet_interrupts) as alone:
        try:
            return alone.submit(_in_worker, batch, settings).result()
        except Exception as error:  # noqa: BLE001 - killed again: this batch is the one
            return str(error) or type(error).__name__
