"""The live record: one record held open while people change it, by ``referee play``
(referee/cli/play.py) and the table page (referee/serve/table.py).

A ``Session`` binds a record's path for as long as a face holds it: it holds the
record's writing lock (referee/files/lock.py), opens the file once
(referee/files/record_file.py) and writes every line through that descriptor, never
through the file's name again (docs/files.md). It replays only the last game
(``Replayer``: the games before it are replayed once and their matches' standing kept),
rules each line as it comes, appends a line with a flush and a sync, and undoes the last
line written in the session by cutting the file back to where it began. Before a write it
checks that the name still leads to the file and the bytes it read (an editor's save is
followed, never written over blind)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .cards import SUITS
from .config import Resolved, add_defaults
from .engine import GameReport, check_games
from .games import find_game, load_rules
from .games.base import Rules, SetupError, Violation, legal_events
from .convert.importer import looks_json
from .match import Matches, follow_match
from .messages import language, say
from .notation import VERBS, RecordError, parse_text, read_games
from .record import Record
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


class Replayer:
    """The last game of a record replayed as the record grows at its end (a line played,
    an editor's line): the games before the last one are read and replayed once, and only
    what the next games need of them kept (the standing of their matches, the game and
    notation each match plays); the next replay starts from the last game, as long as the
    text before it is unchanged (else everything is replayed again, once). The answers
    are those of replaying the whole text, line numbers included."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.prefix = ""
        """The text of the games replayed once, up to the start of the last game's headers."""
        self.lines = 0
        self.matches = Matches()
        self.games: dict[str, str] = {}
        self.french: dict[str, bool] = {}

    def last(self, text: str, prepare: Callable[[Record], None] | None = None) -> tuple[Record | RecordError, GameReport]:
        """The last game of ``text`` (lines ending in ``\n``) and its report; ``prepare``
        as ``check_games`` takes it (the configuration's default options)."""
        import io

        if not text.startswith(self.prefix):
            self.prefix, self.lines, self.matches, self.games, self.french = "", 0, Matches(), {}, {}
        games, french = dict(self.games), dict(self.french)
        items = list(read_games(self.path, io.BytesIO(text[len(self.prefix):].encode("utf-8")), first_line=self.lines + 1,
                                match_games=games, match_french=french))
        matches = self.matches.copy()
        found = []
        for index, (item, report) in enumerate(check_games(items, prepare=prepare, matches=matches)):
            found.append((item, report))
            if index < len(items) - 1 and isinstance(item, Record):
                follow_match(item, games, french)
            if index == len(items) - 2 and isinstance(items[-1], Record):  # the games before the last: once
                self._advance(text, items[-1].line, matches.copy(), games, french)
        return found[-1]

    def _advance(self, text: str, line: int, matches: Matches, games: dict[str, str], french: dict[str, bool]) -> None:
        """Keep the games before ``line`` (where the last game's headers start) as replayed."""
        offset = len(self.prefix)
        for _ in range(line - 1 - self.lines):
            offset = text.index("\n", offset) + 1
        self.prefix, self.lines, self.matches = text[:offset], line - 1, matches
        self.games, self.french = dict(games), dict(french)


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
    """The last game replayed once (``state.replayed_at``), worded for each reader by ``state``."""
    states: dict[str, State] = field(default_factory=dict)
    """The game as it stands, worded in each language asked for so far (from ``rules``)."""
    replayer: Replayer | None = None
    """What replays the record (kept by the table page across its sessions)."""
    read: bytes = b""
    """The bytes the game as it stands was read from."""

    def follow(self) -> bool:
        """Whether another hand changed the record since this session read it (an editor's
        save: by rename, in place, or cut and written); the record is then read again, the
        file its name now leads to when it was saved by rename, and the lines this session
        wrote can no longer be taken back. FileRefused when the name leads to no file."""
        if self.file.moved():
            self.file.reopen()
        elif self.file.read_bytes() == self.read:
            return False
        self.written.clear()
        self.load()
        return True
    settings: Resolved | None = None
    """What the configuration says for this file (``config.resolve``): its games' default
    options, and the codes it reports, as ``check`` reads them."""

    def _prepare(self, record: Record) -> None:
        if self.settings is not None and self.settings.games:
            add_defaults(record, self.settings.games)

    def replayed(self) -> tuple[Record, GameReport, State]:
        """The last game of the file, its report and its state, as ``load`` left them."""
        assert self.record is not None and self.report is not None and self.state is not None, "load() first"
        return self.record, self.report, self.state

    # --- The file ------------------------------------------------------------------------
    def load(self) -> None:
        """Read the file and replay its last game; SessionError when it cannot be read."""
        data = self.file.read_bytes()
        self.read = data
        if looks_json(self.path, data):  # lines are appended to a text record only
            raise SessionError(say("live.json-record", path=self.path))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:  # as check says it: a file check refuses is not played on
            import io

            found = (i for i in read_games(self.path, io.BytesIO(data)) if isinstance(i, RecordError))
            fallback = RecordError(self.path, 0, 0, say("file.not-utf8", byte=data[error.start]))
            raise SessionError(str(next(found, fallback))) from None
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._replay(self.text)

    def _last_game(self, text: str) -> tuple[Record | RecordError, GameReport]:
        if self.replayer is None:
            self.replayer = Replayer(self.path)
        return self.replayer.last(text, self._prepare)

    def _replay(self, text: str) -> None:
        record, report = self._last_game(text)
        if isinstance(record, RecordError):
            raise SessionError(str(record))
        if report.error is not None:
            raise SessionError(str(report.error))
        if self.settings is not None:
            selected(report, self.settings.chosen)  # as check reports it
        self.record, self.report, self.rules = record, report, replayed_at(record)
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

    def append(self, line: str) -> None:
        """Write a line at the end of the file, and make sure it is on the disk."""
        ends = self.file.last_byte() in (b"\n", b"\r", b"")
        data = (("" if ends else self.newline) + line + self.newline).encode("utf-8")
        offset = self.file.append(data)
        self.written.append(Written(offset, data, line))
        self.load()

    def undo(self) -> str | None:
        """Take back the last line this session wrote (None when there is none): the file
        is cut back to where it began, through the descriptor kept."""
        if not self.written:
            return None
        last = self.written[-1]
        data = self.file.read_bytes()
        if data[last.offset:] != last.data:
            raise SessionError(say("live.changed"))
        self.file.truncate(last.offset)
        self.written.pop()
        self.load()
        return last.line

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
        number = text.count("\n")
        record, report = self._last_game(text)
        if isinstance(record, RecordError):
            return [], record
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


