"""The state of a Carte et Plouc table, and the questions play asks of it (what fits
now, what may end a plouc, which earlier draw a card proves wrong): shared by the rules
class (rules.py, through calls.py), the simulator's side (play.py) and the rulings
(ruling.py), which all stand on it."""

from __future__ import annotations

from dataclasses import dataclass, field

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ...cards import ACE, QUEEN, Card
from ...messages import Said, said, say
from ...record import Event
from ..base import Rules, Setup
from ..seating import Seating
from .cards import KING_OF_SPADES, SEVEN, SEVEN_OF_SPADES, SIX, TEN, THREE_OF_CLUBS, TWO, Cards


def hand_size(players: int) -> int:
    """« Jusqu'à 6 joueurs, on distribue 7 cartes à chacun. De 7 à 9 joueurs, on distribue 5 cartes. »"""
    return 7 if players <= 6 else 5


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Pass:
    """A draw (or pass) instead of a play, while the hand held cards nobody saw: a card
    played later that was surely in the hand then, and playable then, proves it wrong."""

    seq: int
    line: int
    rank: int
    suit: str
    count: int
    verb: str

    def __init__(self, seq: int, line: int, rank: int, suit: str, count: int, verb: str) -> None:
        self.seq = seq
        self.line = line
        self.rank = rank
        self.suit = suit
        self.count = count
        self.verb = verb


@dataclass(slots=True, init=False)  # its own __init__: compiled by mypyc, where the dataclass's would not be
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Unverified:
    """A player's note of the draws (and passes) whose lines could not be verified: its
    place among the notes, the first lines, and how many there are in all."""

    index: int
    lines: list[int] = field(default_factory=list)
    count: int = 0

    def __init__(self, index: int, lines: list[int] | None = None, count: int = 0) -> None:
        self.index = index
        self.lines = lines if lines is not None else []
        self.count = count


@mypyc_attr(allow_interpreted_subclasses=True)
class PloucState(Rules):
    """What a Carte et Plouc table knows and owes at each moment of the game."""

    def __init__(self, setup: Setup):
        super().__init__(setup)
        o = setup.options
        sanction, variants = o["Sanction"], o["Variants"]
        assert isinstance(sanction, str) and isinstance(variants, frozenset)  # the options' choices
        self.sanction_kind: str = sanction
        self.variants: frozenset[str] = variants
        self.play_on = o["PlayOn"] == "yes"
        self.reshuffle = o["Reshuffle"] == "yes"
        self.reverse_skips = o["TwoPlayerReverse"] == "skip"
        self.david = "david-le-fou" in self.variants
        self.zero = "zero" in self.variants
        self.six = "six" in self.variants
        n = len(self.players)
        self.size = hand_size(n)
        self.cards = Cards(self.players, self.size)
        self.seating = Seating(n)
        self.turn = setup.first
        self.again: str | None = None
        """Why the player whose turn it is plays again (a key of AGAIN_RULES), if they do."""
        self.owed = 0
        """Cards to draw (7s, the Roi de pique) by the next player who takes a turn."""
        self.debt: list[Card] | None = []
        """The cards that make the cards owed (7s, the Roi de pique); None: a carré of 7s."""
        self.stack: str | None = None
        """What may be added to those cards: "7" (another 7), "KS" (the 7 of spades), or
        nothing (None; "KS7": the Roi de pique's cards, answered by the 7 of spades)."""
        self.skip = 0
        """Players the turn passes over when it passes (le 6; a reversal with two players)."""
        self.skipped: tuple[int, list[int]] = (0, [])
        """When the turn last passed over players, and whom (in order, for the rulings)."""
        self.skipper: tuple[int, int] | None = None
        """Who laid the 6s that skip players when the turn passes, and how many."""
        self.tens: tuple[int, int, Card] | None = None
        """The last 10s laid: their line, how many, the last one (what turned the direction)."""
        self.because: tuple[str, dict[str, object], str] = ("cp.turn.first", {}, "turn")
        """What made it the current player's turn: a message key, its fields, the rule."""
        self.suit: str | None = None
        """The suit in play (after an ace: the one announced); None while the top is unknown."""
        self.rank = 0
        """The value of the card on top (0: unknown)."""
        self.zero_open = False
        self.swapper: int | None = None
        self.sanctions: dict[int, int] = {}
        """Cards each player owes to the stock as a sanction."""
        self.sanction_rule: dict[int, str] = {}
        self.gifts: list[tuple[int, int]] = []
        """(giver, receiver): a card owed under la Méga One."""
        self.one = [False] * n
        self.called = [False] * n
        self.missed = [False] * n
        self.waived = [0] * n
        """The line where the table accepted a player's missed « carte » (0: none): a later
        « contre » has nothing to catch."""
        self.due_at = [0] * n
        self.one_how: list[tuple[int, str]] = [(0, "holds")] * n
        """The line and the verb that brought each player to one card."""
        self.event: Event | None = None
        """The event being replayed."""
        self.last_card: tuple[Card, int] | None = None
        """The last card laid by the player whose « plouc » is due, and its line."""
        self.carte_due: set[int] = set()
        """Players holding one card who have not said « carte » yet (and not missed it)."""
        self.plouc: int | None = None
        """Who laid their last card and has not said « plouc » yet."""
        self.closing = False
        """The game ends once that « plouc » is settled."""
        self.ended = False
        self.blocked = False
        self.out_order: list[int] = []
        self.passes = 0
        self.last_pass: int | None = None
        self.errors: dict[str, int] = {}
        """Errors open to le David le fou's accusation: player -> when."""
        self.settled: dict[str, tuple[int, str]] = {}
        """Errors since the turn began that are no longer open: player -> (line, why in a
        message key): called out already, or accepted by the table."""
        self.proofs: list[list[Pass]] = [[] for _ in range(n)]
        self.passed_at = [0] * n
        """When each player last passed (no card to draw) without playing."""
        self.unverified: dict[int, Unverified] = {}
        """Per player: their note of the draws (and passes) not verified."""
        self.blind_noted = False
        """A card written ?? was played (noted once)."""
        self.slapped = False
        """The 2 on top was slapped already (later slaps on it are late hands, not faults)."""
        self.muted = False
        """Replaying again what was refereed already (a forbidden last card taken back):
        nothing is flagged twice."""
        self.misfit = False
        """The ace just laid off suit announced the suit in play: said with CP-ACE-SUIT."""
        self.taken_back: int | None = None
        """Who just had a forbidden last card taken back: their « plouc » right after it
        belongs to that play, and is no second fault."""
        self.finish_counted = True
        """Whether the last forbidden finish flagged counted (the table did not accept it)."""
        self.seq = 0
        self.started = False
        self.drawn = [0] * n
        self.reversals = 0
        self.longest = 0
        self.played = 0

    def facing(self) -> bool:
        """Whether the player whose turn it is owes cards they can draw."""
        return bool(self.owed) and not self.again and bool(self.cards.available(self.reshuffle))

    def matches(self, card: Card) -> bool:
        """Whether a card fits the one on top: the same suit or value (an ace: the suit in play)."""
        if card.rank == ACE:
            return card.suit == self.suit
        return card.suit == self.suit or card.rank == self.rank

    def answers(self, card: Card) -> bool:
        """Whether a card may be added to the cards owed instead of drawing them."""
        return (self.stack == "7" and card.rank == SEVEN) or (self.stack == "KS" and card == SEVEN_OF_SPADES)

    def playable(self, card: Card, count: int) -> bool:
        """Whether a player holding ``count`` cards may lay this one now (alone)."""
        if self.facing() and not self.answers(card):
            return False
        if not self.facing() and self.suit is not None and not self.matches(card):
            return False
        return count > 1 or not self.forbidden_last(card)

    def _special(self, card: Card) -> bool:
        """La maîtresse's special cards: those with a power under the rules in play."""
        return (card.rank in (ACE, SEVEN, TEN, QUEEN) or card == KING_OF_SPADES
                or (card.rank == TWO and self.zero) or (card.rank == SIX and self.six))

    def forbidden_last(self, card: Card) -> str | None:
        """The code of the fault if this card may not end a plouc (le 3 de trèfle, la maîtresse)."""
        if "3-de-trefle" in self.variants and card == THREE_OF_CLUBS:
            return "CP-THREE-OF-CLUBS"
        if "maitresse" in self.variants and self._special(card):
            return "CP-MAITRESSE"
        return None

    def last_out_ends(self) -> bool:
        """Whether a player going out now ends the game (no [PlayOn], or one player left)."""
        return not self.play_on or len(self.players) - len(self.seating.out) <= 2

    def top_text(self) -> Said | Card:
        """The card on top, in words (an ace with the suit announced)."""
        top = self.cards.discard[-1]
        if top.rank == ACE and top.suit != self.suit:
            return said("cp.top.ace", card=top, suit=said(f"cp.suits.{self.suit}"))
        return top

    def proof(self, seat: int, card: Card) -> Pass | None:
        """The earlier draw or pass that this card, played now, proves wrong: it was surely
        in the hand then (no card nobody saw came in since, and not this one), and could
        be played then."""
        if not card.seen:
            return None
        cards = self.cards
        since, came = cards.since[seat], cards.came[seat].get(card, -1)
        return next((p for p in self.proofs[seat] if p.seq > since and came < p.seq and self._playable_then(card, p)), None)

    def _playable_then(self, card: Card, p: Pass) -> bool:
        fits = card.suit == p.suit if card.rank == ACE else (card.suit == p.suit or card.rank == p.rank)
        return fits and (p.count > 1 or not self.forbidden_last(card))
