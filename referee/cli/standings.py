"""``referee standings`` below the command line: the aliases read, the games added up,
the standings written (text, JSON or an HTML page) to the output or to ``-o FILE``."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..messages import say
from .running import EXIT_ERROR, EXIT_OK, _cannot_write, _machine_output, _output_file, _stop, records_out
from ..standings import add_up, reports, text_lines

if TYPE_CHECKING:
    from ..config import Config
    from ..files.paths import NotFound

WIDTH = 40
"""The text's width when it does not go to a terminal: a phone's."""


def aliases_of(values: Iterable[str], config: Config) -> dict[str, str]:
    """The configuration's aliases, then those of --alias (NAME=PLAYER); one without
    its ``=`` ends the command (exit 2)."""
    found = dict(config.aliases)
    for value in values:
        name, equals, player = value.partition("=")
        if not equals or not name.strip() or not player.strip():
            _stop(say("standings.bad-alias", value=value))
        found[name.strip()] = player.strip()
    return found


def render(form: str, data: object) -> str:
    from ..standings import Standings

    assert isinstance(data, Standings)
    if form == "json":
        import json

        return json.dumps(data.json(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if form == "html":
        from ..html.standings import page

        return page(data)
    from ..text.fit import fit, terminal_width
    from ..text.safe_text import visible_lines

    width = terminal_width() or WIDTH
    return visible_lines("".join(line + "\n" for raw in text_lines(data) for line in fit(raw, width, 4 if raw.startswith(" ") else 2)))


def run(targets: Iterable[str | NotFound], config: Config, form: str, aliases: tuple[str, ...], output: str | None,
        rating: bool = False) -> int:
    """Add up the games of the targets and write the standings; the exit status."""
    chosen = aliases_of(aliases, config)
    if form == "json":
        _machine_output()
    standings = add_up(reports(targets, config.games), chosen)
    if rating:
        from ..standings.rating import RatingMissing

        try:
            standings.rate()
        except RatingMissing:
            _stop(say("standings.rating-missing"))
    text = render(form, standings)
    if output is not None:
        out = _output_file(output)
        try:
            out.write(text)
            out.commit()
        except BaseException as error:  # the one write path of every report (referee/files/atomic.py)
            out.discard()
            _cannot_write(out.path, error)
            raise
    else:
        if form != "text":
            records_out()
        sys.stdout.write(text)
    return EXIT_ERROR if standings.unreadable else EXIT_OK
