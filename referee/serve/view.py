"""What a page shows of the game as it stands: plain data for the templates, taken from
``referee state`` (referee/state.py) and the game's report; every sentence in the
page's language, every value from the record left for the template to escape."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import SUITS, Card
from ..export import line_text
from ..games.base import UNITS, amount_text
from ..live import Session, _words
from ..messages import say
from ..record import Event
from ..state import SHOWN_ON_PILE, State

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
    legal: list[tuple[str, list[Move]]]
    words: dict[str, list[str]]
    last: str
    events: int
    cards: list[Card] = field(default_factory=list)
    """Every card shown, for the page's card faces."""


def view_of(session: Session) -> View:
    """The view of a session's game (sentences in the language spoken now)."""
    state, report = session.state, session.report
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
    if r.finished:
        result = say("report.winner", player=r.winner) if r.winner else say("live.over")
    standing = ""
    if report.match is not None:
        from ..match import describe

        standing = describe(report.match)
    faults = [(f"{v.line}", v.code, v.message, v.accepted) for v in state.violations]
    words = _words(session)
    shown = [c for s in seats for c in s.known] + [c for p in piles for c in p.cards]
    return View(
        title=state.title,
        turn=t.turn or say("state.nobody" if r.finished else "state.no-turn"),
        direction="" if t.direction is None else say("state.left" if t.direction > 0 else "state.right"),
        todo=list(state.todo), seats=seats, piles=piles, details=details, faults=faults, result=result,
        standing=standing, legal=legal_by_player(state),
        words={"players": words.players, "verbs": words.verbs, "cards": words.cards,
               "suits": list(SUITS), "legal": [line_text(e) for e in state.legal]},
        last=line_text(state.event) if state.event else "", events=len(session.record.events),
        cards=list(dict.fromkeys(shown)),
    )


def legal_by_player(state: State) -> list[tuple[str, list[Move]]]:
    """The legal events as buttons, grouped by player: whose turn it is first, then the
    others in seating order."""
    groups: dict[str, list[Move]] = {}
    for event in state.legal:
        groups.setdefault(event.player or NO_PLAYER, []).append(Move(_label(event), line_text(event)))
    turn = state.table.turn
    order = sorted(groups, key=lambda p: (p != turn, state.players.index(p) if p in state.players else -1))
    return [(player, groups[player]) for player in order]


def _label(event: Event) -> str:
    """What the button says: the line without the player's name."""
    text = line_text(event)
    return text[len(event.player):].strip() if event.player and text.startswith(event.player) else text
