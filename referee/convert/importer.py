"""Records in their JSON form (schemas/record.schema.json, what ``referee export`` writes),
read by ``referee check`` and ``referee import``.

A file is JSON by its ``.json`` extension or by its first character (``{``; a text
record never starts so). The document is validated with jsonschema, and each card
spelling checked, every error named by its JSON path (``games[0].events[12].cards[1]:
'11H' is not a card``). A good game is then written in canonical text (referee/cli/fmt.py)
and read by the text reader, so that a JSON record obeys every rule of the notation and
reads exactly as the same record in text; its items keep the ``line`` (and an event its
``column``) the JSON gives: the places of the text it was exported from, where the
report points. A game that cannot be read is an error and reading goes on with the next,
as in text."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..cards import CARD_TAGS, NUMBERED, SPELLINGS, Card, respelled
from ..text.french import is_french, tag_key
from ..games import numbers_are_cards
from ..messages import say
from ..notation import RecordError, empty_file, read_games, unreadable_reason
from ..text.numbers import LINE_DIGITS, shown, whole
from ..record import Comment, Event, Header, Record
from ..files.record_file import FileRefused, open_regular, read_stdin
from ..files.resources import read_resource

if TYPE_CHECKING:
    from .formatter import Item

JsonPath = list[str | int]
"""A place in a JSON document: the keys and indexes that lead to it."""

MAX_JSON = 8 << 20
"""The largest JSON record file read, in bytes (a JSON document is read whole)."""
_PEEK = 4096


class Readable(Protocol):
    """A binary stream read by blocks (a file, the standard input's buffer)."""

    def read(self, size: int = -1, /) -> bytes: ...


class _Rewound:
    """A stream with its first bytes, read already to see what it holds, put back."""

    def __init__(self, head: bytes, rest: Readable) -> None:
        self.head, self.rest = head, rest

    def read(self, size: int = -1) -> bytes:
        if self.head:
            head, self.head = self.head, b""
            return head
        return self.rest.read(size)


def looks_json(path: str, head: bytes) -> bool:
    """Whether a file holds a JSON record: by its extension, or by the first character of
    its first bytes (``head``: those, or the whole file)."""
    return path.lower().endswith(".json") or head[:_PEEK].lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"


def read_any(path: str, lazy: bool = False, name: str | None = None, comments: bool | None = None) -> Iterator[Record | RecordError]:
    """The games of a record file, text or JSON; ``-`` reads the standard input, named
    ``name`` (else ``<stdin>``) (``lazy``: the events of a text record read as they are
    taken, with their comment lines if ``comments``, see read_games)."""
    if path == "-":
        name = name or "<stdin>"
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:  # started with its standard input closed (<&-)
            yield RecordError(name, 0, 0, say("file.unreadable", reason=say("file.stdin-closed")))
            return
        yield from _read_stream(name, stdin, lazy, comments)
        return
    try:
        stream = open_regular(path)
    except OSError as error:
        yield RecordError(path, 0, 0, say("file.unreadable", reason=unreadable_reason(error)))
        return
    except ValueError as error:  # not a regular file
        yield RecordError(path, 0, 0, str(error))
        return
    with stream:
        yield from _read_stream(path, stream, lazy, comments)


def read_json_bytes(path: str, limit: int) -> bytes:
    """The bytes of a JSON record file (``-``: the standard input, read by blocks), at
    most ``limit`` bytes: FileRefused past it, for a file that is not a regular file, or
    a closed standard input; OSError when it cannot be read."""
    too_large = say("json.too-large", limit=limit >> 20)
    if path == "-":
        return read_stdin(limit, too_large=too_large)
    try:
        stream = open_regular(path)
    except ValueError as error:
        raise FileRefused(path, str(error)) from None
    with stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(path, too_large)
    return data


def _read_stream(path: str, stream: Readable, lazy: bool = False, comments: bool | None = None) -> Iterator[Record | RecordError]:
    try:
        head = stream.read(_PEEK) or b""
    except (OSError, ValueError) as error:
        yield RecordError(path, 0, 0, say("file.unreadable", reason=unreadable_reason(error)))
        return
    if looks_json(path, head):
        try:
            data = head + stream.read(MAX_JSON + 1 - len(head)) if len(head) == _PEEK else head
        except (OSError, ValueError) as error:
            yield RecordError(path, 0, 0, say("file.unreadable", reason=unreadable_reason(error)))
            return
        yield from read_json(path, data)
    else:
        yield from read_games(path, _Rewound(head, stream), lazy=lazy, comments=comments)


def json_path(parts: Sequence[str | int]) -> str:
    """A place in a JSON document as ``games[0].events[12].cards[1]``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "$"


def _error(path: str, where: Sequence[str | int], message: str) -> RecordError:
    return RecordError(path, 0, 0, f"{json_path(where)}: {message}")


def _game_error(path: str, where: Sequence[str | int], message: str) -> RecordError:
    """A game of a JSON record that cannot be read (``refused``: the file was read)."""
    error = RecordError(path, 0, 0, f"{json_path(where)}: {message}")
    error.refused = True
    return error


def read_json(path: str, data: bytes) -> Iterator[Record | RecordError]:
    """The games of a JSON record (its bytes)."""
    import json  # here: a text record does without it (start-up)

    if len(data) > MAX_JSON:
        yield RecordError(path, 0, 0, say("json.too-large", limit=MAX_JSON // (1 << 20)))
        return
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        yield empty_file(path)
        return
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        yield RecordError(path, 0, 0, say("file.not-utf8", byte=data[error.start]))
        return
    except json.JSONDecodeError as error:
        yield RecordError(path, error.lineno, error.colno, say("json.not-json", reason=error.msg))
        return
    except RecursionError:
        yield RecordError(path, 0, 0, say("json.not-json", reason=say("json.too-deep")))
        return
    except ValueError:  # an integer of more digits than Python converts (4,300)
        yield RecordError(path, 0, 0, say("json.not-json", reason=say("json.long-number")))
        return
    surrogate = _lone_surrogate(document)
    if surrogate is not None:
        yield _error(path, surrogate, say("json.surrogate"))
        return
    try:
        problems = _schema_problems(document)
    except RecursionError:
        yield RecordError(path, 0, 0, say("json.not-json", reason=say("json.too-deep")))
        return
    whole = [p for p in problems if len(p[0]) < 2 or p[0][0] != "games" or not isinstance(p[0][1], int)]
    if whole:
        for where, message in whole[:10]:
            yield _error(path, where, message)
        return
    if not document["games"]:  # as a text file with no game: a check of nothing must not pass
        yield _error(path, ["games"], say("file.empty"))
        return
    refused: dict[str | int, tuple[JsonPath, str]] = {}
    for where, message in problems:
        refused.setdefault(where[1], (where, message))
    games = document["games"]
    records: list[tuple[int, Record]] = []
    match_games: dict[str, str] = {}
    match_french: dict[str, bool] = {}
    for number, game in enumerate(games):
        if number in refused:
            continue
        try:
            records.append((number, _record(path, number, game, match_games, match_french)))
        except _Refused as error:
            refused[number] = (error.where, error.message)
    yield from _read_back(path, records, refused, len(games))


_SURROGATE = "[\ud800-\udfff]"


def _lone_surrogate(document: Any) -> JsonPath | None:
    """The JSON path of the first string (or key) holding a lone surrogate (``"\\ud800"``
    is valid JSON, but no character: it cannot be written as text); None when none does."""
    pattern = re.compile(_SURROGATE)
    stack: list[tuple[object, JsonPath]] = [(document, [])]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            if pattern.search(value):
                return where
        elif isinstance(value, dict):
            for key, item in value.items():
                if pattern.search(key):
                    return where
                stack.append((item, [*where, key]))
        elif isinstance(value, list):
            stack.extend((item, [*where, n]) for n, item in reversed(list(enumerate(value))))
    return None


_SHOWN = 200
"""The most characters of a schema error shown (it quotes the value, which may be huge)."""


class _Refused(Exception):
    def __init__(self, where: JsonPath, message: str) -> None:
        self.where, self.message = where, message


def _schema_problems(document: Any) -> list[tuple[JsonPath, str]]:
    """Each place the document breaks the schema, and what is wrong, in document order."""
    import json

    # here: a text record does without it (start-up); jsonschema ships no type hints
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    validator = Draft202012Validator(json.loads(read_resource("schemas", "record.schema.json")))
    problems: list[tuple[JsonPath, str]] = [(list(error.absolute_path), _short(error.message)) for error in validator.iter_errors(document)]
    return sorted(problems, key=lambda p: [(0, x, "") if isinstance(x, int) else (1, 0, x) for x in p[0]])


def _short(message: str) -> str:
    return message if len(message) <= _SHOWN else message[: _SHOWN // 2] + " … " + message[-_SHOWN // 2:]


_PLACES = 10 ** LINE_DIGITS
"""Line and column numbers are below this (as a FILE:LINE is: referee/text/numbers.py)."""


def _place(value: object, where: JsonPath) -> int:
    """A line or column number of the document: a whole number, not a float (``5.0`` and
    ``1e308`` are integers to JSON Schema, not to referee) nor a boolean."""
    if type(value) is not int or not 1 <= value < _PLACES:
        raise _Refused(where, say("json.not-whole", limit=_PLACES - 1, value=_json_value(value)))
    return value


def _json_value(value: object) -> str:
    import json

    return shown(json.dumps(value))


def _places(number: int, game: dict[str, Any]) -> None:
    """Each line and column of a game checked (see _place), before any is used."""
    where: JsonPath = ["games", number]
    _place(game["line"], [*where, "line"])
    for kind in ("headers", "events", "comments"):
        for index, item in enumerate(game[kind]):
            for key in ("line", "column"):
                if key in item:
                    _place(item[key], [*where, kind, index, key])


def _record(path: str, number: int, game: dict[str, Any], match_games: dict[str, str], match_french: dict[str, bool]) -> Record:
    """A game of the document as a Record, its cards read (a bare number is a card in a
    game of numbered cards, such as Flaschenteufel, and nowhere else)."""
    _places(number, game)
    tags = {tag_key(h["tag"]): h["value"] for h in reversed(game["headers"])}
    name = tags.get("game") or match_games.get(tags.get("match", ""))
    if name and tags.get("match"):
        match_games[tags["match"]] = name
    numbered = numbers_are_cards(name)
    notation, match = tags.get("notation"), tags.get("match")
    french = is_french(notation) if notation is not None else match_french.get(match or "", False)
    if match:
        match_french[match] = french
    # the JSON form's header cards are in English; the record's are in its notation
    headers = [Header(h["tag"], respelled(h["value"], False, True) if french and tag_key(h["tag"]) in CARD_TAGS else h["value"],
                      h["line"], 1, h.get("comment")) for h in game["headers"]]
    events = []
    for index, e in enumerate(game["events"]):
        cards = []
        for place, text in enumerate(e.get("cards", ())):
            card = SPELLINGS.get(text.upper())
            if card is None and numbered and (value := whole(text)) is not None:
                card = Card(value, NUMBERED)
            if card is None:
                raise _Refused(["games", number, "events", index, "cards", place], say("json.not-a-card", card=text))
            cards.append(card)
        events.append(Event(e["player"], e["verb"], e["line"], e["column"], tuple(cards), "", 0, e.get("target"),
                            e.get("word"), e.get("move"), e.get("time"), e.get("comment"), e.get("suit")))
    comments = [Comment(c["text"], c["line"], 1) for c in game["comments"]]
    record = Record(path, game["line"], headers, events, comments)
    record.french = french
    return record


def _read_back(path: str, records: list[tuple[int, Record]], refused: dict[str | int, tuple[JsonPath, str]], games: int) -> Iterator[Record | RecordError]:
    """The games written in canonical text and read again by the text reader; each read
    game given the places its JSON says; an error named by the JSON path of its item."""
    from .formatter import Formatter  # here: a text record does without it (start-up)

    formatter = Formatter()
    lines: list[str] = []
    origin: list[tuple[int, Item | None]] = []  # per line of the text: the game, the item
    where: dict[int, JsonPath] = {}
    game_of: dict[int, int] = {}
    for number, record in records:
        for kind in ("headers", "events", "comments"):
            for index, item in enumerate(getattr(record, kind)):
                where[id(item)] = ["games", number, kind, index]
                game_of[id(item)] = number
    number = records[0][0] if records else 0
    for text, item in formatter.file_lines(record for _, record in records):
        if item is not None:
            number = game_of[id(item)]
        lines.append(text)
        origin.append((number, item))
    read = read_games(path, io.BytesIO(("\n".join(lines) + "\n").encode("utf-8"))) if lines else iter(())
    results: dict[int, Record | RecordError] = {}
    lines_of = dict(records)
    for item in read:
        if isinstance(item, RecordError):
            number, source = origin[min(max(item.line, 1), len(origin)) - 1]
            place = where.get(id(source), ["games", number])
            results[number] = _game_error(path, place, item.message)
        else:
            number = origin[item.line - 1][0]
            results[number] = _placed(item, origin, lines_of[number].line)
    for number in range(games):
        if number in refused:
            yield _game_error(path, *refused[number])
        elif number in results:
            yield results[number]
        else:  # read as part of the game before it
            yield _game_error(path, ["games", number], say("json.merged"))


def _placed(record: Record, origin: list[tuple[int, Item | None]], line: int) -> Record:
    """A record read from canonical text, its items moved to the places the JSON gives."""
    items: list[Item] = [*record.headers, *record.events, *record.comments]
    for item in items:
        source = origin[item.line - 1][1]
        assert source is not None  # a line read is a line written from an item
        item.line = source.line
        if isinstance(item, Event):
            shift = source.column - item.column
            item.column = source.column
            if item.cards_column:
                item.cards_column += shift
    record.line, record.text = line, ""  # the text read was written here: no source line to show
    record.seen.clear()
    return record
