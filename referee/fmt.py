"""Records in one canonical form (``referee fmt``, ``referee export --to text``), losing
nothing they say.

The canonical form of a game:
- comments before the headers first, then the headers in a fixed order (Game, Players,
  Dealer, First, the game's options as ``referee games`` lists them, Match, Round, Hands,
  Target, Totals, Result, Event, Date, Place, Annotator, then any other tag as written),
  each known tag spelt as documented; a comment line among the headers moves with the
  header after it; a tag given twice keeps its order;
- one blank line, then the events; the blank lines that group events are kept (a run of
  them as one), every comment stays where it stood;
- an event as ``[12.] [09:04:12] Player verb cards ...``: single spaces, move and round
  numbers without leading zeros, a time with two-digit hours, each card in one spelling
  (``10H``, ``QS``; with ``suits = "symbols"`` ``10♥``; with ``ranks = "french"`` ``DS``
  for the dame), cards nobody saw as ``??`` or, several after a verb that counts them,
  as their number (``draws 2``), scores and amounts as plain numbers;
- trailing comments two spaces after the longest line of their group, aligned;
- one blank line between games (but comment lines that follow a game's last line keep
  their place); UTF-8, LF line ends, no trailing blanks.

It is a function of what the record says and of where its lines stand relative to each
other (the blank lines between them), so it is idempotent, and a record read back from
its JSON form (``referee import``) is written the same."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import NUMBERED, SUITS, TRUMP, UNSEEN, Card
from .record import PREPOSITIONS, TARGET_VERBS, Comment, Event, Header, Record

_SYMBOLS = dict(zip(SUITS, "♠♥♦♣"))
_ENGLISH = {1: "A", 11: "J", 12: "C", 13: "Q", 14: "K"}
_FRENCH = {1: "A", 11: "V", 12: "C", 13: "D", 14: "R"}
COUNT_VERBS = frozenset({"draws", "burns", "gives", "takes", "discards", "collects", "holds"})
"""Verbs after which a bare number counts unseen cards (as notation.COUNT_VERBS)."""


@dataclass(frozen=True)
class Style:
    """The canonical choices the configuration may set ([tool.referee.fmt])."""

    suits: str = "ascii"
    """``ascii`` (10H) or ``symbols`` (10♥)."""
    ranks: str = "english"
    """``english`` (J Q K) or ``french`` (V D R)."""


def card_text(card: Card, style: Style = Style()) -> str:
    """A card in the canonical spelling of ``style``."""
    if card.suit in SUITS:
        rank = (_FRENCH if style.ranks == "french" else _ENGLISH).get(card.rank, str(card.rank))
        return rank + (_SYMBOLS[card.suit] if style.suits == "symbols" else card.suit)
    if card.suit == TRUMP:
        return f"T{card.rank}"
    if card.suit == NUMBERED:
        return str(card.rank)
    return "??" if card.suit == UNSEEN else "EX"


def _number(text: str) -> str:
    """Digits without leading zeros, and no plus sign; anything else as it is."""
    sign, digits = (text[0], text[1:]) if text[:1] in "+-" else ("", text)
    if not digits.isdigit():
        return text
    value = int(digits)
    return str(-value if sign == "-" else value)


def _time(text: str) -> str:
    hours, _, rest = text.partition(":")
    return f"{int(hours):02d}:{rest}"


def _escape(value: str) -> str:
    from .export import escape_value

    return escape_value(value)


_FIRST = ("Game", "Players", "Dealer", "First")
_AFTER = ("Match", "Round", "Hands", "Target", "Totals", "Result", "Event", "Date", "Place", "Annotator")


def _tag_order(game: str | None) -> dict[str, tuple[int, str]]:
    """Each known tag (lower case): its rank in the header block and its spelling."""
    options: tuple[str, ...] = ()
    from .games import find_game, load_rules

    entry = find_game(game) if game else None
    if entry is not None and entry.module is not None:
        options = tuple(o.tag for o in load_rules(entry).options)
    tags = (*_FIRST, *options, *_AFTER)
    return {t.lower(): (rank, t) for rank, t in enumerate(tags)}


class Formatter:
    """Writes the games of one file in canonical form, in order: a hand of a match that
    does not name its game plays its match's (which tells whether its cards are numbers)."""

    def __init__(self, style: Style = Style()):
        self.style = style
        self.match_games: dict[str, str] = {}
        self.last: int | None = None
        """The last line of the game written before."""

    def _game_of(self, record: Record) -> str | None:
        game = next((h.value for h in record.headers if h.tag.lower() == "game"), None)
        match = next((h.value for h in record.headers if h.tag.lower() == "match"), None)
        if game is None and match is not None:
            game = self.match_games.get(match)
        if game is not None and match is not None:
            self.match_games[match] = game
        return game

    def lines(self, record: Record) -> list[tuple[str, object | None]]:
        """The game's lines, each with the header, event or comment it writes (None for a
        blank line)."""
        from .games import find_game

        game = self._game_of(record)
        entry = find_game(game) if game else None
        counts = entry is not None and not entry.numbered  # a bare number is a count only there
        order = _tag_order(game)
        items = sorted([*record.headers, *record.events, *record.comments], key=lambda i: i.line)
        first_header = next((n for n, i in enumerate(items) if isinstance(i, Header)), len(items))
        last_header = max((n for n, i in enumerate(items) if isinstance(i, Header)), default=-1)
        prologue, head, body = items[:first_header], items[first_header:last_header + 1], items[last_header + 1:]

        out: list[tuple[str, object | None]] = []
        self._run(out, prologue, counts)
        if prologue and head and head[0].line - prologue[-1].line > 1:
            out.append(("", None))
        blocks: list[list] = []  # each header with the comment lines just above it
        waiting: list = []
        for item in head:
            if isinstance(item, Header):
                blocks.append([*waiting, item])
                waiting = []
            else:
                waiting.append(item)
        if waiting:  # comments after the last header and before the first event
            body = waiting + body
        unknown = (len(order), "")
        blocks.sort(key=lambda block: order.get(block[-1].tag.lower(), unknown)[0])
        group = [(self._header(item, order) if isinstance(item, Header) else "", item) for b in blocks for item in b]
        out += _aligned(group)
        if body and (head or prologue):
            out.append(("", None))
        self._run(out, body, counts)
        return out

    def _run(self, out: list, items: list, counts: bool) -> None:
        """Lines in the order they stand, a blank line where the record had one or more."""
        group: list[tuple[str, object]] = []
        for n, item in enumerate(items):
            if n and item.line - items[n - 1].line > 1:
                out += _aligned(group)
                out.append(("", None))
                group = []
            group.append((self._event(item, counts) if isinstance(item, Event) else "", item))
        out += _aligned(group)

    def _header(self, header: Header, order: dict[str, tuple[int, str]]) -> str:
        tag = order.get(header.tag.lower(), (0, header.tag))[1]
        return f'[{tag} "{_escape(header.value)}"]'

    def _event(self, event: Event, counts: bool) -> str:
        if event.verb == "round":
            return f"-- round {_number(event.word)}" if event.word else "-- round"
        parts = [_number(event.move[:-1]) + "." if event.move else "", _time(event.time) if event.time else "",
                 event.player, event.verb]
        if event.cards:
            parts.append(self._cards(event, counts))
        if event.suit is not None:
            parts += ["for", _SYMBOLS[event.suit] if self.style.suits == "symbols" else event.suit]
        if event.target is not None:
            parts += ([] if event.verb in TARGET_VERBS else [PREPOSITIONS.get(event.verb, "")]) + [event.target]
        if event.word is not None:
            parts.append(_number(event.word) if event.verb in ("scores", "drinks") else event.word)
        return " ".join(p for p in parts if p)

    def _cards(self, event: Event, counts: bool) -> str:
        cards = event.cards
        if counts and len(cards) > 1 and event.verb in COUNT_VERBS and all(c.suit == UNSEEN for c in cards):
            return str(len(cards))
        return " ".join(card_text(c, self.style) for c in cards)

    def text(self, records: Iterable[Record]) -> str:
        """Every game, a blank line between two."""
        return "\n".join(text for text, _ in self.file_lines(records)) + "\n"

    def file_lines(self, records: Iterable[Record]) -> Iterator[tuple[str, object | None]]:
        """Every game's lines, in order (see ``next``)."""
        for record in records:
            yield from self.next(record)

    def next(self, record: Record) -> list[tuple[str, object | None]]:
        """The lines of the file's next game: a blank line between two games, but comment
        lines that followed the last line of a game with no blank line, which the reader
        gives to the next game (they stand before its headers), stay where they stood."""
        lines = self.lines(record)
        if self.last is not None and not (isinstance(lines[0][1], Comment) and lines[0][1].line - self.last == 1):
            lines.insert(0, ("", None))
        self.last = max(item.line for _, item in lines if item is not None)
        return lines

    def game_text(self, record: Record) -> str:
        """The file's next game as text (``export --to text``, ``import``: a game at a time)."""
        return "".join(text + "\n" for text, _ in self.next(record))


def _aligned(group: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """A group of lines (no blank line between them) with their comments: a comment line
    as it is, trailing comments two spaces after the longest line that has one."""
    commented = [len(text) for text, item in group if text and item.comment]
    column = max(commented, default=0) + 2
    out = []
    for text, item in group:
        if isinstance(item, Comment):
            out.append((item.text.rstrip(), item))
        elif item.comment:
            out.append((text.ljust(column) + item.comment.rstrip(), item))
        else:
            out.append((text, item))
    return out


# --- Rewriting files ------------------------------------------------------------------------

def write_atomically(path: str, text: str) -> None:
    """Replace a file's content with ``text`` (UTF-8), whole or not at all (a killed
    ``fmt`` leaves at most a stray ``.NAME.*.referee-fmt`` file): see RecordFile.replace."""
    from .atomic import replace_file

    replace_file(path, text.encode("utf-8"), "referee-fmt")


def canonical(path: str, raw: bytes, style: Style = Style()) -> str:
    """The canonical text of a record file's bytes; RecordError for the first game that
    cannot be read (then the file is not to be touched)."""
    import io

    from .notation import RecordError, read_games

    records = []
    for item in read_games(path, io.BytesIO(raw)):
        if isinstance(item, RecordError):
            raise item
        records.append(item)
    return Formatter(style).text(records)


def _diff(path: str, before: bytes, after: str) -> str:
    """A unified diff of a file and its canonical form: lines split at LF only (U+2028
    is no line end in a record), every unsafe character shown as an escape, as check
    shows a record's lines."""
    import difflib

    from .safe_text import visible

    def lines(text: str) -> list[str]:
        parts = text.split("\n")
        return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])

    old = lines(before.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n"))
    name = visible(path)
    diff = difflib.unified_diff(old, lines(after), f"{name}", f"{name} (formatted)")
    return "".join(visible(line[:-1] if line.endswith("\n") else line) + "\n" for line in diff)


def run(targets, style: Style, check: bool, diff: bool, out, err) -> int:
    """``referee fmt``: each target rewritten in canonical form (or, with ``check`` or
    ``diff``, only said or shown); the exit status: 2 when a file could not be read or
    written (it is left as it was), else 1 when ``check`` or ``diff`` found a file to
    change, else 0. A file is rewritten under its writing lock, through what was opened
    and checked (referee/record_file.py, docs/files.md)."""
    from .lock import LockHeld, RecordLock
    from .messages import say
    from .paths import NotFound
    from .record_file import RECORD_LIMIT, FileRefused, RecordFile, read_stdin
    from .safe_text import visible

    counts = {"changed": 0, "same": 0, "error": 0, "": 0}
    for target in targets:
        if isinstance(target, NotFound):
            err(visible(f"{target.path}: {target.message}") + "\n")
            counts["error"] += 1
            continue
        try:
            if target == "-":
                counts[_one(target, read_stdin(RECORD_LIMIT), None, style, check, diff, out, err)] += 1
                continue
            with RecordLock(target, "fmt") if not (check or diff) else _Unlocked():
                with RecordFile.open(target, write=not (check or diff), limit=RECORD_LIMIT) as opened:
                    counts[_one(target, opened.read_bytes(), opened, style, check, diff, out, err)] += 1
        except (FileRefused, LockHeld) as error:
            err(str(error) + "\n")
            counts["error"] += 1
        except OSError as error:
            err(_unreadable(target, error) + "\n")
            counts["error"] += 1
    changed, same, errors = counts["changed"], counts["same"], counts["error"]
    if changed or same or errors:
        key = "fmt.summary.to-change" if check or diff else "fmt.summary.changed"
        err(say("fmt.summary", changed=say(key, count=changed), same=say("fmt.summary.same", count=same),
                errors=say("fmt.summary.errors", count=errors)) + "\n")
    return 2 if errors else 1 if (check or diff) and changed else 0


class _Unlocked:
    """No lock: ``--check`` and ``--diff`` only read."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _unreadable(target: str, error: OSError) -> str:
    from .messages import say
    from .notation import unreadable_reason
    from .safe_text import visible

    return visible(f"{target}: " + say("file.unreadable", reason=unreadable_reason(error)))


def _one(target: str, raw: bytes, opened, style: Style, check: bool, diff: bool, out, err) -> str:
    """Format one file's bytes: 'changed', 'same' or 'error' (said on ``err``)."""
    from .messages import say
    from .notation import RecordError
    from .importer import looks_json
    from .record_file import FileRefused
    from .safe_text import visible

    if looks_json(target, raw):
        err(visible(f"{target}: " + say("fmt.json")) + "\n")
        return "error"
    try:
        text = canonical(target, raw, style)
    except RecordError as error:
        err(str(error) + "\n")
        return "error"
    if target == "-" and not (check or diff):
        out(text)
        return ""
    if text.encode("utf-8") == raw:
        return "same"
    if diff:
        out(_diff(target, raw, text))
    elif check:
        out(visible(say("fmt.would-change", path=target)) + "\n")
    else:
        try:
            opened.replace(text, "referee-fmt")
        except FileRefused as error:
            err(str(error) + "\n")
            return "error"
        except OSError as error:
            from .notation import unreadable_reason

            err(visible(f"{target}: " + say("fmt.unwritable", reason=unreadable_reason(error))) + "\n")
            return "error"
        out(visible(say("fmt.changed", path=target)) + "\n")
    return "changed"
