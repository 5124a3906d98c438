"""Text from a record or a file name, made safe to print on a terminal or in a plain-text
report: every output in text goes through here.

A control character (an escape sequence can set a terminal's title or clear its screen),
an invisible format character (a right-to-left override can reorder what a line shows), a
line or paragraph separator, or a lone surrogate (a file name that is not UTF-8) is shown
as a visible escape: ``\\x1b``, ``\\u202e``, ``\\n``. JSON escapes on its own. Other output
formats (issue 15's github or junit) escape their own syntax after this."""

from __future__ import annotations

import re
from functools import lru_cache

_UNSAFE_ASCII = re.compile("[\x00-\x1f\x7f]")
UNSAFE_CLASS = (
    "[\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b\u200e-\u200f"
    "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
"""Characters of the Unicode categories Cc (controls), Cf (format), Zl, Zp (separators) and
Cs (surrogates), but the joiners U+200C and U+200D that emoji and some scripts need."""


@lru_cache(maxsize=1)
def unsafe() -> re.Pattern[str]:
    """UNSAFE_CLASS compiled, the first time text that is not ASCII needs it (compiling it
    takes a millisecond of a start-up that often prints ASCII only)."""
    return re.compile(UNSAFE_CLASS)

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _unsafe_in(text: str) -> re.Pattern[str]:
    """The pattern of what is unsafe in ``text``: the ASCII one for ASCII text."""
    return _UNSAFE_ASCII if text.isascii() else unsafe()


def visible(text: str) -> str:
    """The text with every unsafe character shown as an escape (unchanged when it has none)."""
    return text if is_visible(text) else _unsafe_in(text).sub(_escape, text)


def is_visible(text: str) -> bool:
    """Whether ``visible`` would leave the text as it is. Most text is printable, which
    ``str.isprintable`` tells at a fraction of the search's cost (every unsafe character
    is unprintable); text with a no-break space or a joiner is searched."""
    return text.isprintable() or _unsafe_in(text).search(text) is None


def visible_pieces(lines: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """Lines of (text, style) pieces with every text made visible: the same lines when
    none needs it, which one search of their whole text tells (joined with line ends, the
    lines could not be made visible at once: ``visible`` escapes a line end)."""
    if is_visible("".join([text for line in lines for text, _ in line])):
        return lines
    return [[(visible(text), style) for text, style in line] for line in lines]


def plain_lines(lines: list[list[tuple[str, str]]]) -> str:
    """Lines of (text, style) pieces as plain text, made visible, each ending in LF."""
    return "".join(["".join([text for text, _ in line]) + "\n" for line in visible_pieces(lines)])


def visible_lines(text: str) -> str:
    """Several lines made visible one by one, their line ends kept."""
    return "\n".join(map(visible, text.split("\n")))


WINDOW = 100
"""The most characters of a source line a report shows around the caret."""


def excerpt(source: str, column: int, width: int = WINDOW) -> tuple[str, int]:
    """A source line as a report shows it, and the caret's place in it (from 1): tabs as one
    blank, unsafe characters escaped, and a line longer than ``width`` cut to the part
    around ``column``, with '…' where it was cut."""
    line = source.rstrip("\r\n").expandtabs(1)
    at = max(column - 1, 0)
    if len(line) > width:
        begin = min(max(at - width // 2, 0), len(line) - width)
        head, tail = ("…" if begin else ""), ("…" if begin + width < len(line) else "")
        line, at = head + line[begin:begin + width] + tail, at - begin + len(head)
    shown = visible(line)
    return shown, len(visible(line[:at])) + 1
