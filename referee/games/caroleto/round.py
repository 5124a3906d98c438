"""One round of Caroleto as it is written: the exchange, the draw, the cards laid, and
what step 4 settles (the ace's bidding, duels, dossiers, dares, the 9's draws), with the
drinks the round gives so far."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ...cards import Card
from ...messages import Listed, Said
from ..base import Drink

Words = Said | Listed | str
"""Words not yet worded (``messages.Said``), or worded."""


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Play:
    """A card laid in the round (or taken from the discard by a bout and used)."""

    seat: int
    card: Card
    kind: str
    target: int | None
    line: int
    used: bool = False
    """Taken from the discard by a bout, and used at once."""
    final: int | None = None
    """Who the effect falls on once trumps have answered (targeted cards)."""
    answer: Play | None = None
    """The trump of the player it named that answered it (None when none did), worded
    with the drink's cause."""

    def __init__(self, seat: int, card: Card, kind: str, target: int | None, line: int, used: bool = False,
                 final: int | None = None, answer: Play | None = None) -> None:
        self.seat = seat
        self.card = card
        self.kind = kind
        self.target = target
        self.line = line
        self.used = used
        self.final = final
        self.answer = answer


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Duel:
    """The 10's rock-paper-scissors duel: 2 sips, then 4, then 8 after each « double »."""

    play: Play
    players: frozenset[int]
    cause: Cause
    """The 10 and its players, in words."""
    stake: int = 2
    loser: int | None = None
    waiting: bool = True
    """A round of the duel is still to be played (a ``beats`` line)."""
    drank: bool = False
    """The loser drank: too late for « double »."""
    lost_at: int = 0
    """When its last round was lost (the game's count of duel rounds): a « double » is
    said of the last round lost."""

    def __init__(self, play: Play, players: frozenset[int], cause: Cause, stake: int = 2, loser: int | None = None,
                 waiting: bool = True, drank: bool = False, lost_at: int = 0) -> None:
        self.play = play
        self.players = players
        self.cause = cause
        self.stake = stake
        self.loser = loser
        self.waiting = waiting
        self.drank = drank
        self.lost_at = lost_at


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Dossier:
    """The Valet's dossier and the vote on it (all but the teller vote). A plain class,
    as Bidding and Round: compiled, a dataclass's ``__init__`` stays Python (the other
    classes here keep the dataclass's equality and repr, with an ``__init__`` of their own)."""

    def __init__(self, play: Play, teller: int, voters: frozenset[int], cause: Cause) -> None:
        self.play = play
        self.teller = teller
        self.voters = voters
        self.cause = cause
        self.votes: dict[int, bool] = {}
        """Voter -> True for « pourri »."""

    @property
    def complete(self) -> bool:
        return len(self.votes) == len(self.voters)

    @property
    def rotten(self) -> bool:
        """« à la majorité ou l'égalité » pourri."""
        rotten = sum(self.votes.values())
        return rotten >= len(self.votes) - rotten


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Dare:
    """The 8's truth or dare, for the player it falls on."""

    play: Play
    player: int
    choice: str | None = None
    refused: bool = False

    def __init__(self, play: Play, player: int, choice: str | None = None, refused: bool = False) -> None:
        self.play = play
        self.player = player
        self.choice = choice
        self.refused = refused


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Bidding:
    """The ace's « surenchère de couleur »: bidders in turn from the ace's next player."""

    def __init__(self, play: Play, bidder: int) -> None:
        self.play = play
        self.bidder = bidder
        self.position = 1
        """The bidder's place in the sequence: blocked there, they drink 2 ** position."""
        self.bar = 1
        """The rank to beat (the ace's 1 at first)."""
        self.bids: dict[int, int] = {}
        """Cards each bidder laid, to be drawn again (the refill)."""
        self.over = False


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class NineDraw:
    """A card owed to the 9: who draws it, in whose place, for which 9."""

    drawer: int
    place_of: int
    play: Play
    answer: Play | None = None
    """The trump of the player in whose place the card is drawn, when it answered the 9."""

    def __init__(self, drawer: int, place_of: int, play: Play, answer: Play | None = None) -> None:
        self.drawer = drawer
        self.place_of = place_of
        self.play = play
        self.answer = answer


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Round:
    """A round as written so far."""

    def __init__(self, names: tuple[str, ...], number: int, first: int | None, direction: int, last: bool,
                 line: int) -> None:
        self.names = names
        """The players, in seating order."""
        self.number = number
        self.first = first
        """Who draws first (step 2); None in round 1 when nobody announced the Roi de pique."""
        self.direction = direction
        self.last = last
        """Every hand holds one card: no draw (« dernier tour de jeu »)."""
        self.line = line
        self.step = 0
        """The furthest step begun: 1 the exchange, 2 the draw, 3 the cards laid."""
        self.exchanged: set[int] = set()
        self.exchange_owed: dict[int, int] = {}
        """Seat -> cards still to draw for its exchange (2: the face-up one comes next)."""
        self.drawn: list[int] = []
        self.plays: list[Play] = []
        self.played: set[int] = set()
        self.bouts: dict[int, Card | str] = {}
        """Seat -> "take" (its bout may take a card from the discard), the card taken (to be
        used at once), "done", or "missed" (the round closed before it took: a take after
        that is late)."""
        self.closed = False
        """The cards are all laid and their effects set out (step 4 has begun)."""
        self.table: list[Card] = []
        """Cards played, bid or used this round: the discard's at the round's end."""
        self.settled: list[tuple[int, Amount, str, Cause, int]] = []
        """Drinks given for good (seat, amount, unit, cause, line): general and targeted
        effects, draws, bids, refusals, catches."""
        self.given: dict[tuple[int, str], Amount] = {}
        """The settled drinks added up by (seat, unit)."""
        self.duels: list[Duel] = []
        self.dossiers: list[Dossier] = []
        self.dares: list[Dare] = []
        self.biddings: list[Bidding] = []
        self.nine_draws: list[NineDraw] = []
        self.refill: dict[int, int] = {}
        self.written: dict[tuple[int, str], Amount] = {}
        """Drinks the record wrote, by (seat, unit)."""
        self.writes = False
        """The record wrote a drink in this round."""
        self.caught: set[int] = set()
        self.six_drinks: set[tuple[int, str]] = set()
        """The (seat, unit) of the drink the round's 6s give."""
        self.rules: dict[tuple[int, str], str] = {}
        """(seat, unit) -> the key of the rule behind the first drink given there."""

    def complete(self, counts: list[int]) -> bool:
        """Every player has laid a card, or has none to lay."""
        if len(self.played) == len(counts):
            return True
        played = self.played
        for seat, count in enumerate(counts):
            if count and seat not in played:
                return False
        return True

    def bidding(self) -> Bidding | None:
        """The bidding going on."""
        return next((b for b in self.biddings if not b.over), None)

    def drinks(self) -> list[Drink]:
        """What the round gives so far: the settled drinks, the duels lost, the dossiers
        judged pourri; by line."""
        names, number = self.names, self.number
        found: list[Drink] = []
        for s, amount, unit, cause, line in self.causes():  # worded when shown (Drink.cause_words)
            found.append(Drink(names[s], amount, unit, cause, line, number))
        return found

    def causes(self) -> list[tuple[int, Amount, str, Words, int]]:
        """What the round gives so far, not yet worded: (seat, amount, unit, cause, line),
        by line (see ``drinks``)."""
        found: list[tuple[int, Amount, str, Words, int]] = [
            (s, amount, unit, _said(cause), line) for s, amount, unit, cause, line in self.settled]
        found += [(d.loser, d.stake, "sips", Said("ca.cause.duel", {"cause": _said(d.cause), "stake": d.stake}),
                   d.play.line) for d in self.duels if d.loser is not None and not d.waiting]
        for d in self.dossiers:
            if d.complete and d.rotten:
                rotten = sum(d.votes.values())
                cause = Said("ca.cause.dossier", {"cause": _said(d.cause), "rotten": rotten, "good": len(d.votes) - rotten})
                found.append((d.teller, 1, "half", cause, d.play.line))
        found.sort(key=lambda d: d[4])
        return found

    def give(self, seat: int, amount: Amount, unit: str, cause: Cause, line: int, rule: str = "count") -> None:
        """A drink for good; ``rule``: the key of the rule that gives it (the card's own)."""
        self.settled.append((seat, amount, unit, cause, line))
        self.given[seat, unit] = self.given.get((seat, unit), 0) + amount
        self.rules.setdefault((seat, unit), rule)

    def rule_of(self, seat: int, unit: str) -> str:
        """The rule that gave the seat its drinks of that unit (the first one given): the
        card's own rule, the duel's, the dossier's; step 4's count when none did."""
        if (seat, unit) in self.rules:
            return self.rules[seat, unit]
        if unit == "sips" and any(d.loser == seat for d in self.duels):
            return "ten"
        if unit == "half" and any(d.teller == seat for d in self.dossiers):
            return "valet"
        return "count"

    def owed(self, seat: int, unit: str) -> Amount:
        """What the seat still owes in that unit: given, less written."""
        given = self.given.get((seat, unit), 0)
        if unit == "sips":
            given += sum(d.stake for d in self.duels if d.loser == seat and not d.waiting)
        elif unit == "half":
            given += sum(1 for d in self.dossiers if d.teller == seat and d.complete and d.rotten)
        return given - self.written.get((seat, unit), 0)

    def totals(self) -> dict[tuple[int, str], Amount]:
        """Everything the round gives, by (seat, unit)."""
        given = dict(self.given)
        for duel in self.duels:
            if duel.loser is not None and not duel.waiting:
                given[duel.loser, "sips"] = given.get((duel.loser, "sips"), 0) + duel.stake
        for dossier in self.dossiers:
            if dossier.complete and dossier.rotten:
                given[dossier.teller, "half"] = given.get((dossier.teller, "half"), 0) + 1
        return given

    def owing(self) -> dict[tuple[int, str], Amount]:
        """Everything still owed, by (seat, unit)."""
        owed = self.totals()
        for key, amount in self.written.items():
            owed[key] = owed.get(key, 0) - amount
        return {key: amount for key, amount in owed.items() if amount > 1e-9}


Amount = int | float
"""A drink's amount: whole for gorgées, halves and glasses; the central glass in thirds. Not
``float``, which compiled with mypyc would make every 2 gorgées 2.0."""

Cause = Words | Callable[[], Words]
"""A drink's cause, or what makes it when asked (most causes are never shown)."""


def _said(cause: Cause) -> Words:
    return cause if isinstance(cause, (Said, Listed, str)) else cause()


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Once:
    """A cause worded the first time it is asked for (a 7's or the 6s' drinks share one).
    A class, not a closure: the rules' copies and pickles hold it (compiled with mypyc, a
    closure cannot be copied)."""

    def __init__(self, word: Callable[[], Words]) -> None:
        self.word = word
        self.text: Words | None = None

    def __call__(self) -> Words:
        if self.text is None:
            self.text = self.word()
        return self.text
