"""What every output format of ``referee check`` is (referee/reports/formats.py lists them): a
Writer fed one game's report at a time, the Settings it writes with, and the Summary it
counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..config import chosen, ignored_in
from ..engine import Found, GameReport, status_of
from ..games.base import Violation
from ..messages import say
from ..notation import RecordError
from ..record import Record

Emit = Callable[[object], None]


class Summary:
    """What a check found, counted apart: games by status, accepted rulings, files
    (written by hand, not as a dataclass: see referee/fast/plain.py)."""

    def __init__(self) -> None:
        self.files = 0
        self.valid = 0
        self.violations = 0
        self.in_progress = 0
        self.never_ends = 0
        self.errors = 0
        self.missing = 0
        """Files named that could not be read, and patterns or folders that gave no record
        file: counted apart from the games."""
        self.empty = 0
        """Files with nothing in them (but white space): counted apart from the games too."""
        self.faults = 0
        """The violations of the games with violations (those the table accepted left out)."""
        self.accepted = 0
        """Violations the table accepted (``; accepted CODE``), over every game."""
        self.rules: dict[str, set[str]] = {}
        """The rules quoted for each code reported (SARIF lists them): a code that several
        games report (TR-REVOKE, REC-*) may quote a rule of each; kept whole, so that the
        order the files are checked in (--jobs) changes nothing."""
        self.codes: dict[str, int] = {}
        """How many times each code was reported (the table's accepted ones left out), and
        ``unreadable`` (lines or games that cannot be read) and, under --strict,
        ``in-progress``: what --statistics counts."""

    @property
    def games(self) -> int:
        return self.valid + self.violations + self.in_progress + self.never_ends + self.errors

    def count(self, status: str) -> None:
        name = status.replace("-", "_").replace("error", "errors")
        setattr(self, name, getattr(self, name) + 1)

    def add(self, other: Summary) -> None:
        for name, value in vars(other).items():
            if isinstance(value, int):  # the counts (rules and codes are added below)
                setattr(self, name, getattr(self, name) + value)
        for code, quoted in other.rules.items():
            self.rules.setdefault(code, set()).update(quoted)
        self.tally(other.codes)

    def tally(self, counts: dict[str, int]) -> None:
        for code, n in counts.items():
            if n:
                self.codes[code] = self.codes.get(code, 0) + n

    def statistics(self) -> list[str]:
        """A line per code found, as ruff and flake8 print them: how many, the code, its
        title; the most frequent first."""
        counted = sorted(self.codes.items(), key=lambda item: (-item[1], item[0]))
        if not counted:
            return []
        number = max(len(str(n)) for _, n in counted)
        width = max(len(code) for code, _ in counted)
        return [f"{n:>{number}}  {code:<{width}}  {say(f'title.{code}')}" for code, n in counted]

    def exit_code(self, strict: bool) -> int:
        """2 when something could not be checked; else 1 for a violation (or, ``strict``,
        a game in progress); else 0."""
        if self.errors or self.missing or self.empty:
            return 2
        return 1 if self.violations or (strict and self.in_progress) else 0

    def text(self) -> str:
        """The summary line, naming only what there is, as linters do: "1 game with 2
        violations; 3 valid", the problems first."""
        parts = [say("summary.violations", count=self.violations, faults=say("summary.faults", count=self.faults))
                 if self.violations else ""]
        parts += [say(key, count=n) for key, n in (
            ("summary.errors", self.errors), ("summary.missing", self.missing), ("summary.empty", self.empty), ("summary.in-progress", self.in_progress),
            ("summary.never-ends", self.never_ends), ("summary.valid", self.valid)) if n]
        text = say("summary.separator").join(p for p in parts if p) or say("summary.nothing")
        if self.files > 1:
            text += say("summary.total", games=say("summary.games", count=self.games), files=self.files)
        return text + (say("report.summary-accepted", count=self.accepted) if self.accepted else "")


class Settings:
    """How to check and what to print (plain data: it goes to the workers of --jobs;
    written by hand, not as a dataclass: see referee/fast/plain.py)."""

    def __init__(self, format: str = "text", quiet: bool = False, strict: bool = False, play_out: bool = False,
                 select: tuple[str, ...] = (), ignore: tuple[str, ...] = (), games: dict[str, dict[str, str]] | None = None,
                 width: int | None = None, statistics: bool = False,
                 per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (), root: str = ".",
                 stdin_filename: str | None = None, docs_url: str | None = None) -> None:
        self.format: Final = format
        self.quiet: Final = quiet
        self.strict: Final = strict
        self.play_out: Final = play_out
        self.select: Final = select
        self.ignore: Final = ignore
        self.games: Final = games if games is not None else {}
        """Default options per game, from the configuration."""
        self.width: Final = width
        """The terminal's width, that the text report wraps to."""
        self.statistics: Final = statistics
        """--statistics: a count per code instead of the findings (text, concise, github)."""
        self.per_file_ignores: Final = per_file_ignores
        """(pattern, codes) from the configuration: codes never reported in the files the
        pattern matches (as an exclude pattern matches, from ``root``)."""
        self.root: Final = root
        """The folder of the configuration file."""
        self.stdin_filename: Final = stdin_filename
        """--stdin-filename: the name of the record read from ``-``."""
        self.docs_url: Final = docs_url
        """The configuration's ``docs-url``: where referee's docs/ are published (SARIF's helpUri)."""

    def name(self, path: str) -> str:
        """The name a file is reported under: --stdin-filename's for ``-``."""
        return self.stdin_filename if path == "-" and self.stdin_filename else path

    def for_file(self, path: str) -> Settings:
        """The settings for one file: the configuration's per-file ignores that match it
        added (as ``config.resolve`` adds them for every face)."""
        if not self.per_file_ignores:
            return self
        extra = ignored_in(self.per_file_ignores, self.root, self.name(path))
        return Settings(**(vars(self) | {"ignore": (*self.ignore, *extra)})) if extra else self

    def chosen(self, code: str) -> bool:
        if not self.select and not self.ignore:  # the usual case, once per violation
            return True
        return chosen(code, self.select, self.ignore)

    def problem(self, report: GameReport) -> bool:
        """Whether a game fails the check: --quiet shows only these."""
        return report.status in ("violations", "error") or (self.strict and report.status == "in-progress")


def selected(report: GameReport, chosen: Callable[[str], bool]) -> None:
    """Leave out of a game's report the codes the configuration does not report, and say
    what the game is without them (``check``, and ``play`` and the table page alike)."""
    violations = [v for v in report.violations if chosen(v.code)]
    if len(violations) == len(report.violations):
        return
    report.violations = violations
    if report.status == "violations" and not any(not v.accepted for v in violations) and not report.omitted:
        report.status = status_of([], report.result) if report.result is not None else "valid"


class Selected(Found):
    """A game's violations, less the codes the configuration does not select: those are
    neither counted nor shown (an accepted one still answers its mark)."""

    def __init__(self, settings: Settings, keep: int | None = None, each: Callable[[Violation], object] | None = None):
        super().__init__(keep, each)
        self.settings = settings
        self.codes: dict[str, int] = {}
        """How many of each code were found, the accepted ones left out (--statistics)."""

    def append(self, violation: Violation) -> None:
        if self.settings.chosen(violation.code):
            if not violation.accepted:
                self.codes[violation.code] = self.codes.get(violation.code, 0) + 1
            super().append(violation)
        elif violation.accepted:
            self.accepted.add((violation.line, violation.code))


class Writer:
    """The base of every format: one game at a time, then the summary."""

    SEPARATOR = ""
    """Written by the main process between the chunks of two files' games (json's comma)."""
    KEEP: int | None = 1
    """The violations of one code kept in a game's report (the others are counted); None: all."""
    STREAMS = True
    """Whether violations are written as they are found (else with their game's report)."""

    def __init__(self, emit: Emit, settings: Settings):
        self.emit = emit
        self.settings = self.base = settings
        self.written = 0
        self.found: Found | None = None
        self.summary = Summary()
        self.games_in_file = 0
        self.missing_in_file = False
        """Whether the current file was counted as one that cannot be read (once, however
        many errors say why)."""

    # The main process only.
    def begin(self) -> None:
        """What comes before the first game."""

    def end(self, summary: Summary) -> None:
        """What comes after the last game: by default the summary line."""
        self.emit(summary.text())

    def lines_at_end(self, summary: Summary) -> list[str]:
        """The last lines of a report for people: the statistics (--statistics), then
        the summary."""
        return [*(summary.statistics() if self.settings.statistics else []), summary.text()]

    # For each file and game.
    def file_start(self, path: str) -> None:
        self.summary.files += 1
        self.games_in_file = 0
        self.missing_in_file = False
        self.settings = self.base.for_file(path)

    def file_end(self, path: str) -> None:
        pass

    def sink(self, record: Record) -> Found:
        """Where a game's violations go as they are found: written at once by a format that
        streams (under --quiet, all kept until the game shows it fails)."""
        streams = self.STREAMS and not self.settings.quiet and not self.settings.statistics
        keep = self.KEEP if streams or not self.STREAMS else None
        self.found = Selected(self.settings, keep, self._violation if streams else None)
        return self.found

    def report(self, item: Record | RecordError, report: GameReport, missing: bool | None = None) -> None:
        """A game checked: counted, then written (under --quiet, only a game that fails).
        ``missing``: no game, but a file that could not be read (or a pattern that gave
        none), counted as what it is; by default, an error about a whole file is one (a
        game of a JSON record that cannot be read is a game, not a file)."""
        if report.status != "error":
            self._select(report)
        if missing is None:
            missing = report.error is not None and report.error.line == 0 and not report.error.refused
        if missing and report.error is not None and report.error.empty:  # read, but with nothing in it
            self.summary.empty += 1
        elif missing:  # the file as a whole: not read (counted once, however many errors say why)
            self.summary.missing += not self.missing_in_file
            self.missing_in_file = True
            if not self.games_in_file:
                self.summary.files -= 1  # counted by file_start: it is not a file checked
        else:
            self.summary.count(report.status)
        self.games_in_file += 1
        if report.status == "violations":
            self.summary.faults += sum(not v.accepted for v in report.violations) + sum(report.omitted.values())
        found, self.found = self.found, None
        if found is not None:
            self.summary.accepted += found.count - found.open
        for v in report.violations:
            self.summary.rules.setdefault(v.code, set()).update([v.rule] if v.rule else [])
        self._count(report, found)
        if self.shows(report):
            self.game(item, report, found)

    def _count(self, report: GameReport, found: Found | None) -> None:
        """Count the codes of a game (--statistics): those found in the replay, those found
        after it (a match's), what cannot be read, and under --strict a game in progress."""
        counts = dict(found.codes) if isinstance(found, Selected) else {}
        kept = {id(v) for v in found.kept} if isinstance(found, Selected) else set()
        for v in report.violations:
            if id(v) not in kept and not v.accepted:
                counts[v.code] = counts.get(v.code, 0) + 1
        counts["unreadable"] = report.error_count or (1 if report.error is not None else 0)
        counts["in-progress"] = int(report.status == "in-progress" and self.settings.strict)
        self.summary.tally(counts)

    def shows(self, report: GameReport) -> bool:
        """Whether a game is written: under --quiet, only one that fails the check; under
        --statistics, none."""
        if self.settings.statistics:
            return False
        return not self.settings.quiet or self.settings.problem(report)

    def _select(self, report: GameReport) -> None:
        """Leave out the codes not selected (a match's faults come after the replay), and
        say what the game is without them."""
        selected(report, self.settings.chosen)

    def _violation(self, violation: Violation) -> None:
        """A violation as it is found (formats that stream)."""

    def game(self, item: Record | RecordError, report: GameReport, found: Found | None) -> None:
        raise NotImplementedError

    def _streamed(self, report: GameReport, found: Found | None) -> list[Violation]:
        """The violations of a report that were not written as they were found."""
        if found is None or found.each is None:
            return report.violations
        kept = {id(v) for v in found.kept}
        return [v for v in report.violations if id(v) not in kept]

    def worker_result(self) -> tuple[Summary, dict[str, object]]:
        return self.summary, {}
