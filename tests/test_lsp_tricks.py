"""The end of each trick in an editor (issue 37): an inlay hint with the table after it,
and a folding range for the trick, in the trick games (Flaschenteufel, Pierre qui
Roule); each trick found as ``check`` counts the tricks taken, a game replayed line by
line."""

from __future__ import annotations

import pytest

from referee.engine import check
from referee.notation import parse_text
from referee.state import state_in_text

from .conftest import RECORDS
from .lsp_client import Client, running

pytest.importorskip("pygls")

RECORD = RECORDS / "flaschenteufel" / "card-points.txt"


def _trick_ends(text: str) -> list[int]:
    """The lines after which ``check`` counts one more trick taken or picked up."""
    (record,) = parse_text(text)
    ends, before = [], 0
    for n, event in enumerate(record.events):
        stats = check(record.replace(events=record.events[: n + 1])).stats
        taken = stats.get("tricks_won", 0) + stats.get("pick_ups", 0)
        if taken > before:
            ends.append(event.line)
        before = taken
    return ends


@pytest.fixture(scope="module")
def client():
    with running() as client:
        yield client


def test_a_hint_at_the_end_of_each_trick(client: Client) -> None:
    text = RECORD.read_text(encoding="utf-8")
    ends = _trick_ends(text)
    assert len(ends) > 5
    uri = "file:///lsp-tricks/hints.txt"
    client.open(uri, text)
    found = client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": text.count("\n") + 1, "character": 0}}})
    hinted = {h["position"]["line"] + 1: h["label"] for h in found}
    assert set(ends) <= set(hinted)
    for line in ends:
        for player, hand in state_in_text(text, line).table.hands.items():
            assert f"{player} {hand.count}" in hinted[line]
    middle = client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {  # only what is asked
        "start": {"line": ends[2] - 1, "character": 0}, "end": {"line": ends[3] - 1, "character": 0}}})
    assert [h["position"]["line"] + 1 for h in middle] == ends[2:4]
    assert [h["label"] for h in middle] == [hinted[ends[2]], hinted[ends[3]]]


def test_each_trick_folds(client: Client) -> None:
    text = RECORD.read_text(encoding="utf-8")
    ends = _trick_ends(text)
    uri = "file:///lsp-tricks/folding.txt"
    client.open(uri, text)
    found = client.request("textDocument/foldingRange", {"textDocument": {"uri": uri}})
    folds = {(r["startLine"] + 1, r["endLine"] + 1) for r in found}
    lines = text.split("\n")
    starts = [next(n for n in range(1 if i == 0 else ends[i - 1] + 1, end + 1) if " plays " in lines[n - 1])
              for i, end in enumerate(ends)]
    assert {(s, e) for s, e in zip(starts, ends) if e > s} <= folds

