"""``referee standings``: the evening (or the archive) added up, per player, over every
game the engine's reports give (referee/engine.py ``GameReport``), not over any text.

A finished game counts (played, won, finishing places, scores); a game still in progress
(or that never ends) and a game that cannot be read are counted apart and listed, never
dropped. Faults are counted in every game refereed, finished or not: made (the table did
not accept them) and accepted by the table (``; accepted CODE``). Players are matched by
their name as written, in Unicode NFC; names that look alike (``Zoe``, ``Zoé``; ``Ann``,
``Anne``) are told in a warning, and aliases merge them (``--alias Zoe=Zoé``)."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..files.paths import NotFound

from ..engine import GameReport
from ..games import find_game, load_rules
from ..games.base import amount_text, fold_name
from ..games.names import skeleton
from ..match import Standing
from ..messages import join, say

SCHEMA_VERSION = 1
LIKENESS = 0.8
"""How alike two names must be (difflib's ratio) to be told as a possible same player."""


def score_kind(game: str) -> str:
    """What a game's scores count: ``points``, ``penalties`` (fewer is better) or ``wins``."""
    entry = find_game(game)
    if entry is None or entry.module is None:
        return "wins"
    return str(load_rules(entry).match_points)


class PlayerTotals:
    """One player's figures, each by game kind (the game's name)."""

    def __init__(self) -> None:
        self.played: dict[str, int] = {}
        self.wins: dict[str, int] = {}
        self.places: dict[str, dict[int, int]] = {}
        """Game kind -> finishing place (1 first) -> how many times."""
        self.scores: dict[str, int] = {}
        """Points or penalty points, added up over the finished games (see score_kind)."""
        self.matches: dict[str, int] = {}
        self.match_wins: dict[str, int] = {}
        self.match_totals: dict[str, int] = {}
        """Each finished match's total for the player, added up."""
        self.unfinished = 0
        self.drinks: dict[str, int | float] = {}
        """What the rules gave, by unit."""
        self.drunk: dict[str, int | float] = {}
        """What the records wrote as drunk, by unit (only where they write drinks)."""
        self.causes: list[dict[str, object]] = []
        """Each drink with its cause, game and line."""
        self.faults = 0
        self.accepted = 0

    def json(self) -> dict[str, object]:
        return {
            "played": self.played, "wins": self.wins,
            "places": {kind: {str(p): n for p, n in sorted(places.items())} for kind, places in self.places.items()},
            "scores": self.scores, "matches": self.matches, "match_wins": self.match_wins,
            "match_totals": self.match_totals, "unfinished": self.unfinished,
            "drinks": {"given": self.drinks, "drunk": self.drunk, "causes": self.causes},
            "faults": {"made": self.faults, "accepted": self.accepted},
        }


class DrinkGame:
    """One game's drinks for the evening's chart: what the rules gave each player by unit,
    what the record wrote as drunk (None: it writes no drink), and what it is compared
    with: what the rounds whose drinks it writes gave (None: ``given``)."""

    def __init__(self, file: str, line: int, given: dict[str, dict[str, int | float]],
                 drunk: dict[str, dict[str, int | float]] | None, due: dict[str, dict[str, int | float]] | None = None) -> None:
        self.file = file
        self.line = line
        self.given = given
        self.drunk = drunk
        self.due = given if due is None else due


def _add(table: dict[str, int], key: str, amount: int = 1) -> None:
    table[key] = table.get(key, 0) + amount


class Standings:
    """The figures of every player over the reports added (``add`` each report)."""

    def __init__(self, aliases: Mapping[str, str] | None = None) -> None:
        self.aliases = {nfc(a): nfc(b) for a, b in (aliases or {}).items()}
        self.written: set[str] = set()
        """Every player's name as the games read write it (NFC), before any alias."""
        self.players: dict[str, PlayerTotals] = {}
        self.kinds: dict[str, int] = {}
        """Game kind -> finished games counted."""
        self.games: list[dict[str, object]] = []
        """Every game read: file, line, game, status, counted (whether it counts)."""
        self.unfinished: list[dict[str, object]] = []
        self.unreadable: list[dict[str, object]] = []
        self.finishes: dict[str, list[dict[str, int]]] = {}
        """Game kind -> each finished game's rank by player (1 first; the players after
        the finishing order share the rank after it), for a rating."""
        self.ratings: dict[str, dict[str, dict[str, float]]] | None = None
        """Set by ``rate`` when a rating is asked for."""
        self.history: dict[str, list[dict[str, int]]] = {}
        """Game kind -> each finished game's scores by player, in the order read."""
        self.kind_games: dict[str, list[tuple[str, int]]] = {}
        """Game kind -> the file and line of each finished game counted, in the order read."""
        self.history_games: dict[str, list[tuple[str, int]]] = {}
        """Game kind -> the file and line of each game of ``history``, in the same order."""
        self.drink_games: list[DrinkGame] = []
        """Each game that gives or writes drinks, in the order read (finished or not)."""
        self._matches: dict[tuple[str, str], tuple[str, dict[str, int], list[str], bool]] = {}
        """(file, match name) -> the match's game, totals, winners and whether it is over,
        after its last hand read."""

    def name(self, written: str) -> str:
        """A player's name as standings know it: NFC, then its alias (an alias of an alias
        followed, a circle of them stopped where it closes)."""
        name = nfc(written)
        seen = {name}
        while name in self.aliases and self.aliases[name] not in seen:
            name = self.aliases[name]
            seen.add(name)
        return name

    def player(self, written: str) -> PlayerTotals:
        name = self.name(written)
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = PlayerTotals()
        return found

    def add(self, report: GameReport) -> None:
        """Add one game's report."""
        where: dict[str, object] = {"file": report.file, "line": report.line, "game": report.game}
        result = report.result
        if report.status == "error" or result is None:
            message = report.error.message if report.error is not None else (
                report.errors[0].message if report.errors else "")
            self.unreadable.append({**where, "message": message})
            self.games.append({**where, "status": report.status, "counted": False})
            return
        self.written.update(nfc(name) for name in report.players)
        for violation in report.violations:  # a fault of a name that is not a player's is no one's
            if violation.player in report.players:
                assert violation.player is not None
                totals = self.player(violation.player)
                if violation.accepted:
                    totals.accepted += 1
                else:
                    totals.faults += 1
        for name, units in report.tallies.items():
            totals = self.player(name)
            for unit, amount in units.items():
                totals.drinks[unit] = totals.drinks.get(unit, 0) + amount
        for name, units in report.drunk.items():
            totals = self.player(name)
            for unit, amount in units.items():
                totals.drunk[unit] = totals.drunk.get(unit, 0) + amount
        if report.tallies or report.drunk:
            written = set(report.drunk_rounds)
            due: dict[str, dict[str, int | float]] = {}
            for drink in report.drinks:
                if not written or drink.round in written:
                    units = due.setdefault(drink.player, {})
                    units[drink.unit] = units.get(drink.unit, 0) + drink.amount
            self.drink_games.append(DrinkGame(report.file, report.line, self._by_name(report.tallies),
                                              self._by_name(report.drunk) if report.drunk or report.drunk_rounds else None,
                                              self._by_name(due) if report.drinks else None))
        for drink in report.drinks:
            self.player(drink.player).causes.append({"amount": drink.amount, "unit": drink.unit, "cause": drink.cause_words(report.notation),
                                                     "file": report.file, "line": drink.line,
                                                     "game_line": report.line})
        if isinstance(report.match, Standing):  # the only standing a report holds (referee/match.py)
            m = report.match
            self._matches[report.file, m.name] = (report.game, dict(m.totals), list(m.winners), m.over)
        if not result.finished:
            self.unfinished.append({**where, "status": report.status})
            self.games.append({**where, "status": report.status, "counted": False})
            for name in report.players:
                self.player(name).unfinished += 1
            return
        kind = report.game
        _add(self.kinds, kind)
        self.kind_games.setdefault(kind, []).append((report.file, report.line))
        self.games.append({**where, "status": report.status, "counted": True})
        order = result.order or ([result.winner] if result.winner else [])
        if order:
            self.finishes.setdefault(kind, []).append(
                {self.name(n): (order.index(n) + 1 if n in order else len(order) + 1) for n in report.players})
        if result.scores:
            self.history.setdefault(kind, []).append({self.name(n): v for n, v in result.scores.items()})
            self.history_games.setdefault(kind, []).append((report.file, report.line))
        for name in report.players:
            totals = self.player(name)
            _add(totals.played, kind)
            if result.winner is not None and self.name(result.winner) == self.name(name):
                _add(totals.wins, kind)
            if name in order:
                place = order.index(name) + 1
                totals.places.setdefault(kind, {})
                totals.places[kind][place] = totals.places[kind].get(place, 0) + 1
            if name in result.scores:
                _add(totals.scores, kind, result.scores[name])

    def _by_name(self, amounts: Mapping[str, Mapping[str, int | float]]) -> dict[str, dict[str, int | float]]:
        """Amounts by player and unit under the players' names as standings know them."""
        found: dict[str, dict[str, int | float]] = {}
        for written, units in amounts.items():
            mine = found.setdefault(self.name(written), {})
            for unit, amount in units.items():
                mine[unit] = mine.get(unit, 0) + amount
        return found

    def settle(self) -> None:
        """Add each match's last standing (called once every report is added)."""
        for kind, totals, winners, over in self._matches.values():
            if not over:
                continue
            for name, total in totals.items():
                player = self.player(name)
                _add(player.matches, kind)
                _add(player.match_totals, kind, total)
                if name in winners:
                    _add(player.match_wins, kind)
        self._matches.clear()

    def leaderboard(self, kind: str) -> list[str]:
        """The players of a game kind, best first: most wins, then the best scores
        (fewest penalty points), then most games, then by name."""
        penalties = score_kind(kind) == "penalties"
        players = [n for n, t in self.players.items() if kind in t.played]

        def key(name: str) -> tuple[int, int, int, str]:
            t = self.players[name]
            score = t.scores.get(kind, 0)
            return (-t.wins.get(kind, 0), score if penalties else -score, -t.played[kind], name)

        return sorted(players, key=key)

    def rate(self) -> None:
        """A rating per game kind (referee/standings/rating.py); RatingMissing without openskill."""
        from .rating import rate

        self.ratings = rate(self.finishes)

    def unused_aliases(self) -> list[tuple[str, str]]:
        """The aliases whose name no game read writes (a typo in ``--alias``, or a
        configuration's alias for another evening): said, never silently ignored."""
        return sorted((name, player) for name, player in self.aliases.items() if name not in self.written)

    def alike(self) -> list[tuple[str, str]]:
        """Pairs of names that may be one player: the same once case, accents and
        look-alike characters are left aside (``Аnn`` with a Cyrillic А), or a letter or
        so apart (``Ann``, ``Anne``)."""
        names = sorted(self.players)
        folded = {name: fold_name(skeleton(name)) for name in names}
        pairs: list[tuple[str, str]] = []
        for i, one in enumerate(names):
            for other in names[i + 1:]:
                if folded[one] == folded[other] or difflib.SequenceMatcher(None, one, other).ratio() >= LIKENESS:
                    pairs.append((one, other))
        return pairs

    def json(self) -> dict[str, object]:
        """The standings as plain data, valid against schemas/standings.schema.json."""
        return {
            "version": SCHEMA_VERSION,
            "games": len(self.games),
            "counted": sum(self.kinds.values()),
            "kinds": {kind: {"games": n, "scores": score_kind(kind), "leaderboard": self.leaderboard(kind)}
                      for kind, n in sorted(self.kinds.items())},
            "players": {name: self.players[name].json() for name in sorted(self.players)},
            "unfinished": self.unfinished,
            "unreadable": self.unreadable,
            "alike": [list(pair) for pair in self.alike()],
            "aliases": dict(sorted(self.aliases.items())),
            "unused_aliases": [list(pair) for pair in self.unused_aliases()],
            "read": self.games,
            **({"ratings": self.ratings} if self.ratings is not None else {}),
        }


def nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def add_up(reports: Iterable[GameReport], aliases: Mapping[str, str] | None = None) -> Standings:
    """The standings of some games' reports."""
    standings = Standings(aliases)
    for report in reports:
        standings.add(report)
    standings.settle()
    return standings


def reports(targets: Iterable[str | NotFound], games: dict[str, dict[str, str]] | None = None) -> Iterator[GameReport]:
    """The report of every game of the targets (as ``check`` expands them), one at a
    time; a path that gives no file is a report of an unreadable game."""
    from ..config import add_defaults
    from ..engine import check_games, error_report
    from ..convert.importer import read_any
    from ..notation import RecordError
    from ..files.paths import NotFound

    prepare = (lambda record: add_defaults(record, games)) if games else None
    for target in targets:
        if isinstance(target, NotFound):
            yield error_report(RecordError(target.path, 0, 0, target.message))
            continue
        for _, report in check_games(read_any(target, lazy=True), prepare=prepare):
            yield report


def _title(kind: str) -> str:
    entry = find_game(kind)
    return entry.title if entry is not None else kind


def _amounts(units: Mapping[str, int | float]) -> str:
    return join(amount_text(amount, unit) for unit, amount in sorted(units.items()) if amount)


def _where(game: Mapping[str, object]) -> str:
    return f"  {game['file']}:{game['line']}" + (f" {_title(str(game['game']))}" if game.get("game") else "")


def text_lines(standings: Standings) -> list[str]:
    """The standings in lines for people: a leaderboard per game kind, then each
    player's faults and drinks, then the games not counted (unwrapped: see fit)."""
    out: list[str] = [say("standings.title"), say("standings.read", count=len(standings.games)),
                      say("standings.counted", count=sum(standings.kinds.values()))]
    for one, other in standings.alike():
        out.append(say("standings.alike", one=one, other=other))
    for name, player in standings.unused_aliases():
        out.append(say("standings.unused-alias", name=name, player=player))
    if not standings.players and not standings.unreadable:
        out.append(say("standings.nothing"))
    for kind in sorted(standings.kinds):
        out += ["", say("standings.kind", title=_title(kind), count=standings.kinds[kind])]
        scores = score_kind(kind)
        for place, name in enumerate(standings.leaderboard(kind), 1):
            t = standings.players[name]
            out.append(" " + say("standings.row", place=place, player=name, played=say("standings.played", count=t.played[kind]),
                                 wins=say("standings.wins", count=t.wins.get(kind, 0))))
            if t.places.get(kind):
                places = ", ".join(say("standings.place", place=p, count=n) for p, n in sorted(t.places[kind].items()))
                out.append("    " + say("standings.places", places=places))
            if kind in t.scores and scores in ("points", "penalties"):
                out.append("    " + say(f"standings.score.{scores}", total=t.scores[kind]))
            if t.matches.get(kind):
                out.append("    " + say("standings.matches", count=t.matches[kind],
                                        won=say("standings.matches-won", count=t.match_wins.get(kind, 0)),
                                        total=t.match_totals.get(kind, 0)))
    for kind, ratings in (standings.ratings or {}).items():
        if ratings:
            out += ["", say("standings.rating", title=_title(kind))]
            best = sorted(ratings, key=lambda p: (-ratings[p]["ordinal"], p))
            out += [" " + say("standings.rating-row", player=p, ordinal=f"{ratings[p]['ordinal']:.1f}",
                              mu=f"{ratings[p]['mu']:.1f}", sigma=f"{ratings[p]['sigma']:.1f}") for p in best]
    shown = [n for n in sorted(standings.players) if _has_more(standings.players[n])]
    if shown:
        out += ["", say("standings.players")]
    for name in shown:
        t = standings.players[name]
        out.append(" " + say("standings.player", player=name))
        if t.faults or t.accepted:
            out.append("   " + say("standings.faults", count=t.faults) + ", " + say("standings.accepted", count=t.accepted))
        if t.unfinished:
            out.append("   " + say("standings.in-progress", count=t.unfinished))
        if t.drinks:
            out.append("   " + say("standings.drinks", amounts=_amounts(t.drinks)))
        if t.drunk and t.drunk != t.drinks:
            out.append("   " + say("standings.drunk", amounts=_amounts(t.drunk)))
    for key, games in (("standings.unfinished", standings.unfinished), ("standings.unreadable", standings.unreadable)):
        if games:
            out += ["", say(key, count=len(games))]
            out += [_where(g) for g in games]
    return out


def _has_more(t: PlayerTotals) -> bool:
    return bool(t.faults or t.accepted or t.unfinished or t.drinks or t.drunk)
