"""Players' names by what they look like: a name is read in Unicode NFC (a ``Zoé`` typed
as ``Z o e + ◌́`` is the ``Zoé`` of the other lines); a name that holds a letter that shows
nothing (the Hangul fillers) is refused; two names that differ only by look-alike
characters (a Cyrillic ``А`` for the Latin ``A``) are refused as alike, the character
named by its code point. The look-alikes are Unicode's confusables (UTS #39), as the
``confusable_homoglyphs`` package ships them, read only for a name that is not ASCII."""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from typing import Any

NAMES_KEPT = 1024
"""Names whose checks are kept (a file's games name the same players again and again: a
French evening of 400 games read each name's letters once, not at every game)."""

INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
"""The letters (Unicode category Lo, so a name's ``\\w`` takes them) that Unicode lists as
default-ignorable: they show nothing. Every other invisible character (zero-width spaces
and joiners, bidi controls, variation selectors) is no letter and a name refuses it."""


@lru_cache(maxsize=NAMES_KEPT)
def composed(name: str) -> str:
    """``name`` in Unicode NFC (an ASCII name as it is, at no cost)."""
    return name if name.isascii() else unicodedata.normalize("NFC", name)


def code_point(character: str) -> str:
    """A character as the message shows it: ``U+0410 CYRILLIC CAPITAL LETTER A``."""
    return f"U+{ord(character):04X} {unicodedata.name(character, '')}".rstrip()


@lru_cache(maxsize=NAMES_KEPT)
def invisible(name: str) -> str | None:
    """The first letter of ``name`` that shows nothing, or None."""
    return next((c for c in name if c in INVISIBLE_LETTERS), None)


@lru_cache(maxsize=NAMES_KEPT)
def refused_character(name: str) -> str | None:
    """The first character that keeps ``name`` from being a name (neither a letter, a
    digit, ' ’ nor -: a space that shows nothing, a bidi control, a combining mark left
    alone), or None."""
    return next((c for c in composed(name) if not (c.isalnum() or c in "'’-")), None)


LATIN_1_LETTERS = frozenset(map(chr, range(0xC0, 0x100))) - {"×", "÷"}
"""Latin-1's letters (é, ß, ÿ): Unicode's confusables give none of them another letter to
stand for (tests/test_names.py checks it against the data)."""


@lru_cache(maxsize=NAMES_KEPT)
def plain_latin(name: str) -> bool:
    """Written in ASCII and Latin-1's letters only: no look-alike can hide in it, and its
    skeleton is itself, so the confusables data need not be read (about 40 ms)."""
    return name.isascii() or all(c.isascii() or c in LATIN_1_LETTERS for c in name)


@cache
def _data() -> dict[str, Any]:
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    return confusables_data  # type: ignore[no-any-return]


def _prototype(character: str) -> str:
    """The character a non-ASCII look-alike stands for: its first ASCII look-alike (the
    Cyrillic ``А`` is ``A``), else the least of it and its look-alikes; ASCII stays."""
    if character.isascii():
        return character
    alike: list[str] = [h["c"] for h in _data().get(character, ()) if len(h["c"]) == 1]
    return next((c for c in alike if c.isascii()), min([character, *alike]))


def skeleton(name: str) -> str:
    """``name`` with each look-alike character replaced by what it stands for: two names
    with the same skeleton read the same at the table."""
    name = composed(name)
    return name if name.isascii() else "".join(_prototype(c) for c in name)


def disguised(name: str) -> str | None:
    """The first character of a name written mostly in Latin letters that only looks like
    one (the Cyrillic ``А`` of ``Аlice``): a line that writes the name as it looks is not
    this player's. None for a name in one script (``Борис``)."""
    if name.isascii() or not any(c.isascii() and c.isalpha() for c in name):
        return None
    return next((c for c in name if not c.isascii() and _prototype(c).isascii()), None)


def difference(one: str, other: str) -> str | None:
    """The first character of ``other`` that only looks like ``one``'s at its place, or
    None when the names differ otherwise."""
    one, other = composed(one), composed(other)
    if len(one) != len(other):
        return None
    return next((b for a, b in zip(one, other) if a != b and not b.isascii()),
                next((a for a, b in zip(one, other) if a != b), None))
