"""What a page shows of the game as it stands: plain data for the templates, taken from
``referee state`` (referee/state.py) and the game's report; every sentence in the
page's language, every value from the record left for the template to escape."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import SUITS, Card
from ..games.base import UNITS, Group, Legal, amount_text, legal_events
from ..live import Session, vocabulary
from ..match import Standing, describe
from ..messages import say
from ..record import Event
from ..spelling import ENGLISH, Spelling
from ..state import SHOWN_ON_PILE, State, group_json

NO_PLAYER = ""
"""The group of the legal events that are no one's (a new round)."""


@dataclass
class Seat:
    name: str
    turn: bool
    count: int | None
    known: list[Card]
    score: int | None
    drinks: str


@dataclass
class Pile:
    name: str
    cards: list[Card]
    count: int


@dataclass
class Move:
    label: str
    line: str
    card: Card | None = None
    """The one card the move plays, when it is shown as the card's face."""


@dataclass
class Moves:
    """Moves of one player that differ only by one card (``plays 7H``, ``plays 8H``...),
    shown as card faces after their common words; or other moves, one button each."""

    label: str
    moves: list[Move]
    faces: bool = False


@dataclass
class Choice:
    """A player's plays of several cards of one value (``Group``s), picked on the page card
    by card: a group's ``first``, then any of its ``more``. ``groups`` is what the page's
    script needs to offer only the plays a group allows (``state --json``'s groups); the
    server checks the play again with ``Group.allows`` before ruling its line."""

    player: str
    cards: list[Card]
    """Every card a play may lay: each group's first card, then the others."""
    written: dict[Card, str]
    """Each card as the page sends it back (English letters, whatever the notation)."""
    suits: list[str]
    """The suits a last ace may name, in this order: a button each (offered when allowed)."""
    none: bool
    """Whether a play of aces may also name no suit (a button)."""
    groups: list[dict[str, object]]


def choice_of(player: str, groups: list[Group]) -> Choice:
    """The choice of a player's groups, one picker for all."""
    cards = list(dict.fromkeys([g.first for g in groups] + [c for g in groups for c in g.more]))
    written = {c: ENGLISH.card(c) for c in cards}  # what the page sends back is read in English letters
    data = [group_json(g) for g in groups]
    named = {s for g in groups for s in (*g.suits, *g.out_suits)}
    return Choice(player, cards, written, [s for s in SUITS if s in named],
                  None in named and any(s is not None for s in named), data)


FACES_FROM = 5
"""Moves that differ only by their card are shown as faces from this many on."""


@dataclass
class View:
    """The table for a page."""

    title: str
    turn: str
    direction: str
    todo: list[str]
    seats: list[Seat]
    piles: list[Pile]
    details: list[tuple[str, str]]
    faults: list[tuple[str, str, str, bool]]
    result: str
    standing: str
    legal: list[tuple[str, list[Moves], Choice | None]]
    words: dict[str, list[str]]
    last: str
    events: int
    cards: list[Card] = field(default_factory=list)
    """Every card shown, for the page's card faces."""


def view_of(session: Session) -> View:
    """The view of a session's game (sentences in the language spoken now)."""
    state, report, record = session.state, session.report, session.record
    assert state is not None and report is not None and record is not None, "a session loaded"
    t = state.table
    seats = []
    for player in state.players:
        hand = t.hands.get(player)
        units = report.tallies.get(player, {})
        drinks = ", ".join(amount_text(units[u], u) for u in UNITS if u in units)
        seats.append(Seat(player, player == t.turn, hand.count if hand else None, list(hand.known) if hand else [],
                          t.scores.get(player), drinks))
    piles = [Pile(name, pile[-SHOWN_ON_PILE:], len(pile)) for name, pile in t.piles.items()]
    details = []
    if t.stock is not None:
        details.append((say("state.stock"), say("state.cards", count=t.stock)))
    details += [(say("state.owed"), owed) for owed in t.owed]
    details += list(t.extra.items())
    r = state.result
    result = ""
    if r.finished and r.winner:  # a game over with no winner says so in its turn line
        result = say("report.winner", player=r.winner)
    standing = ""
    if isinstance(report.match, Standing):
        standing = describe(report.match)
    faults = [(f"{v.line}", v.code, v.message, v.accepted) for v in state.violations]
    words = vocabulary(session)
    legal = legal_by_player(state)
    spelt = state.written
    shown = [c for s in seats for c in s.known] + [c for p in piles for c in p.cards]
    shown += [m.card for _, groups, _ in legal for g in groups for m in g.moves if m.card is not None]
    shown += [c for _, _, choice in legal if choice is not None for c in choice.cards]
    return View(
        title=state.title,
        turn=t.turn or say("state.nobody" if r.finished else "state.no-turn"),
        direction="" if t.direction is None else say("state.left" if t.direction > 0 else "state.right"),
        todo=list(state.todo), seats=seats, piles=piles, details=details, faults=faults, result=result,
        standing=standing, legal=legal,
        words={"players": words.players, "verbs": words.verbs, "cards": words.cards, "suits": words.suits,
               "targets": words.targets, "for": [words.for_word], "legal": spelt.moves(legal_events(state.legal)),
               "hint": [hint(state)]},
        last=spelt.move(state.event) if state.event else "", events=len(record.events),
        cards=list(dict.fromkeys(shown)),
    )


def hint(state: State) -> str:
    """What the text field shows while empty: a legal line, one with a card seen if any
    (in the record's notation)."""
    events = [e for e in state.legal if isinstance(e, Event)]
    lines = state.written.moves(events)
    seen = [line for line, e in zip(lines, events) if all(c.seen for c in e.cards)]
    return (seen or lines or [say("serve.type-hint")])[0]


def legal_by_player(state: State) -> list[tuple[str, list[Moves], Choice | None]]:
    """The legal events as buttons, and the plays of several cards as choices, grouped by
    player: whose turn it is first, then the others in seating order."""
    groups: dict[str, list[Legal]] = {}
    for item in state.legal:
        groups.setdefault(item.player or NO_PLAYER, []).append(item)
    turn = state.table.turn
    order = sorted(groups, key=lambda p: (p != turn, state.players.index(p) if p in state.players else -1))
    found = []
    for player in order:
        chosen = [g for g in groups[player] if isinstance(g, Group)]
        found.append((player, _moves([e for e in groups[player] if isinstance(e, Event)], state.written),
                      choice_of(player, chosen) if chosen else None))
    return found


def _moves(events: list[Event], written: Spelling) -> list[Moves]:
    """A player's moves: those that differ only by their one card together, as faces."""
    alike: dict[tuple[str, str | None, str | None, str | None, bool], list[Event]] = {}
    for event in events:
        key = (event.verb, event.suit, event.target, event.word, len(event.cards) == 1)
        alike.setdefault(key, []).append(event)
    shown: list[Moves] = []
    plain: list[Move] = []
    for key, group in alike.items():
        if key[-1] and len(group) >= FACES_FROM:
            label = _label(group[0], written).replace(written.card(group[0].cards[0]), "…", 1)
            shown.append(Moves(label, [Move(_label(e, written), written.move(e), e.cards[0]) for e in group], faces=True))
        else:
            plain += [Move(_label(e, written), written.move(e)) for e in group]
    return ([Moves("", plain)] if plain else []) + shown


def _label(event: Event, written: Spelling) -> str:
    """What the button says: the line without the player's name."""
    text = written.move(event)
    return text[len(event.player):].strip() if event.player and text.startswith(event.player) else text
