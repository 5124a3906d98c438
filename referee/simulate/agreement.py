"""``legal()`` agrees with the replay: every event it offers checks clean when appended.

Positions come from ``referee simulate`` records (the deal written or hidden) cut after
a random line; at each, the events ``Rules.legal()`` offers (a sample of them, when a
hand is unknown and many cards may be in it) are appended one at a time as a record
line (read by the notation, then put after the position's last line) and replayed by
the engine on a copy of the position: any violation it raises is a disagreement. tests/test_legal.py runs a few thousand positions; ``python
bench/legal.py`` runs as many as asked."""

from __future__ import annotations

import copy
import io
import pickle
import random
import unicodedata
from collections.abc import Callable, Iterator
from typing import IO
from dataclasses import dataclass

from ..cards import ACE, SUITS, UNSEEN_CARD, Card
from ..engine import replay, start
from ..convert.export import line_text
from ..convert.formatter import escape_value
from ..games.base import Group, Legal, Rules, Violation, legal_events
from ..notation import RecordError, parse_text
from ..record import Event, Record
from . import rules_class, simulate
from ..state import rules_at

SAMPLE = 6
"""Events checked per position, at most: the first and last one offered and a random few."""


@dataclass(frozen=True)
class Position:
    game: str
    seed: int
    text: str
    """The record cut after a random line, without its [Result] header."""


def positions(game: str, count: int, seed: int = 0, max_events: int = 300) -> Iterator[Position]:
    """``count`` random positions of ``game``: every number of players in turn, the deal
    written or hidden, cut after a random line."""
    cls = rules_class(game)
    sizes = range(cls.min_players, cls.max_players + 1)
    rng = random.Random(seed)
    made, record_seed = 0, seed
    while made < count:
        text = simulate(game, sizes[record_seed % len(sizes)], record_seed, hidden=rng.random() < 0.5,
                        max_events=rng.choice((20, 80, max_events)))
        lines = [line for line in text.split("\n") if not line.lower().startswith("[result")]
        events = [n for n, line in enumerate(lines) if line.strip() and not line.lstrip().startswith((";", "["))]
        for _ in range(min(5, count - made)):
            cut = rng.choice(events) + 1 if events else len(lines)
            yield Position(game, record_seed, "\n".join(lines[:cut]) + "\n")
            made += 1
        record_seed += 1


class _Sharing(pickle.Pickler):
    """Pickles all but one object, written as a reference to it (``_Shared`` puts it back)."""

    def __init__(self, file: IO[bytes], shared: object) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.shared = shared

    def persistent_id(self, obj: object) -> int | None:
        return 0 if obj is self.shared else None


class _Shared(pickle.Unpickler):
    """Unpickles what ``_Sharing`` pickled, its one reference read as the object shared."""

    def __init__(self, file: IO[bytes], shared: object) -> None:
        super().__init__(file)
        self.shared = shared

    def persistent_load(self, pid: object) -> object:
        return self.shared


def _flagged(rules: Rules) -> list[Violation]:
    """What a game replayed here flagged: the list its rules start with (check alone
    keeps them otherwise, in an engine.Found)."""
    assert isinstance(rules.violations, list)
    return rules.violations


def _forks(rules: Rules) -> Callable[[], Rules]:
    """Copies of a game's rules as they stand, made fast: pickled once (its setup, and
    the record in it, shared rather than copied), unpickled for each copy; deep copies
    for rules that cannot be pickled (a function kept in them)."""
    buffer = io.BytesIO()
    pickler = _Sharing(buffer, rules.setup)
    try:
        pickler.dump(rules)
    except (pickle.PicklingError, AttributeError, TypeError):
        return lambda: copy.deepcopy(rules, {id(rules.setup): rules.setup})
    data = buffer.getvalue()

    def fork() -> Rules:
        copied: Rules = _Shared(io.BytesIO(data), rules.setup).load()  # what was pickled: a Rules
        return copied

    return fork


def disagreements(position: Position, rng: random.Random, sample: int = SAMPLE) -> list[str]:
    """The legal events that do not check clean when appended to the position; each
    said with the record it was appended to."""
    (record,) = parse_text(position.text)
    if isinstance(record, RecordError):
        return [f"{position.game} seed {position.seed}: the position cannot be read: {record}"]
    rules = rules_at(record)
    rules.result()  # as a check asks it before the next line: a player out of cards goes out
    if rules.violations:
        return [f"{position.game} seed {position.seed}: the position itself is flagged: {_flagged(rules)[0]}"]
    if rules.result().finished:
        return []
    offered = legal_events(rules.legal())  # a group of cards: each play it allows
    if len(offered) > sample:
        offered = [offered[0], offered[-1], *rng.sample(offered[1:-1], sample - 2)]
    fork = _forks(rules)
    found = []
    line = position.text.count("\n") + 1
    headers = "".join(f'[{h.tag} "{escape_value(h.value)}"]\n' for h in record.headers)
    for event in offered:
        written = line_text(event)
        (alone,) = parse_text(headers + written + "\n")  # the line read as the notation reads it
        if isinstance(alone, RecordError) or len(alone.events) != 1:
            found.append(f"{position.game} seed {position.seed}: {written!r} cannot be read: {alone}")
            continue
        after = fork()  # the position, replayed once; the line goes through the engine's loop
        replay(after, record.replace(events=[alone.events[0].replace(line=line)]))
        flagged = _flagged(after)
        if flagged:
            v = flagged[0]
            found.append(f"{position.game} seed {position.seed}: legal() offers {written!r}, flagged "
                         f"{v.code} ({v.message})\n{position.text}")
    return found


# --- The other way: what checks clean is offered ------------------------------------------

SKIPPED_VERBS = frozenset({"holds", "scores", "swears"})
"""Lines ``legal()`` does not list: the deal, the scores a table writes (checked at the
end of the game, against the result), and a gros mot (a fault under la règle du mot
doux, no event of the game without it)."""


def offers(offered: list[Legal], event: Event) -> bool:
    """Whether ``legal()``'s list has this event, or a group that allows it. Cards drawn
    are compared by their number (the stock names them or not), a card offered as ``??``
    (a hand nobody saw) stands for any card, a call is compared without case or accents."""
    for item in offered:
        if isinstance(item, Group):
            if event.verb == "plays" and event.player == item.player and item.allows(event.cards, event.suit):
                return True
            continue
        if (item.player, item.verb, item.target, item.suit) != (event.player, event.verb, event.target, event.suit):
            continue
        if plain(item.word) != plain(event.word) or len(item.cards) != len(event.cards):
            continue
        if item.verb == "draws" or all(a == b or not a.seen or not b.seen for a, b in zip(item.cards, event.cards)):
            return True
    return False


def offers_line(rules: Rules, offered: list[Legal], event: Event) -> bool:
    """Whether ``legal()`` offers this line, or, for a line that lays several plays one
    after the other (a Dame and the card it lets its player lay, a payment in Bataille
    corse: ``plays QC 9C``), whether it offers each of them in turn: the longest play
    it offers first, then the rest on the table that play leaves."""
    if offers(offered, _counted(event)):
        return True
    if event.verb != "plays" or len(event.cards) < 2:
        return False
    cards = event.cards
    for size in range(len(cards) - 1, 0, -1):
        head = event.replace(cards=cards[:size], cards_text=" ".join(map(str, cards[:size])), suit=None)
        if offers(offered, head):
            after = _forks(rules)()
            after.apply(head)
            tail = event.replace(cards=cards[size:], cards_text=" ".join(map(str, cards[size:])))
            return offers_line(after, after.legal(), tail)
    return False


def _counted(event: Event) -> Event:
    """A draw as its number of cards (``draws`` alone: one)."""
    if event.verb == "draws" and not event.cards_text:
        return event.replace(cards=(UNSEEN_CARD,), cards_text="1")
    return event


def plain(word: str | None) -> str:
    """A word as written, without case or accents."""
    return unicodedata.normalize("NFKD", word or "").encode("ascii", "ignore").decode().lower()


def _looks(rules: Rules) -> tuple[str, str]:
    """The table and what is to do, as a table sees them: a line that leaves both as they
    were changes nothing (a pass written after one's draw, the winner of a slap writing
    that they collect): it is no move, and ``legal()`` need not offer it."""
    return repr(rules.table()), repr(rules.todo())


def missed_in_record(record: Record) -> list[str]:
    """The lines of a record that check clean where they stand, change the table, and
    that ``legal()`` did not offer there (each said with its line), up to the record's
    first fault the table did not accept (after it, the table may be one no legal game
    reaches). A line that lays several plays one after the other is compared play by
    play (``offers_line``)."""
    rules = start(record)
    missed = []
    for event in record.events:
        if any(not v.accepted for v in rules.violations):
            break
        if event.verb in SKIPPED_VERBS or rules.result().finished:
            replay(rules, record.replace(events=[event]))
            continue
        offered = rules.legal()
        fork = _forks(rules)()
        before, looks = len(rules.violations), _looks(rules)
        replay(rules, record.replace(events=[event]))
        if len(rules.violations) == before and _looks(rules) != looks and not offers_line(fork, offered, event):
            missed.append(f"{record.path}:{event.line}: {line_text(event)!r} checks clean, but legal() did not offer it")
    return missed


def random_play(game: str, players: int, seed: int, steps: int, sample: int = SAMPLE) -> list[str]:
    """A game played by a random policy that never asks ``legal()``: at each step every
    event of ``candidates`` is tried on a copy of the table, the ones that check clean are
    the legal moves by the referee's own ruling, and one of them is played. At each
    position, a clean move ``legal()`` did not offer, or a move it offered (a sample)
    that does not check clean, is a disagreement."""
    rng = random.Random(seed)
    text = simulate(game, players, seed, max_events=0)
    (record,) = parse_text(text)
    assert isinstance(record, Record)
    rules = replay(start(record), record)
    found: list[str] = []
    lines = [line for line in text.rstrip("\n").split("\n") if not line.lower().startswith("[result")]
    for _ in range(steps):
        if rules.result().finished:
            break
        offered = rules.legal()
        fork = _forks(rules)
        clean, looks = [], _looks(rules)
        for event in candidates(rules, rng):
            after = fork()
            replay(after, record.replace(events=[event]))
            if not _flagged(after)[len(rules.violations):]:
                clean.append(event)
                if _looks(after) != looks and not offers_line(rules, offered, event):  # (else it changes nothing)
                    found.append(f"{game} seed {seed}: {line_text(event)!r} checks clean, legal() did not offer it\n"
                                 + "\n".join(lines) + "\n")
        spelled = legal_events(offered)
        for event in rng.sample(spelled, min(sample, len(spelled))):
            after = fork()
            replay(after, record.replace(events=[event]))
            if _flagged(after)[len(rules.violations):]:
                v = _flagged(after)[-1]
                found.append(f"{game} seed {seed}: legal() offers {line_text(event)!r}, flagged {v.code} ({v.message})\n"
                             + "\n".join(lines) + "\n")
        if found or not clean:
            break
        event = _policy(clean, rng)
        replay(rules, record.replace(events=[event]))
        lines.append(line_text(event))
    return found


def _policy(clean: list[Event], rng: random.Random) -> Event:
    """A move among those that check clean: a card most of the time, as a table plays."""
    plays = [e for e in clean if e.verb == "plays"]
    return rng.choice(plays if plays and rng.random() < 0.7 else clean)




def candidates(rules: Rules, rng: random.Random) -> list[Event]:
    """Events a table might write now, made from what the table shows (hands, players,
    the game's verbs), never from ``legal()``: each card of a hand alone (an ace with
    each announcement or none, where aces announce), random groups of cards of one value
    in random orders, draws of 1 to 8 cards, passes, calls, slaps, collects, burns,
    discards, swaps, gifts and accusations. (No round markers, drinks or bids: Caroleto
    is not played by this policy.)"""
    table = rules.table()
    verbs = rules.verbs
    deck = sorted(rules.in_play, key=str)
    found: list[Event] = []

    def event(player: str, verb: str, cards: tuple[Card, ...] = (), target: str | None = None,
              word: str | None = None, suit: str | None = None) -> None:
        found.append(Event(player, verb, 0, 0, cards, " ".join(map(str, cards)), 0, target, word, suit=suit))

    for player in rules.players:
        hand = table.hands.get(player)
        held = list(hand.known) if hand is not None else []
        if hand is not None and hand.count > len(hand.known):
            elsewhere = {c for h in table.hands.values() for c in h.known} | {c for p in table.piles.values() for c in p}
            held += rng.sample([c for c in deck if c not in elsewhere], min(4, len(deck) - len(elsewhere)))
        others = [p for p in rules.players if p != player]
        if "plays" in verbs:
            for card in held:
                for suit in (None, *SUITS) if card.rank == ACE and rules.aces_announce else (None,):
                    event(player, "plays", (card,), suit=suit)
            for rank in {c.rank for c in held}:
                same = [c for c in held if c.rank == rank]
                if len(same) > 1:
                    chosen = rng.sample(same, rng.randint(2, len(same)))
                    announce = rank == ACE and rules.aces_announce
                    event(player, "plays", tuple(chosen), suit=rng.choice((None, *SUITS)) if announce else None)
        if "draws" in verbs:
            for count in range(1, 9):
                found.append(Event(player, "draws", 0, 0, (UNSEEN_CARD,) * count, str(count)))
        for verb in ("passes", "slaps", "collects", "burns"):  # a gros mot is a fault, or no event of the game
            if verb in verbs:
                event(player, verb)
        if "discards" in verbs:
            for card in held:
                event(player, "discards", (card,))
        if "says" in verbs:
            for word in (*rules.calls, *(w.capitalize() for w in rules.calls[:1])):  # one as a table may write it
                event(player, "says", word=word)
        for target in others:
            if "swaps" in verbs:
                event(player, "swaps", target=target)
            if "accuses" in verbs:
                event(player, "accuses", target=target)
            if "gives" in verbs and held:
                event(player, "gives", (rng.choice(held),), target=target)
    return found
