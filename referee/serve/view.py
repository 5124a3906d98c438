"""What a page shows of the game as it stands: plain data for the templates, taken from
``referee state`` (referee/state.py) and the game's report; every sentence in the
page's language, every value from the record left for the template to escape."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import EXCUSE, SUITS, UNSEEN, Card
from ..games import find_game, load_rules
from ..games.base import UNITS, Group, Legal, amount_text, legal_events
from ..live import Session, vocabulary
from ..match import Standing, describe
from ..messages import say
from ..record import Event
from ..spelling import ENGLISH, Spelling
from ..state import SHOWN_ON_PILE, State, group_json
from ..html.card_svg import symbol_id

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


SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
"""The suit symbols the page shows on its buttons (a suit's name goes in their label)."""


@dataclass
class Move:
    label: str
    line: str
    card: Card | None = None
    """The one card the move plays, when it is shown as the card's face."""
    named: list[tuple[str, str]] = field(default_factory=list)
    """When the play of this card names a suit (an ace): each suit ("" for none) and its
    line, the suit chosen by a second tap; ``line`` is then the first of them."""
    rank: str = ""
    """The card's value alone, in the record's notation (``7``, ``D``): a value button."""
    text: str = ""
    """The card in the record's notation (``7H``, ``7C``)."""
    call: bool = False
    """A call (``says``): the page shows calls first, marked as due."""


@dataclass
class Moves:
    """Moves of one player that differ only by one card (``plays 7H``, ``plays 8H``...),
    shown as card faces after their common words, a row a suit; or other moves, one
    button each. ``deck``: the card is seen only as it is played (a card turned, a card
    taken): one button for the act left unknown (``unknown``), else a suit and a value."""

    label: str
    moves: list[Move]
    faces: bool = False
    suits: list[tuple[str, list[Move]]] = field(default_factory=list)
    """The faces by suit, in the order of the hand where it is known."""
    deck: bool = False
    unknown: Move | None = None
    pattern: str = ""
    """For ``deck``: every move's line with ``{}`` for its card, when they all read so (the
    page may then be sent the cards alone, its script making their buttons)."""
    rows: str = ""
    """With ``pattern``: the cards by suit as the page's script reads them, ``suit:letter:
    values`` a suit, ``|`` between suits (``H:C:A 7 D`` for AC, 7C, DC in French); ``!``
    before a value whose play names a suit (its suits' buttons are in the page apart)."""
    cards: str = ""
    """For faces (not ``deck``) whose lines all read as ``pattern``: the cards by suit as
    the page's script reads them to make their buttons, ``suit:cards`` a suit, ``|``
    between suits, each card as the record writes it, then ``=`` and its face's name
    where they differ (``S:2P=2S VP=JS`` in French); ``!`` before a card whose play
    names a suit."""


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


FACES_FROM = 1
"""Moves that differ only by their card are shown as faces from this many on (one: a card
played is shown as its face)."""
DECK_FROM = 14
"""Moves that differ only by their card are picked as a suit then a value from this many
on (more cards than a suit holds: the card is not in a hand the table knows)."""


@dataclass
class Bar:
    """What stays at the top of the screen: whose turn, what is due, the last line."""

    turn: str
    """Whose turn it is ("" when no one's: the first to-do line is then the headline)."""
    headline: str
    todo: list[str]
    last: str
    accepted: str
    """When the last line was a fault the table accepted: what the table accepted."""


@dataclass
class Anyone:
    """A move any player may make at any moment (a slap), one button a player; ``legal``:
    those that break no rule now."""

    verb: str
    moves: list[Move]
    legal: set[str]
    note: str


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
    bar: Bar | None = None
    anyone: list[Anyone] = field(default_factory=list)
    stopped: int = 0
    """The line where the replay stopped following the game (0: it follows it): nothing is offered."""


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
    anyone = anyone_moves(state, record)
    offered = {m.line for a in anyone for m in a.moves}
    legal = [(p, [g for g in (_without(g, offered) for g in moves) if g.moves], choice)
             for p, moves, choice in legal_by_player(state)]
    legal = [entry for entry in legal if entry[1] or entry[2]]
    spelt = state.written
    shown = [c for s in seats for c in s.known] + [c for p in piles for c in p.cards]
    shown += [m.card for _, groups, _ in legal for g in groups for m in g.moves
              if m.card is not None and (not g.deck or m is g.unknown)]
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
        cards=list(dict.fromkeys(shown)), bar=bar_of(state), anyone=anyone, stopped=state.stopped,
    )


def bar_of(state: State) -> Bar:
    """The bar of a state: whose turn, or else the first thing to do as its headline."""
    t, r = state.table, state.result
    todo = list(state.todo)
    if t.turn:
        headline = say("serve.turn", player=t.turn)
    elif todo:
        headline = todo.pop(0)
    else:
        headline = say("state.nobody" if r.finished else "live.over")
    last = state.written.move(state.event) if state.event else ""
    accepted = ""
    if state.event is not None:
        line = state.event.line
        codes = [v.code for v in state.violations if v.accepted and v.line == line]
        if codes:
            accepted = say("serve.table-accepted", codes=", ".join(codes))
    return Bar(t.turn or "", headline, todo, last, accepted)


def anyone_moves(state: State, record: object) -> list[Anyone]:
    """The moves any player may make at any moment in this game (``Rules.anyone``: a slap),
    for every player, whether the rules allow them now or not (a false slap is a fault the
    table must be able to write in one tap), with the option the table chose for them."""
    entry = find_game(state.game)
    if entry is None or entry.module is None or state.result.finished:
        return []
    rules = load_rules(entry)
    found = []
    for verb, tag in rules.anyone.items():
        legal = {e.player for e in state.legal if isinstance(e, Event) and e.verb == verb}
        moves = [Move(player, state.written.move(Event(player, verb, 0, 0))) for player in state.players]
        note = ""
        option = next((o for o in rules.options if o.tag == tag), None)
        if option is not None:
            header = getattr(record, "header")(tag)
            value = header.value.strip() if header is not None and header.value.strip() else str(
                option.default_for(len(state.players)))
            shown = next((k for k, v in state.table.extra.items() if v == value), state.written.tag(tag))
            note = say("serve.anyone-option", tag=shown, value=value)  # named as the table's details name it
        found.append(Anyone(state.written.verb(verb), moves, legal, note))
    return found


def _without(group: Moves, lines: set[str]) -> Moves:
    """A group of moves less those shown elsewhere (a slap, in the row of slaps)."""
    if group.faces or not lines:
        return group
    group.moves = [m for m in group.moves if m.line not in lines]
    return group


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
        hand = state.table.hands.get(player)
        found.append((player, _moves([e for e in groups[player] if isinstance(e, Event)], state.written,
                                     list(hand.known) if hand else None),
                      choice_of(player, chosen) if chosen else None))
    return found


def _moves(events: list[Event], written: Spelling, hand: list[Card] | None = None) -> list[Moves]:
    """A player's moves: those that differ only by their one card together, as faces (a
    play that names a suit, as an ace's, one face whose suits come at a second tap)."""
    alike: dict[tuple[str, str | None, str | None, bool], list[Event]] = {}
    for event in events:
        key = (event.verb, event.target, event.word, len(event.cards) == 1)
        alike.setdefault(key, []).append(event)
    shown: list[Moves] = []
    plain: list[Move] = []
    for key, group in alike.items():
        by_card: dict[Card, list[Event]] = {}
        for event in group:
            by_card.setdefault(event.cards[0] if key[-1] else Card(0, ""), []).append(event)
        if key[-1] and (len(by_card) >= FACES_FROM or len(by_card) < len(group)):
            shown.append(_faces(by_card, written, hand or []))
        else:
            plain += [Move(_label(e, written), written.move(e), call=e.verb == "says") for e in group]
    plain.sort(key=lambda m: not m.call)  # a call offered is due: first
    return ([Moves("", plain)] if plain else []) + shown


def _faces(by_card: dict[Card, list[Event]], written: Spelling, hand: list[Card]) -> Moves:
    """The plays of one card each, alike but for the card: by suit, in the hand's order."""
    first = next(iter(by_card.values()))[0]
    bare = first.replace(suit=None)
    label = _label(bare, written).replace(written.card(bare.cards[0]), "…", 1)
    moves = []
    for card, events in by_card.items():
        named = [(e.suit or "", written.move(e)) for e in events] if len(events) > 1 or events[0].suit else []
        base = events[0].replace(suit=None)
        moves.append(Move(_label(base, written), written.move(events[0]), card, named, _rank(card, written),
                          written.card(card)))
    unknown = next((m for m in moves if m.card is not None and m.card.suit == UNSEEN), None)
    seen = [m for m in moves if m is not unknown]
    deck = unknown is not None or len(seen) >= DECK_FROM
    place = {c: i for i, c in enumerate(hand)}
    order = {s: i for i, s in enumerate(SUITS)}

    def key(m: Move) -> tuple[int, int, int]:
        card = m.card or Card(0, "")
        return (order.get(card.suit, len(order) + (card.suit == EXCUSE)), place.get(card, len(place)),
                card.rank if deck else 0)  # the trumps, then the Excuse

    seen.sort(key=key)
    suits: dict[str, list[Move]] = {}
    for m in seen:
        suits.setdefault(m.card.suit if m.card else "", []).append(m)
    pattern = _pattern(seen)
    rows = "|".join(f"{suit}:{written.suit_letter(suit) if suit in SUITS else ''}:"
                    f"{' '.join(('!' if m.named else '') + m.rank for m in cards)}"
                    for suit, cards in suits.items()) if pattern and deck else ""
    faces = "|".join(f"{suit}:{' '.join(_face(m) for m in cards)}" for suit, cards in suits.items()) if pattern and not deck else ""
    return Moves(label, moves, faces=True, suits=list(suits.items()), deck=deck, unknown=unknown,
                 pattern=pattern, rows=rows, cards=faces)


def _face(move: Move) -> str:
    """A card of ``Moves.cards``: as the record writes it, and its face's name if another;
    ``!`` first when its play names a suit (its suits' buttons are in the page apart)."""
    name = face_name(move.card) if move.card is not None else move.text
    return ("!" if move.named else "") + (move.text if name == move.text else f"{move.text}={name}")


def face_name(card: Card) -> str:
    """The name of a card's face as a page's script reads it (its symbol's, less ``card-``)."""
    return symbol_id(card).removeprefix("card-")


def _pattern(moves: list[Move]) -> str:
    """The line of these moves with ``{}`` for the card, when each reads so; else "". A
    move that names a suit (an ace's) is left aside: its lines are in the page apart."""
    plain = [m for m in moves if not m.named]
    if not plain or any("{" in m.line for m in moves):
        return ""
    first = plain[0]
    head, found, tail = first.line.rpartition(" " + first.text)
    pattern = head + " {}" + tail if found else ""
    return pattern if pattern and all(pattern.replace("{}", m.text) == m.line for m in plain) else ""


def _rank(card: Card, written: Spelling) -> str:
    """A card's value alone in the record's notation: the card without its suit letter."""
    text = written.card(card)
    if card.suit in SUITS:
        return text[: -len(written.suit_letter(card.suit))]
    return text


def _label(event: Event, written: Spelling) -> str:
    """What the button says: the line without the player's name."""
    text = written.move(event)
    return text[len(event.player):].strip() if event.player and text.startswith(event.player) else text
