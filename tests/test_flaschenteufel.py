"""Flaschenteufel, rule by rule (the records under records/flaschenteufel/ hold the rest):
the card table, who takes the trick and the bottle, the scoring, the players."""

from __future__ import annotations

import pytest

from referee.cards import Card
from referee.engine import check
from referee.games.flaschenteufel import COLOUR, TABLE_POINTS, TEXT_POINTS, Flaschenteufel
from referee.games.tricks import Play
from referee.notation import parse_text
from referee.record import Event


def card(n: int) -> Card:
    return Card(n, "N")


def test_the_card_table():
    assert sorted(COLOUR) == [n for n in range(1, 38) if n != 19]
    for colour in "YBR":
        numbers = [n for n, c in COLOUR.items() if c == colour]
        assert len(numbers) == 12 and sum(TABLE_POINTS[n] for n in numbers) == 42
    assert [TEXT_POINTS[n] for n in (1, 2, 3)] == [0, 0, 0] and [TABLE_POINTS[n] for n in (1, 2, 3)] == [1, 1, 2]


def rules(players: str = "A B C D"):
    (record,) = parse_text(f'[Game "flaschenteufel"]\n[Players "{players}"]\n')
    return Flaschenteufel(Flaschenteufel.setup_from(record))


def plays(*numbers: int) -> list[Play]:
    return [Play(seat, card(n), Event("A", "plays", 0, 0), 0) for seat, n in enumerate(numbers)]


@pytest.mark.parametrize(("price", "cards", "winner"), [
    (19, (24, 15, 17, 32), 2),   # the text's example: C's 17, the closest under 19
    (19, (24, 30, 27, 32), 3),   # all above: the highest, whatever its colour
    (17, (18, 20, 16, 37), 2),   # 18 is under 19 but not under the price, 17
    (5, (1, 4, 3), 1),
])
def test_who_takes_the_trick(price, cards, winner):
    game = rules()
    game.price = price
    assert game.winner_of(plays(*cards)).seat == winner


def test_two_players_are_not_supported():
    (record,) = parse_text('[Game "flaschenteufel"]\n[Players "A B"]\nA plays 24\n')
    report = check(record)
    assert report.status == "error" and "3 to 4 players" in report.error.message


@pytest.mark.parametrize(("players", "size"), [("A B C", 12), ("A B C D", 9)])
def test_the_deal_is_the_whole_deck(players, size):
    game = rules(players)
    deal = Flaschenteufel.deal(sorted(Flaschenteufel.deck), game.setup)
    assert [len(h) for h in deal.hands] == [size] * len(game.players)
    assert len({c for h in deal.hands for c in h}) == 36


def test_the_table_without_hands_sees_gifts_and_discards_face_down():
    (record,) = parse_text('[Game "flaschenteufel"]\n[Players "A B C"]\nA holds 24\nA gives 24 to B\nA discards 30\nA plays 31\n')
    shown = [Flaschenteufel.public(e) for e in record.events]
    assert shown[0] is None
    assert [(e.verb, e.cards_text) for e in shown[1:]] == [("gives", "??"), ("discards", "??"), ("plays", "31")]


def test_the_bottles_owner_scores_the_devils_trick(check_text):
    report = check_text(open("records/flaschenteufel/notation.txt", encoding="utf-8").read())
    assert report.result.scores == {"A": 46, "B": 22, "C": -8}
    report = check_text(open("records/flaschenteufel/card-points.txt", encoding="utf-8").read())
    assert report.result.scores == {"A": 46, "B": 24, "C": -9}


def test_a_tie_has_no_winner(check_text):
    report = check_text(Flaschenteufel.EXAMPLES["REC-AFTER-END"])
    assert report.result.finished and report.result.scores == {"A": 0, "B": 0, "C": 0} and report.result.winner is None


def test_the_table_shows_the_bottle():
    from referee.engine import replay, start

    (record,) = parse_text(open("records/flaschenteufel/text-example.txt", encoding="utf-8").read().split("\n\n;")[0])
    table = replay(start(record), record).table()
    assert (table.turn, table.extra["the bottle's price"], table.extra["the bottle's owner"]) == ("C", "17", "C")
    assert table.piles["under the bottle"] == [card(17)] and len(table.piles["the devil's trick"]) == 4
    assert table.hands["A"].count == 7 and table.extra["tricks taken by C"] == "1"


def test_a_card_not_in_hand_is_named_with_what_was_done_with_it(check_text):
    report = check_text(open("records/flaschenteufel/passed-on.txt", encoding="utf-8").read())
    (message,) = [v.message for v in report.violations if v.code == "TR-NOT-IN-HAND"]
    assert message.startswith("B gave 20, which is not in their hand")
    report = check_text(Flaschenteufel.EXAMPLES["TR-NOT-IN-HAND"])
    assert [v.message.split(",")[0] for v in report.violations if v.code == "TR-NOT-IN-HAND"] == ["A played 24"]


def test_a_bottle_taken_by_one_card_quotes_the_rule_for_one_card(check_text):
    report = check_text(Flaschenteufel.EXAMPLES["FT-WRONG-BOTTLE"].replace("C plays 17\nB collects", "C plays 27\nA collects"))
    (violation,) = report.violations
    assert violation.code == "FT-WRONG-BOTTLE" and violation.rule.startswith("Si un seul joueur pose une carte")


def test_a_card_of_another_colour_is_explained_by_what_is_known_of_the_hand():
    from referee.engine import replay, start

    text = open("records/flaschenteufel/notation.txt", encoding="utf-8").read()
    cut = text.index("B plays 13")
    known = text[:cut] + "B plays 13\n"
    hidden = "\n".join(line for line in known.splitlines() if " holds " not in line) + "\n"
    for record_text, words in ((known, "their hand is known, and has no card to follow with (a red card)"),
                               (hidden, "nothing shows them holding a red card")):
        (record,) = parse_text(record_text)
        events = record.events
        record.events = events[:-1]
        rules = replay(start(record), record)
        assert rules.ruling(events[-1]) == f"B plays 13: {words}"


def test_a_card_not_in_hand_quotes_the_deal_or_the_exchange(check_text):
    report = check_text(open("records/flaschenteufel/passed-on.txt", encoding="utf-8").read())
    assert [v.rule[:30] for v in report.violations if v.code == "TR-NOT-IN-HAND"] == ["De plus, chaque joueur donne u"]
    report = check_text(Flaschenteufel.EXAMPLES["TR-NOT-IN-HAND"])
    assert [v.rule[:30] for v in report.violations if v.code == "TR-NOT-IN-HAND"] == ["On mélange les 36 cartes de co"]


_PREP = ("A discards ??\nB discards ??\nC discards ??\nA gives ?? to B\nA gives ?? to C\nB gives ?? to C\n"
         "B gives ?? to A\nC gives ?? to A\nC gives ?? to B\n")


def test_a_card_out_of_turn_after_a_bottle_says_who_took_it_and_with_what(check_text):
    """« Le joueur qui gagne le pli commence le suivant »: the ruling names the card that
    took the bottle, and quotes that sentence."""
    head = '[Game "flaschenteufel"]\n[Players "A B C"]\n[Dealer "C"]\n'
    report = check_text(head + _PREP + "A plays 24\nB plays 8\nC plays 30\nA plays 10\n")
    [v] = report.violations
    assert (v.code, v.line) == ("TR-OUT-OF-TURN", 16)
    assert v.message == ("A played 10, but it is B's turn: B took the last trick and leads the next "
                         "(8 is the highest card under the bottle's price, 19)")
    assert v.rule == "Le joueur qui gagne le pli commence le suivant."


def test_a_wrong_score_explains_the_bottle_and_the_report_traces_the_end(check_text):
    """« Le joueur qui a la bouteille du diable marque la totalité du pli du diable en
    points négatifs et ne marque pas de points positifs »: a wrong score for the owner
    says so, with the devil's trick's cards and points; the notes give the end."""
    text = open("records/flaschenteufel/notation.txt", encoding="utf-8").read().replace("C scores -8 ", "C scores -7 ")
    report = check_text(text)
    [v] = report.violations
    assert v.message == ("C scores -7, but the replay counts -8: C ends with the bottle, and so scores minus the "
                         "devil's trick (1, 7 and 27: 8 points), and nothing for their tricks")
    assert "the bottle ends with C, at 2; the devil's trick (1, 7 and 27) is worth 8 points" in report.notes
