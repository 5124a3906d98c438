"""Every record under records/ is checked against the expectations written in it:
`; expect CODE...` on a line that must be flagged, and full-line `; expect status`,
`; expect winner`, `; expect stats`, `; expect todo`, `; expect playout ...` and
`; expect error LINE:COLUMN` comments."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from referee.engine import check_games
from referee.notation import RecordError, read_games

from .conftest import RECORDS

MARK = re.compile(r";\s*expect\s+(.*)$")
GOOD = sorted(p for p in RECORDS.rglob("*.txt") if p.parent.name != "bad")
BAD = sorted((RECORDS / "bad").glob("*.txt"))


def _expectations(path: Path) -> list[dict]:
    """Per game of the file: the flagged lines and the whole-game expectations."""
    games: list[dict] = []
    seen_event = False
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and (not games or seen_event):
            games.append({"codes": Counter(), "whole": []})
            seen_event = False
        elif stripped and not stripped.startswith(";") and not stripped.startswith("["):
            seen_event = True
        match = MARK.search(line)
        if not match or not games:
            continue
        if stripped.startswith(";"):
            games[-1]["whole"].append(match.group(1).strip())
        else:
            for code in match.group(1).split():
                games[-1]["codes"][(number, code)] += 1
    return games


def _reports(path: Path, play_out: bool = False):
    return [report for _, report in check_games(read_games(str(path)), play_out)]


@pytest.mark.parametrize("path", GOOD, ids=lambda p: str(p.relative_to(RECORDS)))
def test_record(path: Path) -> None:
    expected = _expectations(path)
    reports = _reports(path)
    assert len(reports) == len(expected)
    for report, want in zip(reports, expected):
        assert report.error is None, str(report.error)
        got = Counter((v.line, v.code) for v in report.violations)
        assert got == want["codes"], [f"{v.line}:{v.column} {v.code} {v.message}" for v in report.violations]
        for item in want["whole"]:
            _check(path, report, item)


def _check(path: Path, report, item: str) -> None:
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
        assert rest.strip('"') in report.todo
    elif kind == "match":
        from referee.match import describe

        assert describe(report.match) == rest, describe(report.match)
    elif kind == "note":
        assert rest in report.notes, report.notes
    elif kind == "playout" and not rest.startswith("playout"):
        (played,) = _reports(path, play_out=True)
        _check(path, played, rest)
    else:
        raise AssertionError(f"unknown expectation {item!r}")


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_record(path: Path) -> None:
    errors = [g for g in read_games(str(path)) if isinstance(g, RecordError)]
    reports = [r for r in _reports(path) if r.status == "error"]
    assert errors or reports, "expected an error"
    text = path.read_text(encoding="utf-8", errors="replace")
    match = re.search(r"expect error (\d+):(\d+)", text)
    first = reports[0].error
    if match:
        assert (first.line, first.column) == (int(match.group(1)), int(match.group(2))), str(first)
    assert first.message and "Traceback" not in first.message
