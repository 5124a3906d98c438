"""Where each card may be, as far as a record tells: hidden hands, random takes from a
neighbour, face-down draws.

Each card has a set of places it may be in (bits: one per seat, the stock, the discard,
the table). A card seen somewhere is there alone; a card moved unseen (a random take,
a face-down draw or discard) spreads every card that may have been it to the new place.
The sets only over-approximate the truth, so a card is flagged as misplaced only when
it surely cannot be where the record shows it."""

from __future__ import annotations

from collections.abc import Iterable

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ...cards import Card


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Places:
    """The places each card of the deck may be in."""

    def __init__(self, deck: Iterable[Card], players: int):
        self.players = players
        self.stock = 1 << players
        self.discard = 1 << (players + 1)
        self.table = 1 << (players + 2)
        self.hands = (1 << players) - 1
        self.cards, self.index = _ordered(frozenset(deck))
        self.masks = [self.hands | self.stock] * len(self.cards)

    @staticmethod
    def seat(seat: int) -> int:
        return 1 << seat

    def may(self, card: Card, place: int) -> bool:
        """Whether the card may be in the place."""
        return bool(self.masks[self.index[card]] & place)

    def mask(self, card: Card) -> int:
        return self.masks[self.index[card]]

    def put(self, card: Card, place: int) -> None:
        """The card is seen there."""
        self.masks[self.index[card]] = place

    def limit(self, card: Card, places: int) -> None:
        """The card is surely in one of these places."""
        self.masks[self.index[card]] &= places

    def spread(self, source: int, target: int) -> None:
        """An unseen card went from ``source`` to ``target``: any card that may have been
        in the source may now be in the target too."""
        masks = self.masks
        for i in range(len(masks)):  # in place: a new list of 78 at each unseen card cost more
            m = masks[i]
            if m & source:
                masks[i] = m | target

    def move_all(self, source: int, target: int) -> None:
        """Every card in the source goes to the target (the discard shuffled into a new
        stock, the table's cards to the discard)."""
        masks = self.masks
        for i in range(len(masks)):
            m = masks[i]
            if m & source:
                masks[i] = (m & ~source) | target

    def empty(self, place: int) -> None:
        """The place holds no card now (the stock drawn to its last card): a card that may
        be elsewhere is not there. A card with no other place keeps it (a record already
        at odds with the counts: it is not made impossible)."""
        masks = self.masks
        for i in range(len(masks)):
            m = masks[i]
            if m & place and m & ~place:
                masks[i] = m & ~place

    def only(self, place: int, cards: Iterable[Card]) -> None:
        """The place holds these cards and no other (a hand given whole)."""
        masks = self.masks
        for i in range(len(masks)):
            m = masks[i]
            if m & place:
                masks[i] = m & ~place
        for card in cards:
            masks[self.index[card]] = place

    def possible(self, place: int) -> list[Card]:
        """The cards that may be in the place, in a fixed order."""
        return [c for c, m in zip(self.cards, self.masks) if m & place]

    def sure(self, place: int) -> list[Card]:
        """The cards surely in the place."""
        return [c for c, m in zip(self.cards, self.masks) if m == place]


_ORDERS: dict[frozenset[Card], tuple[list[Card], dict[Card, int]]] = {}


def _ordered(deck: frozenset[Card]) -> tuple[list[Card], dict[Card, int]]:
    """A deck's cards in a fixed order, and each card's place in it (worked out once)."""
    if deck not in _ORDERS:
        cards = sorted(deck, key=lambda c: (c.suit, c.rank))
        _ORDERS[deck] = cards, {card: i for i, card in enumerate(cards)}
    return _ORDERS[deck]
