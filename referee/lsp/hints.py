"""Inlay hints: the table at the end of each round and of each game, from the replay,
written at the end of that line: the score, the cards left in each hand, what is owed
(drinks, penalties). A game whose table shows none of these gets no hint.

Only the lines asked for are worked out (an editor asks for what it shows): each from
the copy of the rules kept before it (model.py), so a hint costs at most a hundred
events replayed."""

from __future__ import annotations

from dataclasses import dataclass

from ..games.base import Table
from ..messages import join, say
from ..record import Record
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


def hints(document: Document, first: int, last: int) -> list[Hint]:
    """The hints of the lines ``first`` to ``last``."""
    found = []
    for _, item, _ in document.reports:
        if not isinstance(item, Record) or not item.events or item.events[-1].line < first or item.line > last:
            continue
        for line in ends(item):
            if not first <= line <= last:
                continue
            rules = document.rules_before(line + 1, item)
            label = summary(rules.table()) if rules is not None else ""
            if label:
                found.append(Hint(line, len(document.line(line).rstrip()) + 1, label))
    return found
