"""Cards, their spellings, and the decks of the five games."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple

SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_NAMES = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}

ACE, JACK, CAVALIER, QUEEN, KING = 1, 11, 12, 13, 14
RANK_LETTERS = {"A": ACE, "1": ACE, "J": JACK, "V": JACK, "C": CAVALIER, "Q": QUEEN, "D": QUEEN, "K": KING, "R": KING}
RANK_NAMES = {ACE: "A", JACK: "J", CAVALIER: "C", QUEEN: "Q", KING: "K"}

TRUMP, EXCUSE, NUMBERED, UNSEEN = "T", "X", "N", "?"

FRENCH_CARDS: ContextVar[bool] = ContextVar("french_cards", default=False)
"""True while a record in French notation is checked: its cards are then written in
French letters (``DP``) in what referee says of it (the JSON form and ``fmt``, which
write cards outside a check, are not touched)."""


@contextmanager
def cards_named_in(french: bool) -> Iterator[None]:
    """Within it, cards are written in French letters when ``french``, in English ones when
    not (what is said of a record in its notation: referee/spelling.py's ``in_force``)."""
    if french == FRENCH_CARDS.get():  # the usual case (an English record): nothing to set
        yield
        return
    token = FRENCH_CARDS.set(french)
    try:
        yield
    finally:
        FRENCH_CARDS.reset(token)


class Card(NamedTuple):
    """A card: rank 1 (ace) to 14 (king) in a suit S/H/D/C, a trump T1-T21, the Excuse,
    a numbered card (Flaschenteufel), or a card nobody saw."""

    rank: int
    suit: str

    def __str__(self) -> str:
        if self.suit in SUITS:
            if FRENCH_CARDS.get():
                return french_text(self)
            return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit
        return {TRUMP: f"T{self.rank}", EXCUSE: "EX", NUMBERED: str(self.rank), UNSEEN: "??"}[self.suit]

    @property
    def seen(self) -> bool:
        return self.suit != UNSEEN


UNSEEN_CARD = Card(0, UNSEEN)
EXCUSE_CARD = Card(0, EXCUSE)


def _spellings() -> dict[str, Card]:
    """Every accepted spelling (upper case) of every card, to the card."""
    table: dict[str, Card] = {"??": UNSEEN_CARD, "EX": EXCUSE_CARD}
    ranks = {str(n): n for n in range(2, 11)} | RANK_LETTERS
    symbols = {suit: [s for s, v in SUIT_SYMBOLS.items() if v == suit] for suit in SUITS}
    for spelled, rank in ranks.items():
        for suit in SUITS:
            card = Card(rank, suit)
            table[spelled + suit] = card
            for symbol in symbols[suit]:
                for s in (symbol, symbol + "\ufe0f"):
                    table[spelled + s] = card
                    table[s + spelled] = card
    for n in range(1, 22):
        table[f"T{n}"] = Card(n, TRUMP)
    return table


SPELLINGS = _spellings()

FRENCH_SUITS = {"P": "S", "C": "H", "K": "D", "T": "C"}
"""The suit letters of French notation (pique, cœur, carreau, trèfle), as French bridge
notation writes them, to the suit letters of English notation (S H D C)."""
FRENCH_RANKS = {"A": ACE, "1": ACE, "V": JACK, "C": CAVALIER, "D": QUEEN, "R": KING}
"""The rank letters of French notation: as, valet, cavalier, dame, roi."""
FRENCH_LETTERS = {ACE: "A", JACK: "V", CAVALIER: "C", QUEEN: "D", KING: "R"}
_FRENCH_SUIT_OF = {suit: letter for letter, suit in FRENCH_SUITS.items()}
FRENCH_RANK_WORDS = {"as": ACE, "valet": JACK, "cavalier": CAVALIER, "dame": QUEEN, "roi": KING}
FRENCH_SUIT_WORDS = {"pique": "S", "coeur": "H", "cœur": "H", "carreau": "D", "trefle": "C", "trèfle": "C"}
"""The suits' French names (a plural s or x is dropped before looking one up)."""


def _french_spellings() -> dict[str, Card]:
    """Every spelling (upper case) of every card in French notation: rank then suit in
    French letters (``DP``, ``10T``, ``AC``), a suit symbol either side, a tarot trump
    (``T6``: the suit letter comes last, so ``6T`` is the six de trèfle), ``EX``, ``??``;
    and the full names in lower case, single-spaced (``dame de pique``, ``10 de trèfle``)."""
    table = {k: v for k, v in SPELLINGS.items()
             if k in ("??", "EX") or v.suit == TRUMP or set(k) & set(SUIT_SYMBOLS) and not set(k) & set("JQK")}
    ranks = {str(n): n for n in range(2, 11)} | FRENCH_RANKS
    for spelled, rank in ranks.items():
        for letter, suit in FRENCH_SUITS.items():
            table[spelled + letter] = Card(rank, suit)
    words = {str(n): n for n in range(1, 11)} | FRENCH_RANK_WORDS
    for word, rank in words.items():
        for name, suit in FRENCH_SUIT_WORDS.items():
            for plural in ("", "x" if name == "carreau" else "s"):
                table[f"{word} de {name}{plural}".upper()] = Card(rank, suit)
    return table


FRENCH_SPELLINGS = _french_spellings()


def french_text(card: Card) -> str:
    """A card in French letters: ``DP``, ``10T``; a trump, the Excuse or ?? as in English."""
    if card.suit in SUITS:
        return FRENCH_LETTERS.get(card.rank, str(card.rank)) + _FRENCH_SUIT_OF[card.suit]
    return str(card)


CARD_TAGS = frozenset({"starter", "stock"})
"""The headers (by their key) whose value is cards (Carte et Plouc's), written in the
record's notation."""


def respelled(value: str, from_french: bool, to_french: bool) -> str:
    """A header's cards ([Starter], [Stock]) in the other notation's letters (a card that
    reads the same in both, such as ``5♥`` or ``??``, as written); the value as it is
    when a word of it is not a card."""
    words = value.replace(",", " ").split()
    found = [read_card(word, from_french) for word in words]
    cards = [card for card in found if card is not None]
    if not cards or len(cards) < len(found):
        return value
    return " ".join(word if read_card(word, to_french) == card else french_text(card) if to_french else str(card)
                    for word, card in zip(words, cards))


def french_name(card: Card) -> str:
    """A suited card's French name, as the rule texts write it: ``dame de pique``."""
    rank = {ACE: "as", JACK: "valet", CAVALIER: "cavalier", QUEEN: "dame", KING: "roi"}.get(card.rank, str(card.rank))
    return f"{rank} de {SUIT_NAMES[card.suit]}"


def read_card(text: str, french: bool = False) -> Card | None:
    """The card a suited, trump, Excuse or ?? spelling stands for, or None; ``french``:
    in French notation (``DP``)."""
    return (FRENCH_SPELLINGS if french else SPELLINGS).get(" ".join(text.split()).upper())


STANDARD_52 = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 15) if rank != CAVALIER)
"""The 52-card deck, suit by suit, ace to king."""

TAROT_78 = (
    tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 15))
    + tuple(Card(n, TRUMP) for n in range(1, 22))
    + (EXCUSE_CARD,)
)
"""The French tarot: four suits of 14 (with the cavalier), 21 trumps and the Excuse."""


def numbered_deck(numbers: Iterable[int]) -> tuple[Card, ...]:
    """A deck of cards known by their number alone (Flaschenteufel)."""
    return tuple(Card(n, NUMBERED) for n in numbers)
