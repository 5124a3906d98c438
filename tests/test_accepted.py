"""Rulings the table accepted (``; accepted CODE``): a fault accepted is reported as such,
and nothing that follows from it is flagged. Bataille corse and Carte et Plouc give
penalties for faults (records/*/accepted.txt); in Pierre qui Roule, Flaschenteufel and
Caroleto no fault carries a consequence that referee would flag later, which this checks
on simulated records with mistakes: once every fault is marked accepted, nothing is
left open and no mark is stale."""

from __future__ import annotations

import re

import pytest

from referee.engine import check
from referee.notation import parse_text
from referee.simulate import rules_class, simulate

EXPECT = re.compile(r"; expect ((?:[A-Z][A-Z0-9]*-[A-Z0-9-]+ ?)+)$", re.MULTILINE)


@pytest.mark.parametrize("game", ["pierre-qui-roule", "flaschenteufel", "caroleto"])
def test_every_fault_accepted_leaves_nothing_open(game: str) -> None:
    cls = rules_class(game)
    accepted = 0
    for seed in range(12):
        players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
        text = simulate(game, players, seed, hidden=seed % 2 == 1, mistakes=0.05)
        (record,) = parse_text(EXPECT.sub(lambda m: "; accepted " + m.group(1), text))
        report = check(record)
        assert [f"{v.line} {v.code}" for v in report.violations if not v.accepted] == []
        accepted += sum(v.accepted for v in report.violations)
    assert accepted > 20
