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

The session holds the record's writing lock (referee/files/lock.py) from its start to its end:
a second ``play``, a ``fmt`` or the table page on the same record is refused, with who
holds it. The record is opened once (referee/files/record_file.py): every line is written
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
from collections.abc import Callable, Iterator

from ..config import Resolved
from ..text.fit import fit, terminal_width
from ..games import GAMES, find_game, load_rules, normalize
from ..games.base import Option, Rules, SetupError, option_value
from ..files.lock import LockHeld, RecordLock
from ..messages import help_text, join, language, say
from ..notation import VERBS, RecordError, unreadable_reason
from ..files.record_file import FileRefused, RecordFile
from ..reports.report import render as render_report
from ..cli.running import Stopped, stopping_as_ctrl_c
from ..text.safe_text import visible_lines
from ..spelling import ENGLISH, NOTATIONS, Spelling
from ..state import WIDTH, render
from ..live import Ask, COMMANDS, FRENCH_COMMANDS, NOT_REPLAYED, Session, SessionError, Vocabulary, accepted_line, headers_record, vocabulary

ANSWERS = {"y": "y", "yes": "y", "o": "y", "oui": "y", "a": "a", "accepted": "a", "accepte": "a",
           "n": "n", "no": "n", "non": "n", "": "n"}
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


def play(path: str, ask: Ask, show: Callable[[str], None], settings: Resolved | None = None, piped: bool = False) -> int:
    """Run a session on ``path``, under its writing lock; the exit status of ``referee
    check`` on the record. ``settings``: what the configuration says for it; ``piped``:
    the answers come from a pipe, which cannot type a line again."""
    with RecordLock(path, "play") as lock:
        headers = None
        if not os.path.lexists(path) or (os.path.isfile(path) and os.path.getsize(path) == 0):
            headers = new_record(ask, show, _notation_for_new(settings))  # asked before the file is made: a session left here leaves nothing
        with RecordFile.open(path, create=headers is not None) as opened:
            if headers is not None and opened.size() == 0:
                opened.append(headers)
                opened.sync_folder()
            lock.lock_record()  # a record made just now is held as one found
            return _session(Session(path, opened, settings=settings, lock=lock), ask, show, piped)


def _notation_for_new(settings: Resolved | None) -> Spelling:
    """The notation a new record is written in: the configuration's, else the language's
    (a table that speaks French writes its games in French)."""
    from ..messages import language

    asked = settings.notation if settings is not None else None
    return NOTATIONS.get(asked or ("fr" if language() == "fr" else "en"), ENGLISH)


def _session(session: Session, ask: Ask, show: Callable[[str], None], piped: bool = False) -> int:
    session.load()
    _summary(session, show)
    pending: str | None = None  # from a pipe, the line read where an answer was asked
    while True:
        try:
            line = pending if pending is not None else ask(_prompt(session), vocabulary(session)).strip()
        except EOFError:
            break
        pending = None
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
            now = session.replayed()[2]
            sentences = now.may or [say("legal.stopped", line=now.stopped) if now.stopped else say("legal.nothing")]
            show("\n".join(line for s in sentences for line in textwrap.wrap(s, _width(), subsequent_indent="  ")))
        elif command in ("help", "?"):
            show(say("live.help"))
        elif line.startswith("["):
            show(say("live.no-header"))
        else:
            pending = _event(session, session.complete(line), ask, show, piped)
    return _report(session, show)


def _event(session: Session, line: str, ask: Ask, show: Callable[[str], None], piped: bool = False) -> str | None:
    """Rule the line and write it (a flagged one as the table says); the line to read next
    when a pipe went on with the game where an answer was asked."""
    faults, error = session.rule(line)
    if error is not None:
        show(str(error))
        return None
    for v in faults:
        show(f"{v.code} {v.message}")
        if v.rule:
            show(f"  « {v.rule} »")
    if any(v.code in NOT_REPLAYED for v in faults):
        show(say("live.refused"))
        return None
    following = None
    if faults:
        answer, following = _write_it(session, ask, show, piped)
        if answer == "a":
            line = accepted_line(line, faults)
        elif answer != "y":
            show(say("live.not-written"))
            return following
    session.append(line)
    todo = session.replayed()[2].todo
    show(say("live.written", line=line.split(";")[0].strip() or line, now=todo[0] if todo else say("live.over")))
    return following


def _write_it(session: Session, ask: Ask, show: Callable[[str], None], piped: bool = False) -> tuple[str, str | None]:
    """The table's answer to "write it?": y (as played), a (accepted) or n. Any other
    answer asks again, saying what is expected; a line that reads as an event or a
    command is never taken for an answer (the table went on typing the game). From a
    pipe, which cannot type it again, that line is read next and the flagged one written
    as played, as it is when the pipe ends: nothing it gave is lost."""
    while True:
        try:
            typed = ask(say("live.ask-flagged"), ["y", "a", "n"])
        except EOFError:
            return ("y" if piped else "n"), None
        answer = ANSWERS.get(_plain(typed))
        if answer is not None:
            return answer, None
        words = typed.split()
        state = session.state
        players = state.players if state is not None else []
        if words and (words[0] in players or words[0].lower() in VERBS or words[0].lower() in COMMANDS
                      or words[0].lower() in FRENCH_COMMANDS):
            if piped:
                show(say("live.line-not-answer-piped", line=typed.strip()))
                return "y", typed.strip()
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
    piped = not (sys.stdin.isatty() and sys.stdout.isatty())
    ask = pipe_asker() if piped else terminal_asker()

    width = terminal_width()

    def show(text: str) -> None:
        print("\n".join(cut for line in visible_lines(text).split("\n") for cut in fit(line, width)), flush=True)

    try:
        with stopping_as_ctrl_c():
            return play(path, ask, show, settings, piped)
    except (SessionError, RecordError, FileRefused, LockHeld) as error:
        print(visible_lines(str(error)), file=sys.stderr)
        return 2
    except OSError as error:
        print(visible_lines(f"{path}: " + say("file.io-error", reason=unreadable_reason(error))), file=sys.stderr)
        return 2
    except EOFError:
        return 0
