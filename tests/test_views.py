"""Looking at a game never changes it: the views a face shows between two events (the
table, the to-do, the result, the drinks) leave the replay as it would be without them.

The table page, the editor and the HTML report's table after each event look at the
game between events; Caroleto's views once closed a round whose cards were all laid,
which the next event (a bout taking from the discard) would have closed its own way:
full-game.txt, looked at after each event, ended a round too late and flagged 21 faults."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cards import UNSEEN_CARD
from referee.engine import start
from referee.games.base import Rules
from referee.notation import RecordError, read_games
from referee.record import Record

from .conftest import ROOT

RECORDS = sorted(p for p in (ROOT / "records").rglob("*.txt") if "bad" not in p.parts and "regressions" not in p.parts)


def _replayed(record: Record, look: bool) -> tuple[object, ...]:
    rules: Rules = start(record)
    known = rules.in_play | {UNSEEN_CARD}
    for event in record.events:  # what the engine's replay applies (referee/engine.py replay)
        if (event.player not in rules.players and event.verb != "round" or event.verb not in rules.verbs
                or not known.issuperset(event.cards) or event.verb == "scores"):
            continue
        if not rules.over(event):
            rules.apply(event)
        if look:
            rules.table(), rules.todo(), rules.result(), rules.tallies(), rules.drinks(), rules.legal()
    result = rules.result()
    return ([(v.code, v.line, v.column) for v in rules.violations], result.finished, result.order,
            rules.tallies(), rules.todo())


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: str(p.relative_to(ROOT / "records")))
def test_looking_between_events_changes_nothing(path: Path) -> None:
    for record in read_games(str(path)):
        if isinstance(record, RecordError):
            continue
        try:
            unseen = _replayed(record, look=False)
        except Exception:  # a record the engine alone sets up (an error it reports): not this test's
            continue
        assert _replayed(record, look=True) == unseen, f"{path}:{record.line}"


def test_a_caroleto_take_from_a_neighbour_has_its_card_not_seen_button() -> None:
    """The card taken from a neighbour is not seen at the table: the page writes the take
    with ``??`` in one tap, and the card seen in two (its suit, then its value)."""
    from referee.serve.view import legal_by_player
    from referee.state import state_in_text

    text = '[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas Dom"]\nBen dit roi\n-- manche 1\n'
    takes = [g for _, groups, _ in legal_by_player(state_in_text(text)) for g in groups if "prend" in g.label]
    assert [(g.label, g.unknown.line if g.unknown else None, g.deck) for g in takes] == [
        ("prend … à Ann", "Ben prend ?? à Ann", True)]
