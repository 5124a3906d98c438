"""A parsed record: one game's headers, events and comments, each with its place."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import Card

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

PREPOSITIONS = {"plays": "on", "gives": "to", "takes": "from", "swaps": "with"}
"""The word before the player an event names: plays 7H on Bob, gives ?? to Bob."""
TARGET_VERBS = frozenset({"beats", "catches", "accuses"})
"""Verbs followed by the player they name, with no word between: Ana beats Ben."""


@dataclass(slots=True)
class Header:
    tag: str
    value: str
    line: int
    column: int
    comment: str | None = None


@dataclass(slots=True)
class Comment:
    text: str
    line: int
    column: int


@dataclass(slots=True)
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


@dataclass(slots=True)
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

    def sources(self, numbers: Iterable[int]) -> dict[int, str]:
        """The text of some of the game's lines, by their numbers in the file."""
        return lines_at(self.text, self.text_line, numbers)

    def header(self, tag: str) -> Header | None:
        """The first header with this tag, matched without regard to case; else the one
        the game inherits from its match."""
        tag = tag.lower()
        found = next((h for h in self.headers if h.tag.lower() == tag), None)
        if found is None and self.inherited:
            found = next((h for h in self.inherited if h.tag.lower() == tag), None)
        return found

    def tag(self, tag: str, default: str | None = None) -> str | None:
        found = self.header(tag)
        return found.value if found else default
