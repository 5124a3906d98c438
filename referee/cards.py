"""Cards, their spellings, and the decks of the five games."""

from __future__ import annotations

from typing import NamedTuple

SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_NAMES = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}

ACE, JACK, CAVALIER, QUEEN, KING = 1, 11, 12, 13, 14
RANK_LETTERS = {"A": ACE, "1": ACE, "J": JACK, "V": JACK, "C": CAVALIER, "Q": QUEEN, "D": QUEEN, "K": KING, "R": KING}
RANK_NAMES = {ACE: "A", JACK: "J", CAVALIER: "C", QUEEN: "Q", KING: "K"}

TRUMP, EXCUSE, NUMBERED, UNSEEN = "T", "X", "N", "?"


class Card(NamedTuple):
    """A card: rank 1 (ace) to 14 (king) in a suit S/H/D/C, a trump T1-T21, the Excuse,
    a numbered card (Flaschenteufel), or a card nobody saw."""

    rank: int
    suit: str

    def __str__(self) -> str:
        if self.suit in SUITS:
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


def read_card(text: str) -> Card | None:
    """The card a suited, trump, Excuse or ?? spelling stands for, or None."""
    return SPELLINGS.get(text.upper())


STANDARD_52 = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 15) if rank != CAVALIER)
"""The 52-card deck, suit by suit, ace to king."""

TAROT_78 = (
    tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 15))
    + tuple(Card(n, TRUMP) for n in range(1, 22))
    + (EXCUSE_CARD,)
)
"""The French tarot: four suits of 14 (with the cavalier), 21 trumps and the Excuse."""


def numbered_deck(numbers) -> tuple[Card, ...]:
    """A deck of cards known by their number alone (Flaschenteufel)."""
    return tuple(Card(n, NUMBERED) for n in numbers)
