"""The table at any line of a record (``referee state``), and what may be done there.

Everything comes from the game's contract: ``table()`` (hands, piles, stock, what is
owed, scores and the rest), ``todo()`` and ``legal()``. The legal events are also said
in words, player by player: where a hand is unknown, a set of cards is said as the
table can tell it ("Ben may play any heart or any 7, or draw")."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .cards import RANK_NAMES, SUITS, TRUMP, UNSEEN_CARD, Card, cards_named_in
from .engine import LOST_FAULTED, LOST_WINDOW, GameReport, _result_tag, _setup_error, check_games, replay, start, status_of
from .text.fit import terminal_width
from .games.base import Group, Legal, Result, Rules, SetupError, Table, Violation
from .convert.importer import read_any
from .messages import join, say
from .text.numbers import whole
from .notation import RecordError, read_games
from .record import Comment, Event, Header, Record
from .text.safe_text import visible_lines
from .spelling import ENGLISH, NOTATIONS, Spelling, spelling_of

WIDTH = 80


@dataclass
class State:
    """A game as it stands after one of its lines."""
    file: str
    line: int
    """Where the game starts in the file."""
    at: int
    """The last line taken into account."""
    game: str
    title: str
    players: list[str]
    status: str
    table: Table
    result: Result
    event: Event | None = None
    """The last event replayed, if any."""
    todo: list[str] = field(default_factory=list)
    legal: list[Legal] = field(default_factory=list)
    """Events, and choices of cards laid together (``Group``), as ``Rules.legal()`` lists them."""
    may: list[str] = field(default_factory=list)
    """The legal events in words, one sentence per player (or group of players)."""
    violations: list[Violation] = field(default_factory=list)
    written: Spelling = ENGLISH
    """The notation its cards and moves are written in: the record's own, unless asked otherwise."""
    stopped: int = 0
    """The line where the replay stopped following the game (engine.LOST_FAULTED; 0: it follows it)."""


# --- Finding the game and replaying it -------------------------------------------------------

def checked_game_at(items: Iterable[Record | RecordError], at: int | None) -> tuple[Record | RecordError, GameReport]:
    """The game of a file that holds line ``at`` (the last game when ``at`` is None), with
    what it inherits from its match, and its report (match faults included); the game is
    a RecordError when it cannot be read."""
    found = None
    for item, report in check_games(items):
        if found is not None and at is not None and item.line > at:
            break
        found = item, report
    assert found is not None, "read_games gives at least one item"
    return found


def game_at(items: Iterable[Record | RecordError], at: int | None) -> Record | RecordError:
    """The game of a file that holds line ``at`` (see ``checked_game_at``)."""
    return checked_game_at(items, at)[0]


def source_line(record: Record, line: int) -> str | None:
    """A line of the game as written; for a game read from JSON (its text is not kept),
    the header, event or comment the JSON places there written out, and a line within
    the game that none takes as blank; None when the game has no such line."""
    found = record.sources([line]).get(line)
    if found is not None or record.text:
        return found
    items: list[Header | Event | Comment] = [*record.headers, *record.events, *record.comments]
    item = next((i for i in items if i.line == line), None)
    if item is not None:
        return spelling_of(record).line(item)
    return "" if items and record.line <= line <= max(i.line for i in items) else None


def rules_at(record: Record, at: int | None = None) -> Rules:
    """The game's rules after replaying its events up to line ``at`` (all of them when
    None); SetupError when the headers cannot make a game."""
    rules = start(record)
    events = record.events if at is None else [e for e in record.events if e.line <= at]
    replay(rules, record.replace(events=events))
    if len(events) == len(record.events):  # as a check does: the record is over
        rules.settle()
        if _result_tag(record):
            rules.conclude()  # and says the game is
    return rules


def state_of(record: Record, at: int | None = None, written: Spelling | None = None) -> State:
    """The state of one game after line ``at`` (its end when None); RecordError when the
    game cannot be set up. Its cards and moves are written in ``written`` (by default, the
    record's own notation: referee/spelling.py)."""
    written = written or spelling_of(record)
    return state_from(replayed_at(record, at, written), record, at, written)


def replayed_at(record: Record, at: int | None = None, written: Spelling | None = None) -> Rules:
    """The game replayed up to line ``at`` (see ``rules_at``), as ``state_from`` words it:
    RecordError when it cannot be set up. What the replay notes names cards in ``written``'s
    letters (by default, the record's own notation)."""
    try:
        with cards_named_in((written or spelling_of(record)).french):
            return rules_at(record, at)
    except SetupError as error:
        raise _setup_error(record, error) from None


def state_from(rules: Rules, record: Record, at: int | None = None, written: Spelling | None = None) -> State:
    """The state of a game replayed up to line ``at`` (``replayed_at``), in the language in
    use: the game is not replayed again, so one replay is worded for readers of every
    language (the rules are asked what is due, what is legal and what is on the table, and
    nothing of them changes)."""
    written = written or spelling_of(record)
    with cards_named_in(written.french):  # what the game says (its to-do, its table) names cards so too
        return _state_of(rules, record, at, written)


def _state_of(rules: Rules, record: Record, at: int | None, written: Spelling) -> State:
    result = rules.result()
    legal = [] if result.finished or result.never_ends or rules.lost_at else rules.legal()
    table = rules.table()
    if rules.lost_at:  # the table shown is where the replay stopped: nothing is due from it
        todo = [say("state.lost", line=rules.lost_at, faulted=LOST_FAULTED, window=LOST_WINDOW)]
    else:
        todo = [] if result.never_ends else [todo.words(written) for todo in rules.todo()]
    events = [e for e in record.events if at is None or e.line <= at]
    last = events[-1] if events else None
    shown = at if at is not None else max([record.line, *(e.line for e in record.events)])
    violations = sorted(rules.violations, key=lambda v: (v.line, v.column))
    return State(record.path, record.line, shown, rules.name, rules.title, list(rules.players),
                 status_of(violations, result), table, result,
                 last, todo, legal, say_legal(legal, table, rules.in_play, written), violations, written, rules.lost_at)


def state_in_text(text: str, at: int | None = None, path: str = "<record>") -> State:
    """The state at line ``at`` of a record given as text (for tests and docs)."""
    import io


    record = game_at(read_games(path, io.BytesIO(text.encode("utf-8"))), at)
    if isinstance(record, RecordError):
        raise record
    return state_of(record, at)


# --- The legal events in words ---------------------------------------------------------------

def say_legal(offered: list[Legal], table: Table, deck: frozenset[Card], written: Spelling = ENGLISH) -> list[str]:
    """One sentence per player: what the next player may do first, then what several
    players may each do (a slap), then the others (a penalty to pay). A choice of cards
    laid together is said as the cards and the ones it may start with. Cards, the suit
    announced and the word before a named player are ``written``'s (the notation's)."""
    groups: dict[str, list[Group]] = {}
    for item in offered:
        if isinstance(item, Group):
            groups.setdefault(item.player, []).append(item)
    events = _sips_up_to([e for e in offered if isinstance(e, Event)])
    by_form: dict[Form, list[str]] = {}
    for event in events:
        by_form.setdefault(_form(event), []).append(event.player)
    own: dict[str, list[Event]] = {}
    shared: dict[tuple[str, ...], list[Event]] = {}
    for event in events:
        players = by_form[_form(event)]
        if len(players) > 1:
            if event.player == players[0]:
                shared.setdefault(tuple(players), []).append(event)
        else:
            own.setdefault(event.player, []).append(event)
    sentences = []
    order = sorted(own, key=lambda p: p != table.turn)
    for player in order[:1]:
        sentences.append(_sentence(player, own[player], table, deck, written, groups=groups.get(player, [])))
    for together, group in shared.items():
        sentences.append(_sentence(join(together, "or"), group, table, deck, written, together[0]))
    for player in order[1:]:
        sentences.append(_sentence(player, own[player], table, deck, written, groups=groups.get(player, [])))
    return sentences


def _sips_up_to(events: list[Event]) -> list[Event]:
    """A player's drinks of 1, 2 ... n gorgées said once, as « up to n gorgées »."""
    most: dict[str, int] = {}
    for e in events:
        if e.verb == "drinks" and (sips := whole(e.word or "")) is not None:
            most[e.player] = max(most.get(e.player, 0), sips)
    said = []
    for e in events:
        if e.verb == "drinks" and (sips := whole(e.word or "")) is not None and most[e.player] > 1:
            if sips == most[e.player]:
                said.append(e.replace(word=say("legal.sips-up-to", count=most[e.player])))
            continue
        said.append(e)
    return said


Form = tuple[str, tuple[Card, ...], str | None, str | None, str | None]
"""What two players' events share when they may do the same (see ``_form``)."""


def _form(event: Event) -> Form:
    return (event.verb, event.cards, event.suit, event.target, event.word)


def _sentence(who: str, events: list[Event], table: Table, deck: frozenset[Card], written: Spelling,
              player: str | None = None, groups: Iterable[Group] = ()) -> str:
    player = player or who
    if all(e.verb == "round" for e in events):
        return say("legal.round", lines=join(written.moves(events), "or"))
    hand = table.hands.get(player)
    known = hand is not None and hand.count == len(hand.known)
    universe = set() if known else _universe(player, table, deck)
    clauses = []
    verbs: dict[str, list[Event]] = {}
    for event in events:
        verbs.setdefault(event.verb, []).append(event)
    for verb, group in verbs.items():
        args = _arguments(group, universe, known, written)
        clauses.append(f"{say(f'verb.{verb}')} {join(args, 'or')}".strip())
    if groups:
        clauses += _groups_phrases(groups, written)
    text = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + say("legal.or") + clauses[-1]
    return say("legal.may", players=who, actions=text)


def _universe(player: str, table: Table, deck: frozenset[Card]) -> set[Card]:
    """The cards whose place nobody knows: the deck less the cards in sight and those
    known to be in a hand (the player's own known cards are said one by one)."""
    known = {c for pile in table.piles.values() for c in pile}
    known |= {c for hand in table.hands.values() for c in hand.known}
    return set(deck) - known


def _arguments(events: list[Event], universe: set[Card], known: bool, written: Spelling) -> list[str]:
    """What follows the verb, for each way the events differ; single cards said as a set."""
    singles: dict[tuple[str | None, str | None, str | None], set[Card]] = {}
    fixed: list[tuple[str, str | None, str | None, str | None]] = []
    for e in events:
        if len(e.cards) == 1:
            singles.setdefault((e.suit, e.target, e.word), set()).add(e.cards[0])
        else:
            fixed.append((written.written_cards(e), e.suit, e.target, e.word))
    parts = [(_cards_phrase(cards, universe, known, written), *key) for key, cards in singles.items()] + fixed
    by_suit: dict[tuple[str, str | None, str | None], list[str | None]] = {}
    for cards, suit, target, word in parts:
        by_suit.setdefault((cards, target, word), []).append(suit)
    merged: dict[tuple[str, str, str | None], list[str | None]] = {}
    for (cards, target, word), suits in by_suit.items():
        merged.setdefault((cards, join([written.suit(s) for s in suits if s], "or"), word), []).append(target)
    verb = events[0].verb
    said = []
    anything = say("legal.any-card")
    for (cards, suit, word), targets in merged.items():
        words = [cards, written.announced(suit) if suit else ""]
        named = [t for t in targets if t is not None]
        if named:  # before a long phrase of cards: « prendre à Ann toute carte dont on ne sait pas… »
            words.insert(0 if cards.startswith(anything) else len(words), written.targeted(verb, join(named, "or")))
        words.append(written.amount(verb, word) if word else "")
        said.append(" ".join(w for w in words if w))
    return said


def _groups_phrases(groups: Iterable[Group], written: Spelling) -> list[str]:
    """Cards laid together, value by value: the cards, and those the play may start with;
    where a hand is not known, in one phrase (any card of the first one's value may follow)."""
    groups = list(groups)
    by_value: dict[int, list[Group]] = {}
    if any(set(g.more) - set(g.known) for g in groups):
        return [say("legal.group-any")]
    for group in groups:
        by_value.setdefault(group.first.rank, []).append(group)
    said = []
    for same in by_value.values():
        cards = sorted({c for g in same for c in (g.first, *g.more)}, key=_card_order)
        first = sorted({g.first for g in same}, key=_card_order)
        key = "legal.group-ace" if any(s is not None for g in same for s in g.suits) else "legal.group"
        said.append(say(key, cards=written.cards(cards), first=join(map(written.card, first), "or")))
    return said
BUT = 3
"""At most this many cards are said as exceptions (« any card but KS »)."""


def _card_order(card: Card) -> tuple[int, str, int]:
    return (SUITS.index(card.suit) if card.suit in SUITS else 4, card.suit, card.rank)


def _cards_phrase(cards: set[Card], universe: set[Card], known: bool, written: Spelling) -> str:
    """A set of cards in words: listed where the hand is known; else, where it covers
    the cards whose place nobody knows (or all those of a suit, of a rank), 'any card
    not known to be elsewhere', 'any heart', 'any 7', then the rest one by one."""
    seen = {c for c in cards if c.seen}
    phrases, covered = [], set()
    left_out = universe - seen
    if not known and universe and seen >= universe:
        phrases.append(say("legal.any-card"))
        covered = set(universe)
    elif not known and universe and len(left_out) <= BUT and len(universe) > 4 * len(left_out):
        # all but a few (in Caroleto, all but the Roi de pique): said in a line
        phrases.append(say("legal.any-card-but", cards=join(map(written.card, sorted(left_out, key=_card_order)))))
        covered = universe & seen
    elif not known:
        for suit in (*SUITS, TRUMP):
            of_suit = {c for c in universe if c.suit == suit}
            if len(of_suit) > 1 and seen >= of_suit:
                phrases.append(say(f"legal.any-suit.{suit}"))
                covered |= of_suit
        for rank in sorted({c.rank for c in universe if c.suit in SUITS}):
            of_rank = {c for c in universe if c.suit in SUITS and c.rank == rank}
            if len(of_rank) > 1 and seen >= of_rank and not of_rank <= covered:
                phrases.append(say(f"legal.any-rank.{rank}") if rank in RANK_NAMES else say("legal.any-rank", rank=rank))
                covered |= of_rank
    rest = [written.card(c) for c in sorted(seen - covered, key=_card_order)]
    if UNSEEN_CARD in cards and not phrases and not rest:
        rest = [written.card(UNSEEN_CARD)]
    return join(phrases + rest, "or")


# --- Showing it ------------------------------------------------------------------------------

def items(state: State) -> list[tuple[str, str]]:
    """The state as labelled items, in the order shown: what ``; expect state LABEL:
    VALUE`` checks in a record."""
    t = state.table
    nobody = say("state.nobody" if state.result.finished else "state.no-turn")
    shown: list[tuple[str, str]] = [(say("state.turn"), t.turn or nobody)]
    if t.direction is not None:
        shown.append((say("state.direction"), say("state.left" if t.direction > 0 else "state.right")))
    for player, hand in t.hands.items():
        shown.append((player, _hand_text(hand.count, hand.known, state.written)))
    for name, pile in t.piles.items():
        shown.append((name, _pile_text(pile, state.written)))
    if t.stock is not None:
        shown.append((say("state.stock"), say("state.cards", count=t.stock)))
    shown += [(say("state.owed"), owed) for owed in t.owed] or [(say("state.owed"), say("state.nothing"))]
    if t.scores:
        shown.append((say("state.scores"), ", ".join(f"{p} {v}" for p, v in t.scores.items())))
    shown += list(t.extra.items())
    r = state.result
    if r.finished and r.winner:
        shown.append((say("state.result"), say("report.winner", player=r.winner)))
    faults = [f"{v.line}:{v.column} {v.code}" + (say("state.accepted") if v.accepted else "") for v in state.violations]
    shown.append((say("state.violations"), ", ".join(faults) or say("state.none")))
    shown += [(say("state.todo"), todo) for todo in state.todo]
    shown += [(say("state.legal"), sentence) for sentence in state.may]
    return shown


def _hand_text(count: int, known: list[Card], written: Spelling) -> str:
    if count == 0:
        return say("state.no-cards")
    text = say("state.cards", count=count)
    if known and len(known) == count:
        return say("label.value", label=text, value=written.cards(known))
    if known:
        return say("label.value", label=f"{text}, {say('state.known', count=len(known))}", value=written.cards(known))
    return text


SHOWN_ON_PILE = 12
"""Cards of a pile shown, from the top; the rest are counted."""


def _pile_text(pile: list[Card], written: Spelling) -> str:
    if not pile:
        return say("state.empty")
    cards = written.cards(pile[-SHOWN_ON_PILE:])
    text = say("state.cards", count=len(pile))
    return say("label.value", label=text, value=f"{'… ' if len(pile) > SHOWN_ON_PILE else ''}{cards} {say('state.top')}")


def render(state: State, width: int = WIDTH) -> list[str]:
    """The state as lines of text that fit ``width`` columns."""
    title = f"{state.file}:{state.at} {state.title} ({join(state.players)})"
    lines = textwrap.wrap(title, width, subsequent_indent="    ", break_on_hyphens=False, break_long_words=False) or [title]
    last = state.written.move(state.event, comment=False) if state.event else None
    after = (say("state.after", at=state.event.line), last) if state.event else (say("state.before"), "")
    for label, value in [after, *items(state)]:
        lines += textwrap.wrap(say("label.value", label=label, value=value) if value else label, width, initial_indent="  ", subsequent_indent="      ",
                               break_on_hyphens=False, break_long_words=False)
    return lines


def to_json(state: State) -> dict[str, Any]:
    """The state as plain data, valid against schemas/state.schema.json."""
    t, r = state.table, state.result
    return {
        "file": state.file, "line": state.line, "at": state.at, "game": state.game, "players": state.players,
        "status": state.status,
        "event": ENGLISH.move(state.event, comment=False) if state.event else None,
        "table": {
            "turn": t.turn, "direction": t.direction,
            "hands": {p: {"count": h.count, "known": [ENGLISH.card(c) for c in h.known]} for p, h in t.hands.items()},
            "piles": {name: [ENGLISH.card(c) for c in pile] for name, pile in t.piles.items()},
            "stock": t.stock, "owed": t.owed, "scores": t.scores, "extra": t.extra,
        },
        "result": {"finished": r.finished, "winner": r.winner, "order": r.order, "scores": r.scores},
        "violations": [{"code": v.code, "line": v.line, "column": v.column, "player": v.player, "message": v.message,
                        "accepted": v.accepted} for v in state.violations],
        "todo": state.todo,
        "legal": ENGLISH.moves(e for e in state.legal if isinstance(e, Event)),
        "groups": [group_json(g) for g in state.legal if isinstance(g, Group)],
        "may": state.may,
    }


def group_json(group: Group) -> dict[str, Any]:
    """A choice of cards laid together as plain data (see ``Group``), its cards in English
    letters (the JSON form's, and what the table page sends back)."""
    def cards(cs: Iterable[Card]) -> list[str]:
        return [ENGLISH.card(c) for c in cs]

    return {"player": group.player, "verb": group.verb, "first": ENGLISH.card(group.first), "more": cards(group.more),
            "hand": group.hand, "known": cards(group.known), "unseen": group.unseen,
            "suits": list(group.suits), "out_suits": list(group.out_suits), "not_last": cards(group.not_last)}


def run(path: str, at: int | None, as_json: bool, notation: str | None = None) -> int:
    """``referee state``: print the state; exit status 0, or 2 when the game cannot be read.
    ``notation`` (``en``, ``fr``): the one its cards and moves are written in, when the
    reader asks for another than the record's own."""
    import sys


    try:
        record = game_at(read_any(path), at)  # text or JSON, as check reads it
        if isinstance(record, RecordError):
            raise record
        if at is not None and source_line(record, at) is None:  # past the end of the game (and of the file)
            raise RecordError(record.path, at, 1, say("explain.no-line", line=at))
        asked = NOTATIONS[notation] if notation else ENGLISH if as_json else None  # the JSON form: English
        state = state_of(record, at, asked)  # a French record in French, unless asked otherwise
        with cards_named_in(state.written.french):
            shown = None if as_json else "\n".join(render(state, terminal_width() or WIDTH))
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 2
    if shown is None:
        import json

        print(json.dumps(to_json(state), ensure_ascii=False, indent=1))
    else:  # a file name or a header may bring controls; piped, 80 columns as the docs show it
        print(visible_lines(shown))
    return 0
