"""What a Carte et Plouc table knows of its cards: each hand (the cards seen in it and a
count of the others), the discard, the stock (in order where the deal gives it), and
where every card seen lies. A hand nobody saw is a count that the deal, the draws and
the plays keep exact.

For the proofs about hidden hands it also keeps, per hand, when a card nobody saw last
came into it (``since``) and when each seen card came (``came``): a card played later was
surely in the hand at an earlier moment only if it did not come in after it."""

from __future__ import annotations

from typing import TypedDict

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ...cards import KING, STANDARD_52, UNSEEN, UNSEEN_CARD, Card
from ...messages import Said, said

SEVEN, SIX, TEN, TWO = 7, 6, 10, 2
KING_OF_SPADES, SEVEN_OF_SPADES, THREE_OF_CLUBS = Card(KING, "S"), Card(SEVEN, "S"), Card(3, "C")
KING_DRAW, SEVEN_DRAW = 5, 2
"""Cards the Roi de pique and a 7 make the next player draw."""
CARRE_SEVENS = 8
"""« si l'on pose les 4 cartes 7 ... le joueur suivant doit piocher 8 cartes »."""

DISCARD, STOCK, POOL = -1, -2, -3
"""Where a seen card lies when it is in no hand: on the discard, at its known place in the
stock, or in the stock at an unknown place (shuffled back in)."""


class Problem(TypedDict, total=False):
    """The fields of a problem's message: the card, where it was thought to be, or why not."""

    card: Card
    where: Said
    why: Said


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Cards:
    """Hands, discard and stock as far as the table knows them."""

    def __init__(self, names: tuple[str, ...], size: int):
        seats = len(names)
        self.names = names
        self.known: list[list[Card]] = [[] for _ in range(seats)]
        self.unknown = [size] * seats
        """Cards in each hand that nobody saw."""
        self.discard: list[Card] = []
        """Bottom first: the last card is the one on top."""
        self.stock: list[Card] = []
        """Top card last; unseen cards where the order is not known."""
        self.pool: set[Card] = set()
        """Seen cards surely in the stock, at places nobody knows (the discard shuffled in)."""
        self.where: dict[Card, int] = {}
        """Each card whose place is known: a seat, DISCARD, STOCK or POOL."""
        self.since = [0] * seats
        """When (the event's number) a card nobody saw last came into each hand."""
        self.came: list[dict[Card, int]] = [{} for _ in range(seats)]
        """When each seen card last came into each hand."""
        self.last_in = [0] * seats
        """When any card last came into each hand, seen or not."""
        self.clock = 0

    # --- Counting -----------------------------------------------------------------------
    def count(self, seat: int) -> int:
        return len(self.known[seat]) + self.unknown[seat]

    def available(self, reshuffle: bool) -> int:
        """Cards that can still be drawn: the stock, and the discard under its top card
        when it is shuffled into a new stock."""
        return len(self.stock) + len(self.discard) - 1 if reshuffle and self.discard else len(self.stock)

    def place(self, card: Card) -> Said:
        """Where a card is known to be, in words."""
        spot = self.where[card]
        if spot >= 0:
            return said("where.hand", player=self.names[spot])
        return said({DISCARD: "where.discard", STOCK: "where.stock", POOL: "where.stock"}[spot])

    def candidates(self, seat: int) -> list[Card]:
        """The cards that may be in a hand: those seen in it, and if it holds cards nobody
        saw, every card whose place is not known."""
        known = self.known[seat]
        if not self.unknown[seat]:
            return list(known)
        where = self.where
        return known + [c for c in STANDARD_52 if c not in where]

    # --- Moving cards -------------------------------------------------------------------
    def deal(self, seat: int, cards: tuple[Card, ...]) -> None:
        """A hand as the deal gives it (``??`` for the cards nobody saw)."""
        for card in self.known[seat]:
            self.where.pop(card, None)
        self.known[seat] = [c for c in cards if c.seen]
        self.unknown[seat] = len(cards) - len(self.known[seat])
        for card in self.known[seat]:
            self._put(card, seat)

    def take(self, seat: int, card: Card, given: bool = False) -> tuple[str, Problem] | None:
        """Take a card out of a hand (``given`` to another hand); a problem (code, fields)
        when the table's knowledge disagrees. The record wins: the card leaves the hand
        all the same. A card nobody saw (``??``) cannot be proved absent: from a hand with
        known cards it may be any of them (the one given may be any of them), so they
        become cards nobody saw."""
        hand = self.known[seat]
        if not hand and self.unknown[seat]:  # a hand nobody saw: the usual case
            self.unknown[seat] -= 1
            if card in self.where:
                spot = self.place(card)
                self.forget(card)
                return "REC-DUPLICATE-CARD", {"where": spot}
            return None
        if not card.seen and hand and (given or not self.unknown[seat]):
            self.unknown[seat] += len(hand) - 1
            for other in hand:
                del self.where[other]
            hand.clear()
            self.since[seat] = self.clock
            return None
        if card in hand:
            hand.remove(card)
            del self.where[card]
            return None
        if not hand and not self.unknown[seat]:
            if card.seen and card in self.where:  # the record wins: it is no longer where it was thought
                self.forget(card)
            return "CP-NOT-IN-HAND", {"why": said("cp.hand.empty")}
        if not self.unknown[seat]:
            shown = tuple(hand)
            for other in hand:  # the hand was not what the table thought: its cards are unknown now
                self.where.pop(other, None)
            self.unknown[seat] = len(hand) - 1
            hand.clear()
            self.since[seat] = self.clock
            if card in self.where:
                self.forget(card)
            return "CP-NOT-IN-HAND", {"why": said("cp.hand.not-held", cards=shown)}
        self.unknown[seat] -= 1
        if card.seen and card in self.where:
            spot = self.place(card)
            self.forget(card)
            return "REC-DUPLICATE-CARD", {"where": spot}
        return None

    def add(self, seat: int, card: Card) -> None:
        self.last_in[seat] = self.clock
        if card.seen:
            self.known[seat].append(card)
            self._put(card, seat)
            self.came[seat][card] = self.clock
        else:
            self.unknown[seat] += 1
            self.since[seat] = self.clock

    def lay(self, card: Card) -> None:
        self.discard.append(card)
        if card.suit != UNSEEN:
            self._put(card, DISCARD)

    def _put(self, card: Card, spot: int) -> None:
        """A card seen at ``spot``: if it was thought shuffled into the stock, the record
        shows otherwise, and the stock no longer holds it."""
        if self.where.get(card) == POOL:
            self.pool.discard(card)
        self.where[card] = spot

    def forget(self, card: Card) -> None:
        """The record shows ``card`` elsewhere than where it was thought to be: that place
        now holds a card nobody saw (a card seen on the discard stays there)."""
        spot = self.where.pop(card)
        if spot >= 0:
            self.known[spot].remove(card)
            self.unknown[spot] += 1
            self.since[spot] = self.clock
        elif spot == STOCK:
            self.stock[self.stock.index(card)] = UNSEEN_CARD
        elif spot == POOL:
            self.pool.discard(card)

    def draw(self, seat: int, wanted: list[Card], reshuffle: bool) -> tuple[int, list[tuple[int, str, Problem]]]:
        """Draw the cards a record names (``??`` for unseen ones), the stock's top first,
        shuffling the discard into a new stock when it runs out and the table does so.
        Returns how many were drawn (fewer when nothing is left) and the problems, each
        with the index of its card."""
        problems: list[tuple[int, str, Problem]] = []
        drawn = 0
        stock = self.stock
        for index, card in enumerate(wanted):
            if not stock:
                if not (reshuffle and len(self.discard) > 1):
                    break
                self.reshuffle()
            if card.suit == UNSEEN and stock[-1].suit == UNSEEN and not self.pool:  # nobody saw either: the usual case
                stock.pop()
                self.unknown[seat] += 1
                self.since[seat] = self.last_in[seat] = self.clock
            else:
                got, problem = self._top(card)
                if problem:
                    problems.append((index, *problem))
                self.add(seat, got)
            drawn += 1
        return drawn, problems

    def _top(self, card: Card) -> tuple[Card, tuple[str, Problem] | None]:
        top = self.stock.pop()
        if top.seen:
            del self.where[top]
            if not card.seen or card == top:
                return top, None
            if card in self.where:
                self.forget(card)
            return card, ("CP-STOCK-MISMATCH", {"card": card, "why": said("cp.stock.top", expected=top)})
        if not card.seen:
            if self.pool:  # one of the shuffled cards may be this one: none is surely in the stock now
                for other in self.pool:
                    del self.where[other]
                self.pool.clear()
            return card, None
        if self.where.get(card) == POOL:
            self.pool.discard(card)
            del self.where[card]
            return card, None
        if card in self.where:
            spot = self.place(card)
            self.forget(card)
            return card, ("REC-DUPLICATE-CARD", {"card": card, "where": spot})
        if self.pool and len(self.pool) == 1 + sum(not c.seen for c in self.stock):
            # every card of the stock is known (the discard shuffled back in): this one is
            # not among them; the record wins, and the stock is no longer what was thought
            shown = tuple(sorted(self.pool))
            for other in self.pool:
                del self.where[other]
            self.pool.clear()
            return card, ("CP-STOCK-MISMATCH", {"card": card, "why": said("cp.stock.pool", cards=shown)})
        return card, None

    def reshuffle(self) -> None:
        """The discard but its top card becomes the new stock, in an order nobody knows."""
        cards, self.discard = self.discard[:-1], self.discard[-1:]
        self.stock[:0] = [UNSEEN_CARD] * len(cards)
        for card in cards:
            if card.seen and self.where.get(card) == DISCARD:
                self.pool.add(card)
                self.where[card] = POOL

    def swap(self, a: int, b: int) -> None:
        """Two hands change owners."""
        known, unknown = self.known, self.unknown
        known[a], known[b] = known[b], known[a]
        unknown[a], unknown[b] = unknown[b], unknown[a]
        for seat in (a, b):
            self.where.update((c, seat) for c in known[seat])
            self.since[seat] = self.last_in[seat] = self.clock

    def peek(self, count: int, reshuffle: bool, choices: int = 6) -> list[list[Card]]:
        """Ways the next ``count`` draws may come out, for ``legal()``: the cards when they
        are known, a few of the orders a stock shuffled back in may hold, or ``[[]]`` when
        some of them nobody can know (the draw is then written as a count)."""
        stock = self.stock
        first = [stock[-1 - i] for i in range(min(count, len(stock)))]
        rest = min(count - len(first), max(0, len(self.discard) - 1) if reshuffle else 0)
        blind = sum(not c.seen for c in first)
        if blind and len(self.pool) != sum(not c.seen for c in stock):
            return [[]]
        under = self.discard[:-1] if rest else []
        if any(not c.seen for c in under):
            return [[]]
        old, new = sorted(self.pool), sorted(under)
        ways: list[list[Card]] = []
        for start in range(min(choices, max(len(old), len(new), 1))):
            fill = iter((old[start:] + old[:start])[:blind])
            way = [c if c.seen else next(fill) for c in first] + (new[start:] + new[:start])[:rest]
            if way not in ways:
                ways.append(way)
        return ways
