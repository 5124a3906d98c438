"""Records in one canonical form (what ``referee fmt`` and ``referee export --to text``
write), losing nothing they say.

The canonical form of a game:
- comments before the headers first, then the headers in a fixed order (Game, Players,
  Dealer, First, the game's options as ``referee games`` lists them, Match, Round, Hands,
  Target, Totals, Result, Event, Date, Place, Annotator, then any other tag as written),
  each known tag spelt as documented; a comment line among the headers moves with the
  header after it; a tag given twice keeps its order;
- one blank line, then the events; the blank lines that group events are kept (a run of
  them as one), every comment stays where it stood;
- an event as ``[12.] [09:04:12] Player verb cards ...``: single spaces, move and round
  numbers without leading zeros, a time with two-digit hours, each card in one spelling
  (``10H``, ``QS``; with ``suits = "symbols"`` ``10♥``; with ``ranks = "french"`` ``DS``
  for the dame), cards nobody saw as ``??`` or, several after a verb that counts them,
  as their number (``draws 2``), scores and amounts as plain numbers;
- in the record's notation, English or French (``[Notation "fr"]``: French verbs, tags
  and card letters, ``DP``), and in its spelling style: suit letters or symbols, and in
  English J Q K or V D R, as most of its cards are written (the configuration or an
  option may set them; ``notation`` converts a record to the other notation);
- trailing comments two spaces after the longest line of their group, aligned;
- one blank line between games (but comment lines that follow a game's last line keep
  their place); UTF-8, LF line ends, no trailing blanks.

It is a function of what the record says and of where its lines stand relative to each
other (the blank lines between them), so it is idempotent, and a record read back from
its JSON form (``referee import``) is written the same."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeAlias

from .cards import CARD_TAGS, FRENCH_SUITS, NUMBERED, SUIT_NAMES, SUIT_SYMBOLS, SUITS, TRUMP, UNSEEN, Card, respelled
from .french import FRENCH_AMOUNT_WRITTEN, FRENCH_FOR, FRENCH_PREPOSITIONS, FRENCH_ROUND, FRENCH_WRITTEN, SPELT_TAGS, is_french
from .games import find_game, load_rules
from .numbers import signed, whole
from .record import PREPOSITIONS, TARGET_VERBS, Comment, Event, Header, Record

_SYMBOLS = dict(zip(SUITS, "♠♥♦♣"))
_ENGLISH = {1: "A", 11: "J", 12: "C", 13: "Q", 14: "K"}
_FRENCH = {1: "A", 11: "V", 12: "C", 13: "D", 14: "R"}
_FRENCH_SUIT_LETTERS = {suit: letter for letter, suit in FRENCH_SUITS.items()}
Item: TypeAlias = Header | Event | Comment
"""What a line of a record writes."""
Line: TypeAlias = tuple[str, Item | None]
"""A line of text and the item it writes (None for a blank line)."""
Block: TypeAlias = list[Item]
"""A header, last, with the comment lines just above it."""

COUNT_VERBS = frozenset({"draws", "burns", "gives", "takes", "discards", "collects", "holds"})
"""Verbs after which a bare number counts unseen cards (as notation.COUNT_VERBS)."""


@dataclass(frozen=True)
class Style:
    """The canonical choices the configuration may set ([tool.referee.fmt]); None: as
    each record writes it."""

    suits: str | None = None
    """``ascii`` (10H) or ``symbols`` (10♥)."""
    ranks: str | None = None
    """``english`` (J Q K) or ``french`` (V D R), in English notation."""
    notation: str | None = None
    """``en`` or ``fr``: the notation to write (``fmt --notation``)."""


def card_text(card: Card, style: Style = Style("ascii", "english", "en")) -> str:
    """A card in the canonical spelling of ``style``: in French notation, French letters
    (``DP``, ``10T``), or French ranks before a symbol (``D♠``)."""
    if card.suit in SUITS:
        french = style.notation == "fr"
        rank = (_FRENCH if french or style.ranks == "french" else _ENGLISH).get(card.rank, str(card.rank))
        if style.suits == "symbols":
            return rank + _SYMBOLS[card.suit]
        return rank + (_FRENCH_SUIT_LETTERS[card.suit] if french else card.suit)
    if card.suit == TRUMP:
        return f"T{card.rank}"
    if card.suit == NUMBERED:
        return str(card.rank)
    return "??" if card.suit == UNSEEN else "EX"


def _number(text: str) -> str:
    """Digits without leading zeros, and no plus sign; anything else (a number too long
    for the reader, referee/numbers.py) as it is."""
    value = signed(text)
    return text if value is None else str(value)


def _time(text: str) -> str:
    hours, _, rest = text.partition(":")
    number = whole(hours)
    return text if number is None else f"{number:02d}:{rest}"


_ESCAPED = re.compile(r'\\(?=[\\"]|\Z)|"')


def escape_value(value: str) -> str:
    """A header value as written between its quotes: a quote as \\", a backslash doubled
    only where it would be read as an escape (before a quote or a backslash, or last), so
    that every value reads back as it was and a \\n stays as written."""
    return _ESCAPED.sub(lambda match: "\\" + match.group(), value)


_FIRST = ("Game", "Notation", "Players", "Dealer", "First")
_AFTER = ("Match", "Round", "Hands", "Target", "Totals", "Result", "Event", "Date", "Place", "Annotator")


def _tag_order(game: str | None) -> dict[str, tuple[int, str]]:
    """Each known tag (lower case): its rank in the header block and its spelling."""
    options: tuple[str, ...] = ()
    entry = find_game(game) if game else None
    if entry is not None and entry.module is not None:
        options = tuple(o.tag for o in load_rules(entry).options)
    tags = (*_FIRST, *options, *_AFTER)
    return {t.lower(): (rank, t) for rank, t in enumerate(tags)}


def known_tags(game: str | None) -> list[str]:
    """The tags referee reads in a game's headers, spelt and ordered as fmt writes them."""
    return [spelling for _, spelling in sorted(_tag_order(game).values())]


class Formatter:
    """Writes the games of one file in canonical form, in order: a hand of a match that
    does not name its game plays its match's (which tells whether its cards are numbers)."""

    def __init__(self, style: Style = Style()):
        self.given = style
        """The style asked for; ``style`` is the one of the game being written."""
        self.style = style
        self.match_games: dict[str, str] = {}
        self.own = "en"
        """The notation of the game being written, as its record says."""
        self.match: str | None = None
        self.french_matches: set[str] = set()
        """The matches a hand of which was written in French with its [Notation] header."""
        self.last: int | None = None
        """The last line of the game written before."""

    def _game_of(self, record: Record) -> str | None:
        game = next((h.value for h in record.headers if h.key == "game"), None)
        match = next((h.value for h in record.headers if h.key == "match"), None)
        if game is None and match is not None:
            game = self.match_games.get(match)
        if game is not None and match is not None:
            self.match_games[match] = game
        return game

    def _style_of(self, record: Record) -> Style:
        """The style to write this game in: what was asked, else what the record writes."""
        own = "fr" if record.french else "en"
        self.match = next((h.value for h in record.headers if h.key == "match"), None)
        notation = self.given.notation or own
        symbols = letters = french = english = 0
        for event in record.events:
            for word in event.cards_text.split():
                bare = word.strip("".join(SUIT_SYMBOLS) + "\ufe0f").upper()
                if bare != word.upper():
                    symbols += 1
                elif word[-1:].isalpha() and len(word) > 1 and word.upper() != "EX":
                    letters += 1
                    bare = bare[:-1]
                french += bare in ("V", "D", "R")
                english += bare in ("J", "Q", "K")
        suits = self.given.suits or ("symbols" if symbols > letters else "ascii")
        ranks = self.given.ranks or ("french" if own == notation == "en" and french > english else "english")
        self.own = own
        return Style(suits, ranks, notation)

    def lines(self, record: Record) -> list[Line]:
        """The game's lines, each with the header, event or comment it writes (None for a
        blank line)."""
        self.style = self._style_of(record)
        game = self._game_of(record)
        entry = find_game(game) if game else None
        counts = entry is not None and not entry.numbered  # a bare number is a count only there
        order = _tag_order(game)
        items: list[Item] = sorted([*record.headers, *record.events, *record.comments], key=lambda i: i.line)
        first_header = next((n for n, i in enumerate(items) if isinstance(i, Header)), len(items))
        last_header = max((n for n, i in enumerate(items) if isinstance(i, Header)), default=-1)
        prologue, head, body = items[:first_header], items[first_header:last_header + 1], items[last_header + 1:]

        out: list[Line] = []
        self._run(out, prologue, counts)
        if prologue and head and head[0].line - prologue[-1].line > 1:
            out.append(("", None))
        blocks: list[Block] = []  # each header with the comment lines just above it
        waiting: list[Item] = []
        for item in head:
            if isinstance(item, Header):
                blocks.append([*waiting, item])
                waiting = []
            else:
                waiting.append(item)
        if waiting:  # comments after the last header and before the first event
            body = waiting + body
        blocks = self._notation_header(blocks, head or prologue)
        unknown = (len(order), "")
        blocks.sort(key=lambda block: order.get(_header_of(block).key, unknown)[0])
        group = [(self._header(item, order) if isinstance(item, Header) else "", item) for b in blocks for item in b]
        out += _aligned(group)
        if body and (head or prologue):
            out.append(("", None))
        self._run(out, body, counts)
        return out

    def _run(self, out: list[Line], items: list[Item], counts: bool) -> None:
        """Lines in the order they stand, a blank line where the record had one or more."""
        group: list[tuple[str, Item]] = []
        for n, item in enumerate(items):
            if n and item.line - items[n - 1].line > 1:
                out += _aligned(group)
                out.append(("", None))
                group = []
            group.append((self._event(item, counts) if isinstance(item, Event) else "", item))
        out += _aligned(group)

    def _notation_header(self, blocks: list[Block], near: list[Item]) -> list[Block]:
        """The header blocks, with a [Notation] header that says the notation written: one
        is added when a record is turned into French; a record turned into the other
        notation has its [Notation] header's value changed (its comment kept)."""
        wanted = self.style.notation or self.own  # _style_of sets it
        if self.match is not None and self.match in self.french_matches:  # its match says it already
            return blocks
        if wanted == "fr" and self.match is not None:
            self.french_matches.add(self.match)
        if wanted == "fr" and self.own == "en" and not any(_header_of(b).key == "notation" for b in blocks):
            line = blocks[0][-1].line if blocks else near[0].line if near else 1
            return [*blocks, [Header("Notation", "fr", line, 1)]]
        if wanted == "en" and self.own == "fr":  # one without a comment goes (English is the default)
            blocks = [b for b in blocks if not (len(b) == 1 and _header_of(b).key == "notation" and not _header_of(b).comment)]
        return [[*b[:-1], _header_of(b).replace(value=wanted)]
                if _header_of(b).key == "notation" and is_french(_header_of(b).value) != (wanted == "fr") else b
                for b in blocks]

    def _header(self, header: Header, order: dict[str, tuple[int, str]]) -> str:
        tag = order.get(header.key, (0, header.tag))[1]
        if header.key in SPELT_TAGS:
            tag = SPELT_TAGS[header.key][self.style.notation == "fr"]
        value = header.value
        if header.key in CARD_TAGS and self.style.notation != self.own:
            value = respelled(value, self.own == "fr", self.style.notation == "fr")
        return f'[{tag} "{escape_value(value)}"]'

    def _event(self, event: Event, counts: bool) -> str:
        french = self.style.notation == "fr"
        if event.verb == "round":
            word = FRENCH_ROUND if french else "round"
            return f"-- {word} {_number(event.word)}" if event.word else f"-- {word}"
        parts = [_number(event.move[:-1]) + "." if event.move else "", _time(event.time) if event.time else "",
                 event.player, FRENCH_WRITTEN[event.verb] if french else event.verb]
        if event.cards:
            parts.append(self._cards(event, counts))
        if event.suit is not None:
            if self.style.suits == "symbols":
                suit = _SYMBOLS[event.suit]
            else:
                suit = SUIT_NAMES[event.suit] if french else event.suit
            parts += [FRENCH_FOR if french else "for", suit]
        if event.target is not None:
            before = (FRENCH_PREPOSITIONS if french else PREPOSITIONS).get(event.verb, "")
            parts += ([] if event.verb in TARGET_VERBS else [before]) + [event.target]
        if event.word is not None:
            if event.verb == "drinks" and french:
                parts.append(FRENCH_AMOUNT_WRITTEN.get(event.word) or _number(event.word))
            else:
                parts.append(_number(event.word) if event.verb in ("scores", "drinks") else event.word)
        return " ".join(p for p in parts if p)

    def _cards(self, event: Event, counts: bool) -> str:
        cards = event.cards
        if counts and len(cards) > 1 and event.verb in COUNT_VERBS and all(c.suit == UNSEEN for c in cards):
            return str(len(cards))
        return " ".join(card_text(c, self.style) for c in cards)

    def text(self, records: Iterable[Record]) -> str:
        """Every game, a blank line between two."""
        return "\n".join(text for text, _ in self.file_lines(records)) + "\n"

    def file_lines(self, records: Iterable[Record]) -> Iterator[Line]:
        """Every game's lines, in order (see ``next``)."""
        for record in records:
            yield from self.next(record)

    def next(self, record: Record) -> list[Line]:
        """The lines of the file's next game: a blank line between two games, but comment
        lines that followed the last line of a game with no blank line, which the reader
        gives to the next game (they stand before its headers), stay where they stood."""
        lines = self.lines(record)
        if self.last is not None and not (isinstance(lines[0][1], Comment) and lines[0][1].line - self.last == 1):
            lines.insert(0, ("", None))
        self.last = max(item.line for _, item in lines if item is not None)
        return lines

    def game_text(self, record: Record) -> str:
        """The file's next game as text (``export --to text``, ``import``: a game at a time)."""
        return "".join(text + "\n" for text, _ in self.next(record))


def _header_of(block: Block) -> Header:
    """The header a block ends with."""
    header = block[-1]
    assert isinstance(header, Header)
    return header


def _aligned(group: list[tuple[str, Item]]) -> list[tuple[str, Item]]:
    """A group of lines (no blank line between them) with their comments: a comment line
    as it is, trailing comments two spaces after the longest line that has one."""
    commented = [len(text) for text, item in group if text and not isinstance(item, Comment) and item.comment]
    column = max(commented, default=0) + 2
    out: list[tuple[str, Item]] = []
    for text, item in group:
        if isinstance(item, Comment):
            out.append((item.text.rstrip(), item))
        elif item.comment:
            out.append((text.ljust(column) + item.comment.rstrip(), item))
        else:
            out.append((text, item))
    return out
