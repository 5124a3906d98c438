"""Reading records: a file is read in blocks and cut into games, and each game is read
on its own with the lexer of the grammar's rule ``start``.

The grammar (grammar/record.lark) gives a game few, coarse tokens: each header line, and
the run of event lines after the headers. Rule ``start`` is any sequence of them, so its
lexer's regular expression (``_grammar_start``, generated from the grammar) reads a game
as Lark's LALR parser would, without its parser loop; the builder splits the tokens'
text. A line the lexer refuses is read again token by token by Lark's parser (imported
only then), to say where and what is wrong.

A game whose headers say ``[Notation "fr"]`` (or whose match's do) is read in French
notation: the same grammar with its words, card letters and drinks in French
(``french_grammar``), split by the same builder with the French tables
(``_FrenchBuilder``) into the same events, whose verbs and cards are the English ones."""

from __future__ import annotations

import errno
import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, cast

from ._grammar_start import ENGLISH as _ENGLISH_START
from ._grammar_start import FRENCH as _FRENCH_START
from .cards import (FRENCH_SPELLINGS, FRENCH_SUITS, NUMBERED, SPELLINGS, SUIT_SYMBOLS, SUITS, UNSEEN_CARD, Card,
                    french_name, french_text)
from .text.french import (FRENCH_AMOUNTS, FRENCH_FOR, FRENCH_ROUND, FRENCH_TARGET_WORDS, FRENCH_VERBS, FRENCH_WRITTEN,
                     is_french)
from .games.registry import numbers_are_cards
from .messages import join, say
from .text.numbers import MAX_DIGITS, is_digits, shown, signed, too_long, whole
from .record import ERRORS_KEPT, TARGET_VERBS, Batch, Comment, Event, Header, Record, lines_at
from .record import RecordError as RecordError  # re-exported: where callers have always taken it

if TYPE_CHECKING:
    from ._grammar_parser import Lark, UnexpectedInput

MAX_LINE = 4096
"""The longest line a record may have, in characters."""
MAX_HEAD = 500_000
"""The most characters a game's head may have (its headers, and the comments before
them): what bounds the memory a game takes, as MAX_LINE bounds a line. Its events are
read as they are replayed, a block at a time, however many they are."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""The control characters a record cannot hold: all but the tab and the line end (the
escape sequences that drive a terminal start with one of them)."""

VERBS = (
    "holds", "plays", "draws", "slaps", "collects", "burns", "gives", "takes", "discards",
    "swaps", "passes", "says", "swears", "drinks", "beats", "refuses", "votes", "bids",
    "catches", "accuses", "scores",
)
COUNT_VERBS = frozenset({"draws", "burns", "gives", "takes", "discards", "collects", "holds"})
"""Verbs after which a bare number counts unseen cards."""
MAX_COUNT = 78
"""The most cards a count may stand for, or one line may give: a whole tarot deck."""
MAX_SIPS = 999
"""The most gorgées one drink line may write (Caroleto): far more than a round gives
anyone (docs/games/caroleto.md); a number past it is a finding, not a count."""

_NUMBERED_CARDS = {n: Card(n, NUMBERED) for n in range(1, 38) if n != 19}
"""The cards a game of numbered cards writes (Flaschenteufel's: 1 to 37, no 19)."""
_NUMBERS = {str(n): card for n, card in _NUMBERED_CARDS.items()}
"""The numbered cards by their written number, for the common case of a line of numbers."""
_COUNTS = {str(n): (UNSEEN_CARD,) * n for n in range(1, 10)}
"""The usual counts of unseen cards (``draws 2``), read without the line pattern."""


def _sips(text: str) -> bool:
    """Whether a drink's word is a number of gorgées one line may write (0 to MAX_SIPS)."""
    number = whole(text)
    return number is not None and number <= MAX_SIPS


class _Problem(Exception):
    """Raised by the builder; turned into a RecordError with the line's text."""

    def __init__(self, line: int, column: int, message: str):
        self.line, self.column, self.message = line, column, message


_ESCAPE = re.compile(r'\\([\\"])')
"""The escapes of a header value: \\" and \\\\; a backslash before anything else is itself."""
_HEADER = re.compile(r'\s*\[\s*([^\s"]+)\s*"((?:[^"\\]|\\.)*)"\s*\]\s*(;.*)?\n')
_BLANK = r"[^\S\n]"
PLAYER_NAME = re.compile(r"[^\W\d_][\w'’-]*")
"""A player's name, as the grammar's WORD reads it: a letter, then letters, digits, ' or -."""
_KEYWORD = r"(?:on|to|from|with|for)"
_LINE = re.compile(  # possessive throughout: the line is known good, nothing to try twice
    rf"{_BLANK}*+(?:(?P<marker>--){_BLANK}*+round(?:{_BLANK}++(?P<round>[+-]?\d++))?"  # a round marker
    rf"|(?P<move>\d+\.)?{_BLANK}*+(?P<time>\d+:\d+(?::\d+)?)?{_BLANK}*+(?P<player>[^\s;]++){_BLANK}++(?P<verb>[a-z]++){_BLANK}*+"
    rf"(?P<rest>(?:(?!{_KEYWORD}{_BLANK}++[^\s;])[^\s;]++{_BLANK}*+)*+)"  # cards or word
    rf"(?:for{_BLANK}++(?P<suit>[^\s;]++){_BLANK}*+)?(?:{_KEYWORD}{_BLANK}++(?P<target>[^\s;]++))?)?"  # suit, target
    rf"{_BLANK}*+(?P<comment>;[^\n]*+)?\n"
)
"""One line of the EVENTS token: an event, a round marker, a comment or a blank line
(checked already by the grammar)."""
_SPOTS = re.compile(r"\S+")
_TARGET_WORDS = frozenset({"on", "to", "from", "with"})
_VERB_SET = frozenset(VERBS)
_DIGITS = frozenset("0123456789")
_TIME_CHARACTERS = "0123456789:"
WORD_VERBS = frozenset({"says", "votes", "drinks", "scores"})
"""Verbs followed by a word (a call, a vote, an amount, a score) rather than cards."""
AMOUNTS = {"half": "half", "glass": "glass", "up": "up", "central": "central"}
"""The drinks that are not a number of gorgées (sips), as written after ``drinks``."""
SUIT_WORDS = {"pique": "S", "coeur": "H", "cœur": "H", "carreau": "D", "trefle": "C", "trèfle": "C"}
"""The suits' French names, for the suit announced with an ace (plays AD for trèfle)."""


def read_suit(text: str, french: bool = False) -> str | None:
    """The suit letter (S H D C) a letter, a symbol or a French name stands for; in French
    notation a letter is P C K T."""
    word = text.lower().rstrip("\ufe0f")
    if french and word.upper() in FRENCH_SUITS:
        return FRENCH_SUITS[word.upper()]
    if not french and word.upper() in SUITS:
        return word.upper()
    if word in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[word]
    return SUIT_WORDS.get(word.rstrip("sx"))


_Lines = tuple[list[Header], list[Event], list[Comment]]
"""What the builder makes of some lines: their headers, events and comments."""


_Token = tuple[str, int, int, int, int]
"""A token of rule ``start``: its terminal, where it begins and ends, its line and column."""
_KEPT = frozenset({"HEADER_LINE", "EVENTS", "COMMENT_LINES"})
"""The tokens of rule ``start`` that hold something (the others are blanks)."""


class _Builder:
    """Builds a game's Header, Event and Comment values from its tokens, which the grammar
    has already checked: splitting them needs no more checks."""

    verbs = {verb: verb for verb in VERBS}
    """Each verb as written to its English (canonical) form."""
    spellings = SPELLINGS
    targets = _TARGET_WORDS
    for_word = "for"
    bad_amount = "syntax.bad-amount"
    line_pattern = _LINE
    """An event line, read by the slow path (an unusual line)."""
    card_spots = _SPOTS
    """Where each card of a list starts."""

    def __init__(self) -> None:
        super().__init__()
        self.offset = 0
        self.numbered = False
        self.comments = True
        """Whether to build the lines that are only a comment (a replay needs none)."""

    def read(self, text: str, lexer: re.Pattern[str]) -> _Lines | int:
        """Whole lines read as Lark's parser reads them with rule ``start`` (``lexer``: its
        lexer), or the number (from 1) of the first line it refuses. As in Lark, every
        token is lexed before the builder splits any."""
        tokens: list[_Token] = []
        pos, line, column, end = 0, 1, 1, len(text)
        while pos < end:
            found = lexer.match(text, pos)
            if found is None:
                return line
            kind, after = found.lastgroup, found.end()
            if kind in _KEPT:
                tokens.append((kind, pos, after, line, column))
            newlines = text.count("\n", pos, after)
            if newlines:
                line += newlines
                column = after - text.rfind("\n", pos, after)
            else:
                column += after - pos
            pos = after
        headers: list[Header] = []
        events: list[Event] = []
        comments: list[Comment] = []
        for kind, begin, after, line, column in tokens:
            self._take(kind, text[begin:after], line, column, headers, events, comments)
        return headers, events, comments

    def start(self, tokens: list[Any]) -> _Lines:
        """Lark's callback for rule ``start`` (its tokens: Lark's Token, a str with its
        terminal, line and column), for the tests that read with Lark's parser."""
        headers: list[Header] = []
        events: list[Event] = []
        comments: list[Comment] = []
        for token in tokens:
            self._take(token.type, str(token), token.line, token.column, headers, events, comments)
        return headers, events, comments

    def _take(self, kind: str, text: str, line: int, column: int,
              headers: list[Header], events: list[Event], comments: list[Comment]) -> None:
        """One token of rule ``start``, at ``line`` (of the text read) and ``column``."""
        if kind == "HEADER_LINE":
            header = _HEADER.match(text)
            assert header is not None  # the grammar read it so
            tag, value, comment = header.groups()
            if "\\" in value:
                value = _ESCAPE.sub(r"\1", value)
            headers.append(Header(tag, value, line + self.offset, column + text.index("["), comment))
        else:  # EVENTS, or COMMENT_LINES: a comment and the quiet lines after it
            self._events(text, line + self.offset, column, events, comments)

    def _events(self, token: str, line: int, column: int, events: list[Event], comments: list[Comment]) -> None:
        """The events and comments of a run of lines (checked already by the grammar), each
        line split in plain Python; an unusual one (a round marker, an announced suit, a
        bare number, a drink in words) is read with the line pattern."""
        commented = ";" in token
        for text in token.split("\n"):
            cut = text.find(";") if commented else -1
            comment = None
            if cut >= 0:
                text, comment = text[:cut], text[cut:]
            parts = text.split()
            if not parts:
                if comment is not None and self.comments:
                    comments.append(Comment(comment, line, cut + column))
            elif (event := self._split(parts, text, column, line, comment)) is not None:
                events.append(event)
            else:
                self._slow(text + (comment or ""), column, line, events, comments)
            line += 1
            column = 1

    def _split(self, parts: list[str], text: str, column: int, line: int, comment: str | None) -> Event | None:
        """An event line split on its blanks; None if it is one for the line pattern. The
        grammar has read the line: a first word of digits and colons is its time (a name
        begins with a letter)."""
        move = time = None
        if parts[0][0] in _DIGITS:
            if parts[0][-1] == "." and is_digits(parts[0][:-1]):
                move = parts.pop(0)
            if parts and not parts[0].strip(_TIME_CHARACTERS):
                time = parts.pop(0)
            if not parts or parts[0][0] in _DIGITS:
                return None
        if len(parts) < 2 or (verb := self.verbs.get(parts[1])) is None or parts[0][0] == "-":
            return None
        player = parts[0]
        at = text.find(player, text.find(time) + len(time)) if time is not None else text.find(player)
        place = at + column
        if len(parts) == 2:
            return Event(player, verb, line, place, (), "", 0, None, None, move, time, comment)
        rest = parts[2:]
        if verb in TARGET_VERBS:
            return Event(player, verb, line, place, (), "", 0, rest[0], None, move, time, comment)
        if verb in WORD_VERBS:
            word = rest[0]
            if (verb == "drinks" and (len(rest) > 1 or not _sips(word))) or (verb == "scores" and signed(word) is None):
                return None  # the line pattern reads it, and says what is wrong
            return Event(player, verb, line, place, (), "", 0, None, word, move, time, comment)
        target = None
        if len(rest) >= 2 and rest[-2] in self.targets:
            target, rest = rest[-1], rest[:-2]
        if len(rest) >= 2 and rest[-2] == self.for_word:
            return None
        if not rest:
            return Event(player, verb, line, place, (), "", 0, target, None, move, time, comment)
        if len(rest) > MAX_COUNT:  # the pattern's reading says where the cards become too many
            return None
        start = text.find(rest[0], at + len(player) + len(parts[1]))
        if len(rest) == 1:  # most lines: one card
            card = self._card(rest[0], verb)
            if card is None:
                return None
            cards: tuple[Card, ...] = card
            return Event(player, verb, line, place, cards, rest[0], start + column, target, None, move, time, comment)
        spelt = tuple(map(self.spellings.get, map(str.upper, rest)))
        if None not in spelt:
            cards = cast(tuple[Card, ...], spelt)  # every word a card
        elif (numbers := self._numbers(rest, verb)) is not None:
            cards = numbers
        else:
            return None
        end = start + len(rest[0])
        for word in rest[1:]:
            end = text.find(word, end) + len(word)
        return Event(player, verb, line, place, cards, text[start:end], start + column, target, None, move, time, comment)

    def _card(self, word: str, verb: str) -> tuple[Card, ...] | None:
        """The cards one word stands for (a card, a Flaschenteufel number, a count of unseen
        cards); None for the line pattern."""
        if self.numbered and (number := _NUMBERS.get(word)) is not None:
            return (number,)
        card = self.spellings.get(word)  # the spellings are upper case, as cards are mostly written
        if card is None:
            card = self.spellings.get(word.upper())
        if card is not None:
            return (card,)
        return self._numbers([word], verb)

    def _numbers(self, words: list[str], verb: str) -> tuple[Card, ...] | None:
        """Cards written as numbers: Flaschenteufel's, or a count of unseen cards (``draws
        2``); None for the line pattern (a number that is neither, or mixed with cards)."""
        if self.numbered:
            cards = tuple(_NUMBERS.get(word) for word in words)
            return None if None in cards else cast(tuple[Card, ...], cards)  # no None: every word a card
        if verb in COUNT_VERBS and len(words) == 1 and words[0] in _COUNTS:
            return _COUNTS[words[0]]
        return None

    def _slow(self, text: str, column: int, line: int, events: list[Event], comments: list[Comment]) -> None:
        """One line read with the line pattern; ``column``: the column of its first character."""
        match = self.line_pattern.match(text + "\n")
        assert match is not None  # the grammar read the line: the pattern does
        shift = column - 1
        if match.group("player") is not None:
            events.append(self._event(match, line, shift + 1))
        elif match.group("marker") is not None:
            events.append(self._marker(match, line, shift + 1))
        elif self.comments and match.group("comment") is not None:
            comments.append(Comment(match.group("comment"), line, match.start("comment") + shift + 1))

    def _marker(self, match: re.Match[str], line: int, shift: int) -> Event:
        """``-- round 2``: a round begins (its number, when given, is a whole number from 1)."""
        number = match.group("round")
        column = match.start("marker") + shift
        if number is not None and (whole(number) or 0) < 1:
            key = "syntax.number-too-long" if too_long(number) else "syntax.round-number"
            raise _Problem(line, match.start("round") + shift, say(key, got=shown(number), limit=MAX_DIGITS))
        return Event("", "round", line, column, word=number, comment=match.group("comment"))

    def _event(self, match: re.Match[str], line: int, shift: int) -> Event:
        move, time, player, verb, rest, suit, target, comment = match.group(
            "move", "time", "player", "verb", "rest", "suit", "target", "comment")
        verb = self.verbs[verb]
        rest = rest.rstrip()
        column = match.start("player") + shift
        if verb in WORD_VERBS:
            if verb == "drinks":
                rest = self._drink(rest, line, match.start("rest") + shift)
            elif verb == "scores" and signed(rest) is None:
                key = "syntax.number-too-long" if too_long(rest) else "syntax.bad-score"
                raise _Problem(line, match.start("rest") + shift, say(key, got=shown(rest), limit=MAX_DIGITS))
            return Event(player, verb, line, column, (), "", 0, None, rest, move, time, comment)
        if verb in TARGET_VERBS:
            return Event(player, verb, line, column, (), "", 0, rest, None, move, time, comment)
        if suit is not None:
            suit = self._suit(suit)
        if not rest:
            return Event(player, verb, line, column, (), "", 0, target, None, move, time, comment, suit)
        at = match.start("rest") + shift
        return Event(player, verb, line, column, self._cards(rest, verb, line, at), rest, at, target, None, move, time, comment, suit)

    def _drink(self, text: str, line: int, column: int) -> str:
        """A drink's amount as its event keeps it: a number of gorgées (digits 0 to 9, at
        most MAX_SIPS), or the word of an amount; a _Problem for anything else."""
        amount = text if is_digits(text) else self._amount(text)
        if amount is None:
            raise _Problem(line, column, say("syntax.number-not-ascii" if text.isdigit() else self.bad_amount, got=text))
        if is_digits(amount) and not _sips(amount):
            raise _Problem(line, column, say("syntax.drink-too-large", got=shown(amount), limit=MAX_SIPS))
        return amount

    @staticmethod
    def _amount(text: str) -> str | None:
        """What a drink in words stands for (half, glass, up, central); None if nothing."""
        return AMOUNTS.get(text.lower())

    @staticmethod
    def _suit(text: str) -> str | None:
        return read_suit(text)

    def _cards(self, text: str, verb: str, line: int, column: int) -> tuple[Card, ...]:
        card = self.spellings.get(text.upper())
        if card is not None:
            return (card,)
        if self.numbered:
            numbers = [_NUMBERS.get(word) for word in text.split()]
            if None not in numbers:
                return tuple(cast(list[Card], numbers))  # no None: every word a card
        cards: list[Card] = []
        for spot in self.card_spots.finditer(text):
            word = spot.group()
            card = self.spellings.get(" ".join(word.split()).upper())
            if card is None:
                cards.extend(self._number(word, verb, line, column + spot.start()))
            else:
                cards.append(card)
            if len(cards) > MAX_COUNT:  # no deck holds more: and a line's cards stay few
                raise _Problem(line, column + spot.start(), say("syntax.too-many-cards", limit=MAX_COUNT))
        return tuple(cards)

    def _number(self, word: str, verb: str, line: int, column: int) -> list[Card]:
        """The cards a number written for cards stands for (the grammar read digits)."""
        number = whole(word)
        if number is None:  # more digits than any count: as a number too high
            number = MAX_COUNT + 100
        if self.numbered:
            if number not in _NUMBERED_CARDS:
                raise _Problem(line, column, say("syntax.not-a-number-card", got=shown(word)))
            return [_NUMBERED_CARDS[number]]
        if verb in COUNT_VERBS and number <= MAX_COUNT:
            return [UNSEEN_CARD] * number
        if verb in COUNT_VERBS:
            raise _Problem(line, column, say("syntax.count-too-large", got=shown(word), limit=MAX_COUNT))
        raise _Problem(line, column, say("syntax.number-not-card" if 1 <= number <= 10 else "syntax.number-too-high", got=shown(word)))


_FRENCH_CARD_NAME = r"(?:as|roi|dame|valet|cavalier|10|[1-9])[^\S\n]++de[^\S\n]++(?:piques?|c(?:oe|œ)urs?|carreaux?|tr[eè]fles?)"
"""A card by its full French name: dame de pique, 10 de trèfle."""
_FRENCH_KEYWORD = r"(?:sur|à|avec|pour)"
_FRENCH_AMOUNT = re.compile(r"([0-9]+)[^\S\n]++gorg[ée]es?", re.IGNORECASE)


class _FrenchBuilder(_Builder):
    """The builder of a record in French notation ([Notation "fr"]): French verbs, cards
    and words, read into the same (English, canonical) events."""

    verbs = FRENCH_VERBS
    spellings = FRENCH_SPELLINGS
    targets = FRENCH_TARGET_WORDS
    for_word = FRENCH_FOR
    bad_amount = "syntax.bad-amount-french"
    card_spots = re.compile(rf"{_FRENCH_CARD_NAME}|\S+", re.IGNORECASE)
    line_pattern = re.compile(
        _LINE.pattern.replace("*+round(?:", f"*+{FRENCH_ROUND}(?:").replace(_KEYWORD, _FRENCH_KEYWORD)
        .replace("(?:for", f"(?:{FRENCH_FOR}").replace("(?P<verb>[a-z]++)", "(?P<verb>[^\\W\\d_]++)"))

    @staticmethod
    def _amount(text: str) -> str | None:
        """A drink in French words: 3 gorgées, la moitié, un verre, son verre, le verre au centre."""
        number = _FRENCH_AMOUNT.fullmatch(text)
        if number is not None:
            return number.group(1)
        return FRENCH_AMOUNTS.get(" ".join(text.lower().split()))

    @staticmethod
    def _suit(text: str) -> str | None:
        return read_suit(text, french=True)


_FRENCH_TERMINALS = {
    **{verb.upper(): "|".join(sorted((w for w, v in FRENCH_VERBS.items() if v == verb), key=len, reverse=True))
       for verb in VERBS},
    "ON": "sur", "FOR": FRENCH_FOR, "TO": "à", "FROM": "à", "WITH": "avec", "ROUND": FRENCH_ROUND,
}
"""The grammar's words in French notation: each verb's terminal reads its French forms."""
_FRENCH_LINES = {
    "_RANK: /10|[2-9]|[1ajqkvdrc]/i": "_RANK: /10|[2-9]|[1avdrc]/i",
    "_SUIT: /[shdc]/i | _SYMBOL": "_SUIT: /[pckt]/i | _SYMBOL",
    # a card's full name last (a number before « de » is no count): tried first, it cost 4% of the reading
    '"??" | /[0-9]+/)': f'"??" | /[0-9]+(?![^\\S\\n]+de[^\\S\\n])/ | /{_FRENCH_CARD_NAME}/i)',
    "SUIT: (/[shdc]/i |": "SUIT: (/[pckt]/i |",
    r"AMOUNT: /(?:[0-9]+|[^\W\d_]+)/": r"AMOUNT: /[0-9]+(?:[^\S\n]++gorg[ée]es?)?|(?:(?:la|un|son|le)[^\S\n]++)?[^\W\d_][\w-]*+(?:[^\S\n]++au[^\S\n]++centre)?/i",
}
"""The grammar's cards, suits and drinks, rewritten for French notation."""


def french_grammar(grammar: str) -> str:
    """The grammar of French notation: the same rules, with French words, letters and
    drinks; a line of the grammar that is not found any more is an error, not a silent
    English word in a French record."""
    for old, new in _FRENCH_LINES.items():
        if old not in grammar:
            raise ValueError(f"grammar/record.lark: {old!r} not found")
        grammar = grammar.replace(old, new)
    for name, words in _FRENCH_TERMINALS.items():
        grammar, found = re.subn(rf"^{name}: /[a-z]+/ _W$", f"{name}: /(?:{words})/ _W", grammar, flags=re.MULTILINE)
        if found != 1:
            raise ValueError(f"grammar/record.lark: the terminal {name} not found")
    return grammar


@lru_cache(maxsize=2)
def builder_for(french: bool) -> tuple[re.Pattern[str], _Builder]:
    """The lexer of rule ``start`` and the builder of a notation: English, or French
    ([Notation "fr"])."""
    return (re.compile(_FRENCH_START), _FrenchBuilder()) if french else (re.compile(_ENGLISH_START), _Builder())


# The parsers are Lark's stand-alone ones, generated from the grammar with their tables
# (grammar/generate.py): they are imported only to say what is wrong with a line.
@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, _Builder]:
    from ._grammar_parser import Lark_StandAlone

    builder = builder_for(False)[1]
    return Lark_StandAlone(transformer=builder), builder


@lru_cache(maxsize=1)
def _french_parser() -> tuple[Lark, _Builder]:
    from . import _grammar_parser_fr as tables
    from ._grammar_parser import Lark_StandAlone

    builder = builder_for(True)[1]
    return Lark_StandAlone(tables.DATA, tables.MEMO, transformer=builder), builder


def parser_for(french: bool) -> tuple[Lark, _Builder]:
    """Lark's parser and the builder of a notation: English, or French ([Notation "fr"])."""
    return _french_parser() if french else _parser()


# --- Cutting a file into games --------------------------------------------------------

BLOCK = 1 << 16
"""Bytes read at a time: a file is read in blocks, whatever its line ends."""
_ASCII = bytes(range(128))
_MAYBE_DECOMPOSED = re.compile(rb"[\xcc-\xe1\xe3-\xee\xf0-\xf4]|\xe2(?!\x99[\xa0-\xa7]|\x80[\x90-\xa7])|\xef(?!\xb8\x8f)")
"""Among a text's non-ASCII bytes, the UTF-8 lead byte of a character from U+0300 on,
but for the suit symbols (U+2660 to U+2667), the emoji selector after them (U+FE0F) and
the dashes, quotes and ellipsis of U+2010 to U+2027 (– — ’ “ ” …):
a text with none is in NFC already (every character before U+0300 is, and so is every
sequence of them: all that composes with a letter, an accent first, is U+0300 or later;
the suits, the selector and the punctuation compose with nothing). Far cheaper than
``unicodedata.is_normalized`` on a record full of é, ♥ or ’."""
QUIET_RUN = 1 << 14
"""Characters of comments after a game's last event held back, in case they begin the
next game; past that, they are read with the game they follow."""
# Patterns searched over a whole game: none crosses a line end, none tries a run of
# blanks at more than one length (a \\s* at each of a million blank lines took minutes).
_HEADER_START = re.compile(r"^[^\S\n]*+\[", re.MULTILINE)
_EVENT_START = re.compile(r"^[^\S\n]*+[^\s;\[]", re.MULTILINE)
_QUIET_LINE = re.compile(r"[^\S\n]*+(;[^\n]*+)?\n")


class _Segment:
    """Whole lines of one game (each ending in LF), from line ``start`` of the file: its
    head (``head``: the lines before its first event) or a stretch of its events."""

    def __init__(self, head: bool, start: int, text: str) -> None:
        self.head = head
        self.start = start
        self.text = text


class Readable(Protocol):
    """A binary stream to read a record from (a file, stdin's buffer, BytesIO): ``read``
    gives bytes, empty at the end, or None when a non-blocking stream has none yet."""

    def read(self, size: int, /) -> bytes | None: ...


def empty_file(path: str) -> RecordError:
    """The error of a file with nothing in it but white space: "an empty file"."""
    nothing = RecordError(path, 0, 0, say("file.nothing"))
    nothing.empty = True
    return nothing


def _noting_text(texts: Iterator[str], written: list[bool]) -> Iterator[str]:
    """``texts``, passed on; ``written[0]`` becomes True at the first that is not all white space."""
    for text in texts:
        if not written[0] and not text.isspace():
            written[0] = True
        yield text


def _texts(path: str, stream: Readable) -> Iterator[str]:
    """The text of a binary stream in pieces of whole lines, line ends made LF (from LF,
    CRLF or CR); a RecordError, once the good lines before it are given, for bad bytes
    and for a line too long to be a record's."""
    lines, rest, first = 0, b"", True
    while True:
        try:
            block = stream.read(BLOCK)
        except (OSError, ValueError) as error:  # a device that fails, a stream not open for reading
            raise RecordError(path, 0, 0, say("file.unreadable", reason=unreadable_reason(error))) from None
        if block is None:  # a non-blocking stream with nothing to give yet
            raise RecordError(path, 0, 0, say("file.unreadable", reason=say("file.not-ready")))
        raw = rest + block
        if first and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        elif first and (wide := _wide_encoding(raw)) is not None:
            raise RecordError(path, 1, 1, say(wide[0], **wide[1]))
        first = False
        if block:  # a CR at the end may be the first half of a CRLF
            cut = max(raw.rfind(b"\n"), raw.rfind(b"\r", 0, len(raw) - 1)) + 1
        else:
            raw, cut = (raw + b"\n", len(raw) + 1) if raw and not raw.endswith((b"\n", b"\r")) else (raw, len(raw))
        whole, rest = raw[:cut], raw[cut:]
        problem = _bad_bytes(path, lines, whole)
        if problem is not None:
            good, failure = problem
            if good:
                yield good
            raise failure
        text = whole.decode("utf-8")
        if not text.isascii() and _MAYBE_DECOMPOSED.search(whole.translate(None, _ASCII)) and not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)  # a name typed decomposed (Zoe + U+0301) reads as Zoé
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if len(text) > MAX_LINE and _has_long_line(text):
            number, long = next((i, t) for i, t in enumerate(text.split("\n")) if len(t) > MAX_LINE)
            if number:
                yield "\n".join(text.split("\n")[:number]) + "\n"
            raise RecordError(path, lines + number + 1, MAX_LINE + 1, say("syntax.line-too-long", length=len(long), limit=MAX_LINE))
        if len(rest) > MAX_LINE * 4:
            if text:
                yield text
            raise RecordError(path, lines + text.count("\n") + 1, MAX_LINE + 1,
                              say("syntax.line-too-long", length=f"over {MAX_LINE}", limit=MAX_LINE))
        if text:
            yield text
            lines += text.count("\n")
        if not block:
            return


_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32", "little-endian"), (b"\x00\x00\xfe\xff", "UTF-32", "big-endian"),
    (b"\xff\xfe", "UTF-16", "little-endian"), (b"\xfe\xff", "UTF-16", "big-endian"),
)
_WIDE = (  # which bytes of each 4 are nearly all NUL in mostly-ASCII text, which nearly never
    ((1, 2, 3), (0,), "UTF-32", "little-endian"), ((0, 1, 2), (3,), "UTF-32", "big-endian"),
    ((1, 3), (0, 2), "UTF-16", "little-endian"), ((0, 2), (1, 3), "UTF-16", "big-endian"),
)


def _wide_encoding(raw: bytes) -> tuple[str, dict[str, str]] | None:
    """The message for text in UTF-16 or UTF-32 (by its byte-order mark, or without one by
    where its NUL bytes fall), None for anything else."""
    for bom, name, order in _BOMS:
        if raw.startswith(bom):
            return f"file.{name.lower().replace('-', '')}", {"encoding": f"{name} ({order})"}
    sample = raw[:4096]
    if len(sample) < 4 or b"\0" not in sample:
        return None
    zeros = [sample[i::4].count(0) / len(sample[i::4]) for i in range(4)]
    for nul, text, name, order in _WIDE:
        if min(zeros[i] for i in nul) > 0.8 and max(zeros[i] for i in text) < 0.2:
            return f"file.{name.lower().replace('-', '')}", {"encoding": f"{name} ({order}, without a byte-order mark)"}
    return None


def _bad_bytes(path: str, lines: int, raw: bytes) -> tuple[str, RecordError] | None:
    """For bytes that are not UTF-8 text: the good lines before the bad one, and the error
    (binary data when the bad line holds a NUL byte)."""
    nul = raw.find(b"\0")
    try:
        raw.decode("utf-8")
        bad = -1
    except UnicodeDecodeError as error:
        bad = error.start
    if nul < 0 and bad < 0:
        return None
    first = min(p for p in (nul, bad) if p >= 0)
    begin = max(raw.rfind(b"\n", 0, first), raw.rfind(b"\r", 0, first)) + 1
    binary = nul >= 0 and not re.search(rb"[\r\n]", raw[begin:nul])
    spot = nul if binary else bad
    good = raw[:begin].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    column = len(raw[begin:spot].decode("utf-8", "replace")) + 1
    message = say("file.binary") if binary else say("file.not-utf8", byte=raw[spot])
    return good, RecordError(path, lines + good.count("\n") + 1, column, message)


def _has_long_line(text: str) -> bool:
    """Whether a line of ``text`` is longer than MAX_LINE (found from line end to line end,
    without cutting the text into lines)."""
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        if stop < 0:
            stop = end
        if stop - start > MAX_LINE:
            return True
        start = stop + 1
    return False


def _segments(texts: Iterable[str]) -> Iterator[_Segment | RecordError]:
    """The games of a file as segments of whole lines: each game's head (what comes before
    its first event: its headers, with the comments before them), then its events in
    stretches as long as the blocks read. A header line after an event starts the next
    game; the comments just before it go with that game. Blank lines before a game's
    first line are counted, never kept; a run of comments between games longer than
    MAX_HEAD stays with the game before. A head longer than MAX_HEAD is a RecordError,
    and the rest of that game is skipped."""
    head: list[str] = []
    size, start, line = 0, 1, 1  # the head's length and first line; the line at ``pos``
    in_head, skipping = True, False
    quiet, quiet_start = "", 1  # the comments (and blank lines among them) after the last event
    for piece in texts:
        pos = 0
        while pos < len(piece):
            if in_head:
                event = _EVENT_START.search(piece, pos)
                end = event.start() if event is not None else len(piece)
                if not size:  # leading blank lines are counted, not kept
                    begin = _first_kept_line(piece, pos, end)
                    line += piece.count("\n", pos, begin)
                    start, pos = line, begin
                head.append(piece[pos:end])
                size += end - pos
                line += piece.count("\n", pos, end)
                if size > MAX_HEAD and not skipping:
                    yield RecordError("", start, 1, say("syntax.head-too-long", limit=MAX_HEAD), head[0][:head[0].find("\n") + 1])
                    head, size, skipping = [], 1, True
                elif skipping:
                    head, size = [], 1
                if event is None:
                    break
                if not skipping:
                    yield _Segment(True, start, "".join(head))
                head, size, in_head, pos = [], 0, False, end
                quiet, quiet_start = "", line
                continue
            header = _HEADER_START.search(piece, pos)
            end = header.start() if header is not None else len(piece)
            cut = _quiet_lines_before(piece, pos, end)
            if cut > pos:
                if not skipping:
                    yield _Segment(False, quiet_start, quiet + piece[pos:cut])
                line += piece.count("\n", pos, cut)
                quiet, quiet_start = "", line
            if not quiet:  # a run of quiet lines starts: its leading blank lines are not kept
                begin = _first_kept_line(piece, cut, end)
                line += piece.count("\n", cut, begin)
                quiet_start, cut = line, begin
            quiet += piece[cut:end]
            line += piece.count("\n", cut, end)
            if len(quiet) > QUIET_RUN:  # a long run of comments: it stays with this game
                if not skipping:
                    yield _Segment(False, quiet_start, quiet)
                quiet, quiet_start = "", line
            if header is None:
                break
            head, size, start, in_head, skipping = [quiet], len(quiet), quiet_start, True, False
            quiet, pos = "", end
    if in_head and size and not skipping:
        yield _Segment(True, start, "".join(head))
    elif quiet and not skipping:
        yield _Segment(False, quiet_start, quiet)


def game_starts(text: str) -> list[int]:
    """The line where each game of a record given as text (whole lines, LF line ends)
    starts, as the reader cuts a file into games, without parsing a line of it: an
    editor re-reads only the game that changed."""
    return [s.start for s in _segments([text]) if isinstance(s, _Segment) and s.head]


def _first_kept_line(piece: str, low: int, high: int) -> int:
    """Where the blank lines that open ``piece[low:high]`` end: the start of the line of
    its first other character, or ``high`` when it is all blank."""
    kept = len(piece[low:high].lstrip(" \t\n"))
    return max(low, piece.rfind("\n", low, high - kept) + 1) if kept else high


def _quiet_lines_before(text: str, low: int, at: int) -> int:
    """Where the comments and blank lines just before position ``at`` begin."""
    while at > low:
        begin = text.rfind("\n", 0, at - 1) + 1
        if not _QUIET_LINE.fullmatch(text, begin, at):
            return at
        at = begin
    return at


def _diagnose(parser: Lark, source: str, french: bool = False) -> tuple[int, str]:
    """A line the fast reading refused, read again token by token to find the spot."""
    from ._grammar_parser import UnexpectedInput

    try:
        parser.parse(source, start="line")
    except UnexpectedInput as error:
        return explain(error, source, french)
    return 1, say("syntax.expected", expected=say("expect.event"), got=source.strip())


def unreadable_reason(error: Exception) -> str:
    """Why a file cannot be read, in a few words: the common ones in the language in use,
    else the system's own, when it gives them."""
    key = SYSTEM_REASONS.get(getattr(error, "errno", None) or 0)
    return say(key) if key else getattr(error, "strerror", None) or str(error) or type(error).__name__


SYSTEM_REASONS = {errno.ENOENT: "reason.not-found", errno.EACCES: "reason.denied", errno.EPERM: "reason.denied",
                  errno.EISDIR: "reason.directory", errno.ENOTDIR: "reason.not-directory"}
"""The system's errors a user meets most, said from the catalogue rather than in the
system's English."""


def read_games(path: str, stream: Readable | None = None, lazy: bool = False, match_games: dict[str, str] | None = None,
               first_line: int = 1, match_french: dict[str, bool] | None = None,
               comments: bool | None = None) -> Iterator[Record | RecordError]:
    """The games of a file, one at a time. A game with a line that cannot be read comes
    as that RecordError (the first such line), and reading goes on with the next game; a
    file that cannot be decoded ends with a RecordError.

    ``lazy``: each game comes as a Record whose events are read as they are replayed
    (``Record.batches``), the lines that cannot be read among them, and a game holds no
    more memory than a block of its lines however long it is; its batches must be taken
    before the next game is asked for.

    ``match_games``: the game of each match met before the text read (a hand that does not
    name its game plays its match's), ``match_french`` whether each is written in French
    notation (a hand that gives no [Notation] is written as its match), and ``first_line``
    the number of its first line in the file, for a part of a file read on its own.
    ``comments``: whether the comment lines among a lazy game's events are kept in its
    batches (by default only a game read whole keeps them: a replay needs none; ``fmt``
    and ``export`` write them)."""
    opened: BinaryIO | None = None
    if stream is None:
        try:
            stream = opened = open(path, "rb")
        except OSError as error:
            yield RecordError(path, 0, 0, say("file.unreadable", reason=unreadable_reason(error)))
            return
    try:
        found = False
        written = [False]
        segments = _segments(_noting_text(_texts(path, stream), written))
        reader = _Reader(path, segments if first_line == 1 else _shifted(segments, first_line - 1), comments=not lazy if comments is None else comments)
        reader.match_games.update(match_games or {})
        reader.match_french.update(match_french or {})
        for record in reader:
            found = True
            if isinstance(record, RecordError) or lazy:
                yield record
                reader.skip()
                continue
            record.seen = deque()
            for batch in reader.body(record):
                record.events += batch.events
                record.comments += batch.comments
                record.errors += batch.errors[: ERRORS_KEPT - len(record.errors)]
                record.seen.append(Batch(batch.start, batch.text, [], [], []))
            record.batches = None
            if record.errors:
                yield record.errors[0]
            else:
                yield record
        if not found and written[0]:
            yield RecordError(path, 1, 1, say("file.empty"))
        elif not found:
            yield empty_file(path)
    finally:
        if opened is not None:
            opened.close()


def _shifted(segments: Iterator[_Segment | RecordError], by: int) -> Iterator[_Segment | RecordError]:
    """Segments of a part of a file, numbered as the file's lines (``by`` lines before it)."""
    try:
        for segment in segments:
            if isinstance(segment, _Segment):
                segment.start += by
            elif segment.line:
                segment.line += by
            yield segment
    except RecordError as error:  # bytes that are not text, a line too long: where in the file
        if error.line:
            error.line += by
        raise


class _Reader:
    """Records from a file's segments, one game at a time, each line read by the parser;
    a line it refuses is a RecordError and the reading goes on with the next line."""

    def __init__(self, path: str, segments: Iterator[_Segment | RecordError], comments: bool = True):
        self.path = path
        self.comments = comments
        """Whether to keep the comment lines among the events (a replay needs none)."""
        self.heading = False
        """Reading a head: its comments are kept whatever ``comments`` says."""
        self.segments = segments
        self.waiting: _Segment | RecordError | None = None
        self.match_games: dict[str, str] = {}
        """The game of each match met so far (a hand that does not name its game plays it)."""
        self.match_french: dict[str, bool] = {}
        """Whether each match met so far is written in French notation."""
        self.numbered = False
        self.french = False
        """Whether the current game is written in French notation ([Notation "fr"])."""

    def _next(self) -> _Segment | RecordError | None:
        item, self.waiting = self.waiting, None
        if item is None:
            try:
                item = next(self.segments, None)
            except RecordError as error:  # bytes that are not text: the file ends here
                item = error
        if isinstance(item, RecordError) and not item.path:
            item.path = self.path
        return item

    def __iter__(self) -> Iterator[Record | RecordError]:
        while (item := self._next()) is not None:
            if isinstance(item, RecordError):
                yield item
            elif not item.head:
                event = _EVENT_START.search(item.text)
                assert event is not None  # a stretch of events holds one
                number = item.start + item.text[: event.start()].count("\n")
                yield RecordError(self.path, number, 1, say("syntax.no-headers"), _line_of(item.text, item.start, number))
                self.skip()
            elif (record := self._head(item)) is not None:
                yield record

    def _head(self, segment: _Segment) -> Record | RecordError | None:
        """A game's record from its head; None for a head with no header (comments at the
        end of a file)."""
        self.heading = True
        headers, _, comments, errors = self._lines(segment.text, segment.start)
        self.heading = False
        if not headers and not errors:
            return None
        if not headers:
            return errors[0]
        by_tag = {h.key: h.value for h in reversed(headers)}
        game, match = by_tag.get("game"), by_tag.get("match")
        name = game if game is not None else self.match_games.get(match) if match is not None else None
        if match is not None and name is not None:
            self.match_games[match] = name
        self.numbered = numbers_are_cards(name)
        notation = by_tag.get("notation")
        self.french = (is_french(notation) if notation is not None
                       else self.match_french.get(match, False) if match is not None else False)
        if match is not None:
            self.match_french[match] = self.french
        record = Record(self.path, headers[0].line, headers, [], comments, segment.text, segment.start)
        record.french = self.french
        record.errors, record.error_count = errors[:ERRORS_KEPT], len(errors)
        record.batches = self.body(record)
        return record

    def body(self, record: Record) -> Iterator[Batch]:
        """The events of the game just begun, a segment at a time."""
        while (item := self._next()) is not None:
            if isinstance(item, RecordError) or item.head:
                self.waiting = item
                return
            _, events, comments, errors = self._lines(item.text, item.start)
            yield Batch(item.start, item.text, events, comments, errors)

    def skip(self) -> None:
        """Pass over what is left of the current game."""
        while (item := self._next()) is not None:
            if isinstance(item, RecordError) or item.head:
                self.waiting = item
                return

    def _lines(self, text: str, start: int) -> tuple[list[Header], list[Event], list[Comment], list[RecordError]]:
        """Read whole lines, from line ``start`` of the file. A line the parser refuses is
        a RecordError, and the reading goes on after it: the lines are read again in
        stretches that start at one line after an error and double, so that reading stays
        linear however many lines are refused."""
        found: tuple[list[Header], list[Event], list[Comment], list[RecordError]] = ([], [], [], [])
        control = _CONTROL.search(text)
        if control is None and (whole := self._parse(text, start)) is not None:
            return (*whole, [])
        ends = [m.end() for m in re.finditer("\n", text)]
        begins = [0, *ends[:-1]]
        i, step = 0, len(ends)
        while i < len(ends):
            j = min(len(ends), i + step)
            piece = text[begins[i]:ends[j - 1]]
            bad, error = self._first_error(piece, start + i)
            if bad is None or error is None:  # both None, or neither
                parsed = self._parse(piece, start + i)
                assert parsed is not None  # _first_error read it whole
                self._add(found, parsed)
                i, step = j, step * 2
                continue
            if bad > start + i:
                before = self._parse(text[begins[i]:ends[bad - start - 1]], start + i)
                if before is None:  # a line before it fails too (the builder checks after the lexer):
                    step = bad - start - i  # read up to the bad line again, to find the first
                    continue
                self._add(found, before)
            found[3].append(error)
            i, step = bad - start + 1, 1
        return found

    @staticmethod
    def _add(found: tuple[list[Header], list[Event], list[Comment], list[RecordError]], parsed: _Lines) -> None:
        found[0].extend(parsed[0])
        found[1].extend(parsed[1])
        found[2].extend(parsed[2])

    def _parse(self, text: str, start: int) -> _Lines | None:
        """The lines read, or None if one cannot be."""
        try:
            read = self._read(text, start)
        except _Problem:
            return None
        return None if isinstance(read, int) else read

    def _read(self, text: str, start: int) -> _Lines | int:
        """The lines read (a _Problem raised for one the builder refuses), or the number
        (from 1) of the first line the grammar refuses."""
        lexer, builder = builder_for(self.french and not self.heading)
        builder.offset, builder.numbered, builder.comments = start - 1, self.numbered, self.comments or self.heading
        return builder.read(text, lexer)

    def _first_error(self, text: str, start: int) -> tuple[int | None, RecordError | None]:
        """The first line of ``text`` that cannot be read (by its number in the file), and
        why; (None, None) when every line can."""
        control = _CONTROL.search(text)
        limit = len(text) if control is None else text.find("\n", control.start()) + 1
        at = None if control is None else start + text.count("\n", 0, control.start())
        try:
            read = self._read(text[:limit], start)
        except _Problem as problem:
            if problem.line != at:  # on the control character's line, that is what to say
                source = _line_of(text, start, problem.line)
                return problem.line, RecordError(self.path, problem.line, problem.column, problem.message, source)
        else:
            if isinstance(read, int) and (number := read + start - 1) != at:
                source = _line_of(text, start, number)
                column, message = _diagnose(parser_for(self.french and not self.heading)[0], source, self.french)
                return number, RecordError(self.path, number, column, message, source)
        if control is None or at is None:  # at is None exactly when control is
            return None, None
        column = control.start() - text.rfind("\n", 0, control.start())
        code = f"U+{ord(control.group()):04X}"
        return at, RecordError(self.path, at, column, say("syntax.control-character", code=code), _line_of(text, start, at))


def _line_of(text: str, start: int, number: int) -> str:
    """Line ``number`` of the file, from ``text`` (whole lines from line ``start``), with its LF."""
    return lines_at(text, start, (number,)).get(number, "") + "\n"


def parse_text(text: str, path: str = "<text>") -> list[Record | RecordError]:
    """Every game of a record given as text."""
    import io

    return list(read_games(path, io.BytesIO(text.encode("utf-8"))))


# --- Syntax errors in player terms ------------------------------------------------------

_EXPECTED_WORDS = {
    "CARDS": "expect.card", "WORD": "expect.name", "_NL": "expect.eol", "COMMENT": "expect.eol",
    "MOVE": "expect.move", "TIME": "expect.time",
    "STRING": "expect.string", "AMOUNT": "expect.amount", "LSQB": "expect.header",
    "SUIT": "expect.suit", "NUMBER": "expect.number", "ROUND": "expect.round",
}
_WORD_EXAMPLES = {"says": "carte, plouc, contre or double", "votes": "pourri or bon"}
"""What follows a verb that takes a word, for the message when something else does."""


def _word_at(source: str, column: int) -> str:
    """The word at ``column``, as a message quotes it (a long one cut short)."""
    match = re.match(r"[^\s;]{1,41}", source[column - 1:])
    if match is None:
        return source[column - 1:column].strip() or "end of line"
    return match.group(0) if len(match.group(0)) <= 40 else match.group(0)[:40] + "…"


def split_cards(word: str, spellings: dict[str, Card] = SPELLINGS) -> list[str] | None:
    """'3H4C' read as separate cards, when it reads that way (longest spelling first)."""
    found, i = [], 0
    while i < len(word):
        piece = next((word[i:i + n] for n in (4, 3, 2) if word[i:i + n].upper() in spellings), None)
        if piece is None:
            return None
        found.append(piece)
        i += len(piece)
    return found if len(found) > 1 else None


def _letter_clash(source: str) -> str:
    """For a line of an English record that looks French: what its cards would read as in
    French notation where the letters clash (C is clubs in English, cœur in French)."""
    for word in source.split(";")[0].split():
        english, french = SPELLINGS.get(word.upper()), FRENCH_SPELLINGS.get(word.upper())
        if english is not None and french is not None and english != french:
            return say("syntax.letter-clash", card=word, french=french_name(french), clubs=french_text(english))
    return say("syntax.letter-clash-general")


def _other_notation(got: str, source: str, french: bool) -> str | None:
    """The message for a verb or a card of the other notation, or None: a French word in
    an English record, or an English one in a French record."""
    word = got.lower()
    if not french and word in FRENCH_VERBS:
        return say("syntax.french-verb", got=got, english=FRENCH_VERBS[word], clash=_letter_clash(source))
    if french and word in _VERB_SET:
        return say("syntax.english-verb", got=got, french=FRENCH_WRITTEN[word])
    if not french and (card := FRENCH_SPELLINGS.get(got.upper())) is not None and card.suit in SUITS:
        return say("syntax.french-card", got=got, name=french_name(card), english=str(card))
    if french and (card := SPELLINGS.get(got.upper())) is not None and card.suit in SUITS:
        return say("syntax.english-card", got=got, french=french_text(card), name=french_name(card))
    return None


def explain(error: UnexpectedInput, source: str, french: bool = False) -> tuple[int, str]:
    """The column and the message for a parse error, in player terms; ``french``: the
    record is written in French notation."""
    from ._grammar_parser import UnexpectedCharacters, UnexpectedToken

    column = error.column if error.column and error.column > 0 else 1
    expected = set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    got = _word_at(source, column)
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        got = "end of file"
    ended = got in ("end of line", "end of file")
    if ended:
        got = say("syntax.end-of-file" if got == "end of file" else "syntax.end-of-line")
    stripped = source.strip()
    if stripped.startswith("[") and expected <= {"RSQB", "COMMENT", "_NL", "STRING"}:
        if "STRING" in expected:
            tag = re.match(r"\[\s*([^\s\]]+)", stripped)
            value = stripped.split(None, 1)[1].rstrip("]").strip().strip('"') if " " in stripped else ""
            value = value if len(value) <= 40 else value[:40] + "…"
            return column, say("syntax.header-quotes", tag=tag.group(1) if tag else "Tag", value=value)
        return column, say("syntax.header-unclosed")
    if "CARDS" in expected or ("ON" in expected and got[:1].isdigit()):
        if ended:
            previous = source[: column - 1].split()
            return column, say("syntax.no-card-french" if french else "syntax.no-card", verb=previous[-1] if previous else "")
        if (other := _other_notation(got, source, french)) is not None:
            return column, other
        parts = split_cards(got, FRENCH_SPELLINGS if french else SPELLINGS)
        if parts:
            return column, say("syntax.glued-cards", fixed=" ".join(parts), got=got)
        return column, say("syntax.bad-card-french" if french else "syntax.bad-card", got=got)
    if expected & {v.upper() for v in VERBS}:
        written = list(FRENCH_VERBS) if french else VERBS
        actor = re.sub(r"^\s*(\d+\.\s*)?(\d+:\d+(:\d+)?\s*)?", "", source).split()[:1]
        if actor and actor[0].lower() in written:
            return source.find(actor[0]) + 1, say("syntax.no-player-french" if french else "syntax.no-player", got=actor[0].lower())
        if ended and actor:
            return column, say("syntax.no-verb-french" if french else "syntax.no-verb", got=actor[0])
        if (other := _other_notation(got, source, french)) is not None:
            return column, other
        import difflib  # here: only a misspelt verb needs it, and it takes time to import

        close = difflib.get_close_matches(got.lower(), written, n=1)
        hint = say("syntax.did-you-mean", suggestion=close[0]) if close else ""
        return column, say("syntax.unknown-verb-french" if french else "syntax.unknown-verb", got=got, hint=hint)
    previous = source[: column - 1].split()
    before = previous[-1].lower() if previous else ""
    if "SUIT" in expected:
        return column, say("syntax.no-suit-french" if french else "syntax.no-suit",
                           got="" if ended else say("syntax.got", got=got))
    if before == "--" or (previous[-2:-1] == ["--"] and before == ("manche" if french else "round")):
        return column, say("syntax.round-marker-french" if french else "syntax.round-marker", got=source.strip())
    if "NUMBER" in expected and before == ("marque" if french else "scores"):
        return column, say("syntax.bad-score", got=got)
    verb = FRENCH_VERBS.get(before) if french else before
    if expected == {"WORD"} and verb is not None and verb in _WORD_EXAMPLES:
        return column, say("syntax.call-word", verb=before, examples=_WORD_EXAMPLES[verb], got=got)
    if "TIME" in expected and re.fullmatch(r"[0-9]+[:h][0-9:]*", got):
        return column, say("syntax.bad-time", got=got)
    if "MOVE" in expected and got.isdigit():
        return column, say("syntax.bad-move", got=got)
    words = sorted({say(_EXPECTED_WORDS[e]) if e in _EXPECTED_WORDS else say("expect.word", word=_token_word(e, french))
                    for e in expected})
    if isinstance(error, UnexpectedCharacters):
        return column, say("syntax.unexpected-char", got=got, expected=join(words, "or") or say("expect.event"))
    return column, say("syntax.expected", expected=join(words, "or") or say("expect.event"), got=got)


def _token_word(token: str, french: bool) -> str:
    """A word of the grammar as the record writes it: ``on``, or in French notation ``sur``."""
    word = token.lower()
    if not french:
        return word
    return FRENCH_WRITTEN.get(word) or _FRENCH_TERMINALS.get(token, word).split("|")[0]
