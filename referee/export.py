"""A record in other forms: JSON (schemas/record.schema.json), canonical text (referee/formatter.py),
and one event as a line of text."""

from __future__ import annotations

from typing import Any

from .cards import CARD_TAGS, respelled
from .formatter import Formatter
from .french import english_tag
from .record import Comment, Event, Header, Record
from .spelling import spelling


def _event_json(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"line": event.line, "column": event.column, "player": event.player, "verb": event.verb}
    if event.cards:
        data["cards"] = [str(c) for c in event.cards]
    for key in ("suit", "target", "word", "move", "time", "comment"):
        value = getattr(event, key)
        if value is not None:
            data[key] = value
    return data


def record_to_json(record: Record) -> dict[str, Any]:
    """One game as plain data: headers, events and comments, each with its line. It is
    the same in either notation: header tags in English (``[Jeu]`` is ``Game``), cards
    and verbs in their canonical form; the [Notation] header is kept, so that ``import``
    writes a French record back in French."""
    french = record.french
    return {
        "line": record.line,
        "headers": [{"tag": english_tag(h.tag), "value": respelled(h.value, True, False) if french and h.key in CARD_TAGS else h.value,
                     "line": h.line, **({"comment": h.comment} if h.comment else {})} for h in record.headers],
        "events": [_event_json(e) for e in record.events],
        "comments": [{"text": c.text, "line": c.line} for c in record.comments],
    }


def line_text(item: Header | Event | Comment, french: bool = False) -> str:
    """One header, event or comment as a line of text, in French notation when ``french``
    (referee/spelling.py writes it; ``spelling(french).line(item)``)."""
    return spelling(french).line(item)


def record_to_text(record: Record) -> str:
    """The record in canonical form (referee/formatter.py: what ``referee fmt`` writes)."""
    return Formatter().game_text(record)
