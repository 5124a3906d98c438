"""Inlay hints: the table at the end of each trick, of each round and of each game, from
the replay, written at the end of that line: the score, the cards left in each hand, what
is owed (drinks, penalties). A game whose table shows none of these gets no hint.

Only the lines asked for are worked out (an editor asks for what it shows): the game is
replayed from the copy of its rules kept before the first of them (model.py) through the
last, event by event; a trick ends where the game's ``stats()`` count one more trick
taken or picked up (the trick games: Pierre qui Roule, Flaschenteufel)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..games.base import Rules, Table
from ..messages import join, say
from ..record import Event, Record
from .model import Document


@dataclass(frozen=True)
class Hint:
    line: int
    column: int
    """After the line's last character."""
    label: str


def ends(record: Record) -> list[int]:
    """The lines that end a round (the last event before a round marker) or the game."""
    events = record.events
    found = [events[n - 1].line for n, e in enumerate(events) if e.verb == "round" and n > 0 and events[n - 1].verb != "round"]
    if events and events[-1].verb != "round":
        found.append(events[-1].line)
    return found


def summary(table: Table) -> str:
    """The table in one short line: the scores, the cards in hand, what is owed."""
    parts = []
    if table.scores:
        parts.append(say("lsp.hint.scores", scores=join([f"{p} {n}" for p, n in table.scores.items()])))
    if table.hands:
        parts.append(say("lsp.hint.hands", hands=join([f"{p} {h.count}" for p, h in table.hands.items()])))
    if table.owed:
        parts.append(say("lsp.hint.owed", owed=join(table.owed)))
    return " · ".join(parts)


TRICK_STATS = ("tricks_won", "pick_ups")
"""The counts of ``Rules.stats()`` that grow by one when a trick leaves the table."""


def _tricks(rules: Rules) -> int | None:
    """How many tricks have left the table; None in a game without tricks."""
    stats = rules.stats()
    counted = [stats[name] for name in TRICK_STATS if name in stats]
    return sum(counted) if counted else None


def replayed(document: Document, record: Record, first: int, last: int) -> Iterator[tuple[Event, Rules, bool]]:
    """The events of the lines ``first`` to ``last``, each with the rules just after it and
    whether it ended a trick (the game replayed from the copy of its rules kept before
    ``first``); nothing for a game that cannot be set up."""
    from ..cards import cards_named_in
    from ..engine import replay

    events = [e for e in record.events if first <= e.line <= last]
    if not events:
        return
    with cards_named_in(record.french):
        held: list[tuple[Event, int]] = []  # a card outside the deck waiting from one event to the next
        rules = document.rules_before(events[0].line, record, held)
        if rules is None:
            return
        before = _tricks(rules)
        for event in events:
            replay(rules, record.replace(events=[event]), held)
            now = _tricks(rules) if before is not None else None
            yield event, rules, now is not None and before is not None and now > before
            before = now


def trick_ends(document: Document, record: Record) -> list[int]:
    """The lines that end a trick, in a game with tricks (worked out once for a text)."""
    key = f"tricks {record.line}"
    if key not in document.memo:
        found = [event.line for event, _, ended in replayed(document, record, record.line, record.events[-1].line)
                 if ended] if record.events else []
        document.memo[key] = found
    lines: list[int] = document.memo[key]  # type: ignore[assignment]
    return lines


def hints(document: Document, first: int, last: int) -> list[Hint]:
    """The hints of the lines ``first`` to ``last``."""
    found = []
    for _, item, _ in document.reports:
        if not isinstance(item, Record) or not item.events or item.events[-1].line < first or item.line > last:
            continue
        wanted = {line for line in ends(item) if first <= line <= last}
        for event, rules, ended in replayed(document, item, first, last):
            if event.line not in wanted and not ended:
                continue
            wanted.discard(event.line)  # one hint a line
            label = summary(rules.table())
            if label:
                found.append(Hint(event.line, len(document.line(event.line).rstrip()) + 1, label))
    return found


def trick_spans(document: Document) -> list[tuple[int, int]]:
    """Each trick's first and last lines (for folding): from the first card laid after the
    trick before (or the game's first) to the line that ended it."""
    found = []
    for _, item, _ in document.reports:
        if not isinstance(item, Record) or not item.events:
            continue
        events, n = item.events, 0
        for end in trick_ends(document, item):  # each the line of one of its events, in order
            while events[n].line < end and events[n].verb != "plays":  # the lines between two tricks
                n += 1
            found.append((events[n].line, end))
            while n + 1 < len(events) and events[n].line < end:
                n += 1
            n = min(n + 1, len(events) - 1)  # on past the trick's last line
    return found
