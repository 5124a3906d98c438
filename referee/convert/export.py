"""A record in other forms: JSON (schemas/record.schema.json), canonical text (referee/convert/formatter.py),
and one event as a line of text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..cards import CARD_TAGS, respelled
from .formatter import Formatter
from ..text.french import english_tag
from ..record import Comment, Event, Header, Record
from ..spelling import spelling

if TYPE_CHECKING:
    from ..files.twice import Passes


def _event_json(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"line": event.line, "column": event.column, "player": event.player, "verb": event.verb}
    if event.cards:
        data["cards"] = [str(c) for c in event.cards]
    for key in ("suit", "target", "word", "move", "time", "comment"):
        value = getattr(event, key)
        if value is not None:
            data[key] = value
    return data


def _header_json(header: Header, french: bool) -> dict[str, Any]:
    value = respelled(header.value, True, False) if french and header.key in CARD_TAGS else header.value
    return {"tag": english_tag(header.tag), "value": value, "line": header.line,
            **({"comment": header.comment} if header.comment else {})}


def _comment_json(comment: Comment) -> dict[str, Any]:
    return {"text": comment.text, "line": comment.line}


def record_to_json(record: Record) -> dict[str, Any]:
    """One game as plain data: headers, events and comments, each with its line. It is
    the same in either notation: header tags in English (``[Jeu]`` is ``Game``), cards
    and verbs in their canonical form; the [Notation] header is kept, so that ``import``
    writes a French record back in French."""
    return {
        "line": record.line,
        "headers": [_header_json(h, record.french) for h in record.headers],
        "events": [_event_json(e) for e in record.events],
        "comments": [_comment_json(c) for c in record.comments],
    }


def _dumped(value: object, level: int) -> str:
    """A value as ``json.dumps(..., indent=1)`` writes it ``level`` deep in a document."""
    import json

    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * level)


def _flat(data: dict[str, Any], level: int) -> str:
    """``_dumped`` for an event's or a comment's data (strings, integers, lists of strings),
    written here: json.dumps with an indent is pure Python, some 10 µs an event."""
    from json.encoder import encode_basestring  # as json.dumps(..., ensure_ascii=False) writes a string

    pad = " " * (level + 1)
    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            text = ("[\n" + ",\n".join(pad + " " + encode_basestring(v) for v in value) + "\n" + pad + "]") if value else "[]"
        else:
            text = encode_basestring(value) if isinstance(value, str) else str(value)
        parts.append(f"{pad}{encode_basestring(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n" + " " * level + "}"


COMMENTS_IN_MEMORY = 1 << 20
"""The bytes of a game's comments (in JSON) held until its events are written; more go to
a temporary file."""


def json_game(record: Record, passes: Passes) -> Iterator[str]:
    """The game as ``json.dumps(record_to_json(record), ensure_ascii=False, indent=1)``
    writes it, in pieces, its memory bounded however long the game is: ``record`` read
    lazily, comments kept, and ``passes`` (referee/files/twice.py) reading its events twice,
    once to know that every line can be read, once to write them; the comments, which
    the JSON gives after the events, wait in a temporary file past COMMENTS_IN_MEMORY.
    RecordError, before any piece, for a game with a line that cannot be read."""
    import json
    import tempfile

    if record.batches is None:  # read whole (a JSON record): nothing to bound
        yield json.dumps(record_to_json(record), ensure_ascii=False, indent=1)
        return
    for _ in passes.first():
        pass
    if record.errors:
        raise record.errors[0]
    yield (f'{{\n "line": {json.dumps(record.line)},\n "headers": '
           f'{_dumped([_header_json(h, record.french) for h in record.headers], 1)},\n "events": [')
    with tempfile.SpooledTemporaryFile(COMMENTS_IN_MEMORY, "w+", encoding="utf-8", newline="\n") as comments:
        separator = "\n"
        for comment in record.comments:
            comments.write(separator + "  " + _flat(_comment_json(comment), 2))
            separator = ",\n"
        events = False
        for batch in passes.again():
            for event in batch.events:
                yield (",\n  " if events else "\n  ") + _flat(_event_json(event), 2)
                events = True
            for comment in batch.comments:
                comments.write(separator + "  " + _flat(_comment_json(comment), 2))
                separator = ",\n"
        yield '\n ],\n "comments": [' if events else '],\n "comments": ['
        comments.seek(0)
        while piece := comments.read(1 << 16):
            yield piece
        yield "\n ]\n}" if separator == ",\n" else "]\n}"


def line_text(item: Header | Event | Comment, french: bool = False) -> str:
    """One header, event or comment as a line of text, in French notation when ``french``
    (referee/spelling.py writes it; ``spelling(french).line(item)``)."""
    return spelling(french).line(item)


def record_to_text(record: Record) -> str:
    """The record in canonical form (referee/convert/formatter.py: what ``referee fmt`` writes)."""
    return Formatter().game_text(record)
