"""Writing in a notation: one object per notation (``ENGLISH``, ``FRENCH``) writes every
card, move line, list of moves, header and group of cards that referee shows of a record;
nothing else spells a card or a verb. A new notation is one more ``Spelling``, one more
set of tables (referee/text/french.py holds the French words, referee/cards.py its letters).

A record is quoted in its own notation, whatever the language of the messages: a French
record's ``Ben joue VC sur Cas`` is written so by every face (``spelling_of(record)``).
A line read from a record keeps its cards as written (``10♥``, ``dp``, ``dame de
pique``) where they read back, in the notation written, as the cards replayed; else
(an event made by referee, or a line of the other notation) its cards are written from
the cards themselves."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from .cards import (FRENCH_CARDS, FRENCH_LETTERS, FRENCH_SPELLINGS, FRENCH_SUITS, NUMBERED, RANK_NAMES, SPELLINGS,
                    SUIT_NAMES, SUITS, TRUMP, UNSEEN, Card)
from .text.french import (FRENCH_AMOUNT_WRITTEN, FRENCH_FOR, FRENCH_PREPOSITIONS, FRENCH_ROUND, FRENCH_WRITTEN, FRENCH_VERBS,
                     SPELT_TAGS)
from .text.numbers import whole
from .record import PREPOSITIONS, TARGET_VERBS, Comment, Event, Header, Record

_ESCAPED = re.compile(r'\\(?=[\\"]|\Z)|"')


def escape_value(value: str) -> str:
    """A header value as written between its quotes: a quote as \\", a backslash doubled
    only where it would be read as an escape (before a quote or a backslash, or last), so
    that every value reads back as it was and a \\n stays as written."""
    return _ESCAPED.sub(lambda match: "\\" + match.group(), value)


class Spelling:
    """How one notation writes: its verbs, the word before a named player, the word before
    an announced suit, its card letters, its drinks, its round marker and its header tags.
    (A plain class, not a dataclass: ``dataclasses`` costs every command's start about
    8 ms of imports, and there are only two notations.)"""

    __slots__ = ("code", "verbs", "prepositions", "for_word", "round_word", "amounts", "rank_letters",
                 "suit_letters", "suit_names", "spellings")

    def __init__(self, code: str, verbs: Mapping[str, str], prepositions: Mapping[str, str], for_word: str,
                 round_word: str, amounts: Mapping[str, str], rank_letters: Mapping[int, str],
                 suit_letters: Mapping[str, str], suit_names: Mapping[str, str], spellings: Mapping[str, Card]):
        self.code, self.verbs, self.prepositions, self.for_word = code, verbs, prepositions, for_word
        self.round_word, self.amounts, self.rank_letters = round_word, amounts, rank_letters
        self.suit_letters, self.suit_names, self.spellings = suit_letters, suit_names, spellings

    code: str
    """``en`` or ``fr``: what ``[Notation]`` and ``--notation`` say."""
    verbs: Mapping[str, str]
    """Each English (canonical) verb to this notation's."""
    prepositions: Mapping[str, str]
    """The word before the player an event names, by English verb."""
    for_word: str
    round_word: str
    amounts: Mapping[str, str]
    """The drinks that are not a number, by English amount."""
    rank_letters: Mapping[int, str]
    suit_letters: Mapping[str, str]
    """Each suit (S H D C) to this notation's letter."""
    suit_names: Mapping[str, str]
    """Each suit as written after ``for``: English writes the letter, French the name."""
    spellings: Mapping[str, Card]
    """Every card as this notation reads it (upper case), to the card."""

    @property
    def french(self) -> bool:
        return self.code == "fr"

    # --- Cards ---------------------------------------------------------------------------
    def card(self, card: Card) -> str:
        """A card in this notation's letters: ``QS`` or ``DP``, ``T6``, ``EX``, ``??``, ``24``."""
        if card.suit in SUITS:
            return self.rank_letters.get(card.rank, str(card.rank)) + self.suit_letters[card.suit]
        if card.suit == TRUMP:
            return f"T{card.rank}"
        if card.suit == NUMBERED:
            return str(card.rank)
        return "??" if card.suit == UNSEEN else "EX"

    def cards(self, cards: Iterable[Card]) -> str:
        """A group of cards, separated by spaces."""
        return " ".join(self.card(c) for c in cards)

    def read(self, text: str) -> Card | None:
        """The card a word (or ``dame de pique``) stands for in this notation, or None."""
        return self.spellings.get(" ".join(text.split()).upper())

    def suit(self, suit: str) -> str:
        """A suit as announced after ``for`` (``C``) or ``pour`` (``trèfle``)."""
        return self.suit_names[suit]

    def suit_letter(self, suit: str) -> str:
        """A suit's letter in this notation (``C`` or ``T`` for clubs)."""
        return self.suit_letters.get(suit, suit)

    def written_cards(self, event: Event) -> str:
        """An event's cards: as written on its line when they read back, in this
        notation, as its cards (a count of unseen cards included); else from the cards."""
        text = event.cards_text
        if text and self._reads_back(text.split(), event.cards):
            return text
        return self.cards(event.cards)

    def _reads_back(self, words: Sequence[str], cards: Sequence[Card]) -> bool:
        at = i = 0
        while i < len(words):
            word = words[i]
            if at >= len(cards):
                return False
            n = whole(word)
            if n is not None:
                if cards[at] == Card(n, NUMBERED):
                    at, i = at + 1, i + 1
                    continue
                if n and all(c.suit == UNSEEN for c in cards[at:at + n]) and at + n <= len(cards):
                    at, i = at + n, i + 1
                    continue
            if i + 2 < len(words) and words[i + 1].lower() == "de" and self.read(" ".join(words[i:i + 3])) == cards[at]:
                at, i = at + 1, i + 3
                continue
            if self.read(word) != cards[at]:
                return False
            at, i = at + 1, i + 1
        return at == len(cards)

    # --- Words ---------------------------------------------------------------------------
    def verb(self, verb: str) -> str:
        """An English (canonical) verb in this notation: ``plays`` is ``joue``."""
        return self.verbs.get(verb, verb)

    def verb_read(self, word: str) -> str | None:
        """The English verb a word of this notation stands for, or None."""
        found = {written: verb for verb, written in self.verbs.items()}.get(word.lower())
        return found if found is not None else (FRENCH_VERBS.get(word.lower()) if self.french else None)

    def before(self, verb: str) -> str:
        """The word before the player a ``verb`` names (``on``, ``sur``); none after
        ``beats``, ``catches`` and ``accuses``."""
        return "" if verb in TARGET_VERBS else self.prepositions.get(verb, "")

    def targeted(self, verb: str, players: str) -> str:
        """The player (or the players joined) a ``verb`` names, with the word before them."""
        word = self.before(verb)
        return f"{word} {players}" if word else players

    def announced(self, suits: str) -> str:
        """A suit (or suits joined) announced with an ace: ``for C``, ``pour trèfle``."""
        return f"{self.for_word} {suits}"

    def amount(self, verb: str, word: str) -> str:
        """What follows the verb (a call, a vote, an amount, a score) in this notation."""
        return self.amounts.get(word, word) if verb == "drinks" else word

    @property
    def targets(self) -> tuple[str, ...]:
        """The words before a named player: ``to``, ``on``, ``from``, ``with`` (``à``, ``sur``, ``avec``)."""
        return tuple(dict.fromkeys(self.prepositions[verb] for verb in ("gives", "plays", "takes", "swaps")))

    def tag(self, english: str) -> str:
        """A header tag referee reads, as this notation writes it (``Players``, ``Joueurs``)."""
        spelt = SPELT_TAGS.get(english.lower())
        return spelt[self.french] if spelt is not None else english

    # --- Lines ---------------------------------------------------------------------------
    def arguments(self, event: Event) -> str:
        """What follows the verb of an event: its cards, the suit it announces, the player
        it names, its word."""
        parts = [self.written_cards(event) if event.cards else ""]
        if event.suit is not None:
            parts.append(self.announced(self.suit(event.suit)))
        if event.target is not None:
            parts.append(self.targeted(event.verb, event.target))
        if event.word is not None:
            parts.append(self.amount(event.verb, event.word))
        return " ".join(p for p in parts if p)

    def move(self, event: Event, comment: bool = True) -> str:
        """An event as a line of this notation (its comment kept, when ``comment``)."""
        if event.verb == "round":
            text = f"-- {self.round_word} {event.word}" if event.word else f"-- {self.round_word}"
        else:
            parts = [event.move, event.time, event.player, self.verb(event.verb), self.arguments(event)]
            text = " ".join(p for p in parts if p)
        return f"{text} {event.comment}" if comment and event.comment else text

    def header(self, header: Header, comment: bool = True) -> str:
        """A header as a line, its tag as written."""
        text = f'[{header.tag} "{escape_value(header.value)}"]'
        return f"{text} {header.comment}" if comment and header.comment else text

    def headers(self, pairs: Iterable[tuple[str, str]]) -> str:
        """A new record's headers, one a line and a blank line after them, each tag as this
        notation writes it, ``[Notation]`` after the first where the notation is not English
        (``[Jeu "..."]``, ``[Notation "fr"]``, ``[Joueurs "..."]``...); ``[Date]`` last,
        after the game's options, where ``referee fmt`` puts it."""
        pairs = sorted(pairs, key=lambda pair: pair[0] == "Date")
        if self.code != "en":
            pairs.insert(1, ("Notation", self.code))
        return "".join(f'[{self.tag(tag)} "{escape_value(value)}"]\n' for tag, value in pairs) + "\n"

    def line(self, item: Header | Event | Comment) -> str:
        """One header, event or comment as a line of this notation."""
        if isinstance(item, Comment):
            return item.text
        if isinstance(item, Header):
            return self.header(item)
        return self.move(item)

    def moves(self, events: Iterable[Event]) -> list[str]:
        """A list of moves (legal events), each a line without comment."""
        return [self.move(e, comment=False) for e in events]


ENGLISH = Spelling("en", {verb: verb for verb in FRENCH_WRITTEN}, PREPOSITIONS, "for", "round", {},
                   RANK_NAMES, {suit: suit for suit in SUITS}, {suit: suit for suit in SUITS}, SPELLINGS)
FRENCH = Spelling("fr", FRENCH_WRITTEN, FRENCH_PREPOSITIONS, FRENCH_FOR, FRENCH_ROUND, FRENCH_AMOUNT_WRITTEN,
                  FRENCH_LETTERS, {suit: letter for letter, suit in FRENCH_SUITS.items()}, SUIT_NAMES,
                  FRENCH_SPELLINGS)
NOTATIONS = {spelling.code: spelling for spelling in (ENGLISH, FRENCH)}
"""Each notation by its code."""


def spelling(french: bool) -> Spelling:
    """French notation's spelling when ``french``, else English's."""
    return FRENCH if french else ENGLISH


def spelling_of(record: Record | None, asked: str | None = None) -> Spelling:
    """The notation a record is shown in: ``asked`` (``en``, ``fr``) when a reader asks
    for one, else the record's own (English when there is no record)."""
    if asked is not None:
        return NOTATIONS[asked]
    return FRENCH if record is not None and record.french else ENGLISH


def in_force() -> Spelling:
    """The notation of what is being said now: French while a French record is checked
    (``cards_named_in``), else English."""
    return FRENCH if FRENCH_CARDS.get() else ENGLISH
