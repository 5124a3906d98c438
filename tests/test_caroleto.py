"""Caroleto, rule by rule: the examples of every code, the maximum effects, the deal,
the drinks and their causes in the reports, legal() and the mistakes' marks.

Most rules are tested by the records of records/caroleto/ (tests/test_records.py)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import jsonschema
import pytest

from referee.cards import read_card
from referee.convert.export import line_text
from referee.engine import check, replay, start
from referee.games.caroleto.cards import maximum
from referee.games.caroleto.rules import Caroleto, default_cards
from referee.messages import ENGLISH
from referee.notation import parse_text
from referee.reports.report import render, to_json
from referee.files.resources import read_resource
from referee.simulate import simulate

from .conftest import RECORDS

HEAD = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n'
DRAW = "Ben says roi\nBen takes ?? from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\n"


def rules_after(text: str) -> Caroleto:
    (record,) = parse_text(text)
    return replay(start(record), record)


# --- Every code: an example flagged on its last line, its rule, its convention --------------

def test_every_code_has_an_example_a_rule_and_a_convention() -> None:
    assert set(Caroleto.EXAMPLES) == set(Caroleto.CODES)
    for code, key in Caroleto.CODES.items():
        assert Caroleto.RULES[key], code
        assert f"why.{code}" in ENGLISH, code
        assert code in ENGLISH, code


@pytest.mark.parametrize("code", sorted(Caroleto.EXAMPLES))
def test_each_example_is_flagged_on_its_last_line(code: str) -> None:
    (record,) = parse_text(Caroleto.EXAMPLES[code])
    report = check(record)
    line = record.header("Result").line if code == "REC-RESULT-MISMATCH" else record.events[-1].line
    assert [v.code for v in report.violations] == [code]
    assert report.violations[0].line == line
    if code in ("CA-DRINK-WRONG", "CA-DRINK-UNDUE"):  # the rule of the card that gave the drink
        assert report.violations[0].rule in Caroleto.RULES.values()
    else:
        assert report.violations[0].rule == Caroleto.RULES[Caroleto.CODES[code]]


# --- The deal and the maximum effects -------------------------------------------------------

@pytest.mark.parametrize(("players", "cards"), [(3, 12), (4, 10), (5, 8), (6, 6), (7, 4), (8, 2)])
def test_cards_dealt_by_player_count(players: int, cards: int) -> None:
    assert default_cards(players) == cards


@pytest.mark.parametrize(("card", "players", "effect"), [
    ("AH", 3, (6, "sips")), ("AH", 4, (8, "sips")), ("AH", 5, (10, "sips")), ("AH", 8, (16, "sips")),
    ("2C", 4, (2, "sips")), ("5H", 4, (5, "sips")), ("6D", 4, (1, "sips")), ("7S", 3, (3, "sips")),
    ("7S", 8, (8, "sips")), ("8H", 4, (1, "glass")), ("10S", 3, (6, "sips")), ("10S", 4, (8, "sips")), ("10S", 5, (8, "sips")),
    ("VC", 4, (1, "half")), ("9C", 4, None), ("CD", 4, None), ("QH", 4, None), ("KD", 4, None),
    ("T5", 4, None), ("T15", 4, None), ("T21", 4, None), ("EX", 4, None),
])
def test_maximum_effect_of_a_card_drawn_face_up(card: str, players: int, effect) -> None:
    """« se prend pour soi même son effet maximum (pas plus de 8 gorgées si on est 4, 10 si
    on est 5, etc...) »: two gorgées a player at most."""
    assert maximum(read_card(card), players) == effect


@pytest.mark.parametrize(("card", "kind"), [
    ("T1", "bout"), ("T2", "back"), ("T9", "back"), ("T10", "redirect"), ("T20", "redirect"), ("T21", "bout"),
    ("EX", "bout"), ("KS", "roi-de-pique"), ("KH", "roi"), ("AD", "ace"), ("2C", "sips"), ("5S", "sips"),
])
def test_trumps_2_to_9_send_back_10_to_20_redirect_and_the_1_the_21_and_the_excuse_are_bouts(card: str, kind: str) -> None:
    """« Atouts de 2 à 9 : renvoie l'effet ... sur la personne qui a mit la carte » ; « de 10
    à 20 : ... sur la personne de son choix » ; the bouts take from the discard. Each card's
    kind, as the rules read it (worked out once) and anew."""
    from referee.games.caroleto.cards import KIND, kind as kind_of

    assert KIND[read_card(card)] == kind_of(read_card(card)) == kind


# --- Drinks and causes in the reports -------------------------------------------------------

def test_each_drink_has_its_cause_line_and_round() -> None:
    text = HEAD + DRAW + "Ann plays 4S on Ben\nBen plays T5\nCas plays 7C\nDom plays QH\n"
    (record,) = parse_text(text)
    report = check(record)
    sent_back = [d for d in report.drinks if d.cause_words().startswith("4S")]
    assert [(d.player, d.amount, d.unit, d.line, d.round) for d in sent_back] == [("Ann", 4, "sips", 8, 1)]
    assert sent_back[0].cause_words() == "4S played by Ann on Ben, sent back by Ben's T5"
    # and the 7: Cas 1, Dom 2, Ann 3, Ben 4
    assert report.tallies == {"Ann": {"sips": 7}, "Ben": {"sips": 4}, "Cas": {"sips": 1}, "Dom": {"sips": 2}}


def test_the_reports_show_the_tally_and_the_causes() -> None:
    (record,) = parse_text((RECORDS / "caroleto" / "notation.txt").read_text(encoding="utf-8"))
    report = check(record)
    text = "\n".join("".join(piece for piece, _ in line) for line in render(report))
    assert "Max drinks 1 full glass, 1 glass drunk to the bottom, 1/3 of the central glass" in text
    assert "round 4, line 66: Max, 1 full glass: 8S played by Noé on Max: truth or dare refused" in text
    data = to_json(report)
    jsonschema.validate([data], json.loads(read_resource("schemas", "report.schema.json")))
    assert data["tallies"]["Max"] == {"up": 1, "central": pytest.approx(1 / 3), "glass": 1}
    assert {"player": "Zoé", "amount": 4, "unit": "sips", "cause": "4S played by Zoé on Noé, sent back by Noé's T7",
            "line": 39, "round": 2} in data["drinks"]


def test_units_are_never_added_together() -> None:
    text = HEAD + DRAW + "Ann plays 6H on Ben\nBen plays 6S\nCas plays 3S on Ben\nDom plays 8S on Ben\nBen refuses\n"
    (record,) = parse_text(text)
    assert check(record).tallies["Ben"] == {"half": 1, "sips": 3, "glass": 1}


# --- Messages that say what happened, and what the rule wants -------------------------------

@pytest.mark.parametrize(("events", "message"), [
    # a take from the wrong side: who was taken from, and whom the rule names
    ("Ben says roi\nBen takes ?? from Cas\n",
     "Ben takes from Cas, but this way round Ben takes from the neighbour on the right, Ann"),
    # the teller votes once the others have: he told it, he did not vote twice
    (DRAW + "Ann plays VS on Ben\nBen plays QH\nCas plays CS\nDom plays CH\n"
     "Ann votes bon\nCas votes bon\nDom votes bon\nBen votes pourri\n",
     "Ben told the dossier and does not vote on it"),
    # the Roi de pique bid as the last card in hand: the refill gives it cards back
    ('Ben holds KS 3D\nBen says roi\nBen takes 2S from Ann\nCas takes 3D from Ben\nDom takes ?? from Cas\n'
     'Ann takes ?? from Dom\nAnn plays AS\nBen plays 2S on Cas\nCas plays QH\nDom plays QD\nBen bids KS\n',
     "Ben bids the Roi de pique before the last round (the bidding's refill gives the cards bid back): "
     "the Roi de pique is played only as one's last card, in the last round"),
    # nobody announced: where the deal puts the Roi de pique, when it puts it in one hand (the first seat's)
    ("Ann holds KS 2H\nBen takes ?? from Ann\n",
     "the first round begins and nobody has announced the Roi de pique (the deal puts it in Ann's cards)"),
    ("Ben takes ?? from Ann\n", "the first round begins and nobody has announced the Roi de pique"),
    # an exchange too late: after the draw began, or after a card was laid
    ("Ben says roi\nBen takes ?? from Ann\nBen discards 2H\n",
     "Ben exchanges a card after the draw began: the exchange comes first"),
    (DRAW + "Ann plays KH\nBen discards 2H\n", "Ben exchanges a card after the cards were laid: the exchange comes first"),
    # a take out of turn past the first drawer: whose turn it is, and which way the draw goes
    ("Ben says roi\nBen takes ?? from Ann\nDom takes ?? from Cas\n",
     "it is Cas's turn to take a card: the draw goes to the left from Ben, who drew first this round"),
    # a take from the discard with no bout laid
    (DRAW + "Ann takes 3S\n", "Ann laid no bout this round: only a bout takes a card from the discard"),
    # « double » from a player whose duel is still to be played; a dare's choice with no 8 on the player;
    # a refusal once the dare is refused; a second vote; a vote that is neither pourri nor bon; a vote with no dossier
    (DRAW + "Ann plays 10S on Ben\nBen plays CS\nCas plays CH\nDom plays CD\nBen says double\n",
     "Ben has lost no duel: only the loser says « double »"),
    (DRAW + "Ann plays 8S on Ben\nBen plays CS\nCas plays CH\nDom plays CD\nAnn says action\n",
     "no 8's truth or dare falls on Ann"),
    (DRAW + "Ann plays 8S on Ben\nBen plays CS\nCas plays CH\nDom plays CD\nBen refuses\nBen refuses\n",
     "no 8's truth or dare falls on Ben"),
    (DRAW + "Ann plays VS on Ben\nBen plays QH\nCas plays CS\nDom plays CH\nAnn votes bon\nAnn votes bon\n",
     "Ann already voted on the dossier"),
    (DRAW + "Ann plays VS on Ben\nBen plays QH\nCas plays CS\nDom plays CH\nAnn votes maybe\n",
     "Caroleto has no 'votes maybe' event; this line is not replayed"),
    (DRAW + "Ann plays KH\nBen plays QH\nCas plays CS\nDom plays CH\nAnn votes bon\n", "no dossier awaits Ann's vote"),
    # a drink before any round
    ("Ben says roi\nBen drinks 2\n", "Ben drinks 2 gorgées, but no round is under way: nothing is owed"),
    # a drink of a unit the round gave the player none of
    (DRAW + "Ann plays 4S on Ben\nBen plays CS\nCas plays CH\nDom plays CD\nAnn drinks 1\n",
     "Ann drinks 1 gorgée, but round 1 gives Ann no gorgée"),
    (DRAW + "Ann plays 4S on Ben\nBen plays CS\nCas plays CH\nDom plays CD\nBen drinks central\n",
     "Ben drinks the central glass, but owes 4 gorgées (4S played by Ann on Ben)"),
    # a card written twice: where it is already (played, in the discard)
    (DRAW + "Ann plays 4S on Ben\nBen plays 4S on Cas\n", "4S appears twice: it is already played"),
    (DRAW + "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\nCas takes ?? from Ben\n"
     "Dom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\nAnn plays 3S on Ben\n",
     "3S appears twice: it is already in the discard"),
])
def test_a_violation_says_what_was_done_and_what_the_rule_wants(events: str, message: str) -> None:
    head = HEAD + ('[Cards "2"]\n' if "holds" in events else "")
    (record,) = parse_text(head + events)
    assert [v.message for v in check(record).violations] == [message]


# --- The Dame: when the table turns ---------------------------------------------------------

def test_a_dame_turns_the_table_once_its_round_is_over() -> None:
    """The 7 laid with the Dame counts the old way; the next round's draw goes the new way,
    from the last first drawer's neighbour on the new side."""
    rules = rules_after(HEAD + DRAW + "Ann plays 7C\nBen plays QH\nCas plays CS\nDom plays CH\n")
    assert [(d.player, d.amount) for d in rules.drinks()] == [("Ann", 1), ("Ben", 2), ("Cas", 3), ("Dom", 4)]
    assert [str(t) for t in rules.todo()] == ["round 2: Ann takes a card from Ben (each player may first exchange a card)"]


# --- legal(): what it offers checks clean ---------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_every_event_legal_offers_checks_clean(seed: int) -> None:
    """At each step of a simulated game, a few of the events legal() offers, applied to a
    copy of the replay, flag nothing."""
    rng = random.Random(seed)
    players = 3 + seed
    (record,) = parse_text(simulate("caroleto", players, seed, max_events=250))
    rules = start(record)
    for event in record.events:
        offered = rules.legal()
        for candidate in rng.sample(offered, min(4, len(offered))):
            trial = trial_copy(rules)
            trial.apply(candidate)
            assert not trial.violations, (candidate, [v.message for v in trial.violations])
        rules.apply(event)
    assert not rules.violations


def test_the_simulator_catches_only_the_last_drinker_once_a_round() -> None:
    """So that its games end, the simulator leaves aside every catch but one of the player
    who just drank, once a round (a standing rule would let it catch anyone, again and
    again)."""
    catches = 0
    for players, seed in ((4, 3), (5, 1)):
        (record,) = parse_text(simulate("caroleto", players, seed))
        rules = start(record)
        for event in record.events:
            if event.verb == "catches":
                assert event.target is not None and rules.round is not None
                caught = rules.seats[event.target]
                assert caught == rules.catchable and caught not in rules.round.caught, event
                catches += 1
            rules.apply(event)
    assert catches >= 10


def test_a_trump_10_20_closing_the_round_may_name_someone_unless_four_6s_are_down() -> None:
    """Nothing is aimed at Ben, the last to lay: his T14 may name someone past three 6s
    that designate Cas, not past four (``CA-TRUMP-ON-SIX``: everyone finishes their glass),
    and legal() agrees with the replay both times."""
    laid = "Ann plays 6H on Cas\nDom plays 6C on Cas\nEve plays 6D on Cas\n"
    for players, sixes, named in (("Ann Ben Cas Dom Eve", laid, True), ("Ann Ben Cas Dom Eve Fay", laid + "Fay plays 6S on Cas\n", False)):
        names = players.split()
        takes = "".join(f"{b} takes ?? from {a}\n" for a, b in zip(names, names[1:] + names[:1]))
        text = f'[Game "caroleto"]\n[Players "{players}"]\n\nBen says roi\n' + takes + sixes + "Cas plays CS\n"
        offered = {e.target for e in rules_after(text).legal() if e.verb == "plays" and e.cards_text == "T14"}
        assert offered == ({None, *(n for n in names if n != "Ben")} if named else {None}), players
        (record,) = parse_text(text + "Ben plays T14 on Dom\n")
        assert [v.code for v in check(record).violations] == ([] if named else ["CA-TRUMP-ON-SIX"])


def test_the_simulator_lays_the_last_cards_the_roi_de_pique_from_its_hand() -> None:
    """In the last round (one card a hand, every card known), the simulator may lay each
    hand's card: the Roi de pique from Ben, who holds it, and the others' trumps."""
    text = (HEAD + '[Cards "2"]\n\nAnn holds T2 T3\nBen holds KS T4\nCas holds T5 T6\nDom holds T7 T8\nBen says roi\n'
            "Ben takes T2 from Ann\nCas takes T4 from Ben\nDom takes T5 from Cas\nAnn takes T7 from Dom\n"
            "Ann plays T3\nBen plays T2\nCas plays T6\nDom plays T8\n-- round 2\n")
    rules = rules_after(text)
    assert rules.counts == [1, 1, 1, 1] and not rules.violations
    assert {(e.player, e.cards_text) for e in rules.choices() if e.verb == "plays"} == {
        ("Ann", "T7"), ("Ben", "KS"), ("Cas", "T4"), ("Dom", "T5")}


def offered(player: str, moves) -> list[str]:
    """The player's lines among ``moves`` (what legal() or choices() offers), as written."""
    return sorted(line_text(e) for e in moves if e.player == player)


def test_a_round_after_an_unannounced_first_round_opens_with_its_cards_not_the_announcement() -> None:
    """Nobody said « roi » in round 1 (flagged once): in round 2 an announcement is too
    late to mean anything, and legal() offers the round's own moves."""
    text = ('[Game "caroleto"]\n[Players "Ann Ben Cas"]\n[Cards "2"]\n\nAnn holds QS QH\nBen holds KS 2C\nCas holds QD QC\n'
            "Ben takes QH from Ann\nCas takes KS from Ben\nAnn takes QD from Cas\n"
            "Ann plays QS\nBen plays 2C on Cas\nCas plays QC\nCas drinks 2\n-- round 2\n")
    rules = rules_after(text)
    assert [v.code for v in rules.violations] == ["CA-ROI-UNANNOUNCED"]
    assert {(e.player, e.verb, e.cards_text) for e in rules.legal()} == {
        ("Ann", "discards", "QD"), ("Ben", "discards", "QH"), ("Ann", "plays", "QD"), ("Ben", "plays", "QH"), ("Cas", "plays", "KS")}


def test_before_the_announcement_the_mistakes_are_the_holder_drawing_first_and_the_others_announcing() -> None:
    """The deal gives Ben the Roi de pique: the mistakes of the start are his drawing
    first without announcing (the first card written in the hand before his: a ``??`` of
    the deal is no card to take) and anyone else's announcement, which only the deal
    shows false (not offered for a hidden record); the same after a `-- round 1`."""
    for ann, marker, card in (("2H 3H", "", "2H"), ("?? 3H", "", "3H"), ("2H 3H", "-- round 1\n", "2H")):
        rules = rules_after(HEAD + f'[Cards "2"]\n\nAnn holds {ann}\nBen holds KS 4H\n' + marker)
        take = (f"Ben takes {card} from Ann", ("CA-ROI-UNANNOUNCED",))
        false = [(f"{name} says roi", ("CA-ROI-FALSE",)) for name in ("Ann", "Cas", "Dom")]
        assert [(line_text(m.event), m.codes) for m in rules.mistakes()] == [take, *false]
        assert [(line_text(m.event), m.codes) for m in rules.mistakes(True)] == [take]


@pytest.mark.parametrize(("players", "cards", "stock", "drawn"), [
    ("Ann Ben Cas Dom", 19, 2, "3H"), ("Ann Ben Cas Dom Eve Fay Gil", 11, 1, "3H"), ("Ann Ben Cas", 26, 0, "2H")])
def test_an_exchange_may_draw_both_its_cards_on_one_line_whatever_the_stock_holds(
        players: str, cards: int, stock: int, drawn: str) -> None:
    """« Ann draws 3H ?? »: the face-up card goes to the discard, which the second draw
    shuffles in when the stock is empty: the line checks clean with one card left in the
    stock or none (the first card then comes from the discard: Ann's 2H), and legal()
    offers it."""
    text = f'[Game "caroleto"]\n[Players "{players}"]\n[Cards "{cards}"]\n\nBen says roi\nAnn discards 2H\n'
    rules = rules_after(text)
    assert rules.stock == stock
    assert f"Ann draws {drawn} ??" in offered("Ann", rules.legal())
    after = rules_after(text + f"Ann draws {drawn} ??\n")
    assert not after.violations and after.counts[0] == cards and not after.round.exchange_owed


def test_two_bouts_cards_taken_either_may_be_used_first() -> None:
    """Ann's Excuse takes the 3 of spades, then Ben's T1 takes the Roi de carreau before
    Ann uses hers: the replay accepts either card first, and legal() offers both, and Ben's
    take while Ann's card waits (the two take at the end of the round, as a table does)."""
    text = (HEAD + DRAW + "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n"
            "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\n"
            "Ann plays EX\nBen plays T1\nCas plays QH\nDom plays QD\nAnn takes 3S\nBen takes KD\n")
    waiting = rules_after(text.removesuffix("Ben takes KD\n"))  # Ann's card waits; Ben may take his first
    moves = {(e.player, e.verb, e.cards_text) for e in waiting.legal()}
    assert {("Ann", "plays", "3S"), ("Ben", "takes", "KD")} <= moves and ("Ann", "takes", "KD") not in moves
    rules = rules_after(text)
    assert not rules.violations
    assert {(e.player, e.cards_text) for e in rules.legal() if e.verb == "plays"} == {("Ann", "3S"), ("Ben", "KD")}
    for first in ("Ben plays KD\nAnn plays 3S on Dom\n", "Ann plays 3S on Dom\nBen plays KD\n"):
        assert not rules_after(text + first).violations


def test_a_trump_10_20_closing_the_round_may_send_back_a_card_or_a_9_though_the_6s_designate_its_player() -> None:
    """Ben, the last to lay, is designated by two 6s; a 3 of hearts aimed at him, or a 9
    laid by Ann (its draw falls on him), lets his T14 name someone; a Cavalier does not."""
    names = "Ann Ben Cas Dom Eve".split()
    takes = "".join(f"{b} takes ?? from {a}\n" for a, b in zip(names, names[1:] + names[:1]))
    for first, named in (("Ann plays 3H on Ben", True), ("Ann plays 9H", True), ("Ann plays CH", False)):
        text = (f'[Game "caroleto"]\n[Players "{" ".join(names)}"]\n\nBen says roi\n' + takes
                + f"{first}\nCas plays 6C on Ben\nDom plays 6D on Ben\nEve plays CS\n")
        rules = rules_after(text)
        for moves in (rules.legal(), rules.choices()):  # the simulator too may send them back
            targets = {e.target for e in moves if e.verb == "plays" and e.cards_text == "T14"}
            assert targets == ({None, "Ann", "Cas", "Dom", "Eve"} if named else {None}), first
        (record,) = parse_text(text + "Ben plays T14 on Dom\n")
        assert [v.code for v in check(record).violations] == ([] if named else ["CA-TRUMP-ON-SIX"]), first


def test_the_third_6_closing_the_round_must_name_someone() -> None:
    """Two 6s left unnamed, and Ben's 6 closes the round: his must name the player (three
    6s are no four), and legal() offers only the named ones."""
    text = ('[Game "caroleto"]\n[Players "Ann Ben Cas"]\n\nBen says roi\nBen takes ?? from Ann\nCas takes ?? from Ben\n'
            "Ann takes ?? from Cas\nAnn plays 6H\nCas plays 6C\n")
    assert offered("Ben", [e for e in rules_after(text).legal() if e.cards_text == "6D"]) == [
        "Ben plays 6D on Ann", "Ben plays 6D on Ben", "Ben plays 6D on Cas"]
    (record,) = parse_text(text + "Ben plays 6D\n")
    assert [v.code for v in check(record).violations] == ["CA-NO-TARGET"]


@pytest.mark.parametrize(("laid", "player", "kept"), [
    ("Ann plays 3S on Cas\n", "Ben", False),                   # no 6 names anyone yet (a 3 is no 6)
    ("Ann plays 6H on Cas\n", "Ben", True),                    # another 6 names Cas
    ("Ann plays 6H\nBen plays 6C\n", "Cas", False),              # two 6s left unnamed: the third is no fourth
    ("Ann plays 6H\nBen plays 6C\nCas plays 6D\n", "Dom", True),  # the fourth needs no name
])
def test_the_simulator_leaves_a_6_unnamed_only_when_no_6_names_anyone_and_it_is_not_the_fourth(
        laid: str, player: str, kept: bool) -> None:
    rules = rules_after(HEAD + DRAW + laid)
    assert not rules.violations
    unnamed = f"{player} plays 6{'C' if player == 'Ben' else 'S'}"
    assert unnamed in offered(player, rules.legal())
    assert (unnamed in offered(player, rules.choices())) is kept


def test_the_simulator_leaves_the_next_rounds_first_6_unnamed_though_a_6_named_someone_in_the_round_before() -> None:
    """Round 1 is over, its 6 named Cas: the first 6 of round 2 opens a round of its own,
    where no 6 names anyone yet."""
    rules = rules_after(HEAD + '[Cards "2"]\n\n' + DRAW + "Ann plays 6H on Cas\nBen plays CS\nCas plays QH\nDom plays QD\n")
    assert not rules.violations
    assert "Ann plays 6C" in offered("Ann", rules.legal())
    assert "Ann plays 6C" not in offered("Ann", rules.choices())


def test_the_simulator_may_use_a_bouts_6_unnamed_once_the_cards_are_laid_when_a_6_of_its_round_names_someone() -> None:
    """Every card of round 2 is laid, Ben's 6 named Dom, and Ann's Excuse takes the 6 of
    spades: its use belongs to round 2, where a 6 names someone, so the simulator may lay
    it unnamed."""
    text = (HEAD + DRAW + "Ann plays 6S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n"
            "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\n"
            "Ann plays EX\nBen plays 6C on Dom\nCas plays QH\nDom plays QD\nAnn takes 6S\n")
    rules = rules_after(text)
    assert not rules.violations
    assert offered("Ann", rules.choices()) == offered("Ann", rules.legal()) == ["Ann plays 6S", "Ann plays 6S on Dom"]


def test_an_8s_dare_is_chosen_once_and_may_still_be_refused() -> None:
    """Ann's 8 dares Dom: step 4 offers him « action », « vérité » or a refusal; once he
    has chosen, only the refusal."""
    text = HEAD + DRAW + "Ann plays 8S on Dom\nBen plays CS\nCas plays CH\nDom plays KD\n"
    for said, dom in (("", ["Dom refuses", "Dom says action", "Dom says vérité"]), ("Dom says action\n", ["Dom refuses"])):
        rules = rules_after(text + said)
        assert not rules.violations
        assert offered("Dom", [e for e in rules.legal() if e.verb in ("says", "refuses")]) == dom


def test_the_simulator_lays_the_roi_de_pique_from_the_one_hand_that_may_hold_it_in_its_last_card() -> None:
    """Ben announced the Roi de pique and gave Cas a 2 of clubs: in the last round his one
    card is the Roi de pique, though his hand is not written. legal() offers any card he
    may hold (a later line may show where the Roi went); the simulator lays the Roi."""
    text = (HEAD + '[Cards "2"]\n\nBen says roi\nBen takes ?? from Ann\nCas takes 2C from Ben\nDom takes ?? from Cas\n'
            "Ann takes ?? from Dom\nAnn plays CH\nBen plays KD\nCas plays QD\nDom plays 4C on Ann\n-- round 2\n")
    rules = rules_after(text)
    assert not rules.violations and rules.counts == [1, 1, 1, 1]
    assert {"Ben plays KS", "Ben plays AC"} <= set(offered("Ben", rules.legal()))
    assert offered("Ben", [e for e in rules.choices() if e.verb == "plays"]) == ["Ben plays KS"]


# --- Mistakes: each one's marks are what the replay reports ---------------------------------

def trial_copy(rules: Caroleto) -> Caroleto:
    """A copy of the replay to try an event on (the rounds over and the record shared)."""
    return copy.deepcopy(rules, {id(rules.setup): rules.setup} | {id(r): r for r in rules.done})


def _mistakes_marked_as_flagged(rules: Caroleto, hidden: bool, seen: Counter) -> None:
    """Each kind of mistake offered now (one of each set of codes) draws its codes."""
    kinds = {}
    for mistake in rules.mistakes(hidden):
        kinds.setdefault(mistake.codes, mistake)
    for mistake in kinds.values():
        trial = trial_copy(rules)
        before = len(trial.violations)
        if trial.over(mistake.event):
            continue
        trial.apply(mistake.event)
        flagged = Counter(v.code for v in trial.violations[before:])
        assert flagged == Counter(mistake.codes), (mistake, [v.message for v in trial.violations[before:]])
        seen.update(mistake.codes)


@pytest.mark.parametrize("seed", range(4))
def test_every_mistake_offered_is_flagged_with_its_codes(seed: int) -> None:
    """Every mistake offered at every step of a simulated game, applied to a copy of the
    replay, draws exactly the codes it is marked with (on its own line)."""
    (record,) = parse_text(simulate("caroleto", 3 + seed, seed, max_events=150))
    rules = start(record)
    seen: Counter = Counter()
    for event in record.events:
        _mistakes_marked_as_flagged(rules, seed % 2 == 1, seen)
        rules.apply(event)
    assert len(seen) > 10


def test_a_finished_game_offers_no_move_and_no_mistake() -> None:
    """The last card laid and nothing owed: the game is over, legal() and mistakes() are
    empty lists (the simulator stops there)."""
    rules = rules_after(HEAD + '[Cards "1"]\nBen says roi\nAnn plays 2S on Ben\nBen plays KS\nCas plays QD\nDom plays CS\n')
    assert rules.result().finished and not rules.violations
    assert rules.legal() == [] and rules.mistakes() == [] and rules.mistakes(True) == []


T3 = ('[Game "caroleto"]\n[Players "Ann Ben Cas"]\n[Cards "2"]\n\nAnn holds QS QH\nBen holds KS 2C\nCas holds QD QC\n'
      "Ben takes QH from Ann\nCas takes KS from Ben\nAnn takes QD from Cas\nAnn plays QS\nBen plays 2C on Cas\nCas plays QC\nCas drinks 2\n")
"""Three players, every card known, nobody announcing: round 1 over, Cas holding the Roi de pique."""


@pytest.mark.parametrize(("text", "offered"), [
    pytest.param(HEAD + "Ben says roi\n", [  # the exchange and the draw to come, a marker with the wrong number
        ("Ben discards KS", ("CA-ROI-EXCHANGED",)), ("Ann takes AC from Dom", ("CA-DRAW-ORDER",)),
        ("Ben takes AC from Cas", ("CA-DRAW-ORDER",)), ("Cas takes AC from Ben", ("CA-DRAW-ORDER",)),
        ("Dom takes AC from Cas", ("CA-DRAW-ORDER",)), ("-- round 2", ("CA-ROUND-NUMBER",))], id="announced"),
    pytest.param(HEAD + "Ben says roi\nBen takes ?? from Ann\n", [  # the draw begun: exchanges late, cards laid early
        ("Ann discards AC", ("CA-EXCHANGE-LATE",)), ("Ben discards KS", ("CA-EXCHANGE-LATE", "CA-ROI-EXCHANGED")),
        ("Ben discards AC", ("CA-EXCHANGE-LATE",)), ("Cas discards AC", ("CA-EXCHANGE-LATE",)),
        ("Dom discards AC", ("CA-EXCHANGE-LATE",)), ("Ann takes AC from Dom", ("CA-DRAW-ORDER",)),
        ("Cas takes AC from Dom", ("CA-DRAW-ORDER",)), ("Dom takes AC from Cas", ("CA-DRAW-ORDER",)),
        ("Ann plays AC", ("CA-DRAW-MISSING",)), ("Ben plays AC", ("CA-DRAW-MISSING",)), ("Cas plays AC", ("CA-DRAW-MISSING",)),
        ("Dom plays AC", ("CA-DRAW-MISSING",))], id="drawing"),
    pytest.param(HEAD + "Ann discards 5C\nAnn draws 6C ??\n", [  # nobody announced: Ann exchanged already
        ("Ann discards KS", ("CA-EXCHANGE-TWICE", "CA-ROI-EXCHANGED")), ("Ann discards AC", ("CA-EXCHANGE-TWICE",)),
        ("Ben discards KS", ("CA-ROI-EXCHANGED",)), ("Cas discards KS", ("CA-ROI-EXCHANGED",)),
        ("Dom discards KS", ("CA-ROI-EXCHANGED",))], id="unannounced"),
    pytest.param(T3 + "-- round 2\n", [  # the last round of an unannounced game: no draw, no general card aimed
        ("Cas discards KS", ("CA-ROI-EXCHANGED",)), ("Ann takes KS from Cas", ("CA-DRAW-LAST-ROUND",)),
        ("Ben takes QD from Ann", ("CA-DRAW-LAST-ROUND",)), ("Cas takes QH from Ben", ("CA-DRAW-LAST-ROUND",)),
        ("Ann plays QD on Ben", ("CA-TARGET-GENERAL",)), ("Ben plays QH on Ann", ("CA-TARGET-GENERAL",))], id="unannounced-last"),
])
def test_the_mistakes_offered_at_each_moment_of_a_round(text: str, offered: list) -> None:
    """What ``simulate --mistakes`` may write at a moment, each with its codes (that the
    replay reports them is checked by the simulated games above)."""
    assert [(line_text(m.event), m.codes) for m in rules_after(text).mistakes()] == offered


KNOWN = (HEAD + '[Cards "3"]\n\nAnn holds 3H 6C T12\nBen holds KS 8S QD\nCas holds 6D 9C 2S\nDom holds AC JH T5\nBen says roi\n'
         "Ben takes 3H from Ann\nCas takes QD from Ben\nDom takes 2S from Cas\nAnn takes T5 from Dom\nCas plays 6D on Ann\n")
"""Every hand known; Cas's 6 names Ann."""
LATE = [("Ann discards 6C", ("CA-EXCHANGE-LATE",)), ("Ben discards KS", ("CA-EXCHANGE-LATE", "CA-ROI-EXCHANGED")),
        ("Ben discards 3H", ("CA-EXCHANGE-LATE",)), ("Cas discards 9C", ("CA-EXCHANGE-LATE",))]


@pytest.mark.parametrize(("text", "verbs", "offered"), [
    pytest.param(KNOWN, None, [*LATE, ("Dom discards AC", ("CA-EXCHANGE-LATE",)),
        ("Ann takes AC from Dom", ("CA-DRAW-LATE",)), ("Ben takes 6C from Ann", ("CA-DRAW-LATE",)),
        ("Cas takes 3H from Ben", ("CA-DRAW-LATE",)), ("Dom takes 9C from Cas", ("CA-DRAW-LATE",)),
        ("Ann plays 6C on Ben", ("CA-SIX-TARGETS",)), ("Ann plays T5 on Ben", ("CA-TARGET-GENERAL",)),
        ("Ann plays T12 on Ann", ("CA-TARGET-SELF",)), ("Ben plays KS", ("CA-ROI-EARLY",)), ("Ben plays 3H", ("CA-NO-TARGET",)),
        ("Ben plays 3H on Ben", ("CA-TARGET-SELF",)), ("Ben plays 3H on Dom", ("CA-TARGET-NEIGHBOUR",)),
        ("Ben plays 8S", ("CA-NO-TARGET",)), ("Ben plays 8S on Ben", ("CA-TARGET-SELF",)), ("Cas plays 9C", ("CA-PLAYED-TWICE",)),
        ("Dom plays AC on Ann", ("CA-TARGET-GENERAL",)), ("Dom plays JH", ("CA-NO-TARGET",)),
        ("Dom plays JH on Dom", ("CA-TARGET-SELF",)), ("Dom plays 2S", ("CA-NO-TARGET",)), ("Dom plays 2S on Dom", ("CA-TARGET-SELF",))],
        id="laying"),
    pytest.param(KNOWN + "Ben plays 8S on Dom\nDom plays AC\n", None, [*LATE, ("Dom discards JH", ("CA-EXCHANGE-LATE",)),
        ("Ann takes JH from Dom", ("CA-DRAW-LATE",)), ("Ben takes 6C from Ann", ("CA-DRAW-LATE",)),
        ("Cas takes 3H from Ben", ("CA-DRAW-LATE",)), ("Dom takes 9C from Cas", ("CA-DRAW-LATE",)),
        ("Ann plays 6C on Ben", ("CA-SIX-TARGETS",)), ("Ann plays T5 on Ben", ("CA-TARGET-GENERAL",)),
        ("Ann plays T12 on Ann", ("CA-TARGET-SELF",)), ("Ann plays T12 on Ben", ("CA-TRUMP-ON-SIX",)),
        ("Ben plays 3H", ("CA-PLAYED-TWICE",)), ("Cas plays 9C", ("CA-PLAYED-TWICE",)), ("Dom plays JH", ("CA-PLAYED-TWICE",))],
        id="laying-last"),  # Ann lays last, the 6 names her and nothing is aimed at her: her T12 may not name
    pytest.param(HEAD + '[Cards "2"]\n\n' + DRAW + "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n",
                 ("takes",), [("Ann takes AC from Dom", ("CA-DRAW-LAST-ROUND",)), ("Ben takes AC from Ann", ("CA-DRAW-LAST-ROUND",)),
                              ("Cas takes AC from Ben", ("CA-DRAW-LAST-ROUND",)), ("Dom takes AC from Cas", ("CA-DRAW-LAST-ROUND",))],
                 id="last-round"),
    pytest.param(T3 + "-- round 2\nAnn takes KS from Cas\n", ("takes",),  # a take flagged already: the others still offered
                 [("Ben takes QD from Ann", ("CA-DRAW-LAST-ROUND",)), ("Cas takes QH from Ben", ("CA-DRAW-LAST-ROUND",))],
                 id="last-round-after-a-take"),
    pytest.param(HEAD + "Ann takes ?? from Dom\n", ("plays",),  # nobody announced, the draw begun: a card laid too early
                 [(f"{p} plays AC", ("CA-DRAW-MISSING",)) for p in ("Ann", "Ben", "Cas", "Dom")], id="unannounced-drawing"),
])
def test_the_mistakes_offered_while_the_cards_are_laid(text: str, verbs, offered: list) -> None:
    mistakes = [m for m in rules_after(text).mistakes() if verbs is None or m.event.verb in verbs]
    assert [(line_text(m.event), m.codes) for m in mistakes] == offered


UNDUE = [(f"{p} draws AC", ("CA-DRAW-UNDUE",)) for p in ("Ann", "Ben", "Cas", "Dom")] + [
    (f"{p} passes", ("CA-BID-TURN",)) for p in ("Ann", "Ben", "Cas", "Dom")]


@pytest.mark.parametrize(("text", "offered"), [
    pytest.param(HEAD + DRAW + "Ann plays 10S on Cas\nBen plays JH on Dom\nCas plays 8S on Ann\nDom plays CS\nAnn says action\n", [
        *UNDUE, ("Ann beats Ben", ("CA-DUEL-WRONG",)), ("Ben beats Ann", ("CA-DUEL-WRONG",)), ("Cas beats Ben", ("CA-DUEL-WRONG",)),
        ("Dom beats Ann", ("CA-DUEL-WRONG",)), ("Ann says double", ("CA-DUEL-WRONG",)), ("Ann says action", ("CA-DARE-WRONG",)),
        ("Ben says double", ("CA-DUEL-WRONG",)), ("Ben refuses", ("CA-DARE-WRONG",)), ("Ben says action", ("CA-DARE-WRONG",)),
        ("Cas says double", ("CA-DUEL-WRONG",)), ("Cas refuses", ("CA-DARE-WRONG",)), ("Cas says action", ("CA-DARE-WRONG",)),
        ("Dom says double", ("CA-DUEL-WRONG",)), ("Dom votes pourri", ("CA-VOTE-WRONG",)), ("Dom refuses", ("CA-DARE-WRONG",)),
        ("Dom says action", ("CA-DARE-WRONG",)), *[(f"{p} drinks 1", ("CA-DRINK-UNDUE",)) for p in ("Ann", "Ben", "Cas", "Dom")],
        ("-- round", ("CA-UNSETTLED", "CA-UNSETTLED"))], id="a-duel-a-dossier-a-dare"),
    pytest.param(HEAD + DRAW + "Ann plays 2S on Cas\nBen plays QH\nCas plays 4C on Dom\nDom plays KD\nCas drinks 2\n", [
        *UNDUE, *[(f"{p} catches {q}", ("CA-CATCH-NO-RULE",)) for p, q in (("Ann", "Ben"), ("Ben", "Cas"), ("Cas", "Dom"), ("Dom", "Ann"))],
        ("Ann drinks 1", ("CA-DRINK-UNDUE",)), ("Ben drinks 1", ("CA-DRINK-UNDUE",)), ("Cas drinks 1", ("CA-DRINK-UNDUE",)),
        ("Dom drinks 5", ("CA-DRINK-WRONG",)), ("Dom drinks glass", ("CA-DRINK-WRONG",)), ("-- round", ("CA-DRINK-MISSING",))],
        id="drinks-owed"),  # Dom owes 4 gorgées: 5 is too many, a glass the wrong unit; a round begun now leaves them undrunk
    pytest.param(HEAD + DRAW + "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n"
                 "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\n"
                 "Ann plays 2S on Cas\nBen plays QH\nCas plays 4C on Dom\nDom plays QD\nCas drinks 2\n", [
        *UNDUE, *[(f"{p} takes KD", ("CA-BOUT-TAKE",)) for p in ("Ann", "Ben", "Cas", "Dom")],
        ("Ann drinks 1", ("CA-DRINK-UNDUE",)), ("Ben drinks 1", ("CA-DRINK-UNDUE",)), ("Cas drinks 1", ("CA-DRINK-UNDUE",)),
        ("Dom drinks 5", ("CA-DRINK-WRONG",)), ("Dom drinks glass", ("CA-DRINK-WRONG",)), ("-- round", ("CA-DRINK-MISSING",))],
        id="round-2"),  # the discard holds round 1's cards: a take without a bout; Ben's Cavalier stands: a catch may be right
])
def test_the_mistakes_offered_once_the_cards_are_laid(text: str, offered: list) -> None:
    """Step 4 under way: a draw, a bid, a duel's round, a « double », a vote, a dare's
    answer, a catch or a drink nobody owes; the next round begun with the round unsettled."""
    assert [(line_text(m.event), m.codes) for m in rules_after(text).mistakes()] == offered


BIDDING = (HEAD + '[Cards "3"]\n\nAnn holds AH 5H QS\nBen holds KS 4H QD\nCas holds 3H 9H QC\nDom holds 8H JC CC\nBen says roi\n'
           "Ben takes QS from Ann\nCas takes QD from Ben\nDom takes QC from Cas\nAnn takes JC from Dom\n"
           "Ann plays AH\nBen plays QS\nCas plays QD\nDom plays QC\n")
"""Every hand known; Ann's ace of hearts opens a bidding: Ben holds KS 4H, Cas 3H 9H, Dom 8H CC."""


def turn(*names: str) -> list:
    """A bid or a pass out of turn, by each of them."""
    return [m for name, card in (("Ann", "JC"), ("Ben", "KS"), ("Cas", "3H"), ("Dom", "CC")) if name in names
            for m in ((f"{name} bids {card}", ("CA-BID-TURN",)), (f"{name} passes", ("CA-BID-TURN",)))]


@pytest.mark.parametrize(("bids", "offered", "hidden"), [
    pytest.param("", [*turn("Ann"), ("Ben bids KS", ("CA-ROI-EARLY", "CA-BID-SUIT")), ("Ben passes", ("CA-BID-STOP",)),
                      *turn("Cas", "Dom")], [("Ben passes", ("CA-BID-STOP",))], id="ben-first"),
    pytest.param("Ben bids 4H\n", [*turn("Ann", "Ben"), ("Cas bids 3H", ("CA-BID-LOW",)), ("Cas passes", ("CA-BID-STOP",)),
                                    *turn("Dom")], [("Cas passes", ("CA-BID-STOP",))], id="cas-over-4"),
    pytest.param("Ben bids 4H\nCas bids 9H\n", [*turn("Ann", "Ben", "Cas"), ("Dom bids CC", ("CA-BID-SUIT",)),
                                                 ("Dom bids 8H", ("CA-BID-LOW",))], [], id="dom-over-9"),
])
def test_the_mistakes_offered_during_a_bidding(bids: str, offered: list, hidden: list) -> None:
    """Out of turn, the Roi de pique, another suit, a card too low, a pass holding a
    higher card of the suit (only the deal shows it: not offered for a hidden record)."""
    rules = rules_after(BIDDING + bids)
    assert not rules.violations
    assert [(line_text(m.event), m.codes) for m in rules.mistakes()] == offered
    assert [(line_text(m.event), m.codes) for m in rules.mistakes(True)] == [m for m in offered if m not in hidden]


def test_the_roi_de_pique_laid_early_is_offered_to_each_hand_of_two_cards_that_may_hold_it() -> None:
    """[Cards "2"], hands unknown: Ben has laid his first card and holds one, Cas and Dom
    two: their Roi de pique laid now is CA-ROI-EARLY, Ben's would be his last card."""
    rules = rules_after(HEAD + '[Cards "2"]\n\n' + DRAW + "Ann plays 3S on Cas\nBen plays 4S on Ann\n")
    assert rules.counts == [1, 1, 2, 2]
    assert [(line_text(m.event), m.codes) for m in rules.mistakes() if "CA-ROI-EARLY" in m.codes] == [
        ("Cas plays KS", ("CA-ROI-EARLY",)), ("Dom plays KS", ("CA-ROI-EARLY",))]


@pytest.mark.parametrize(("laid", "bouts"), [
    ("Ann plays QS\n", ["T1", "T21", "EX"]),
    ("Ann plays EX\nAnn takes 2C\nAnn plays 2C on Cas\n", ["T1", "T21"]),  # Ann's Excuse has taken and laid its card
])
def test_the_last_card_of_the_game_is_no_cheat_yet_when_it_is_a_bout_that_may_take_from_the_discard(laid: str, bouts: list) -> None:
    """As above, after Ann's exchange the discard holds 2C and 3C: Ben's last card, a bout
    (T1, T21, the Excuse), may still take one of them, and the game is not over on it."""
    rules = rules_after(HEAD + '[Cards "1"]\n\nBen says roi\nAnn discards 2C\nAnn draws 3C ??\n' + laid + "Cas plays QD\nDom plays CS\n")
    assert not rules.violations
    plays = [m for m in rules.mistakes() if m.event.player == "Ben" and m.event.verb == "plays"]
    assert [line_text(m.event) for m in plays if "CA-ROI-CHEAT" not in m.codes] == [f"Ben plays {b} on Ann" for b in bouts]
    assert len(plays) == 102


def test_a_red_2_to_5_aimed_past_the_neighbours_is_offered_on_the_first_player_past_them() -> None:
    """Five players: Ann's 3 of hearts may only name Ben or Eve; the mistake names Cas, the
    first of the two players past them."""
    rules = rules_after('[Game "caroleto"]\n[Players "Ann Ben Cas Dom Eve"]\n[Cards "2"]\n\nAnn holds 3H QS\nBen says roi\n'
                        "Ben takes QS from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\nEve takes ?? from Dom\nAnn takes ?? from Eve\n")
    assert [(line_text(m.event), m.codes) for m in rules.mistakes() if m.event.cards_text == "3H"] == [
        ("Ann plays 3H", ("CA-NO-TARGET",)), ("Ann plays 3H on Ann", ("CA-TARGET-SELF",)),
        ("Ann plays 3H on Cas", ("CA-TARGET-NEIGHBOUR",))]


@pytest.mark.parametrize(("dom", "offered"), [("EX", []), ("CD", [f"Ben plays T{n} on Ann" for n in range(10, 21)])])
def test_a_trump_10_20_past_the_6s_is_a_mistake_only_once_no_bout_may_take_a_card(dom: str, offered: list) -> None:
    """Round 2, the discard holds round 1's cards; two 6s designate Ben, the last to lay,
    and nothing is aimed at him: his trump 10-20 naming someone is CA-TRUMP-ON-SIX, unless
    Dom's Excuse may still take a card from the discard (and aim it at Ben)."""
    rules = rules_after(HEAD + DRAW + "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n"
                        "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\n"
                        f"Ann plays 6H on Ben\nCas plays 6C on Ben\nDom plays {dom}\n")
    assert not rules.violations
    assert [line_text(m.event) for m in rules.mistakes() if "CA-TRUMP-ON-SIX" in m.codes] == offered


FIVE = ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom Eve"]\n\nBen says roi\n'
        "Ben takes ?? from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\nEve takes ?? from Dom\nAnn takes ?? from Eve\n")


@pytest.mark.parametrize(("text", "last"), [
    pytest.param(FIVE + "Ann plays 6H\nBen plays 6C\nCas plays 6D\nDom plays 6S\n", "Eve", id="four-6s-designate-everyone"),
    pytest.param(HEAD + DRAW + "Ann plays 6H\nBen plays 6C\nCas plays 6D\n", None, id="three-6s-designate-nobody"),
    pytest.param(HEAD + DRAW + "Ann plays 6H on Dom\nBen plays 8S on Cas\nCas plays CD\n", "Dom", id="designated"),
    pytest.param(HEAD + DRAW + "Ann plays 6H on Dom\nBen plays 8S on Dom\nCas plays CD\n", None, id="designated-and-aimed-at"),
    pytest.param(HEAD + DRAW + "Ann plays 6H on Dom\nBen plays 9S\nCas plays CD\n", None, id="designated-and-a-9-laid"),
])
def test_a_trump_10_20_past_the_6s_is_a_mistake_when_they_designate_the_last_player_and_nothing_else_aims_at_him(
        text: str, last: str | None) -> None:
    rules = rules_after(text)
    assert not rules.violations
    assert [line_text(m.event) for m in rules.mistakes() if "CA-TRUMP-ON-SIX" in m.codes] == (
        [f"{last} plays T{n} on Ann" for n in range(10, 21)] if last else [])


@pytest.mark.parametrize(("beats", "ann"), [
    ("Cas beats Ann\n", []),  # lost at 2 gorgées: Ann may still say « double »
    ("Cas beats Ann\nAnn says double\nCas beats Ann\nAnn says double\nCas beats Ann\n", [("Ann says double", ("CA-DOUBLE-PAST-8",))]),
])
def test_a_duel_lost_at_8_gorgees_is_offered_its_double_as_a_mistake(beats: str, ann: list) -> None:
    """Ann's 10 against Cas: the duel's rounds are between them only, and once Ann has
    lost at 8 a « double » is past the limit; the others never owe one."""
    rules = rules_after(HEAD + DRAW + "Ann plays 10S on Cas\nBen plays JH on Dom\nCas plays 8S on Ann\nDom plays CS\nAnn says action\n" + beats)
    assert not rules.violations
    assert [(line_text(m.event), m.codes) for m in rules.mistakes() if m.event.verb in ("says", "beats")] == [
        ("Ann beats Ben", ("CA-DUEL-WRONG",)), ("Ben beats Ann", ("CA-DUEL-WRONG",)), ("Cas beats Ann", ("CA-DUEL-WRONG",)),
        ("Dom beats Ann", ("CA-DUEL-WRONG",)), *ann, ("Ann says action", ("CA-DARE-WRONG",)),
        *[m for p in ("Ben", "Cas", "Dom") for m in ((f"{p} says double", ("CA-DUEL-WRONG",)), (f"{p} says action", ("CA-DARE-WRONG",)))]]


@pytest.mark.parametrize(("text", "offered"), [
    pytest.param(HEAD + DRAW + "Ann plays 2S on Cas\nBen plays QH\nCas plays 4C on Dom\nDom plays KD\nCas drinks 2\nDom drinks 4\n",
                 [*[(f"{p} drinks 1", ("CA-DRINK-UNDUE",)) for p in ("Ann", "Ben", "Cas", "Dom")], ("-- round 3", ("CA-ROUND-NUMBER",))],
                 id="round-settled"),  # everything drunk: the next round may begin, a marker numbered 3 is wrong
    pytest.param(HEAD + '[Cards "1"]\nBen says roi\nAnn plays 2S on Ben\nBen plays KS\nCas plays QD\nDom plays CS\nBen drinks 1\n',
                 [("Ann drinks 1", ("CA-DRINK-UNDUE",)), ("Ben drinks 2", ("CA-DRINK-WRONG",)), ("Ben drinks glass", ("CA-DRINK-WRONG",)),
                  ("Cas drinks 1", ("CA-DRINK-UNDUE",)), ("Dom drinks 1", ("CA-DRINK-UNDUE",))],
                 id="game-over-a-drink-owed"),  # no card left: no round to begin, whatever is owed
])
def test_the_drinks_and_markers_offered_as_mistakes_at_a_rounds_end(text: str, offered: list) -> None:
    rules = rules_after(text)
    assert not rules.violations
    assert [(line_text(m.event), m.codes) for m in rules.mistakes() if m.event.verb in ("round", "drinks")] == offered


def test_the_last_card_of_the_game_other_than_the_roi_de_pique_is_also_a_cheat() -> None:
    """[Cards "1"]: Ben announced the Roi de pique and lays last; any other card of his,
    wrongly aimed or not, adds CA-ROI-CHEAT; a second card of the others does not."""
    rules = rules_after(HEAD + '[Cards "1"]\n\nBen says roi\nAnn plays QS\nCas plays QD\nDom plays CS\n')
    codes = Counter(m.codes for m in rules.mistakes() if m.event.verb == "plays")
    assert set(codes) == {("CA-PLAYED-TWICE",), ("CA-TARGET-SELF", "CA-ROI-CHEAT"), ("CA-TARGET-GENERAL", "CA-ROI-CHEAT"),
                          ("CA-NO-TARGET", "CA-ROI-CHEAT"), ("CA-TARGET-NEIGHBOUR", "CA-ROI-CHEAT")}
    assert codes["CA-PLAYED-TWICE",] == 3


@pytest.mark.parametrize(("cards", "counts"), [("3", [0, 2, 2, 2]), ("2", [0, 1, 1, 1])])
def test_a_player_with_no_card_left_is_offered_no_exchange_and_no_card_to_lay(cards: str, counts: list) -> None:
    """Ann was dealt one card: in round 2 she holds none (with the draw to come, or in the
    last round), and no discard or card of hers is offered as a mistake, only a take
    from her neighbour (her hand may hold nothing)."""
    rules = rules_after(HEAD + f'[Cards "{cards}"]\n\nAnn holds 2H\n' + DRAW
                        + "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n")
    assert rules.counts == counts
    assert [line_text(m.event) for m in rules.mistakes() if m.event.verb == "discards"] == [
        "Ben discards KS", "Cas discards KS", "Dom discards KS"]
    assert {m.event.verb for m in rules.mistakes() if m.event.player == "Ann"} == {"takes"}


def test_a_lower_bid_is_marked_as_flagged() -> None:
    """CA-BID-LOW, too rare in random play for simulate --mistakes to reach reliably: Cas,
    whose 3H is known, bids after Ben's 9H."""
    deal = HEAD + "Cas holds 3H 2C 3C 4C 5C 6C 7C 8C 9C CC\n" + DRAW.replace("Dom takes ?? from Cas", "Dom takes 2C from Cas")
    rules = rules_after(deal + "Ann plays AH\nBen plays CS\nCas plays CC\nDom plays CD\nBen bids 9H\n")
    seen: Counter = Counter()
    _mistakes_marked_as_flagged(rules, False, seen)
    assert seen["CA-BID-LOW"] and not seen["CA-BID-STOP"]


# --- The hidden record ----------------------------------------------------------------------

def test_a_hidden_record_writes_face_down_cards_unseen() -> None:
    full = simulate("caroleto", 4, 11, max_events=400)
    hidden = simulate("caroleto", 4, 11, hidden=True, max_events=400)
    assert " holds " not in hidden
    full_lines = [line for line in full.splitlines() if " holds " not in line]
    hidden_lines = hidden.splitlines()
    assert len(full_lines) == len(hidden_lines)
    for shown, written in zip(full_lines, hidden_lines):
        if " takes " in shown and " from " in shown:
            assert " takes ?? from " in written
        elif shown != written:  # a face-down draw
            assert " draws ??" in written and " draws " in shown
    assert not check(parse_text(hidden)[0]).violations


def test_the_tally_adds_up_the_drinks_and_their_causes() -> None:
    """Caroleto adds its tally up without wording the causes: the same as the drinks."""
    from referee.games.base import Rules

    for seed in range(8):
        (record,) = parse_text(simulate("caroleto", 3 + seed % 6, seed))
        rules = replay(start(record), record)
        def rounded(tallies: dict) -> dict:
            return {p: {u: round(a, 9) for u, a in units.items()} for p, units in tallies.items()}

        assert rounded(rules.tallies()) == rounded(Rules.tallies(rules))


def _violations(path: str):
    return [v for record in parse_text(open(path, encoding="utf-8").read()) for v in check(record).violations]


def test_a_wrong_drink_says_what_was_owed_and_why_and_quotes_the_cards_own_rule() -> None:
    found = {(v.line, v.code): v for v in _violations("records/caroleto/drinks.txt")}
    wrong = found[51, "CA-DRINK-WRONG"]
    assert wrong.message == "Ben drinks 5 gorgées, but owes 4 gorgées (4S played by Ann on Ben)"
    assert wrong.rule == Caroleto.RULES["black"]
    undue = found[132, "CA-DRINK-UNDUE"]
    assert undue.message == ("Ben drinks 2 gorgées, but owes nothing now: what round 1 gives them, 4 gorgées "
                             "(4S played by Ann on Ben), is drunk already")
    assert undue.rule == Caroleto.RULES["black"]
    early = found[69, "CA-DRINK-UNDUE"]
    assert early.message == "Ben drinks 4 gorgées, but nothing is owed yet in round 1: its cards are not all laid"


def test_a_sevens_drink_says_the_drinkers_place_in_the_count_and_the_direction() -> None:
    (record,) = [r for r in parse_text(open("records/caroleto/cards.txt", encoding="utf-8").read())
                 if any(e.line == 373 for e in r.events)]
    rules = replay(start(record), record)
    causes = [(d.player, d.amount, d.cause_words()) for d in rules.drinks() if d.line == 373]
    assert causes[:2] == [("Dom", 1, "7C played by Dom: its player drinks 1"),
                          ("Cas", 2, "7C played by Dom: Cas is number 2 in its count, which goes to the right since the Dame of round 1")]


def test_a_sevens_count_names_the_dame_that_turned_the_table_before_it_not_a_later_one() -> None:
    """Round 1's Dame turns the table, round 2's 7 counts to the right, round 3's Dame turns
    it back: the 7's drinks still say « since the Dame of round 1 », however late they
    are worded (they were worded at the end with the last Dame's round, 3)."""
    text = HEAD.replace(" Dom", "") + '[Cards "4"]\n\nBen says roi\n' + "".join(f"{line}\n" for line in (
        "Ben takes ?? from Ann", "Cas takes ?? from Ben", "Ann takes ?? from Cas",
        "Ann plays 5H on Cas", "Ben plays 2D on Ann", "Cas plays QH",
        "Ann takes ?? from Ben", "Cas takes ?? from Ann", "Ben takes ?? from Cas",
        "Ann plays 7C", "Ben plays 3S on Cas", "Cas plays 4C on Ann",
        "Cas takes ?? from Ann", "Ben takes ?? from Cas", "Ann takes ?? from Ben",
        "Ann plays QS", "Ben plays 2C on Ann", "Cas plays 3C on Ben",
        "Ann plays 4S on Cas", "Ben plays KS", "Cas plays 5S on Ann"))
    report = check(parse_text(text)[0])
    assert report.status == "valid"
    assert [d.cause_words() for d in report.drinks if d.line == 15 and d.player == "Cas"] == [
        "7C played by Ann: Cas is number 2 in its count, which goes to the right since the Dame of round 1"]


def test_the_tally_shows_what_was_drunk_beside_what_was_owed_where_they_differ() -> None:
    records = parse_text(open("records/caroleto/drinks.txt", encoding="utf-8").read())
    text = "\n".join("".join(piece for piece, _ in line) for line in render(check(records[1])))
    assert "Ben owes 4 gorgées, drank 5 gorgées" in text
    assert "Cas owes 1 half glass, drank 1 full glass" in text
    assert "Ann owes nothing, drank 1 gorgée" in text
    assert "Dom drinks 3 gorgées" in text  # drank as owed


def test_the_table_view_agrees_with_itself_at_a_rounds_end() -> None:
    """A Dame's round over: the direction shown is the one the to-do uses; the drinks the
    legal list offers are owed; the cards that may be discarded are said in a line."""
    from referee.state import items, state_in_text

    text = '[Game "caroleto"]\n[Players "Ann Ben Cas"]\nBen says roi\nBen takes ?? from Ann\nCas takes ?? from Ben\n' \
           "Ann takes ?? from Cas\nAnn plays 5H on Cas\nBen plays 2D on Ann\nCas plays QH\n"
    shown = items(state_in_text(text))
    assert ("direction", "to the right, against the players' order") in shown
    assert ("to do", "round 2: Ann takes a card from Ben (each player may first exchange a card)") in shown
    assert ("owed", "Ann drinks 2 gorgées") in shown and ("owed", "Cas drinks 5 gorgées") in shown
    assert ("legal", "Ann, Ben or Cas may discard any card not known to be elsewhere but KS") in shown


def test_a_pass_flagged_as_not_blocked_drinks_as_passed_and_the_early_roi_counts_the_other_cards() -> None:
    found = {(v.line, v.code): v for v in _violations("records/caroleto/end.txt")}
    assert found[13, "CA-ROI-EARLY"].message.startswith("Ben lays the Roi de pique with 9 other cards in hand")
    records = parse_text(open("records/caroleto/ace.txt", encoding="utf-8").read())
    causes = [d.cause_words() for r in records for d in replay(start(r), r).drinks() if d.line == 193]
    assert "AH played by Ann: passed as bidder 2, holding 9H" in causes


def test_a_take_or_a_bid_out_of_turn_says_how_the_turn_goes() -> None:
    draws = {v.line: v.message for v in _violations("records/caroleto/draw.txt") if v.code == "CA-DRAW-ORDER"}
    assert draws[57] == "it is Ben's turn to take a card: Ben draws first in round 1"
    bids = {v.line: v.message for v in _violations("records/caroleto/ace.txt") if v.code == "CA-BID-TURN"}
    assert bids[138] == "it is Ben's turn to bid: the bidding goes to the left from Ann's AS"


def test_what_was_drunk_is_kept_by_round_for_the_rounds_whose_drinks_are_written() -> None:
    """Rules.drunk_rounds: a round that writes a drink, or with [Drinks "all"] every round
    past (one that wrote none drank nothing); with the default, a round that writes none
    is left out (counted, not checked), as is the round in play."""
    drinks = parse_text((RECORDS / "caroleto" / "drinks.txt").read_text(encoding="utf-8"))
    assert check(drinks[1]).drunk_rounds == {1: {"Ben": {"sips": 5}, "Cas": {"glass": 1}, "Ann": {"sips": 1}, "Dom": {"sips": 1}},
                                             2: {"Dom": {"sips": 2}}}
    every, default = parse_text((RECORDS / "caroleto" / "options.txt").read_text(encoding="utf-8"))[:2]
    assert check(every).drunk_rounds == {1: {}}
    assert check(default).drunk_rounds == {}
    assert to_json(check(drinks[1]))["drunk"] == {"Ann": {"sips": 1}, "Ben": {"sips": 5}, "Cas": {"glass": 1}, "Dom": {"sips": 3}}


@pytest.mark.parametrize(("players", "cards", "refused"), [
    ("A B C", "1", ""),
    ("A B C D E F G H", "2", ""),
    ("A B", "2", "Caroleto is for 3 to 8 players, not 2"),
    ("A B C D E F G H I", "2", "Caroleto is for 3 to 8 players, not 9"),
    ("A B C", "0", '[Cards "0"]: Caroleto accepts a whole number from 1 to 26'),
])
def test_caroleto_seats_three_to_eight_players_dealt_one_card_or_more(players: str, cards: str, refused: str) -> None:
    """Three to eight players sit, each dealt at least one card ([Cards])."""
    from referee.games.base import SetupError
    from referee.notation import parse_text

    (record,) = parse_text(f'[Game "caroleto"]\n[Players "{players}"]\n[Cards "{cards}"]\n')
    if not refused:
        start(record)
        return
    with pytest.raises(SetupError) as error:
        start(record)
    assert str(error.value) == refused


# --- Rulings in words (referee explain FILE:LINE) -------------------------------------------

def _rulings(text: str) -> dict[int, str | None]:
    """Each line of the text's first game in words, as ``referee explain`` rules it: the
    table before the line, asked about the line."""
    record = parse_text(text)[0]
    rules, found = start(record), {}
    for event in record.events:
        found[event.line] = rules.ruling(event)
        rules.apply(event)
    return found


def test_each_line_is_ruled_in_words_with_only_the_drinks_it_adds() -> None:
    """Every verb in words, and the drinks the line adds to those before it: a line that
    adds none says none, and Léa's second catch of Noé for the same standing rule (the
    same drink, in round 3) is given again."""
    text = (RECORDS / "caroleto" / "notation.txt").read_text(encoding="utf-8").replace(
        "-- round 3\n", "-- round 3\nLéa catches Noé\n")
    rulings = _rulings(text)
    assert {line: rulings[line] for line in (7, 9, 10, 11, 13, 17, 20, 21, 22, 24, 27, 36, 40, 43, 49, 51, 58, 70, 72, 73)} == {
        7: "Max's hand as dealt: 4 cards",
        9: "round 1 begins",
        10: "Léa puts 3C aside face down, for the exchange",
        11: "Léa draws 8H; the rules give: Léa 1 full glass (8H drawn face up in the exchange)",
        13: "Max takes a card from Léa, in the draw's order",
        17: "Léa lays 10S on Max",
        20: "Zoé lays QH; the rules give: Léa 1 gorgée (6D played by Noé)",
        21: "Léa beats Max in the duel; the rules give: Max 2 gorgées (10S played by Léa on Max: the duel lost at 2)",
        22: "Max lost the duel and says « double »: it is played again, at double the stake",
        24: "Léa votes pourri on the dossier",
        27: "Léa drinks glass, as owed",
        36: "Léa lays AH",
        40: "Zoé bids 5H in the ace's bidding",
        43: "Léa catches Noé breaking a standing rule; the rules give: Noé 1 gorgée (caught by Léa breaking a standing rule (CD))",
        49: "Léa catches Noé breaking a standing rule; the rules give: Noé 1 gorgée (caught by Léa breaking a standing rule (CD))",
        51: "Noé takes a card from Zoé, in the draw's order",
        58: "Zoé's bout takes 6D from the discard",
        70: "Zoé cannot bid higher, and passes; the rules give: Zoé 2 gorgées (AC played by Léa: blocked as bidder 1)",
        72: "Max chooses the truth (the 8)",
        73: "Max refuses the truth or dare; the rules give: Max 1 full glass (8S played by Noé on Max: truth or dare refused)",
    }


def test_a_ruling_names_the_cards_as_the_record_writes_them() -> None:
    """French notation: « Ann joue 4P sur Ben » lays 4P (the 4 of spades), as written."""
    rulings = _rulings((RECORDS / "caroleto" / "fr-partie.txt").read_text(encoding="utf-8"))
    assert rulings[17] == "Ann lays 4P on Ben"
    assert rulings[18] == "Ben lays valet de cœur on Cas"


def test_a_wrong_drink_quotes_the_rule_of_the_duel_the_dossier_or_the_count() -> None:
    """Ben lost the duel (no other gorgée): his wrong drink quotes the 10's rule; Cas told
    a dossier judged pourri: hers the Valet's, but a gorgée once her half glass is drunk
    the count's; Ann owes nothing: the count's. The drinks come by the line of the card
    that gave them, the duel's and the dossier's too."""
    text = HEAD + DRAW + ("Ann plays 10S on Ben\nBen plays VH on Cas\nCas plays 2C on Dom\nDom plays CH\nAnn beats Ben\n"
                          "Ann votes pourri\nBen votes pourri\nDom votes pourri\nBen drinks 3\nCas drinks glass\n"
                          "Cas drinks half\nCas drinks 1\nAnn drinks 1\n")
    report = check(parse_text(text)[0])
    assert [(v.line, v.code, v.rule) for v in report.violations] == [
        (16, "CA-DRINK-WRONG", Caroleto.RULES["ten"]), (17, "CA-DRINK-WRONG", Caroleto.RULES["valet"]),
        (19, "CA-DRINK-UNDUE", Caroleto.RULES["count"]), (20, "CA-DRINK-UNDUE", Caroleto.RULES["count"])]
    assert [(d.player, d.amount, d.unit, d.line) for d in report.drinks] == [
        ("Ben", 2, "sips", 8), ("Cas", 1, "half", 9), ("Dom", 2, "sips", 10)]


def test_the_table_before_any_line_shows_the_stock_the_deal_leaves() -> None:
    """Four players dealt 10 cards each from the 78: 38 in the stock, before any line."""
    from referee.state import items, state_in_text

    shown = items(state_in_text(HEAD))
    assert ("stock", "38 cards") in shown and ("Ann", "10 cards") in shown


def test_a_drink_left_undrunk_names_its_own_causes_only() -> None:
    """Léa catches Noé again in round 3 and Noé never drinks it: CA-DRINK-MISSING names
    that catch alone, not the round's other drinks (the four 6s, every player's glass)."""
    text = (RECORDS / "caroleto" / "notation.txt").read_text(encoding="utf-8").replace(
        "-- round 3\n", "-- round 3\nLéa catches Noé\n")
    (missing,) = [v for v in check(parse_text(text)[0]).violations if v.code == "CA-DRINK-MISSING"]
    assert missing.message == ("Noé did not drink 1 gorgée in round 3 (caught by Léa breaking a standing rule (CD), "
                               "line 49)")


@pytest.mark.parametrize(("events", "todo"), [
    # one card dealt each: round 1 is the last, no draw
    ('[Cards "1"]\nBen says roi\n', "round 1, the last: Ann, Ben, Cas and Dom lay a card (each may first exchange one)"),
    # two Dames turn the table twice: the draw goes on to the left, from Ben's neighbour
    (DRAW + "Ann plays QH\nBen plays QS\nCas plays CH\nDom plays CD\n",
     "round 2: Cas takes a card from Ben (each player may first exchange a card)"),
])
def test_the_round_to_come_is_the_last_with_one_card_a_hand_and_two_dames_leave_the_table_as_it_was(events: str, todo: str) -> None:
    from referee.state import items, state_in_text

    assert ("to do", todo) in items(state_in_text(HEAD + events))


def test_the_drinks_left_undrunk_are_flagged_player_by_player() -> None:
    """At the round's end, the drinks still owed are flagged in the players' order (Cas's
    half glass last, though « half » comes before « sips »)."""
    text = HEAD + DRAW + ("Ann plays 2H on Dom\nBen plays VS on Cas\nCas plays 3S on Ann\nDom plays 4C on Ben\n"
                          "Ann votes pourri\nBen votes pourri\nDom votes pourri\nDom drinks 2\n-- round 2\n")
    flagged = [(v.code, v.player) for v in check(parse_text(text)[0]).violations]
    assert flagged == [("CA-DRINK-MISSING", "Ann"), ("CA-DRINK-MISSING", "Ben"), ("CA-DRINK-MISSING", "Cas")]


def test_a_bout_that_took_nothing_before_the_round_closed_is_told_it_is_late(check_text) -> None:
    """Ann's Excuse takes nothing; Cas's drink line closes round 2; Ann then takes from
    the discard: too late (« after the effects began »), not « took its card already »."""
    record = ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n\n'
              "Ben says roi\nBen takes ?? from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\n"
              "Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\n"
              "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\n"
              "Ann plays EX\nBen plays CC\nCas plays QH\nDom plays QD\nCas drinks 3\nAnn takes 3S\n")
    late = [v for v in check_text(record).violations if v.code == "CA-BOUT-TAKE"]
    assert [(v.line, str(v.message)) for v in late] == [
        (23, "Ann takes from the discard after the effects began: a bout takes its card before")], late


def test_a_stock_drawn_to_its_last_card_holds_no_card_it_might_have_held() -> None:
    """Emptied, the stock no longer holds a card that may be elsewhere (a hand); a card it
    surely held keeps it (the record is at odds with the counts: nothing is made impossible)."""
    from referee.games.caroleto.places import Places

    t7, t8, t9 = (read_card(c) for c in ("T7", "T8", "T9"))
    places = Places([t7, t8, t9], 2)
    places.put(t8, places.stock)
    places.empty(places.stock)
    assert not places.may(t7, places.stock) and places.may(t7, Places.seat(0)) and places.may(t7, Places.seat(1))
    assert places.mask(t8) == places.stock


def test_a_take_from_a_neighbour_is_offered_unseen_and_said_with_the_neighbour_first() -> None:
    """The card taken from a neighbour is not seen at the table: legal() offers it as
    ``??`` too (the page's "card not seen" button), and the simulator, who knows every
    card, leaves it aside; a long phrase of cards comes after the neighbour, in French
    « prendre à Ann toute carte … »."""
    from referee.messages import speaking
    from referee.state import items, state_in_text

    text = '[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas Dom"]\nBen dit roi\n'
    rules = rules_after(text)
    takes = [e for e in rules.legal() if e.verb == "takes"]
    assert {(e.player, e.target) for e in takes} == {("Ben", "Ann")} and any(not e.cards[0].seen for e in takes)
    assert all(e.cards[0].seen for e in rules.choices() if e.verb == "takes")
    with speaking("fr"):
        shown = items(state_in_text(text))
    assert ("coups permis", "pour Ben\xa0: prendre à Ann toute carte dont on ne sait pas qu'elle est ailleurs") in shown
# --- Pinned after the whole-module mutation run of rules.py (issue 41) ---------------------

def test_the_simulator_catches_a_drinker_only_right_after_the_drink() -> None:
    """Ben drinks with a Cavalier's rule standing: the simulator may catch him then, and
    no longer once another line (here a vote on Cas's Valet) has come between."""
    text = HEAD + DRAW + "Ann plays 4S on Ben\nBen plays CD\nCas plays VH on Dom\nDom plays CH\nBen drinks 4\n"

    def caught(rules: Caroleto) -> set[str | None]:
        return {e.target for e in rules.choices() if e.verb == "catches"}

    assert caught(rules_after(text)) == {"Ben"}
    assert caught(rules_after(text + "Ann votes pourri\n")) == set()
    # and once a round: caught, Ben drinks the catch's gorgée and is not caught again
    assert caught(rules_after(text + "Ann catches Ben\nBen drinks 1\n")) == set()


def test_each_card_of_a_line_laid_is_flagged_at_its_own_column() -> None:
    """Ann lays Cas's 5H, then a second card she no longer holds: each fault points at its card."""
    text = HEAD + '[Cards "1"]\nAnn holds 2H\nCas holds 5H\nBen says roi\nAnn plays 5H 2H\n'
    flagged = [(v.code, v.column) for v in check(parse_text(text)[0]).violations]
    assert flagged == [("REC-DUPLICATE-CARD", 11), ("CA-NO-TARGET", 11), ("CA-PLAYED-TWICE", 14), ("CA-HAND-SIZE", 14)]


@pytest.mark.parametrize(("laid", "drinks"), [
    ("Ann plays KH\nBen plays 6S on Dom\nCas plays 6D on Dom\nDom plays QH\n", [("Dom", "half", 9)]),
    ("Ann plays 6H on Cas\nBen plays 6S on Cas\nCas plays 6D on Dom\nDom plays 6C on Ann\n",
     [("Ann", "up", 8), ("Ben", "up", 8), ("Cas", "up", 8), ("Dom", "up", 8)]),
])
def test_the_6s_drinks_are_told_at_the_first_6s_line(laid: str, drinks: list) -> None:
    """Two 6s designate Dom (half a glass), four send everyone's glass up: one count, told
    at the line of the round's first 6."""
    report = check(parse_text(HEAD + DRAW + laid)[0])
    assert [(d.player, d.unit, d.line) for d in report.drinks] == drinks


def test_6s_that_name_nobody_are_flagged_once_with_the_first_6() -> None:
    text = HEAD + DRAW + "Ann plays 6H\nBen plays 6S\nCas plays KH\nDom plays QH\n"
    flagged = [(v.code, v.player, v.message) for v in check(parse_text(text)[0]).violations]
    assert flagged == [("CA-NO-TARGET", "Ann", "6H names nobody: a 2 to 5, 8, 10 or Valet is laid before its target, "
                                               "and the 6s designate who drinks")]


def test_a_pass_names_the_first_higher_card_held_and_a_known_hand_leaves_no_note() -> None:
    """Ben passes on Ann's AH holding 5H and 9H (his whole hand is known): flagged, and
    he drinks as passed holding the 5H. Then Ben passes on an AS holding only the Roi
    de pique, his whole hand known: blocked, and no note that the pass could not be checked."""
    text = HEAD + ('[Cards "4"]\nBen holds KS 5H 9H CS\nBen says roi\nBen takes 2S from Ann\nCas takes 2S from Ben\n'
                   "Dom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays AH\nBen plays CS\nCas plays CH\nDom plays CD\nBen passes\n")
    (record,) = parse_text(text)
    report = check(record)
    assert [(v.code, v.message) for v in report.violations] == [
        ("CA-BID-STOP", "Ben passes while holding 5H, higher than AH: with a higher card one goes on, or cuts with a trump")]
    assert [d.cause_words() for d in report.drinks] == ["AH played by Ann: passed as bidder 1, holding 5H"]
    blocked = HEAD + ('[Cards "2"]\nBen holds KS 3D\nBen says roi\nBen takes 2S from Ann\nCas takes 3D from Ben\n'
                      "Dom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays AS\nBen plays 2S on Cas\nCas plays QH\nDom plays QD\n"
                      "Ben passes\n")
    report = check(parse_text(blocked)[0])
    assert not report.violations and not report.notes


@pytest.mark.parametrize(("end", "rule"), [("Ben bids T4", "ace-cut"), ("Ben passes", "ace-count")])
def test_a_wrong_drink_after_a_bidding_quotes_the_cut_or_the_count(end: str, rule: str) -> None:
    text = HEAD + DRAW + f"Ann plays AH\nBen plays CS\nCas plays CH\nDom plays CD\n{end}\nBen drinks 3\n"
    assert [(v.code, v.rule) for v in check(parse_text(text)[0]).violations] == [("CA-DRINK-WRONG", Caroleto.RULES[rule])]


def test_a_drink_in_a_unit_not_owed_quotes_the_rule_of_the_first_unit_owed() -> None:
    """Cas owes 4 gorgées (Ann's 4S) and half a glass (the dossier): a full glass is
    wrong, and the rule quoted is the gorgées' (the black 2 to 5)."""
    text = HEAD + DRAW + ("Ann plays 4S on Cas\nBen plays VH on Cas\nCas plays CH\nDom plays CD\n"
                          "Ann votes pourri\nBen votes pourri\nDom votes pourri\nCas drinks glass\n")
    violations = check(parse_text(text)[0]).violations
    assert [(v.code, v.rule) for v in violations] == [("CA-DRINK-WRONG", Caroleto.RULES["black"])]
    assert violations[0].message == ("Cas drinks 1 full glass, but owes 4 gorgées and 1 half glass (4S played by Ann on Cas; "
                                     "JH played by Ben on Cas: dossier pourri (3 pourri, 0 bon))")


def test_a_card_written_twice_is_said_to_be_in_the_other_hands_or_the_stock() -> None:
    """Ann's whole hand is shown: a card it does not hold is in one of the others' or in the stock."""
    text = HEAD + "Ann says roi\nAnn holds KS 2H 3H 4H 5H 6H 7H 8H 9H 10H\nAnn discards JH\n"
    assert [v.message for v in check(parse_text(text)[0]).violations] == [
        "JH appears twice: it is already in Ben, Cas or Dom's cards or in the stock"]


ROUND_2 = DRAW + ("Ann plays 3S on Cas\nBen plays CS\nCas plays CH\nDom plays KD\n-- round 2\nCas takes ?? from Ben\n"
                  "Dom takes ?? from Cas\nAnn takes ?? from Dom\nBen takes ?? from Ann\n")


@pytest.mark.parametrize(("events", "todo"), [
    # nobody announced: at the first round's marker, the announcement is still to come
    ("-- round 1\n", ["the Roi de pique's holder announces it (says roi)"]),
    # the exchange's draws first, then the draw from a neighbour
    ("Ann says roi\nAnn discards 2H\n", ["Ann draws 2 more cards for the exchange", "Ann takes a card from Dom"]),
    # Ann's Excuse may take from the discard (round 1's cards) while the others lay; the card taken is laid next
    (ROUND_2 + "Ann plays EX\n", ["Ben, Cas and Dom lay a card", "Ann may take a card from the discard (a bout)"]),
    (ROUND_2 + "Ann plays EX\nAnn takes 3S\n", ["Ben, Cas and Dom lay a card", "Ann plays 3S, taken from the discard"]),
    # every card laid, the Excuse's take still possible: what comes next, once the effects are set out
    (ROUND_2 + "Ann plays EX\nBen plays CC\nCas plays QH\nDom plays QD\n",
     ["round 3: Dom takes a card from Cas (each player may first exchange a card)"]),
    # nobody announced nor drew in round 1: who draws first in round 2 is not known
    ("-- round 1\nAnn plays KH\nBen plays CS\nCas plays CH\nDom plays CD\n",
     ["round 2: the first drawer takes a card from a neighbour (each player may first exchange a card)"]),
])
def test_what_is_to_do_in_order(events: str, todo: list) -> None:
    assert [str(t) for t in rules_after(HEAD + events).todo()] == todo


def test_a_table_that_sees_no_hand_writes_cards_taken_or_drawn_face_down_unseen() -> None:
    """``public``: one ?? for each card of a take or of a face-down draw, one when the line
    writes none; the exchange's card drawn face up stays as written."""
    (record,) = parse_text(HEAD + "Ann says roi\nAnn discards 2H\nAnn draws 3H\nAnn draws\nAnn takes from Dom\n"
                                  "Ann takes 2S 3S from Dom\nAnn draws 4H 5H\n")
    rules, written = start(record), []
    for event in record.events:
        public = rules.public(event)
        written.append(line_text(public) if public is not None else None)
        rules.apply(event)
    assert written == ["Ann says roi", "Ann discards 2H", "Ann draws 3H", "Ann draws ??", "Ann takes ?? from Dom",
                       "Ann takes ?? ?? from Dom", "Ann draws ?? ??"]


def test_a_sevens_count_goes_left_with_no_dame_named_once_the_table_turned_back() -> None:
    """Round 1's Dame turns the table, round 2's turns it back: round 3's 7 counts to the
    left, as if no Dame had turned it."""
    text = HEAD + DRAW + ("Ann plays QH\nBen plays CS\nCas plays CH\nDom plays CD\n-- round 2\nAnn takes ?? from Ben\n"
                          "Dom takes ?? from Ann\nCas takes ?? from Dom\nBen takes ?? from Cas\nAnn plays QS\nBen plays KH\n"
                          "Cas plays KD\nDom plays KC\n-- round 3\nBen takes ?? from Ann\nCas takes ?? from Ben\n"
                          "Dom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays 7C\nBen plays T2\nCas plays T3\nDom plays T4\n")
    report = check(parse_text(text)[0])
    assert not report.violations
    assert [d.cause_words() for d in report.drinks if d.player == "Ben"] == [
        "7C played by Ann: Ben is number 2 in its count, which goes to the left"]


def test_a_drinks_cause_says_which_trump_sent_it_back_or_redirected_it() -> None:
    redirected = check(parse_text(HEAD + DRAW + "Ann plays 4S on Ben\nBen plays T15 on Cas\nCas plays CH\nDom plays CD\n")[0])
    assert [d.cause_words() for d in redirected.drinks] == ["4S played by Ann on Ben, redirected to Cas by Ben's T15"]
    nine = check(parse_text(HEAD + DRAW + "Ann plays 9C\nBen plays T5\nCas plays T15 on Dom\nDom plays CD\n"
                                          "Ann draws 2H\nDom draws 3H\n")[0])
    assert [(d.player, d.cause_words()) for d in nine.drinks] == [
        ("Ann", "2H drawn for the 9C played by Ann, sent back by Ben's T5"),
        ("Dom", "3H drawn for the 9C played by Ann, redirected to Dom by Cas's T15")]


def test_the_tally_and_the_table_count_the_effects_of_a_round_whose_cards_are_all_laid() -> None:
    """Ann's Excuse may still take from the discard: the round is not closed yet, but what
    it gives is told (Ben's 4S on Cas), as the record's end would set it out."""
    rules = rules_after(HEAD + ROUND_2 + "Ann plays EX\nBen plays 4S on Cas\nCas plays QH\nDom plays QD\n")
    assert rules.round is not None and not rules.round.closed
    assert rules.tallies() == {"Cas": {"sips": 7}}
    assert rules.table().owed == ["Cas drinks 4 gorgées"]


def test_a_draw_for_a_9_sets_out_the_effects_a_bouts_take_held_back() -> None:
    """Ann's Excuse takes nothing: Cas's draw for Ben's 9 sets out the effects (her take is
    missed), the draws are the 9's, and a take after them is late. (legal() offers no draw
    while a bout may still take: a test, not a record, which tests/test_legal.py would
    find offered nothing.)"""
    text = HEAD + ROUND_2 + ("Ann plays EX\nBen plays 9C\nCas plays QH\nDom plays QD\n"
                             "Cas draws T7\nDom draws T8\nAnn draws T9\nAnn takes 3S\n")
    flagged = [(v.line, v.code, v.message) for v in check(parse_text(text)[0]).violations]
    assert flagged == [(24, "CA-BOUT-TAKE", "Ann takes from the discard after the effects began: a bout takes its card before")]
