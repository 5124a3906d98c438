"""``referee play FILE``: a live session at the table.

On a new file the session asks for the game, the players and the options, and writes
the headers; on an existing record it replays it and goes on from its last line.
People type events in the record's notation (the player's name may be left out: the
line is then the next player's). Each line is ruled at once:

- a line that breaks no rule is appended to the file, flushed and synced to the disk
  at once, so nothing is lost if the program, the terminal or the machine dies;
- a line flagged with a rule is shown with the rule, and written only if the table
  says so: ``y`` (``oui``) as played (a fault the table saw: the game goes on from it,
  penalty included), ``a`` (``accepté``) with ``; accepted CODE`` (the table let it
  pass), ``n`` (``non``; the default: a slip of the keyboard) not at all. A line the replay cannot use (an unknown player,
  an event or a card the game does not have, an event after the end) and a line that
  cannot be read are never written.

``undo`` takes back the last line written in this session (the file is cut back to
where that line began, through the same descriptor: its mode, owner and links kept);
lines written before the session stay.

The session holds the record's writing lock (referee/lock.py) from its start to its end:
a second ``play``, a ``fmt`` or the table page on the same record is refused, with who
holds it. The record is opened once (referee/record_file.py): every line is written
through that descriptor, never through the file's name again (docs/files.md). ``state`` and ``legal`` show the table and what
may be done; ``end`` (or Ctrl-D) ends the session with the report.

prompt_toolkit (line editing, completion of names, verbs and cards) is used when the
session runs in a terminal, and imported only then; from a pipe, lines are read as
they come."""

from __future__ import annotations

import datetime
import os
import shutil
import sys
import textwrap
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from .cards import SUITS
from .config import Resolved, add_defaults
from .engine import GameReport, check_games
from .fit import fit, terminal_width
from .games import GAMES, find_game, load_rules, normalize
from .games.base import Option, Rules, SetupError, Violation, legal_events, option_value
from .importer import looks_json
from .lock import LockHeld, RecordLock
from .match import Matches, follow_match
from .messages import help_text, join, language, say
from .notation import VERBS, RecordError, parse_text, read_games, unreadable_reason
from .record import Record
from .record_file import FileRefused, RecordFile
from .report import render as render_report
from .running import Stopped, stopping_as_ctrl_c
from .safe_text import visible_lines
from .spelling import ENGLISH, NOTATIONS, Spelling
from .state import WIDTH, State, render, replayed_at, state_from
from .writer import selected

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

ANSWERS = {"y": "y", "yes": "y", "o": "y", "oui": "y", "a": "a", "accepted": "a", "accepte": "a",
           "n": "n", "no": "n", "non": "n", "": "n"}
"""The answers to "write it?", in English and French (accents left out): as played,
accepted by the table, not written (Enter)."""


def unique_prefix(typed: str, choices: dict[str, str]) -> tuple[str | None, list[str]]:
    """The choice a word names (its key exactly, or the start of one key only): the
    choice and nothing else, or None and the choices it may start (several: ambiguous;
    none: unknown)."""
    key = normalize(typed)
    if key in choices:
        return choices[key], []
    starting = list(dict.fromkeys(v for k, v in choices.items() if key and k.startswith(key)))
    return (starting[0], []) if len(starting) == 1 else (None, starting)


def _game_names() -> dict[str, str]:
    """Each refereed game by its name and by its (French) title: carte-et-plouc,
    carte-et-plouc-de-charlotte, pierre-qui-roule..."""
    names = {}
    for game in GAMES:
        if game.module is not None:
            names[game.name] = names[normalize(game.title)] = game.name
    return names


def new_record(ask: Ask, show: Callable[[str], None], written: Spelling = ENGLISH) -> str:
    """Ask for the game, the players and the options (each question shows its default,
    and takes the start of a name when only one name starts so); show the headers, and
    give them to write once the table says yes, in the notation ``written`` (French:
    ``[Jeu]``, ``[Notation "fr"]``, ``[Joueurs]``...)."""
    while True:
        text = written.headers(_ask_headers(ask, show))
        show("\n".join("  " + line for line in text.rstrip("\n").split("\n")))  # shown, indented
        try:
            typed = _plain(ask(say("live.ask-headers"), ["y", "n"]))
            answer = ANSWERS.get(typed) if typed else "y"  # Enter: yes
        except EOFError:
            answer = "y"  # the end of the piped answers: what was asked for is written
        if answer != "n":
            break
        show(say("live.again"))
    return text


def _ask_headers(ask: Ask, show: Callable[[str], None]) -> list[tuple[str, str]]:
    """The headers of a new record, question by question."""
    names = _game_names()
    refereed = list(dict.fromkeys(names.values()))
    show(say("live.refereed", games=join(refereed, "or")))
    while True:
        typed = ask(say("live.ask-game", default=refereed[0]), refereed).strip()
        game, maybe = unique_prefix(typed or refereed[0], names)
        if game is not None:
            break
        show(say("live.which-game", typed=typed, games=join(maybe, "or")) if maybe
             else say("live.refereed", games=join(refereed, "or")))
    entry = find_game(game)
    assert entry is not None, game  # a name of _game_names
    cls: type[Rules] = load_rules(entry)  # load_rules is not annotated (referee/games)
    headers: list[tuple[str, str]] = [("Game", cls.name)]
    players: list[str] = []
    for tag, question in (("Players", say("live.ask-players", low=cls.min_players, high=cls.max_players)),
                          ("Dealer", say("live.ask-dealer"))):
        while True:
            answer = " ".join(ask(question, players).replace(",", " ").split())
            if not answer and tag == "Dealer":
                break
            if tag == "Players" and normalize(answer) in names:
                show(say("live.players-not-game", typed=answer))  # a game's name typed one question late
                continue
            try:
                cls.setup_from(headers_record([*headers, (tag, answer)]))
                headers.append((tag, answer))
                break
            except SetupError as error:
                show(str(error))
        players = headers[1][1].split()
    headers.append(("Date", datetime.date.today().isoformat()))
    for option in cls.options:
        default = option.default_for(len(players))
        shown = " ".join(sorted(map(option_value, default))) if isinstance(default, frozenset) else option_value(str(default))
        question = say("live.ask-option", tag=option.tag, help=help_text(f"game-option.{cls.name}.{option.tag}", option.help),
                       choices=option.accepted(), default=shown or say("live.none"))
        while True:
            typed = ask(question, [option_value(c) for c in option.choices]).strip()
            answer = _option_words(option, typed) if typed else shown
            try:
                if answer:  # an option with nothing by default (no variants) and nothing chosen: no header
                    option.read(answer)
                    headers.append((option.tag, answer))
                break
            except ValueError:
                show(say("setup.bad-option", tag=option.tag, value=typed, title=cls.title, choices=option.accepted()))
    return headers


def _option_words(option: Option, typed: str) -> str:
    """An option's answer with each word that starts only one of its choices spelled out
    (``sand`` is ``sandwich``); other words are left as typed, for ``Option.read``."""
    if option.number is not None:
        return typed
    choices = {normalize(c): option_value(c) for c in option.choices} | {normalize(option_value(c)): option_value(c) for c in option.choices}
    words = typed.replace(",", " ").split() if option.many else [typed]
    return " ".join(unique_prefix(w, choices)[0] or w for w in words)


def _plain(answer: str) -> str:
    """An answer without case, accents or blanks around it: « Accepté » is accepte."""
    return unicodedata.normalize("NFKD", answer).encode("ascii", "ignore").decode().strip().lower()


def headers_record(headers: list[tuple[str, str]]) -> Record:
    (record,) = parse_text(ENGLISH.headers(headers))
    if isinstance(record, RecordError):
        raise SetupError(record.message)
    return record


# --- The session -----------------------------------------------------------------------------

def play(path: str, ask: Ask, show: Callable[[str], None], settings: Resolved | None = None) -> int:
    """Run a session on ``path``, under its writing lock; the exit status of ``referee
    check`` on the record. ``settings``: what the configuration says for it."""
    with RecordLock(path, "play") as lock:
        headers = None
        if not os.path.lexists(path) or (os.path.isfile(path) and os.path.getsize(path) == 0):
            headers = new_record(ask, show, _notation_for_new(settings))  # asked before the file is made: a session left here leaves nothing
        with RecordFile.open(path, create=headers is not None) as opened:
            if headers is not None and opened.size() == 0:
                opened.append(headers)
                opened.sync_folder()
            lock.lock_record()  # a record made just now is held as one found
            return _session(Session(path, opened, settings=settings), ask, show)


def _notation_for_new(settings: Resolved | None) -> Spelling:
    """The notation a new record is written in: the configuration's, else the language's
    (a table that speaks French writes its games in French)."""
    from .messages import language

    asked = settings.notation if settings is not None else None
    return NOTATIONS.get(asked or ("fr" if language() == "fr" else "en"), ENGLISH)


def _session(session: Session, ask: Ask, show: Callable[[str], None]) -> int:
    session.load()
    _summary(session, show)
    while True:
        try:
            line = ask(_prompt(session), vocabulary(session)).strip()
        except EOFError:
            break
        if not line:
            continue
        command = FRENCH_COMMANDS.get(line.lower(), line.lower())
        if command in ("end", "quit", "exit"):
            break
        if session.follow():
            show(say("live.read-again"))
            _summary(session, show)
            continue
        if command == "undo":
            taken = session.undo()
            show(say("live.undone", line=taken) if taken else say("live.nothing-to-undo"))
        elif command == "state":
            show("\n".join(render(session.replayed()[2], _width())))
        elif command == "legal":
            sentences = session.replayed()[2].may or [say("legal.nothing")]
            show("\n".join(line for s in sentences for line in textwrap.wrap(s, _width(), subsequent_indent="  ")))
        elif command in ("help", "?"):
            show(say("live.help"))
        elif line.startswith("["):
            show(say("live.no-header"))
        else:
            _event(session, session.complete(line), ask, show)
    return _report(session, show)


def _event(session: Session, line: str, ask: Ask, show: Callable[[str], None]) -> None:
    faults, error = session.rule(line)
    if error is not None:
        show(str(error))
        return
    for v in faults:
        show(f"{v.code} {v.message}")
        if v.rule:
            show(f"  « {v.rule} »")
    if any(v.code in NOT_REPLAYED for v in faults):
        show(say("live.refused"))
        return
    if faults:
        answer = _write_it(session, ask, show)
        if answer == "a":
            line = accepted_line(line, faults)
        elif answer != "y":
            show(say("live.not-written"))
            return
    session.append(line)
    todo = session.replayed()[2].todo
    show(say("live.written", line=line.split(";")[0].strip() or line, now=todo[0] if todo else say("live.over")))


def accepted_line(line: str, faults: Sequence[Violation]) -> str:
    """A flagged line as written when the table let its faults pass."""
    return line + " ; accepted " + " ".join(dict.fromkeys(v.code for v in faults))


def _write_it(session: Session, ask: Ask, show: Callable[[str], None]) -> str:
    """The table's answer to "write it?": y (as played), a (accepted) or n. Any other
    answer asks again, saying what is expected; a line that reads as an event or a
    command is never taken for an answer (the table went on typing the game)."""
    while True:
        try:
            typed = ask(say("live.ask-flagged"), ["y", "a", "n"])
        except EOFError:
            return "n"
        answer = ANSWERS.get(_plain(typed))
        if answer is not None:
            return answer
        words = typed.split()
        state = session.state
        players = state.players if state is not None else []
        if words and (words[0] in players or words[0].lower() in VERBS or words[0].lower() in COMMANDS
                      or words[0].lower() in FRENCH_COMMANDS):
            show(say("live.line-not-answer", line=typed.strip()))
        else:
            show(say("live.answer-expected"))


def _summary(session: Session, show: Callable[[str], None]) -> None:
    record, _, state = session.replayed()
    events = len(record.events)
    show(say("live.start", title=state.title, players=join(state.players), events=say("live.events", count=events),
             violations=say("report.violations", count=sum(not v.accepted for v in state.violations))))
    for todo in state.todo:
        show(say("report.to-move", todo=todo))


def _width() -> int:
    """The terminal's width, at most 80 columns (a phone's is narrower)."""
    return min(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns)


def _prompt(session: Session) -> str:
    """The next player's name; in a game with no turn order now, the table's."""
    state = session.replayed()[2]
    return f"{state.table.turn or say('live.end-prompt' if state.result.finished else 'live.table-prompt')}> "


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


def _report(session: Session, show: Callable[[str], None]) -> int:
    record, report, _ = session.replayed()
    sources = record.sources(v.line for v in report.violations) if report.violations else None
    for pieces in render_report(report, sources, _width() if sys.stdout.isatty() else None):
        show("".join(text for text, _ in pieces))
    return 1 if report.status == "violations" else 0


# --- Reading lines ---------------------------------------------------------------------------

def terminal_asker() -> Ask:
    """Questions asked through prompt_toolkit: line editing, history, completion. A
    question wider than the terminal is cut between words, its last line the prompt."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    class Words(Completer):
        def __init__(self) -> None:
            self.words: list[str] | Vocabulary = []

        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            before = document.text_before_cursor
            word = document.get_word_before_cursor(WORD=True)
            typed = before.split()
            previous = typed[:-1] if word else typed
            choices = self.words.next(previous) if isinstance(self.words, Vocabulary) else self.words
            spaced = isinstance(self.words, Vocabulary)  # a word of an event line: the next one follows
            for candidate in choices:
                if candidate.lower().startswith(word.lower()) and candidate != word:
                    yield Completion(candidate + " " if spaced else candidate, -len(word), display=candidate)

    words = Words()
    session: PromptSession[str] = PromptSession(completer=words, complete_while_typing=True, reserve_space_for_menu=4)

    def ask(prompt: str, choices: list[str] | Vocabulary) -> str:
        words.words = choices
        *above, last = fit(prompt.rstrip(" "), shutil.get_terminal_size((WIDTH, 24)).columns - 1, 0)
        for line in above:
            print(line)
        try:
            typed: str = session.prompt(last + " ")  # prompt_toolkit's prompt returns the line typed
            return typed
        except Stopped:
            raise
        except KeyboardInterrupt:
            return ""

    return ask


def pipe_asker() -> Ask:
    """Questions answered by lines from the standard input (a script, a test)."""

    def ask(prompt: str, choices: list[str] | Vocabulary) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    return ask


def run(path: str, settings: Resolved | None = None) -> int:
    """``referee play``: exit status 0 when the record ends valid or in progress, 1 with
    violations, 2 when it cannot be read."""
    ask = terminal_asker() if sys.stdin.isatty() and sys.stdout.isatty() else pipe_asker()

    width = terminal_width()

    def show(text: str) -> None:
        print("\n".join(cut for line in visible_lines(text).split("\n") for cut in fit(line, width)), flush=True)

    try:
        with stopping_as_ctrl_c():
            return play(path, ask, show, settings)
    except (SessionError, RecordError, FileRefused, LockHeld) as error:
        print(visible_lines(str(error)), file=sys.stderr)
        return 2
    except OSError as error:
        print(visible_lines(f"{path}: " + say("file.io-error", reason=unreadable_reason(error))), file=sys.stderr)
        return 2
    except EOFError:
        return 0
