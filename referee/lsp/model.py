"""A record open in an editor: its games, each read and refereed on its own, and kept
until its text changes.

On every change the text is cut into games without being parsed (notation.game_starts);
a game whose text and first line are those of a game already read is not read again. A
game is replayed by the engine, as ``check`` replays it, and a copy of its rules is
kept every SNAPSHOT_EVERY events (where the game's rules can be copied): a change
replays the game from the last copy before the first event it changed. The matches of
the file (the hands that share a ``[Match]`` header) are followed in file order, as
``check`` follows them; the configuration's default options are given to each game.

A change that adds or removes lines moves the games after it: those are not read again,
their lines are numbered anew; they are refereed again, since what referee says of them
names their lines."""

from __future__ import annotations

import copy
import io
import pickle
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..config import Config, Resolved, add_defaults, resolve
from ..engine import Found, GameReport, error_report, finish, replay, start
from ..games.base import Rules, SetupError
from ..match import Matches, follow_match
from ..messages import say
from ..notation import RecordError, game_starts, read_games
from ..record import Event, Record

SNAPSHOT_EVERY = 100
"""Events between two copies of a game's rules kept to replay from."""
SNAPSHOT_VIOLATIONS = 500
"""No copy is kept once a game holds more violations than this: each copy holds them all,
so that copies of a game flagged on every line grew as the square of its length (211 MB
for a record of 266 kB); an edit after that point replays from the last copy before it."""
_CONTENT = re.compile(r"^[^\S\n]*+[^\s;]", re.MULTILINE)
"""A line that is neither blank nor only a comment."""
_MATCH = re.compile(r'^[^\S\n]*+\[[^\S\n]*+match[^\S\n]++"([^"\n]*)"', re.MULTILINE | re.IGNORECASE)
"""A ``[Match]`` header (its value as the reader reads it, but for escapes)."""

_NUMBER = re.compile(r"\d+")
Fork = Callable[[], Rules]


@dataclass
class Game:
    """One game's lines as the document holds them, and what the reader made of them."""

    start: int
    """Its first line in the document (the comments before its headers included)."""
    end: int
    """Its last line."""
    text: str
    items: list[Record | RecordError]
    """A game, or a game that cannot be read (usually one item)."""

    @property
    def record(self) -> Record | None:
        return next((item for item in self.items if isinstance(item, Record)), None)


@dataclass
class Checked:
    """A game refereed: its report (before its match adds to it), and copies of its rules
    after some of its events, by how many events were replayed."""

    record: Record
    report: GameReport
    inherited: tuple[tuple[str, str, int], ...] = ()
    """The headers it took from its match and the configuration, as (tag, value, line)."""
    snapshots: list[tuple[int, Fork]] = field(default_factory=list)


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


def fork_of(rules: Rules) -> Fork | None:
    """A way to get copies of the rules as they stand now: pickled once (its setup, and the
    record in it, shared), unpickled for each copy; deep-copied where they cannot be
    pickled; None when they cannot be copied at all."""
    found = rules.violations
    source_of = getattr(found, "source_of", None)
    if source_of is not None:
        found.source_of = None  # type: ignore[attr-defined]  # a lambda: not to be pickled
    try:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = lambda obj: 0 if obj is rules.setup else None  # type: ignore[method-assign]
        try:
            pickler.dump(rules)
        except (pickle.PicklingError, AttributeError, TypeError):
            try:
                kept = copy.deepcopy(rules, {id(rules.setup): rules.setup})
            except (copy.Error, TypeError, AttributeError, RecursionError):
                return None
            return lambda: copy.deepcopy(kept, {id(kept.setup): kept.setup})
        data, setup = buffer.getvalue(), rules.setup

        def load() -> Rules:
            unpickler = pickle.Unpickler(io.BytesIO(data))
            unpickler.persistent_load = lambda _: setup  # type: ignore[method-assign]
            loaded: Rules = unpickler.load()
            return loaded

        return load
    finally:
        if source_of is not None:
            found.source_of = source_of  # type: ignore[attr-defined]


def _shift(item: Record | RecordError, by: int, in_place: bool = False) -> Record | RecordError:
    """A game read, its lines ``by`` lines further on (a copy: the game read is kept as it
    was; ``in_place``: its events are moved themselves, for a game read that nothing else
    uses: a hundred thousand events moved in milliseconds rather than half a second);
    its inherited headers are given again by the next refereeing."""
    from collections import deque

    from ..record import Batch

    def error(e: RecordError) -> RecordError:
        return e.replace(line=e.line + by) if e.line else e

    if isinstance(item, RecordError):
        return error(item)
    if in_place:
        for event in item.events:
            event.line += by
        events = item.events
    else:
        events = [Event(e.player, e.verb, e.line + by, e.column, e.cards, e.cards_text, e.cards_column, e.target,
                        e.word, e.move, e.time, e.comment, e.suit) for e in item.events]  # not replace(): 3 times faster
    moved = Record(item.path, item.line + by, [h.replace(line=h.line + by) for h in item.headers], events,
                   [c.replace(line=c.line + by) for c in item.comments], item.text, item.text_line + by)
    moved.errors, moved.error_count = [error(e) for e in item.errors], item.error_count
    moved.french = item.french
    moved.seen = deque(Batch(b.start + by, b.text, [], [], []) for b in item.seen)
    return moved


def _whole(record: Record) -> None:
    """Take every event of a game read lazily, its unreadable lines counted as ``check``
    counts them, and keep its lines (for the state and explain)."""
    from collections import deque

    record.seen = deque()
    events, comments = list(record.events), list(record.comments)
    for batch in record.each_batch():
        events += batch.events
        comments += batch.comments
    record.events, record.comments, record.batches = events, comments, None


def _relative(inherited: tuple[tuple[str, str, int], ...], line: int) -> tuple[tuple[str, str, int], ...]:
    return tuple((tag, value, at - line) for tag, value, at in inherited)


def _shifted(report: GameReport, by: int, lines: range) -> GameReport | None:
    """A copy of a game's report with every line ``by`` lines further on (``lines``: the
    game's, before); None where a
    violation's line cannot be set on a copy (a build where Violation is compiled, its
    fields final), or where a message may name a line of the game: the game is then
    replayed."""
    if by == 0:
        return report
    words = [v.message for v in report.violations] + list(report.notes)
    if any(int(number) in lines for text in words for number in _NUMBER.findall(text)):
        return None  # what is said may name a line of the game (« the slap of line 12 »): replayed, said anew
    moved = copy.copy(report)
    try:
        violations = []
        for violation in report.violations:
            shifted = copy.copy(violation)
            object.__setattr__(shifted, "line", violation.line + by)
            violations.append(shifted)
    except (AttributeError, TypeError):
        return None
    moved.violations = violations
    moved.line = report.line + by
    moved.errors = [e.replace(line=e.line + by) if e.line else e for e in report.errors]
    if report.error is not None and report.error.line:
        moved.error = report.error.replace(line=report.error.line + by)
    moved.sources = {line + by: text for line, text in report.sources.items()}
    return moved


def _inherited(record: Record) -> tuple[tuple[str, str, int], ...]:
    return tuple((h.tag, h.value, h.line) for h in record.inherited)


class Document:
    """A record open in the editor; ``update`` it with its whole text after each change."""

    def __init__(self, path: str, config: Config = Config(), settings: Resolved | None = None):
        self.path = path
        self.config = config
        self.settings = settings if settings is not None else resolve(config, path)
        """What the configuration says for this file, as for ``check`` and ``fmt`` (its
        ``per-file-ignores``, its ``[fmt] exclude``), the editor's settings given to
        ``config.resolve`` as the command line's flags are."""
        self.games: list[Game] = []
        self.reports: list[tuple[Game, Record | RecordError, GameReport]] = []
        """Each game's report, its match's faults and standing included, in file order."""
        self.lines: list[str] = []
        self.counts: Counter[str] = Counter()
        """``games read``, ``games moved`` (numbered anew, not read), ``reports moved``
        (numbered anew, not replayed) and ``events replayed`` since the document was opened."""
        self.memo: dict[str, object] = {}
        """What the features worked out from this text (the formatted record), until it changes."""
        self._read: dict[tuple[int, str, tuple[str | None, bool | None] | None], Game] = {}
        self._checked: dict[tuple[int, str, int, tuple[tuple[str, str, int], ...]], Checked] = {}
        self._by_start: dict[int, Checked] = {}
        self._checked_by_text: dict[tuple[object, ...], Checked] | None = None
        """The games refereed before, by their text (made when a game is not found in place)."""
        self._by_text: dict[tuple[str, tuple[str | None, bool | None] | None], Game] | None = None
        """The games read before, by their text (made when a game is not found in place)."""

    # --- Reading -----------------------------------------------------------------------

    def update(self, text: str) -> None:
        """Take the document's new text: read the games that changed, referee them again."""
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text and not text.endswith("\n"):
            text += "\n"
        self.lines = text.split("\n")[:-1]
        self.memo = {}
        self._by_text = None
        self._in_place: set[int] = set()
        """The games read before and found in place in this text (their events are not moved)."""
        self._shared: set[tuple[str, tuple[str | None, bool | None] | None]] = set()
        """The texts of games read before at several places."""
        self._moved_away: set[int] = set()
        """The games read before whose events were moved to another place in this text."""
        starts = sorted({1, *game_starts(text)}) if text else []
        games, read = [], {}
        match_games: dict[str, str] = {}
        match_french: dict[str, bool] = {}
        for n, first in enumerate(starts):
            last = starts[n + 1] - 1 if n + 1 < len(starts) else len(self.lines) + 1  # the last: the line after the text too
            chunk = "".join(line + "\n" for line in self.lines[first - 1:last])
            if not _CONTENT.search(chunk):
                continue
            match = _MATCH.search(chunk)
            # the game its match plays and its notation, when it names neither
            plays = (match_games.get(match.group(1)), match_french.get(match.group(1))) if match else None
            key = (first, chunk, plays)
            kept = self._read.get(key)
            if kept is not None and id(kept) in self._moved_away:  # its events were moved to another place
                kept = None
            if kept is not None:
                self._in_place.add(id(kept))
            game = (kept or self._moved(first, chunk, plays)
                    or Game(first, last, chunk, self._parse(first, chunk, match_games, match_french)))
            game.end = last  # the same lines may now end before the line after the text
            read[key] = game
            games.append(game)
            for record in game.items:
                if isinstance(record, Record):
                    follow_match(record, match_games, match_french)
        self._read, self.games = read, games
        self._referee()

    def _moved(self, first: int, chunk: str, plays: tuple[str | None, bool | None] | None) -> Game | None:
        """A game read before whose lines moved (lines were added or removed above it): the
        same game, its lines numbered anew, without reading it again."""
        if self._by_text is None:
            self._by_text, self._shared = {}, set()
            for (_, text, game), g in self._read.items():
                if (text, game) in self._by_text:
                    self._shared.add((text, game))
                self._by_text[text, game] = g
        key = (chunk, plays)
        shared = key in self._shared  # the same text at several places: copied for each
        old = self._by_text.get(key) if shared else self._by_text.pop(key, None)  # else moved once
        if old is None:
            return None
        self.counts["games moved"] += 1
        by = first - old.start
        in_place = not shared and id(old) not in self._in_place  # not the game read of another place of this text
        if in_place:
            self._moved_away.add(id(old))
        return Game(first, old.end + by, chunk, [_shift(item, by, in_place) for item in old.items])

    def _parse(self, first: int, chunk: str, match_games: dict[str, str],
               match_french: dict[str, bool]) -> list[Record | RecordError]:
        """The games of a stretch of lines that starts at line ``first`` (one, usually)."""
        self.counts["games read"] += 1
        data = chunk.encode("utf-8", "surrogatepass")  # a lone surrogate: a byte that cannot be read
        items: list[Record | RecordError] = []
        for item in read_games(self.path, io.BytesIO(data), lazy=True, match_games=match_games, first_line=first,
                               match_french=match_french):
            if isinstance(item, Record):
                _whole(item)
            items.append(item)
        return items

    # --- Refereeing --------------------------------------------------------------------

    def _referee(self) -> None:
        """Referee every game in file order, as ``check`` does; a game refereed already
        (same text, same place, same inherited headers) is not replayed."""
        matches = Matches()
        reports: list[tuple[Game, Record | RecordError, GameReport]] = []
        checked: dict[tuple[int, str, int, tuple[tuple[str, str, int], ...]], Checked] = {}
        by_start: dict[int, Checked] = {}
        for game in self.games:
            for item in game.items:
                if isinstance(item, RecordError):
                    reports.append((game, item, error_report(item)))
                    continue
                item.inherited = []
                matches.prepare(item)
                if self.settings.games:
                    add_defaults(item, self.settings.games)
                key = (game.start, game.text, item.line, _inherited(item))
                done = (self._checked.get(key) or self._moved_check(game, item)
                        or self._check(item, self._by_start.get(item.line)))
                checked[key] = by_start[item.line] = done
                report = copy.copy(done.report)
                matches.settle(item, report)
                reports.append((game, item, report))
        self._checked, self._by_start, self.reports = checked, by_start, reports
        self._checked_by_text = None

    def _moved_check(self, game: Game, record: Record) -> Checked | None:
        """A game refereed before whose lines moved (lines added or removed above it),
        the same text and the same inherited headers: its report, its lines numbered
        anew, without replaying it (``reports moved`` counts it). Its copies of the rules
        are dropped (they name the old lines): a change in it later replays it whole."""
        if self._checked_by_text is None:
            self._checked_by_text = {(key[1], key[2] - key[0], _relative(checked.inherited, checked.record.line)): checked
                                     for key, checked in self._checked.items()}
        old = self._checked_by_text.get((game.text, record.line - game.start,
                                         _relative(_inherited(record), record.line)))
        if old is None:
            return None
        span = game.text.count("\n") + max([0, *(v.line - old.record.line for v in old.report.violations)])
        report = _shifted(old.report, record.line - old.record.line, range(old.record.line - 1, old.record.line + span + 1))
        if report is None:
            return None
        self.counts["reports moved"] += 1
        return Checked(record, report, _inherited(record))

    def _check(self, record: Record, before: Checked | None) -> Checked:
        """Referee one game, from the last copy of its rules that the change left valid;
        its cards named in the record's notation, as check names them."""
        from ..cards import cards_named_in

        with cards_named_in(record.french):
            return self._check_named(record, before)

    def _check_named(self, record: Record, before: Checked | None) -> Checked:
        resumed = self._resume(record, before)
        if resumed is not None:
            done, fork = resumed
            rules = fork()
            snapshots = [s for s in before.snapshots if s[0] <= done] if before else []
        else:
            try:
                rules = start(record)
            except SetupError:
                from ..engine import check

                return Checked(record, check(record), _inherited(record))
            rules.violations = Found()  # as check keeps them
            done, snapshots = 0, []
        found = rules.violations
        found.source_of = lambda line: record.sources((line,)).get(line)  # type: ignore[attr-defined]
        events = record.events
        while done < len(events):
            upto = min(len(events), (done // SNAPSHOT_EVERY + 1) * SNAPSHOT_EVERY)
            replay(rules, record.replace(events=events[done:upto]))
            self.counts["events replayed"] += upto - done
            done = upto
            kept = fork_of(rules) if len(found) <= SNAPSHOT_VIOLATIONS else None
            if kept is not None:
                snapshots.append((done, kept))
        return Checked(record, finish(rules, record), _inherited(record), snapshots)

    @staticmethod
    def _resume(record: Record, before: Checked | None) -> tuple[int, Fork] | None:
        """The last copy of the rules that holds for this game's new text: its headers
        unchanged, and the events it replayed too."""
        if before is None or not before.snapshots or before.record.headers != record.headers:
            return None
        if before.inherited != _inherited(record):
            return None
        old, new = before.record.events, record.events
        same = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        usable = [s for s in before.snapshots if s[0] <= same]
        return usable[-1] if usable else None

    # --- What the features ask ----------------------------------------------------------

    def problems(self) -> list[Problem]:
        """What to show in the editor: the violations the configuration selects (those the
        table accepted as hints), the lines that cannot be read, the notes."""
        found: list[Problem] = []
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
                if self.settings.chosen(v.code):
                    found.append(Problem(v.line, v.column, v.message, "hint" if v.accepted else "error", v.code, v.rule, v.player))
            for note in report.notes:
                found.append(Problem(item.line, 1, note, "information"))
        return found

    def game_at(self, line: int) -> tuple[Game, Record | RecordError, GameReport] | None:
        """The game that holds a line, and its report."""
        for game, item, report in self.reports:
            if game.start <= line <= game.end:
                return game, item, report
        return None

    def record_at(self, line: int) -> Record | None:
        found = self.game_at(line)
        return found[1] if found is not None and isinstance(found[1], Record) else None

    def rules_before(self, line: int, record: Record | None = None) -> Rules | None:
        """The rules of the game that holds a line (or of ``record``), with every event
        before it replayed (from the last copy kept before it); None outside a game that
        can be set up."""
        record = record if record is not None else self.record_at(line)
        if record is None:
            return None
        checked = self._by_start.get(record.line)
        events = [e for e in record.events if e.line < line]
        usable = [s for s in (checked.snapshots if checked else []) if s[0] <= len(events)]
        if usable:
            done, fork = usable[-1]
            rules = fork()
        else:
            try:
                rules = start(record)
            except SetupError:
                return None
            rules.violations, done = Found(), 0  # as check keeps them
        replay(rules, record.replace(events=events[done:]))
        self.counts["events replayed"] += len(events) - done
        return rules

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 1 <= number <= len(self.lines) else ""
