"""The words of a record's lines as the editor colours and follows them: headers (the
tag, the value, each player named), event lines (the move number and time, the player,
the verb, the cards with their suit, the player named after ``on``/``sur``, the suit
announced, the word), round markers, comments and the codes in them. Places are
(line, column) from 1, in characters; the words are read in the record's notation.

Used for semantic tokens (cards by suit, so that an editor can show hearts and
diamonds in red), and for renaming a player and finding their lines (players.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.french import tag_key
from ..record import TARGET_VERBS
from ..spelling import Spelling, spelling_of
from .model import Document

PLAYER_TAGS = frozenset({"players", "dealer", "first", "result"})
"""The headers whose value names players (their English keys; ``[Joueurs]`` is ``players``)."""
RED = frozenset({"H", "D"})
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_HEADER = re.compile(r'^(\s*\[\s*)([^\s"\]]+)(\s+")([^"]*)"')
_LEADING = re.compile(r"(\s*)(\d+\.)?(\s*)(\d+:\d+(?::\d+)?)?")
_WORD = re.compile(r"[^\s,]+")


@dataclass(frozen=True)
class Token:
    line: int
    column: int
    text: str
    kind: str
    """``player``, ``verb``, ``card``, ``word``, ``keyword`` (on, for, round), ``number``,
    ``tag``, ``value``, ``comment`` or ``code``."""
    modifiers: tuple[str, ...] = ()
    """A card's suit (``hearts``...) and colour (``red``, ``black``); ``declaration``
    for a player named in ``[Players]``."""

    @property
    def end(self) -> int:
        return self.column + len(self.text)


def line_tokens(document: Document, line: int) -> list[Token]:
    """The words of one line, left to right, none overlapping."""
    text = document.line(line)
    body, comment = _split_comment(text)
    if not body.strip():
        return _comment(line, comment, len(body) + 1)
    written = spelling_of(document.record_at(line))
    header = _HEADER.match(body)
    if body.lstrip().startswith("["):
        return (_header(line, header) if header else []) + _comment(line, comment, len(body) + 1)
    return _event(line, body, written) + _comment(line, comment, len(body) + 1)


_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
"""A code, as ``referee explain`` reads one (cli/explain.py's CODE: that module, with the
engine and the state behind it, is left out of the server's start)."""


def _split_comment(text: str) -> tuple[str, str]:
    at = text.find(";")
    return (text, "") if at < 0 else (text[:at], text[at:])


def _comment(line: int, comment: str, column: int) -> list[Token]:
    """A comment, cut around the codes it names (``; accepted CP-SWEAR``)."""
    found, at = [], 0
    for code in _CODE.finditer(comment):
        if code.start() > at:
            found.append(Token(line, column + at, comment[at:code.start()], "comment"))
        found.append(Token(line, column + code.start(), code.group(), "code"))
        at = code.end()
    if at < len(comment):
        found.append(Token(line, column + at, comment[at:], "comment"))
    return [t for t in found if t.text.strip()]


def _header(line: int, header: re.Match[str]) -> list[Token]:
    tag_at = header.start(2) + 1
    found = [Token(line, tag_at, header.group(2), "tag")]
    value, value_at = header.group(4), header.start(4) + 1
    if tag_key(header.group(2)) in PLAYER_TAGS:
        declared = ("declaration",) if tag_key(header.group(2)) == "players" else ()
        found += [Token(line, value_at + w.start(), w.group(), "player", declared) for w in _WORD.finditer(value)]
    elif value:
        found.append(Token(line, value_at, value, "value"))
    return found


def _event(line: int, body: str, written: Spelling) -> list[Token]:
    lead = _LEADING.match(body)
    found: list[Token] = []
    start = 0
    if lead is not None:
        for group in (2, 4):
            if lead.group(group):
                found.append(Token(line, lead.start(group) + 1, lead.group(group), "number"))
        start = lead.end()
    words = [(w.start() + 1, w.group()) for w in _WORD.finditer(body, start)]
    if not words:
        return found
    if words[0][1] == "--":  # -- round 2
        return found + [Token(line, at, word, "keyword" if n < 2 else "number") for n, (at, word) in enumerate(words)]
    found.append(Token(line, words[0][0], words[0][1], "player"))
    following, names = "", False
    for n, (at, word) in enumerate(words[1:]):
        verb = written.verb_read(word) if n == 0 else None
        if verb is not None:
            found.append(Token(line, at, word, "verb"))
            names = verb in TARGET_VERBS  # beats, catches, accuses: the players follow the verb
        elif word in written.targets or word == written.for_word:
            found.append(Token(line, at, word, "keyword"))
        elif following in written.targets or names:
            found.append(Token(line, at, word, "player"))
        else:
            card = written.read(word) if following != written.for_word else None
            if card is not None and card.suit in SUIT_NAMES:
                colour = "red" if card.suit in RED else "black"
                found.append(Token(line, at, word, "card", (SUIT_NAMES[card.suit], colour)))
            elif card is not None:
                found.append(Token(line, at, word, "card"))
            else:
                found.append(Token(line, at, word, "word"))
        following = word
    return found


def tokens(document: Document, first: int = 1, last: int | None = None) -> list[Token]:
    """The words of the lines ``first`` to ``last`` (the whole text by default)."""
    last = len(document.lines) if last is None else min(last, len(document.lines))
    return [t for line in range(max(first, 1), last + 1) for t in line_tokens(document, line)]
