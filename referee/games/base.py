"""The contract every game meets, and what the games share: options, seats, violations."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import ClassVar

from ..cards import Card
from ..messages import join, say
from ..record import Event, Header, Record


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: a stable code, a message, the rule quoted, who, and where."""

    code: str
    message: str
    rule: str
    player: str | None
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Mistake:
    """An event that breaks a rule if it comes now, and every code the referee must
    report on its line (in the order the game finds them; a code may repeat).

    The codes are worked out from the game's own knowledge of the situation (whose
    turn it is, what is owed, what the pile shows), never by applying the event and
    reading what it flagged: the simulator's marks are then a second statement of the
    rules, and a disagreement with the referee is a bug in one of them."""

    event: Event
    codes: tuple[str, ...]
    follow_on: bool = False
    """A mistake that follows from an earlier one, which a table makes on purpose, such
    as leaving a penalty unpaid: the simulator makes it far more often than the rate."""


@dataclass(frozen=True)
class Option:
    """A header-selectable option: the tag, its choices, its default.

    With ``many``, the value is a set of choices written with spaces or commas."""

    tag: str
    choices: tuple[str, ...]
    default: str | frozenset[str]
    help: str
    many: bool = False
    aliases: tuple[tuple[str, str], ...] = ()

    def read(self, value: str) -> str | frozenset[str]:
        """The choice(s) a header value names; ValueError if one is unknown."""
        aliases = dict(self.aliases)
        words = [_plain(w) for w in value.replace(",", " ").split()] if self.many else [_plain(value)]
        words = [aliases.get(w, w) for w in words]
        unknown = [w for w in words if w not in self.choices]
        if unknown or not words:
            raise ValueError(unknown[0] if unknown else value)
        return frozenset(words) if self.many else words[0]


def _plain(word: str) -> str:
    plain = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace("_", "-").replace(" ", "-")


class SetupError(Exception):
    """A header that makes the game impossible to set up; points at the header."""

    def __init__(self, message: str, header: Header | None = None):
        super().__init__(message)
        self.header = header


@dataclass
class Setup:
    """What the headers say: the players in seating order, who starts, the options."""

    record: Record
    players: tuple[str, ...]
    first: int
    options: dict[str, object] = field(default_factory=dict)


@dataclass
class Result:
    """The outcome so far: finished or not, the winner, the finishing order, scores."""

    finished: bool
    winner: str | None = None
    order: list[str] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    never_ends: dict[str, int] | None = None


class Rules:
    """One game's rules, replaying one event at a time.

    A game module subclasses this, declares its metadata, its rule texts (``RULES``:
    key -> French text quoted from the rule file) and which rule each violation code
    breaks (``CODES``), and implements ``apply``, ``todo`` and ``result``; for the
    simulator, ``legal`` (the events that break no rule now) and ``mistakes`` (events
    that do, with the codes they must draw, ``mistake_codes`` listing them all)."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    deck: ClassVar[frozenset[Card]]
    verbs: ClassVar[frozenset[str]]
    targets: ClassVar[frozenset[str]] = frozenset()
    """The verbs whose events may name another player (gives ... to Bob)."""
    options: ClassVar[tuple[Option, ...]] = ()
    RULES: ClassVar[dict[str, str]] = {}
    CODES: ClassVar[dict[str, str]] = {}
    mistake_codes: ClassVar[tuple[str, ...]] = ()
    """The codes a table can commit in this game: ``mistakes`` offers each of them in
    some situation, and the tests check that ``simulate --mistakes`` reaches them all."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.players = setup.players
        self.seats = {name: seat for seat, name in enumerate(setup.players)}
        self.violations: list[Violation] = []
        self.notes: list[str] = []

    # The contract.
    def apply(self, event: Event) -> None:
        """Replay one event, flagging what breaks a rule and playing on."""
        raise NotImplementedError

    def todo(self) -> list[str]:
        """What must or may happen now, in words (empty when the game is over)."""
        raise NotImplementedError

    def result(self) -> Result:
        """The outcome as the record stands."""
        raise NotImplementedError

    def over(self, event: Event | None = None) -> bool:
        """Whether the game has ended, so that ``event`` comes too late (asked before
        every event: keep it cheap)."""
        return self.result().finished

    def conclude(self) -> None:
        """The record says the game is over (a ``Result`` header): what the table let
        pass has passed (a slap nobody made). Called before ``result``."""

    def legal(self) -> list[Event]:
        """Events that break no rule now, for a replay that knows every card (the
        simulator's choices; rules that depend on the clock are left aside). Line and
        column are 0."""
        raise NotImplementedError

    def mistakes(self, hidden: bool = False) -> list[Mistake]:
        """Real table mistakes that could be made now, for ``simulate --mistakes``: events
        that break a rule in the state the replay has reached, each with the codes the
        referee must report at its line, follow-on codes included (a penalty the player
        owes and does not pay first is reported on the line of their own next action,
        so a mistake there carries that code too). The simulator picks one now and
        then instead of a legal event, applies it and plays on from what the replay
        then says is legal: a penalty owed is paid, unless leaving it unpaid is picked
        as the next mistake.

        ``hidden``: the record leaves the deal out, so leave out the mistakes only the
        deal shows (a card other than the one on top of a pack). A mistake whose codes
        depend on the clock gives its event a time, which is written as given; others
        get a time, a move number or neither, as any event. The comment is the
        simulator's ``; expect`` mark. Like ``legal``, line and column are 0, and asking
        changes nothing in the replay. The default: no mistakes (a game that declares
        ``mistake_codes`` overrides it)."""
        return []

    def play_out(self) -> None:
        """Play on from the known deal to the end, where the game is decided by its deal."""

    def stats(self) -> dict[str, int]:
        return {}

    @classmethod
    def deal(cls, deck: list[Card], setup: Setup) -> list[list[Card]]:
        """Each seat's cards, top card first, from a shuffled deck: by default the whole
        deck, one card at a time to each seat in turn from the first player."""
        n = len(setup.players)
        return [deck[(seat - setup.first) % n::n] for seat in range(n)]

    def tallies(self) -> dict[str, dict[str, int]]:
        """Drinking tallies, for the games that have them."""
        return {}

    # Shared helpers.
    def seat(self, name: str) -> int:
        return self.seats[name]

    def flag(self, code: str, event: Event, column: int | None = None, player: str | None = None, **fields) -> None:
        """Record a violation of ``code`` at the event (or one of its cards)."""
        player = player if player is not None else event.player
        message = say(code, player=player, title=self.title, **fields)
        rule = self.RULES.get(self.CODES.get(code, ""), "")
        self.violations.append(Violation(code, message, rule, player, event.line, column or event.column))

    @classmethod
    def setup_from(cls, record: Record) -> Setup:
        """Players, first player and options from the headers; SetupError if they
        cannot make a game."""
        header = record.header("Players")
        if header is None or not header.value.strip():
            raise SetupError(say("setup.no-players"), header or (record.headers[0] if record.headers else None))
        players = tuple(header.value.replace(",", " ").split())
        from ..notation import PLAYER_NAME, VERBS

        for name in players:
            if not PLAYER_NAME.fullmatch(name):
                raise SetupError(say("setup.bad-name", player=name), header)
            if name.lower() in VERBS:
                raise SetupError(say("setup.reserved-name", player=name), header)
            if players.count(name) > 1:
                raise SetupError(say("setup.duplicate-player", player=name), header)
        if not cls.min_players <= len(players) <= cls.max_players:
            raise SetupError(say("setup.player-count", title=cls.title, low=cls.min_players, high=cls.max_players, count=len(players)), header)
        first = 0
        for tag, shift in (("Dealer", 1), ("First", 0)):
            seat = record.header(tag)
            if seat is not None:
                if seat.value not in players:
                    raise SetupError(say("setup.unknown-seat", tag=seat.tag, player=seat.value), seat)
                first = (players.index(seat.value) + shift) % len(players)
        options: dict[str, object] = {}
        for option in cls.options:
            found = record.header(option.tag)
            if found is None:
                options[option.tag] = option.default
                continue
            try:
                options[option.tag] = option.read(found.value)
            except ValueError:
                raise SetupError(say("setup.bad-option", tag=found.tag, value=found.value, title=cls.title, choices=join(option.choices)), found) from None
        return Setup(record, players, first, options)
