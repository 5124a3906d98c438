"""Lines that fit a terminal's width (a phone's is 40 columns or so): cut between words,
never inside one, so that a ``file:line:col`` head, a path or a card stays whole; the
lines after the first indented under it. Piped output is not cut: a width of None."""

from __future__ import annotations

import textwrap

Piece = tuple[str, str]
"""Some text and its rich style ("" for none)."""


def terminal_width() -> int | None:
    """The width of the terminal the standard output goes to; None for a pipe or a file."""
    import shutil
    import sys

    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def fit(line: str, width: int | None, indent: int | None = None) -> list[str]:
    """A line cut into lines of at most ``width`` columns, between words; the first keeps
    its own indentation, the others get ``indent`` blanks (by default two more than the
    first). A word longer than the width stays whole, on a line of its own."""
    if width is None or len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    rest = min(lead + 2 if indent is None else indent, width // 2)
    return textwrap.wrap(line[lead:], width, initial_indent=" " * lead, subsequent_indent=" " * rest,
                         break_long_words=False, break_on_hyphens=False, expand_tabs=False,
                         replace_whitespace=False) or [line]


def fit_pieces(pieces: list[Piece], width: int | None, indent: int | None = None) -> list[list[Piece]]:
    """A line of styled pieces cut as ``fit`` cuts its text, each piece keeping its style."""
    text = "".join(t for t, _ in pieces)
    if width is None or len(text) <= width:
        return [pieces]
    styles = [style for t, style in pieces for _ in t]
    lines, at = [], 0
    for line in fit(text, width, indent):
        body = line.lstrip(" ")
        lead = line[: len(line) - len(body)]
        at = text.index(body, at) if body else at
        cut: list[Piece] = [(lead, "")] if lead else []
        for i, char in enumerate(body):
            style = styles[at + i]
            if cut and cut[-1][1] == style:
                cut[-1] = (cut[-1][0] + char, style)
            else:
                cut.append((char, style))
        at += len(body)
        lines.append(cut)
    return lines
