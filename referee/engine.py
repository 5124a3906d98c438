"""The replay loop shared by every game, and the report of one game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .cards import UNSEEN_CARD
from .games import GAMES, find_game, load_rules
from .games.base import Result, Rules, SetupError, Violation
from .messages import join, say
from .notation import RecordError
from .record import PREPOSITIONS, Record

STATUSES = ("valid", "violations", "in-progress", "never-ends", "error")


@dataclass
class GameReport:
    """What a check says of one game."""

    file: str
    line: int
    game: str
    players: list[str]
    status: str
    violations: list[Violation] = field(default_factory=list)
    result: Result | None = None
    tallies: dict[str, dict[str, int]] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    todo: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    error: RecordError | None = None
    omitted: dict[str, int] = field(default_factory=dict)
    """Violations flagged but left out of ``violations``, by code (see Found)."""


class Found:
    """A game's violations as they are flagged: each handed to ``each`` when given (to be
    written at once), the first ``keep`` of each code kept for the report, the others only
    counted; so a game's violations take no memory however many they are."""

    def __init__(self, keep: int | None = None, each: Callable[[Violation], object] | None = None):
        self.keep, self.each = keep, each
        self.kept: list[Violation] = []
        self.seen: dict[str, int] = {}
        self.count = 0

    def append(self, violation: Violation) -> None:
        self.count += 1
        if self.each is not None:
            self.each(violation)
        seen = self.seen[violation.code] = self.seen.get(violation.code, 0) + 1
        if self.keep is None or seen <= self.keep:
            self.kept.append(violation)

    def omitted(self) -> dict[str, int]:
        return {code: n - self.keep for code, n in self.seen.items() if self.keep is not None and n > self.keep}

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Violation]:
        return iter(self.kept)


def error_report(error: RecordError, game: str = "") -> GameReport:
    return GameReport(error.path, error.line, game, [], "error", error=error)


def _setup_error(record: Record, error: SetupError) -> RecordError:
    header = error.header
    line, column = (header.line, header.column) if header else (record.line, 1)
    source = record.sources((header.line,)).get(header.line, "") if header else ""
    return RecordError(record.path, line, column, str(error), source)


def start(record: Record) -> Rules:
    """The rules of a record's game, set up from its headers."""
    header = record.header("Game")
    names = join(g.name for g in GAMES if g.module)
    if header is None:
        raise SetupError(say("setup.no-game", games=names), record.headers[0] if record.headers else None)
    entry = find_game(header.value)
    if entry is None:
        raise SetupError(say("setup.unknown-game", game=header.value, games=names), header)
    if entry.module is None:
        raise SetupError(say("setup.not-refereed", title=entry.title, games=names), header)
    rules_class = load_rules(entry)
    return rules_class(rules_class.setup_from(record))


def replay(rules: Rules, record: Record) -> Rules:
    """Apply every event of the record; a broken rule is flagged and play goes on."""
    players = set(rules.players)
    known = rules.deck | {UNSEEN_CARD}
    for event in record.events:
        if event.player not in players:
            rules.flag("REC-UNKNOWN-PLAYER", event, players=join(rules.players))
        elif event.target is not None and event.target not in players:
            rules.flag("REC-UNKNOWN-PLAYER", event, player=event.target, players=join(rules.players))
        elif event.verb not in rules.verbs:
            rules.flag("REC-UNSUPPORTED-EVENT", event, verb=event.verb)
        elif event.target is not None and event.verb not in rules.targets:
            rules.flag("REC-UNSUPPORTED-EVENT", event, verb=f"{event.verb} … {PREPOSITIONS.get(event.verb, '')}".strip())
        elif event.cards and not known.issuperset(event.cards):
            stray = next(i for i, c in enumerate(event.cards) if c not in known)
            rules.flag("REC-NOT-IN-DECK", event, event.card_column(stray), card=event.cards[stray])
        elif rules.over(event):
            rules.flag("REC-AFTER-END", event, result=_outcome(rules.result()))
        else:
            rules.apply(event)
    return rules


def _outcome(result: Result) -> str:
    if result.winner:
        return say("report.winner", player=result.winner)
    return say("report.never-ends" if result.never_ends else "report.in-progress")


def check(record: Record, play_out: bool = False, found: Found | None = None) -> GameReport:
    """Replay one record and say what it holds; its violations go to ``found`` when given
    (the report then holds those it kept)."""
    game = record.tag("Game", "") or ""
    try:
        rules = start(record)
    except SetupError as error:
        return error_report(_setup_error(record, error), game)
    if found is not None:
        rules.violations = found
    replay(rules, record)
    if play_out:
        rules.play_out()
    if _result_tag(record):
        rules.conclude()
    result = rules.result()
    _check_result_tag(rules, record, result)
    if rules.violations:
        status = "violations"
    elif result.never_ends:
        status = "never-ends"
    elif not result.finished:
        status = "in-progress"
    else:
        status = "valid"
    return GameReport(
        record.path, record.line, rules.name, list(rules.players), status,
        sorted(rules.violations, key=lambda v: (v.line, v.column)), result,
        rules.tallies(), rules.stats(), [] if result.never_ends else rules.todo(), rules.notes,
        {h.tag: h.value for h in record.headers}, omitted=found.omitted() if found is not None else {},
    )


def _result_tag(record: Record) -> str:
    """The outcome a ``Result`` header gives; empty when it gives none (absent, empty,
    or ``*``: unknown or unfinished, as in PGN)."""
    written = (record.tag("Result") or "").strip()
    return "" if written == "*" else written


def _check_result_tag(rules: Rules, record: Record, result: Result) -> None:
    written = _result_tag(record)
    if written and written != result.winner:
        header = record.header("Result")
        message = say("REC-RESULT-MISMATCH", written=written, actual=_outcome(result))
        rule = rules.RULES.get(rules.CODES.get("REC-RESULT-MISMATCH", ""), "")
        rules.violations.append(Violation("REC-RESULT-MISMATCH", message, rule, None, header.line, header.column))
