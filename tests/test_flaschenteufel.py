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


HEAD = '[Game "flaschenteufel"]\n[Players "A B C"]\n[Dealer "C"]\n'


def test_a_cards_face_shows_its_colour_and_printed_points():
    """The card drawn in a report: its colour and the green figure printed on it (the
    table's points, 1 for the 1); 19 is the starting card, not one of the deck."""
    assert [Flaschenteufel.numbered_face(n) for n in (1, 24, 37, 19)] == [("Y", 1), ("B", 4), ("R", 6), None]


def test_a_card_follows_its_colour():
    assert [Flaschenteufel.suit(card(n)) for n in (1, 4, 11, 37)] == ["Y", "B", "R", "R"]


@pytest.mark.parametrize(("price", "cards", "winner"), [
    (17, (24, 17, 30), 2),  # the card at the price (played again) is not under it
    (19, (15, 15, 30), 0),  # the same card twice under the price: the first one played
    (19, (24, 30, 30), 1),  # the same card twice, the highest: the first one played
])
def test_a_card_played_twice_wins_as_the_first_of_them(price, cards, winner):
    """A card written twice (REC-DUPLICATE-CARD) is followed: it counts in the trick,
    and a tie between its two plays goes to the first."""
    game = rules("A B C")
    game.price = price
    assert game.winner_of(plays(*cards)).seat == winner


def _replayed(text: str, events: int | None = None):
    from referee.engine import replay, start

    (record,) = parse_text(text)
    record.events = record.events[:events]
    return replay(start(record), record)


def test_the_chart_follows_the_bottles_price_and_owner():
    text = open("records/flaschenteufel/notation.txt", encoding="utf-8").read()
    assert _replayed(text, 3).chart_point() == (19, None)
    assert _replayed(text, 15).chart_point() == (14, 1)  # B's 14 took it
    assert _replayed(text).chart_point() == (2, 2)


def test_the_preparation_is_explained_line_by_line():
    text = open("records/flaschenteufel/notation.txt", encoding="utf-8").read()
    (record,) = parse_text(text)
    game = _replayed(text, 3)
    gift, discard = record.events[3], record.events[8]
    assert game.ruling(gift) == "A gives a card face down to B, a neighbour"
    assert game.ruling(discard) == "C lays a card face down into the devil's trick"


def test_a_card_played_again_says_where_it_is(check_text):
    """A card laid in the devil's trick is there; a card given is in the hand that
    took it in."""
    report = check_text(HEAD + "A discards 1\nB discards ??\nC discards ??\nA gives 4 to B\nA gives ?? to C\n"
                        "B gives ?? to C\nB gives ?? to A\nC gives ?? to A\nC gives ?? to B\nA plays 1\nA plays 4\n")
    assert [v.message for v in report.violations if v.code == "REC-DUPLICATE-CARD"] == [
        "1 appears twice: it is already put aside face down", "4 appears twice: it is already in B's cards"]


def test_a_score_says_who_has_the_bottle_or_that_nobody_took_it(check_text):
    text = open("records/flaschenteufel/notation.txt", encoding="utf-8").read().replace("B scores 22", "B scores 23")
    assert [v.message for v in check_text(text).violations] == [
        "B scores 23, but the replay counts 22: the points of the cards in the tricks B took (3 tricks); the bottle, "
        "which scores minus the devil's trick, ends with C"]
    text = open("records/flaschenteufel/card-outside-the-deck.txt", encoding="utf-8").read().replace("C scores 7", "C scores 8")
    assert [v.message for v in check_text(text).violations if v.code == "REC-SCORE-MISMATCH"] == [
        "C scores 8, but the replay counts 7: the points of the cards in the trick C took (1 trick); nobody took the bottle"]


def test_a_devils_trick_laid_face_down_is_the_cards_never_played(check_text):
    """« Le joueur qui a la bouteille du diable marque la totalité du pli du diable en
    points négatifs »: with the devil's cards laid face down, they are the cards nobody
    played, once the hand is over: the same scores as with them written."""
    import re

    text = re.sub(r"discards \d+", "discards ??", open("records/flaschenteufel/notation.txt", encoding="utf-8").read())
    report = check_text(text)
    assert report.status == "valid" and report.result.scores == {"A": 46, "B": 22, "C": -8}
    assert report.notes == ["the bottle ends with C, at 2; the devil's trick (1, 7 and 27) is worth 8 points"]


def test_a_devils_card_that_cannot_be_told_is_noted_once(check_text):
    """Hands of three cards: the cards never played are not only the devil's. The note
    says so once, and the end once, however often the result is asked (a line after
    the end asks it again)."""
    deal = ("A holds 20 21 22\nB holds 23 24 25\nC holds 26 27 28\nA discards ??\nB discards 23\nC discards 26\n"
            "A gives 21 to B\nA gives 22 to C\nB gives 24 to C\nB gives 25 to A\nC gives 27 to A\nC gives 28 to B\n")
    report = check_text(HEAD + deal + "A plays 25\nB plays 28\nC plays 22\nA plays 27\nB plays 21\nC plays 24\n"
                        "A plays 20\nB plays 24\n")
    assert [(v.line, v.code) for v in report.violations][-2:] == [(22, "REC-AFTER-END"), (23, "REC-AFTER-END")]
    assert report.notes == [
        "1 card of the devil's trick was laid unseen and cannot be told from the cards never played: the bottle's "
        "owner is scored on the others",
        "nobody took the bottle; the devil's trick (23 and 26) is worth 6 points"]


def test_after_the_hand_nothing_is_legal_and_nothing_is_to_do():
    game = _replayed(open("records/flaschenteufel/notation.txt", encoding="utf-8").read())
    assert game.finished and game.legal() == [] and game.todo() == []


def test_a_first_card_before_the_preparation_is_done_is_a_simulated_mistake():
    """The simulator may have the player due lay a card before the preparation is over:
    each of their known cards draws the devil's cards and gifts still missing; a card
    face down draws only TR-UNSEEN-CARD."""
    game = _replayed(HEAD + "A holds 1 4 7 10 13 16 20 23 26 29 32 35\nA discards 1\n")
    played = [(m.event.cards_text, m.codes) for m in game.mistakes() if m.event.verb == "plays"]
    assert played[0] == ("??", ("TR-UNSEEN-CARD",))
    missing = ("FT-EXCHANGE-MISSING",) * 2 + ("FT-DEVIL-MISSING",) + ("FT-EXCHANGE-MISSING",) * 2 + \
        ("FT-DEVIL-MISSING",) + ("FT-EXCHANGE-MISSING",) * 2
    assert played[1:] == [(str(n), missing) for n in (4, 7, 10, 13, 16, 20, 23, 26, 29, 32, 35)]


def test_a_revoke_awaiting_its_proof_rules_out_a_late_preparation_in_simulated_mistakes():
    """With the deal hidden, a card given or laid face down late might be the card that
    proves a revoke: while one waits, no late preparation is offered."""
    from referee.games.flaschenteufel import _DEAL, _KNOWN_PREP

    for moves, late in (("A plays 10\n", True), ("A plays 10\nB plays 11\n", False)):
        game = _replayed(HEAD + _DEAL + _KNOWN_PREP + moves)
        offered = {c for m in game.mistakes(hidden=True) for c in m.codes}
        assert ("FT-LATE-PREPARATION" in offered) == late
        assert "FT-LATE-PREPARATION" in {c for m in game.mistakes() for c in m.codes}
