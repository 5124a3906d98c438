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

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, TypeAlias

from ..cards import CARD_TAGS, SUIT_SYMBOLS, SUITS, UNSEEN, Card, respelled
from ..text.french import SPELT_TAGS, is_french
from ..games import find_game, load_rules
from ..text.numbers import signed, whole
from ..record import Batch, Comment, Event, Header, Record
from ..spelling import escape_value as escape_value  # re-exported: where callers have always taken it
from ..spelling import ENGLISH, FRENCH

if TYPE_CHECKING:
    from ..files.twice import Passes

_SYMBOLS = dict(zip(SUITS, "♠♥♦♣"))
_ENGLISH = {1: "A", 11: "J", 12: "C", 13: "Q", 14: "K"}
_FRENCH = {1: "A", 11: "V", 12: "C", 13: "D", 14: "R"}
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
    """A card in the canonical spelling of ``style``: the notation's letters
    (referee/spelling.py: ``QS``, ``DP``), or with ``ranks = "french"`` French ranks in
    English notation (``DS``), or with ``suits = "symbols"`` the notation's ranks before
    a symbol (``Q♠``, ``D♠``)."""
    written = FRENCH if style.notation == "fr" else ENGLISH
    if card.suit in SUITS and (style.suits == "symbols" or style.ranks == "french"):
        rank = (_FRENCH if written.french or style.ranks == "french" else _ENGLISH).get(card.rank, str(card.rank))
        return rank + (_SYMBOLS[card.suit] if style.suits == "symbols" else written.suit_letter(card.suit))
    return written.card(card)


def _number(text: str) -> str:
    """Digits without leading zeros, and no plus sign; anything else (a number too long
    for the reader, referee/text/numbers.py) as it is."""
    value = signed(text)
    return text if value is None else str(value)


def _time(text: str) -> str:
    hours, _, rest = text.partition(":")
    number = whole(hours)
    return text if number is None else f"{number:02d}:{rest}"


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

    def _style_of(self, record: Record, spellings: Spellings | None = None) -> Style:
        """The style to write this game in: what was asked, else what the record writes
        (``spellings``: its cards' spellings, counted already)."""
        own = "fr" if record.french else "en"
        self.match = next((h.value for h in record.headers if h.key == "match"), None)
        notation = self.given.notation or own
        if spellings is None:
            spellings = Spellings()
            spellings.add(record.events)
        suits = self.given.suits or ("symbols" if spellings.symbols > spellings.letters else "ascii")
        ranks = self.given.ranks or ("french" if own == notation == "en" and spellings.french > spellings.english
                                     else "english")
        self.own = own
        return Style(suits, ranks, notation)

    def lines(self, record: Record) -> list[Line]:
        """The game's lines, each with the header, event or comment it writes (None for a
        blank line)."""
        self.style = self._style_of(record)
        counts, order = self._game_setup(record)
        items: list[Item] = sorted([*record.headers, *record.events, *record.comments], key=lambda i: i.line)
        prologue, head, body = _split(items)
        out = self._head_lines(prologue, head, body, order, counts)
        if body and (head or prologue):
            out.append(("", None))
        self._run(out, body, counts)
        return out

    def _game_setup(self, record: Record) -> tuple[bool, dict[str, tuple[int, str]]]:
        """Whether a bare number counts cards in this game, and its tags' order."""
        game = self._game_of(record)
        entry = find_game(game) if game else None
        return entry is not None and not entry.numbered, _tag_order(game)  # a bare number is a count only there

    def _head_lines(self, prologue: list[Item], head: list[Item], body: list[Item], order: dict[str, tuple[int, str]],
                    counts: bool) -> list[Line]:
        """The lines of the comments before the headers and of the headers (``body``: the
        comments after the last header among them, moved to the body's start)."""
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
            body[:0] = waiting
        blocks = self._notation_header(blocks, head or prologue)
        unknown = (len(order), "")
        blocks.sort(key=lambda block: order.get(_header_of(block).key, unknown)[0])
        group = [(self._header(item, order) if isinstance(item, Header) else "", item) for b in blocks for item in b]
        out += _aligned(group)
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
        written = FRENCH if self.style.notation == "fr" else ENGLISH
        if event.verb == "round":
            return f"-- {written.round_word} {_number(event.word)}" if event.word else f"-- {written.round_word}"
        parts = [_number(event.move[:-1]) + "." if event.move else "", _time(event.time) if event.time else "",
                 event.player, written.verbs.get(event.verb, event.verb)]
        if event.cards:
            parts.append(self._cards(event, counts))
        if event.suit is not None:
            parts.append(written.announced(_SYMBOLS[event.suit] if self.style.suits == "symbols" else written.suit(event.suit)))
        if event.target is not None:
            parts.append(written.targeted(event.verb, event.target))
        if event.word is not None:
            if event.verb == "drinks" and written.amount("drinks", event.word) != event.word:
                parts.append(written.amount("drinks", event.word))
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

    def stream(self, record: Record, passes: Passes) -> Iterator[str]:
        """The lines of the file's next game, as ``next`` gives them, its memory bounded
        however long the game is (``fmt``, ``export --to text``): ``record`` is read
        lazily, comments kept, and ``passes`` (referee/files/twice.py) reads its events twice,
        once for the spellings its cards use, once to write them; a long run of lines
        with no blank line between them is kept in a temporary file until its trailing
        comments can be aligned. RecordError, before any line, for a game with a line
        that cannot be read."""
        if record.batches is None:  # read whole: nothing to bound
            yield from (text for text, _ in self.next(record))
            return
        spellings = Spellings()
        for batch in passes.first():
            spellings.add(batch.events)
        if record.errors:
            raise record.errors[0]
        self.style = self._style_of(record, spellings)
        counts, order = self._game_setup(record)
        prologue, head, rest = _split(sorted([*record.headers, *record.comments], key=lambda i: i.line))
        out = self._head_lines(prologue, head, rest, order, counts)
        body = _body_items(rest, passes.again())
        first = next(body, None)
        if first is not None and (head or prologue):
            out.append(("", None))
        if self.last is not None and not (isinstance(out[0][1], Comment) and out[0][1].line - self.last == 1):
            yield ""
        last = max(item.line for _, item in out if item is not None)
        yield from (text for text, _ in out)
        if first is not None:
            group = _Group()
            before = first.line
            for item in itertools.chain((first,), body):
                if item.line - before > 1:
                    yield from group.lines()
                    yield ""
                group.add(self._event(item, counts) if isinstance(item, Event) else "", item)
                before = item.line
            yield from group.lines()
            last = max(last, before)
        self.last = last


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


class Spellings:
    """How a game's cards are spelt, counted: suit symbols or letters, French ranks (V D R)
    or English ones (J Q K)."""

    def __init__(self) -> None:
        self.symbols = self.letters = self.french = self.english = 0

    def add(self, events: Iterable[Event]) -> None:
        for event in events:
            for word in event.cards_text.split():
                bare = word.strip("".join(SUIT_SYMBOLS) + "\ufe0f").upper()
                if bare != word.upper():
                    self.symbols += 1
                elif word[-1:].isalpha() and len(word) > 1 and word.upper() != "EX":
                    self.letters += 1
                    bare = bare[:-1]
                self.french += bare in ("V", "D", "R")
                self.english += bare in ("J", "Q", "K")


def _split(items: list[Item]) -> tuple[list[Item], list[Item], list[Item]]:
    """A game's items in line order, cut in three: the comments before the first header,
    the headers (and the comments among them), and what follows the last header."""
    first_header = next((n for n, i in enumerate(items) if isinstance(i, Header)), len(items))
    last_header = max((n for n, i in enumerate(items) if isinstance(i, Header)), default=-1)
    return items[:first_header], items[first_header:last_header + 1], items[last_header + 1:]


def _body_items(rest: list[Item], batches: Iterable[Batch]) -> Iterator[Item]:
    """The items after the last header, in line order: ``rest`` (comments before the first
    event), then each batch's events and comments."""
    yield from rest
    for batch in batches:
        if batch.comments:
            merged: list[Item] = [*batch.events, *batch.comments]
            yield from sorted(merged, key=lambda i: i.line)
        else:
            yield from batch.events


GROUP_KEPT = 10_000
"""The lines of a group (no blank line between them) kept in memory until the group ends
and its trailing comments can be aligned; a longer group goes to a temporary file (a test
lowers it)."""


class _Group:
    """A run of lines with no blank line between them, as ``_aligned`` writes it, with its
    memory bounded: each line's text, and its trailing comment to align (None for a line
    written as it is)."""

    def __init__(self) -> None:
        self.kept: list[tuple[str, str | None]] = []
        self.spool: IO[str] | None = None
        self.width = -1
        """The longest text of a line with a trailing comment (-1: none yet)."""

    def add(self, text: str, item: Item) -> None:
        if isinstance(item, Comment):
            line: tuple[str, str | None] = (item.text.rstrip(), None)
        elif item.comment:
            line = (text, item.comment.rstrip())
            if text:  # as _aligned counts them
                self.width = max(self.width, len(text))
        else:
            line = (text, None)
        if self.spool is not None:
            self._spool(line)
            return
        self.kept.append(line)
        if len(self.kept) > GROUP_KEPT:  # a long group: to a file until it ends
            import tempfile

            self.spool = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n", prefix="referee-")
            for kept in self.kept:
                self._spool(kept)
            self.kept = []

    def _spool(self, line: tuple[str, str | None]) -> None:
        assert self.spool is not None  # a line holds no LF nor NUL (the reader refuses control characters)
        self.spool.write(f"{line[0]}\n" if line[1] is None else f"{line[0]}\0{line[1]}\n")

    def lines(self) -> Iterator[str]:
        """The group's lines, written (trailing comments two spaces after the longest line
        that has one), and the group emptied."""
        column = max(self.width, 0) + 2
        lines: Iterable[tuple[str, str | None]] = self.kept
        if self.spool is not None:
            self.spool.seek(0)
            lines = ((text, comment) if sep else (text, None)
                     for text, sep, comment in (line[:-1].partition("\0") for line in self.spool))
        for text, comment in lines:
            yield text if comment is None else text.ljust(column) + comment
        if self.spool is not None:
            self.spool.close()
        self.kept, self.spool, self.width = [], None, -1
