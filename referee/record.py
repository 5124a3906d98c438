"""A parsed record: one game's headers, events and comments, each with its place."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Final, TypedDict, Unpack

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from .cards import Card
from .text.french import tag_key
from .text.numbers import whole
from .fast.plain import field_values, fields_repr
from .text.safe_text import excerpt, visible

_WORDS = re.compile(r"\S+")


@lru_cache(maxsize=16)
def _spots(text: str) -> tuple[int, ...]:
    """Where each word of a list of cards starts (kept: a line's cards are looked up one by one)."""
    return tuple(m.start() for m in _WORDS.finditer(text))


def lines_at(text: str, first: int, numbers: Iterable[int]) -> dict[int, str]:
    """Some lines of ``text`` (whole lines, each ending in LF, the first of them line
    ``first`` of the file), by their numbers in the file; a number outside is left out."""
    lines = text.split("\n")[:-1]
    return {n: lines[n - first] for n in numbers if 0 <= n - first < len(lines)}


@mypyc_attr(native_class=False)  # mypyc: an exception stays a Python class (pickled as exceptions are)
class RecordError(Exception):
    """A record that cannot be read, with the place and a message in player terms (raised
    and given by ``notation``, kept on a Record)."""

    path: str
    line: int
    column: int
    message: str
    source: str
    empty: bool = False
    """A file with nothing in it but white space: counted as an empty file, not as a game."""
    refused: bool = False
    """A game of a JSON record that cannot be read, the file read and its other games too:
    counted as a game, not as a file that cannot be read (a flag, not a subclass: the
    compiled ``__init__`` takes no class made in Python)."""

    def __init__(self, path: str, line: int, column: int, message: str, source: str = "") -> None:
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.source = source

    def replace(self, *, line: int) -> RecordError:
        """A copy at another line (what callers change; add a keyword when one needs more)."""
        return RecordError(self.path, line, self.column, self.message, self.source)

    def __str__(self) -> str:
        """The error as text, safe to print: the place, the message, the line and a caret."""
        place = f"{self.path}:{self.line}:{self.column}" if self.line else self.path  # line 0: the whole file
        text = visible(f"{place}: {self.message}")
        if self.source:
            shown, caret = excerpt(self.source, self.column)
            text += f"\n    {shown}\n    {' ' * (caret - 1)}^"
        return text


PREPOSITIONS = {"plays": "on", "gives": "to", "takes": "from", "swaps": "with"}
"""The word before the player an event names: plays 7H on Bob, gives ?? to Bob."""
TARGET_VERBS = frozenset({"beats", "catches", "accuses"})
"""Verbs followed by the player they name, with no word between: Ana beats Ben."""


_HEADER: Final = ("tag", "value", "line", "column", "comment")
"""A header's fields, as it compares and writes itself (not ``key``: it follows from ``tag``)."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Header:
    __slots__ = ("tag", "value", "line", "column", "comment", "key")

    tag: str
    """As written: ``Game``, ``game`` or ``Jeu``."""
    value: str
    line: int
    column: int
    comment: str | None
    key: str
    """The tag in lower case and in English, whichever notation wrote it: ``game``."""

    def __init__(self, tag: str, value: str, line: int, column: int, comment: str | None = None) -> None:
        self.tag = tag
        self.value = value
        self.line = line
        self.column = column
        self.comment = comment
        self.key = tag_key(tag)

    def __eq__(self, other: object) -> bool:  # the language server compares them with its last reading; tests too
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_values(self, _HEADER) == field_values(other, _HEADER)

    def __repr__(self) -> str:
        return fields_repr(self, _HEADER)

    def replace(self, *, value: str | None = None, line: int | None = None) -> Header:
        """A copy with another value or line (what callers change; add a keyword when one
        needs more)."""
        return Header(self.tag, self.value if value is None else value, self.line if line is None else line,
                      self.column, self.comment)


_COMMENT: Final = ("text", "line", "column")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Comment:
    __slots__ = _COMMENT

    text: str
    line: int
    column: int

    def __init__(self, text: str, line: int, column: int) -> None:
        self.text = text
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:  # tests compare two readings of a game
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_values(self, _COMMENT) == field_values(other, _COMMENT)

    def __repr__(self) -> str:
        return fields_repr(self, _COMMENT)

    def replace(self, *, line: int) -> Comment:
        """A copy at another line (what callers change; add a keyword when one needs more)."""
        return Comment(self.text, line, self.column)


class EventChanges(TypedDict, total=False):
    """What ``Event.replace`` may change: any field."""

    player: str
    verb: str
    line: int
    column: int
    cards: tuple[Card, ...]
    cards_text: str
    cards_column: int
    target: str | None
    word: str | None
    move: str | None
    time: str | None
    comment: str | None
    suit: str | None


_EVENT: Final = ("player", "verb", "line", "column", "cards", "cards_text", "cards_column", "target", "word", "move",
                 "time", "comment", "suit")
"""An event's fields, in order."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Event:
    """One line of play: who (player) does what (verb) with what (cards, target, word).

    A round marker (``-- round 2``) is an event too, with no player, the verb ``round``
    and its number, when given, as its word."""

    __slots__ = _EVENT

    player: str
    verb: str
    line: int
    column: int
    cards: tuple[Card, ...]
    cards_text: str
    cards_column: int
    target: str | None
    word: str | None
    move: str | None
    time: str | None
    comment: str | None
    suit: str | None
    """The suit announced with an ace (plays AD for C), as a letter S, H, D or C."""

    def __init__(self, player: str, verb: str, line: int, column: int, cards: tuple[Card, ...] = (),
                 cards_text: str = "", cards_column: int = 0, target: str | None = None, word: str | None = None,
                 move: str | None = None, time: str | None = None, comment: str | None = None,
                 suit: str | None = None) -> None:
        self.player = player
        self.verb = verb
        self.line = line
        self.column = column
        self.cards = cards
        self.cards_text = cards_text
        self.cards_column = cards_column
        self.target = target
        self.word = word
        self.move = move
        self.time = time
        self.comment = comment
        self.suit = suit

    def __eq__(self, other: object) -> bool:  # the language server compares them with its last reading; tests too
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_values(self, _EVENT) == field_values(other, _EVENT)

    def __repr__(self) -> str:
        return fields_repr(self, _EVENT)

    def replace(self, **changes: Unpack[EventChanges]) -> Event:
        """A copy with some fields changed, as ``dataclasses.replace`` makes one."""
        return Event(changes.get("player", self.player), changes.get("verb", self.verb),
                     changes.get("line", self.line), changes.get("column", self.column),
                     changes.get("cards", self.cards), changes.get("cards_text", self.cards_text),
                     changes.get("cards_column", self.cards_column), changes.get("target", self.target),
                     changes.get("word", self.word), changes.get("move", self.move), changes.get("time", self.time),
                     changes.get("comment", self.comment), changes.get("suit", self.suit))

    def card_column(self, index: int) -> int:
        """The column of the index-th card written on the line (a count counts once); the
        column of the cards, or of the event, for any other index (a card the line does
        not write: the cards a bare verb stands for)."""
        if index > 0 and len(spots := _spots(self.cards_text)) == len(self.cards) and index < len(spots):
            return self.cards_column + spots[index]
        return self.cards_column or self.column

    @property
    def seconds(self) -> int | None:
        """The time of day in seconds, when the line gives one (None for a time that is
        not one: an Event made by a program, not read)."""
        time = self.time
        if time is None:
            return None
        known = _SECONDS.get(time, -1)
        if known != -1:
            return known
        total = _seconds(time)
        if len(_SECONDS) < _SECONDS_KEPT:
            _SECONDS[time] = total
        return total


def _seconds(time: str) -> int | None:
    """``21:04`` or ``21:04:30`` in seconds; None when a part is not a number."""
    total = 0
    for part, scale in zip(time.split(":"), (3600, 60, 1)):
        number = whole(part)  # as every number is read: digits 0 to 9 only
        if number is None:
            return None
        total += number * scale
    return total


_SECONDS: dict[str, int | None] = {}
"""Each time written, in seconds (a record writes the same few minutes again and again)."""
_SECONDS_KEPT = 100_000
"""The most times kept: more than a day's minutes and seconds (86,400)."""


ERRORS_KEPT = 10
"""The lines that cannot be read that a game keeps, with their text (the others are counted)."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Batch:
    """A stretch of a game's lines as read: its events and comments, and the lines that
    could not be read among them (RecordError values)."""

    __slots__ = ("start", "text", "events", "comments", "errors", "split")

    start: int
    text: str
    events: list[Event]
    comments: list[Comment]
    errors: list[RecordError]
    split: list[str] | None
    """``text`` cut into lines, once asked for."""

    def __init__(self, start: int, text: str, events: list[Event], comments: list[Comment], errors: list[RecordError],
                 split: list[str] | None = None) -> None:
        self.start = start
        self.text = text
        self.events = events
        self.comments = comments
        self.errors = errors
        self.split = split

    def lines(self, numbers: Iterable[int]) -> dict[int, str]:
        """Some of the batch's lines, by their numbers in the file."""
        if self.split is None:
            self.split = self.text.split("\n")[:-1]
        last = self.start + len(self.split)
        return {n: self.split[n - self.start] for n in numbers if self.start <= n < last}


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Record:
    """One game of a file, as written."""

    __slots__ = ("path", "line", "headers", "events", "comments", "text", "text_line", "inherited", "errors",
                 "error_count", "batches", "seen", "french")

    path: str
    line: int
    headers: list[Header]
    events: list[Event]
    comments: list[Comment]
    text: str
    """The game's lines as read (line ends made LF), from line ``text_line`` of the file."""
    text_line: int
    inherited: list[Header]
    """Headers this game takes from the previous hand of its match (referee/match.py):
    read after its own, never written back."""
    errors: list[RecordError]
    """The first lines that could not be read (RecordError values), in order; how many
    there were in all is ``error_count``."""
    error_count: int
    batches: Iterator[Batch] | None
    """A game read lazily (``read_games(lazy=True)``): its events, read as they are
    taken. ``text`` holds the game's head; ``seen`` the latest batches' lines (all of
    them, for a game read whole)."""
    seen: deque[Batch]
    french: bool
    """Whether the game is written in French notation: its [Notation "fr"] header, or
    that of the previous hand of its match (set by the reader)."""

    def __init__(self, path: str, line: int, headers: list[Header] | None = None, events: list[Event] | None = None,
                 comments: list[Comment] | None = None, text: str = "", text_line: int = 1,
                 inherited: list[Header] | None = None, errors: list[RecordError] | None = None, error_count: int = 0,
                 batches: Iterator[Batch] | None = None, seen: deque[Batch] | None = None, french: bool = False) -> None:
        """A list not given is a new empty one; ``seen``, a new deque of the last 4 batches."""
        self.path = path
        self.line = line
        self.headers = [] if headers is None else headers
        self.events = [] if events is None else events
        self.comments = [] if comments is None else comments
        self.text = text
        self.text_line = text_line
        self.inherited = [] if inherited is None else inherited
        self.errors = [] if errors is None else errors
        self.error_count = error_count
        self.batches = batches
        self.seen = deque(maxlen=4) if seen is None else seen
        self.french = french

    def replace(self, *, events: list[Event]) -> Record:
        """The same game with other events, the rest shared (what callers change; add a
        keyword when one needs more)."""
        return Record(self.path, self.line, self.headers, events, self.comments, self.text, self.text_line,
                      self.inherited, self.errors, self.error_count, self.batches, self.seen, self.french)

    def each_batch(self) -> Iterator[Batch]:
        """The game's events and comments in file order, in batches: as they are read for
        a lazy record, else in one."""
        if self.batches is None:
            yield Batch(self.text_line, "", self.events, self.comments, [])
            return
        for batch in self.batches:
            self.seen.append(Batch(batch.start, batch.text, [], [], []))  # its lines, not its events
            if batch.errors:
                self.error_count += len(batch.errors)
                self.errors += batch.errors[: max(0, ERRORS_KEPT - len(self.errors))]
            yield batch

    def sources(self, numbers: Iterable[int]) -> dict[int, str]:
        """The text of some of the game's lines, by their numbers in the file (for a lazy
        record: in its head or its latest batches)."""
        wanted = set(numbers)
        found = lines_at(self.text, self.text_line, wanted) if self.text else {}
        for batch in reversed(self.seen):
            if len(found) < len(wanted):
                found.update(batch.lines(wanted - found.keys()))
        return found

    def header(self, tag: str) -> Header | None:
        """The first header with this tag, matched without regard to case or notation
        (``Game`` finds ``[Jeu]``); else the one the game inherits from its match."""
        tag = tag_key(tag)
        found = next((h for h in self.headers if h.key == tag), None)
        if found is None and self.inherited:
            found = next((h for h in self.inherited if h.key == tag), None)
        return found

    def tag(self, tag: str, default: str | None = None) -> str | None:
        found = self.header(tag)
        return found.value if found else default
