"""``legal()`` agrees with the replay: every event it offers checks clean when appended,
at a thousand random positions of every refereed game (referee/agreement.py); the long
run is ``python bench/legal.py``."""

from __future__ import annotations

import random

import pytest

from referee.agreement import Position, disagreements, positions
from referee.record import Event
from referee.simulate import simulable_games

POSITIONS = 1000


@pytest.mark.parametrize("game", simulable_games())
def test_every_legal_event_checks_clean_when_appended(game: str) -> None:
    rng = random.Random(game)
    found = [d for position in positions(game, POSITIONS, seed=1) for d in disagreements(position, rng)]
    assert not found, f"{len(found)} disagreement(s); the first:\n{found[0]}"


def test_a_legal_that_offers_a_fault_is_caught(monkeypatch) -> None:
    from referee.games.bataille_corse import BatailleCorse

    honest = BatailleCorse.legal
    monkeypatch.setattr(BatailleCorse, "legal", lambda self: [*honest(self), Event(self.players[0], "collects", 0, 0)])
    text = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 5H\n'
    found = disagreements(Position("bataille-corse", 0, text), random.Random(0))
    assert found and "legal() offers 'Alice collects', flagged BC-NOT-WON" in found[0]
