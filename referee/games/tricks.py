"""Tricks, shared by the trick games (Pierre qui Roule, Flaschenteufel).

One player leads a card; each other player still in adds one in turn, following the suit
led (the colour, in Flaschenteufel) when they can; the trick's winner leads the next.
``TrickRules`` keeps what every trick game needs: whose turn it is, the trick on the
table, the tricks taken, what is known of each hand (the cards seen, each with the time
since which it is surely held), and revokes: seen at once when a card of the suit led is
known to be in the hand, or proven later, when the player plays a card of that suit
that they surely held at the time (flagged at the earlier play, naming the later one).

A game subclasses it and says what a suit is (``suit``), how many cards a hand holds
(``hand_size``), who wins a trick (``winner_of``) and why (``why_won``), and what a
player who does not follow may do (``_not_followed``, ``_collect_unfinished``)."""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field

from ..cards import UNSEEN_CARD, Card
from ..messages import join, say
from ..record import Event
from .base import Hand, Rules, Setup, Table
from .seating import Seating

PLAYED, ASIDE, GIVEN = -1, -2, -3
"""Where a card is when it is in no hand: played (on the table, in a trick), put aside
face down (Flaschenteufel's devil's trick), or given and not yet taken in."""
_PLACES = {PLAYED: "where.played", ASIDE: "where.aside", GIVEN: "where.given"}

CODES = {
    "TR-OUT-OF-TURN": "turn",
    "TR-REVOKE": "follow",
    "TR-REVOKE-PROVEN": "follow",
    "TR-NOT-IN-HAND": "cards",
    "TR-UNSEEN-CARD": "follow",
    "TR-WRONG-WINNER": "trick",
    "TR-NOT-COMPLETE": "trick",
    "TR-NOTHING-TO-COLLECT": "trick",
}
"""The codes of the shared machinery, and the rule each breaks (a key of the game's
``RULES``: every trick game quotes its own text for ``turn``, ``follow``, ``cards`` and
``trick``)."""


@dataclass(slots=True)
class Holding:
    """What is known of one player's cards: the cards seen, each with the time it came
    into the hand (0: dealt), and the times the unseen ones came in, earliest first."""

    known: dict[Card, int] = field(default_factory=dict)
    unseen: list[int] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.known) + len(self.unseen)

    def add(self, card: Card, time: int) -> None:
        if card.seen:
            self.known[card] = time
        else:
            insort(self.unseen, time)

    def take_unseen(self) -> int:
        """An unseen card leaves the hand: the time since which it was surely held (the
        latest time an unseen card came in). The earliest is the one taken off, so that
        what is left stays on the safe side for later proofs."""
        since = self.unseen[-1]
        del self.unseen[0]
        return since

    def lose_one(self) -> None:
        """A card left the hand and nobody can tell which: what was seen is forgotten
        (each card becomes unseen, keeping the time it came in), and one goes."""
        for time in self.known.values():
            insort(self.unseen, time)
        self.known.clear()
        if self.unseen:
            del self.unseen[0]


@dataclass(slots=True)
class Play:
    """A card in the trick on the table."""

    seat: int
    card: Card
    event: Event
    column: int
    dead: bool = False
    """A second card from the same player in one trick: it goes with the trick, but
    neither wins nor sets the suit."""


@dataclass(slots=True)
class Trick:
    """A trick played out: its cards, the card that wins it by the rules, and the player
    who took it (the winner, unless the record's ``collects`` names another)."""

    plays: list[Play]
    best: Play
    taker: int

    @property
    def winner(self) -> int:
        return self.best.seat

    @property
    def cards(self) -> list[Card]:
        return [p.card for p in self.plays]


@dataclass(slots=True)
class Void:
    """A player who did not follow ``suit``: they held none of it, or they revoked; a
    later play of a card of that suit that they surely held since before proves it."""

    suit: str
    time: int
    event: Event
    column: int
    did: str
    """What they did instead, in words (for the message)."""
    proven: bool = False


class TrickRules(Rules):
    """The rules every trick game shares (see the module's docstring)."""

    verbs = frozenset({"holds", "plays", "collects", "scores"})

    def __init__(self, setup: Setup):
        super().__init__(setup)
        n = len(self.players)
        self.size = self.hand_size(n, setup.options)
        self.seating = Seating(n)
        self.hands = [Holding(unseen=[0] * self.size) for _ in range(n)]
        self.place: dict[Card, int] = {}
        """Where each card seen is: a seat (in that hand), PLAYED or ASIDE."""
        self.deal_lines: dict[int, Event] = {}
        self.started = False
        self.time = 0
        """Events replayed so far: the clock of ``Holding`` and ``Void``."""
        self.deck_order = sorted(self.deck)
        self.leader = setup.first
        self.trick: list[Play] = []
        self.last: Trick | None = None
        self.claimable = False
        """The last trick was just completed: its taker may still write ``collects``."""
        self.taken: list[list[Trick]] = [[] for _ in range(n)]
        self.voids: list[list[Void]] = [[] for _ in range(n)]
        self.finished = False
        self.cards_played = 0
        self.tricks_won = 0

    # --- What each game says ----------------------------------------------------------
    @classmethod
    def hand_size(cls, players: int, options: dict[str, object]) -> int:
        raise NotImplementedError

    def suit(self, card: Card) -> str:
        """The suit (or colour) a card follows."""
        raise NotImplementedError

    def suit_words(self, suit: str) -> str:
        """A card of that suit, in words: « a heart », « a blue card »."""
        raise NotImplementedError

    def winner_of(self, plays: list[Play]) -> Play:
        """The card that wins a complete trick (its cards that count, lead first)."""
        raise NotImplementedError

    def why_won(self, trick: Trick) -> str:
        """Why the trick goes to its winner, in words."""
        raise NotImplementedError

    def _taken(self, trick: Trick) -> None:
        """A trick has just been taken by its winner (the bottle, in Flaschenteufel)."""

    def _retaken(self, trick: Trick, before: int) -> None:
        """The record gave the last trick to another player than its winner."""

    # --- Events -----------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        self.time += 1
        seat = self.seats[event.player]
        if event.verb == "holds":
            return self._holds(seat, event)
        if not self.started:
            self._begin()
        getattr(self, "_" + event.verb)(seat, event)

    def _holds(self, seat: int, event: Event) -> None:
        if self.started:
            return self.flag("REC-LATE-DEAL", event)
        for i, card in enumerate(event.cards):
            if not card.seen:
                continue
            if self.place.get(card, seat) != seat:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=self._where(card))
            elif card in event.cards[:i]:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=say("where.hand", player=event.player))
        for card in self.hands[seat].known:
            if self.place.get(card) == seat:
                del self.place[card]
        hand = self.hands[seat] = Holding()
        for card in event.cards:
            hand.add(card, 0)
            if card.seen:
                self.place.setdefault(card, seat)
        self.deal_lines.setdefault(seat, event)
        if hand.count != self.size:
            self.flag("REC-BAD-DEAL", event, count=hand.count, expected=self.size)

    def _begin(self) -> None:
        """At the first event after the deal: the hands not given are noted."""
        self.started = True
        unknown = [self.players[s] for s in range(len(self.players)) if s not in self.deal_lines]
        if unknown:
            self.notes.append(say("note.hands-unseen", players=join(unknown)))

    def _plays(self, seat: int, event: Event) -> None:
        for i, card in enumerate(event.cards):
            self._play(seat, card, event, event.card_column(i))

    def _play(self, seat: int, card: Card, event: Event, column: int) -> None:
        if not card.seen:
            return self.flag("TR-UNSEEN-CARD", event, column)
        due = self.due()
        if seat != due:
            self.flag("TR-OUT-OF-TURN", event, column, card=card, expected=self.players[due])
        dead = any(p.seat == seat for p in self.trick)
        since = self._take(seat, card, event, column)
        play = Play(seat, card, event, column, dead)
        if self.trick and not dead and self.suit(card) != self.suit(self.trick[0].card):
            self._not_followed(seat, play)
        if since is not None and self.voids[seat]:
            self._prove(seat, card, since, event)
        self.trick.append(play)
        self.claimable = False
        self.cards_played += 1
        if not self.hands[seat].count:
            self._out(seat)
        if not self.finished and self._complete():
            self._resolve()

    def _take(self, seat: int, card: Card, event: Event, column: int) -> int | None:
        """A named card leaves a player's hand: the time since which they surely held it,
        or None when nothing says they held it (the card is flagged then)."""
        hand = self.hands[seat]
        if card in hand.known:
            self.place[card] = PLAYED
            return hand.known.pop(card)
        where = self.place.get(card)
        if where is not None:
            self.flag("REC-DUPLICATE-CARD", event, column, card=card, where=self._where(card))
            if where >= 0:  # the other hand held some other card there
                other = self.hands[where]
                other.add(UNSEEN_CARD, other.known.pop(card))
            self._lose_one(seat)
        elif not hand.count:
            self.flag("TR-NOT-IN-HAND", event, column, card=card, why=say("tricks.no-cards"))
        elif not hand.unseen:
            self.flag("TR-NOT-IN-HAND", event, column, card=card, why=say("tricks.known", cards=" ".join(map(str, self._sorted(hand.known)))))
            self._lose_one(seat)
        else:
            self.place[card] = PLAYED
            return hand.take_unseen()
        self.place[card] = PLAYED
        return None

    def _part_with(self, seat: int, card: Card, event: Event, column: int) -> None:
        """A card leaves a hand face down, named or not (``??``)."""
        if card.seen:
            self._take(seat, card, event, column)
            return
        hand = self.hands[seat]
        if hand.unseen:
            hand.take_unseen()
        elif hand.count:
            self._lose_one(seat)
        else:
            self.flag("TR-NOT-IN-HAND", event, column, card=card, why=say("tricks.no-cards"))

    def _lose_one(self, seat: int) -> None:
        """A card left a hand and nobody can tell which: where its seen cards are is no
        longer known."""
        for card in self.hands[seat].known:
            if self.place.get(card) == seat:
                del self.place[card]
        self.hands[seat].lose_one()

    def _not_followed(self, seat: int, play: Play) -> None:
        """A card that does not follow the suit led: a revoke if the player is known to
        hold that suit; else, if their hand is not all known, a void to be proven or not."""
        self._revoked(seat, play.event, play.column, say("tricks.did.play", card=play.card, led=self.trick[0].card))

    def _revoked(self, seat: int, event: Event, column: int, did: str) -> bool:
        """Flag a revoke when a card of the suit led is known to be in the hand (and say
        so); else keep the void for a later proof."""
        suit = self.suit(self.trick[0].card)
        hand = self.hands[seat]
        held = self._held(seat, suit)
        if held:
            self.flag("TR-REVOKE", event, column, did=did, held=" ".join(map(str, self._sorted(held))))
            return True
        if hand.unseen:
            self.voids[seat].append(Void(suit, self.time, event, column, did))
        return False

    def _prove(self, seat: int, card: Card, since: int, event: Event) -> None:
        """A card surely held since ``since`` proves every earlier void in its suit that
        came after that time."""
        suit = self.suit(card)
        for void in self.voids[seat]:
            if not void.proven and void.suit == suit and since < void.time:
                void.proven = True
                self.flag("TR-REVOKE-PROVEN", void.event, void.column, player=self.players[seat], did=void.did,
                          suit=self.suit_words(suit), card=card, line=event.line)

    def _collects(self, seat: int, event: Event) -> None:
        if self.claimable:
            self.claimable = False
            trick = self.last
            if seat != trick.taker:
                self._wrong_taker(seat, event, trick)
                before = trick.taker
                self.taken[before].remove(trick)
                self.taken[seat].append(trick)
                trick.taker = self.leader = seat
                self._retaken(trick, before)
        elif self.trick:
            self._collect_unfinished(seat, event)
        else:
            self.flag("TR-NOTHING-TO-COLLECT", event)

    def _wrong_taker(self, seat: int, event: Event, trick: Trick) -> None:
        self.flag("TR-WRONG-WINNER", event, winner=self.players[trick.winner], why=self.why_won(trick))

    def _collect_unfinished(self, seat: int, event: Event) -> None:
        """``collects`` while the trick is still being played."""
        self.flag("TR-NOT-COMPLETE", event, expected=self.players[self.due()])

    # --- Moving the game along --------------------------------------------------------
    def due(self) -> int:
        """Who plays next: the first player still in, from the leader on, who has not
        played to this trick."""
        played = {p.seat for p in self.trick}
        return next((s for s in self.seating.starting(self.leader) if s not in played), self.leader)

    def _complete(self) -> bool:
        played = {p.seat for p in self.trick}
        out = self.seating.out
        return bool(played) and all(s in played or s in out for s in range(len(self.players)))

    def _resolve(self) -> None:
        """The trick is complete: it goes to its winner, who leads the next (or, when they
        are out, the next player still in after them)."""
        plays, self.trick = self.trick, []
        best = self.winner_of([p for p in plays if not p.dead])
        trick = self.last = Trick(plays, best, best.seat)
        self.taken[best.seat].append(trick)
        self.leader = best.seat
        self.claimable = True
        self.tricks_won += 1
        self._taken(trick)

    def _out(self, seat: int) -> None:
        """A player's hand is empty."""
        self.seating.out.add(seat)

    # --- What is known ----------------------------------------------------------------
    def _where(self, card: Card) -> str:
        place = self.place[card]
        if place >= 0:
            return say("where.hand", player=self.players[place])
        return say(_PLACES[place])

    def _held(self, seat: int, suit: str) -> list[Card]:
        """The cards of a suit known to be in a hand."""
        return [c for c in self.hands[seat].known if self.suit(c) == suit]

    def _sorted(self, cards) -> list[Card]:
        return sorted(cards, key=lambda c: (self.suit(c), c.rank))

    def _possible(self, seat: int) -> list[Card]:
        """The cards a player may hold, as far as the table can tell: the ones known to be
        there, and, for the cards nobody saw, every card not seen elsewhere, but a suit
        whose play would prove an earlier revoke."""
        hand = self.hands[seat]
        cards = list(hand.known)
        if hand.unseen:
            latest = hand.unseen[-1]
            barred = {v.suit for v in self.voids[seat] if not v.proven and latest < v.time}
            cards += [c for c in self.deck_order if c not in self.place and self.suit(c) not in barred]
        return cards

    def _follow_choices(self, seat: int) -> tuple[list[Card], list[Card], bool]:
        """What a player may play now: all the cards they may hold, those of the suit led,
        and whether they must follow (a card of the suit led is known to be in hand)."""
        cards = self._possible(seat)
        if not self.trick:
            return cards, cards, False
        suit = self.suit(self.trick[0].card)
        follow = [c for c in cards if self.suit(c) == suit]
        return cards, follow, any(self.suit(c) == suit for c in self.hands[seat].known)

    def _play_events(self, seat: int, cards: list[Card]) -> list[Event]:
        name = self.players[seat]
        return [Event(name, "plays", 0, 0, (c,), str(c)) for c in cards]

    def legal(self) -> list[Event]:
        if self.finished:
            return []
        events = [Event(self.players[self.last.taker], "collects", 0, 0)] if self.claimable else []
        seat = self.due()
        cards, follow, must = self._follow_choices(seat)
        return events + self._play_events(seat, follow if must else cards)

    def table(self) -> Table:
        return Table(
            turn=None if self.finished else self.players[self.due()],
            direction=1,
            hands={p: Hand(h.count, self._sorted(h.known)) for p, h in zip(self.players, self.hands)},
            piles={say("tricks.pile"): [p.card for p in self.trick]},
            extra={say("tricks.taken", player=p): str(len(t)) for p, t in zip(self.players, self.taken)},
        )

    def over(self, event: Event | None = None) -> bool:
        return self.finished

    def stats(self) -> dict[str, int]:
        return {"tricks_won": self.tricks_won}
