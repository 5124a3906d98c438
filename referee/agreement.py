"""``legal()`` agrees with the replay: every event it offers checks clean when appended.

Positions come from ``referee simulate`` records (the deal written or hidden) cut after
a random line; at each, the events ``Rules.legal()`` offers (a sample of them, when a
hand is unknown and many cards may be in it) are appended one at a time as a record
line (read by the notation, then put after the position's last line) and replayed by
the engine on a copy of the position: any violation it raises is a disagreement. tests/test_legal.py runs a few thousand positions; ``python
bench/legal.py`` runs as many as asked."""

from __future__ import annotations

import copy
import dataclasses
import io
import pickle
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .engine import replay
from .export import escape_value, line_text
from .games.base import Rules
from .notation import RecordError, parse_text
from .simulate import rules_class, simulate
from .state import rules_at

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


def _forks(rules: Rules) -> Callable[[], Rules]:
    """Copies of a game's rules as they stand, made fast: pickled once (its setup, and
    the record in it, shared rather than copied), unpickled for each copy; deep copies
    for rules that cannot be pickled (a function kept in them)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.persistent_id = lambda obj: 0 if obj is rules.setup else None
    try:
        pickler.dump(rules)
    except (pickle.PicklingError, AttributeError, TypeError):
        return lambda: copy.deepcopy(rules, {id(rules.setup): rules.setup})
    data = buffer.getvalue()

    def fork() -> Rules:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = lambda _: rules.setup
        return unpickler.load()

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
        return [f"{position.game} seed {position.seed}: the position itself is flagged: {rules.violations[0]}"]
    if rules.result().finished:
        return []
    offered = rules.legal()
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
        replay(after, dataclasses.replace(record, events=[dataclasses.replace(alone.events[0], line=line)]))
        flagged = after.violations
        if flagged:
            v = flagged[0]
            found.append(f"{position.game} seed {position.seed}: legal() offers {written!r}, flagged "
                         f"{v.code} ({v.message})\n{position.text}")
    return found
