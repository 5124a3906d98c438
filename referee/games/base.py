"""The contract every game meets, and what the games share: options, seats, violations."""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
from typing import ClassVar, Final, Protocol, SupportsIndex, cast, overload

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ..cards import Card
from ..text.french import FRENCH_OPTION_GUESSES, FRENCH_VALUES, FRENCH_VERBS, is_french
from ..messages import Listed, Said, join, language, said, say
from ..notation import PLAYER_NAME, VERBS
from ..text.numbers import MAX_DIGITS, whole
from ..fast.plain import field_values, fields_repr
from ..record import Event, Header, Record
from .names import code_point, composed, difference, disguised, invisible, plain_latin, refused_character, skeleton
from ..spelling import NOTATIONS

# The value classes below are written by hand, not as dataclasses (referee/fast/plain.py). Those
# whose fields never change after they are made declare them Final: mypy refuses an
# assignment, and compiled (mypyc) one raises AttributeError; run as pure Python, nothing
# stops it at run time. They copy and pickle through ``__reduce__`` (their fields, as
# ``__init__`` takes them): compiled, mypyc's own way sets a field at a time, which a
# Final field refuses.


class Violation:
    """A broken rule: a stable code, its sentence (a key and typed fields, worded only when
    shown: ``words``), the rule quoted, who, where, and the notation of its record (whose
    letters its cards are written in)."""

    __slots__ = ("code", "said", "rule", "player", "line", "column", "accepted", "notation")

    code: Final[str]
    said: Final[Said]
    rule: Final[str]
    player: Final[str | None]
    line: Final[int]
    column: Final[int]
    accepted: Final[bool]
    """The table saw the fault and let it pass (``; accepted CODE`` on the line)."""
    notation: Final[str]
    """The record's notation (``en``, ``fr``: referee/spelling.py's ``NOTATIONS``)."""

    def __init__(self, code: str, said: Said, rule: str, player: str | None, line: int, column: int,
                 accepted: bool = False, notation: str = "en") -> None:
        self.code = code
        self.said = said
        self.rule = rule
        self.player = player
        self.line = line
        self.column = column
        self.accepted = accepted
        self.notation = notation

    def __reduce__(self) -> tuple[type[Violation], tuple[str, Said, str, str | None, int, int, bool, str]]:
        return Violation, (self.code, self.said, self.rule, self.player, self.line, self.column, self.accepted,
                           self.notation)

    @property
    def key(self) -> str:
        """The key of its sentence in the catalogues (its code, for a game's own)."""
        return self.said.key

    @property
    def fields(self) -> dict[str, object]:
        """The fields of its sentence, typed (cards as ``Card``: see ``messages.Said``)."""
        return self.said.fields

    def words(self, notation: str | None = None) -> str:
        """Its sentence in the language in use, its cards in ``notation``'s letters (None:
        its record's)."""
        return self.said.words(NOTATIONS[notation or self.notation])

    @property
    def message(self) -> str:
        """Its sentence in the language in use, its cards in its record's notation."""
        return self.words()


_ACCEPTED = re.compile(r"\baccepted((?:[\s,]+[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)+)")


def accepted_codes(comment: str) -> list[str]:
    """The codes a comment says the table accepted: ``; accepted BC-FALSE-SLAP``."""
    return [code for found in _ACCEPTED.findall(comment) for code in found.replace(",", " ").split()]


_MISTAKE: Final = ("event", "codes", "follow_on")


class Mistake:
    """An event that breaks a rule if it comes now, and every code the referee must
    report on its line (in the order the game finds them; a code may repeat).

    The codes are worked out from the game's own knowledge of the situation (whose
    turn it is, what is owed, what the pile shows), never by applying the event and
    reading what it flagged: the simulator's marks are then a second statement of the
    rules, and a disagreement with the referee is a bug in one of them."""

    __slots__ = _MISTAKE

    event: Final[Event]
    codes: Final[tuple[str, ...]]
    follow_on: Final[bool]
    """A mistake that follows from an earlier one, which a table makes on purpose, such
    as leaving a penalty unpaid: the simulator makes it far more often than the rate."""

    def __init__(self, event: Event, codes: tuple[str, ...], follow_on: bool = False) -> None:
        self.event = event
        self.codes = codes
        self.follow_on = follow_on

    def __reduce__(self) -> tuple[type[Mistake], tuple[Event, tuple[str, ...], bool]]:
        return Mistake, (self.event, self.codes, self.follow_on)

    def __eq__(self, other: object) -> bool:  # tests compare them (an event is unhashable: so is a mistake)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_values(self, _MISTAKE) == field_values(other, _MISTAKE)

    def __repr__(self) -> str:
        return fields_repr(self, _MISTAKE)


class Group:
    """A play of several cards of one value, chosen card by card, as ``legal()`` lists it
    (Carte et Plouc: « On peut poser plusieurs cartes de même valeur »). Listing every
    ordered subset would make a button of each; a group is the choice instead:

    - ``first``: the card that opens the play; it fits now (the one-card plays are
      listed besides, as events);
    - ``more``: the cards that may follow it, one at a time, each at most once, in the
      order the player lays them (they share its value; the last card sets the suit);
      the play may stop after any of them;
    - ``hand``: the cards in the player's hand: a play of that many cards goes out;
    - ``known``: those of ``first`` and ``more`` known to be in the hand; where the hand
      holds cards nobody saw (``unseen`` of them), the others may be among those, so a
      play lays at most ``unseen`` cards that are not in ``known``;
    - ``suits``: when the cards are aces, the suits the last one may announce (``for``);
      ``None`` among them: announcing none is allowed too. ``out_suits``: the same for a
      play that goes out. Both are ``(None,)`` for any other value;
    - ``not_last``: the cards a play that goes out may not end on (le 3 de trèfle, la
      maîtresse).

    ``lines()`` spells out every play the choice allows (for the four cards of a value,
    16 orders at most, times the suits); ``allows()`` says whether one play is among them."""

    player: Final[str]
    first: Final[Card]
    more: Final[tuple[Card, ...]]
    hand: Final[int]
    known: Final[tuple[Card, ...]]
    unseen: Final[int]
    suits: Final[tuple[str | None, ...]]
    out_suits: Final[tuple[str | None, ...]]
    not_last: Final[tuple[Card, ...]]

    def __init__(self, player: str, first: Card, more: tuple[Card, ...], hand: int, known: tuple[Card, ...] = (),
                 unseen: int = 0, suits: tuple[str | None, ...] = (None,), out_suits: tuple[str | None, ...] = (None,),
                 not_last: tuple[Card, ...] = ()) -> None:
        self.player = player
        self.first = first
        self.more = more
        self.hand = hand
        self.known = known
        self.unseen = unseen
        self.suits = suits
        self.out_suits = out_suits
        self.not_last = not_last

    def __reduce__(self) -> tuple[type[Group], tuple[object, ...]]:
        return Group, (self.player, self.first, self.more, self.hand, self.known, self.unseen, self.suits,
                       self.out_suits, self.not_last)

    @property
    def verb(self) -> str:
        """Always ``plays``, as an event's (a property: compiled, a class variable would be
        a field of every instance)."""
        return "plays"

    def allows(self, cards: tuple[Card, ...], suit: str | None) -> bool:
        """Whether laying ``cards`` (in this order), announcing ``suit``, is one of the
        plays the choice allows."""
        rest = cards[1:]
        if not cards or cards[0] != self.first or len(set(rest)) != len(rest) or not set(rest) <= set(self.more):
            return False
        return suit in self._suits(cards)

    def _suits(self, cards: tuple[Card, ...]) -> tuple[str | None, ...]:
        """The announcements a play of these cards may make (none: it may not be made)."""
        if len(cards) > self.hand or sum(c not in self.known for c in cards) > self.unseen:
            return ()
        out = len(cards) == self.hand
        if out and cards[-1] in self.not_last:
            return ()
        return self.out_suits if out else self.suits

    def lines(self) -> list[Event]:
        """Every play the choice allows, as events (line and column 0)."""
        from itertools import permutations

        found = []
        for size in range(len(self.more) + 1):
            for rest in permutations(self.more, size):
                cards = (self.first, *rest)
                for suit in self._suits(cards):
                    found.append(Event(self.player, "plays", 0, 0, cards, " ".join(map(str, cards)), suit=suit))
        return found


Legal = Event | Group
"""What ``legal()`` lists: an event as it would be written, or a choice of cards."""


def legal_events(offered: list[Legal]) -> list[Event]:
    """``legal()``'s list with each group spelled out as the plays it allows."""
    return [line for item in offered for line in (item.lines() if isinstance(item, Group) else [item])]


class Option:
    """A header-selectable option: the tag, its choices, its default.

    With ``many``, the value is a set of choices written with spaces or commas. With
    ``number`` (low, high), the value is a whole number in that range and ``choices``
    lists a few values the simulator draws. ``default`` may depend on the number of
    players: a function of it. ``needs`` lists (choice, tag, values): choosing ``choice``
    needs the option ``tag`` set to one of ``values`` (a rule played with a sanction
    chosen beforehand)."""

    tag: Final[str]
    choices: Final[tuple[str, ...]]
    default: Final[object]
    help: Final[str]
    many: Final[bool]
    aliases: Final[tuple[tuple[str, str], ...]]
    number: Final[tuple[int, int] | None]
    needs: Final[tuple[tuple[str, str, tuple[str, ...]], ...]]

    def __init__(self, tag: str, choices: tuple[str, ...], default: object, help: str, many: bool = False,
                 aliases: tuple[tuple[str, str], ...] = (), number: tuple[int, int] | None = None,
                 needs: tuple[tuple[str, str, tuple[str, ...]], ...] = ()) -> None:
        self.tag = tag
        self.choices = choices
        self.default = default
        self.help = help
        self.many = many
        self.aliases = aliases
        self.number = number
        self.needs = needs

    def __reduce__(self) -> tuple[type[Option], tuple[object, ...]]:
        return Option, (self.tag, self.choices, self.default, self.help, self.many, self.aliases, self.number,
                        self.needs)

    def chose(self, value: object, choice: str) -> bool:
        """Whether a value read from the header selects ``choice``."""
        return choice in value if self.many and isinstance(value, frozenset) else value == choice

    def read(self, value: str) -> object:
        """The choice(s) a header value names; ValueError if one is unknown."""
        if self.number is not None:
            low, high = self.number
            number = whole(value.strip())
            if number is None or not low <= number <= high:
                raise ValueError(value)
            return number
        aliases = dict(self.aliases)
        words = [_plain(w) for w in value.replace(",", " ").split()] if self.many else [_plain(value)]
        words = [aliases.get(w, w) for w in words]
        words = [w if w in self.choices else _FRENCH_VALUES_READ.get(w, w) for w in words]
        unknown = [w for w in words if w not in self.choices]
        if unknown or not words:
            raise ValueError(unknown[0] if unknown else value)
        return frozenset(words) if self.many else words[0]

    def default_for(self, players: int) -> object:
        """The value when the header is absent, for this many players."""
        return self.default(players) if callable(self.default) else self.default

    def accepted(self) -> str:
        """What the header accepts, in words."""
        if self.number is not None:
            return say("option.number", low=self.number[0], high=self.number[1])
        return say("option.any-of" if self.many else "option.one-of", choices=join(map(option_value, self.choices), "or"))


def _plain(word: str) -> str:
    plain = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace("_", "-").replace(" ", "-")


_FRENCH_VALUES_READ: Final = {**{_plain(french): english for english, french in FRENCH_VALUES.items()}, "aucun": "none"}
"""Each option value's French word (without accents) to the English value."""


def option_value(value: str) -> str:
    """An option's value as the language in use says it: « aucune » for none in French."""
    return FRENCH_VALUES.get(value, value) if language() == "fr" else value


class SetupError(Exception):
    """A header that makes the game impossible to set up; points at the header."""

    def __init__(self, message: str, header: Header | None = None):
        super().__init__(message)
        self.header = header


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Setup:
    """What the headers say: the players in seating order, who starts, the options."""

    record: Record
    players: tuple[str, ...]
    first: int
    options: dict[str, object]
    notes: list[Said | str]
    """What the headers left to say: a tag given twice alike, a tag that looks misspelled
    (worded when the report is made)."""

    def __init__(self, record: Record, players: tuple[str, ...], first: int, options: dict[str, object] | None = None,
                 notes: list[Said | str] | None = None) -> None:
        self.record = record
        self.players = players
        self.first = first
        self.options = {} if options is None else options
        self.notes = [] if notes is None else notes


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Result:
    """The outcome so far: finished or not, the winner, the finishing order, scores."""

    finished: bool
    winner: str | None
    order: list[str]
    scores: dict[str, int]
    """Each player's score for this game (points, or penalty points), where the game scores."""
    never_ends: dict[str, int] | None

    def __init__(self, finished: bool, winner: str | None = None, order: list[str] | None = None,
                 scores: dict[str, int] | None = None, never_ends: dict[str, int] | None = None) -> None:
        self.finished = finished
        self.winner = winner
        self.order = [] if order is None else order
        self.scores = {} if scores is None else scores
        self.never_ends = never_ends


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Deal:
    """A random deal for the simulator: each seat's cards (top card first), and the
    headers the deal writes besides: ``shown`` ones the whole table sees (a card turned
    up to start), ``hidden`` ones only a full record gives (the stock, in order)."""

    hands: list[list[Card]]
    shown: list[tuple[str, str]]
    hidden: list[tuple[str, str]]

    def __init__(self, hands: list[list[Card]], shown: list[tuple[str, str]] | None = None,
                 hidden: list[tuple[str, str]] | None = None) -> None:
        self.hands = hands
        self.shown = [] if shown is None else shown
        self.hidden = [] if hidden is None else hidden


_HAND: Final = ("count", "known")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Hand:
    """What is known of one player's cards."""

    count: int
    known: list[Card]
    """Cards known to be there (a pack: top card first); the rest are unknown."""

    def __init__(self, count: int, known: list[Card] | None = None) -> None:
        self.count = count
        self.known = [] if known is None else known

    def __repr__(self) -> str:  # in a table's (agreement.py compares tables by it)
        return fields_repr(self, _HAND)


_TABLE: Final = ("turn", "direction", "hands", "piles", "stock", "owed", "scores", "extra")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Table:
    """The table as it stands, for ``referee state``: the parts every game shows alike,
    then the rest, labelled, in ``extra``. A part a game does not have stays empty."""

    turn: str | None
    """Who acts next."""
    direction: int | None
    """1: play goes along the seating order ([Players], each to their left neighbour);
    -1: it goes the other way. None where the game has no direction."""
    hands: dict[str, Hand]
    piles: dict[str, list[Card]]
    """Named face-up piles (the pile, the discard, the trick), bottom first."""
    stock: int | None
    """Cards left in the stock, where there is one."""
    owed: list[str]
    """Debts, penalties, cards to draw, drinks due: in words."""
    scores: dict[str, int]
    extra: dict[str, str]
    """The rest, label -> value: the bottle's price and owner, standing rules, slap bans."""

    def __init__(self, turn: str | None = None, direction: int | None = None, hands: dict[str, Hand] | None = None,
                 piles: dict[str, list[Card]] | None = None, stock: int | None = None, owed: list[str] | None = None,
                 scores: dict[str, int] | None = None, extra: dict[str, str] | None = None) -> None:
        self.turn = turn
        self.direction = direction
        self.hands = {} if hands is None else hands
        self.piles = {} if piles is None else piles
        self.stock = stock
        self.owed = [] if owed is None else owed
        self.scores = {} if scores is None else scores
        self.extra = {} if extra is None else extra

    def __repr__(self) -> str:  # agreement.py compares tables by it
        return fields_repr(self, _TABLE)


UNITS = ("sips", "half", "glass", "up", "central")
"""The drinking units, in the order reports show them; never added together."""


class Drink:
    """A drink the rules give, with its cause: for the tally by unit and by cause."""

    player: Final[str]
    amount: Final[int | float]
    """Whole sips stay ints (a compiled ``float`` would make them floats, and reports write 4.0)."""
    unit: Final[str]
    """sips (gorgées), half (half a glass), glass, up (finish one's glass) or central
    (the central glass: its amount in glasses, thirds included)."""
    cause: Final[Said | Listed | str]
    """Why: the card and who played it (« 7S played by Ana »), a sentence worded when
    shown (``cause_words``)."""
    line: Final[int]
    round: Final[int | None]

    def __init__(self, player: str, amount: int | float, unit: str, cause: Said | Listed | str, line: int,
                 round: int | None = None) -> None:
        self.player = player
        self.amount = amount
        self.unit = unit
        self.cause = cause
        self.line = line
        self.round = round

    def __reduce__(self) -> tuple[type[Drink], tuple[str, int | float, str, Said | Listed | str, int, int | None]]:
        return Drink, (self.player, self.amount, self.unit, self.cause, self.line, self.round)

    def cause_words(self, notation: str = "en") -> str:
        """Its cause in the language in use, its cards in ``notation``'s letters."""
        cause = self.cause
        return cause if isinstance(cause, str) else cause.words(NOTATIONS[notation])

    def text(self) -> str:
        """The amount in words: « 4 gorgée(s) », « 1 half glass(es) », « 2/3 of the central glass »."""
        return amount_text(self.amount, self.unit)


_AMOUNT_TEXTS: dict[tuple[str, int | float, str], str] = {}
"""The amounts already worded, by language, amount and unit (a report words the same few
amounts thousands of times); at most AMOUNTS_KEPT."""
AMOUNTS_KEPT = 1024


def amount_text(amount: int | float, unit: str) -> str:
    """An amount of a drinking unit in words (the central glass in thirds)."""
    key = (language(), amount, unit)
    text = _AMOUNT_TEXTS.get(key)
    if text is None:
        text = _word_amount(amount, unit)
        if len(_AMOUNT_TEXTS) < AMOUNTS_KEPT:
            _AMOUNT_TEXTS[key] = text
    return text


def amount_said(amount: int | float, unit: str) -> Said:
    """``amount_text`` to be worded when shown."""
    if unit == "central":
        from fractions import Fraction

        thirds = Fraction(amount).limit_denominator(3)
        return Said("unit.central-full", {}) if thirds == 1 else Said("unit.central", {"amount": thirds})
    whole = round(amount)
    return Said(f"unit.{unit}", {"count": whole if abs(amount - whole) < 1e-9 else amount})


def _word_amount(amount: int | float, unit: str) -> str:
    if unit == "central":
        from fractions import Fraction

        thirds = Fraction(amount).limit_denominator(3)
        return say("unit.central-full") if thirds == 1 else say("unit.central", amount=thirds)
    whole = round(amount)
    return say(f"unit.{unit}", count=whole if abs(amount - whole) < 1e-9 else amount)


@mypyc_attr(native_class=False)  # a subclass of list: a Python class, even compiled (mypyc)
class Notes(list[Said | str]):
    """A game's notes (what could not be checked): the first NOTES_KEPT are kept, the
    others counted (``more``), so that no record, however written, grows them unbounded.
    A note may be rewritten in place (a note that lists lines)."""

    def __init__(self, notes: Iterable[Said | str] = ()) -> None:
        super().__init__(notes)
        self.more = 0

    def append(self, note: Said | str) -> None:
        if len(self) < NOTES_KEPT:
            super().append(note)
        else:
            self.more += 1

    @overload
    def __setitem__(self, index: SupportsIndex, note: Said | str, /) -> None: ...

    @overload
    def __setitem__(self, index: slice, note: Iterable[Said | str], /) -> None: ...

    def __setitem__(self, index: SupportsIndex | slice, note: Said | str | Iterable[Said | str], /) -> None:
        if isinstance(index, slice):
            super().__setitem__(index, cast("Iterable[Said | str]", note))
            return
        if isinstance(index, int) and index >= len(self):
            return  # a note that was counted, not kept
        super().__setitem__(index, cast("Said | str", note))  # one index, one note (the overloads)


NOTES_KEPT = 50


class Violations(Protocol):
    """Where a game's violations go as they are flagged: a list, or what the engine keeps
    of them (``engine.Found``: the first few of each code, the others counted)."""

    def append(self, violation: Violation, /) -> None: ...

    def __iter__(self) -> Iterator[Violation]: ...

    def __len__(self) -> int: ...


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Rules:
    """One game's rules, replaying one event at a time.

    A game module subclasses this, declares its metadata, its rule texts (``RULES``:
    key -> French text quoted from the rule file) and which rule each violation code
    breaks (``CODES``), and implements ``apply``, ``todo`` and ``result``; then, for its
    tools: ``legal``, ``mistakes``, ``table``, ``ruling``, ``public``, ``deal`` and, for each code
    in ``CODES``, an example record in ``EXAMPLES`` and the convention referee follows
    as the message ``why.<CODE>`` (``referee explain``)."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    deck: ClassVar[frozenset[Card]]
    """Every card that may be in play: the game's whole deck, on the class (what
    ``simulate`` and ``live`` offer). A game's own cards are ``in_play``."""
    verbs: ClassVar[frozenset[str]]
    targets: ClassVar[frozenset[str]] = frozenset()
    """The verbs whose events may name another player (gives ... to Bob)."""
    options: ClassVar[tuple[Option, ...]] = ()
    match_points: ClassVar[str] = "wins"
    """How a hand counts in a match (referee/match.py): ``wins`` (hands won), ``points``
    (``Result.scores``, the most wins) or ``penalties`` (``Result.scores``, the fewest wins)."""
    RULES: ClassVar[dict[str, str]] = {}
    CODES: ClassVar[dict[str, str]] = {}
    EXAMPLES: ClassVar[dict[str, str]] = {}
    """For each code: a short whole record (headers and a few events) whose last line
    breaks that rule, for ``referee explain CODE``; a test checks that each is flagged so.
    Its faults may be marked ``; expect CODE`` where referee reports them (then the
    marks are checked, and a fault dated at a deal line or a header is marked there).
    The engine's ``REC-*`` codes have theirs in referee/games/shared_examples.py."""
    mistake_codes: ClassVar[tuple[str, ...]] = ()
    """The codes a table can commit in this game: ``mistakes`` offers each of them in
    some situation, and the tests check that ``simulate --mistakes`` reaches them all."""
    extra_tags: ClassVar[tuple[str, ...]] = ()
    """The game's own tags that are no option (Carte et Plouc's [Starter] and [Stock])."""
    aces_announce: ClassVar[bool] = False
    """Whether an ace played may name a suit (``plays AC for H``; referee/simulate/agreement.py
    tries each)."""
    calls: ClassVar[tuple[str, ...]] = ()
    """The words a player may say (``says carte``), which referee/simulate/agreement.py tries."""
    chart: ClassVar[str] = ""
    """The chart the HTML report draws of a game (referee/html/game.py): ``drinks`` (the
    drinks of each round), ``cards`` (the cards each player holds, event by event),
    ``bottle`` (a price and who owns it, event by event: ``chart_point``), or none."""
    anyone: ClassVar[dict[str, str]] = {}
    """Verbs any player may say at any moment, legal or not (Bataille corse's slap): the
    table page offers each to every player always, with the option (its tag) that says
    what a wrong one costs ("" for none)."""
    turned_up: ClassVar[str] = ""
    """The tag of the card turned up before the first move, where the game has one
    (Carte et Plouc's [Starter]): the new-game form offers it."""
    names_winner: ClassVar[bool] = True
    """Whether a finished game has a winner, or a finishing order (Caroleto has neither:
    its outcome is the drinks): the HTML report says "over" of one that names none."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.players = setup.players
        self.in_play = self.cards_for(setup)
        """The cards this game is played with (a card outside them is REC-NOT-IN-DECK)."""
        self.seats = {name: seat for seat, name in enumerate(setup.players)}
        self.violations: Violations = []
        self.notes: Notes = Notes(setup.notes)
        self.accepted_marks: deque[tuple[int, int, tuple[str, ...]]] = deque()
        """(line, column, codes) of each line that says the table accepted a fault
        (``; accepted CODE``), waiting for the end of the replay (engine.py)."""
        self.claims: list[Event] = []
        """The ``scores`` lines: a player's score for the game as the table wrote it,
        checked by the engine against ``result().scores`` once the replay is over."""
        self.recent = 0
        """The last events replayed, one bit each (1: it broke a rule the table did not
        accept), the latest lowest: the engine gives up following the game when too many
        are set (engine.LOST_FAULTED)."""
        self.lost_at = 0
        """The line where the engine gave up following the game (0: it follows it); the
        events after it are only counted: ``unchecked``, the last on ``unchecked_last``."""
        self.unchecked = self.unchecked_last = 0

    @classmethod
    def numbered_face(cls, number: int) -> tuple[str, int] | None:
        """How a card of this game's numbered deck shows (referee/html/card_svg.py draws it):
        its colour (``Y``, ``B`` or ``R``: yellow, blue, red) and its points; None for a
        number that is not such a card."""
        return None

    def chart_point(self) -> tuple[int, int | None] | None:
        """For the ``bottle`` chart, after each event: the price and the seat of its owner
        (None: nobody yet); None for a game without that chart."""
        return None

    def __getstate__(self) -> dict[str, object]:
        """What a copy or a pickle of the rules keeps: every attribute. Compiled with mypyc,
        those of the compiled classes (named in ``__mypyc_attrs__``) and, for a game not
        compiled, those in its ``__dict__``, which mypyc's own way would leave out."""
        state = {name: getattr(self, name) for name in getattr(type(self), "__mypyc_attrs__", ())
                 if name != "__dict__" and hasattr(self, name)}
        state.update(getattr(self, "__dict__", {}))
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # The contract.
    def apply(self, event: Event) -> None:
        """Replay one event, flagging what breaks a rule and playing on."""
        raise NotImplementedError

    def todo(self) -> list[Said]:
        """What must or may happen now, as sentences worded when shown (empty when the
        game is over)."""
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

    def settle(self) -> None:
        """The record has no more lines: what its end settles (Caroleto closes a round
        whose cards are all laid), flagging what it must. Called by the engine once every
        event is replayed, before ``result``; never by a view, so that looking at the
        game between two events (``table``, ``todo``, ``result``...) never changes it."""

    def legal(self) -> list[Legal]:
        """Events that break no rule now (rules that depend on the clock left aside),
        line and column 0. With every card known, these are the simulator's choices.
        Where a hand is unknown, legal as far as the table can tell: a card that may be
        in it (not known to be elsewhere) and would be legal.

        A play of several cards chosen one by one is listed as a ``Group`` (the choice,
        not every order of every subset); ``legal_events`` spells the groups out. Every
        event and every play a group allows checks clean when appended; every event that
        checks clean and changes the table or what is to do is listed, or allowed by a
        group (tests/test_legal.py); a line that changes neither (a pass written after
        one's draw) is no move, and need not be."""
        raise NotImplementedError

    def choices(self) -> list[Legal]:
        """The simulator's choices: ``legal()``, less the moves a game leaves aside
        because only a later line could keep them right."""
        return self.legal()

    def table(self) -> Table:
        """The table as it stands, for ``referee state``."""
        return Table()

    def ruling(self, event: Event) -> str | None:
        """Why a legal event stands, in words, from the table it meets: asked just before
        the event is applied (``referee explain FILE:LINE``), e.g. "Bob's slap wins: the
        pile shows 5H 5C, a pair". None when the event says all there is to say."""
        return None

    @classmethod
    def public(cls, event: Event) -> Event | None:
        """The event as a table that sees no hand writes it (``simulate --hidden``),
        or None to leave it out: by default a deal line (``holds``) is left out, and
        every other event is written as it is."""
        return None if event.verb == "holds" else event
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

    def lay_stray(self, event: Event, index: int) -> None:
        """A card outside the deck (``event.cards[index]``), laid in turn by a one-card
        line that was reported and not replayed, and that the table let stand: the next
        event is not its player's own correction. The game counts it as laid where it
        can (out of the hand, in the trick or on the pile), as no card of the game; by
        default it stays unreplayed."""

    def play_out(self) -> None:
        """Play on from the known deal to the end, where the game is decided by its deal."""

    def stats(self) -> dict[str, int]:
        return {}

    @classmethod
    def deal(cls, deck: list[Card], setup: Setup) -> Deal:
        """A deal from a shuffled deck, for the simulator: by default the whole deck,
        one card at a time to each seat in turn from the first player."""
        n = len(setup.players)
        return Deal([deck[(seat - setup.first) % n::n] for seat in range(n)])

    def tallies(self) -> dict[str, dict[str, int | float]]:
        """Drinks by player and unit (never added across units), for the games that
        have them: by default added up from ``drinks()``."""
        totals: dict[str, dict[str, int | float]] = {}
        for drink in self.drinks():
            unit = totals.setdefault(drink.player, {})
            unit[drink.unit] = unit.get(drink.unit, 0) + drink.amount
        return totals

    def drinks(self) -> list[Drink]:
        """Every drink the rules gave, in order, each with its cause."""
        return []

    def score_why(self, player: str) -> Said | str:
        """How the replay counts a player's score, in words, for a ``scores`` line that
        disagrees (« : Ben has the bottle ... »); empty where the count needs no telling."""
        return ""

    def drunk(self) -> dict[str, dict[str, int | float]]:
        """What the record wrote as drunk, by player and unit (empty when it writes no
        drink): the report shows it beside ``tallies`` where the two differ."""
        return {}

    def drunk_rounds(self) -> dict[int, dict[str, dict[str, int | float]]]:
        """What the record wrote as drunk in each round, by round number, player and unit
        (empty when it writes no drink): the HTML report's drinks chart shows it beside
        what each round gave (``Drink.round``)."""
        return {}

    # Shared helpers.
    def seat(self, name: str) -> int:
        return self.seats[name]

    def flag(self, code: str, event: Event, column: int | None = None, player: str | None = None,
             rule: str | None = None, **fields: object) -> bool:
        """Record a violation of ``code`` at the event (or one of its cards). ``rule``
        names the rule quoted when it is not the code's own (one code, several powers).
        False when the table accepted it (``; accepted CODE`` on the line): then what
        would follow from the fault (a penalty) does not, and the game plays on as the
        table did."""
        player = player if player is not None else event.player
        fields["player"], fields["title"] = player, self.title
        rule = self.RULES.get(rule or self.CODES.get(code, ""), "")
        accepted = event.comment is not None and code in accepted_codes(event.comment)
        self.violations.append(Violation(code, Said(code, fields), rule, player, event.line, column or event.column,
                                         accepted, "fr" if self.setup.record.french else "en"))
        return not accepted

    @classmethod
    def setup_from(cls, record: Record) -> Setup:
        """Players, first player and options from the headers; SetupError if they
        cannot make a game. A tag referee reads, given twice with two values, is an
        error at the second; given twice alike, or a tag that looks misspelled, a note."""
        notes = _repeated_tags(record, cls)
        header = record.header("Players")
        if header is None or not header.value.strip():
            raise SetupError(say("setup.no-players"), header or (record.headers[0] if record.headers else None))
        players = player_names(header.value)
        notation = record.header("Notation")
        if notation is not None and notation.value.strip().lower() not in ("en", "english", "") and not is_french(notation.value):
            raise SetupError(say("setup.bad-notation", value=notation.value), notation)
        verbs = FRENCH_VERBS if record.french or notation is not None and is_french(notation.value) else VERBS
        folded: dict[str, str] = {}
        for name in players:
            if not PLAYER_NAME.fullmatch(name):
                bad = refused_character(name)
                raise SetupError(say("setup.name-character", player=name, character=code_point(bad)) if bad
                                 else say("setup.bad-name", player=name), header)
            if (hidden := invisible(name)) is not None:
                raise SetupError(say("setup.name-invisible", player=name, character=code_point(hidden)), header)
            if name.lower() in verbs:
                raise SetupError(say("setup.reserved-name", player=name), header)
            if players.count(name) > 1:
                raise SetupError(say("setup.duplicate-player", player=name), header)
            if (other := folded.setdefault(fold_name(name), name)) != name:
                raise SetupError(say("setup.names-alike", player=other, other=name), header)
        if not all(plain_latin(name) for name in players):  # else no look-alike can hide (Zoé, Noé)
            looks: dict[str, str] = {}
            for name in players:
                if (other := looks.setdefault(fold_name(skeleton(name)), name)) != name:
                    character = difference(other, name)
                    raise SetupError(say("setup.names-look-alike", player=other, other=name,
                                         character=code_point(character) if character else "?"), header)
                if (odd := disguised(name)) is not None:
                    notes.append(say("note.name-look-alike", player=name, character=code_point(odd), plain=skeleton(odd)))
        if not cls.min_players <= len(players) <= cls.max_players:
            raise SetupError(say("setup.player-count", title=cls.title, low=cls.min_players, high=cls.max_players, count=len(players)), header)
        first = 0
        for tag, shift in (("Dealer", 1), ("First", 0)):
            seat = record.header(tag)
            if seat is not None:
                seated = composed(seat.value)
                if seated not in players:
                    raise SetupError(say("setup.unknown-seat", tag=seat.tag, player=seat.value), seat)
                first = (players.index(seated) + shift) % len(players)
        for tag in ("Target", "Hands"):
            found = record.header(tag)
            if found is not None and (whole(found.value.strip()) or 0) < 1:
                raise SetupError(say("setup.bad-number", tag=found.tag, value=found.value, digits=MAX_DIGITS), found)
        options: dict[str, object] = {}
        for option in cls.options:
            found = record.header(option.tag)
            if found is None:
                options[option.tag] = option.default_for(len(players))
                continue
            try:
                options[option.tag] = option.read(found.value)
            except ValueError:
                raise SetupError(say("setup.bad-option", tag=found.tag, value=found.value, title=cls.title,
                                     choices=option.accepted()), found) from None
        for option in cls.options:
            for choice, tag, values in option.needs:
                if option.chose(options[option.tag], choice) and options[tag] not in values:
                    raise SetupError(say("setup.option-needs", tag=option.tag, choice=choice, other=tag,
                                         values=join(values, "or")), record.header(tag) or record.header(option.tag))
        return cls.adjusted_setup(Setup(record, players, first, options, notes))

    @classmethod
    def adjusted_setup(cls, setup: Setup) -> Setup:
        """The setup as the game takes it, once the headers are read: its own checks
        (SetupError) and defaults. A game overrides this rather than ``setup_from``: a
        ``super()`` call in a classmethod, compiled with mypyc, passes the wrong class."""
        return setup

    @classmethod
    def cards_for(cls, setup: Setup) -> frozenset[Card]:
        """The cards a game with this setup is played with: the whole ``deck``, unless the
        game's deck depends on its setup (Pierre qui Roule, by the player count). A method
        rather than an instance's own ``deck``: compiled with mypyc, a class attribute
        cannot be shadowed on the instance."""
        return cls.deck

    @classmethod
    def tags(cls) -> tuple[str, ...]:
        """Every header tag this game reads."""
        return STANDARD_TAGS + tuple(o.tag for o in cls.options) + cls.extra_tags


STANDARD_TAGS = ("Game", "Players", "Dealer", "First", "Result", "Match", "Round", "Target", "Hands",
                 "Date", "Place", "Event", "Annotator", "Notation")
"""The tags every game knows (the ones from Date on are kept and shown, not checked)."""
_READ_TAGS = frozenset(t.lower() for t in STANDARD_TAGS[:9])


def player_names(value: str) -> tuple[str, ...]:
    """The players a ``[Players]`` value names, in seating order (commas or spaces between),
    each composed as the record's text is read (Zoe + U+0301 is Zoé)."""
    return tuple(composed(name) for name in value.replace(",", " ").split())


def fold_name(name: str) -> str:
    """A name without its case and accents (``Noé``, ``noe`` and ``NOE`` fold alike)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


_TAGS: dict[type[Rules], tuple[dict[str, str], frozenset[str]]] = {}
"""Each game's tags (by their lower case) and those it reads, worked out once."""


def _tags_of(cls: type[Rules]) -> tuple[dict[str, str], frozenset[str]]:
    found = _TAGS.get(cls)
    if found is None:
        found = _TAGS[cls] = ({t.lower(): t for t in cls.tags()}, _READ_TAGS | {o.tag.lower() for o in cls.options})
    return found


def _repeated_tags(record: Record, cls: type[Rules]) -> list[Said | str]:
    """Notes on tags given twice alike and on tags close to one the game only keeps
    ([Dates]); SetupError for a tag referee reads given twice with two values. A tag close
    to one the game reads is not noted here: it is a violation (``misspelled_tags``)."""
    notes: list[Said | str] = []
    known, read = _tags_of(cls)
    first: dict[str, Header] = {}
    for header in record.headers:
        key = header.key
        if key in first:
            same = first[key].value.strip() == header.value.strip()
            if key in read and not same:
                raise SetupError(say("setup.tag-twice", tag=header.tag, line=first[key].line,
                                     first=first[key].value, second=header.value), header)
            notes.append(said("note.tag-twice" if same else "note.tag-again", tag=header.tag, line=header.line))
            continue
        first[key] = header
        if key not in known:
            close = _close_tag(key, known)
            if close and not _reads(cls, close, read):
                notes.append(said("note.tag-misspelled", tag=header.tag, line=header.line, known=known[close]))
    return notes


def misspelled_tags(record: Record, cls: type[Rules]) -> list[tuple[Header, str]]:
    """Each header whose tag the game does not know but is close to one it reads (an
    option, ``Dealer``...), with that tag: ``[Slap "sandwich"]`` for ``[Slaps]``, whose
    default would otherwise apply in silence, or an option's name in French (``[Cartes]``).
    A tag far from every one stays the record's own."""
    known, read = _tags_of(cls)
    found: list[tuple[Header, str]] = []
    for header in record.headers:
        if header.key not in known:
            close = FRENCH_OPTION_GUESSES.get(header.key, "")  # [Cartes]: an option's name in French
            close = close if close in known else _close_tag(header.key, known)
            if close and _reads(cls, close, read):
                found.append((header, known[close]))
    return found


def _reads(cls: type[Rules], key: str, read: frozenset[str]) -> bool:
    """Whether the game reads the tag ``key`` (its own tags too: Carte et Plouc's ``Stock``)."""
    return key in read or any(t.lower() == key for t in cls.extra_tags)


def _close_tag(key: str, known: dict[str, str]) -> str:
    """The known tag (lower case) closest to ``key``, if one is close; else ``""``."""
    import difflib  # here: only an unknown tag needs it (start-up)

    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.75)
    return close[0] if close else ""
