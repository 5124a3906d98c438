"""``legal()`` agrees with the replay, both ways: every event it offers (every play a
group of cards allows) checks clean when appended, at a thousand random positions of
every refereed game; every line of the project's records that checks clean was offered
where it stands; and in games played by a random policy that never asks ``legal()``
(random groups, orders, draws, calls, slaps; every game but Caroleto), every move that
checks clean is offered and every move offered checks clean (referee/simulate/agreement.py). The
long run is ``python bench/legal.py --both N``."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from referee.simulate.agreement import Position, disagreements, missed_in_record, positions, random_play
from referee.cards import read_card
from referee.engine import check_games, replay, start
from referee.convert.export import line_text
from referee.games.base import Group, legal_events
from referee.notation import parse_text, read_games
from referee.record import Event, Record
from referee.simulate import rules_class, simulable_games

POSITIONS = 1000
RECORDS = Path(__file__).resolve().parent.parent / "records"


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


# --- The other way: every move that checks clean is offered ---------------------------------

MISSED: dict[str, str] = {}
"""Games whose ``legal()`` still misses moves of the records (a strict xfail: it fails
once they are offered, and then comes off this list)."""


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.xfail(reason=MISSED[g], strict=True)) if g in MISSED
                                  else g for g in sorted(p.name for p in RECORDS.iterdir() if p.is_dir() and p.name != "bad")])
def test_every_clean_line_of_the_records_was_offered(game: str) -> None:
    missed = []
    for path in sorted((RECORDS / game).glob("*.txt")):
        for record, report in check_games(read_games(str(path), io.BytesIO(path.read_bytes()))):
            if isinstance(record, Record) and report.error is None:
                missed += missed_in_record(record)
    assert not missed, f"{len(missed)} line(s); the first: {missed[:3]}"


@pytest.mark.parametrize("seed", range(12))
def test_random_carte_et_plouc_games_agree_both_ways(seed: int) -> None:
    found = random_play("carte-et-plouc", 2 + seed % 5, seed, 60)
    assert not found, found[0]


@pytest.mark.parametrize("game", ["bataille-corse", "pierre-qui-roule", "flaschenteufel"])
def test_random_games_of_the_other_games_agree_both_ways(game: str) -> None:
    """(Caroleto's rounds, drinks and bids are not in the random policy's repertoire: its
    records are compared above.)"""
    cls = rules_class(game)
    for seed in range(4):
        found = random_play(game, cls.min_players + seed % (cls.max_players - cls.min_players + 1), seed, 60)
        assert not found, found[0]


def test_a_legal_that_misses_a_group_is_caught(monkeypatch) -> None:
    from referee.games.carte_et_plouc import play

    honest = play.legal
    monkeypatch.setattr(play, "legal", lambda rules: [e for e in honest(rules) if not isinstance(e, Group)])
    assert any("checks clean, legal() did not offer it" in f for seed in range(12)
               for f in random_play("carte-et-plouc", 2 + seed % 5, seed, 60))


# --- Carte et Plouc: the cases a second implementation found missing ------------------------

HEAD = '[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n'


def rules_after(text: str):
    (record,) = parse_text(HEAD + text)
    rules = replay(start(record), record)
    assert not rules.violations, rules.violations
    return rules


def lines(rules) -> set[str]:
    return {line_text(e) for e in legal_events(rules.legal())}


def cards(text: str) -> tuple:
    return tuple(read_card(word) for word in text.split())


def test_a_group_is_a_choice_the_first_card_fits_the_others_share_its_value() -> None:
    rules = rules_after('[Starter "5C"]\nAna holds KC KH KS 4D 9D 8H 2S\nBen holds ?? ?? ?? ?? ?? ?? ??\n'
                        'Cas holds ?? ?? ?? ?? ?? ?? ??\n')
    (group,) = [g for g in rules.legal() if isinstance(g, Group)]
    assert (group.player, group.first, set(group.more), group.hand) == ("Ana", *cards("KC"), set(cards("KH KS")), 7)
    for played in ("KC KH", "KC KS", "KC KS KH", "KC KH KS"):
        assert group.allows(cards(played), None) and f"Ana plays {played}" in lines(rules)
    assert not group.allows(cards("KH KC"), None) and "Ana plays KH KC" not in lines(rules)  # the first must fit
    assert "Ana plays KC" in lines(rules)


def test_a_group_of_aces_announces_a_suit_with_its_last_ace() -> None:
    rules = rules_after('[Starter "5C"]\nAna holds AC AH 4D 9D 8H 2S 3S\nBen holds ?? ?? ?? ?? ?? ?? ??\n'
                        'Cas holds ?? ?? ?? ?? ?? ?? ??\n')
    (group,) = [g for g in rules.legal() if isinstance(g, Group)]
    assert set(group.suits) == {"S", "H", "D"}
    assert {"Ana plays AC AH for S", "Ana plays AC AH for D"} <= lines(rules)
    assert "Ana plays AC AH" not in lines(rules) and "Ana plays AC AH for C" not in lines(rules)


HANDS = "Ben holds 3S 6S 7H JH JD 10D KD\nCas holds 2S 5S 2D 3D 6D 4C 9H\n"
DOWN = "Ana plays 8C 8H 8S\nBen plays 3S\nCas plays 2S\nAna plays 4S\nBen plays 6S\nCas plays 5S\n"
"""Ana lays six cards of her seven, and keeps the last one for the test."""


def test_a_group_that_goes_out_does_not_end_on_a_forbidden_card() -> None:
    rules = rules_after('[Variants "3-de-trefle"]\n[Starter "5C"]\nAna holds 8C 8H 8S 4S 9S 3H 3C\n' + HANDS + DOWN
                        + "Ana plays 9S\nBen draws 1\nCas plays 9H\n")
    (group,) = [g for g in rules.legal() if isinstance(g, Group)]
    assert (group.first, group.more, group.not_last) == (*cards("3H"), cards("3C"), cards("3C"))
    assert "Ana plays 3H" in lines(rules) and "Ana plays 3H 3C" not in lines(rules)


def test_one_card_left_and_a_replay_owed() -> None:
    """After a Dame that leaves one card, « carte » is due before another player acts:
    the replay is legal now too."""
    rules = rules_after('[Starter "5C"]\nAna holds 8C 8H 8S 4S QS QC 9C\n' + HANDS + DOWN + "Ana plays QS QC\n")
    assert lines(rules) == {"Ana says carte", "Ana plays 9C"}


def test_going_out_on_an_ace_announces_no_suit() -> None:
    rules = rules_after('[Starter "5C"]\nAna holds 8C 8H 8S 4S 9S AH AC\n' + HANDS + DOWN
                        + "Ana plays 9S\nBen draws 1\nCas plays 9H\nAna plays AH for C\nAna says carte\n"
                        + "Ben draws 1\nCas plays 4C\n")
    assert {"Ana plays AC", "Ana plays AC for S", "Ana plays AC for C"} <= lines(rules)


def test_slaps_while_a_carte_is_due_and_a_swap_is_owed() -> None:
    """Le zéro: while the 2 is on top, the first slap and the later ones (late hands, not
    faults) are legal, a « carte » or a swap still owed or not."""
    deal = ('[Variants "zero"]\n[Starter "9S"]\nAna holds 8S 8H 8C 4C 4H 2C 9D\nBen holds 3S 6S 7H JH JD 10D KD\n'
            "Cas holds 2S 5S 2D 3D 6D 6C 5H\nAna plays 8S 8C 8H\nBen plays JH\nCas plays 5H\nAna plays 4H 4C\n"
            "Ben draws 1\nCas plays 6C\nAna plays 2C\n")
    rules = rules_after(deal)
    assert {"Ana says carte", "Ana slaps", "Ben slaps", "Cas slaps"} <= lines(rules)
    assert not any(e.verb in ("plays", "draws") for e in legal_events(rules.legal()))  # Ben's turn would miss Ana's « carte »
    slapped = rules_after(deal + "Cas slaps\n")
    assert {"Ana says carte", "Ana slaps", "Ben slaps", "Cas swaps with Ana", "Cas swaps with Ben"} <= lines(slapped)
