"""The record a server keeps: read, ruled, written and taken back, with no web in sight.

Each line is ruled as ``referee play`` rules it (``referee.live``): a line the replay
cannot use is refused; a fault is written only as the table chooses (as played, or
accepted by the table with ``; accepted CODE``). Every change goes through the record's
descriptor (``RecordFile``): a line is appended and synced to the disk before the page
says it is written; an undo cuts the file back to where its last line began. The caller
holds the record's writing lock and rules one line at a time."""

from __future__ import annotations

import datetime
import functools
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..cards import SUITS, read_card
from ..config import Resolved
from ..cli.explain import explanation
from ..games import GAMES, find_game, load_rules
from ..games.base import Group, SetupError, Violation
from ..text.locales import languages as spoken
from ..live import NOT_REPLAYED, Session, SessionError, headers_record, accepted_line
from ..files.lock import LockHeld, RecordLock
from .. import messages
from ..messages import join, say
from ..notation import RecordError
from ..record import Event
from ..files.record_file import FileRefused, RecordFile
from ..spelling import ENGLISH, NOTATIONS


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages a page may be shown in: those referee speaks (read once)."""
    return spoken()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Sentences in ``lang`` (English if referee does not speak it) while the block runs.
    The server runs its pages one at a time in one thread, so the language in use is theirs alone."""
    with messages.speaking(lang if lang in languages() else "en"):
        yield


@dataclass
class Ruling:
    """What became of a line sent from a page."""

    kind: str
    """``written``, ``flagged`` (the table must choose), ``refused``, ``error``,
    ``changed`` (chosen on a table that is no longer the record's: nothing written),
    ``already`` (the very line that made the record's version: written once); the pages
    add ``undone`` and ``cancelled``."""
    line: str = ""
    message: str = ""
    faults: list[Violation] = field(default_factory=list)
    why: dict[str, str] = field(default_factory=dict)
    """For each fault's code, the convention referee follows (as ``referee explain``)."""


class Served:
    """One record file, served: its text, its last game, and a version that grows with
    every change.

    Before it writes, it checks that the record's name still leads to the file it read,
    holding the bytes it read (another hand may append to it, rewrite it, or save it by
    rename, which the writing lock cannot stop): when not, it reads the file the name now
    leads to, and the move, chosen on a table that is no more, is refused. A move carries
    the table it was chosen on (``table()``: a digest of the record, the same for the same
    bytes, whichever run of the server shows it): on any other, it is refused, unless it
    is the very line that made the record what it is from that table (a double tap), which
    is answered "already written"."""

    def __init__(self, path: str, settings: Resolved | None = None, lock: RecordLock | None = None) -> None:
        self.path, self.lock = path, lock
        self.settings = settings
        """What the configuration says for the record (``config.resolve``), as ``play`` reads it."""
        self.file = RecordFile.open(path, create=True)
        self.file.sync_folder()
        if lock is not None:
            lock.lock_record()  # a record made just now is held as one found
        self.version = 0
        self.made: tuple[str, str] | None = None
        """The table the last line written from a page was chosen on, and that line."""
        self.live = Session(path, self.file, settings=settings, lock=lock)
        """The record as it stands, replayed only where it changed, once for readers of
        every language (its sentences are worded as each page is shown)."""
        self.loaded = False
        """Whether ``live`` holds the record as it is now."""
        self.pending: str | None = None
        """A new game started from a page and not yet played: its headers, held here (in
        the server, not on the disk) until its first line writes them with it."""
        self.held: HeldSession | None = None
        """The session of that game while it is held (made once, from ``pending``)."""

    # --- Reading -------------------------------------------------------------------------
    def is_new(self) -> bool:
        """A file with nothing in it yet and no game started: the page offers a new game."""
        return self.pending is None and not self.file.read_bytes().strip()

    def session(self) -> Session:
        """The game as it stands, replayed once whatever the language of the pages that
        show it (its sentences are worded in the language in use when asked for);
        SessionError when the record cannot be read (said in the language in use)."""
        self.refresh()
        if self.pending is not None:
            if not self.file.read_bytes().strip():
                if self.held is None:
                    self.held = HeldSession(self.path, self.file, settings=self.settings, held=self.pending)
                    self.held.load()
                return self.held
            self.pending = None  # another hand wrote the file before the first line: its game it is
            self.changed()
        if not self.loaded:
            self.live.load()
            self.loaded = True
        return self.live

    def refresh(self, thorough: bool = False) -> bool:
        """Whether another hand changed the record since it was read (appended to it,
        rewrote or cut it in place, or saved it by rename: the file now at the name is then
        held in its place, under the writing lock): ``Session.follow``, by the size and
        time of change (``thorough``: and the bytes). It is then read anew at the next look.
        FileRefused when the name leads to no file any more."""
        if self.live.follow(thorough=thorough, load=False):
            self.changed()
            return True
        return False

    def _last_is(self, line: str) -> bool:
        """Whether the record's last line is ``line`` (its comment aside)."""
        found = self._last()
        return found is not None and found[1].split(";")[0].strip() == line.split(";")[0].strip()

    def _as_ruled(self) -> bool:
        """Whether the record still is the file, with the bytes, the table was ruled on."""
        if self.refresh(thorough=True):
            return False
        if self.pending is not None and self.file.read_bytes().strip():  # a game not yet played: the file must still be empty
            self.changed()  # the held game gives way (as the next look would make it)
            return False
        return True

    def changed(self) -> None:
        """The file changed (written here): a new version, read anew."""
        self.version += 1
        self.loaded = False
        self.live.stamp = None
        self.held = None

    # --- A line from a page --------------------------------------------------------------
    def table(self) -> str:
        """The table as it stands, as a token a page sends back with a move: the record's
        size and a digest of its bytes (SessionError when it cannot be read)."""
        data = self.session().read
        return f"{len(data)}-{zlib.crc32(data):08x}"

    def play(self, line: str, choice: str = "", lang: str = "en", version: str | None = None) -> Ruling:
        """Rule ``line`` at the end of the record and write it if it breaks no rule, or
        as the table chose (``played``, ``accepted``) when it does; what is said, in
        ``lang``. ``version``: the table the move was chosen on (None: the record's now)."""
        with speaking(lang):
            return self._play(line.strip(), choice, self.session(), version)

    def play_group(self, player: str, cards: str, suit: str, choice: str = "", lang: str = "en",
                   version: str | None = None) -> Ruling:
        """Rule and write a play of several cards picked on the page: the player's group
        that opens with the first of ``cards`` must still be legal and allow these cards,
        in this order, naming ``suit`` ("" for none); then the line is ruled as any other."""
        with speaking(lang):
            session = self.session()
            state = session.state
            groups = [g for g in (state.legal if state is not None else []) if isinstance(g, Group)]
            chosen = [read_card(word) for word in cards.split()]
            played = tuple(c for c in chosen if c is not None)
            group = next((g for g in groups if g.player == player and played and g.first == played[0]), None)
            named = suit if suit and suit in SUITS else None
            if group is None or len(played) < len(chosen) or (suit and named is None) or not group.allows(played, named):
                return Ruling("error", " ".join(cards.split()), say("serve.group-refused"))
            written = state.written if state is not None else ENGLISH
            line = written.move(Event(group.player, group.verb, 0, 0, played, suit=named))  # in the record's notation
            return self._play(line, choice, session, version)

    def _play(self, line: str, choice: str, session: Session, version: str | None = None) -> Ruling:
        if not line:
            return Ruling("error", message=say("serve.empty-line"))
        if any(c in line for c in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
            return Ruling("error", line, say("serve.one-line"))
        if line.startswith("["):
            return Ruling("error", line, say("live.no-header"))
        line = session.complete(line)
        if version is not None and version != self.table():
            if self.made == (version, line) and self._last_is(line):
                return Ruling("already", line, say("serve.already-written", line=line))
            return Ruling("changed", line, say("serve.record-changed"))
        faults, error = session.rule(line)
        if error is not None:
            return Ruling("error", line, error.message)
        if any(v.code in NOT_REPLAYED for v in faults):
            return Ruling("refused", line, say("live.refused"), faults)
        if faults and choice not in ("played", "accepted"):
            return Ruling("flagged", line, "", faults, {v.code: convention(v.code, session) for v in faults})
        if not self._as_ruled():
            return Ruling("changed", line, say("serve.record-changed"))
        made = self.table(), line
        if faults and choice == "accepted":
            line = accepted_line(line, faults)
        self._append(line)
        self.made = made
        return Ruling("written", line)

    def _append(self, line: str) -> None:
        """The line written through the live record (a new game's first line with its
        headers, at once); the record read again at the next look."""
        self.live.append(line, headers=self.pending or "", load=False)
        self.pending = None  # and the held session with it (changed)
        self.changed()

    # --- Taking back the last line -------------------------------------------------------
    def last_line(self) -> str | None:
        """The file's last line that undo may take back: an event or a comment after the
        headers of the game served; None when there is none."""
        found = self._last()
        return found[1] if found else None

    def _last(self) -> tuple[int, str] | None:
        try:
            session = self.session()
        except (SessionError, RecordError, UnicodeDecodeError):
            return self._last_unread()
        lines = session.lines
        number = _last_filled(lines)
        record = session.record
        assert record is not None, "a session loaded"
        headers = max((h.line for h in record.headers), default=record.line)
        return (number, lines[number - 1]) if number > headers else None

    def _last_unread(self) -> tuple[int, str] | None:
        """The last line of a record that cannot be read (so that undo can take back the
        line that broke it): any line but a header."""
        text = self.file.read_bytes().decode("utf-8-sig", "replace").replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        number = _last_filled(lines)
        return (number, lines[number - 1]) if number and not lines[number - 1].lstrip().startswith("[") else None

    def text(self) -> str:
        """The file as text, whatever it holds: bytes that are not UTF-8 shown as \ufffd."""
        self.refresh()
        return self.file.read_bytes().decode("utf-8-sig", "replace")

    def undo(self, expected: str, lang: str = "en") -> Ruling:
        """Take back the file's last line if it still is ``expected``: the file is cut
        back to where the line began, through the descriptor kept, as ``play`` does."""
        with speaking(lang):
            return self._undo(expected)

    def _undo(self, expected: str) -> Ruling:
        found = self._last()
        if found is None:
            return Ruling("error", message=say("serve.nothing-to-undo"))
        line = found[1]
        if line != expected:
            return Ruling("error", line, say("serve.undo-changed", line=line))
        try:
            self.live.undo_last(line, load=False)
        except SessionError as error:
            return Ruling("error", line, str(error))
        self.changed()
        return Ruling("written", line, say("live.undone", line=line))

    # --- A new game ----------------------------------------------------------------------
    def start(self, game: str, players: str, dealer: str, options: dict[str, str], notation: str = "en",
              turned: str = "") -> list[str]:
        """Start a new game in the empty file: its headers, in ``notation`` (``en``, ``fr``:
        a game started from the French page is written in French notation), with the card
        ``turned`` up (English letters) where the game has one, held (``pending``) until
        its first line writes them with it; the problems found (then nothing is started).
        Nothing is on the disk before that first line; every page shows the game started."""
        self.refresh()
        entry = find_game(game)
        if entry is None or entry.module is None:
            names = [g.name for g in GAMES if g.module is not None]
            return [say("live.refereed", games=join(names, "or"))]
        cls = load_rules(entry)
        written = NOTATIONS.get(notation, ENGLISH)
        headers = [("Game", cls.name), ("Players", " ".join(players.replace(",", " ").split()))]
        dealer = dealer.strip()
        if dealer:
            headers.append(("Dealer", dealer))
        problems = []
        try:
            cls.setup_from(headers_record(headers))
        except SetupError as error:
            problems.append(str(error))
        headers.append(("Date", datetime.date.today().isoformat()))
        for option in cls.options:
            value = " ".join(options.get(option.tag, "").split())
            if not value:
                continue
            try:
                option.read(value)
                headers.append((option.tag, value))
            except ValueError:
                problems.append(say("setup.bad-option", tag=option.tag, value=value, title=cls.title,
                                    choices=option.accepted()))
        card = read_card(turned.strip()) if turned.strip() else None
        if turned.strip() and (not cls.turned_up or card is None or card not in cls.deck):
            problems.append(say("serve.bad-turned", value=turned.strip()))
        elif card is not None and card.seen:
            headers.insert(2, (cls.turned_up, written.card(card)))
        if problems:
            return problems
        if not self.is_new():
            return [say("serve.not-empty")]
        self.pending = written.headers(headers)
        self.changed()
        return []


@dataclass
class HeldSession(Session):
    """The session of a game started and not yet played: its headers read from the server
    (``held``), not from the file, which is still empty."""

    held: str = ""

    def load(self) -> None:
        self.read = self.held.encode("utf-8")
        self.stamp, self._raw = self._stamp(), b""  # followed from the empty file
        self.newline = "\n"
        self.text = self.held
        self._replay(self.text)


def _last_filled(lines: list[str]) -> int:
    """The number (from 1) of the last line that is not blank; 0 when there is none."""
    return next((i for i in range(len(lines), 0, -1) if lines[i - 1].strip()), 0)


def convention(code: str, session: Session) -> str:
    """Why referee rules as it does on ``code``: the game's own convention, else the
    general one (what ``referee explain CODE`` says)."""
    found = explanation(code)
    if found is None:
        return ""
    title = session.state.title if session.state is not None else ""
    return next((text for game, text in found.conventions if game == title), found.why)


def read_error(error: Exception) -> str:
    """What a page says of a record it cannot read."""
    return error.message if isinstance(error, RecordError) else str(error)


PROBLEMS = (SessionError, RecordError, FileRefused, UnicodeDecodeError, LockHeld, OSError)
"""What reading or writing the record may raise: said on the page, never a traceback."""
