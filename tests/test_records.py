"""Every record under records/ is checked against the expectations written in it (see
tests/expectations.py); every record reads back the same from its text and JSON forms."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from referee.engine import check_games
from referee.convert.export import record_to_json, record_to_text
from referee.notation import RecordError, parse_text, read_games
from referee.record import Record
from referee.files.resources import read_resource

from .conftest import RECORDS
from .expectations import check_expectations

GOOD = sorted(p for p in RECORDS.rglob("*.txt") if p.parent.name != "bad")
BAD = sorted((RECORDS / "bad").glob("*.txt"))


@pytest.mark.parametrize("path", GOOD, ids=lambda p: str(p.relative_to(RECORDS)))
def test_record(path: Path) -> None:
    check_expectations(path.read_text(encoding="utf-8-sig"))


def _facts(record) -> tuple:
    """What a record says, without its places on the page (nor the order of its headers,
    which the canonical form sets: a tag given twice keeps its own)."""
    headers = sorted(((h.key, h.value, h.comment) for h in record.headers), key=lambda h: h[0])
    return (headers,
            [(e.player, e.verb, e.cards, e.suit, e.target, e.word, e.move, e.time, e.comment) for e in record.events],
            [c.text for c in record.comments])


@pytest.mark.parametrize("path", GOOD, ids=lambda p: str(p.relative_to(RECORDS)))
def test_record_round_trip(path: Path) -> None:
    """Text and JSON exports keep everything the record says; the JSON is valid."""
    schema = json.loads(read_resource("schemas", "record.schema.json"))
    records = [r for r in read_games(str(path)) if not isinstance(r, RecordError)]
    assert records
    again = parse_text("".join(record_to_text(record) for record in records))  # a match's hands read together
    assert [_facts(a) for a in again] == [_facts(r) for r in records]
    for record in records:
        jsonschema.validate({"file": str(path), "games": [record_to_json(record)]}, schema)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_record(path: Path) -> None:
    reports = [r for _, r in check_games(read_games(str(path))) if r.status == "error"]
    assert reports, "expected an error"
    text = path.read_text(encoding="utf-8", errors="replace")
    match = re.search(r"expect error (\d+):(\d+)", text)
    first = reports[0].error
    if match:
        assert (first.line, first.column) == (int(match.group(1)), int(match.group(2))), str(first)
    assert first.message and "Traceback" not in first.message


def test_a_header_after_the_events_says_where_headers_go() -> None:
    (first, _), (second, report) = check_games(read_games(str(RECORDS / "bad" / "result-after-events.txt")))
    assert isinstance(first, Record) and report.status == "error"
    assert "put its headers before its first event" in report.error.message
