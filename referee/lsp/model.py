"""A record open in an editor: the live record's replayer (referee/live.py ``Replayer``),
which reads and referees only what changed, and what the editor's features ask of it.

On every change the text is cut into games without being parsed; a game that did not
change is neither read nor replayed, a game that moved is numbered anew, a game that
changed is read again only in the lines that changed and replayed from its last
checkpoint before the change (see ``Replayer``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config, Resolved, resolve
from ..games.base import Violation
from ..live import Checked, Checkpoint, Fork, Game, Replayer, SNAPSHOT_EVERY, fork_of
from ..messages import language, say
from ..notation import RecordError

__all__ = ["Checked", "Checkpoint", "Document", "Fork", "Game", "Problem", "SNAPSHOT_EVERY", "fork_of"]


@dataclass
class Problem:
    """Something to show at a place: a violation, an unreadable line, a note."""

    line: int
    column: int
    message: str
    severity: str
    """``error``, ``information`` or ``hint`` (a fault the table accepted)."""
    code: str | None = None
    rule: str = ""
    player: str | None = None


class Document(Replayer):
    """A record open in the editor; ``update`` it with its whole text after each change."""

    settings: Resolved

    def __init__(self, path: str, config: Config = Config(), settings: Resolved | None = None):
        super().__init__(path, settings if settings is not None else resolve(config, path))
        self.config = config
        """The configuration found for the file; ``settings`` is what it says for this
        file, as for ``check`` and ``fmt`` (its ``per-file-ignores``, its ``[fmt]
        exclude``), the editor's settings given to ``config.resolve`` as the command
        line's flags are."""
        self.memo: dict[str, object] = {}
        """What the features worked out from this text (the formatted record), until it changes."""
        self._worded: tuple[dict[tuple[object, ...], Problem], dict[tuple[object, ...], Problem]] = ({}, {})
        """The violations worded for the last text and the one before, by their value: a
        change rules thousands of faults again (a line that throws every turn after it
        off), most of them worded already (the same faults before the change, and those
        the text before an undo had)."""
        self._worded_in: tuple[str, Resolved | None] = ("", None)
        """The language and the settings the problems were worded in and chosen by."""
        self._chosen: dict[str, bool] = {}
        """Whether the settings report each code (``Resolved.chosen``), by code."""

    def update(self, text: str) -> None:
        """Take the document's new text: read the games that changed, referee them again."""
        self.memo = {}
        super().update(text)

    # --- What the features ask ----------------------------------------------------------

    def problems(self, limit: int = 0) -> list[Problem]:
        """What to show in the editor: the violations the configuration selects (those the
        table accepted as hints), the lines that cannot be read, the notes. ``limit``: the
        first ``limit`` violations and notes in the record's order (0: all; the lines that
        cannot be read are all shown), then, when there are more, a note that says how
        many on the line of the first left out (those left out are not worded)."""
        found: list[Problem] = []
        if self._worded_in[0] != language() or self._worded_in[1] is not self.settings:
            self._worded, self._chosen, self._worded_in = ({}, {}), {}, (language(), self.settings)
        last, before = self._worded
        worded: dict[tuple[object, ...], Problem] = {}
        chosen = self._chosen
        room = limit if limit > 0 else -1  # how many more violations and notes may be shown (-1: no limit)
        more, first_left = 0, 0
        if not self.reports:  # as check says of a file with no game
            found.append(Problem(1, 1, say("file.empty"), "error"))
        for _, item, report in self.reports:
            if isinstance(item, RecordError):
                found.append(Problem(item.line or 1, item.column or 1, item.message, "error"))
                continue
            if report.error is not None and not report.errors:  # as check: the unreadable lines, else why no game
                error = report.error
                found.append(Problem(error.line or item.line, error.column or 1, error.message, "error"))
            for error in report.errors:
                found.append(Problem(error.line, error.column, error.message, "error"))
            for v in report.violations:
                code = v.code
                if chosen[code] if code in chosen else chosen.setdefault(code, self.settings.chosen(code)):
                    if room == 0:
                        more += 1
                        first_left = first_left or v.line
                        continue
                    room -= 1
                    key = (v.line, v.column, code, v.accepted, v.notation, v.rule, v.player, v.said)
                    problem = worded.get(key) or last.get(key) or before.get(key) or _problem(v)
                    worded[key] = problem
                    found.append(problem)
            for note in report.notes:
                if room == 0:
                    more += 1
                    first_left = first_left or item.line
                    continue
                room -= 1
                found.append(Problem(item.line, 1, note, "information"))
        self._worded = worded, last
        if more:
            found.append(Problem(first_left, 1, say("lsp.more-problems", count=more, shown=limit), "information"))
        return found

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 1 <= number <= len(self.lines) else ""


def _problem(v: Violation) -> Problem:
    return Problem(v.line, v.column, v.message, "hint" if v.accepted else "error", v.code, v.rule, v.player)
