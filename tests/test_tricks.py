"""The trick machinery shared by Pierre qui Roule and Flaschenteufel (referee/games/tricks.py):
what is known of a hand and since when, every code's example and explanation, and legal()
over simulated positions."""

from __future__ import annotations

import random

import pytest

from referee.cards import UNSEEN_CARD, read_card
from referee.engine import check
from referee.convert.export import line_text
from referee.games.flaschenteufel import Flaschenteufel
from referee.games.pierre_qui_roule import PierreQuiRoule
from referee.games.tricks import Holding
from referee.messages import ENGLISH
from referee.notation import parse_text
from referee.simulate import simulate

GAMES = (PierreQuiRoule, Flaschenteufel)
ANCHORED_EARLIER = {"TR-REVOKE-PROVEN", "REC-RESULT-MISMATCH"}
"""Codes flagged before the last line of their example: at the play a later one proves
to be a revoke, at the [Result] header."""
MATCH_CODES = {"REC-TOTALS-MISMATCH", "REC-AFTER-MATCH", "REC-ROUND-ORDER", "REC-DEALER-ROTATION"}
"""Codes of a match (referee/match.py), checked by its own tests."""


def test_an_unseen_card_is_surely_held_since_the_latest_unseen_card_came_in():
    hand = Holding(unseen=[0, 0, 5])
    assert hand.take_unseen() == 5  # it may be the card that came in at 5
    assert hand.unseen == [0, 5]  # the earliest goes: what is left stays on the safe side
    hand.add(read_card("7H"), 9)
    assert hand.count == 3 and hand.known == {read_card("7H"): 9}


def test_a_card_that_left_unseen_forgets_the_hand():
    hand = Holding({read_card("7H"): 0, read_card("8H"): 4})
    hand.lose_one()
    assert hand.known == {} and hand.unseen == [4]
    hand.add(UNSEEN_CARD, 2)
    assert hand.unseen == [2, 4]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_code_has_an_example_and_an_explanation(game):
    assert set(game.EXAMPLES) == set(game.CODES) - MATCH_CODES
    assert all(f"why.{code}" in ENGLISH and code in ENGLISH for code in game.CODES)
    assert all(game.RULES[rule] for rule in game.CODES.values())


@pytest.mark.parametrize(("game", "code"), [(g, c) for g in GAMES for c in g.EXAMPLES], ids=lambda x: getattr(x, "name", x))
def test_each_example_breaks_its_rule_on_its_last_line(game, code):
    (record,) = parse_text(game.EXAMPLES[code])
    report = check(record)
    last = record.events[-1].line
    flagged = [v for v in report.violations if v.code == code]
    assert flagged, [(v.code, v.line) for v in report.violations]
    if code == "TR-REVOKE-PROVEN":
        assert f"line {last}" in flagged[0].message and flagged[0].line < last
    elif code == "REC-RESULT-MISMATCH":
        assert flagged[0].line == record.header("Result").line
    else:
        assert flagged[-1].line == last


def _positions(game: str, players: int, seed: int, hidden: bool, cuts: int):
    """A simulated record cut after some of its events: (the text so far, the rules there)."""
    text = simulate(game, players, seed, hidden=hidden, max_events=400)
    (record,) = parse_text(text)
    lines = text.split("\n")
    rng = random.Random(seed)
    events = [e for e in record.events if e.verb != "holds"]
    for event in rng.sample(events, min(cuts, len(events))):
        head = "\n".join(line for line in lines[: event.line - 1] if not line.startswith("[Result")) + "\n"
        (prefix,) = parse_text(head)
        report = check(prefix)
        assert not report.violations, (head, report.violations)
        from referee.engine import replay, start

        yield head, replay(start(prefix), prefix)


@pytest.mark.parametrize("hidden", [False, True], ids=["deal", "hidden"])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_legal_event_checks_clean_when_appended(game, hidden):
    """legal() as far as the table can tell: with the hands known, the simulator's
    choices; with them unknown, every card that may be in the hand and would be legal."""
    rng = random.Random(7)
    tried = 0
    for seed in range(6):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        for head, rules in _positions(game.name, players, seed, hidden, cuts=4):
            legal = rules.legal()
            assert legal or rules.finished
            for event in rng.sample(legal, min(6, len(legal))):
                (record,) = parse_text(head + line_text(event) + "\n")
                report = check(record)
                assert not report.violations, (line_text(event), [v.message for v in report.violations], head)
                tried += 1
    assert tried > 50


# --- Mistakes (simulate --mistakes): what the games say of a situation ----------------------

def rules_after(text: str):
    from referee.engine import replay, start

    (record,) = parse_text(text)
    return replay(start(record), record)


PQ_DEAL = ('[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n'
           "Ann holds 7H 8H 9H 10S JS QS KD AD\nBen holds JH QH KH AH 7S 8S 9S 10C\n"
           "Cas holds 10H AS 7D 8D 9D 10D JD QD\nDom holds KS 7C 8C 9C JC QC KC AC\n")


def offered(rules, hidden=False) -> dict[tuple[str, str, str], tuple[str, ...]]:
    return {(m.event.player, m.event.verb, m.event.cards_text): m.codes for m in rules.mistakes(hidden)}


def test_pierre_qui_roule_mistakes_follow_what_the_table_sees():
    rules = rules_after(PQ_DEAL + "Ann plays 9H\n")
    before = [(e.player, e.verb, e.cards_text) for e in rules.legal()]
    known, hidden = offered(rules), offered(rules, hidden=True)
    assert known[("Ben", "plays", "7S")] == ("TR-REVOKE",)       # Ben holds hearts
    assert ("Ben", "plays", "7S") not in hidden                  # unseen: no revoke to flag now
    assert known[("Cas", "plays", "10H")] == ("TR-OUT-OF-TURN",)
    assert known[("Dom", "plays", "7C")] == ("TR-OUT-OF-TURN", "PQ-MUST-PICK-UP")  # no heart: he should pick up
    assert known[("Dom", "collects", "")] == ("PQ-WRONG-PICKUP",)
    assert [(e.player, e.verb, e.cards_text) for e in rules.legal()] == before  # asking changes nothing
    rules = rules_after(PQ_DEAL + "Ann plays 9H\nBen plays KH\nCas plays 10H\nDom collects\n")
    assert offered(rules, hidden=True)[("Ann", "plays", "8H")] == ("PQ-PLAYED-ON",)
    assert offered(rules)[("Dom", "plays", "??")] == ("TR-UNSEEN-CARD",)


def test_flaschenteufel_revokes_are_proven_when_the_deal_is_hidden():
    text = Flaschenteufel.EXAMPLES["TR-REVOKE"].rsplit("B plays", 1)[0]
    rules = rules_after(text)
    assert offered(rules)[("B", "plays", "11")] == ("TR-REVOKE",)
    assert offered(rules, hidden=True)[("B", "plays", "11")] == ("TR-REVOKE-PROVEN",)
    assert ("B", "plays", "17") not in offered(rules)  # following is no mistake


def test_flaschenteufel_preparation_mistakes():
    rules = rules_after('[Game "flaschenteufel"]\n[Players "A B C D"]\n[Dealer "D"]\n'
                        "A holds 6 8 16 21 35 36 37 7 28\nA discards 6\nA gives 8 to B\n")
    codes = offered(rules)
    assert codes[("A", "discards", "7")] == ("FT-DEVIL-EXTRA",)
    gifts = {m.event.target: m.codes for m in rules.mistakes() if m.event.verb == "gives" and m.event.player == "A"}
    assert gifts == {"B": ("FT-SAME-NEIGHBOUR",), "C": ("FT-NOT-NEIGHBOUR",)}
    first = codes[("A", "plays", "7")]
    assert first.count("FT-DEVIL-MISSING") == 3 and first.count("FT-EXCHANGE-MISSING") == 7
