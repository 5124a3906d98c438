"""The trick machinery shared by Pierre qui Roule and Flaschenteufel (referee/games/tricks.py):
what is known of a hand and since when, every code's example and explanation, and legal()
over simulated positions."""

from __future__ import annotations

import random

import pytest

from referee.cards import UNSEEN_CARD, Card, read_card
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


# --- What the whole-module mutation run found untested (issue 41) --------------------------

PQ_HEAD = '[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n'
FT_HEAD = '[Game "flaschenteufel"]\n[Players "A B C"]\n[Dealer "C"]\n'
FT_PREP = ("A discards ??\nB discards ??\nC discards ??\nA gives ?? to B\nA gives ?? to C\nB gives ?? to C\n"
           "B gives ?? to A\nC gives ?? to A\nC gives ?? to B\n")
SPADES = "Ann plays 10S\nBen plays 7S\nCas plays AS\nDom plays KS\n"
"""A trick of PQ_DEAL that everyone follows: Cas's ace takes it."""


def faults(text: str) -> list[tuple[int, int, str, str]]:
    """The violations of a one-game text: line, column, code and message."""
    (record,) = parse_text(text)
    return [(v.line, v.column, v.code, v.message) for v in check(record).violations]


def codes(text: str) -> list[tuple[int, str]]:
    return [(line, code) for line, _, code, _ in faults(text)]


def then(rules, text: str, line: str):
    """``rules`` (replayed from ``text``) after one more line, applied as the simulator does."""
    (record,) = parse_text(text + line + "\n")
    rules.apply(record.events[-1])
    return rules


def ruling(text: str, line: str) -> str | None:
    """The ruling of ``line`` written after ``text``: what ``referee explain`` says of it."""
    rules = rules_after(text)
    (record,) = parse_text(text + line + "\n")
    return rules.ruling(record.events[-1])


def test_a_card_laid_aside_or_given_is_said_to_be_there_when_written_again():
    aside = faults(FT_HEAD + FT_PREP.replace("A discards ??", "A discards 1") + "A plays 1\n")
    assert [(c, m.split(": it is ")[-1]) for _, _, c, m in aside] == [("REC-DUPLICATE-CARD", "already put aside face down")]
    given = faults(FT_HEAD + "B gives 5 to C\nA discards 5\n")  # C has not given theirs: 5 is not taken in
    assert [(c, m.split(": it is ")[-1]) for _, _, c, m in given] == [
        ("REC-DUPLICATE-CARD", "already given in the exchange and not taken in yet")]


def test_a_played_card_written_again_is_already_played():
    found = faults(PQ_DEAL + "Ann plays 9H\nBen plays 9H\n")
    assert [(c, m.split(": it is ")[-1]) for _, _, c, m in found] == [("REC-DUPLICATE-CARD", "already played")]


def test_a_card_another_hand_holds_leaves_that_hand_unknown_and_costs_the_player_a_card():
    rules = rules_after(PQ_DEAL + "Ann plays 9H\nBen plays 7H\n")  # Ann, the first seat, holds 7H
    assert [v.code for v in rules.violations] == ["REC-DUPLICATE-CARD"]
    assert "already in Ann's cards" in rules.violations[0].message
    ann, ben = rules.hands[0], rules.hands[1]
    assert (ann.count, read_card("7H") in ann.known, len(ann.known)) == (7, False, 6)  # 7H is one of her unseen cards now
    assert (ben.count, ben.known) == (7, {})  # Ben lost one card, nobody knows which


def test_a_deal_line_written_twice_forgets_the_cards_of_the_first():
    text = (PQ_HEAD + "Ann holds 7H 8H 9H 10S JS QS KD AD\nAnn holds JH QH KH AH 7S 8S 9S 10C\n"
            "Ben holds 7H 8H 9H 10S JS QS KD AD\n")
    assert codes(text) == []
    again = codes(PQ_HEAD + "Ann holds 7H 8H 9H 10S JS QS KD AD\nBen holds 7H 8S 9S 10C JH QH KH AH\n")
    assert again == [(5, "REC-DUPLICATE-CARD")]
    assert "already in Ann's cards" in faults(PQ_HEAD + "Ann holds 7H 8H 9H 10S JS QS KD AD\n"
                                              "Ben holds 7H 8S 9S 10C JH QH KH AH\n")[0][3]


def test_a_hand_dealt_face_down_has_its_count():
    assert codes(PQ_HEAD + "Ann holds ?? ?? ?? ?? ?? ?? ?? ??\n") == []


def test_the_second_card_of_a_line_is_flagged_at_its_own_column():
    line = "Ann plays 9H 7S"  # 7S is Ben's
    column = line.index("7S") + 1  # Ann's second card: out of turn, and another hand's
    assert [(c, col) for _, col, c, _ in faults(PQ_DEAL + line + "\n")] == [("TR-OUT-OF-TURN", column), ("REC-DUPLICATE-CARD", column)]


def test_a_stray_card_starts_the_hand_a_deal_after_it_is_late():
    assert codes(PQ_HEAD + "Ann plays 2H\nBen holds JH QH KH AH 7S 8S 9S 10C\n") == [(4, "REC-NOT-IN-DECK"), (5, "REC-LATE-DEAL")]


def test_a_stray_card_out_of_turn_is_not_counted():
    rules = rules_after(PQ_DEAL + "Ann plays 9H\nCas plays 2H\nBen plays KH\n")  # Cas's 2H: out of turn, ignored
    assert [p.card for p in rules.trick] == [read_card("9H"), read_card("KH")]
    assert rules.due() == 2 and rules.hands[2].count == 8


def test_a_stray_first_card_flags_the_missing_preparation_at_its_line():
    text = FT_HEAD + FT_PREP.replace("A discards ??\n", "") + "A plays 7H\nB plays 24\n"
    assert sorted(codes(text)) == [(12, "FT-DEVIL-MISSING"), (12, "REC-NOT-IN-DECK")]


def test_a_stray_lead_closes_the_last_trick_to_its_taker():
    text = PQ_DEAL + SPADES + "Cas plays 2H\nCas collects\n"  # the trick on the table holds only the stray card
    assert codes(text) == [(12, "REC-NOT-IN-DECK"), (13, "PQ-WRONG-PICKUP")]


def test_a_stray_card_that_empties_the_hand_puts_its_player_out():
    report = check(parse_text(PQ_HEAD + "Ann holds 7H\nAnn plays 2H\nBen plays 8H\n")[0])
    assert [v.code for v in report.violations] == ["REC-BAD-DEAL", "REC-NOT-IN-DECK", "REC-AFTER-END"]
    assert report.result.winner == "Ann"


STRAYS = PQ_HEAD + "Ann plays 2H\nBen plays 3H\nCas plays 4H\nDom plays 5H\n"
"""A trick of cards outside the deck, each let stand: it goes to its leader, Ann."""


def test_a_trick_of_stray_cards_goes_to_its_leader():
    assert codes(STRAYS + "Ann collects\nAnn plays 7S\n") == [(4, "REC-NOT-IN-DECK"), (5, "REC-NOT-IN-DECK"),
                                                              (6, "REC-NOT-IN-DECK"), (7, "REC-NOT-IN-DECK")]
    (_, _, code, message), = [f for f in faults(STRAYS + "Ben collects\n") if f[2] != "REC-NOT-IN-DECK"]
    assert code == "TR-WRONG-WINNER" and "no card of the game was laid to it, so it goes to the player who led it" in message


def test_a_trick_given_to_another_player_is_counted_as_theirs():
    rules = rules_after(PQ_DEAL + SPADES + "Ann collects\n")  # Cas won it
    assert [v.code for v in rules.violations] == ["TR-WRONG-WINNER"]
    assert [len(t) for t in rules.taken] == [1, 0, 0, 0]
    assert rules.table().extra["tricks taken by Ann"] == "1"


def test_the_player_given_the_trick_leads_even_when_the_winner_was_worked_out_before():
    rules = rules_after(PQ_DEAL + SPADES)
    rules.legal()  # the simulator asks first: Cas, the winner, is due
    rules = then(rules, PQ_DEAL + SPADES, "Ann collects")
    rules = then(rules, PQ_DEAL + SPADES + "Ann collects\n", "Ann plays 7H")
    assert [v.code for v in rules.violations] == ["TR-WRONG-WINNER"]  # Ann leads: no TR-OUT-OF-TURN


def test_a_player_out_by_a_late_devils_card_is_due_no_more():
    text = FT_HEAD + "B holds 25\nA plays 24\n"  # B's one card (a bad deal)
    rules = rules_after(text)
    assert rules.due() == 1
    rules.legal()  # worked out: B is due
    rules = then(rules, text, "B discards 25")  # late: B has no cards left
    rules = then(rules, text + "B discards 25\n", "C plays 26")
    assert "TR-OUT-OF-TURN" not in [v.code for v in rules.violations]
    assert rules.tricks_won == 1 and [p.card for p in rules.last.plays] == [Card(24, "N"), Card(26, "N")]


def test_a_late_gift_of_the_last_card_completes_the_trick():
    text = FT_HEAD + "C holds 30\nA plays 24\nB plays 25\nC gives 30 to A\n"  # C gives their one card: out
    rules = rules_after(text)
    assert rules.trick == [] and rules.tricks_won == 1 and rules.claimable


def test_a_card_played_or_laid_from_an_empty_hand_is_not_in_it():
    text = PQ_HEAD + '[Scoring "play-on"]\n' + "Ann holds 7H\nAnn plays 7H\nBen plays 8H\nCas plays 9H\nDom plays 10H\nAnn plays JH\n"
    (line, _, _, message), = [f for f in faults(text) if f[2] == "TR-NOT-IN-HAND"]
    assert line == 10 and "they have no cards left" in message
    text = FT_HEAD + "A holds 1\nA discards 1\nA gives ?? to B\n"
    (line, _, _, message), = [f for f in faults(text) if f[2] == "TR-NOT-IN-HAND"]
    assert line == 6 and "they have no cards left" in message


def test_a_card_laid_unnamed_from_a_known_hand_makes_it_unknown():
    text = FT_HEAD + "A holds 1 4 7 10 13 16 20 23 26 29 32 35\nA discards ??\n"
    rules = rules_after(text)
    assert rules.violations == [] and (rules.hands[0].count, rules.hands[0].known) == (11, {})


def test_a_revoke_names_the_card_led():
    from referee.games.flaschenteufel import EXAMPLES

    text = EXAMPLES["TR-REVOKE"].replace("A plays 10\nB plays 11\n", "C plays 12\nA plays 10\nB plays 11\n")
    text = text.replace('[Dealer "C"]', '[Dealer "B"]')  # C leads: B is the third to play
    (message,) = [m for _, _, c, m in faults(text) if c == "TR-REVOKE"]
    assert "played 11 on 12" in message


def test_a_card_that_may_have_come_in_after_a_void_may_be_of_its_suit():
    # B plays yellow on blue (a void), takes the trick, then gets a card late: it may be blue
    text = FT_HEAD + FT_PREP + "A plays 24\nB plays 15\nC plays 30\nB collects\nC gives ?? to B\n"
    rules = rules_after(text)
    assert rules.due() == 1 and ("B", "4") in {(e.player, e.cards_text) for e in rules.legal()}
    # ... and without the late card, nothing blue is offered to B (the void would be proven)
    assert ("B", "4") not in {(e.player, e.cards_text) for e in rules_after(text.rsplit("C gives", 1)[0]).legal()}


def test_a_void_proven_no_longer_bars_its_suit():
    from referee.games.flaschenteufel import EXAMPLES

    rules = rules_after(EXAMPLES["TR-REVOKE-PROVEN"])  # B's void in blue, proven by B's 34
    assert rules.due() == 1 and ("B", "4") in {(e.player, e.cards_text) for e in rules.legal()}


def test_a_card_picked_up_with_the_trick_may_be_of_the_suit_not_followed():
    # Ben's stray card goes with the trick; Cas picks it up with 7H: it may be a heart
    rules = rules_after(PQ_HEAD + "Ann plays 7H\nBen plays 2H\nCas collects\n")
    assert rules.due() == 2 and ("Cas", "8H") in {(e.player, e.cards_text) for e in rules.legal()}


def test_a_finished_hand_offers_no_move_and_no_mistake():
    rules = rules_after(PQ_HEAD + "Ann holds 7H\nAnn plays 7H\n")
    assert rules.finished and rules.legal() == [] and rules.mistakes() == []


def test_the_mistakes_of_the_player_due_and_of_the_others():
    rules = rules_after(PQ_DEAL)
    assert offered(rules)[("Ben", "plays", "7S")] == ("TR-OUT-OF-TURN",)  # no suit led yet
    rules = rules_after(PQ_DEAL + "Ann plays 9H\n")
    assert offered(rules)[("Ben", "plays", "??")] == ("TR-UNSEEN-CARD",)
    assert offered(rules)[("Ann", "plays", "8H")] == ("TR-OUT-OF-TURN",)  # she has played to this trick
    rules = rules_after(PQ_DEAL + "Ann plays 9H\nBen plays KH\nCas plays 10H\n")
    assert offered(rules)[("Dom", "plays", "7C")] == ("PQ-MUST-PICK-UP",)  # Dom, due, has no heart
    hidden = rules_after(PQ_HEAD + "Ann plays 9H\n")  # nobody's cards are known: nothing to name
    assert not [m for m in hidden.mistakes() if m.event.verb == "plays"]


def test_the_rulings_of_each_line():
    assert ruling(PQ_DEAL, "Ann plays 9H 10S") == "Ann leads 9H: the others follow with a heart if they can"
    assert ruling(PQ_DEAL, "Ann scores 3") == "Ann's score, 3, is the one the replay counts"
    assert ruling(PQ_DEAL, "Ann collects") is None
    last = ruling(PQ_DEAL + SPADES[: SPADES.index("Dom")], "Dom plays KS")
    assert last is not None and last.startswith("Dom follows with KS, a spade; the trick is Cas's: ")
    taken = ruling(PQ_DEAL + SPADES, "Cas collects")
    assert taken is not None and taken.startswith("Cas takes the trick: ")
    assert ruling(PQ_DEAL + "Ann plays 9H\nBen plays KH\nCas plays 10H\n", "Dom collects") == (
        "Dom cannot follow a heart: they pick up the 3 cards played and lead the next trick")


def test_the_table_goes_round_to_the_left():
    assert rules_after(PQ_DEAL).table().direction == 1
