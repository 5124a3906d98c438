"""A player's name through a record: where it is declared (``[Players]``), every line
that names them, and renaming them in one edit.

A name belongs to its game, and to the other hands of that game's match (the hands of
a ``[Match]`` share their players, and the standing follows them by name): renaming
Ana in one hand renames her in every hand of the match, not in another game of the
file where some other Ana plays. Places are (line, column) from 1, in characters."""

from __future__ import annotations

import re

from ..messages import say
from ..record import Record
from .features import Edit
from .model import Document
from .tokens import Token, line_tokens

NAME = re.compile(r'[^\s;,"\[\]]+')
"""What a new name may be: one word, without what the notation reads around names."""


class RenameRefused(ValueError):
    """A new name that cannot be used, and why (in words)."""


def player_at(document: Document, line: int, column: int) -> Token | None:
    """The player's name at a place (on an event line or in a header that names players)."""
    for token in line_tokens(document, line):
        if token.kind == "player" and token.column <= column <= token.end:
            return token
    return None


def _games(document: Document, line: int) -> list[tuple[int, int]]:
    """The lines (first, last) of the game at ``line`` and of the other hands of its match."""
    found = document.game_at(line)
    if found is None:
        return []
    game, item, _ = found
    match = item.tag("Match") if isinstance(item, Record) else None
    if match is None:
        return [(game.start, game.end)]
    return [(g.start, g.end) for g, other, _ in document.reports
            if isinstance(other, Record) and other.tag("Match") == match]


def occurrences(document: Document, line: int, name: str) -> list[Token]:
    """Every place that names the player ``name`` in the game at ``line`` (and its match)."""
    found: list[Token] = []
    for first, last in dict.fromkeys(_games(document, line)):
        for number in range(first, min(last, len(document.lines)) + 1):
            found += [t for t in line_tokens(document, number) if t.kind == "player" and t.text == name]
    return found


def declaration(document: Document, line: int, name: str) -> Token | None:
    """Where the player is declared: their name in the ``[Players]`` header of the game."""
    return next((t for t in occurrences(document, line, name) if "declaration" in t.modifiers), None)


def rename(document: Document, line: int, column: int, new: str) -> list[Edit]:
    """The edits that rename the player at a place; RenameRefused when there is no player
    there, or the new name cannot be one (not one word, or another player's)."""
    token = player_at(document, line, column)
    if token is None:
        raise RenameRefused(say("lsp.rename.no-player"))
    if not NAME.fullmatch(new) or new == "--":
        raise RenameRefused(say("lsp.rename.bad-name", name=new))
    others = {t.text for t in occurrences_all_players(document, line)} - {token.text}
    if new in others:
        raise RenameRefused(say("lsp.rename.taken", name=new))
    return [Edit(t.line, t.column, t.line, t.end, new) for t in occurrences(document, line, token.text)]


def occurrences_all_players(document: Document, line: int) -> list[Token]:
    """The names declared in ``[Players]`` in the game at ``line`` (and its match)."""
    found: list[Token] = []
    for first, last in dict.fromkeys(_games(document, line)):
        for number in range(first, min(last, len(document.lines)) + 1):
            found += [t for t in line_tokens(document, number) if "declaration" in t.modifiers]
    return found


def highlights(document: Document, line: int, column: int) -> list[Token]:
    """The other places of what is at a place in its game: a player's name (their lines),
    or a card (every play of the same card, as written)."""
    token = next((t for t in line_tokens(document, line) if t.column <= column <= t.end and t.kind in ("player", "card")),
                 None)
    if token is None:
        return []
    if token.kind == "player":
        return occurrences(document, line, token.text)
    found = document.game_at(line)
    if found is None:
        return []
    game = found[0]
    return [t for number in range(game.start, min(game.end, len(document.lines)) + 1)
            for t in line_tokens(document, number) if t.kind == "card" and t.text == token.text]
