"""Reading records: a file is cut into games, and each game is parsed on its own by the
Lark LALR parser with the builder passed inline (no tree is built)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from .cards import NUMBERED, SPELLINGS, UNSEEN_CARD, Card
from .games import numbers_are_cards
from .messages import say
from .record import Comment, Event, Header, Record
from .resources import resource

MAX_LINE = 4096
"""The longest line a record may have, in characters."""

VERBS = (
    "holds", "plays", "draws", "slaps", "collects", "burns", "gives", "takes", "discards",
    "swaps", "passes", "says", "swears", "drinks", "beats", "refuses", "votes",
)
COUNT_VERBS = frozenset({"draws", "burns", "gives", "takes", "discards", "collects", "holds"})
"""Verbs after which a bare number counts unseen cards."""

_GAME_TAG = re.compile(r'\s*\[\s*game\s+"([^"]*)"', re.IGNORECASE)
_FLASCHENTEUFEL = {n: Card(n, NUMBERED) for n in range(1, 38) if n != 19}


@dataclass
class RecordError(Exception):
    """A record that cannot be read, with the place and a message in player terms."""

    path: str
    line: int
    column: int
    message: str
    source: str = ""

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.message}"
        if self.source:
            shown = self.source.rstrip("\r\n").expandtabs(1)
            text += f"\n    {shown}\n    {' ' * (self.column - 1)}^"
        return text


class _Problem(Exception):
    """Raised by the builder; turned into a RecordError with the line's text."""

    def __init__(self, line: int, column: int, message: str):
        self.line, self.column, self.message = line, column, message


_HEADER = re.compile(r'\s*\[\s*([^\s"]+)\s*"((?:[^"\\]|\\.)*)"\s*\]\s*(;.*)?\n')
_EVENT = re.compile(r"\s*(\d+\.)?\s*(\d+:\d+(?::\d+)?)?\s*(\S+)\s+([a-z]+)\s*([^;\n]*?)\s*(;.*)?\n")
_KEYWORDS = frozenset({"plays", "gives", "takes", "swaps"})
_TARGET = re.compile(r"(?:^|\s+)(?:on|to|from|with)\s+(\S+)$")
"""The target of those verbs: a keyword and a name, the last two words of the line."""
_SPOTS = re.compile(r"\S+")
_WORD_VERBS = frozenset({"says", "votes", "drinks"})


class _Builder(Transformer):
    """Builds a game's Header, Event and Comment values from its line tokens, which the
    grammar has already checked: splitting them needs no more checks."""

    def __init__(self) -> None:
        super().__init__()
        self.offset = 0
        self.numbered = False

    def start(self, tokens: list[Token]) -> tuple[list[Header], list[Event], list[Comment]]:
        offset = self.offset
        headers: list[Header] = []
        events: list[Event] = []
        comments: list[Comment] = []
        for token in tokens:
            kind = token.type
            if kind == "EVENT_LINE":
                events.append(self._event(token, offset))
            elif kind == "HEADER_LINE":
                tag, value, comment = _HEADER.match(token).groups()
                text = re.sub(r"\\(.)", r"\1", value)
                headers.append(Header(tag, text, token.line + offset, token.column + token.index("["), comment))
            else:
                at = token.index(";")
                comments.append(Comment(token[at:-1], token.line + offset, token.column + at))
        return headers, events, comments

    def _event(self, token: Token, offset: int) -> Event:
        match = _EVENT.match(token)
        move, time, player, verb, rest, comment = match.groups()
        line = token.line + offset
        target = word = None
        cards_text, cards, column = "", (), 0
        if verb in _WORD_VERBS:
            word = rest
        elif verb == "beats":
            target = rest
        else:
            if verb in _KEYWORDS and (named := _TARGET.search(rest)):
                target, rest = named.group(1), rest[: named.start()]
            if rest:
                cards_text, column = rest, token.column + match.start(5)
                cards = self._cards(rest, verb, line, column)
        return Event(player, verb, line, token.column + match.start(3), cards, cards_text, column,
                     target, word, move, time, comment)

    def _cards(self, text: str, verb: str, line: int, column: int) -> tuple[Card, ...]:
        cards: list[Card] = []
        for spot in _SPOTS.finditer(text):
            word = spot.group()
            card = SPELLINGS.get(word.upper())
            if card is None:
                cards.extend(self._number(int(word), word, verb, line, column + spot.start()))
            else:
                cards.append(card)
        return tuple(cards)

    def _number(self, number: int, word: str, verb: str, line: int, column: int) -> list[Card]:
        if self.numbered:
            if number not in _FLASCHENTEUFEL:
                raise _Problem(line, column, say("syntax.not-a-number-card", got=word))
            return [_FLASCHENTEUFEL[number]]
        if verb in COUNT_VERBS:
            return [UNSEEN_CARD] * number
        raise _Problem(line, column, say("syntax.number-not-card", got=word))


@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, _Builder]:
    builder = _Builder()
    grammar = resource("grammar", "record.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", start=["start", "line"], transformer=builder, cache=True), builder


# --- Cutting a file into games --------------------------------------------------------

@dataclass
class _Chunk:
    start: int
    lines: list[str]
    game: str | None = None
    has_header: bool = False


def _lines(path: str, stream) -> Iterator[tuple[int, str]]:
    """Numbered text lines of a binary stream (LF, CRLF or CR line ends, read in blocks),
    with a clear error for bad bytes and for lines too long to be a record's."""
    number, pending, cap = 0, b"", MAX_LINE * 4
    for block in iter(lambda: stream.read(1 << 16), b""):
        if number == 0 and not pending and block.startswith(b"\xef\xbb\xbf"):
            block = block[3:]
        pieces = (pending + block).splitlines(keepends=True)
        pending = pieces.pop() if pieces and not pieces[-1].endswith(b"\n") else b""
        for raw in pieces:
            number += 1
            yield number, _decode(path, number, raw)
        if len(pending) > cap:
            raise RecordError(path, number + 1, MAX_LINE + 1, say("syntax.line-too-long", length=f"over {MAX_LINE}", limit=MAX_LINE))
    if pending:
        yield number + 1, _decode(path, number + 1, pending)


def _decode(path: str, number: int, raw: bytes) -> str:
    """One line's text, ending in a single LF."""
    raw = raw.rstrip(b"\r\n")
    if b"\0" in raw:
        raise RecordError(path, number, raw.index(b"\0") + 1, say("file.binary"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        column = len(raw[: error.start].decode("utf-8", "replace")) + 1
        raise RecordError(path, number, column, say("file.not-utf8", byte=raw[error.start])) from None
    if len(text) > MAX_LINE:
        raise RecordError(path, number, MAX_LINE + 1, say("syntax.line-too-long", length=len(text), limit=MAX_LINE))
    return text + "\n"


def _chunks(numbered_lines: Iterable[tuple[int, str]]) -> Iterator[_Chunk]:
    """Games of a file: a header line after events starts the next game; comments and
    blank lines just before a game's headers go with that game."""
    current: _Chunk | None = None
    pending: list[tuple[int, str]] = []
    seen_event = False
    for number, text in numbered_lines:
        first = text.lstrip()[:1]
        if first in ("", ";"):
            pending.append((number, text))
            continue
        if first == "[" and (current is None or seen_event):
            if current is not None:
                yield current
            current = _Chunk(pending[0][0] if pending else number, [t for _, t in pending])
            pending, seen_event = [], False
        elif current is None:
            current = _Chunk(pending[0][0] if pending else number, [t for _, t in pending])
            pending = []
        if first == "[":
            current.has_header = True
            if current.game is None and (match := _GAME_TAG.match(text)):
                current.game = match.group(1)
        else:
            seen_event = True
        current.lines.extend(t for _, t in pending)
        pending = []
        current.lines.append(text)
    if current is not None:
        current.lines.extend(t for _, t in pending)
        yield current


def _parse_chunk(path: str, chunk: _Chunk) -> Record:
    if not chunk.has_header:
        first = next(i for i, t in enumerate(chunk.lines) if t.strip() and not t.lstrip().startswith(";"))
        raise RecordError(path, chunk.start + first, 1, say("syntax.no-headers"), chunk.lines[first])
    parser, builder = _parser()
    builder.offset = chunk.start - 1
    builder.numbered = numbers_are_cards(chunk.game)
    try:
        headers, events, comments = parser.parse("".join(chunk.lines), start="start")
    except (_Problem, VisitError) as error:
        problem = error.orig_exc if isinstance(error, VisitError) else error
        if not isinstance(problem, _Problem):
            raise
        source = chunk.lines[problem.line - chunk.start]
        raise RecordError(path, problem.line, problem.column, problem.message, source) from None
    except UnexpectedInput as error:
        source = chunk.lines[error.line - 1]
        column, message = _diagnose(parser, source)
        raise RecordError(path, error.line + chunk.start - 1, column, message, source) from None
    return Record(path, headers[0].line, headers, events, comments)


def _diagnose(parser: Lark, source: str) -> tuple[int, str]:
    """A line the fast reading refused, read again token by token to find the spot."""
    try:
        parser.parse(source, start="line")
    except UnexpectedInput as error:
        return explain(error, source)
    return 1, say("syntax.expected", expected=say("expect.event"), got=source.strip())


def read_games(path: str, stream=None) -> Iterator[Record | RecordError]:
    """The games of a file, one at a time; a game that cannot be parsed comes as a
    RecordError and reading goes on with the next game. A file that cannot be decoded
    ends with a RecordError."""
    own = stream is None
    if own:
        try:
            stream = open(path, "rb")
        except OSError as error:
            yield RecordError(path, 0, 0, say("file.unreadable", path=path, reason=error.strerror or error))
            return
    try:
        found = False
        try:
            for chunk in _chunks(_lines(path, stream)):
                if not any(t.strip() and not t.lstrip().startswith(";") for t in chunk.lines):
                    continue
                found = True
                try:
                    yield _parse_chunk(path, chunk)
                except RecordError as error:
                    yield error
        except RecordError as error:
            found = True
            yield error
        if not found:
            yield RecordError(path, 1, 1, say("file.empty"))
    finally:
        if own:
            stream.close()


def parse_text(text: str, path: str = "<text>") -> list[Record | RecordError]:
    """Every game of a record given as text."""
    import io

    return list(read_games(path, io.BytesIO(text.encode("utf-8"))))


# --- Syntax errors in player terms ------------------------------------------------------

_EXPECTED_WORDS = {
    "CARDS": "expect.card", "WORD": "expect.name", "_NL": "expect.eol", "COMMENT": "expect.eol",
    "STRING": "expect.string", "AMOUNT": "expect.amount", "LSQB": "expect.header",
}


def _word_at(source: str, column: int) -> str:
    match = re.match(r"[^\s;]+", source[column - 1:])
    return match.group(0) if match else (source[column - 1:column].strip() or "end of line")


def _split_cards(word: str) -> list[str] | None:
    """'3H4C' read as separate cards, when it reads that way (longest spelling first)."""
    found, i = [], 0
    while i < len(word):
        piece = next((word[i:i + n] for n in (4, 3, 2) if word[i:i + n].upper() in SPELLINGS), None)
        if piece is None:
            return None
        found.append(piece)
        i += len(piece)
    return found if len(found) > 1 else None


def explain(error: UnexpectedInput, source: str) -> tuple[int, str]:
    """The column and the message for a parse error, in player terms."""
    column = error.column if error.column and error.column > 0 else 1
    expected = set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    got = _word_at(source, column)
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        got = "end of file"
    stripped = source.strip()
    if stripped.startswith("[") and expected <= {"RSQB", "COMMENT", "_NL", "STRING"}:
        if "STRING" in expected:
            tag = re.match(r"\[\s*(\S+)", stripped)
            value = stripped.split(None, 1)[1].rstrip("]").strip() if " " in stripped else ""
            return column, say("syntax.header-quotes", tag=tag.group(1) if tag else "Tag", value=value)
        return column, say("syntax.header-unclosed")
    if "CARDS" in expected or ("ON" in expected and got[:1].isdigit()):
        if got == "end of line" or got == "end of file":
            previous = source[: column - 1].split()
            return column, say("syntax.no-card", verb=previous[-1] if previous else "")
        parts = _split_cards(got)
        if parts:
            return column, say("syntax.glued-cards", fixed=" ".join(parts), got=got)
        return column, say("syntax.bad-card", got=got)
    if expected & {v.upper() for v in VERBS}:
        actor = re.sub(r"^\s*(\d+\.\s*)?(\d+:\d+(:\d+)?\s*)?", "", source).split()[:1]
        if actor and actor[0].lower() in VERBS:
            return source.find(actor[0]) + 1, say("syntax.no-player", got=actor[0].lower())
        close = difflib.get_close_matches(got.lower(), VERBS, n=1)
        hint = say("syntax.did-you-mean", suggestion=close[0]) if close else ""
        return column, say("syntax.unknown-verb", got=got, hint=hint)
    words = sorted({say(_EXPECTED_WORDS[e]) if e in _EXPECTED_WORDS else repr(e.lower()) for e in expected})
    if isinstance(error, UnexpectedCharacters):
        return column, say("syntax.unexpected-char", got=got, expected=" or ".join(words) or say("expect.event"))
    return column, say("syntax.expected", expected=" or ".join(words) or say("expect.event"), got=got)
