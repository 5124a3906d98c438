"""The expectations written in a record, and their check against referee's reports.

A record marks what referee must say of it: ``; expect CODE...`` on a line that must be
flagged with those codes (a fault marked ``; accepted CODE`` is the table's own ruling,
checked by referee itself), and whole-game expectations as full-line comments:
``; expect status S``, ``; expect winner P``, ``; expect stats k=v ...``,
``; expect todo TEXT``, ``; expect note TEXT``, ``; expect match TEXT``,
``; expect tally PLAYER unit=amount ...`` (a player's drinks by unit, all of them: sips,
half, glass, up, central; ``nothing`` for none; thirds as ``1/3``) and
``; expect playout ...`` (the same, after ``--play-out``); ``; expect state LABEL: VALUE``
checks the table where the comment stands, after the events above it (``referee state
--at`` that line shows an item ``LABEL: VALUE``). A game whose rules are not refereed
yet is only read: its expectations wait for its rules."""

from __future__ import annotations

import io
import re
from collections import Counter

from referee.engine import check_games
from referee.games import find_game
from referee.notation import RecordError, read_games
from referee.record import Record

MARK = re.compile(r";\s*expect\s+(.*)$")


def expectations(text: str) -> list[dict]:
    """Per game of the text: the flagged lines and the whole-game expectations."""
    games: list[dict] = []
    seen_event = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and (not games or seen_event):
            games.append({"codes": Counter(), "whole": [], "states": []})
            seen_event = False
        elif stripped and not stripped.startswith(";") and not stripped.startswith("["):
            seen_event = True
        match = MARK.search(line)
        if not match or not games:
            continue
        if stripped.startswith(";") and match.group(1).startswith("state "):
            games[-1]["states"].append((number, match.group(1)[len("state "):].strip()))
        elif stripped.startswith(";"):
            games[-1]["whole"].append(match.group(1).strip())
        else:
            for code in match.group(1).split():
                games[-1]["codes"][(number, code)] += 1
    return games


def reports(text: str, play_out: bool = False) -> list:
    data = io.BytesIO(text.encode("utf-8"))
    return [report for _, report in check_games(read_games("<record>", data), play_out)]


def refereed(record: Record | RecordError) -> bool:
    """Whether the game of a record is refereed (else it is only read)."""
    if isinstance(record, RecordError):
        return True
    entry = find_game(record.tag("Game", "") or "")
    return entry is None or entry.module is not None


def check_expectations(text: str) -> int:
    """Check every refereed game of the text against what it marks; the number of
    games checked so."""
    records = list(read_games("<record>", io.BytesIO(text.encode("utf-8"))))
    expected = expectations(text)
    assert len(records) == len(expected)
    checked = 0
    for record, report, want in zip(records, reports(text), expected):
        assert not isinstance(record, RecordError), str(record)
        if not refereed(record):
            continue
        assert report.error is None, str(report.error)
        checked += 1
        got = Counter((v.line, v.code) for v in report.violations if not v.accepted)
        assert got == want["codes"], [f"{v.line}:{v.column} {v.code} {v.message}" for v in report.violations]
        for item in want["whole"]:
            check_one(text, report, item)
        for line, item in want["states"]:
            check_state(text, line, item)
    return checked


def check_state(text: str, line: int, item: str) -> None:
    """``LABEL: VALUE`` is among the items of the state after line ``line``."""
    from referee.state import items, state_in_text

    label, _, value = item.partition(": ")
    shown = items(state_in_text(text, line))
    assert (label, value) in shown, f"line {line}: {item!r} not in {shown}"


def check_one(text: str, report, item: str) -> None:
    """One whole-game expectation; ``playout ...`` checks the report of the play-out."""
    kind, _, rest = item.partition(" ")
    if kind == "status":
        assert report.status == rest
    elif kind == "winner":
        assert report.result.winner == rest
    elif kind == "stats":
        for pair in rest.split():
            key, value = pair.split("=")
            assert report.stats[key] == int(value), key
    elif kind == "todo":
        assert rest.strip('"') in report.todo_words(), report.todo_words()
    elif kind == "note":
        assert rest in report.notes, report.notes
    elif kind == "match":
        from referee.match import describe

        assert describe(report.match) == rest, describe(report.match)
    elif kind == "tally":
        from fractions import Fraction

        player, *pairs = rest.split()
        want = {} if pairs == ["nothing"] else {u: Fraction(a) for u, a in (p.split("=") for p in pairs)}
        got = {u: Fraction(a).limit_denominator(3) for u, a in report.tallies.get(player, {}).items()}
        assert got == want, (player, report.tallies.get(player))
    elif kind == "playout" and not rest.startswith("playout"):
        (played,) = reports(text, play_out=True)
        check_one(text, played, rest)
    else:
        raise AssertionError(f"unknown expectation {item!r}")
