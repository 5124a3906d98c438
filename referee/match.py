"""Matches: the games of one file that share a ``[Match]`` header are the hands of one
match, scored together in file order.

A hand takes from the previous hand of its match the headers it does not give itself:
the game, the players, the game's options and the match's own tags (Target, Hands);
the deal passes to the left, so a hand without ``[Dealer]`` is dealt by the player after
the previous dealer (or, when the hands say ``[First]`` instead, is led by the player after
the previous first player). How a hand counts is the game's ``match_points``: the hands won
(``wins``), points (``points``, the most wins) or penalty points (``penalties``, the
fewest wins). ``[Target "N"]`` ends the match once a total reaches N, ``[Hands "N"]``
after N hands."""

from __future__ import annotations

from typing import Protocol

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from .games import find_game, load_rules
from .games.base import Result, Rules, Violation, player_names
from .messages import Said, Tag, join, listed, said, say
from .text.numbers import signed, whole
from .record import Header, Record

INHERITED = ("Game", "Players", "Target", "Hands", "Event", "Date", "Place")
"""The tags a hand takes from the previous hand, besides the game's options."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Standing:
    """A match after one of its hands."""

    name: str
    hand: int
    totals: dict[str, int]
    """Points, penalty points or hands won, by player."""
    kind: str
    over: bool
    winners: list[str]
    target: int | None
    hands: int | None

    def __init__(self, name: str, hand: int, totals: dict[str, int], kind: str, over: bool = False,
                 winners: list[str] | None = None, target: int | None = None, hands: int | None = None) -> None:
        self.name = name
        self.hand = hand
        self.totals = totals
        self.kind = kind
        self.over = over
        self.winners = [] if winners is None else winners
        self.target = target
        self.hands = hands


class Report(Protocol):
    """What a match reads and adds of a game's report (``engine.GameReport``)."""

    players: list[str]
    status: str
    result: Result | None
    violations: list[Violation]
    match: Standing | None


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Match:
    """A match so far (made empty, filled hand by hand)."""

    hands: int
    finished: int
    headers: dict[str, Header]
    seat: tuple[str, str] | None
    """The previous hand's ``Dealer`` (or, without one, ``First``): the tag and the player."""
    players: tuple[str, ...]
    totals: dict[str, int]
    over: bool
    winners: list[str]
    last: int
    """The hand that ended the match."""

    def __init__(self) -> None:
        self.hands = 0
        self.finished = 0
        self.headers = {}
        self.seat = None
        self.players = ()
        self.totals = {}
        self.over = False
        self.winners = []
        self.last = 0

    def copy(self) -> _Match:
        """A match of its own with the same standing (what ``settle`` changes is copied)."""
        twin = _Match()
        twin.hands, twin.finished, twin.seat, twin.players = self.hands, self.finished, self.seat, self.players
        twin.headers, twin.totals, twin.winners = dict(self.headers), dict(self.totals), list(self.winners)
        twin.over, twin.last = self.over, self.last
        return twin


def _rules_class(record: Record) -> type[Rules] | None:
    entry = find_game(record.tag("Game", "") or "")
    return load_rules(entry) if entry is not None and entry.module is not None else None


def _number(record: Record, tag: str) -> int | None:
    return whole((record.tag(tag) or "").strip())


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
def follow_match(record: Record, games: dict[str, str], french: dict[str, bool]) -> None:
    """Note the game a match plays and its notation, as the reader does: a later hand may
    name neither (what ``notation.read_games`` takes as ``match_games`` and ``match_french``
    to read a part of a file on its own)."""
    by_tag = {h.key: h.value for h in reversed(record.headers)}
    match = by_tag.get("match")
    game = by_tag.get("game")  # a hand that names none keeps its match's
    if match is not None and game is not None:
        games[match] = game
    if match is not None:
        french[match] = record.french


class Matches:
    """Follows the matches of one file as its games are checked: ``prepare`` a record
    before its check (what it inherits), ``settle`` its report after (the standing)."""

    def __init__(self) -> None:
        self._open: dict[str, _Match] = {}

    def copy(self) -> Matches:
        """The matches as they stand, to follow on from without changing these (a record
        replayed again from a game on: referee/live.py)."""
        twin = Matches()
        twin._open = {name: match.copy() for name, match in self._open.items()}
        return twin

    def prepare(self, record: Record) -> None:
        name = record.tag("Match")
        match = self._open.get(name) if name else None
        if match is None or not match.hands:
            return
        own = {h.key for h in record.headers}
        record.inherited = [h for tag, h in match.headers.items() if tag not in own]
        if match.seat and record.header("Dealer") is None and record.header("First") is None:
            tag, previous = match.seat
            if previous in match.players:
                following = _left_of(match.players, previous)
                if following in _players(record):  # a hand of other players names its own dealer (or none)
                    record.inherited.append(Header(tag, following, record.line, 1))

    def settle(self, record: Record, report: Report) -> None:
        """The standing after this hand, on ``report.match``; match faults (a hand after
        the end, a dealer out of turn, a round out of order, totals that disagree) are
        added to the report's violations."""
        name = record.tag("Match")
        cls = _rules_class(record)
        if not name or cls is None or report.status == "error":
            return
        match = self._open.setdefault(name, _Match())
        faults: list[Violation] = []
        players = tuple(report.players)
        self._check_order(record, cls, match, players, faults)
        match.hands += 1
        kept = {t.lower() for t in INHERITED} | {o.tag.lower() for o in cls.options}
        match.headers = {h.key: h for h in [*record.inherited, *record.headers] if h.key in kept}
        match.players = players
        seat = record.header("Dealer") or record.header("First")
        match.seat = (seat.key.capitalize(), seat.value) if seat is not None else None
        result = report.result
        if result is not None and result.finished and not match.over:  # a hand after the end counts for nothing
            match.finished += 1
            self._count(cls, match, players, result)
        target, hands = _number(record, "Target"), _number(record, "Hands")
        standing = Standing(name, match.hands, dict(match.totals), cls.match_points, target=target, hands=hands)
        self._check_totals(record, cls, match, faults)
        if not match.over and ((hands and match.finished >= hands) or (target and match.totals and max(match.totals.values()) >= target)):
            match.over, match.last = True, match.hands
            best = (min if cls.match_points == "penalties" else max)(match.totals.values())
            match.winners = [p for p in players if match.totals.get(p) == best]
        if match.over:
            standing.over, standing.winners, standing.hand = True, match.winners, match.last
        report.match = standing
        if faults:
            report.violations = sorted([*report.violations, *faults], key=lambda v: (v.line, v.column))
            report.status = "violations"

    @staticmethod
    def _count(cls: type[Rules], match: _Match, players: tuple[str, ...], result: Result) -> None:
        for player in players:
            match.totals.setdefault(player, 0)
        if cls.match_points == "wins":
            if result.winner:
                match.totals[result.winner] += 1
        else:
            for player, points in result.scores.items():
                match.totals[player] = match.totals.get(player, 0) + points

    @staticmethod
    def _check_order(record: Record, cls: type[Rules], match: _Match, players: tuple[str, ...],
                     faults: list[Violation]) -> None:
        def fault(code: str, header: Header | None, wording: str = "", **fields: object) -> None:
            line, column = (header.line, header.column) if header else (record.line, 1)
            rule = cls.RULES.get(cls.CODES.get(code, ""), "")
            message = Said(wording or code, {"match": record.tag("Match"), **fields})
            faults.append(Violation(code, message, rule, None, line, column, notation="fr" if record.french else "en"))

        if match.over:
            fault("REC-AFTER-MATCH", record.headers[0] if record.headers else None, count=match.last)
        round_ = record.header("Round")
        if round_ is not None and whole(round_.value.strip()) != match.hands + 1:
            fault("REC-ROUND-ORDER", round_, tag=Tag("Round"), written=round_.value, expected=match.hands + 1)
        if match.seat is None:
            return
        tag, previous = match.seat
        seat = next((h for h in record.headers if h.key == tag.lower()), None)  # its own, not inherited
        if seat is not None and previous in players and seat.value in players and match.players == players:
            expected = _left_of(players, previous)
            if seat.value != expected:
                wording = "REC-DEALER-ROTATION" if tag == "Dealer" else "match.first-rotation"
                fault("REC-DEALER-ROTATION", seat, wording, previous=previous, expected=expected, written=seat.value)

    @staticmethod
    def _check_totals(record: Record, cls: type[Rules], match: _Match, faults: list[Violation]) -> None:
        """``[Totals "Ana 45, Ben 30"]``: the running totals the table wrote after this hand."""
        header = next((h for h in record.headers if h.key == "totals"), None)
        if header is None:
            return
        words = header.value.replace(",", " ").split()
        written = {words[i]: words[i + 1] for i in range(0, len(words) - 1, 2)}
        wrong = [p for p, v in written.items() if p not in match.totals or match.totals[p] != signed(v)]
        if wrong or len(words) % 2:
            actual = listed(f"{p} {match.totals.get(p, 0)}" for p in match.totals)
            rule = cls.RULES.get(cls.CODES.get("REC-TOTALS-MISMATCH", ""), "")
            message = said("REC-TOTALS-MISMATCH", tag=Tag("Totals"), written=header.value, actual=actual)
            faults.append(Violation("REC-TOTALS-MISMATCH", message, rule, wrong[0] if wrong else None, header.line,
                                    header.column, notation="fr" if record.french else "en"))


def _players(record: Record) -> set[str]:
    """The players a hand names (its own ``[Players]`` or its match's), as the setup reads them."""
    return set(player_names(record.tag("Players") or ""))


def _left_of(players: tuple[str, ...], player: str) -> str:
    """Who deals (or leads) after ``player``: the deal passes to the left."""
    return players[(players.index(player) + 1) % len(players)]


def describe(standing: Standing) -> str:
    """The standing in words, for the text report."""
    totals = join(f"{p} {v}" for p, v in standing.totals.items()) or say("match.no-score")
    unit = say(f"match.unit.{standing.kind}")
    if standing.over:
        return say("match.won", name=standing.name, winners=join(standing.winners), hand=standing.hand, totals=totals, unit=unit)
    return say("match.standing", name=standing.name, hand=standing.hand, totals=totals, unit=unit)
