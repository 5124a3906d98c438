"""The replay loop shared by every game, and the report of one game."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from .cards import UNSEEN_CARD, cards_named_in
from .games import GAMES, find_game, load_rules, normalize
from .games.names import code_point, difference, skeleton
from .games.base import Drink, Result, Rules, SetupError, Violation, Violations, accepted_codes, fold_name, misspelled_tags
from .match import Matches, Standing
from .messages import Said, Tag, between, join, listed, said, say
from .text.numbers import signed
from .notation import RecordError
from .record import PREPOSITIONS, Batch, Event, Header, Record
from .spelling import NOTATIONS, spelling_of

STATUSES = ("valid", "violations", "in-progress", "never-ends", "error")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class GameReport:
    """What a check says of one game (written by hand, not as a dataclass: referee/fast/plain.py)."""

    file: str
    line: int
    game: str
    players: list[str]
    status: str
    violations: list[Violation]
    result: Result | None
    tallies: dict[str, dict[str, int | float]]
    """Drinks by player and unit (never added across units)."""
    stats: dict[str, int]
    todo: list[Said]
    """What must or may happen now, worded when shown (``todo_words``)."""
    notes: list[str]
    headers: dict[str, str]
    error: RecordError | None
    match: Standing | None
    """The standing of the game's match after it (referee/match.py), when it has one."""
    drinks: list[Drink]
    """Every drink the rules gave, with its cause (the games that have them)."""
    drunk: dict[str, dict[str, int | float]]
    """What the record wrote as drunk, by player and unit (empty: it writes no drink)."""
    drunk_rounds: dict[int, dict[str, dict[str, int | float]]]
    """The same, by round, for the rounds whose drinks the record writes (Rules.drunk_rounds)."""
    omitted: dict[str, int]
    """Violations flagged but left out of ``violations``, by code (see Found)."""
    errors: list[RecordError]
    """The lines that could not be read (the first few; ``error_count`` in all): the game
    was refereed as if they were absent, so the violations after the first may follow
    from a missing event. The status is then ``error``."""
    error_count: int
    sources: dict[int, str]
    """The text of the lines the violations point at, as read."""
    notation: str
    """The record's notation (``en``, ``fr``), whose letters its to-do lines, causes of
    drinks and results name cards in unless a reader asks for another."""

    def __init__(self, file: str, line: int, game: str, players: list[str], status: str,
                 violations: list[Violation] | None = None, result: Result | None = None,
                 tallies: dict[str, dict[str, int | float]] | None = None, stats: dict[str, int] | None = None,
                 todo: list[Said] | None = None, notes: list[str] | None = None, headers: dict[str, str] | None = None,
                 error: RecordError | None = None, match: Standing | None = None, drinks: list[Drink] | None = None,
                 drunk: dict[str, dict[str, int | float]] | None = None, omitted: dict[str, int] | None = None,
                 errors: list[RecordError] | None = None, error_count: int = 0,
                 sources: dict[int, str] | None = None,
                 drunk_rounds: dict[int, dict[str, dict[str, int | float]]] | None = None,
                 notation: str = "en") -> None:
        """A list or dictionary not given is a new empty one."""
        self.file = file
        self.line = line
        self.game = game
        self.players = players
        self.status = status
        self.violations = [] if violations is None else violations
        self.result = result
        self.tallies = {} if tallies is None else tallies
        self.stats = {} if stats is None else stats
        self.todo = [] if todo is None else todo
        self.notes = [] if notes is None else notes
        self.headers = {} if headers is None else headers
        self.error = error
        self.match = match
        self.drinks = [] if drinks is None else drinks
        self.drunk = {} if drunk is None else drunk
        self.drunk_rounds = {} if drunk_rounds is None else drunk_rounds
        self.omitted = {} if omitted is None else omitted
        self.errors = [] if errors is None else errors
        self.error_count = error_count
        self.sources = {} if sources is None else sources
        self.notation = notation

    def todo_words(self, notation: str | None = None) -> list[str]:
        """Its to-do lines in the language in use, their cards in ``notation``'s letters
        (None: its record's)."""
        written = NOTATIONS[notation or self.notation]
        return [todo.words(written) for todo in self.todo]

    def result_said(self) -> list[Said]:
        """Its result as sentences worded when shown: the winner, the finishing order (of
        more than one player), the scores and what they count (none: no result)."""
        return [] if self.result is None else result_said(self.result, self.game)


def result_said(result: Result, game: str) -> list[Said]:
    """A game's result as sentences worded when shown (see ``GameReport.result_said``);
    ``game``: the game's name, whose rules say what its scores count."""
    sentences = []
    if result.winner:
        sentences.append(said("report.winner", player=result.winner))
    if len(result.order) > 1:
        sentences.append(said("report.order", players=listed(result.order)))
    if result.scores:
        entry = find_game(game)
        assert entry is not None, game  # a game that has scores is refereed
        points: str = load_rules(entry).match_points
        scores = between(", ", [said("report.score", player=p, score=v) for p, v in result.scores.items()])
        sentences.append(said("report.scores", scores=scores, unit=said(f"match.unit.{points}")))
    return sentences


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Found:
    """A game's violations as they are flagged: each handed to ``each`` when given (to be
    written at once), the first ``keep`` of each code (at least one) kept for the report,
    the others only counted; so a game's violations take no memory however many they are.
    What the replay asks of them is kept whole: how many the table did not accept, and
    where the table accepted one."""

    def __init__(self, keep: int | None = None, each: Callable[[Violation], object] | None = None):
        self.keep = None if keep is None else max(keep, 1)
        self.each = each
        self.kept: list[Violation] = []
        self.seen: dict[str, int] = {}
        self.count = self.open = 0
        self.accepted: set[tuple[int, str]] = set()
        """(line, code) of each violation the table accepted (``; accepted CODE``)."""
        self.sources: dict[int, str] = {}
        """The text of the lines the kept violations point at, taken when flagged."""
        self.source_of: Callable[[int], str | None] | None = None

    def append(self, violation: Violation) -> None:
        self.count += 1
        if violation.accepted:
            self.accepted.add((violation.line, violation.code))
        else:
            self.open += 1
        if self.each is not None:
            self.each(violation)
        seen = self.seen[violation.code] = self.seen.get(violation.code, 0) + 1
        if self.keep is None or seen <= self.keep:
            self.kept.append(violation)
            if self.source_of is not None and violation.line not in self.sources:
                source = self.source_of(violation.line)
                if source is not None:
                    self.sources[violation.line] = source

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


def _game_tag(record: Record) -> Header | None:
    """A header whose tag looks like a misspelled ``Game`` ([Gmae], [Games], [Jeu] not)."""
    import difflib  # here: only a game without [Game] needs it

    return next((h for h in record.headers if difflib.get_close_matches(h.tag.lower(), ["game"], n=1, cutoff=0.7)), None)


PEEKED = 4
"""Batches of a game read lazily looked at for an event, at most, before it is set up."""


def _has_events(record: Record) -> bool:
    """Whether a game has events; for a game read lazily, its first batches are read
    (and kept for the replay) until one has an event."""
    if record.events or record.batches is None:
        return bool(record.events)
    import itertools

    peeked: list[Batch] = []
    for batch in itertools.islice(record.batches, PEEKED):
        peeked.append(batch)
        if batch.events:
            break
    found = bool(peeked) and (bool(peeked[-1].events) or len(peeked) == PEEKED)
    record.batches = itertools.chain(peeked, record.batches)
    return found


def start(record: Record) -> Rules:
    """The rules of a record's game, set up from its headers."""
    header = record.header("Game")
    if header is None:
        everything = join((g.name for g in GAMES), "or")
        near = _game_tag(record)
        if near is not None:  # [Gmae "..."]
            game = find_game(near.value)
            raise SetupError(say("setup.game-misspelled", tag=near.tag, value=game.name if game else "...",
                                 games=everything), near)
        if record.headers and not _has_events(record):  # [Result "*"] after the events, as PGN ends a game
            raise SetupError(say("setup.headers-alone"), record.headers[0])
        raise SetupError(say("setup.no-game", games=everything), record.headers[0] if record.headers else None)
    entry = find_game(header.value)
    if entry is None:
        raise SetupError(say("setup.unknown-game", game=header.value, hint=close_game(header.value), games=refereed_games()), header)
    if entry.module is None:
        raise SetupError(say("setup.not-refereed", title=entry.title, games=refereed_games()), header)
    rules_class = load_rules(entry)
    return rules_class(rules_class.setup_from(record))


def close_game(value: str) -> str:
    """`` (did you mean 'bataille-corse'?)`` for a name close to a game's; else nothing."""
    import difflib  # here: only an unknown game needs it

    close = difflib.get_close_matches(normalize(value), [g.name for g in GAMES], n=1, cutoff=0.6)
    return say("syntax.did-you-mean", suggestion=close[0]) if close else ""


def refereed_games() -> str:
    """The games referee referees, in words."""
    return join(g.name for g in GAMES if g.module)


LOST_FAULTED, LOST_WINDOW = 30, 40
"""The replay gives up following a game (``Rules.lost_at``) at the event that makes
LOST_FAULTED of the last LOST_WINDOW events each break a rule the table did not accept:
the record no longer tells the game the referee replays (a line missing or miscopied
before them throws every turn after it off), and flagging on would bury that one fault
under thousands. Tables that make mistakes stay far below it: at one event in ten, at
most 11 of 40 (``simulate --mistakes 0.1``, every game); a line dropped from a game with
known hands reaches 40 of 40 within a few dozen events."""
_RECENT = (1 << LOST_WINDOW) - 1


def _faulted(found: Violations, before: int) -> bool:
    """For violations that are not a Found (a list, as ``state`` replays): whether the
    event just replayed added one the table did not accept (``before``: how many there
    were before it)."""
    if isinstance(found, list):
        return any(not v.accepted for v in found[before:])
    return len(found) != before


def replay(rules: Rules, record: Record, held: list[tuple[Event, int]] | None = None) -> Rules:
    """Apply every event of the record; a broken rule is flagged and play goes on, until
    the record no longer tells the game (LOST_FAULTED): the events after that are
    counted, not checked. ``held``: for a game replayed in parts (the live record's, from
    a checkpoint), the card outside the deck still waiting when the part before ended
    (taken from it) and when this one ends (put in it), as one replay of the whole would
    have it waiting."""
    players = set(rules.players)
    known = rules.in_play | {UNSEEN_CARD}
    verbs, targets, apply, over = rules.verbs, rules.targets, rules.apply, rules.over
    found = rules.violations
    counted = found if isinstance(found, Found) else None  # check's: it counts the faults not accepted
    stray: tuple[Event, int] | None = held.pop() if held else None
    """A card outside the deck laid by a one-card line, waiting to see whether its player
    corrects it (their next event lays another card) or the table lets it stand."""
    for batch in record.each_batch():
        for event in batch.events:
            if rules.lost_at:
                rules.unchecked += 1
                rules.unchecked_last = event.line
                continue
            before = counted.open if counted is not None else len(found)
            if stray is not None:
                laid, stray = stray, None
                if event.player != laid[0].player or event.verb != laid[0].verb:
                    rules.lay_stray(*laid)
            if event.comment is not None and "accepted" in event.comment:
                _mark(rules, event)
            if event.player not in players and event.verb != "round":
                rules.flag("REC-UNKNOWN-PLAYER", event, players=listed(rules.players), hint=_close_name(event.player, rules.players))
            elif event.target is not None and event.target not in players:
                rules.flag("REC-UNKNOWN-PLAYER", event, player=event.target, players=listed(rules.players),
                           hint=_close_name(event.target, rules.players))
            elif event.verb not in verbs:
                rules.flag("REC-UNSUPPORTED-EVENT", event, verb="-- round" if event.verb == "round" else event.verb)
            elif event.target is not None and event.verb not in targets:
                rules.flag("REC-UNSUPPORTED-EVENT", event, verb=f"{event.verb} … {PREPOSITIONS.get(event.verb, '')}".strip())
            elif event.cards and not known.issuperset(event.cards):
                index = next(i for i, c in enumerate(event.cards) if c not in known)
                rules.flag("REC-NOT-IN-DECK", event, event.card_column(index), card=event.cards[index])
                if event.verb == "plays" and len(event.cards) == 1 and not over(event):
                    stray = (event, index)
            elif event.verb == "scores":
                if len(rules.claims) < CLAIMS_KEPT:
                    rules.claims.append(event)
                elif len(rules.claims) == CLAIMS_KEPT:
                    rules.notes.append(said("note.claims-unchecked", line=event.line, count=CLAIMS_KEPT))
                    rules.claims.append(event)
            elif over(event):
                rules.flag("REC-AFTER-END", event, result=_outcome(rules.result()))
                continue  # a game over has nothing left to follow: no sign of a record lost
            else:
                apply(event)
            faulted = counted.open != before if counted is not None else _faulted(found, before)
            if faulted or rules.recent:
                rules.recent = recent = ((rules.recent << 1) | faulted) & _RECENT
                if faulted and recent.bit_count() >= LOST_FAULTED:
                    rules.lost_at = event.line
    if held is not None and stray is not None:
        held.append(stray)
    return rules


def _close_name(name: str, players: Collection[str]) -> Said | str:
    """' (did you mean Noé?)' for a name that differs from a player's only in case,
    accents or look-alike characters (Noe, noé, a Cyrillic Аnn), or by a letter or two;
    empty otherwise."""
    import difflib

    same = [p for p in players if fold_name(p) == fold_name(name)]
    if not same and not (name.isascii() and all(p.isascii() for p in players)):
        looks = [p for p in players if fold_name(skeleton(p)) == fold_name(skeleton(name))]
        if looks and (character := difference(name, looks[0])) is not None:
            key = "hint.player-look-alike" if character in looks[0] else "hint.name-look-alike"
            return said(key, player=looks[0], character=code_point(character))
    close = same or difflib.get_close_matches(name, list(players), n=1, cutoff=0.75)
    return said("hint.player", player=close[0]) if close else ""


def _effective_headers(record: Record) -> dict[str, str]:
    """The headers as referee reads them: the first of a tag given twice, then the ones
    inherited from the game's match."""
    shown: dict[str, str] = {}
    seen: set[str] = set()
    for header in [*record.headers, *record.inherited]:
        if header.key not in seen:
            seen.add(header.key)
            shown[header.tag] = header.value
    return shown


def _outcome(result: Result) -> Said:
    if result.winner:
        return said("report.winner", player=result.winner)
    if result.finished:
        return said("report.no-winner")
    return said("report.never-ends" if result.never_ends else "report.in-progress")


def check(record: Record, play_out: bool = False, found: Found | None = None) -> GameReport:
    """Replay one record and say what it holds; its violations go to ``found`` when given
    (the report then holds those it kept), else all into the report. A line that cannot
    be read is reported, and the game refereed as if it were absent. What is said of a
    record in French notation names its cards in French letters (``DP``)."""
    if not record.french:  # the usual case, once per game: no context to enter
        return _check(record, play_out, found)
    with cards_named_in(True):
        return _check(record, play_out, found)


def _check(record: Record, play_out: bool, found: Found | None) -> GameReport:
    game = record.tag("Game", "") or ""
    try:
        rules = start(record)
    except SetupError as error:
        _drain(record)
        report = error_report(_setup_error(record, error), game)
        report.errors, report.error_count = record.errors, record.error_count
        return report
    found = found if found is not None else Found()
    found.source_of = lambda line: record.sources((line,)).get(line)
    rules.violations = found
    replay(rules, record)
    return finish(rules, record, play_out)


def finish(rules: Rules, record: Record, play_out: bool = False) -> GameReport:
    """The report of a game whose events are all replayed (``rules.violations`` a Found):
    what its end, its headers (a tag close to one the game reads, ``Result``) and its
    accepted marks add. The rules are ended with it (a language server keeps copies of
    them to replay from)."""
    found = rules.violations
    if not isinstance(found, Found):
        raise TypeError("finish: the rules' violations must be a Found (see check)")
    lost = rules.lost_at
    if not lost:
        if play_out:
            rules.play_out()
        rules.settle()
        if _result_tag(record):
            rules.conclude()
    result = rules.result()
    for header, known in misspelled_tags(record, type(rules)):  # [Slap "sandwich"]: its default would apply in silence
        _violation(rules, "REC-MISSPELLED-TAG", header.line, header.column, None, tag=header.tag, known=known)
    if lost:  # its end, its result and its scores were not followed: said, not judged
        rules.notes.append(said("note.lost", line=lost, faulted=LOST_FAULTED, window=LOST_WINDOW, count=rules.unchecked,
                                last=rules.unchecked_last) if rules.unchecked else
                           said("note.lost-last", line=lost, faulted=LOST_FAULTED, window=LOST_WINDOW))
    else:
        _check_result_tag(rules, record, result)
    _check_accepted_marks(rules)
    status = "error" if record.error_count else "violations" if found.open else status_of([], result)
    return GameReport(
        record.path, record.line, rules.name, list(rules.players), status,
        sorted(found, key=lambda v: (v.line, v.column)), result,
        rules.tallies(), rules.stats(), [] if result.never_ends or lost else rules.todo(),
        [*_worded_notes(rules, record), *([say("report.more-notes", count=rules.notes.more)] if rules.notes.more else [])],
        _effective_headers(record), record.errors[0] if record.errors else None, drinks=rules.drinks(),
        omitted=found.omitted(), errors=record.errors, error_count=record.error_count, sources=found.sources,
        drunk=rules.drunk(), drunk_rounds=rules.drunk_rounds(), notation="fr" if record.french else "en",
    )


def _worded_notes(rules: Rules, record: Record) -> list[str]:
    """The game's notes (said during the replay, not worded) in the language in use, their
    cards in the record's notation."""
    written = spelling_of(record)
    return [note if isinstance(note, str) else note.words(written) for note in rules.notes]


def _drain(record: Record) -> None:
    """Read a game that cannot be refereed to its end: its unreadable lines are still told."""
    for _ in record.each_batch():
        pass


def status_of(violations: list[Violation], result: Result) -> str:
    """A game's status: violations (any the table did not accept), never-ends,
    in-progress or valid."""
    if any(not v.accepted for v in violations):
        return "violations"
    if result.never_ends:
        return "never-ends"
    return "valid" if result.finished else "in-progress"


def check_games(items: Iterable[Record | RecordError], play_out: bool = False,
                found: Callable[[Record], Found] | None = None,
                prepare: Callable[[Record], None] | None = None,
                matches: Matches | None = None) -> Iterator[tuple[Record | RecordError, GameReport]]:
    """The report of each game of one file, in order, with the standing of its match
    (the games that share a ``[Match]`` header) after it; ``found`` gives each game where
    its violations go (see check); ``prepare`` is called on each record once it has what
    its match gives it (the configuration's default options). ``matches``: the matches as
    the games before these left them (changed as these are checked)."""
    matches = matches if matches is not None else Matches()
    for item in items:
        if isinstance(item, RecordError):
            yield item, error_report(item)
            continue
        matches.prepare(item)
        if prepare is not None:
            prepare(item)
        report = check(item, play_out, found(item) if found is not None else None)
        matches.settle(item, report)
        missing = {v.line for v in report.violations} - report.sources.keys()
        if missing:  # found after the replay (a match's faults, on its headers)
            report.sources.update(item.sources(missing))
        yield item, report
        del item, report  # not held while the next game is read: one game in memory at a time


def _result_tag(record: Record) -> str:
    """The outcome a ``Result`` header gives; empty when it gives none (absent, empty,
    or ``*``: unknown or unfinished, as in PGN)."""
    written = (record.tag("Result") or "").strip()
    return "" if written == "*" else written


def _check_result_tag(rules: Rules, record: Record, result: Result) -> None:
    """A ``Result`` header names the winner, or the finishing order from the winner on;
    each ``scores`` line gives a player's score for the game: both must match the replay."""
    written = _result_tag(record)
    names = written.replace(",", " ").split()
    if names and names != (result.order[: len(names)] if len(names) > 1 else [result.winner]):
        header = record.header("Result")
        assert header is not None  # the written result is its value
        actual = said("report.order", players=listed(result.order)) if len(names) > 1 and result.order else _outcome(result)
        _violation(rules, "REC-RESULT-MISMATCH", header.line, header.column, None, tag=Tag("Result"), written=written,
                   actual=actual)
    for claim in rules.claims[:CLAIMS_KEPT]:
        if not result.finished:
            rules.notes.append(said("note.score-unfinished", player=claim.player, line=claim.line))
        elif claim.player not in result.scores or result.scores[claim.player] != signed(claim.word or ""):
            _violation(rules, "REC-SCORE-MISMATCH", claim.line, claim.column, claim.player, written=signed(claim.word or ""),
                       actual=result.scores.get(claim.player, 0) if result.scores else said("score.none"),
                       why=rules.score_why(claim.player) if result.scores else "")


CLAIMS_KEPT = 1000
"""The ``scores`` lines a game keeps to check at its end; past that many, none is kept."""
MARKS_KEPT = 10_000
"""``; accepted`` marks waiting for their fault; past that many, the oldest is settled at
once (a fault is flagged at its own line, or soon after when a later play proves it)."""


def _mark(rules: Rules, event: Event) -> None:
    """Keep an ``; accepted CODE`` mark until the end of the replay, when it must match a
    violation of that code on its line."""
    marks = rules.accepted_marks
    marks.append((event.line, event.column, tuple(accepted_codes(event.comment or ""))))
    if len(marks) > MARKS_KEPT:
        _settle_mark(rules, *marks.popleft())


def _check_accepted_marks(rules: Rules) -> None:
    """Each mark still waiting must match a violation of its code on its line."""
    while rules.accepted_marks:
        _settle_mark(rules, *rules.accepted_marks.popleft())


def _settle_mark(rules: Rules, line: int, column: int, codes: tuple[str, ...]) -> None:
    found = rules.violations
    accepted = found.accepted if isinstance(found, Found) else {(v.line, v.code) for v in found if v.accepted}
    for code in codes:
        if (line, code) not in accepted:
            _violation(rules, "REC-STALE-ACCEPTED", line, column, None, mark=code)


def _violation(rules: Rules, code: str, line: int, column: int, player: str | None, **fields: object) -> None:
    """A violation found by the engine once the replay is over (not at an event)."""
    fields["player"] = player
    rule = rules.RULES.get(rules.CODES.get(code, ""), "")
    rules.violations.append(Violation(code, Said(code, fields), rule, player, line, column,
                                      notation="fr" if rules.setup.record.french else "en"))
