"""A record in other forms: JSON (schemas/record.schema.json), canonical text (referee/formatter.py),
and one event as a line of text."""

from __future__ import annotations

from typing import Any

from .cards import CARD_TAGS, SUIT_NAMES, french_word, respelled
from .formatter import Formatter, escape_value
from .french import FRENCH_AMOUNT_WRITTEN, FRENCH_FOR, FRENCH_PREPOSITIONS, FRENCH_ROUND, FRENCH_WRITTEN, english_tag
from .record import PREPOSITIONS, TARGET_VERBS, Comment, Event, Header, Record


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
    """One header, event or comment as a line of canonical text; ``french``: an event in
    French notation (its cards, written in English, put in French letters)."""
    if isinstance(item, Comment):
        return item.text
    if isinstance(item, Header):
        text = f'[{item.tag} "{escape_value(item.value)}"]'
    elif item.verb == "round":
        word = FRENCH_ROUND if french else "round"
        text = f"-- {word} {item.word}" if item.word else f"-- {word}"
    else:
        verb = FRENCH_WRITTEN[item.verb] if french else item.verb
        parts = [p for p in (item.move, item.time, item.player, verb) if p]
        if item.cards:
            parts.append(" ".join(map(french_word, item.cards_text.split())) if french else item.cards_text)
        if item.suit is not None:
            parts += [FRENCH_FOR, SUIT_NAMES[item.suit]] if french else ["for", item.suit]
        if item.target is not None and item.verb in TARGET_VERBS:
            parts.append(item.target)
        elif item.target is not None:
            parts.append((FRENCH_PREPOSITIONS if french else PREPOSITIONS).get(item.verb, ""))
            parts.append(item.target)
        if item.word is not None:
            parts.append(FRENCH_AMOUNT_WRITTEN.get(item.word, item.word) if french and item.verb == "drinks" else item.word)
        text = " ".join(p for p in parts if p)
    return f"{text} {item.comment}" if item.comment else text


def record_to_text(record: Record) -> str:
    """The record in canonical form (referee/formatter.py: what ``referee fmt`` writes)."""
    return Formatter().game_text(record)
