"""The state of a Caroleto table, and the questions every part asks of it (who draws
next, what a card from the stock is for, what step 4 must still settle, which drinks
are owed, whether the game is over, the round that would begin now): shared by the
rules class (rules.py), what may be written next (legal.py), the table's mistakes
(mistakes.py) and the rulings (ruling.py), which all stand on it."""

from __future__ import annotations

from typing import TypedDict

from mypy_extensions import mypyc_attr

from ...cards import RANK_NAMES, TAROT_78, Card
from ...messages import Listed, Said, clauses, listed, said
from ...record import Event
from ..base import UNITS, Rules, Setup, amount_said
from ..seating import Seating
from .places import Places
from .round import Amount, Bidding, Play, Round


STATS = ("rounds", "cards_played", "exchanges", "biddings", "bids", "duels", "dossiers", "catches", "reshuffles")
"""What a game's statistics count, in the order shown."""


def hand_size(setup: Setup) -> int:
    """The cards dealt to each player (the ``Cards`` option: a whole number)."""
    cards = setup.options["Cards"]
    assert isinstance(cards, int)  # Option.read gives a number option an int, default_cards too
    return cards


def say_players(key: str, players: list[str], **fields: object) -> Said:
    """A sentence about some players, its verb agreeing with their number (key.one for one)."""
    return said(key + ".one" if len(players) == 1 else key, players=listed(players), **fields)


class MissingDrink(TypedDict, total=False):
    """The fields of a drink's violation at a round's end (``Rules.flag``'s player, then
    the message's fields)."""

    player: str
    why: Said
    number: int
    amount: Said
    causes: Listed


@mypyc_attr(allow_interpreted_subclasses=True)  # so that a call from Python code runs __init__
class CaroletoState(Rules):
    """What a Caroleto table knows and owes at each moment of the game."""

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self.n = n = len(self.players)
        self.hand_size = hand_size(setup)
        self.every_round = setup.options["Drinks"] == "all"
        self.places = Places(self.deck, n)
        self.counts = [self.hand_size] * n
        self.stock = len(TAROT_78) - n * self.hand_size
        self.discard: list[Card] = []
        """The discard's cards that were seen, bottom first."""
        self.discard_unseen = 0
        self.seating = Seating(n)
        self.dealt: dict[int, Event] = {}
        self.dealt_cards: dict[Card, int] = {}
        self.started = False
        self.announced: int | None = None
        self.announce_flagged = False
        self.roi_by_announcement = False
        """The Roi de pique's whereabouts come from the announcement alone (no deal line)."""
        self.round: Round | None = None
        self.done: list[Round] = []
        self.next_first: int | None = None
        self.duel_rounds = 0
        """Duel rounds played so far: the clock that tells which round was lost last."""
        self.turned_in: int | None = None
        """The round whose Dame(s) last turned the table."""
        self.central = 0
        """The central glass, in thirds."""
        self.standing: list[Play] = []
        """The Cavaliers played: the standing rules."""
        self.roi_played = False
        self.roi_flagged = False
        self.last_event: Event | None = None
        self.catchable: int | None = None
        """The player who just drank, whom a standing rule may catch."""
        self.counter = dict.fromkeys(STATS, 0)
        """What ``stats()`` counts (a plain dictionary: a Counter's methods are Python's)."""
        self._noted: dict[str, tuple[int, list[int]]] = {}

    def _next_drawer(self, r: Round) -> int | None:
        """Who takes a card next; None when the first drawer is not known yet."""
        if r.first is None:
            return None
        n, direction, counts = self.n, r.direction, self.counts
        for k in range(n):
            seat = (r.first + k * direction) % n
            if seat not in r.drawn and counts[(seat - direction) % n]:
                return seat
        return None

    def _undrawn(self, r: Round) -> list[int]:
        """Who has still to take a card in this round's draw: none in the last round, nor
        once the cards are being laid; a player whose neighbour has no card takes none."""
        if r.last or r.step > 2:
            return []
        return [s for s in range(self.n) if s not in r.drawn and self.counts[(s - r.direction) % self.n]]

    def _draw_kind(self, r: Round | None, seat: int) -> str | None:
        """What the seat's next card from the stock is for: the exchange's face-up or
        face-down card, a 9's card, the refill; None when nothing calls for one."""
        if r is None:
            return None
        owed = r.exchange_owed.get(seat, 0)
        if owed:
            return "exchange-up" if owed % 2 == 0 else "exchange-down"
        if not r.closed:
            return None
        if any(d.drawer == seat for d in r.nine_draws):
            return "nine"
        if r.refill.get(seat):
            return "refill"
        return None

    def _bouts_open(self, r: Round) -> bool:
        """A bout may still take a card from the discard, or has one to lay."""
        if any(isinstance(v, Card) for v in r.bouts.values()):
            return True
        return (bool(self.discard) or self.discard_unseen > 0) and any(v == "take" for v in r.bouts.values())

    def _cards_left(self) -> bool:
        """Some hand still holds a card (``any(self.counts)``, which compiled calls the
        built-in through Python at each event the engine asks ``over`` of)."""
        for count in self.counts:
            if count:
                return True
        return False

    def _can_draw(self) -> bool:
        """A card may still come from the stock (or the discard shuffled into it)."""
        return self.stock + len(self.discard) + self.discard_unseen > 0

    def _pending(self, r: Round) -> list[tuple[str, str | None, Said]]:
        """What step 4 must still settle: (code at the round's end, player, in words)."""
        names = self.players
        found: list[tuple[str, str | None, Said]] = []
        draw = self._can_draw()
        for seat, owed in r.exchange_owed.items():
            if draw:
                found.append(("CA-UNSETTLED", names[seat], said("ca.pending.exchange", player=names[seat], count=owed)))
        for duel in r.duels:
            if duel.waiting:
                a, b = sorted(duel.players)
                found.append(("CA-UNSETTLED", None, said("ca.pending.duel", a=names[a], b=names[b], stake=duel.stake,
                                                        card=duel.play.card)))
        for dossier in r.dossiers:
            if not dossier.complete:
                missing = [names[s] for s in sorted(dossier.voters - set(dossier.votes))]
                found.append(("CA-UNSETTLED", None, say_players("ca.pending.votes", missing,
                                                        teller=names[dossier.teller], card=dossier.play.card)))
        bidding = r.bidding()
        if bidding is not None:
            found.append(("CA-UNSETTLED", names[bidding.bidder], said("ca.pending.bid", player=names[bidding.bidder],
                                                                     card=bidding.play.card, bar=self._bar(bidding))))
        if draw:
            for d in r.nine_draws:
                found.append(("CA-UNSETTLED", names[d.drawer], said("ca.pending.nine", player=names[d.drawer],
                                                                   card=d.play.card)))
            for seat, owed in r.refill.items():
                found.append(("CA-HAND-SIZE", names[seat], said("ca.pending.refill", player=names[seat], count=owed)))
        return found

    @staticmethod
    def _bar(b: Bidding) -> Card:
        """The card a bid must beat: the highest of the ace's suit bid so far (the ace at first)."""
        return Card(b.bar, b.play.card.suit)

    def _owed_drinks(self, r: Round) -> list[tuple[int, str, Amount]]:
        """(seat, unit, amount) still to drink, for a round whose drinks are written."""
        return all_owed(r) if r.writes or self.every_round else []

    def _missing_drink_codes(self, r: Round) -> list[tuple[str, MissingDrink]]:
        """Each drink still owed, as the code and fields of its violation: CA-DRINK-MISSING,
        or CA-TRUMP-ON-SIX when a 6's drink was left to a player who laid a trump."""
        owing = all_owed(r)
        if not owing:
            return []
        drinks = r.causes()
        found: list[tuple[str, MissingDrink]] = []
        for seat, unit, owed in owing:
            name, amount = self.players[seat], self._amount(owed, unit)
            mine = [(cause, line) for s, _, u, cause, line in drinks if s == seat and u == unit]
            causes = clauses([said("ca.cause.line", cause=cause, line=line) for cause, line in mine])
            stopped = (seat, unit) in r.six_drinks and any(p.seat == seat and p.kind in ("back", "redirect") for p in r.plays)
            if stopped:
                found.append(("CA-TRUMP-ON-SIX", {"player": name, "why": said("ca.six.drink", player=name, amount=amount,
                                                                             causes=causes)}))
            else:
                found.append(("CA-DRINK-MISSING", {"player": name, "number": r.number, "amount": amount, "causes": causes}))
        return found

    @staticmethod
    def _amount(amount: Amount, unit: str) -> Said:
        """An amount of a unit in words (a method, not ``staticmethod(amount_said)``: mypyc
        takes no such class attribute)."""
        return amount_said(amount, unit)

    def _finished(self) -> bool:
        """No card left, the last round's effects set out, settled and drunk."""
        r = self.round
        if r is None or self._cards_left() or not r.complete(self.counts) or not r.closed:
            return False
        return not self._pending(r) and not self._owed_drinks(r)


def next_round(state: CaroletoState) -> Round:
    """The round that would begin now: its first drawer, direction and whether it is the last."""
    r = state.round
    direction = state.seating.direction
    if r is None:
        return Round(state.players, 1, state.announced, direction, all(c <= 1 for c in state.counts), 0)
    if sum(p.kind == "dame" for p in r.plays) % 2:
        direction = -direction
    first = (r.first + direction) % state.n if r.first is not None else None
    return Round(state.players, r.number + 1, first, direction, all(c <= 1 for c in state.counts), 0)


def all_owed(r: Round) -> list[tuple[int, str, Amount]]:
    """(seat, unit, amount) still to drink in the round, by seat and unit."""
    owing = r.owing()
    return [(s, u, owing[s, u]) for s, u in sorted(owing, key=lambda k: (k[0], UNITS.index(k[1])))]
