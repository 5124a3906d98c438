"""Numbers as people write them in a record, a header, a JSON record or a request: one
strict reader for all of them.

A number is written with the digits 0 to 9, and nothing else: ``str.isdigit()`` is true
for a superscript (``²``) that ``int()`` refuses, and ``int()`` reads Arabic-Indic digits
(``٣``) that the notation does not have. And it is short: at most ``MAX_DIGITS`` digits
(leading zeros aside), past any count a card game makes; a longer one is refused before
it is converted (``int()`` refuses more than 4,300 digits, and a float holds 308).
"""

from __future__ import annotations

MAX_DIGITS = 9
"""The most digits of a number (leading zeros aside): counts, rounds, targets, scores."""
LINE_DIGITS = 12
"""The most digits of a line or column number: past the end of any record referee reads."""
SHOWN = 12
"""The most characters of a number quoted in a message (the line shows it whole)."""


def is_digits(text: str) -> bool:
    """Whether ``text`` is a run of the digits 0 to 9 (of any length)."""
    return text.isascii() and text.isdigit()


def whole(text: str, digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` writes: digits 0 to 9 only, no sign, no blank, at most
    ``digits`` of them after the leading zeros; None for anything else."""
    if not is_digits(text):
        return None
    significant = text.lstrip("0")
    if len(significant) > digits:
        return None
    return int(significant) if significant else 0


def signed(text: str, digits: int = MAX_DIGITS) -> int | None:
    """A whole number with an optional sign (``-5``, ``+3``), read as ``whole`` reads."""
    if text[:1] in ("+", "-") and len(text) > 1:
        value = whole(text[1:], digits)
        return None if value is None else -value if text[0] == "-" else value
    return whole(text, digits)


def too_long(text: str, digits: int = MAX_DIGITS) -> bool:
    """Whether ``text`` is digits 0 to 9 (after an optional sign), but too many of them."""
    body = text[1:] if text[:1] in ("+", "-") else text
    return is_digits(body) and len(body.lstrip("0")) > digits


def shown(text: str) -> str:
    """A number as a message quotes it: whole when short, else its first digits and …"""
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"
