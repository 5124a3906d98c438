"""Tricks, shared by the trick games (Pierre qui Roule, Flaschenteufel).

One player leads a card; each other player still in adds one in turn, following the suit
led (the colour, in Flaschenteufel) when they can; the trick's winner leads the next.
``TrickRules`` keeps what every trick game needs: whose turn it is, the trick on the
table, the tricks taken, what is known of each hand (the cards seen, each with the time
since which it is surely held), and revokes: seen at once when a card of the suit led is
known to be in the hand, or proven later, when the player plays a card of that suit
that they surely held at the time (flagged at the earlier play, naming the later one).

A game subclasses it and says what a suit is (``suit``), how many cards a hand holds
(``hand_size``), who wins a trick (``winner_of``) and why (``why_won``), what a player
who does not follow may do (``_not_followed``, ``_collect_unfinished``), and, for
``simulate --mistakes``, what a revoke or a card of another suit draws
(``_revoke_codes``, ``_void_codes``)."""

from __future__ import annotations

import copy
from bisect import insort
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ..cards import UNSEEN, UNSEEN_CARD, Card
from ..messages import Said, join, listed, said, say
from ..record import Event
from .base import Hand, Legal, Mistake, Rules, Setup, Table
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


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Holding:
    """What is known of one player's cards: the cards seen, each with the time it came
    into the hand (0: dealt), and the times the unseen ones came in, earliest first."""

    known: dict[Card, int] = field(default_factory=dict)
    unseen: list[int] = field(default_factory=list)

    def __init__(self, known: dict[Card, int] | None = None, unseen: list[int] | None = None) -> None:
        self.known = known if known is not None else {}
        self.unseen = unseen if unseen is not None else []

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


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Play:
    """A card in the trick on the table."""

    seat: int
    card: Card
    event: Event
    column: int
    dead: bool = False
    """A second card from the same player in one trick: it goes with the trick, but
    neither wins nor sets the suit."""

    def __init__(self, seat: int, card: Card, event: Event, column: int, dead: bool = False) -> None:
        self.seat = seat
        self.card = card
        self.event = event
        self.column = column
        self.dead = dead


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Trick:
    """A trick played out: its cards, the card that wins it by the rules, and the player
    who took it (the winner, unless the record's ``collects`` names another)."""

    plays: list[Play]
    best: Play
    taker: int

    def __init__(self, plays: list[Play], best: Play, taker: int) -> None:
        self.plays = plays
        self.best = best
        self.taker = taker

    @property
    def winner(self) -> int:
        return self.best.seat

    @property
    def cards(self) -> list[Card]:
        return [p.card for p in self.plays]


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Void:
    """A player who did not follow ``suit``: they held none of it, or they revoked; a
    later play of a card of that suit that they surely held since before proves it."""

    suit: str
    time: int
    event: Event
    column: int
    led: Card
    card: Card | None
    """The card they played instead, or None: they picked the trick up."""
    proven: bool = False

    def __init__(self, suit: str, time: int, event: Event, column: int, led: Card, card: Card | None,
                 proven: bool = False) -> None:
        self.suit = suit
        self.time = time
        self.event = event
        self.column = column
        self.led = led
        self.card = card
        self.proven = proven


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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
        """Where each card seen is: a seat (in that hand), PLAYED, ASIDE or GIVEN."""
        self.deal_lines: dict[int, Event] = {}
        self.started = False
        self.time = 0
        """Events replayed so far: the clock of ``Holding`` and ``Void``."""
        self.deck_order, self.suit_of = _layout(type(self).suit, self.in_play)
        self.count = n
        self.playing = False
        self.leader = setup.first
        self.trick: list[Play] = []
        self.played: set[int] = set()
        """The seats that have played to the trick on the table."""
        self.led = ""
        """The suit of the trick on the table."""
        self._due: int | None = None
        """Who plays next, once worked out (None: to work out again)."""
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

    @classmethod
    def suit(cls, card: Card) -> str:
        """The suit (or colour) a card follows."""
        raise NotImplementedError

    def suit_words(self, suit: str) -> Said:
        """A card of that suit, in words: « a heart », « a blue card »."""
        raise NotImplementedError

    @classmethod
    def card_order(cls, card: Card) -> tuple[int | str, ...]:
        """Where a card comes when a hand is written out."""
        return cls.suit(card), card.rank

    def winner_of(self, plays: list[Play]) -> Play:
        """The card that wins a complete trick (its cards that count, lead first)."""
        raise NotImplementedError

    def why_won(self, trick: Trick) -> Said:
        """Why the trick goes to its winner, in words."""
        raise NotImplementedError

    def why_taken(self, trick: Trick) -> Said:
        """Why the trick goes to its winner: the game's reason (``why_won``), or, when no
        card of the game is in it (cards outside the deck the table let stand), that it
        goes to the player who led it."""
        if all(p.dead for p in trick.plays):
            return said("tricks.won-stray")
        return self.why_won(trick)

    def _taken(self, trick: Trick) -> None:
        """A trick has just been taken by its winner (the bottle, in Flaschenteufel)."""

    def _retaken(self, trick: Trick, before: int) -> None:
        """The record gave the last trick to another player than its winner."""

    # --- Events -----------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        self.time += 1
        seat = self.seats[event.player]
        verb = event.verb
        if verb == "holds":
            self._holds(seat, event)
            return
        if not self.started:
            self._begin()
        if verb == "plays":
            for i, card in enumerate(event.cards):
                self._play(seat, card, event, event.card_column(i) if i else event.cards_column)
        else:
            getattr(self, "_" + verb)(seat, event)

    def _holds(self, seat: int, event: Event) -> None:
        if self.started:
            self.flag("REC-LATE-DEAL", event)
            return
        place = self.place
        for card in self.hands[seat].known:
            if place.get(card) == seat:
                del place[card]
        hand = self.hands[seat] = Holding()
        known, unseen = hand.known, hand.unseen
        for i, card in enumerate(event.cards):
            if card.suit == UNSEEN:
                unseen.append(0)
            elif card in known:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=said("where.hand", player=event.player))
            else:
                if card in place:
                    self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=self._where(card))
                else:
                    place[card] = seat
                known[card] = 0
        self.deal_lines.setdefault(seat, event)
        if hand.count != self.size:
            self.flag("REC-BAD-DEAL", event, count=hand.count, expected=self.size)

    def _begin(self) -> None:
        """At the first event after the deal: the hands not given are noted."""
        self.started = True
        unknown = [self.players[s] for s in range(len(self.players)) if s not in self.deal_lines]
        if unknown:
            self.notes.append(said("note.hands-unseen", players=listed(unknown)))

    def _start(self, event: Event) -> None:
        """The first card of the first trick."""
        self.playing = True

    def _play(self, seat: int, card: Card, event: Event, column: int) -> None:
        """One card played to the trick (the hot path of the replay: kept lean)."""
        if card.suit == UNSEEN:
            self.flag("TR-UNSEEN-CARD", event, column)
            return
        if not self.playing:
            self._start(event)
        due = self._due if self._due is not None else self.due()
        if seat != due:
            why, rule = self.turn_why(due)
            self.flag("TR-OUT-OF-TURN", event, column, rule=rule, card=card, expected=self.players[due], why=why)
        played, trick = self.played, self.trick
        dead = seat in played
        hand = self.hands[seat]
        since: int | None
        if card in hand.known:
            self.place[card] = PLAYED
            since = hand.known.pop(card)
        else:
            since = self._take_other(seat, card, event, column)
        play = Play(seat, card, event, column, dead)
        if not self.led:
            self.led = self.suit_of[card]
        elif not dead and since is not None and self.suit_of[card] != self.led:
            self._not_followed(seat, play)
        if since is not None and self.voids[seat]:
            self._prove(seat, card, since, event)
        trick.append(play)
        played.add(seat)
        self._due = None
        self.claimable = False
        self.cards_played += 1
        if not hand.known and not hand.unseen:
            self._out(seat)
        if not self.finished and len(played | self.seating.out) == self.count:
            self._resolve()

    def lay_stray(self, event: Event, index: int) -> None:
        """A card outside the deck, laid in turn, that the table let stand (the next
        player played on): it counts as laid, in the trick and out of the hand, but,
        being no card of the game, it neither wins nor sets the suit to follow."""
        seat = self.seats[event.player]
        if not self.started:
            self._begin()
        if self.finished or seat in self.played or seat != self.due():
            return
        if not self._lose_unnamed(seat):
            return
        if not self.playing:
            self._start(event)
        # the card that left the hand is not known: it goes with the trick as one nobody saw
        self.trick.append(Play(seat, UNSEEN_CARD, event, event.card_column(index), dead=True))
        self.played.add(seat)
        self._due = None
        self.claimable = False
        self.cards_played += 1
        if not self.hands[seat].count:
            self._out(seat)
        if not self.finished and len(self.played | self.seating.out) == self.count:
            self._resolve()

    def _emptied(self, seat: int) -> None:
        """A hand emptied otherwise than by a card to the trick (a card given or laid
        aside late): the player is out, and the trick may be complete without them."""
        if not self.hands[seat].count and seat not in self.seating.out:
            self._out(seat)
            if self.trick and not self.finished and len(self.played | self.seating.out) == self.count:
                self._resolve()

    def _take(self, seat: int, card: Card, event: Event, column: int) -> int | None:
        """A named card leaves a player's hand: the time since which they surely held it,
        or None when nothing says they held it (the card is flagged then)."""
        hand = self.hands[seat]
        if card in hand.known:
            self.place[card] = PLAYED
            return hand.known.pop(card)
        return self._take_other(seat, card, event, column)

    def _take_other(self, seat: int, card: Card, event: Event, column: int) -> int | None:
        """``_take`` for a card not known to be in the hand."""
        hand = self.hands[seat]
        where = self.place.get(card)
        if where is not None:
            self.flag("REC-DUPLICATE-CARD", event, column, card=card, where=self._where(card))
            if where >= 0:  # the other hand held some other card there
                other = self.hands[where]
                other.add(UNSEEN_CARD, other.known.pop(card))
            self._lose_one(seat)
        elif not hand.count:
            self._not_in_hand(event, column, card, said("tricks.no-cards"))
        elif not hand.unseen:
            self._not_in_hand(event, column, card, said("tricks.known", cards=tuple(self._sorted(hand.known))))
            self._lose_one(seat)
        else:
            self.place[card] = PLAYED
            return hand.take_unseen()
        self.place[card] = PLAYED
        return None

    def _not_in_hand(self, event: Event, column: int, card: Card, why: Said, rule: str | None = None) -> None:
        """A card played, given or laid aside that is not in the hand: ``why``, in words."""
        self.flag("TR-NOT-IN-HAND", event, column, rule=rule, card=card, verb=said(f"tricks.verb.{event.verb}"), why=why)

    def _part_with(self, seat: int, card: Card, event: Event, column: int) -> None:
        """A card leaves a hand face down, named or not (``??``)."""
        if card.seen:
            self._take(seat, card, event, column)
            return
        if not self._lose_unnamed(seat):
            self._not_in_hand(event, column, card, said("tricks.no-cards"))

    def _lose_unnamed(self, seat: int) -> bool:
        """A card nobody named left a hand (one of its unseen cards, else one of its
        cards, which then is not known); False when the hand had none."""
        hand = self.hands[seat]
        if hand.unseen:
            hand.take_unseen()
        elif hand.count:
            self._lose_one(seat)
        else:
            return False
        return True

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
        self._revoked(seat, play.event, play.column, play.card)

    def _revoked(self, seat: int, event: Event, column: int, card: Card | None) -> bool:
        """A player did not follow (played ``card``, or picked the trick up when it is
        None): flag a revoke when a card of the suit led is known to be in the hand; else
        keep the void for a later proof."""
        suit, led = self.led, self.trick[0].card
        hand = self.hands[seat]
        held = self._held(seat, suit)
        if held:
            self.flag("TR-REVOKE", event, column, did=did_words(card, led), held=tuple(self._sorted(held)))
            return True
        if hand.unseen:
            self.voids[seat].append(Void(suit, self.time, event, column, led, card))
        return False

    def _prove(self, seat: int, card: Card, since: int, event: Event) -> None:
        """A card surely held since ``since`` proves every earlier void in its suit that
        came after that time."""
        suit = self.suit_of[card]
        for void in self.voids[seat]:
            if not void.proven and void.suit == suit and since < void.time:
                void.proven = True
                self.flag("TR-REVOKE-PROVEN", void.event, void.column, player=self.players[seat], did=did_words(void.card, void.led),
                          suit=self.suit_words(suit), card=card, line=event.line)
                self._void_proven(void)

    def _void_proven(self, void: Void) -> None:
        """A player who did not follow is proven to have held the suit (for the stats)."""

    def _collects(self, seat: int, event: Event) -> None:
        if self.claimable:
            self.claimable = False
            trick = self.last
            assert trick is not None  # claimable: a trick was just taken
            if seat != trick.taker:
                self._wrong_taker(seat, event, trick)
                before = trick.taker
                self.taken[before].remove(trick)
                self.taken[seat].append(trick)
                trick.taker = self.leader = seat
                self._due = None
                self._retaken(trick, before)
        elif self.trick:
            self._collect_unfinished(seat, event)
        else:
            self.flag("TR-NOTHING-TO-COLLECT", event)

    def _wrong_taker(self, seat: int, event: Event, trick: Trick) -> None:
        self.flag("TR-WRONG-WINNER", event, winner=self.players[trick.winner], why=self.why_taken(trick))

    def _collect_unfinished(self, seat: int, event: Event) -> None:
        """``collects`` while the trick is still being played."""
        self.flag("TR-NOT-COMPLETE", event, expected=self.players[self.due()])

    # --- Moving the game along --------------------------------------------------------
    def turn_why(self, due: int) -> tuple[Said, str]:
        """What made it ``due``'s turn, in words, and the rule that decided it (a key of
        the game's ``RULES``): the trick on the table going round, the first lead, or the
        last trick taken (by its winner, or by whoever the record gave it to)."""
        name = self.players[due]
        if self.trick:
            return said("tricks.turn.next", player=name, leader=self.players[self.leader]), "turn-next"
        last = self.last
        if last is None:
            return said("tricks.turn.first", player=name), "turn-first"
        taker = self.players[last.taker]
        if last.taker != due:
            return said("tricks.turn.taker-out", player=name, taker=taker), "turn-lead"
        if last.taker != last.winner:
            return said("tricks.turn.given", player=name), "turn-lead"
        return said("tricks.turn.won", player=name, why=self.why_taken(last)), "turn-lead"

    def due(self) -> int:
        """Who plays next: the first player still in, from the leader on, who has not
        played to this trick."""
        seat = self.seating.first(self.leader, self.played)
        self._due = self.leader if seat is None else seat
        return self._due

    def _clear(self) -> list[Play]:
        """The trick leaves the table: its cards."""
        plays, self.trick, self.played, self._due, self.led = self.trick, [], set(), None, ""
        return plays

    def _resolve(self) -> None:
        """The trick is complete: it goes to its winner, who leads the next (or, when they
        are out, the next player still in after them)."""
        plays = self._clear()
        live = [p for p in plays if not p.dead]
        best = self.winner_of(live) if live else plays[0]
        trick = self.last = Trick(plays, best, best.seat)
        self.taken[best.seat].append(trick)
        self.leader = best.seat
        self.claimable = True
        self.tricks_won += 1
        self._taken(trick)

    def _out(self, seat: int) -> None:
        """A player's hand is empty."""
        self.seating.out.add(seat)
        self._due = None

    # --- What is known ----------------------------------------------------------------
    def _where(self, card: Card) -> Said:
        place = self.place[card]
        if place >= 0:
            return said("where.hand", player=self.players[place])
        return said(_PLACES[place])

    def _held(self, seat: int, suit: str) -> list[Card]:
        """The cards of a suit known to be in a hand."""
        return [c for c in self.hands[seat].known if self.suit_of[c] == suit]

    def _sorted(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.card_order)

    def _possible(self, seat: int) -> list[Card]:
        """The cards a player may hold, as far as the table can tell: the ones known to be
        there, and, for the cards nobody saw, every card not seen elsewhere, but a suit
        whose play would prove an earlier revoke."""
        hand = self.hands[seat]
        cards = list(hand.known)
        if hand.unseen:
            latest = hand.unseen[-1]
            barred = {v.suit for v in self.voids[seat] if not v.proven and latest < v.time}
            cards += [c for c in self.deck_order if c not in self.place and self.suit_of[c] not in barred]
        return cards

    def _follow_choices(self, seat: int) -> tuple[list[Card], list[Card], bool]:
        """What a player may play now: all the cards they may hold, those of the suit led,
        and whether they must follow (a card of the suit led is known to be in hand)."""
        cards = self._possible(seat)
        if not self.led:
            return cards, cards, False
        follow = [c for c in cards if self.suit_of[c] == self.led]
        return cards, follow, any(self.suit_of[c] == self.led for c in self.hands[seat].known)

    def _play_events(self, seat: int, cards: list[Card]) -> list[Event]:
        name = self.players[seat]
        return [Event(name, "plays", 0, 0, (c,), str(c)) for c in cards]

    def legal(self) -> list[Legal]:
        if self.finished:
            return []
        last = self.last if self.claimable else None  # claimable: a trick was just taken
        events: list[Legal] = [Event(self.players[last.taker], "collects", 0, 0)] if last is not None else []
        seat = self.due()
        return events + self._choices(seat, *self._follow_choices(seat))

    def _choices(self, seat: int, cards: list[Card], follow: list[Card], must: bool) -> list[Event]:
        """What the player due may lay: a card of the suit led when they hold one, else any."""
        return self._play_events(seat, follow if must else cards)

    # --- Table mistakes, for simulate --mistakes ------------------------------------------
    def mistakes(self, hidden: bool = False) -> list[Mistake]:
        """Cards played out of turn or face down, revokes, cards of another suit, tricks
        taken by the wrong player, too early or twice: each with the codes worked out
        from the situation. The simulator's replay knows every hand; ``hidden``: the
        record does not, so a revoke is flagged only when the table sees it (see
        ``_revoke_codes``). Cards that are not in the hand (written wrong) are left out:
        their replay forgets what the hand held, and the simulator plays on from it."""
        if self.finished:
            return []
        return [*self._card_mistakes(hidden), *self._collect_mistakes(hidden)]

    def _card_mistakes(self, hidden: bool) -> list[Mistake]:
        due, found = self.due(), []
        led = self.led or None
        for seat, name in enumerate(self.players):
            cards = self._sorted(self.hands[seat].known)
            if not cards:
                continue
            if seat == due:
                found.append(Mistake(play_event(name, UNSEEN_CARD), ("TR-UNSEEN-CARD",)))
                if led is not None:
                    found += self._off_suit_mistakes(seat, cards, hidden)
                continue
            codes = ("TR-OUT-OF-TURN",)
            if seat in self.played or led is None:
                found += [Mistake(play_event(name, c), codes) for c in cards]
                continue
            follow = [c for c in cards if self.suit_of[c] == led]
            found += [Mistake(play_event(name, c), codes) for c in follow]
            if not follow:  # a player with none of the suit led: no revoke to prove, ever
                found += [Mistake(play_event(name, c), codes + self._void_codes()) for c in cards]
        return found

    def _off_suit_mistakes(self, seat: int, cards: list[Card], hidden: bool) -> list[Mistake]:
        """The player due does not follow: a revoke when they hold the suit led, else (a
        player with none) whatever the game says of a card of another suit."""
        name = self.players[seat]
        follow = [c for c in cards if self.suit_of[c] == self.led]
        others = [c for c in cards if self.suit_of[c] != self.led]
        if follow:
            codes = self._revoke_codes(seat, follow, hidden)
            return [Mistake(play_event(name, c), codes) for c in others] if codes else []
        codes = self._void_codes()
        return [Mistake(play_event(name, c), codes) for c in others] if codes else []

    def _revoke_codes(self, seat: int, held: list[Card], hidden: bool) -> tuple[str, ...]:
        """What a revoke by a player who holds ``held`` draws: TR-REVOKE when the table
        knows one of them is in the hand (all of them, when the deal is written); with
        the deal hidden, the game says (nothing: no mistake)."""
        return () if hidden else ("TR-REVOKE",)

    def _void_codes(self) -> tuple[str, ...]:
        """What a card of another suit draws from a player who has none of the suit led."""
        return ()

    def _collect_mistakes(self, hidden: bool) -> list[Mistake]:
        if self.claimable and self.last is not None:  # claimable: a trick was just taken
            code, taker = self._wrong_taker_code(), self.last.taker
            return [Mistake(Event(p, "collects", 0, 0), (code,)) for s, p in enumerate(self.players) if s != taker]
        if self.trick:
            return self._unfinished_collect_mistakes(hidden)
        return [Mistake(Event(p, "collects", 0, 0), ("TR-NOTHING-TO-COLLECT",)) for p in self.players]

    def _wrong_taker_code(self) -> str:
        return "TR-WRONG-WINNER"

    def _unfinished_collect_mistakes(self, hidden: bool) -> list[Mistake]:
        return [Mistake(Event(p, "collects", 0, 0), ("TR-NOT-COMPLETE",)) for p in self.players]

    def ruling(self, event: Event) -> str | None:
        """A legal line in words: a lead, a card that follows or cannot, the trick it
        completes and why it goes to its winner; a trick taken; a pick-up."""
        name, verb = event.player, event.verb
        if verb == "holds":
            return say("tricks.ruling.holds", player=name, count=len(event.cards))
        if verb == "scores":
            return say("tricks.ruling.scores", player=name, score=event.word)
        if verb == "collects":
            if self.claimable and self.last is not None and self.seats[name] == self.last.taker:
                return say("tricks.ruling.collect", player=name, why=self.why_taken(self.last))
            if self.trick:
                return say("tricks.ruling.pick-up", player=name, count=len(self.trick), suit=self.suit_words(self.led))
            return None
        if verb != "plays" or not event.cards:
            return None
        card = event.cards[0]
        if not self.led:
            said = say("tricks.ruling.lead", player=name, card=card, suit=self.suit_words(self.suit_of[card]))
        elif self.suit_of[card] == self.led:
            said = say("tricks.ruling.follow", player=name, card=card, suit=self.suit_words(self.led))
        else:
            key = "tricks.ruling.void" if self.hands[self.seats[name]].unseen else "tricks.ruling.void-known"
            said = say(key, player=name, card=card, suit=self.suit_words(self.led))
        after = copy.deepcopy(self, {id(self.setup): self.setup})  # the trick as this line completes it
        after.apply(event)
        if after.tricks_won > self.tricks_won:
            trick = after.last
            assert trick is not None  # a trick was just won
            said += say("tricks.ruling.trick", player=after.players[trick.winner], why=after.why_taken(trick))
        return said

    def table(self) -> Table:
        return Table(
            turn=None if self.finished else self.players[self.due()],
            direction=1,
            hands={p: Hand(h.count, self._sorted(h.known)) for p, h in zip(self.players, self.hands)},
            piles={say("tricks.pile"): [p.card for p in self.trick]},
            extra={say("tricks.taken", player=p): str(len(t)) for p, t in zip(self.players, self.taken)},
        )

    def over(self, event: Event | None = None) -> bool:
        """Over once the game is, but for taking the last trick: its ``collects`` still
        says who took it (and in Flaschenteufel, who has the bottle)."""
        return self.finished and not (self.claimable and event is not None and event.verb == "collects")

    def stats(self) -> dict[str, int]:
        return {"tricks_won": self.tricks_won}


def play_event(player: str, card: Card) -> Event:
    return Event(player, "plays", 0, 0, (card,), str(card))


def did_words(card: Card | None, led: Card) -> Said:
    """What a player did instead of following, in words."""
    return said("tricks.did.play", card=card, led=led) if card is not None else said("tricks.did.pick", led=led)


@lru_cache(maxsize=32)
def _layout(suit: Callable[[Card], str], deck: frozenset[Card]) -> tuple[tuple[Card, ...], dict[Card, str]]:
    """A deck in order, and each card's suit: worked out once per game (its ``suit``
    classmethod, bound to it) and deck."""
    order = tuple(sorted(deck))
    return order, {card: suit(card) for card in order}
