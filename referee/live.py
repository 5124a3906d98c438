"""The live record: one record held open while people change it, by ``referee play``
(referee/cli/play.py), the table page (referee/serve/table.py) and the editor
(referee/lsp/model.py).

A ``Session`` binds a record's path for as long as a face holds it: it holds the
record's writing lock (referee/files/lock.py), opens the file once
(referee/files/record_file.py) and writes every line through that descriptor, never
through the file's name again (docs/files.md). Its ``Replayer`` reads and referees only
what changed since the last text (the editor's document is a Replayer fed the editor's
text): the games around the change, the lines of a game that changed, its events from
the last checkpoint before the change. The session rules each line as it comes, appends
a line with a flush and a sync, and undoes the last line written in the session by
cutting the file back to where it began. Before a write it checks that the name still
leads to the file and the bytes it read (``follow``: an editor's save is followed,
never written over blind)."""

from __future__ import annotations

import bisect
import copy
import copyreg
import dataclasses
import io
import itertools
import os
import pickle
import re
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .cards import SUITS, cards_named_in
from .config import Resolved, add_defaults
from .engine import Found, GameReport, error_report, finish, replay, start
from .games import find_game, load_rules
from .games.base import Rules, SetupError, Violation, legal_events
from .convert.importer import looks_json
from .match import Matches, follow_match
from .messages import language, say
from .notation import VERBS, RecordError, game_starts, parse_text, read_games
from .record import ERRORS_KEPT, Batch, Event, Record
from .text.french import FRENCH_TAGS
from .files.lock import RecordLock
from .files.record_file import FileRefused, RecordFile
from .spelling import ENGLISH
from .state import State, replayed_at, state_from
from .reports.writer import selected

COMMANDS = ("undo", "state", "legal", "help", "end")
FRENCH_COMMANDS = {"annuler": "undo", "état": "state", "etat": "state", "permis": "legal", "aide": "help", "fin": "end"}
"""The commands by their French names (``fin`` is ``end``): taken in either language."""
NOT_REPLAYED = frozenset({"REC-UNKNOWN-PLAYER", "REC-UNSUPPORTED-EVENT", "REC-NOT-IN-DECK", "REC-AFTER-END"})
"""Codes whose line the replay leaves out: writing it would record nothing."""

Ask = Callable[[str, "list[str] | Vocabulary"], str]
"""Asks a question (the prompt, and the answers to complete: a list of choices, or the
vocabulary of an event line) and returns the answer; EOFError at the end of the input."""


@dataclass
class Vocabulary:
    """The words of an event line, for completion: who, what, with which cards."""

    players: list[str]
    verbs: list[str]
    cards: list[str]
    targets: list[str] = field(default_factory=lambda: list(ENGLISH.targets))
    """The words before a player (``on``, ``to``... or ``sur``, ``à``...), in the record's notation."""
    for_word: str = ENGLISH.for_word
    suits: list[str] = field(default_factory=lambda: [ENGLISH.suit(s) for s in SUITS])
    """The suits as announced after ``for_word``."""

    def next(self, previous: list[str]) -> list[str]:
        """The words that may come after those already typed."""
        if not previous:
            return [*self.players, *self.verbs, *(FRENCH_COMMANDS if self.for_word != "for" else COMMANDS)]
        last = previous[-1]
        if last in self.targets:
            return self.players
        if last == self.for_word:
            return self.suits
        if len(previous) == 1 and last in self.players:
            return self.verbs
        return [*self.cards, *self.targets[:2], self.for_word]


SNAPSHOT_EVERY = 100
"""Events between two checkpoints of a game (copies of its rules kept to replay from)."""
_CONTENT = re.compile(r"^[^\S\n]*+[^\s;]", re.MULTILINE)
"""A line that is neither blank nor only a comment."""
_MATCH = re.compile(r'^[^\S\n]*+\[[^\S\n]*+(?:' + "|".join(re.escape(t) for t in ["match", *FRENCH_TAGS.get("Match", ())])
                    + r')[^\S\n]++"([^"\n]*)"', re.MULTILINE | re.IGNORECASE)
"""A ``[Match]`` header, in English or in French (its value as the reader reads it, but for escapes)."""
_NUMBER = re.compile(r"\d+")
Fork = Callable[[], Rules]
Plays = tuple[str | None, bool | None] | None
"""The game and notation a hand's match gives it (None: it is in no match)."""
CheckedKey = tuple[int, str, int, tuple[tuple[str, str, int], ...], Plays]
"""A game refereed: its first line, its text, its record's line, its inherited headers,
what its match gave the reader (the same text reads otherwise in a French match)."""
Chunk = tuple[str, bool, str | None]
"""A game's lines as text, whether they hold anything but comments, the match they name."""
BLOCK = 1 << 16


@dataclass
class Game:
    """One game's lines as the record holds them, and what the reader made of them."""

    start: int
    """Its first line in the record (the comments before its headers included)."""
    end: int
    """Its last line."""
    text: str
    items: list[Record | RecordError]
    """A game, or a game that cannot be read (usually one item)."""
    plays: Plays = None
    """The game and notation its match gave the reader (None: it names no match)."""

    @property
    def record(self) -> Record | None:
        return next((item for item in self.items if isinstance(item, Record)), None)


def _shared(index: int) -> object:
    """Where a checkpoint holds its rules' setup (0) and violations (1): given on loading."""
    raise pickle.UnpicklingError("a checkpoint is loaded by Checkpoint.rules")


class _Unpickler(pickle.Unpickler):
    """Loads a checkpoint, giving it the setup and the violations it left out."""

    def __init__(self, data: io.BytesIO, shared: tuple[object, object]) -> None:
        super().__init__(data)
        self.shared = shared

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "_shared"):
            return self.shared.__getitem__
        return super().find_class(module, name)


_STAND_INS = (object(), object())
"""What two checkpoints' setup and violations are loaded as to be compared (``alike``)."""
_VALUES = (str, bytes, int, float, complex, bool, type(None), frozenset, set)


def alike(a: object, b: object, seen: set[tuple[int, int]]) -> bool:
    """Whether two states are equal value for value: sets as sets, whatever order their
    tables hold them in; objects by what they pickle, whatever they share. A state
    unpickled (a run resumed from a checkpoint) may pickle in other bytes than the one it
    was made from: a set iterates otherwise, a string once shared is now two."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, _VALUES):
        return a == b
    if (id(a), id(b)) in seen:  # met again along a cycle: as alike as the rest says
        return True
    seen.add((id(a), id(b)))
    if isinstance(a, (list, tuple)):
        return len(a) == len(cast(list[object], b)) and all(alike(x, y, seen) for x, y in zip(a, cast(list[object], b)))
    if isinstance(a, dict):
        other = cast(dict[object, object], b)
        return a.keys() == other.keys() and all(alike(a[k], other[k], seen) for k in a)
    first, second = a.__reduce_ex__(pickle.HIGHEST_PROTOCOL), b.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    if isinstance(first, str):  # a global (a built-in), pickled by its name, and not ``b``: another
        return False
    return len(first) == len(second) and all(  # iterators (a list's or a dict's items) taken whole
        alike(list(x) if isinstance(x, Iterator) else x, list(y) if isinstance(y, Iterator) else y, seen)
        for x, y in zip(first, second))


@dataclass
class Checkpoint:
    """A game's rules after its first ``done`` events, pickled without their setup and
    their violations (``Found``): those the run had flagged by then are the first
    ``kept`` of ``found``'s, which the run goes on appending to (a checkpoint costs the
    game's state, not its violations, and two runs' states can be compared byte for byte)."""

    done: int
    data: bytes
    found: Found
    kept: int
    count: int
    open: int
    seen: dict[str, int]
    accepted: frozenset[tuple[int, str]]
    sources: int
    stray: tuple[Event, int] | None = None
    """A card outside the deck laid by the last event replayed, still waiting to see whether
    the table lets it stand (engine.replay's ``held``): not the rules' state, kept beside it."""

    @staticmethod
    def of(rules: Rules, done: int, held: Sequence[tuple[Event, int]] = ()) -> Checkpoint | None:
        """The rules as they stand (their violations a Found), and the card ``held`` waiting;
        None when they cannot be pickled."""
        found = rules.violations
        assert isinstance(found, Found)
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
        setup = rules.setup

        def shared(index: int, kept: object) -> Callable[[Any], Any]:  # by type, looked up in C: no call per object
            return lambda obj: (_shared, (index,)) if obj is kept else obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)

        pickler.dispatch_table = {**copyreg.dispatch_table, type(setup): shared(0, setup), type(found): shared(1, found)}
        try:
            pickler.dump(rules)
        except (pickle.PicklingError, AttributeError, TypeError):
            return None
        return Checkpoint(done, buffer.getvalue(), found, len(found.kept), found.count, found.open, dict(found.seen),
                          frozenset(found.accepted), len(found.sources), held[-1] if held else None)

    def held(self) -> list[tuple[Event, int]]:
        """What to give engine.replay to go on from here (the card waiting, if any)."""
        return [self.stray] if self.stray is not None else []

    def same(self, other: Checkpoint) -> bool:
        """Whether two runs stand alike here: the same state, the same card waiting. Byte for
        byte, else with their sets' items in order: a set unpickled (a run resumed from a
        checkpoint) may iterate in another order than the one it was made from."""
        if self.stray != other.stray:
            return False
        if self.data == other.data:
            return True
        try:
            mine, theirs = (_Unpickler(io.BytesIO(c.data), _STAND_INS).load() for c in (self, other))
            return alike(mine, theirs, set())
        except (pickle.PickleError, AttributeError, TypeError, RecursionError):  # not met: the run goes on
            return False

    def rules(self, setup: object, found: Found | None = None) -> Rules:
        """A copy of the rules as they stood, with ``found`` (else the violations of then)."""
        found = found if found is not None else self.violations()
        loaded: Rules = _Unpickler(io.BytesIO(self.data), (setup, found)).load()
        return loaded

    def violations(self) -> Found:
        """The violations flagged by then, as a Found of their own."""
        found = Found()
        found.kept, found.count, found.open = self.found.kept[:self.kept], self.count, self.open
        found.seen, found.accepted = dict(self.seen), set(self.accepted)
        found.sources = dict(itertools.islice(self.found.sources.items(), self.sources))
        return found

    def rebased(self, base: Checkpoint, found: Found, at: Found, shift: int) -> Checkpoint:
        """This checkpoint of an old run, taken over by a new run that reached ``base``'s
        state with ``at`` flagged (its violations ``found``, where the old run's after
        ``base`` are appended): ``shift`` events fewer before it."""
        seen = dict(at.seen)
        for code, n in self.seen.items():
            if n - base.seen.get(code, 0):
                seen[code] = seen.get(code, 0) + n - base.seen.get(code, 0)
        return Checkpoint(self.done - shift, self.data, found, len(at.kept) + self.kept - base.kept,
                          at.count + self.count - base.count, at.open + self.open - base.open, seen,
                          frozenset(at.accepted | (self.accepted - base.accepted)), len(found.sources), self.stray)


@dataclass
class Checked:
    """A game refereed: its report (before its match adds to it), its checkpoints, and
    its rules after its last event (to take over where a new run meets an old one)."""

    record: Record
    report: GameReport
    inherited: tuple[tuple[str, str, int], ...] = ()
    """The headers it took from its match and the configuration, as (tag, value, line)."""
    snapshots: list[Checkpoint] = field(default_factory=list)
    end: Checkpoint | None = None
    setup: object = None
    """The rules' setup (shared by every copy: the headers it is made from are the same)."""


def fork_of(rules: Rules) -> Fork | None:
    """A way to get copies of the rules as they stand now, their violations included:
    pickled once (its setup, and the record in it, shared), unpickled for each copy;
    deep-copied where they cannot be pickled; None when they cannot be copied at all."""
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


def _moved_event(e: Event, by: int) -> Event:
    return Event(e.player, e.verb, e.line + by, e.column, e.cards, e.cards_text, e.cards_column, e.target,
                 e.word, e.move, e.time, e.comment, e.suit)  # not replace(): 3 times faster


def _shift(item: Record | RecordError, by: int, in_place: bool = False) -> Record | RecordError:
    """A game read, its lines ``by`` lines further on (a copy: the game read is kept as it
    was; ``in_place``: its events are moved themselves, for a game read that nothing else
    uses: a hundred thousand events moved in milliseconds rather than half a second);
    its inherited headers are given again by the next refereeing."""
    def error(e: RecordError) -> RecordError:
        return e.replace(line=e.line + by) if e.line else e

    if isinstance(item, RecordError):
        return error(item)
    if in_place:
        for event in item.events:
            event.line += by
        events = item.events
    else:
        events = [_moved_event(e, by) for e in item.events]
    moved = Record(item.path, item.line + by, [h.replace(line=h.line + by) for h in item.headers], events,
                   [c.replace(line=c.line + by) for c in item.comments], item.text, item.text_line + by)
    moved.errors, moved.error_count = [error(e) for e in item.errors], item.error_count
    moved.french = item.french
    moved.seen = deque(Batch(b.start + by, b.text, [], [], []) for b in item.seen)
    return moved


def _whole(record: Record) -> None:
    """Take every event of a game read lazily, its unreadable lines counted as ``check``
    counts them, and keep its lines (for the state and explain)."""
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
    game's, before); None where a violation's line cannot be set on a copy (a build where
    Violation is compiled, its fields final), or where a message may name a line of the
    game: the game is then replayed."""
    if by == 0:
        return report
    words = [v.message for v in report.violations] + list(report.notes) + [e.message for e in report.errors]
    if report.error is not None:
        words.append(report.error.message)
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


def _common(old: Sequence[object], new: Sequence[object]) -> tuple[int, int]:
    """How many items two sequences share at their start, and then at their end (the
    same object, or equal: events kept from the text before are the same objects)."""
    limit = min(len(old), len(new))
    head = next((i for i in range(limit) if old[i] is not new[i] and old[i] != new[i]), limit)
    tail = next((i for i in range(1, limit - head + 1) if old[-i] is not new[-i] and old[-i] != new[-i]), limit - head + 1) - 1
    return head, tail


def _lines_before(text: str, at: int, lines: int) -> int:
    """How many lines of ``text`` (``lines`` of them, each ending in LF) end before ``at``:
    counted from the nearer end (counting is slow on a text that is not all ASCII)."""
    return text.count("\n", 0, at) if at < len(text) // 2 else lines - text.count("\n", at)


def _same_start(old: str, new: str) -> int:
    """How many characters two texts share at their start (compared a block at a time)."""
    limit, at = min(len(old), len(new)), 0
    while at < limit and old[at:at + BLOCK] == new[at:at + BLOCK]:
        at += BLOCK
    at = min(at, limit)
    low, high = at, min(at + BLOCK, limit)  # the first difference is in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _same_end(old: str, new: str, limit: int) -> int:
    """How many characters two texts share at their end, at most ``limit``."""
    at = 0
    while at < limit and old[len(old) - min(at + BLOCK, limit):len(old) - at] == new[len(new) - min(at + BLOCK, limit):len(new) - at]:
        at = min(at + BLOCK, limit)
    low, high = at, min(at + BLOCK, limit)
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle:len(old) - low] == new[len(new) - middle:len(new) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_events(old: list[Event], new: list[Event]) -> tuple[int, int]:
    """``_common`` for events, their lines compared first (events that moved differ)."""
    limit = min(len(old), len(new))
    head = next((i for i in range(limit) if old[i] is not new[i] and (old[i].line != new[i].line or old[i] != new[i])), limit)
    tail = next((i for i in range(1, limit - head + 1)
                 if old[-i] is not new[-i] and (old[-i].line != new[-i].line or old[-i] != new[-i])), limit - head + 1) - 1
    return head, tail


class Replayer:
    """A record held open while it changes (``play``, the table page, the editor): its
    games, each read and refereed on its own and kept until its text changes.

    On every change the text is cut into games without being parsed
    (``notation.game_starts``); a game whose text and first line are those of a game
    already read is neither read nor replayed again, and a game that only moved (lines
    added or removed above it) is numbered anew, not read (nor replayed, when what is said
    of it names no line of it). Within a game that changed, only the lines that changed are
    read again (when the game's head did not change), and the game is replayed from its
    last checkpoint before the first event that changed (a copy of its rules every
    SNAPSHOT_EVERY events); where the new run's state meets the old run's again after the
    change (the same state before the same events), the old run's end is taken over, its
    violations after that point included. The answers are those of replaying the whole
    text as ``check`` does: the matches followed in file order, the configuration's
    default options given to each game."""

    def __init__(self, path: str, settings: Resolved | None = None) -> None:
        self.path = path
        self.settings = settings
        """What the configuration says for this file (``config.resolve``): its games' default options."""
        self.games: list[Game] = []
        self.reports: list[tuple[Game, Record | RecordError, GameReport]] = []
        """Each game's report, its match's faults and standing included, in file order."""
        self.lines: list[str] = []
        self.counts: Counter[str] = Counter()
        """``games read``, ``games moved`` (numbered anew, not read), ``lines read`` (of a
        game that changed, only its lines that changed), ``reports moved`` (numbered anew,
        not replayed), ``events replayed`` and ``runs met`` (a replay that met the old run
        after a change and took over its end) since the record was opened."""
        self._read: dict[tuple[int, str, Plays], Game] = {}
        self._checked: dict[CheckedKey, Checked] = {}
        self._checked_before: dict[CheckedKey, Checked] = {}
        """The games refereed for the text before the last (an edit, then its undo: the game
        as it was is taken back whole, not replayed from the edit to its end)."""
        self._by_start: dict[int, Checked] = {}
        self._checked_by_text: dict[tuple[object, ...], Checked] | None = None
        """The games refereed before, by their text (made when a game is not found in place)."""
        self._by_text: dict[tuple[str, Plays], list[Game]] | None = None
        """The games read before, by their text (made when a game is not found in place)."""
        self._latest: dict[tuple[str, Plays], Game] = {}
        """For each text, a game of it whose lines are right (to copy from)."""
        self._games_at: dict[int, tuple[Game, Plays]] = {}
        """The games read before, by their first line (a game changed in place is read in part)."""
        self._ahead: tuple[tuple[list[int], int], Matches, list[tuple[Game, Record | RecordError, GameReport]],
                           dict[CheckedKey, Checked], dict[int, Checked]] | None = None
        """The games before the last as last refereed (which games, with which settings), and
        what they left: the matches' standing, their reports (a line typed at the end referees one game)."""
        self._cut_ahead: tuple[int, list[Game], dict[tuple[int, str, Plays], Game], dict[int, tuple[Game, Plays]],
                               dict[str, str], dict[str, bool], list[int]] | None = None
        """Where the games before the last but one stood in the last text: their number,
        the games, what the matches had told the reader after them (a line typed at the
        end goes over two games, not every game)."""
        self._text = ""
        self._starts: list[int] = []
        self._chunks: list[Chunk] = []
        """The text last taken, and where it was cut into games (``_recut``)."""

    def last(self, text: str) -> tuple[Record | RecordError, GameReport]:
        """The last game of ``text`` and its report (``text`` holds at least a game)."""
        self.update(text)
        if not self.reports:
            error = RecordError(self.path, 1, 1, say("file.empty"))
            return error, error_report(error)
        _, item, report = self.reports[-1]
        return item, report

    # --- Reading -----------------------------------------------------------------------

    def update(self, text: str) -> None:
        """Take the record's new text: read the games that changed, referee them again."""
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text and not text.endswith("\n"):
            text += "\n"
        cut = self._recut(self._text, text) if self._text and text else None
        if cut is None:
            self.lines = text.split("\n")[:-1]
            starts = sorted({1, *game_starts(text)}) if text else []
            chunks = [self._chunk(first, starts[n + 1] - 1 if n + 1 < len(starts) else len(self.lines) + 1)
                      for n, first in enumerate(starts)]
            low = 0
        else:
            self.lines, starts, chunks, low = cut
        self._text, self._starts, self._chunks = text, starts, chunks
        self._by_text = None
        self._in_place: set[int] = set()
        """The games read before and found in place in this text (their events are not moved)."""
        self._moved_away: set[int] = set()
        """The games read before whose events were moved to another place in this text."""
        games: list[Game] = []
        read: dict[tuple[int, str, Plays], Game] = {}
        at: dict[int, tuple[Game, Plays]] = {}
        match_games: dict[str, str] = {}
        match_french: dict[str, bool] = {}
        begin = 0
        if self._cut_ahead is not None and self._cut_ahead[0] <= low:  # the games before the change: as they were
            begin, games, read, at, match_games, match_french = self._cut_ahead[:6]
            games, read, at, match_games, match_french = list(games), dict(read), dict(at), dict(match_games), dict(match_french)
            self._in_place = set(self._cut_ahead[6])
        self._cut_ahead = None
        for n in range(begin, len(starts)):
            first = starts[n]
            if n == len(starts) - 2:
                self._cut_ahead = (n, list(games), dict(read), dict(at), dict(match_games), dict(match_french),
                                   [id(g) for g in games])
            last = starts[n + 1] - 1 if n + 1 < len(starts) else len(self.lines) + 1  # the last: the line after the text too
            chunk, content, name = chunks[n]
            if not content:
                continue
            # the game its match plays and its notation, when it names neither
            plays = (match_games.get(name), match_french.get(name)) if name is not None else None
            key = (first, chunk, plays)
            kept = self._read.get(key)
            if kept is not None and id(kept) in self._moved_away:  # its events were moved to another place
                kept = None
            if kept is not None:
                self._in_place.add(id(kept))
            game = (kept or self._moved(first, chunk, plays) or self._changed(first, chunk, plays, match_games, match_french)
                    or Game(first, last, chunk, self._parse(first, chunk, match_games, match_french)))
            game.end, game.plays = last, plays  # the same lines may now end before the line after the text
            read[key] = game
            at[first] = game, plays
            games.append(game)
            for record in game.items:
                if isinstance(record, Record):
                    follow_match(record, match_games, match_french)
            if "\0" in chunk:  # binary data: check reads no further, nor does the live record
                break
        self._read, self.games, self._games_at = read, games, at
        self._referee()

    def _chunk(self, first: int, last: int) -> Chunk:
        """The text of lines ``first`` to ``last`` (the lines there are), whether it holds
        anything but comments, and the match its ``[Match]`` header names."""
        part = self.lines[first - 1:last]
        text = "\n".join(part) + "\n" if part else ""
        match = _MATCH.search(text)
        return text, _CONTENT.search(text) is not None, match.group(1) if match else None

    def _recut(self, old: str, new: str) -> tuple[list[str], list[int], list[Chunk], int] | None:
        """The lines and the games' places of ``new``, cut anew only around what changed
        since ``old``: the lines before and after the change, and the games that hold
        none of it (with a game on either side), are kept as they were cut (those after
        numbered anew), and how many games before the change are kept where they were.
        None when there is nothing to keep."""
        if old == new:
            return self.lines, self._starts, self._chunks, len(self._starts)
        starts, chunks, lines = self._starts, self._chunks, self.lines
        same = _same_start(old, new)
        end = _same_end(old, new, min(len(old), len(new)) - same)
        before = _lines_before(old, same, len(lines))  # whole lines before the change
        begin = old.rfind("\n", 0, same) + 1
        tail = len(old) - end
        moved = tail + len(new) - len(old)
        if tail and old[tail - 1] != "\n" or moved and new[moved - 1] != "\n":  # from a line's start in both
            tail = old.find("\n", tail) + 1 or len(old)
        after = len(lines) - _lines_before(old, tail, len(lines))  # whole lines after it
        middle = new[begin:tail + len(new) - len(old)].split("\n")[:-1]
        self.lines = lines[:before] + middle + lines[len(lines) - after:]
        delta = len(self.lines) - len(lines)
        low = max(0, bisect.bisect_right(starts, before + 1) - 2)  # a game on either side of the change
        high = min(len(starts) - 1, bisect.bisect_right(starts, max(before + 1, len(lines) - after)))
        first = starts[low]
        last = (starts[high + 1] - 1 if high + 1 < len(starts) else len(lines)) + delta
        region = "\n".join(self.lines[first - 1:last]) + "\n" if last >= first else ""
        found = sorted({first, *(first - 1 + s for s in game_starts(region))}) if region else []
        if not found:
            self.lines = lines
            return None
        made = [self._chunk(s, found[n + 1] - 1 if n + 1 < len(found) else last if high + 1 < len(starts) else len(self.lines) + 1)
                for n, s in enumerate(found)]
        return (self.lines, starts[:low] + found + [s + delta for s in starts[high + 1:]],
                chunks[:low] + made + chunks[high + 1:], low)

    def _moved(self, first: int, chunk: str, plays: Plays) -> Game | None:
        """A game read before whose lines moved (lines were added or removed above it): the
        same game, its lines numbered anew, without reading it again. Each game read
        before is moved itself once (its events renumbered in place); a text found at more
        places than it was read at is copied."""
        if self._by_text is None:
            self._by_text, self._latest = {}, {}
            for (_, text, game), g in self._read.items():
                self._by_text.setdefault((text, game), []).append(g)
                self._latest[text, game] = g
        key = (chunk, plays)
        olds = self._by_text.get(key)
        if olds is None:
            return None
        self.counts["games moved"] += 1
        while olds and (id(olds[0]) in self._in_place or id(olds[0]) in self._moved_away):
            olds.pop(0)  # kept at its place in this text, or moved already
        if olds:
            old = olds.pop(0)
            self._moved_away.add(id(old))
            moved = Game(first, old.end + first - old.start, chunk, [_shift(item, first - old.start, True) for item in old.items])
        else:  # copied from the latest game of that text, whose lines are right
            old = self._latest[key]
            moved = Game(first, old.end + first - old.start, chunk, [_shift(item, first - old.start) for item in old.items])
        self._latest[key] = moved
        return moved

    def _changed(self, first: int, chunk: str, plays: Plays, match_games: dict[str, str],
                 match_french: dict[str, bool]) -> Game | None:
        """A game read before at the same line whose events' lines changed (its head did
        not): only the lines that changed are read, the events of the others kept (those
        after them numbered anew). None when it must be read whole."""
        found = self._games_at.get(first)
        if found is None or found[1] != plays or len(found[0].items) != 1 or id(found[0]) in self._moved_away:
            return None
        old = found[0]
        record = old.items[0]
        if not isinstance(record, Record) or record.error_count != len(record.errors) or not record.events:
            return None
        body = record.text_line + record.text.count("\n")  # the line after the game's head
        before, after = old.text.split("\n")[:-1], chunk.split("\n")[:-1]
        head, tail = _common(before, after)
        if first + head < body:
            return None
        # read from the last event line before the change (else from the head's end): the head stays the head
        lines = [e.line for e in record.events]
        index = bisect.bisect_left(lines, first + head)
        head = max(body, lines[index - 1] if index else body) - first
        tail = min(tail, len(after) - head, len(before) - head)
        changed = after[head:len(after) - tail]
        part = "".join(line + "\n" for line in after[:body - first]) + "".join(line + "\n" for line in changed)
        items = self._parse(first, part, dict(match_games), dict(match_french), count=False)
        if len(items) != 1 or not isinstance(items[0], Record):
            return None
        new = items[0]
        if new.headers != record.headers or new.text != record.text or new.french != record.french:
            return None
        self.counts["lines read"] += len(changed)
        by, moved = first + head - body, len(after) - len(before)
        for event in new.events:
            event.line += by
        cut, resume = first + head, first + len(before) - tail  # the old lines changed: [cut, resume)
        errors = ([e for e in record.errors if e.line < cut] + [e.replace(line=e.line + by) for e in new.errors if e.line >= body]
                  + [e.replace(line=e.line + moved) for e in record.errors if e.line >= resume])
        if len(errors) >= ERRORS_KEPT:
            return None
        spliced = Record(record.path, record.line, record.headers,
                         [e for e in record.events if e.line < cut] + new.events
                         + [e if not moved else _moved_event(e, moved) for e in record.events if e.line >= resume],
                         record.comments, record.text, record.text_line, errors=errors, error_count=len(errors))
        spliced.french = record.french
        spliced.seen = deque([Batch(body, "".join(line + "\n" for line in after[body - first:]), [], [], [])])
        self._in_place.add(id(old))  # its events are shared: never moved in place
        return Game(first, first + len(after) - 1, chunk, [spliced])

    def _parse(self, first: int, chunk: str, match_games: dict[str, str], match_french: dict[str, bool],
               count: bool = True) -> list[Record | RecordError]:
        """The games of a stretch of lines that starts at line ``first`` (one, usually)."""
        if count:
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
        checked: dict[CheckedKey, Checked] = {}
        by_start: dict[int, Checked] = {}
        games = self.games
        ahead = [id(game) for game in games[:-1]], id(self.settings)
        if self._ahead is not None and self._ahead[0] == ahead:  # only the last game may have changed
            _, matches, reports, checked, by_start = self._ahead
            matches, reports, checked, by_start = matches.copy(), list(reports), dict(checked), dict(by_start)
            games = games[-1:]
        for n, game in enumerate(games):
            if n == len(games) - 1 and len(games) == len(self.games):  # the games before the last: kept as refereed
                self._ahead = ahead, matches.copy(), list(reports), dict(checked), dict(by_start)
            for item in game.items:
                if isinstance(item, RecordError):
                    reports.append((game, item, error_report(item)))
                    continue
                item.inherited = []
                matches.prepare(item)
                if self.settings is not None and self.settings.games:
                    add_defaults(item, self.settings.games)
                key = (game.start, game.text, item.line, _inherited(item), game.plays)
                done = (self._checked.get(key) or self._taken_back(key, item) or self._moved_check(game, item)
                        or self._check(item, self._by_start.get(item.line)))
                checked[key] = by_start[item.line] = done
                report = copy.copy(done.report)
                matches.settle(item, report)
                missing = {v.line for v in report.violations} - report.sources.keys()
                if missing:  # found after the replay (a match's faults, on its headers)
                    report.sources = {**report.sources, **item.sources(missing)}
                reports.append((game, item, report))
        if checked.keys() != self._checked.keys():  # a new text (not the same one refereed again)
            self._checked_before = self._checked
        self._checked, self._by_start, self.reports = checked, by_start, reports
        self._checked_by_text = None

    def _taken_back(self, key: CheckedKey, record: Record) -> Checked | None:
        """A game as it was refereed in the text before the last (the same text at the same
        place, the same inherited headers: an edit undone), given the record read now
        (``games taken back`` counts it)."""
        old = self._checked_before.get(key)
        if old is None or old.record.events != record.events:
            return None
        self.counts["games taken back"] += 1
        return dataclasses.replace(old, record=record)

    def _moved_check(self, game: Game, record: Record) -> Checked | None:
        """A game refereed before whose lines moved (lines added or removed above it),
        the same text and the same inherited headers: its report, its lines numbered
        anew, without replaying it (``reports moved`` counts it). Its checkpoints are
        dropped (they name the old lines): a change in it later replays it whole."""
        if self._checked_by_text is None:
            self._checked_by_text = {(key[1], key[2] - key[0], _relative(checked.inherited, checked.record.line), key[4]): checked
                                     for key, checked in self._checked.items()}
        old = self._checked_by_text.get((game.text, record.line - game.start,
                                         _relative(_inherited(record), record.line), game.plays))
        if old is None:
            return None
        span = game.text.count("\n") + max([0, *(v.line - old.record.line for v in old.report.violations)])
        report = _shifted(old.report, record.line - old.record.line, range(old.record.line - 1, old.record.line + span + 1))
        if report is None:
            return None
        self.counts["reports moved"] += 1
        return Checked(record, report, _inherited(record))

    def _check(self, record: Record, before: Checked | None) -> Checked:
        """Referee one game, from the last checkpoint that the change left valid; its
        cards named in the record's notation, as check names them."""
        with cards_named_in(record.french):
            return self._check_named(record, before)

    def _check_named(self, record: Record, before: Checked | None) -> Checked:
        events = record.events
        resumed = self._resume(record, before)
        if before is not None and resumed is not None:
            resumed_found = resumed.violations()
            rules = resumed.rules(before.setup, resumed_found)
            done, setup, held = resumed.done, before.setup, resumed.held()
            # the checkpoints before it, their violations the first of this run's (no older run's kept alive)
            snapshots = [dataclasses.replace(s, found=resumed_found) for s in before.snapshots if s.done <= done]
        else:
            try:
                rules = start(record)
            except SetupError:
                from .engine import check

                return Checked(record, check(record), _inherited(record))
            rules.violations = Found()  # as check keeps them
            done, snapshots, setup, held = 0, [], rules.setup, []
        found = rules.violations
        assert isinstance(found, Found)
        # where the new events meet the old ones again: the old run's checkpoints there, by new count
        meet: dict[int, Checkpoint] = {}
        if before is not None and before.end is not None and self._comparable(record, before):
            old = before.record.events
            _, tail = _common_events(old, events)
            shift = len(old) - len(events)
            meet = {s.done - shift: s for s in before.snapshots if s.done - shift >= max(done + 1, len(events) - tail)}
        first_meet = min(meet, default=len(events))
        while done < len(events):
            stops = [len(events), *(n for n in meet if n > done)]
            if done < first_meet:  # after the change, the checkpoints are taken where the old run's were
                stops.append((done // SNAPSHOT_EVERY + 1) * SNAPSHOT_EVERY)
            upto = min(stops)
            replay(rules, record.replace(events=events[done:upto]), held)  # a card waiting at ``upto`` kept in ``held``
            self.counts["events replayed"] += upto - done
            done = upto
            kept = Checkpoint.of(rules, done, held) if done < len(events) else None
            if kept is None:
                continue
            snapshots.append(kept)
            old_point = meet.get(done)
            if old_point is not None and before is not None and before.end is not None and old_point.same(kept):
                self.counts["runs met"] += 1
                return self._taken_over(record, before, old_point, found, snapshots, setup)
        end = Checkpoint.of(rules, done)
        report = finish(rules, record)
        self._fill_sources(report, record)
        return Checked(record, report, _inherited(record), snapshots, end, setup)

    def _taken_over(self, record: Record, before: Checked, point: Checkpoint, found: Found,
                    snapshots: list[Checkpoint], setup: object) -> Checked:
        """The game's end as the old run had it from ``point`` on (the same state, the same
        events after it): its violations after ``point`` added to this run's, then finished."""
        end = before.end
        assert end is not None
        shift = point.done - snapshots[-1].done
        at = Found()  # this run's violations as they stand at ``point`` (not a copy: Found may be compiled)
        at.kept, at.count, at.open, at.seen, at.accepted = found.kept, found.count, found.open, dict(found.seen), set(found.accepted)
        kept_old = point.found.kept[point.kept:end.kept]
        found.kept = found.kept + kept_old
        found.count += end.count - point.count
        found.open += end.open - point.open
        for code, n in end.seen.items():
            if n - point.seen.get(code, 0):
                found.seen[code] = found.seen.get(code, 0) + n - point.seen.get(code, 0)
        found.accepted |= end.accepted - point.accepted
        taken = [s.rebased(point, found, at, shift) for s in before.snapshots if s.done > point.done]
        rules = end.rules(setup, found)
        final = end.rebased(point, found, at, shift)
        report = finish(rules, record)
        self._fill_sources(report, record)
        return Checked(record, report, _inherited(record), snapshots + taken, final, setup)

    @staticmethod
    def _fill_sources(report: GameReport, record: Record) -> None:
        missing = {v.line for v in report.violations} - report.sources.keys()
        if missing:
            report.sources = {**report.sources, **record.sources(missing)}

    @staticmethod
    def _comparable(record: Record, before: Checked) -> bool:
        """Whether a game's old run is of the same game: its headers, its inherited ones."""
        return before.record.headers == record.headers and before.inherited == _inherited(record)

    def _resume(self, record: Record, before: Checked | None) -> Checkpoint | None:
        """The last checkpoint that holds for this game's new text: its headers unchanged,
        and the events it replayed too."""
        if before is None or not before.snapshots or not self._comparable(record, before):
            return None
        same, _ = _common_events(before.record.events, record.events)
        usable = [s for s in before.snapshots if s.done <= same]
        return usable[-1] if usable else None

    def rules_before(self, line: int, record: Record | None = None,
                     held: list[tuple[Event, int]] | None = None) -> Rules | None:
        """The rules of the game that holds a line (or of ``record``), with every event
        before it replayed (from the last checkpoint before it); None outside a game that
        can be set up. ``held``: given the card outside the deck still waiting after the
        last of those events (engine.replay's), to replay on from there as one replay would."""
        record = record if record is not None else self.record_at(line)
        if record is None:
            return None
        checked = self._by_start.get(record.line)
        events = [e for e in record.events if e.line < line]
        usable = [s for s in (checked.snapshots if checked else []) if s.done <= len(events)]
        held = held if held is not None else []
        if checked is not None and usable:
            done = usable[-1].done
            held[:] = usable[-1].held()
            rules = usable[-1].rules(checked.setup)
        else:
            try:
                rules = start(record)
            except SetupError:
                return None
            rules.violations, done = Found(), 0  # as check keeps them
        replay(rules, record.replace(events=events[done:]), held)
        self.counts["events replayed"] += len(events) - done
        return rules

    def rules_after(self, record: Record) -> Rules | None:
        """The rules of a game refereed here after all its events, as ``state.rules_at``
        leaves them (settled, concluded when its ``Result`` header says so), from its last
        checkpoint, not replayed; None when it has none."""
        checked = self._by_start.get(record.line)
        if checked is None or checked.record is not record or checked.end is None:
            return None
        from .engine import _result_tag

        with cards_named_in(record.french):
            rules = checked.end.rules(checked.setup)
            rules.settle()
            if _result_tag(record):
                rules.conclude()
        return rules

    def game_at(self, line: int) -> tuple[Game, Record | RecordError, GameReport] | None:
        """The game that holds a line, and its report."""
        for game, item, report in self.reports:
            if game.start <= line <= game.end:
                return game, item, report
        return None

    def record_at(self, line: int) -> Record | None:
        found = self.game_at(line)
        return found[1] if found is not None and isinstance(found[1], Record) else None


class SessionError(Exception):
    """The session cannot go on (the record cannot be read, the file changed)."""


@dataclass
class Written:
    offset: int
    data: bytes
    line: str


@dataclass
class Session:
    """One file at the table: what this session wrote, and the game as it stands."""

    path: str
    file: RecordFile
    text: str = ""
    newline: str = "\n"
    written: list[Written] = field(default_factory=list)
    record: Record | None = None
    report: GameReport | None = None
    rules: Rules | None = None
    """The last game replayed once, worded for each reader by ``state``."""
    states: dict[str, State] = field(default_factory=dict)
    """The game as it stands, worded in each language asked for so far (from ``rules``)."""
    replayer: Replayer | None = None
    """What replays the record, only where it changed (made by ``load``)."""
    read: bytes = b""
    """The bytes the game as it stands was read from."""
    settings: Resolved | None = None
    """What the configuration says for this file (``config.resolve``): its games' default
    options, and the codes it reports, as ``check`` reads them."""
    lock: RecordLock | None = None
    """The record's writing lock, taken again on the file the name leads to after a save by rename."""
    stamp: tuple[int, int] | None = None
    """The size and time of change of the file when it was read (None: not read, or read again at the next ``load``)."""
    _raw: bytes = b""
    """The bytes ``text`` was decoded from (empty when they could not be)."""
    lines: list[str] = field(default_factory=list)
    """The lines of ``text`` (as ``load`` left them: ``rule`` does not change them)."""

    def follow(self, thorough: bool = True, load: bool = True) -> bool:
        """Whether another hand changed the record since this session read it (an editor's
        save: by rename, in place, or cut and written; an append): the file the name now
        leads to is then held in its place (under the writing lock), the lines this session
        wrote can no longer be taken back, and the record is read again (at once, or at the
        next ``load`` when ``load`` is false). ``thorough``: the bytes are compared too,
        not only the size and time of change (before a write). FileRefused when the name
        leads to no file."""
        if self.file.moved():
            self.file.reopen()
            if self.lock is not None:
                self.lock.lock_record()
        elif self.stamp is None:  # not read yet, or to be read again: nothing to follow
            return False
        elif self._stamp() == self.stamp and (not thorough or self.file.read_bytes() == self.read):
            return False
        self.written.clear()
        self.stamp = None
        if load:
            self.load()
        return True

    def _stamp(self) -> tuple[int, int]:
        status = os.fstat(self.file.fd)
        return status.st_size, status.st_mtime_ns

    def replayed(self) -> tuple[Record, GameReport, State]:
        """The last game of the file, its report and its state, as ``load`` left them."""
        assert self.record is not None and self.report is not None and self.state is not None, "load() first"
        return self.record, self.report, self.state

    # --- The file ------------------------------------------------------------------------
    def load(self) -> None:
        """Read the file and replay its last game (only what changed since the last
        read); SessionError when it cannot be read."""
        stamp = self._stamp()
        data = self.file.read_bytes()
        self.read, self.stamp = data, stamp  # followed from here, even when it cannot be read
        if looks_json(self.path, data):  # lines are appended to a text record only
            raise SessionError(say("live.json-record", path=self.path))
        grown = self._grown(data)
        if grown is not None:  # lines added at the end: only they are decoded
            self.text, self._raw = grown
        else:
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError as error:  # as check says it: a file check refuses is not played on
                found = (i for i in read_games(self.path, io.BytesIO(data)) if isinstance(i, RecordError))
                fallback = RecordError(self.path, 0, 0, say("file.not-utf8", byte=data[error.start]))
                raise SessionError(str(next(found, fallback))) from None
            self.newline = "\r\n" if "\r\n" in text else "\n"
            self.text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
            self._raw = data
        self._replay(self.text)

    def _grown(self, data: bytes) -> tuple[str, bytes] | None:
        """The text of ``data`` when it is the bytes read last with whole lines added
        after them (the usual change: a line played), decoding only what was added."""
        old = self._raw
        if not old or len(data) <= len(old) or old.endswith(b"\r") or not data.startswith(old):
            return None
        try:
            added = data[len(old):].decode("utf-8")
        except UnicodeDecodeError:
            return None
        if "\r" in added:
            if "\r\n" in added:
                self.newline = "\r\n"
            added = added.replace("\r\n", "\n").replace("\r", "\n")
        return self.text + added, data

    def _last_game(self, text: str) -> tuple[Record | RecordError, GameReport]:
        if self.replayer is None:
            self.replayer = Replayer(self.path, self.settings)
        self.replayer.settings = self.settings
        return self.replayer.last(text)

    def _replay(self, text: str) -> None:
        record, report = self._last_game(text)
        if isinstance(record, RecordError):
            raise SessionError(str(record))
        if report.error is not None:
            raise SessionError(str(report.error))
        if self.settings is not None:
            selected(report, self.settings.chosen)  # as check reports it
        assert self.replayer is not None
        rules = self.replayer.rules_after(record)
        self.record, self.report, self.rules = record, report, rules if rules is not None else replayed_at(record)
        self.lines = self.replayer.lines
        self.states = {}

    @property
    def state(self) -> State | None:
        """The game as it stands, in the language in use: worded from the one replay, for
        each language once (None before ``load``)."""
        if self.rules is None or self.record is None:
            return None
        found = self.states.get(language())
        if found is None:
            found = self.states[language()] = state_from(self.rules, self.record)
        return found

    def append(self, line: str, headers: str = "", load: bool = True) -> None:
        """Write a line at the end of the file (after ``headers``: a new game's, held until
        its first line writes them with it), and make sure it is on the disk; the record
        is then read again (at once, or at the next ``load`` when ``load`` is false)."""
        ends = self.file.last_byte() in (b"\n", b"\r", b"")
        data = (("" if ends else self.newline) + headers + line + self.newline).encode("utf-8")
        offset = self.file.append(data)
        if headers:
            self.file.sync_folder()  # a record made by its first line: its name on the disk too
        self.written.append(Written(offset, data, line))
        self._written(load)

    def undo(self) -> str | None:
        """Take back the last line this session wrote (None when there is none): the file
        is cut back to where it began, through the descriptor kept."""
        if not self.written:
            return None
        last = self.written[-1]
        if self.file.read_bytes()[last.offset:] != last.data:
            raise SessionError(say("live.changed"))
        self._cut(last.offset)
        return last.line

    def undo_last(self, expected: str, load: bool = True) -> None:
        """Take back the file's last line whoever wrote it (the table page: any phone may
        take back the last move), if it still reads ``expected``: the file is cut back to
        where the line began, through the descriptor kept; SessionError when it does not."""
        data = self.file.read_bytes()
        end = len(data.rstrip(b" \t\r\n"))
        start = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1
        if data[start:end].decode("utf-8", "replace") != expected.rstrip(" \t"):
            raise SessionError(say("live.changed"))
        self._cut(start, load)

    def _cut(self, offset: int, load: bool = True) -> None:
        self.file.truncate(offset)
        self.written = [w for w in self.written if w.offset < offset]
        self._written(load)

    def _written(self, load: bool) -> None:
        if load:
            self.load()
        else:
            self.stamp = None  # read again at the next load

    # --- A line typed at the table -------------------------------------------------------
    def complete(self, line: str) -> str:
        """The line with the next player's name when it starts with a verb."""
        words = line.split()
        written = self.state.written if self.state is not None else ENGLISH
        if words and written.verb_read(words[0]) is not None and self.state is not None and self.state.table.turn:
            return f"{self.state.table.turn} {line}"
        return line

    def rule(self, line: str) -> tuple[list[Violation], RecordError | None]:
        """The violations the line would have at the end of the record, or why it
        cannot be read; the file is not touched."""
        text = self.text + ("" if self.text.endswith("\n") or not self.text else "\n") + line + "\n"
        record, report = self._last_game(text)
        assert self.replayer is not None
        number = len(self.replayer.lines)
        if isinstance(record, RecordError):
            return [], record
        if record.errors:  # a line that cannot be read, as check reads the game
            return [], record.errors[0]
        if not any(e.line == number for e in record.events) and not line.lstrip().startswith(";"):
            return [], RecordError(self.path, number, 1, say("live.not-an-event"), line)
        chosen = self.settings.chosen if self.settings is not None else (lambda code: True)
        return [v for v in report.violations if v.line == number and not v.accepted and chosen(v.code)], None


# --- Starting a new record -------------------------------------------------------------------

"""The answers to "write it?", in English and French (accents left out): as played,
accepted by the table, not written (Enter)."""


def headers_record(headers: list[tuple[str, str]]) -> Record:
    (record,) = parse_text(ENGLISH.headers(headers))
    if isinstance(record, RecordError):
        raise SetupError(record.message)
    return record


# --- The session -----------------------------------------------------------------------------

def accepted_line(line: str, faults: Sequence[Violation]) -> str:
    """A flagged line as written when the table let its faults pass."""
    return line + " ; accepted " + " ".join(dict.fromkeys(v.code for v in faults))


def vocabulary(session: Session) -> Vocabulary:
    """What may be typed, in the record's notation: the players, the game's verbs, the
    cards (the legal ones first), the words before a player or a suit."""
    state = session.replayed()[2]
    written = state.written
    entry = find_game(state.game)
    assert entry is not None, state.game  # the game was replayed
    cls: type[Rules] = load_rules(entry)  # load_rules is not annotated (referee/games)
    legal = [written.card(c) for e in legal_events(state.legal) for c in e.cards if c.seen]
    deck = sorted(cls.deck, key=lambda c: (SUITS.index(c.suit) if c.suit in SUITS else 4, c.suit, c.rank))
    return Vocabulary(list(state.players), [written.verb(v) for v in VERBS if v in cls.verbs],
                      list(dict.fromkeys(legal + [written.card(c) for c in deck])), list(written.targets),
                      written.for_word, [written.suit(s) for s in SUITS])


