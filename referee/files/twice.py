"""A game read twice, its memory bounded however long it is (issue 38): what ``fmt`` and
``export`` need. Writing a game takes two passes over its events: the first finds whether
every line can be read (a game that cannot be is not written at all) and, for the
canonical text, the spelling most of its cards use; the second writes.

The first pass reads the game lazily (``read_games(lazy=True, comments=True)``), as
``check`` does. Its batches are kept for the second pass while they hold few events
(``KEPT_EVENTS``: most games, read once); past that, they are let go and the game's text
is written to a temporary file instead, its line numbers kept, and read again for the
second pass. Either way the second pass gives the same events and comments, at the same
lines, in the same batches or others."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import IO

from ..notation import RecordError, read_games
from ..record import Batch, Record

KEPT_EVENTS = 20_000
"""The events of a game kept in memory between the two passes; a longer game is read again
from a temporary file (a test lowers it)."""


class Twice:
    """The games of one file, each to be read twice: what the reader knew of each match
    (its game, its notation) when the game began, to read it again the same way."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.match_games: dict[str, str] = {}
        self.match_french: dict[str, bool] = {}

    def game(self, record: Record) -> Passes:
        """The two passes of the file's next game (a lazy record, as read)."""
        by_tag = {h.key: h.value for h in reversed(record.headers)}
        game, match = by_tag.get("game"), by_tag.get("match")
        known = {match: self.match_games[match]} if match is not None and match in self.match_games else {}
        french = {match: self.match_french[match]} if match is not None and match in self.match_french else {}
        name = game if game is not None else self.match_games.get(match) if match is not None else None
        if match is not None and name is not None:
            self.match_games[match] = name
        if match is not None:
            self.match_french[match] = record.french
        return Passes(self.path, record, known, french)


class Passes:
    """One game's two passes: ``first`` (the batches as read; the record counts the lines
    that cannot be read), then ``again``. A context manager: the temporary file, if one
    was needed, goes at the end."""

    def __init__(self, path: str, record: Record, match_games: dict[str, str], match_french: dict[str, bool]) -> None:
        self.path, self.record = path, record
        self.match_games, self.match_french = match_games, match_french
        self.kept: list[Batch] | None = []
        self.events = 0
        self.spool: IO[bytes] | None = None
        self.next_line = record.text_line + record.text.count("\n")
        """The line after the last one spooled."""

    def first(self) -> Iterator[Batch]:
        """The game's batches as read (Record.each_batch), kept for ``again``."""
        for batch in self.record.each_batch():
            if self.kept is not None:
                self.kept.append(batch)
                self.events += len(batch.events)
                if self.events > KEPT_EVENTS:  # a long game: its text to a file, its batches let go
                    self.spool = tempfile.TemporaryFile(prefix="referee-")
                    self.spool.write(self.record.text.encode("utf-8"))
                    for kept in self.kept:
                        self._spool(kept)
                    self.kept = None
            else:
                self._spool(batch)
            yield batch

    def _spool(self, batch: Batch) -> None:
        assert self.spool is not None
        blank = batch.start - self.next_line  # blank lines the reader passed over
        self.spool.write(("\n" * blank + batch.text).encode("utf-8"))
        self.next_line = batch.start + batch.text.count("\n")

    def again(self) -> Iterator[Batch]:
        """The game's batches once more, after ``first``: the same events and comments."""
        if self.kept is not None:
            yield from self.kept
            return
        assert self.spool is not None
        self.spool.seek(0)
        games = read_games(self.path, self.spool, lazy=True, comments=True, first_line=self.record.text_line,
                           match_games=self.match_games, match_french=self.match_french)
        record = next(games)
        assert not isinstance(record, RecordError)  # read whole before, with no error
        yield from record.each_batch()

    def close(self) -> None:
        self.kept = None
        if self.spool is not None:
            self.spool.close()
            self.spool = None

    def __enter__(self) -> Passes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
