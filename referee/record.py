"""A parsed record: one game's headers, events and comments, each with its place."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from .cards import Card
from .french import tag_key
from .safe_text import excerpt, visible

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


@mypyc_attr(native_class=False)  # mypyc: a dataclass exception cannot be a native class
@dataclass
class RecordError(Exception):
    """A record that cannot be read, with the place and a message in player terms (raised
    and given by ``notation``, kept on a Record)."""

    path: str
    line: int
    column: int
    message: str
    source: str = ""

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


@dataclass(slots=True)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Header:
    tag: str
    """As written: ``Game``, ``game`` or ``Jeu``."""
    value: str
    line: int
    column: int
    comment: str | None = None
    key: str = field(init=False, repr=False, compare=False)
    """The tag in lower case and in English, whichever notation wrote it: ``game``."""

    def __post_init__(self) -> None:
        self.key = tag_key(self.tag)


@dataclass(slots=True)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Comment:
    text: str
    line: int
    column: int


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Event:
    """One line of play: who (player) does what (verb) with what (cards, target, word).

    A round marker (``-- round 2``) is an event too, with no player, the verb ``round``
    and its number, when given, as its word."""

    player: str
    verb: str
    line: int
    column: int
    cards: tuple[Card, ...] = ()
    cards_text: str = ""
    cards_column: int = 0
    target: str | None = None
    word: str | None = None
    move: str | None = None
    time: str | None = None
    comment: str | None = None
    suit: str | None = None
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

    def card_column(self, index: int) -> int:
        """The column of the index-th card written on the line (a count counts once); the
        column of the cards, or of the event, for any other index (a card the line does
        not write: the cards a bare verb stands for)."""
        if index > 0 and len(spots := _spots(self.cards_text)) == len(self.cards) and index < len(spots):
            return self.cards_column + spots[index]
        return self.cards_column or self.column

    @property
    def seconds(self) -> int | None:
        """The time of day in seconds, when the line gives one."""
        if self.time is None:
            return None
        parts = [int(p) for p in self.time.split(":")] + [0]
        return parts[0] * 3600 + parts[1] * 60 + parts[2]


ERRORS_KEPT = 10
"""The lines that cannot be read that a game keeps, with their text (the others are counted)."""


@dataclass(slots=True)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Batch:
    """A stretch of a game's lines as read: its events and comments, and the lines that
    could not be read among them (RecordError values)."""

    start: int
    text: str
    events: list[Event]
    comments: list[Comment]
    errors: list[RecordError]
    split: list[str] | None = None
    """``text`` cut into lines, once asked for."""

    def lines(self, numbers: Iterable[int]) -> dict[int, str]:
        """Some of the batch's lines, by their numbers in the file."""
        if self.split is None:
            self.split = self.text.split("\n")[:-1]
        last = self.start + len(self.split)
        return {n: self.split[n - self.start] for n in numbers if self.start <= n < last}


@dataclass(slots=True)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Record:
    """One game of a file, as written."""

    path: str
    line: int
    headers: list[Header] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    text: str = field(default="", repr=False, compare=False)
    """The game's lines as read (line ends made LF), from line ``text_line`` of the file."""
    text_line: int = field(default=1, repr=False, compare=False)
    inherited: list[Header] = field(default_factory=list, repr=False, compare=False)
    """Headers this game takes from the previous hand of its match (referee/match.py):
    read after its own, never written back."""
    errors: list[RecordError] = field(default_factory=list, repr=False, compare=False)
    """The first lines that could not be read (RecordError values), in order; how many
    there were in all is ``error_count``."""
    error_count: int = field(default=0, repr=False, compare=False)
    batches: Iterator[Batch] | None = field(default=None, repr=False, compare=False)
    """A game read lazily (``read_games(lazy=True)``): its events, read as they are
    taken. ``text`` holds the game's head; ``seen`` the latest batches' lines (all of
    them, for a game read whole)."""
    seen: deque[Batch] = field(default_factory=lambda: deque(maxlen=4), repr=False, compare=False)
    french: bool = field(default=False, repr=False, compare=False)
    """Whether the game is written in French notation: its [Notation "fr"] header, or
    that of the previous hand of its match (set by the reader)."""

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
