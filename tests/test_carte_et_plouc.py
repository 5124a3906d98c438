"""Carte et Plouc, rule by rule, beyond the records: the set-up, the examples for
``referee explain``, what ``legal()`` offers, the hidden view, the deal and the table."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from referee.cards import UNSEEN_CARD, read_card
from referee.cli import main
from referee.engine import check, replay, start
from referee.convert.export import line_text
from referee.games.carte_et_plouc.rules import CarteEtPlouc
from referee.games.base import Group, legal_events
from referee.messages import ENGLISH
from referee.notation import parse_text
from referee.simulate import SimulationError, simulate

HEAD = '[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n'


def codes(report) -> list[tuple[int, str]]:
    return [(v.line, v.code) for v in report.violations]


def rules_after(text: str):
    (record,) = parse_text(text)
    return replay(start(record), record)


# --- Set-up ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("headers", "message"), [
    ('[Variants "david-le-fou"]\n', "[Variants \"david-le-fou\"] is played with [Sanction] chosen beforehand: zouzou or mega-one"),
    ('[Sanction "none"]\n[Variants "david zero"]\n', "chosen beforehand"),
    ('[Starter "5X"]\n', "[Starter \"5X\"]: expected the card turned up"),
    ('[Stock "5H 9Z"]\n', "'9Z' is not a card"),
    ('[Starter "5H"]\n[Stock "2C 5H"]\n', "5H is given twice"),
    ('[Stock "2C 2C"]\n', "2C is given twice"),
    ('[Stock "' + " ".join(["??"] * 31) + '"]\n', "lists 31 cards, but with 3 players the stock holds 30"),
    ('[Variants "seven"]\n', "accepts any of david-le-fou, zero, 3-de-trefle, mot-doux, six or maitresse"),
])
def test_headers_that_cannot_make_a_game(check_text, headers, message):
    report = check_text(HEAD + headers + "Ana plays 5H\n")
    assert report.status == "error" and message in report.error.message, report.error.message


def test_david_le_fou_with_its_sanction_and_aliases(check_text):
    report = check_text(HEAD + '[Sanction "La Zouzou"]\n[Variants "le-david-le-fou, le-zero, 6, trefle-3"]\n[Starter "4H"]\nAna plays 5H\n')
    assert report.status == "in-progress"


def test_the_deal_sizes():
    for players, size in ((2, 7), (6, 7), (7, 5), (9, 5)):
        names = " ".join(f"P{k}" for k in range(players))
        rules = rules_after(f'[Game "carte-et-plouc"]\n[Players "{names}"]\n')
        assert [rules.cards.count(s) for s in range(players)] == [size] * players
        assert len(rules.cards.stock) == 52 - size * players - 1


def test_the_simulator_deals_seven_or_five_turns_one_up_and_keeps_the_stock_hidden():
    for players in (3, 8):
        text = simulate("carte-et-plouc", players, 4, max_events=0)
        (record,) = parse_text(text)
        hands = [e.cards for e in record.events if e.verb == "holds"]
        assert {len(h) for h in hands} == {7 if players <= 6 else 5}
        starter, stock = record.tag("Starter"), record.tag("Stock").split()
        dealt = [str(c) for h in hands for c in h] + [starter] + stock
        assert sorted(dealt) == sorted(str(c) for c in CarteEtPlouc.deck)
        hidden = simulate("carte-et-plouc", players, 4, max_events=0, hidden=True)
        assert "[Starter" in hidden and "[Stock" not in hidden and " holds " not in hidden


def test_a_sanction_chosen_for_david_le_fou_when_asked_for():
    text = simulate("carte-et-plouc", 3, 1, {"Variants": "david-le-fou"}, max_events=10)
    (record,) = parse_text(text)
    assert record.tag("Sanction") in ("zouzou", "mega-one")
    with pytest.raises(SimulationError, match="Sanction"):
        simulate("carte-et-plouc", 3, 1, {"Variants": "david-le-fou", "Sanction": "none"})


def test_referee_games_lists_the_options():
    output = CliRunner().invoke(main, ["games"]).output
    for tag in ("[Sanction", "[Variants", "[PlayOn", "[Reshuffle", "[TwoPlayerReverse"):
        assert tag in output


# --- Explaining the codes -------------------------------------------------------------------

def test_every_code_has_an_example_and_a_convention():
    for code in CarteEtPlouc.CODES:
        assert code in CarteEtPlouc.EXAMPLES, code
        assert f"why.{code}" in ENGLISH, code
        assert code in ENGLISH, code


@pytest.mark.parametrize("code", sorted(CarteEtPlouc.EXAMPLES))
def test_each_example_breaks_its_rule_on_its_last_line(code):
    (record,) = parse_text(CarteEtPlouc.EXAMPLES[code])
    report = check(record)
    line = record.header("Result").line if code == "REC-RESULT-MISMATCH" else record.events[-1].line
    assert (line, code) in codes(report), codes(report)
    assert all(v.line == line for v in report.violations if v.code == code)


def test_every_violation_quotes_its_rule():
    for code, text in CarteEtPlouc.EXAMPLES.items():
        for violation in check(parse_text(text)[0]).violations:
            assert violation.rule, violation.code


# --- What may come next ---------------------------------------------------------------------

def test_every_legal_event_checks_clean_when_appended():
    """Over random positions of simulated games (the deal known or not), each event that
    ``legal()`` offers, written after the record, adds no violation."""
    rng = random.Random(5)
    tried = 0
    for seed in range(24):
        players = 2 + seed % 8
        text = simulate("carte-et-plouc", players, seed, hidden=seed % 2 == 1, max_events=rng.randint(5, 120))
        (record,) = parse_text(text)
        rules = replay(start(record), record)
        if rules.violations:
            continue
        events = legal_events(rules.legal())
        for event in rng.sample(events, min(6, len(events))):
            kept = [line for line in text.rstrip("\n").split("\n") if not line.startswith("[Result")]
            (again,) = parse_text("\n".join(kept) + "\n" + line_text(event) + "\n")
            assert not check(again).violations, (line_text(event), [v.message for v in check(again).violations])
            tried += 1
    assert tried > 60


def test_a_call_due_comes_before_the_turn():
    rules = rules_after(HEAD + '[Starter "5H"]\nAna plays QH QS QD QC\nAna plays 8C 8S\n')
    assert [line_text(e) for e in rules.legal()] == ["Ana says carte"]
    assert [str(t) for t in rules.todo()] == ["Ana says « carte »", "Ben plays a spade or an 8, or draws"]


def test_the_cards_owed_are_drawn_or_answered():
    rules = rules_after(HEAD + '[Starter "4S"]\nAna plays KS\n')
    assert [str(t) for t in rules.todo()] == ["Ben draws 5 cards, or lays the 7 of spades"]
    offered = {line_text(e) for e in legal_events(rules.legal())}
    assert "Ben draws 5" in offered and "Ben plays 7S" in offered and "Ben plays 7H" not in offered


def test_a_card_that_may_not_end_a_plouc_is_offered_while_another_card_stays():
    rules = rules_after(HEAD + '[Variants "3-de-trefle"]\n[Starter "5C"]\nAna holds 3C 9D\n')
    assert {line_text(e) for e in legal_events(rules.legal())} == {"Ana plays 3C"}
    rules = rules_after(HEAD + '[Variants "3-de-trefle"]\n[Starter "5C"]\nAna holds 3C\nAna says carte\n')
    assert "Ana plays 3C" not in {line_text(e) for e in legal_events(rules.legal())}


CROSSED_GIFTS = HEAD.replace("Ana Ben Cas", "Zouhaire Charlotte David") + """[Sanction "mega-one"]
[Variants "zero"]
[Starter "3C"]
Zouhaire plays 4C
Charlotte plays 6C
David plays 6S 6H 6D
David plays QD QH
David plays 8H
Charlotte says contre
Charlotte swaps with David
David says contre
"""
"""Two « contre » that cross: Charlotte owes David a card, and David owes Charlotte one."""


TAKEN_BACK = HEAD.replace("Ana Ben Cas", "Ana Ben") + """[Variants "maitresse"]
[Starter "5C"]
Ana plays QC QS QD QH
Ana plays 9H 9C
Ana says carte
Ben plays 9D
Ana plays 7D
"""
"""A forbidden last card taken back: Ana's « plouc » now is part of that play."""


@pytest.mark.parametrize(("text", "verb"), [(CROSSED_GIFTS, "gives"), (TAKEN_BACK, "says")])
def test_each_mistake_is_reported_with_its_codes(text, verb):
    """Each mistake ``mistakes()`` offers, written after the record, is reported at its
    line with exactly its codes: when two gifts cross, David's card to Charlotte is his own
    gift, no gift given the wrong way round; after a forbidden last card taken back, the
    « plouc » said with it is no call out of place."""
    rules = rules_after(text)
    offered = rules.mistakes()
    assert any(m.event.verb == verb for m in offered)
    line = text.count("\n") + 1
    for mistake in offered:
        report = check(parse_text(text + line_text(mistake.event) + "\n")[0])
        assert sorted(c for n, c in codes(report) if n == line) == sorted(mistake.codes), line_text(mistake.event)


# --- The hidden view and the table ----------------------------------------------------------

def test_a_table_that_sees_no_hand():
    rules = rules_after(HEAD)
    draw = rules.legal()[0]
    assert CarteEtPlouc.public(parse_text(HEAD + "Ana draws 4C 9H\n")[0].events[0]).cards == (UNSEEN_CARD,) * 2
    assert line_text(CarteEtPlouc.public(parse_text(HEAD + "Ana draws 4C 9H\n")[0].events[0])) == "Ana draws 2"
    assert line_text(CarteEtPlouc.public(parse_text(HEAD + "Ana gives 4C to Ben\n")[0].events[0])) == "Ana gives ?? to Ben"
    assert CarteEtPlouc.public(parse_text(HEAD + "Ana holds 4C\n")[0].events[0]) is None
    assert draw.verb in ("plays", "draws")


def test_the_table_as_it_stands():
    rules = rules_after(HEAD + '[Starter "4S"]\nAna plays KS\nBen plays 7S\n')
    table = rules.table()
    assert table.turn == "Cas" and table.direction == 1
    assert table.hands["Ana"].count == 6 and table.stock == 30
    assert [str(c) for c in table.piles["discard"]] == ["4S", "KS", "7S"]
    assert table.owed == ["7 cards to draw for the next player"]


def test_the_statistics(check_text):
    report = check_text(HEAD + '[Starter "4S"]\nAna plays KS\nBen draws 5\nBen plays 10S 9S\nAna plays 7S\nCas draws 2\n')
    assert report.stats["drawn_by_Ben"] == 5 and report.stats["drawn_by_Cas"] == 2
    assert report.stats["longest_draw"] == 5 and report.stats["direction_changes"] == 1
    assert report.stats["cards_left_Ana"] == 5 and report.stats["cards_played"] == 4


@pytest.mark.parametrize(("code", "player"), [
    ("CP-MISSED-CARTE", "Ana"),        # Ben played: Ana, holding one card, missed it
    ("CP-NO-REPLAY", "Ana"),           # Ben played: Ana owed the card after her Dame
    ("CP-SWAP-MISSING", "Cas"),        # Ben played: Cas slapped first
    ("CP-MISSED-PLOUC", "Ana"),        # Ben played after Ana's last card
    ("CP-SANCTION-WRONG", "Cas"),      # Cas drew the card Ana owed
    ("CP-WRONG-ACCUSATION", "Cas"),
    ("CP-OUT-OF-TURN", "Cas"),
])
def test_the_right_player_is_named(code, player):
    (record,) = parse_text(CarteEtPlouc.EXAMPLES[code])
    found = [v for v in check(record).violations if v.code == code]
    assert found and found[-1].player == player and found[-1].message.startswith(player)


def test_an_empty_default_reads_none():
    output = CliRunner().invoke(main, ["games"]).output
    line = next(line for line in output.splitlines() if "[Variants" in line)
    assert line.endswith("(default: none)")


# --- Messages a user's review found wrong or unclear -------------------------------------------

MEGA = HEAD.replace("Ana Ben Cas", "Zouhaire Charlotte David") + (
    '[Dealer "David"]\n[Sanction "mega-one"]\n[Starter "3C"]\nCharlotte holds 6C 9C 9D 5S KH JD 2S\n'
    "Zouhaire plays 4C\nCharlotte plays 6C\nDavid plays 6S 6H 6D\nDavid plays QD QH\nDavid plays 8H\n"
    "Charlotte says contre\n")


@pytest.mark.parametrize(("text", "code", "message"), [
    (MEGA + "Charlotte gives 4D to David\n", "CP-NOT-IN-HAND",
     "Charlotte gave 4D, but the hand as known does not hold it (9C 9D 5S KH JD 2S)"),
    (HEAD.replace("Ana Ben Cas", "A B C D E F G H I") + '[Dealer "I"]\n[Starter "5H"]\n'
     "A plays 7H\nB plays 7C\nC draws 4\nC plays 9C\nD draws\nE draws\nF draws KD\n", "CP-STOCK-MISMATCH",
     "F drew KD, but the stock holds only 5H 7C 7H, shuffled back in from the discard"),
    (HEAD + '[Starter "3H"]\nAna plays AH\n', "CP-ACE-ANNOUNCE",
     "Ana played AH without announcing a suit (write: Ana plays AH for S)"),
    # two aces laid together: the last one laid announces
    (HEAD + '[Starter "3H"]\nAna plays AH AD\n', "CP-ACE-ANNOUNCE",
     "Ana played AD without announcing a suit (write: Ana plays AD for S)"),
    (HEAD + '[Sanction "zouzou"]\n[Variants "david-le-fou"]\n[Starter "4H"]\n'
     "Ana plays 9S\nCas accuses Ana\nAna draws\nBen accuses Ana\n", "CP-WRONG-ACCUSATION",
     "Ben accused Ana, whose error was already called out on line 7: it is not sanctioned twice"),
    (HEAD + '[Sanction "zouzou"]\n[Variants "david-le-fou"]\n[Starter "4H"]\n'
     "Ana plays 9S ; accepted CP-NO-MATCH\nCas accuses Ana\n", "CP-WRONG-ACCUSATION",
     "Cas accused Ana, whose error on line 6 the table accepted: it cannot be called out"),
    (HEAD + '[Sanction "zouzou"]\n[Variants "david-le-fou"]\n[Starter "4H"]\nAna plays 9S\nAna accuses Ana\n',
     "CP-WRONG-ACCUSATION", "Ana accused Ana, but an error is called out by another player, not by its author"),
    (HEAD.replace("Ana Ben Cas", "A B C D E F G H I") + '[Dealer "I"]\n[Starter "5H"]\n'
     "A plays 7H\nB plays 7C\nC draws 4\nC plays 9C\nD draws\nE draws\nF draws\nG plays 9S\nH plays KS\nI draws 5\n",
     "CP-DRAW-COUNT", "I drew 5 cards, but 5 cards were owed (the Roi de pique, 5), and only 4 cards are left to draw: that is the draw"),
    (HEAD.replace("Ana Ben Cas", "A B C D E F G H I") + '[Dealer "I"]\n[Starter "5H"]\n[Reshuffle "no"]\n'
     '[Variants "mot-doux"]\nA plays 7H\nB plays 7C\nC draws 4\nC plays 9C\nD draws\nE swears\nE draws 2\n',
     "CP-DRAW-COUNT", "E drew 2 cards, but the sanction is 2 cards, and only 1 card is left to draw: that is the draw"),
    (HEAD + '[Starter "4H"]\nAna plays 5H\nCas plays 9H 9C\n', "CP-OUT-OF-TURN",  # a group out of turn: its first card
     "Cas played 9H out of turn: it is Ben's turn, the next to the left after Ana"),
    (HEAD + '[Starter "4H"]\nAna holds 5H 9D 9C\nAna plays 5H\nAna plays 9D 9C\nBen plays 8C\n', "CP-MISSED-PLOUC",  # the last card of a group
     "Ana laid their last card, 9C, on line 6, and did not say « plouc »"),
    (HEAD + "Ana plays AH for H\n", "CP-ACE-ANNOUNCE",  # no card turned up: the ace's own suit is in play
     "Ana announced hearts, the suit already in play: an ace changes it"),
    (HEAD + "Ana plays AH AS for H\n", "CP-ACE-ANNOUNCE", "Ana announced hearts, the suit already in play: an ace changes it"),
    (HEAD + '[Sanction "zouzou"]\n[Variants "david-le-fou"]\n[Starter "4H"]\n'  # accepted, then a turn: nothing open
     "Ana plays 9S ; accepted CP-NO-MATCH\nBen plays 9C\nCas accuses Ana\n", "CP-WRONG-ACCUSATION",
     "Cas accused Ana, who has made no error since the last turn"),
    ('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Variants "six"]\n[TwoPlayerReverse "skip"]\n[Starter "4H"]\n'
     "Ana plays 6H\nAna plays 10H\nBen plays 10C\n", "CP-OUT-OF-TURN",  # the 10's skip, not the 6's before it
     "Ben played 10C out of turn: it is Ana's turn, as, with two players, Ana's 10 skipped Ben"),
    (HEAD + '[Starter "4H"]\nAna plays AS for C\n', "CP-ACE-SUIT", "Ana played AS on 4H: an ace goes only on its own suit"),
    (HEAD + '[Variants "3-de-trefle"]\n[Starter "4C"]\nAna holds 3S 3C\nAna plays 3S 3C ; accepted CP-THREE-OF-CLUBS\n',
     "CP-THREE-OF-CLUBS", "Ana laid the 3 of clubs as their last card, but a plouc may not end on it (le 3 de trèfle):"
                          " the table accepted it, and Ana is out"),
    (HEAD + '[Variants "3-de-trefle"]\n[Starter "4C"]\nAna holds 3S 3C\nAna plays 3S 3C\n',
     "CP-THREE-OF-CLUBS", "Ana laid the 3 of clubs as their last card, but a plouc may not end on it (le 3 de trèfle):"
                          " the card goes back to Ana's hand; holding only it, Ana cannot play, and draws"),
])
def test_the_message_says_what_happened(check_text, text, code, message):
    found = [v.message for v in check_text(text).violations if v.code == code]
    assert found and found[-1] == message, found


SIXES = '[Game "carte-et-plouc"]\n[Players "{players}"]\n[Variants "six"]\n[Starter "4H"]\n{plays}\n'


@pytest.mark.parametrize(("players", "plays", "ruling"), [
    ("Ana Ben", "Ana plays 6H", "Ana lays 6H on 4H: the same suit; Ben skipped"),
    ("Ana Ben", "Ana plays 6H 6C", "Ana lays 6H 6C on 4H: the same suit; Ben and Ana skipped"),
    ("Ana Ben Cas", "Ana plays 6H 6C 6S", "Ana lays 6H 6C 6S on 4H: the same suit; Ben, Cas and Ana skipped"),
    ("Ana Ben Cas Dom", "Ana plays 6H 6C", "Ana lays 6H 6C on 4H: the same suit; Ben and Cas skipped"),
])
def test_the_ruling_names_every_player_a_six_skips(tmp_path, players, plays, ruling):
    path = tmp_path / "six.txt"
    path.write_text(SIXES.format(players=players, plays=plays), encoding="utf-8")
    out = " ".join(CliRunner().invoke(main, ["explain", f"{path}:5"]).output.split())
    assert f"ruled: legal: {ruling} then:" in out, out


def test_the_ruling_of_a_carre_of_sevens_names_who_owes_the_eight(tmp_path):
    path = tmp_path / "sevens.txt"
    path.write_text('[Game "carte-et-plouc"]\n[Players "Zouhaire Charlotte David"]\n[Dealer "David"]\n'
                    '[Starter "5S"]\nZouhaire plays 7S\nCharlotte plays 7D\nDavid plays 7C 7H\n', encoding="utf-8")
    out = " ".join(CliRunner().invoke(main, ["explain", f"{path}:7"]).output.split())
    assert "Zouhaire owes 8 cards; David plays again (the carré of 7s)" in out, out


def test_a_card_played_from_an_empty_hand_leaves_the_hand_it_was_known_in() -> None:
    """Found by bench/fuzz.py (a moved line): Hugo, his hand known empty, plays 3S, known
    in Ann's hand. It is CP-NOT-IN-HAND, and the record wins: 3S is on the discard, no longer
    in Ann's hand. Ann's hand had kept it, so once the discard was shuffled into the stock,
    Ann's next card took 3S out of the stock's known cards, and a draw then raised KeyError."""
    from referee.cards import read_card
    from referee.games.carte_et_plouc.cards import DISCARD, POOL, Cards

    cards = Cards(("Ann", "Hugo"), 0)
    three = read_card("3S")
    cards.deal(0, (three, read_card("8D")))
    assert cards.take(1, three)[0] == "CP-NOT-IN-HAND"
    cards.lay(three)
    assert three not in cards.known[0] and cards.unknown[0] == 1 and cards.where[three] == DISCARD
    cards.lay(read_card("5C"))
    cards.reshuffle()
    cards.take(0, read_card("8D"))
    assert all(cards.where.get(c) == POOL for c in cards.pool)  # every card thought in the stock still is
    cards.draw(1, [read_card("KD")], True)  # raised KeyError


@pytest.mark.parametrize(("record", "line", "why", "rule"), [
    ("six.txt", 21, "it is Cas's turn, as Ana's 6 skipped Ben", "Le 6 : le joueur suivant passe son tour."),
    ("ten-reverses.txt", 23, "it is Zouhaire's turn, the next to the right after Charlotte, since 10S on line 22 turned the direction",
     "le tour de jeu change de sens."),
    ("ten-reverses.txt", 50, "it is David's turn, the next to the left after Charlotte: the 10s on line 49 turned the direction 2 times, "
                             "back to where it was",
     "donc on joue dans le sens normal."),
    ("turn.txt", 26, "it is Ben's turn, the next to the left after Ana", "A son tour chaque joueur doit faire une action"),
    ("two-players.txt", 29, "it is Ana's turn, as, with two players, Ana's 10 skipped Ben", "le tour de jeu change de sens."),
])
def test_out_of_turn_says_what_made_it_the_other_players_turn(record, line, why, rule):
    """The 6s that skipped, the 10s that turned the direction (or cancelled), or plain
    turn order: the message says which, and the rule quoted is the one that decided it."""
    games = parse_text(open(f"records/carte-et-plouc/{record}", encoding="utf-8").read())
    [v] = [v for g in games for v in check(g).violations if v.code == "CP-OUT-OF-TURN" and v.line == line]
    assert v.message.endswith(" out of turn: " + why)
    assert rule in v.rule


def test_a_wrong_draw_of_cards_owed_says_which_cards_made_the_count():
    games = parse_text(open("records/carte-et-plouc/sevens-stack.txt", encoding="utf-8").read())
    [v] = [v for g in games for v in check(g).violations if v.code == "CP-DRAW-COUNT"]
    assert v.message == "David drew 2 cards, but 4 cards were owed (7H and 7C, 2 each)"


@pytest.mark.parametrize(("record", "line", "message"), [
    ("mega-one.txt", 14, "David came down to one card (their play on line 13) and did not say « carte »"),
    ("plouc-end.txt", 70, "Ana laid their last card, 9D, on line 69, and did not say « plouc »"),
    ("mega-one.txt", 72, "Charlotte was to give a card to David before their own next play or pass, and did not: the sanction lapses"),
])
def test_a_missed_call_says_what_made_it_due_and_a_lapsed_sanction_says_who_owed_what(record, line, message):
    games = parse_text(open(f"records/carte-et-plouc/{record}", encoding="utf-8").read())
    assert message in [v.message for g in games for v in check(g).violations if v.line == line]


def test_an_ace_off_suit_announcing_the_suit_in_play_is_one_report():
    report = check(parse_text('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "4H"]\nAna plays AC for H\n')[0])
    assert [(v.code, v.message) for v in report.violations] == [
        ("CP-ACE-SUIT", "Ana played AC on 4H: an ace goes only on its own suit, and it announced hearts, the suit already "
                        "in play, which an ace changes")]


def test_two_aces_laid_without_a_suit_are_flagged_at_the_last_one():
    (violation,) = check(parse_text(HEAD + '[Starter "3H"]\nAna plays AH AD\n')[0]).violations
    assert (violation.code, violation.line, violation.column) == ("CP-ACE-ANNOUNCE", 4, 14)  # AD, not AH (column 11)


def test_a_record_without_the_card_turned_up_notes_it_and_one_with_it_does_not():
    note = "the card turned up to start is not in the record ([Starter]): the first card played could not be checked against it"
    assert check(parse_text(HEAD + "Ana plays 5H\n")[0]).notes == [note]
    assert check(parse_text(HEAD + '[Starter "3H"]\nAna plays 5H\n')[0]).notes == []


# --- The rulings in words (``referee explain FILE:LINE``) -----------------------------------

def ruling_of_last_line(text: str) -> str | None:
    """What ``referee explain`` rules on the last line of a game: the table before it, then
    the line's ruling."""
    from referee.state import rules_at

    (record,) = parse_text(text)
    event = record.events[-1]
    rules = rules_at(record, event.line - 1)
    rules.over(event)
    return rules.ruling(event)


@pytest.mark.parametrize(("lines", "ruling"), [
    ("Ana holds 5H 6H 7H 8H 9H 10H JH", "Ana's hand as dealt: 7 cards"),
    ('[Starter "??"]\nAna plays 5H', "Ana lays 5H: the card on top is not known, so any card goes"),
    ("Ana plays 5H", "Ana lays 5H on 4H: the same suit"),
    ("Ana plays 5♥", "Ana lays 5♥ on 4H: the same suit"),  # the cards as written
    ("Ana plays 4C", "Ana lays 4C on 4H: the same value"),
    ("Ana plays 5H 5C", "Ana lays 5H 5C on 4H: the same suit"),  # the first card decides
    ("Ana plays 10H", "Ana lays 10H on 4H: the same suit; the direction of play turns; Ana plays again (the 10)"),
    ("Ana plays AH for C", "Ana lays AH on 4H: the same suit; the suit is now clubs"),
    ("Ana plays AH for C\nBen plays 5C", "Ben lays 5C on AH (announced: clubs): the same suit"),
    ("Ana plays AH for H\nBen plays 5H", "Ben lays 5H on AH: the same suit"),  # (the suit it had: flagged)
    ('[Variants "zero"]\nAna plays 2H',
     "Ana lays 2H on 4H: the same suit; a 2 on the discard: the first to slap it swaps hands (le zéro)"),
    ('[Variants "six"]\nAna plays 6H', "Ana lays 6H on 4H: the same suit; Ben skipped"),
    ('[Variants "six"]\nAna plays 6H\nCas plays 8H', "Cas lays 8H on 6H: the same suit"),  # Ben was skipped a line before
    ("Ana plays 7H\nBen plays 7C", "Ben adds 7C to the cards owed instead of drawing them; Cas owes 4 cards"),
    ("Ana plays 7H\nBen plays 7C 7D 7S\nBen plays 8S", "Ben lays 8S on 7S: the same suit"),  # 8 owed, Ben's replay
    ("Ana plays 7H\nBen draws 2", "Ben draws the 2 cards owed; Ben plays again (having drawn more than one card)"),
    ("Ana plays 7H\nBen draws 7C 8D", "Ben draws the 2 cards owed; Ben plays again (having drawn more than one card)"),
    ("Ana draws", "Ana has no card to lay, and draws one"),
    ("Ana draws\nAna passes", "Ana drew and still cannot lay a card: the turn passes"),
    ("Ana passes", "Ana cannot lay a card and nothing is left to draw: a pass"),
    ('[Variants "mot-doux"]\nAna swears', "Ana swore: two cards to draw (la règle du mot doux)"),
    ('[Variants "mot-doux"]\nAna swears\nAna draws 2', "Ana pays the sanction: 2 cards drawn"),
    ('[Variants "mot-doux"]\nAna swears\nAna draws', "Ana pays the sanction: 1 card drawn"),
    ("Ana says carte", "Ana holds one card and says « carte »"),
    ("Ana says plouc", "Ana laid their last card and says « plouc »"),
    ("Ana says contre", "Ana calls out a missed « carte » or « plouc »"),
    ("Ana says hello", ""),
    ('[Variants "zero"]\nAna plays 2H\nBen slaps',
     "Ben is the first to slap the 2 (le zéro): they swap hands with a player of their choice"),
    ('[Variants "zero"]\nAna plays 2H\nBen slaps\nBen swaps with Cas', "Ben swaps hands with Cas (le zéro)"),
    ('[Variants "david-le-fou"]\n[Sanction "zouzou"]\nAna plays 9C\nBen accuses Ana',
     "Ben calls out an error of Ana's since the last turn (le David le fou)"),
    ('[Sanction "mega-one"]\nAna plays 9C\nBen gives 5H to Ana', "Ben gives a card to Ana: the sanction of la Méga One"),
])
def test_the_ruling_of_each_kind_of_line(lines, ruling):
    text = HEAD + ("" if "[Starter" in lines else '[Starter "4H"]\n') + lines + "\n"
    assert ruling_of_last_line(text) == ruling


def test_the_ruling_of_a_last_card_says_who_is_out():
    text = ('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "5H"]\n'
            "Ana plays QH QS QD QC\nAna plays 8C 8S\nAna says carte\nBen plays 8D\nAna plays 9D\n")
    assert ruling_of_last_line(text) == "Ana lays 9D on 8D: the same suit; Ana out"


def test_a_french_record_is_ruled_with_its_cards_as_written(tmp_path):
    path = tmp_path / "fr.txt"
    path.write_text('[Jeu "carte-et-plouc"]\n[Notation "fr"]\n[Joueurs "Ana Ben Cas"]\n[Retournée "4C"]\n'
                    "Ana joue 5♥\nBen joue 5T\n", encoding="utf-8")
    out = " ".join(CliRunner().invoke(main, ["explain", f"{path}:5", f"{path}:6"]).output.split())
    assert "ruled: legal: Ana lays 5♥ on 4C: the same suit then:" in out, out
    assert "ruled: legal: Ben lays 5T on 5C: the same value then:" in out, out


def test_a_draw_is_no_proof_once_its_card_was_thought_in_the_drawer_s_own_hand():
    """records/carte-et-plouc/proofs.txt: Ben draws 9C, the table thought it in his hand
    already; one of his cards is one nobody saw from that draw on, so legal() still offers
    8S, which fitted the 6S on top at that draw (the record is checked clean with it)."""
    rules = rules_after(HEAD + '[Starter "4H"]\nAna plays 5H\nBen draws 9C\nCas plays 5S\nAna plays 6S\n'
                               "Ben draws 9C\nCas plays 6D\nAna plays 8D\n")
    assert "Ben plays 8S" in {line_text(e) for e in legal_events(rules.legal())}


def test_going_out_on_the_three_of_clubs_is_offered_as_a_mistake_to_a_hand_nobody_saw():
    """Ana, down to one card without a draw or a pass since the deal: her last card may be
    the 3 of clubs, and the simulator may write it (with the faults it makes)."""
    rules = rules_after('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Variants "3-de-trefle"]\n[Starter "5H"]\n'
                        "Ana plays QH QS QD QC\nAna plays 8C 8S\nAna says carte\n")
    offered = {line_text(m.event): m.codes for m in rules.mistakes(True)}
    assert offered["Ana plays 3C"] == ("CP-OUT-OF-TURN", "CP-NO-MATCH", "CP-THREE-OF-CLUBS")


# --- The calls and their sanctions (calls.py) ----------------------------------------------------

def violations_of(text: str) -> list:
    return check(parse_text(text)[0]).violations


@pytest.mark.parametrize(("lines", "code", "message", "rule"), [
    ("Ana says plouc", "CP-CALL-NOT-DUE", "Ana said « plouc », but « plouc » is said right after one's last card",
     "il doit dire « plouc »"),
    ("Ana says hello", "CP-CALL-NOT-DUE", "Ana said « hello », but the calls of Carte et Plouc are carte, plouc and contre",
     "il doit dire « carte »"),
    ('[Sanction "mega-one"]\nAna holds 5H 9C\nAna plays 5H\nBen plays 6H  ; accepted CP-MISSED-CARTE\nCas says contre',
     "CP-FALSE-CONTRE", "Cas said « contre », but the table accepted Ana's missed « carte » on line 7: it is not sanctioned later",
     "La Méga One"),
    ('[Sanction "zouzou"]\nAna says contre', "CP-FALSE-CONTRE", "Ana said « contre », but nobody has missed a call", "La Zouzou"),
    ('[Sanction "none"]\nAna says contre', "CP-FALSE-CONTRE", "Ana said « contre », but nobody has missed a call", "La Zouzou"),
    ('[Variants "mot-doux"]\nCas swears\nCas draws 1', "CP-DRAW-COUNT", "Cas drew 1 card, but the sanction is 2 cards",
     "La règle du mot doux"),
    ('[Sanction "zouzou"]\n[Variants "david-le-fou"]\nCas accuses Ana\nCas draws 2', "CP-DRAW-COUNT",
     "Cas drew 2 cards, but the sanction is 1 card", "s’est lui-même trompé"),
    ('[Sanction "zouzou"]\nAna holds 5H 9C\nAna plays 5H\nBen says contre\nAna draws 2', "CP-DRAW-COUNT",
     "Ana drew 2 cards, but the sanction is 1 card", "La Zouzou"),
    ('[Sanction "zouzou"]\n[Variants "david-le-fou"]\nAna plays 9C\nAna accuses Ana', "CP-WRONG-ACCUSATION",
     "Ana accused Ana, but an error is called out by another player, not by its author", "s’est lui-même trompé"),
])
def test_a_call_or_a_sanction_paid_wrong_says_why_and_quotes_its_rule(lines, code, message, rule):
    """The rule quoted is the sanction's own (la Zouzou, la Méga One, le mot doux, le David
    le fou's wrong accusation), as chosen when the sanction was owed."""
    text = HEAD + ("" if "[Starter" in lines else '[Starter "4H"]\n') + lines + "\n"
    found = [v for v in violations_of(text) if v.code == code]
    assert found and found[-1].message == message, [v.message for v in found]
    assert rule in found[-1].rule, found[-1].rule


@pytest.mark.parametrize(("sanction", "caller", "gift"), [
    ("mega-one", "7D 8D", True),
    ("mega-one", "7D\nCas says carte", False),  # the caller's last card is no gift
    ("none", "7D 8D", False),
])
def test_la_mega_one_s_gift_is_owed_by_a_caller_who_holds_more_than_one_card(sanction, caller, gift):
    rules = rules_after(HEAD + f'[Sanction "{sanction}"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds {caller}\n'
                               "Ana plays 5H\nCas says contre\n")
    assert ("Cas gives a card to Ana (la Méga One)" in [str(t) for t in rules.todo()]) == gift
    assert rules.gifts == ([(2, 0)] if gift else []) and not rules.sanctions


MEGA_ONE_OWED = '[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds 7D 8D\nAna plays 5H\nCas says contre\n'
"""Cas caught Ana's missed « carte »: under la Méga One, Cas owes Ana a card."""
ZERO_SLAPPED = '[Variants "zero"]\n[Starter "4H"]\nAna plays 2H\nBen slaps\n'
OUT_ON_A_TWO = ('[PlayOn "yes"]\n[Variants "zero"]\n[Starter "4H"]\nAna holds 5H\nAna says carte\nAna plays 5H\n'
                "Ana says plouc\nBen plays 2H\n")


@pytest.mark.parametrize(("lines", "code", "message"), [
    (MEGA_ONE_OWED + "Cas gives 7D 8D to Ana", "CP-SANCTION-WRONG",
     "Cas gave 2 cards to Ana, but la Méga One asks one card from Cas to Ana"),
    (MEGA_ONE_OWED + "Ben gives 6S to Ana", "CP-SANCTION-WRONG",
     "Ben gave 1 card to Ana, but la Méga One asks one card from Cas to Ana: it is still owed"),
    (MEGA_ONE_OWED + "Ben gives 6S to Cas", "CP-SANCTION-WRONG",
     "Ben gave 1 card to Cas, but la Méga One asks one card from Cas to Ana: it is still owed"),
    (MEGA_ONE_OWED + "Cas gives 7D to Ben", "CP-SANCTION-WRONG",
     "Cas gave 1 card to Ben, but la Méga One asks one card from Cas to Ana: it is still owed"),
    ('[Sanction "mega-one"]\n[Starter "4H"]\nBen gives 6S to Ana', "CP-SANCTION-WRONG", "Ben gave 1 card to Ana, but no card is owed"),
    (MEGA_ONE_OWED + "Cas gives 7D to Ana\nAna says carte", "CP-CALL-NOT-DUE",  # the card given: two again
     "Ana said « carte », but Ana holds 2 cards: « carte » is said with one card left, after the play that leaves it"),
    (OUT_ON_A_TWO + "Ana slaps", "CP-FALSE-SLAP", "Ana slapped the discard, but a player who is out takes no part"),
    (OUT_ON_A_TWO + "Cas slaps\nCas swaps with Ana", "CP-WRONG-SWAP", "Cas swapped with Ana, who is out"),
    (ZERO_SLAPPED + "Ben swaps with Cas\nBen plays 5H\nCas slaps", "CP-FALSE-SLAP",
     "Cas slapped the discard, but no 2 has just been laid (top: 5H)"),
    (ZERO_SLAPPED + "Cas swaps with Ana", "CP-WRONG-SWAP", "Cas swapped hands, but Ben slapped the 2 first"),
    ('[Starter "4H"]\nAna swaps with Ben', "CP-WRONG-SWAP", "Ana swapped hands, but only the first to slap a 2 swaps"),
])
def test_a_wrong_gift_slap_or_swap_says_what_was_owed(lines, code, message):
    found = [v.message for v in violations_of(HEAD + lines + "\n") if v.code == code]
    assert found and found[-1] == message, found


def test_a_swap_with_oneself_is_the_swap_owed_done_wrong_and_not_missed_later():
    found = [(v.code, v.message) for v in violations_of(HEAD + ZERO_SLAPPED + "Ben swaps with Ben\nBen plays 5H\n")]
    assert found == [("CP-WRONG-SWAP", "Ben swapped with themselves")]


def test_a_swap_moves_the_carte_due_with_the_one_card():
    """Ana, down to one card, swaps it away (le zéro): « carte » is Ben's to say now, not hers."""
    rules = rules_after(HEAD + '[Variants "zero"]\n[Starter "4H"]\nAna holds 5H 2H\nAna plays 2H\nBen slaps\nBen swaps with Ana\n')
    assert [str(t) for t in rules.todo()] == ["Ben says « carte »", "Ben plays a heart or a 2, or draws"]


def test_two_single_cards_swapped_stay_single_and_called():
    """Ana and Ben each hold one card and said « carte »; swapped, each still holds one:
    « carte » said again is no fault."""
    text = (HEAD + '[Variants "zero"]\n[Starter "4H"]\nAna holds 5H 2H\nBen holds 9C\nBen says carte\nAna plays 2H\n'
            "Ana says carte\nAna slaps\nAna swaps with Ben\nAna says carte\n")
    assert [v.code for v in violations_of(text)] == ["REC-BAD-DEAL", "REC-BAD-DEAL"]


@pytest.mark.parametrize(("lines", "last"), [
    ('[Sanction "zouzou"]\n[Variants "david-le-fou"]\nAna holds 5H 9C\nAna plays 5H\nBen says contre\nCas accuses Ana',
     ("CP-WRONG-ACCUSATION", "Cas accused Ana, whose error was already called out on line 8: it is not sanctioned twice")),
    ('[Sanction "zouzou"]\nAna holds 5H 9C\nAna plays 5H\nBen says contre\nCas says contre',
     ("CP-FALSE-CONTRE", "Cas said « contre », but nobody has missed a call")),
    ("Ana holds 5H 9C\nBen holds 6H 8C\nAna plays 5H\nBen plays 6H  ; accepted CP-MISSED-CARTE\n"
     "Cas plays 6C  ; accepted CP-MISSED-CARTE\nCas says contre",  # two misses waived: the first is named
     ("CP-FALSE-CONTRE", "Cas said « contre », but the table accepted Ana's missed « carte » on line 7: it is not sanctioned later")),
])
def test_a_missed_carte_is_caught_once(lines, last):
    found = violations_of(HEAD + '[Starter "4H"]\n' + lines + "\n")
    assert (found[-1].code, found[-1].message) == last and found[-1].line == HEAD.count("\n") + 1 + lines.count("\n") + 1


@pytest.mark.parametrize("lines", [
    "Cas accuses Ana",  # without le David le fou: a fault, and no card to draw
    '[Sanction "zouzou"]\n[Variants "david-le-fou"]\nCas accuses Ana  ; accepted CP-WRONG-ACCUSATION',
])
def test_a_wrong_accusation_costs_a_card_only_under_le_david_le_fou_and_when_the_table_counts_it(lines):
    rules = rules_after(HEAD + '[Starter "4H"]\n' + lines + "\n")
    assert [v.code for v in rules.violations] == ["CP-WRONG-ACCUSATION"] and not rules.sanctions
    assert [str(t) for t in rules.todo()] == ["Ana plays a heart or a 4, or draws"]


# --- What the table knows of the cards (cards.py) ---------------------------------------------

def _cards(stock: str = "", discard: str = "", pool: str = ""):
    """Cards as a table may know them: the stock (top card last), the discard (top last), the
    seen cards shuffled back in (``pool``); ``??`` for a card nobody saw."""
    from referee.cards import read_card
    from referee.games.carte_et_plouc.cards import POOL, Cards

    cards = Cards(("Ana", "Ben"), 7)
    cards.stock = [read_card(w) for w in stock.split()]
    cards.discard = [read_card(w) for w in discard.split()]
    cards.pool = {read_card(w) for w in pool.split()}
    cards.where.update((c, POOL) for c in cards.pool)
    return cards


def _ways(cards, count: int, reshuffle: bool = True) -> list[str]:
    return [" ".join(map(str, way)) for way in cards.peek(count, reshuffle)]


@pytest.mark.parametrize(("cards", "count", "reshuffle", "ways"), [
    (dict(stock="2C 3C 4C"), 2, True, ["4C 3C"]),  # known: the top card first
    (dict(stock="?? 4C"), 1, True, ["4C"]),
    (dict(stock="?? 4C", pool="5H 6H"), 1, True, ["4C"]),  # the top card is known, not one shuffled in
    (dict(stock="??"), 1, True, [""]),  # nobody knows it: a count
    (dict(stock="?? ??", pool="5H 6H"), 1, True, ["5H", "6H"]),  # either of the cards shuffled in
    (dict(stock="?? ??", pool="5H"), 1, True, [""]),
    (dict(discard="5H 6H 7H"), 2, True, ["5H 6H", "6H 5H"]),  # the discard under its top, shuffled
    (dict(discard="5H 6H 7H"), 2, False, [""]),
    (dict(stock="4C", discard="5H 6H 7H"), 2, True, ["4C 5H", "4C 6H"]),
    (dict(stock="4C", discard="5H 6H 7H"), 2, False, ["4C"]),
    (dict(discard="?? 6H 7H"), 1, True, [""]),
    (dict(stock="?? ?? ?? ?? ?? ?? ??", pool="2H 3H 4H 5H 6H 8H 9H"), 1, True, ["2H", "3H", "4H", "5H", "6H", "8H"]),
])
def test_the_draws_legal_offers_are_the_cards_known_or_a_few_orders_of_a_stock_shuffled_in(cards, count, reshuffle, ways):
    assert _ways(_cards(**cards), count, reshuffle) == ways


@pytest.mark.parametrize(("lines", "message"), [
    # le zéro: Ana's known hand goes to Ben with the swap, and is known there
    ('[Variants "zero"]\n[Starter "4H"]\nAna holds 2H 5C 6C 7C 8C 9C JC\nAna plays 2H\nBen slaps\nBen swaps with Ana\nCas plays 5C',
     "5C appears twice: it is already in Ben's cards"),
    # a card known deeper in the stock is not the top card
    ('[Starter "4H"]\n[Stock "?? 9C"]\nAna draws 9C', "9C appears twice: it is already in the stock"),
    ('[Starter "4H"]\nAna plays 5H\nBen plays 5H', "5H appears twice: it is already on the discard"),
])
def test_a_card_seen_twice_says_where_it_was_known(lines, message):
    found = [v.message for v in violations_of(HEAD + lines + "\n") if v.code == "REC-DUPLICATE-CARD"]
    assert found == [message]


def test_the_table_s_knowledge_of_the_hands_follows_the_record():
    """Cards.take, add and draw: the record wins, and what the table thought is corrected
    (a card found elsewhere leaves the place it was thought in, a hand that did not hold
    the card played becomes cards nobody saw)."""
    from referee.cards import read_card
    from referee.games.carte_et_plouc.cards import POOL, STOCK, Cards

    c = {w: read_card(w) for w in "5C 6C 9C 5D 9D 5H".split()}
    cards = Cards(("Ana", "Ben"), 2)
    cards.deal(1, (c["9C"], UNSEEN_CARD))
    cards.clock = 3
    assert cards.take(0, c["9C"])[0] == "REC-DUPLICATE-CARD"  # Ana's hand nobody saw; 9C was thought in Ben's
    assert (cards.known[1], cards.unknown[1], cards.since[1], cards.unknown[0]) == ([], 2, 3, 1)

    cards = Cards(("Ana", "Ben"), 0)
    cards.deal(0, (c["9D"],))
    cards.deal(0, (c["5C"], c["6C"]))  # the hand written again: 9D is no longer thought in it
    assert c["9D"] not in cards.where
    cards.clock = 4
    assert cards.take(0, UNSEEN_CARD) is None  # a card nobody saw: either of the two
    assert (cards.known[0], cards.unknown[0], cards.since[0], "5C" in map(str, cards.where)) == ([], 1, 4, False)

    cards.deal(0, (c["5C"], c["6C"]))
    cards.deal(1, (c["5D"],))
    cards.clock = 5
    problem = cards.take(0, c["5D"])  # not in the hand as known: it is cards nobody saw now, and 5D left Ben's
    assert problem is not None and problem[0] == "CP-NOT-IN-HAND"
    assert (cards.known[0], cards.unknown[0], cards.since[0]) == ([], 1, 5)
    assert c["5C"] not in cards.where and c["6C"] not in cards.where and (cards.known[1], cards.unknown[1]) == ([], 1)

    cards = Cards(("Ana", "Ben"), 0)
    cards.deal(0, (c["5C"], UNSEEN_CARD))
    cards.deal(1, (c["5D"],))
    cards.clock = 6
    assert cards.take(0, c["5D"])[0] == "REC-DUPLICATE-CARD"  # one of Ana's cards nobody saw
    assert (cards.known[0], cards.unknown[0], cards.known[1], cards.unknown[1]) == ([c["5C"]], 0, [], 1)
    cards.add(0, UNSEEN_CARD)
    cards.add(1, c["9D"])
    assert (cards.since[0], cards.last_in[0], cards.last_in[1], cards.came[1][c["9D"]]) == (6, 6, 6, 6)

    cards = Cards(("Ana", "Ben"), 0)  # the stock: 9C known on top, 5H shuffled in
    cards.stock, cards.where[c["9C"]] = [UNSEEN_CARD, c["9C"]], STOCK
    cards.deal(1, (c["5D"],))
    drawn, problems = cards.draw(0, [c["5D"]], True)  # not the top card: the record wins
    assert (drawn, [p[1] for p in problems]) == (1, ["CP-STOCK-MISMATCH"])
    assert c["9C"] not in cards.where and (cards.known[1], cards.unknown[1], cards.known[0]) == ([], 1, [c["5D"]])
    cards.pool, cards.where[c["5H"]] = {c["5H"]}, POOL
    cards.draw(0, [UNSEEN_CARD], True)  # it may have been 5H: no card is surely in the stock now
    assert not cards.pool and c["5H"] not in cards.where

    cards = Cards(("Ana", "Ben"), 0)  # a card known at its place in the stock, found in a hand
    cards.stock, cards.where[c["9C"]] = [UNSEEN_CARD, c["9C"], UNSEEN_CARD], STOCK
    cards.forget(c["9C"])
    assert cards.stock == [UNSEEN_CARD] * 3 and c["9C"] not in cards.where
    cards.pool, cards.where[c["5H"]] = {c["5H"]}, POOL
    cards.forget(c["5H"])
    assert not cards.pool
    cards.pool, cards.where[c["5H"]] = {c["5H"]}, POOL
    cards.add(0, c["5H"])  # seen in a hand: no longer in the stock
    assert not cards.pool and cards.where[c["5H"]] == 0

    cards = Cards(("Ana", "Ben"), 0)  # 5H, shuffled in, must be the one card nobody saw in the stock
    cards.stock, cards.pool, cards.where[c["5H"]] = [UNSEEN_CARD], {c["5H"]}, POOL
    assert [p[1] for p in cards.draw(0, [c["9D"]], True)[1]] == ["CP-STOCK-MISMATCH"]
    assert not cards.pool and c["5H"] not in cards.where

    cards = Cards(("Ana", "Ben"), 0)  # the discard shuffled in: 5H, under it, was found in Ana's hand since
    cards.discard = [c["5H"], c["6C"], c["9C"]]
    cards.deal(0, (c["5H"],))
    cards.where[c["6C"]] = -1
    cards.reshuffle()
    assert cards.pool == {c["6C"]} and cards.where[c["5H"]] == 0 and cards.stock == [UNSEEN_CARD] * 2

    cards = Cards(("Ana", "Ben"), 1)  # a swap: both hands came in now
    cards.clock = 7
    cards.swap(0, 1)
    assert (cards.since, cards.last_in) == ([7, 7], [7, 7])

    cards = Cards(("Ana", "Ben"), 0)  # two cards on the discard: the one under the top is drawn
    cards.discard = [c["5C"], c["6C"]]
    assert cards.draw(0, [UNSEEN_CARD], True)[0] == 1 and cards.discard == [c["6C"]]


# --- The simulator's side: what legal() and mistakes() offer (play.py) -----------------------

CALLS_ALONE = {"CP-FALSE-SLAP", "CP-CALL-NOT-DUE", "CP-FALSE-CONTRE", "CP-WRONG-ACCUSATION", "CP-SWEAR", "CP-WRONG-SWAP"}
"""The codes of the mistakes a player can make at any time (a slap, a call, an accusation,
a gros mot, a swap): left out where a position is about something else."""


def offered_mistakes(text: str, hidden: bool, calls: bool) -> list[str]:
    """Each mistake ``mistakes()`` offers after ``text``, as ``line: codes``, once checked
    to be reported at its line with exactly those codes (in the record as the table writes
    it: without the hands, the stock and the cards drawn, with ``hidden``)."""
    text = (HEAD if "[Players" not in text else '[Game "carte-et-plouc"]\n') + text + "\n"
    rules = rules_after(text)
    written = "".join(line for line in text.splitlines(True) if not (hidden and (" holds " in line or line.startswith("[Stock"))))
    line = written.count("\n") + 1
    found = []
    for mistake in rules.mistakes(hidden):
        event = CarteEtPlouc.public(mistake.event) if hidden else mistake.event
        assert event is not None
        report = check(parse_text(written + line_text(event) + "\n")[0])
        assert sorted(c for n, c in codes(report) if n == line) == sorted(mistake.codes), line_text(event)
        if calls or not set(mistake.codes) <= CALLS_ALONE:
            found.append(f"{line_text(mistake.event)}: {' '.join(mistake.codes)}")
    return found


@pytest.mark.parametrize(("text", "hidden", "calls", "expected"), [
    pytest.param('[Variants "zero mot-doux david-le-fou"]\n[Sanction "zouzou"]\n[Starter "5H"]\nAna holds 2H 9C AC 3D KS 4C JD\nBen holds 2S 6D 8C 10S QH 7C AD\nCas holds 5C 5D 4S 6S 6H 10C 10D\nAna plays 2H\nBen slaps', False, True, [
        'Ana says carte: CP-CALL-NOT-DUE',
        'Ana says contre: CP-FALSE-CONTRE',
        'Ana accuses Ben: CP-WRONG-ACCUSATION',
        'Ana swears: CP-SWEAR',
        'Ana swaps with Ben: CP-WRONG-SWAP',
        'Ben says carte: CP-CALL-NOT-DUE',
        'Ben says contre: CP-FALSE-CONTRE',
        'Ben accuses Ana: CP-WRONG-ACCUSATION',
        'Ben swears: CP-SWEAR',
        'Ben swaps with Ben: CP-WRONG-SWAP',
        'Cas says carte: CP-CALL-NOT-DUE',
        'Cas says contre: CP-FALSE-CONTRE',
        'Cas accuses Ana: CP-WRONG-ACCUSATION',
        'Cas swears: CP-SWEAR',
        'Cas swaps with Ana: CP-WRONG-SWAP',
        'Ana says plouc: CP-CALL-NOT-DUE',
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben plays 2S: CP-SWAP-MISSING',
    ], id='zero-slapped'),
    pytest.param('[PlayOn "yes"]\n[Variants "zero"]\n[Starter "4H"]\nAna holds 5H\nAna says carte\nAna plays 5H\nAna says plouc\nBen plays 2H', False, True, [
        'Ana slaps: CP-FALSE-SLAP',
        'Ben says carte: CP-CALL-NOT-DUE',
        'Ben says contre: CP-FALSE-CONTRE',
        'Ben accuses Ana: CP-WRONG-ACCUSATION',
        'Ben swaps with Cas: CP-WRONG-SWAP',
        'Cas says carte: CP-CALL-NOT-DUE',
        'Cas says contre: CP-FALSE-CONTRE',
        'Cas accuses Ana: CP-WRONG-ACCUSATION',
        'Cas swaps with Ben: CP-WRONG-SWAP',
        'Ben says plouc: CP-CALL-NOT-DUE',
        'Ben gives ?? to Cas: CP-SANCTION-WRONG',
        'Cas passes: CP-PASS',
        'Cas draws 2: CP-DRAW-COUNT',
    ], id='out-on-a-two'),
    pytest.param('[Starter "4H"]\nAna holds 5H 9C 3S 4D 6S 7S 8S\nBen holds 2S 6D 8C 10S QH 7C AD\nCas holds 5C 5D 4S 6H 9H 10C 10D\nAna plays 5H\nBen plays 6D\nCas plays 6H\nAna plays 9C', False, True, [
        'Ana slaps: CP-FALSE-SLAP',
        'Ben slaps: CP-FALSE-SLAP',
        'Cas slaps: CP-FALSE-SLAP',
        'Ana says carte: CP-CALL-NOT-DUE',
        'Ana says contre: CP-FALSE-CONTRE',
        'Ana accuses Ben: CP-WRONG-ACCUSATION',
        'Ana swaps with Ben: CP-WRONG-SWAP',
        'Ben says carte: CP-CALL-NOT-DUE',
        'Ben says contre: CP-FALSE-CONTRE',
        'Ben accuses Cas: CP-WRONG-ACCUSATION',
        'Ben swaps with Ana: CP-WRONG-SWAP',
        'Cas says carte: CP-CALL-NOT-DUE',
        'Cas says contre: CP-FALSE-CONTRE',
        'Cas accuses Ben: CP-WRONG-ACCUSATION',
        'Cas swaps with Ana: CP-WRONG-SWAP',
        'Ana says plouc: CP-CALL-NOT-DUE',
        'Ana gives 3S to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 2S: CP-NO-MATCH',
        'Ben plays 8C for S: CP-ACE-ANNOUNCE',
        'Ben plays 10S: CP-NO-MATCH',
        'Ben plays QH: CP-NO-MATCH',
        'Ben plays 7C for S: CP-ACE-ANNOUNCE',
        'Ben plays AD for S: CP-ACE-SUIT',
        'Cas plays 5C: CP-OUT-OF-TURN',
        'Ben draws 2: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 1: CP-DRAW-WITH-PLAYABLE',
        'Ben plays 5C: CP-NOT-IN-HAND',
    ], id='error-open'),
    pytest.param('[Starter "4H"]\nAna holds 5H 9C\nAna plays 5H', False, True, [
        'Ana slaps: CP-FALSE-SLAP',
        'Ben slaps: CP-FALSE-SLAP',
        'Cas slaps: CP-FALSE-SLAP',
        'Ana says contre: CP-FALSE-CONTRE',
        'Ana accuses Ben: CP-WRONG-ACCUSATION',
        'Ana swaps with Ben: CP-WRONG-SWAP',
        'Ben says carte: CP-CALL-NOT-DUE',
        'Ben accuses Ana: CP-WRONG-ACCUSATION',
        'Ben swaps with Ana: CP-WRONG-SWAP',
        'Cas says carte: CP-CALL-NOT-DUE',
        'Cas accuses Ana: CP-WRONG-ACCUSATION',
        'Cas swaps with Ana: CP-WRONG-SWAP',
        'Ana says plouc: CP-CALL-NOT-DUE',
        'Ben gives ?? to Ana: CP-SANCTION-WRONG',
        'Ben plays 5S: CP-MISSED-CARTE',
        'Ben says contre: CP-MISSED-CARTE',
    ], id='carte-due'),
    pytest.param('[Sanction "zouzou"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds 7D 8D\nAna plays 5H\nCas says contre', False, False, [
        'Ana draws 2: CP-DRAW-COUNT',
        'Cas draws 1: CP-SANCTION-WRONG',
        'Ben gives ?? to Ana: CP-SANCTION-WRONG',
    ], id='zouzou-owed'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds 7D 8D 9D\nAna plays 5H\nCas says contre', False, False, [
        'Ana gives 9C to Cas: CP-SANCTION-WRONG',
        'Cas gives 7D 8D to Ana: CP-SANCTION-WRONG',
    ], id='mega-one-owed'),
    pytest.param('[Starter "4S"]\nAna holds 7S 9C\nBen holds KH 8S 9D AS\nAna plays 7S\nAna says carte', False, False, [
        'Ben gives KH to Ana: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays KH: CP-MUST-DRAW',
        'Ben draws 3: CP-DRAW-COUNT',
    ], id='sevens-owed'),
    pytest.param('[Starter "4S"]\n[Stock "5D 6D 6C"]\nAna holds 5S 9C 3H\nBen holds KH 8S 9D AS AH 4H\nAna plays 5S', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 8S for H: CP-ACE-ANNOUNCE',
        'Ben plays 9D: CP-NO-MATCH',
        'Ben plays AS: CP-ACE-ANNOUNCE',
        'Ben plays AS for S: CP-ACE-ANNOUNCE',
        'Ben plays AH for H: CP-ACE-SUIT',
        'Ben plays 4H: CP-NO-MATCH',
        'Ben draws 5D 6D: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 5D: CP-DRAW-WITH-PLAYABLE',
        'Ben draws 6D: CP-STOCK-MISMATCH CP-DRAW-WITH-PLAYABLE',
        'Ben plays 5D: CP-NOT-IN-HAND',
    ], id='aces-and-a-known-stock'),
    pytest.param('[Starter "4S"]\n[Stock "5D 6D 6C"]\nAna holds 5S 9C 3H\nBen holds KH 8S 9D AS AH 4H\nAna plays 5S', True, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 8S for H: CP-ACE-ANNOUNCE',
        'Ben plays 9D: CP-NO-MATCH',
        'Ben plays AS: CP-ACE-ANNOUNCE',
        'Ben plays AS for S: CP-ACE-ANNOUNCE',
        'Ben plays AH for H: CP-ACE-SUIT',
        'Ben plays 4H: CP-NO-MATCH',
        'Ben draws 5D 6D: CP-DRAW-COUNT',
    ], id='aces-and-a-known-stock-hidden'),
    pytest.param('[Variants "maitresse"]\n[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds AS\nAna plays 5S', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays AS: CP-MAITRESSE',
        'Ben draws 2: CP-DRAW-COUNT',
    ], id='maitresse-ace-last'),
    pytest.param('[Variants "3-de-trefle"]\n[Starter "4C"]\nAna holds 5C 9C 3H\nBen holds 3C\nAna plays 5C', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 3C: CP-THREE-OF-CLUBS',
        'Ana plays 9C: CP-OUT-OF-TURN',
        'Ben draws 2: CP-DRAW-COUNT',
    ], id='three-of-clubs-held-last'),
    pytest.param('[Variants "3-de-trefle"]\n[Starter "4C"]\nAna holds 5C 9C 3H\nBen holds 8D\nCas holds 9D 6C\nAna plays 5C', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 8D: CP-NO-MATCH',
        'Ana plays 9C: CP-OUT-OF-TURN',
        'Ben plays 3C: CP-NOT-IN-HAND CP-THREE-OF-CLUBS',
        'Ben draws 2: CP-DRAW-COUNT',
    ], id='three-of-clubs-not-held'),
    pytest.param('[Starter "4C"]\nAna holds QC 9C 3H\nBen holds 5C 8D\nCas holds 9D 6C\nAna plays QC', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben plays 5C: CP-NO-REPLAY',
    ], id='replay-owed'),
    pytest.param('[PlayOn "yes"]\n[Starter "4C"]\nAna holds 5C\nBen holds 9C 8D\nCas holds 9D 6C\nAna plays 5C', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
        'Ben plays 9C: CP-MISSED-PLOUC',
    ], id='plouc-play-on'),
    pytest.param('[Starter "4C"]\nAna holds 5C\nBen holds 9C 8D\nCas holds 9D 6C\nAna plays 5C', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
        'Ben passes: CP-MISSED-PLOUC REC-AFTER-END',
    ], id='plouc-ends'),
    pytest.param('[Starter "4C"]\nAna holds 5C\nAna plays 5C\nAna says plouc', False, False, [
    ], id='game-over'),
    pytest.param('[Variants "zero"]\n[Starter "2H"]\nAna holds 5H 9C 3S 4D 6S 7S 8S\nBen holds 2S 6D 8C 10S QH 7C AD\nCas holds 5C 5D 4S 6H 9H 10C 10D', False, True, [
        'Ana slaps: CP-FALSE-SLAP',
        'Ben slaps: CP-FALSE-SLAP',
        'Cas slaps: CP-FALSE-SLAP',
        'Ana says carte: CP-CALL-NOT-DUE',
        'Ana says contre: CP-FALSE-CONTRE',
        'Ana accuses Ben: CP-WRONG-ACCUSATION',
        'Ana swaps with Ben: CP-WRONG-SWAP',
        'Ben says carte: CP-CALL-NOT-DUE',
        'Ben says contre: CP-FALSE-CONTRE',
        'Ben accuses Ana: CP-WRONG-ACCUSATION',
        'Ben swaps with Ana: CP-WRONG-SWAP',
        'Cas says carte: CP-CALL-NOT-DUE',
        'Cas says contre: CP-FALSE-CONTRE',
        'Cas accuses Ana: CP-WRONG-ACCUSATION',
        'Cas swaps with Ana: CP-WRONG-SWAP',
        'Ana says plouc: CP-CALL-NOT-DUE',
        'Ana gives 5H to Ben: CP-SANCTION-WRONG',
        'Ana passes: CP-PASS',
        'Ana plays 5H for S: CP-ACE-ANNOUNCE',
        'Ana plays 9C: CP-NO-MATCH',
        'Ana plays 3S: CP-NO-MATCH',
        'Ana plays 4D: CP-NO-MATCH',
        'Ana plays 6S: CP-NO-MATCH',
        'Ana plays 7S: CP-NO-MATCH',
        'Ana plays 8S: CP-NO-MATCH',
        'Ben plays 2S: CP-OUT-OF-TURN',
        'Ana draws 2: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ana draws 1: CP-DRAW-WITH-PLAYABLE',
        'Ana plays 2S: CP-NOT-IN-HAND',
    ], id='a-two-turned-up'),
    pytest.param('[Sanction "zouzou"]\n[Starter "4H"]\nAna holds 5S 9C 8D\nBen holds 6H 7C 8S\nCas holds 5H 9D\nAna plays 5S\nBen plays 8S\nCas plays 5H\nAna says contre', False, False, [
        'Cas draws 2: CP-DRAW-COUNT',
        'Ben draws 1: CP-SANCTION-WRONG',
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
    ], id='draw-owed-by-the-player-due'),
    pytest.param('[Players "Ana Ben"]\n[Sanction "zouzou"]\n[Starter "4H"]\nAna holds 5H 9C\nAna plays 5H\nBen says contre', False, False, [
        'Ana draws 2: CP-DRAW-COUNT',
        'Ben gives ?? to Ana: CP-SANCTION-WRONG',
    ], id='two-players-draw-owed'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds 7D 8D\nAna plays 5H\nCas says contre', False, False, [
        'Ana gives 9C to Cas: CP-SANCTION-WRONG',
    ], id='mega-one-owed-by-a-caller-of-two-cards'),
    pytest.param('[Starter "4S"]\nAna holds 7S 9C\nBen holds 7C AS KH 8S 9D\nAna plays 7S\nAna says carte', False, False, [
        'Ben gives 7C to Ana: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays KH: CP-MUST-DRAW',
        'Ben draws 3: CP-DRAW-COUNT',
    ], id='sevens-owed-a-seven-held'),
    pytest.param('[Variants "3-de-trefle"]\n[Starter "4C"]\nAna holds 5C 9H 3H\nBen holds 3C 8D\nAna plays 5C', False, False, [
        'Ana gives 9H to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 3C for S: CP-ACE-ANNOUNCE',
        'Ben plays 8D: CP-NO-MATCH',
        'Ben draws 2: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 1: CP-DRAW-WITH-PLAYABLE',
    ], id='three-of-clubs-kept'),
    pytest.param('[Starter "4S"]\nAna holds 5S 9S 3H\nBen holds KH 8D\nAna plays 5S', False, False, [
        'Ana gives 9S to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 8D: CP-NO-MATCH',
        'Ana plays 9S: CP-OUT-OF-TURN',
        'Ben draws 2: CP-DRAW-COUNT',
        'Ben plays 9S: CP-NOT-IN-HAND',
    ], id='a-card-seen-in-another-hand'),
    pytest.param('[Players "Ana Ben"]\n[Variants "maitresse"]\n[Starter "5C"]\nAna plays QC QS QD QH\nAna plays 9H 9C\nAna says carte\nBen plays 9D\nAna plays 7D', True, False, [
        'Ben gives ?? to Ana: CP-SANCTION-WRONG',
        'Ana passes: CP-PASS',
        'Ana plays 7D: CP-MAITRESSE',
        'Ana draws 2: CP-DRAW-COUNT',
    ], id='taken-back-hidden'),
    pytest.param('[Variants "3-de-trefle"]\n[Starter "4C"]\nAna holds 5C 9C 3H\nBen holds 8D\nCas holds 3C 6C\nAna plays 5C', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 8D: CP-NO-MATCH',
        'Ana plays 9C: CP-OUT-OF-TURN',
        'Ben draws 2: CP-DRAW-COUNT',
    ], id='three-of-clubs-in-another-hand'),
    pytest.param('[Players "Ana Ben"]\n[Variants "3-de-trefle"]\n[Starter "5H"]\nAna plays QH QS QD QC\nAna plays 8C 8S\nAna says carte\nBen plays 8H\nAna draws 1\nBen plays 9H', True, False, [
        'Ana gives ?? to Ben: CP-SANCTION-WRONG',
        'Ana passes: CP-PASS',
        'Ana draws 2: CP-DRAW-COUNT',
    ], id='three-of-clubs-after-a-pass'),
    pytest.param('[Starter "4C"]\nAna holds QC 9H\nBen holds 5C 8D\nAna plays QC', False, False, [
        'Ben gives 5C to Ana: CP-SANCTION-WRONG',
        'Ben says contre: CP-MISSED-CARTE',
    ], id='replay-and-carte-owed'),
    pytest.param('[Starter "4C"]\nAna holds QC 9C 3H\nBen holds AH 5C 8D\nAna plays QC', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben plays 5C: CP-NO-REPLAY',
    ], id='replay-owed-an-ace-first'),
    pytest.param('[Starter "4C"]\nAna holds QC 9C 3H\nBen holds 8D 9H\nAna plays QC', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
    ], id='replay-owed-nothing-fits'),
    pytest.param('[Starter "4S"]\nAna holds 7S 9C\nBen holds KH 8S 9D AS\nAna plays 7S', False, False, [
        'Ben gives KH to Ana: CP-SANCTION-WRONG',
        'Ben says contre: CP-MISSED-CARTE',
    ], id='sevens-owed-carte-missed'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds 7D 8D\nAna plays 5H\nCas gives 7D to Ben', False, False, [
        'Ben gives 7D to Ana: CP-SANCTION-WRONG',
        'Ben plays 5S: CP-MISSED-CARTE CP-MISSED-CARTE',
        'Ben says contre: CP-MISSED-CARTE',
    ], id='two-cartes-due'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5S 9C 8D\nBen holds 6H 7C 8S\nCas holds 5H 9D\nAna plays 5S\nBen plays 8S\nCas plays 5H\nAna says contre', False, False, [
        'Cas gives 9D to Ana: CP-SANCTION-WRONG',
    ], id='gift-owed-by-the-player-due'),
    pytest.param('[Starter "4C"]\nAna holds QC\nBen holds 9C 8D\nAna plays QC', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
        'Ben passes: CP-MISSED-PLOUC REC-AFTER-END',
    ], id='plouc-after-a-dame'),
    pytest.param('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4C"]\nAna holds QC\nBen holds 9C 8D\nAna plays QC', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
        'Ben plays 9C: CP-MISSED-PLOUC',
    ], id='plouc-after-a-dame-play-on'),
    pytest.param('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4C"]\nAna holds 7C\nBen holds 7D 8D\nAna plays 7C', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
        'Ben plays 7D: CP-MISSED-PLOUC',
    ], id='plouc-on-a-seven-play-on'),
    pytest.param('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4C"]\nAna holds 5C\nBen holds 9C 8C\nAna plays 5C', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
        'Ben plays 9C: CP-MISSED-PLOUC',
    ], id='plouc-play-on-two-cards-fit'),
    pytest.param('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Variants "zero"]\n[Starter "4C"]\nAna holds 2C\nBen holds 9C 8D\nAna plays 2C\nBen slaps', False, False, [
        'Ben says contre: CP-MISSED-PLOUC',
    ], id='plouc-on-a-two-slapped'),
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Starter "4S"]\n[Stock "?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? 5D 6D"]\nBen holds 8S KH 9D\nAna draws 35', False, False, [
        'Ana gives ?? to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 8S for H: CP-ACE-ANNOUNCE',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 9D: CP-NO-MATCH',
        'Ben draws 5D 6D: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 5D: CP-DRAW-WITH-PLAYABLE',
        'Ben draws 6D: CP-STOCK-MISMATCH CP-DRAW-WITH-PLAYABLE',
    ], id='two-cards-left-in-the-stock'),
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Starter "4S"]\n[Stock "?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? 6D"]\nBen holds 8S KH 9D\nAna draws 36', False, False, [
        'Ana gives ?? to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 8S for H: CP-ACE-ANNOUNCE',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 9D: CP-NO-MATCH',
        'Ben draws 6D: CP-DRAW-WITH-PLAYABLE',
    ], id='one-card-left-in-the-stock'),
    pytest.param('[Players "Ana Ben"]\n[Starter "4S"]\n[Stock "?? 6D"]\nAna holds 5S 9C 3H\nBen holds 8S KH 9D\nAna plays 5S', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 8S for H: CP-ACE-ANNOUNCE',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 9D: CP-NO-MATCH',
        'Ben draws 2: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 1: CP-DRAW-WITH-PLAYABLE',
    ], id='the-top-card-nobody-saw-the-next-known'),
    pytest.param('[Players "Ana Ben"]\n[Starter "4S"]\n[Stock "5D"]\nAna holds 5S 9C 3H\nBen holds 8S KH 9D\nAna plays 5S', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 8S for H: CP-ACE-ANNOUNCE',
        'Ben plays KH: CP-NO-MATCH',
        'Ben plays 9D: CP-NO-MATCH',
        'Ben draws 2: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 5D: CP-DRAW-WITH-PLAYABLE',
        'Ben plays 5D: CP-NOT-IN-HAND',
    ], id='the-top-card-known-alone'),
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Starter "4S"]\n[Stock "?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? 5D 6D"]\nAna holds 7S 9C 3H\nBen holds 8S KH 9D\nAna draws 35\nBen plays 8S\nAna plays 7S', False, False, [
        'Ana gives 9C to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays KH: CP-MUST-DRAW',
        'Ben draws 5D: CP-DRAW-COUNT',
    ], id='sevens-owed-as-many-as-the-stock-holds'),
    pytest.param('[Players "Ana Ben Cas"]\n[Sanction "zouzou"]\n[Reshuffle "no"]\n[Starter "4S"]\n[Stock "?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? 6D"]\nBen holds 5S 9C\nAna draws 29\nBen plays 5S\nCas says contre', False, False, [
        'Ana draws 6D: CP-SANCTION-WRONG',
        'Ana gives ?? to Ben: CP-SANCTION-WRONG',
    ], id='a-draw-owed-as-many-as-the-stock-holds'),
    pytest.param('[Players "Ana Ben"]\n[Starter "4H"]\nAna draws 37\nBen plays 5H\nAna plays 6H\nBen plays 8H', False, False, [
        'Ana gives ?? to Ben: CP-SANCTION-WRONG',
        'Ana passes: CP-PASS',
        'Ana draws 4H 5H: CP-DRAW-COUNT',
    ], id='the-discard-shuffled-in'),
    pytest.param('[Players "Ana Ben"]\n[Starter "4H"]\nBen holds 5H 8H 9C KH\nAna draws 37\nBen plays 5H\nAna plays 6H\nBen plays 8H\nAna draws 4H', False, False, [
        'Ana gives 4H to Ben: CP-SANCTION-WRONG',
        'Ben passes: CP-PASS',
        'Ben plays 9C: CP-NO-MATCH',
        'Ben plays KH for S: CP-ACE-ANNOUNCE',
        'Ana plays 4H: CP-OUT-OF-TURN',
        'Ben draws 5H 6H: CP-DRAW-COUNT CP-DRAW-WITH-PLAYABLE',
        'Ben draws 5H: CP-DRAW-WITH-PLAYABLE',
        'Ben plays 4H: CP-NOT-IN-HAND',
    ], id='a-card-shuffled-back-in'),
    pytest.param('[Players "Ana Ben"]\n[Variants "maitresse"]\n[Starter "5C"]\nAna holds QC QS QD QH 9H 9C 7D\nBen holds 9D 8D 4D 4C 3S 3C 2S\nAna plays QC QS QD QH\nAna plays 9H 9C\nAna says carte\nBen plays 9D\nAna plays 7D\nBen plays 8D\nAna draws 1\nBen plays 4D', True, False, [
        'Ana gives 7D to Ben: CP-SANCTION-WRONG',
        'Ana passes: CP-PASS',
        'Ana plays 7D for S: CP-ACE-ANNOUNCE',
        'Ben plays 4C: CP-OUT-OF-TURN',
    ], id='a-forbidden-last-card-taken-back-then-playable'),
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Variants "3-de-trefle"]\n[Starter "5H"]\nAna plays QH QS QD QC\nAna plays 8C 8S\nAna says carte\nBen draws 37\nAna passes\nBen plays 9S', True, False, [
        'Ben gives ?? to Ana: CP-SANCTION-WRONG',
    ], id='three-of-clubs-after-a-pass-for-want-of-a-stock'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5S 9C 8D 9H\nBen holds 6H 7C 8S\nCas holds 5H 9D\nAna plays 5S\nBen plays 8S\nCas plays 5H\nAna says contre', False, False, [
        'Cas gives 9D to Ana: CP-SANCTION-WRONG',
        'Ana gives 9C 8D to Cas: CP-SANCTION-WRONG',
        'Ana plays 9H: CP-SANCTION-UNPAID',
    ], id='gift-owed-by-the-player-due-who-can-play'),
    pytest.param('[Starter "4C"]\nAna holds 5C 9D 8H\nBen holds 6C\nAna plays 5C\nBen plays 6C', False, False, [
        'Ana says contre: CP-MISSED-PLOUC',
        'Cas passes: CP-MISSED-PLOUC REC-AFTER-END',
    ], id='plouc-missed-by-the-second-player'),
])
def test_the_mistakes_offered_in_each_kind_of_position(text, hidden, calls, expected):
    """What ``simulate --mistakes`` may write at a position: slaps, calls, accusations, gros
    mots and swaps out of place (one set per player; a player who is out only slaps); the
    sanctions drawn or given wrong; a card that does not fit, an ace announcing no suit or
    the suit in play, a card played instead of the cards owed, a wrong draw or pass, a card
    seen elsewhere, a card out of turn, going out on a forbidden card (held or not); play
    going on over a replay, a swap or a « carte » owed; no « plouc » after the last card.
    A table that sees no hand (``hidden``) is offered none that only the hands or the stock
    would show."""
    assert offered_mistakes(text, hidden, calls) == expected


def offered_moves(text: str) -> list[str]:
    """Each event ``legal()`` offers after ``text`` (every order of a group), once checked to
    add no violation when written after it."""
    text = (HEAD if "[Players" not in text else '[Game "carte-et-plouc"]\n') + text + "\n"
    line = text.count("\n") + 1
    found = sorted({line_text(e) for e in legal_events(rules_after(text).legal())})
    for move in found:
        assert not [c for n, c in codes(check(parse_text(text + move + "\n")[0])) if n == line], move
    return found


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param('[Starter "4C"]\nAna holds 5C\nBen holds 9C 8D\nCas holds 9D 6C\nAna plays 5C', [
        'Ana says plouc',
    ], id='plouc-ends'),
    pytest.param('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4C"]\nAna holds 5C\nBen holds 9C 8D\nCas holds 9D 6C\nDan holds 7H\nAna plays 5C', [
        'Ana accuses Dan',
        'Ana says plouc',
        'Ben accuses Dan',
        'Cas accuses Dan',
        'Dan says carte',
    ], id='plouc-play-on'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5S 9C 8D\nBen holds 6H 7C 8S\nCas holds 5H 9D\nAna plays 5S\nBen plays 8S\nCas plays 5H\nAna says contre', [
        'Ana gives 8D to Cas',
        'Ana gives 9C to Cas',
    ], id='gift-owed-by-the-player-due'),
    pytest.param('[Sanction "zouzou"]\n[Starter "4H"]\nAna holds 5S 9C 8D\nBen holds 6H 7C 8S\nCas holds 5H 9D\nAna plays 5S\nBen plays 8S\nCas plays 5H\nAna says contre', [
        'Ana draws 1',
        'Cas draws 1',
    ], id='draw-owed-by-the-player-due'),
    pytest.param('[Variants "zero"]\n[Starter "5H"]\nAna holds 2H 9C\nBen holds 2S 6D 8C\nCas holds 5C 5D 4S\nAna plays 2H\nBen slaps', [
        'Ana says carte',
        'Ana slaps',
        'Ben slaps',
        'Ben swaps with Ana',
        'Ben swaps with Cas',
        'Cas slaps',
    ], id='zero-slapped'),
    pytest.param('[Starter "4H"]\nAna holds 5H 9C\nBen holds 6H 7C 8S\nCas holds 5C 9D\nAna plays 5H\nBen plays 6H', [
        'Ana says carte',
        'Ben accuses Ana',
        'Ben says contre',
        'Cas accuses Ana',
        'Cas draws 1',
        'Cas says contre',
    ], id='carte-missed'),
    pytest.param('[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds KH 8S 8D AS AH 4H\nCas holds 5C 9D\nAna plays 5S', [
        'Ben plays 8S',
        'Ben plays 8S 8D',
        'Ben plays AS AH for C',
        'Ben plays AS AH for D',
        'Ben plays AS AH for H',
        'Ben plays AS for C',
        'Ben plays AS for D',
        'Ben plays AS for H',
    ], id='aces-and-groups'),
    pytest.param('[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds AS\nCas holds 5C 9D\nAna plays 5S\nBen says carte', [
        'Ana accuses Ben',
        'Ben plays AS',
        'Ben plays AS for C',
        'Ben plays AS for D',
        'Ben plays AS for H',
        'Ben plays AS for S',
        'Cas accuses Ben',
    ], id='last-card-an-ace'),
    pytest.param('[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds KH 9D\nCas holds 5C 9H\nAna plays 5S', [
        'Ben draws 1',
    ], id='nothing-fits'),
    pytest.param('[Variants "zero"]\n[Starter "5H"]\nAna holds 2H 9C\nBen holds 2S 6D 8C\nCas holds 5C 5D 4S\nAna plays 2H', [
        'Ana says carte',
        'Ana slaps',
        'Ben slaps',
        'Cas slaps',
    ], id='zero-open'),
    pytest.param('[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds 8S 8D\nCas holds 5C 9H\nAna plays 5S', [
        'Ben plays 8S',
        'Ben plays 8S 8D',
    ], id='a-pair-goes-out'),
    pytest.param('Ana holds 5S 9C 3H AS AH', [
        'Ana plays 3H',
        'Ana plays 5S',
        'Ana plays 9C',
        'Ana plays AH AS for C',
        'Ana plays AH AS for D',
        'Ana plays AH AS for S',
        'Ana plays AH for C',
        'Ana plays AH for D',
        'Ana plays AH for S',
        'Ana plays AS AH for C',
        'Ana plays AS AH for D',
        'Ana plays AS AH for H',
        'Ana plays AS for C',
        'Ana plays AS for D',
        'Ana plays AS for H',
    ], id='an-ace-on-no-suit'),
    pytest.param('[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5H 9C\nAna plays 5H\nBen says contre', [
        'Ben gives ?? to Ana',
    ], id='a-gift-from-a-hand-nobody-saw'),
    pytest.param('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds AS\nAna plays 5S\nBen says carte', [
        'Ana accuses Ben',
        'Ben plays AS for C',
        'Ben plays AS for D',
        'Ben plays AS for H',
        'Cas accuses Ben',
        'Dan accuses Ben',
    ], id='an-ace-before-the-last-player-goes-out'),
    pytest.param('[Starter "4C"]\nAna holds 5C\nAna plays 5C\nAna says plouc', [
    ], id='game-over'),
    pytest.param('[Variants "zero"]\n[Starter "2H"]\nAna holds 5S 9C 3H\nBen holds 2S 6D 8C\nCas holds 5C 5D 4S', [
        'Ana plays 3H',
    ], id='a-two-turned-up'),
    pytest.param('[Starter "4S"]\nAna holds 5S 9C 3H\nBen holds AS AH\nAna plays 5S', [
        'Ben plays AS AH',
        'Ben plays AS AH for C',
        'Ben plays AS AH for D',
        'Ben plays AS AH for H',
        'Ben plays AS AH for S',
        'Ben plays AS for C',
        'Ben plays AS for D',
        'Ben plays AS for H',
    ], id='a-pair-of-aces-goes-out'),
])
def test_the_moves_offered_in_each_kind_of_position(text, expected):
    """What ``legal()`` offers: the « plouc » alone when it ends the game, with what may come
    outside the turn when play goes on; what the player due owes (a draw, a gift) before
    the turn; the slaps on a 2 (le zéro) and the swaps of the first to slap; « contre » on a
    « carte » missed, and accusations; a card that fits, a group, an ace with each suit it
    may announce (no suit only when going out ends the game); a draw when nothing fits."""
    assert offered_moves(text) == expected


def test_a_draw_written_without_a_count_is_one_card_to_a_table_that_sees_no_hand():
    (event,) = parse_text(HEAD + "Ana draws\n")[0].events
    public = CarteEtPlouc.public(event)
    assert public is not None and public.cards == (UNSEEN_CARD,) and line_text(public) == "Ana draws 1"


def test_a_player_left_with_one_card_nobody_saw_is_offered_no_group():
    """Ana, down to one card nobody saw, may lay any card that fits, alone: no choice of
    cards laid together."""
    rules = rules_after('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "5H"]\n'
                        "Ana plays QH QS QD QC\nAna plays 8C 8S\nAna says carte\nBen plays 8H\n")
    assert not [g for g in rules.legal() if isinstance(g, Group)]  # (the table page would show it as a choice)
    assert {line_text(e) for e in legal_events(rules.legal())} >= {"Ana plays 9H", "Ana plays 8D"}


# --- The rules' own tables (rules.py) ------------------------------------------------------------

@pytest.mark.parametrize(("players", "error"), [
    (1, "Carte et Plouc de Charlotte is for 2 to 9 players, not 1"), (2, None), (9, None),
    (10, "Carte et Plouc de Charlotte is for 2 to 9 players, not 10"),
])
def test_two_to_nine_players(check_text, players, error):
    names = " ".join(f"P{k}" for k in range(players))
    report = check_text(f'[Game "carte-et-plouc"]\n[Players "{names}"]\n[Starter "4H"]\n')
    assert (report.error.message if report.error else None) == error


@pytest.mark.parametrize(("draws", "lines"), [(5, "4, 6, 8, 10 and 12"), (6, "4, 6, 8, 10, 12 and later")])
def test_the_note_on_draws_nobody_could_verify_names_five_lines_then_says_and_later(check_text, draws, lines):
    report = check_text('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n' + "Ana draws\nBen draws\n" * draws)
    assert str(report.notes[0]) == (f"Ana drew or passed instead of playing on lines {lines} while holding cards nobody saw:"
                                    " whether Ana could play was not verified")


@pytest.mark.parametrize(("lines", "code", "message", "rule"), [
    ("Ana plays KS\nBen plays 7S\nCas draws 2", "CP-DRAW-COUNT",
     "Cas drew 2 cards, but 7 cards were owed (the Roi de pique, 5; 7S, 2)", "Le roi de Pique"),
    ("Ana plays KS\nBen draws 2", "CP-DRAW-COUNT", "Ben drew 2 cards, but 5 cards were owed (the Roi de pique, 5)", "Le roi de Pique"),
    ("Ana plays KS\nBen plays 8S", "CP-MUST-DRAW", "Ben played 8S while owing 5 cards: draw them, or lay the 7 of spades",
     "Le roi de Pique"),
    ("Ana plays 7S 7H 7D 7C\nAna plays 5C\nBen draws 2", "CP-DRAW-COUNT",
     "Ben drew 2 cards, but 8 cards were owed (the carré of 7s, 8)", "La carte de valeur 7"),
    ("Ana plays 7S\nBen draws 1", "CP-DRAW-COUNT", "Ben drew 1 card, but 2 cards were owed (7S, 2)", "La carte de valeur 7"),
])
def test_cards_owed_drawn_wrong_say_where_they_come_from_and_quote_the_card_that_made_them(lines, code, message, rule):
    """The Roi de pique (answered by the 7 of spades or not), a carré of 7s, a 7."""
    [violation] = violations_of(HEAD + '[Starter "4S"]\n' + lines + "\n")
    assert (violation.code, violation.message) == (code, message) and violation.rule.startswith(rule)


@pytest.mark.parametrize(("variants", "specials"), [("maitresse", "A, 7, 10, Q and KS"), ("maitresse zero six", "A, 7, 10, Q, KS, 2 and 6")])
def test_la_maitresse_names_the_special_cards_of_the_rules_in_play(variants, specials):
    """Le zéro makes the 2 special, le 6 the 6."""
    text = ('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n' f'[Variants "{variants}"]\n[Starter "5C"]\n'
            "Ana plays QC QS QD QH\nAna plays 9H 9C\nAna says carte\nBen plays 9D\nAna plays 7D\n")
    [violation] = violations_of(text)
    assert f"(la maîtresse: {specials})" in violation.message


def test_a_card_dealt_twice_in_one_hand_is_flagged_at_its_second_place():
    report = check(parse_text(HEAD + '[Starter "4H"]\nAna holds 5H 9C 9C 3D KS 4C JD\n')[0])
    assert [(v.code, v.line, v.column, v.message) for v in report.violations] == [
        ("REC-DUPLICATE-CARD", 4, 17, "9C appears twice: it is already in Ana's cards")]


def test_a_draw_written_without_a_count_is_one_card():
    text = HEAD + '[Starter "4H"]\nAna draws\n'
    assert not check(parse_text(text)[0]).violations
    assert rules_after(text).cards.count(0) == 8


def test_aces_laid_first_without_the_card_turned_up_may_announce_any_suit_but_the_first_ace_s():
    assert not violations_of(HEAD + "Ana plays AH AS for S\n")


def test_a_carre_is_four_cards_of_one_value_on_top_of_the_discard():
    """9H, 5H, 9C (out of place), 9S: three 9s of the four on top, no carré: Ben plays next."""
    found = violations_of(HEAD + '[Starter "4H"]\nAna plays 9H\nBen plays 5H\nCas plays 9C\nAna plays 9S\nBen plays 9D\n')
    assert [v.code for v in found] == ["CP-NO-MATCH"]


def test_each_2_laid_opens_a_slap_of_its_own():
    """Le zéro: Ben slapped Ana's 2 and swapped; Cas is first to slap Ben's 2, and swaps."""
    assert not violations_of(HEAD + '[Variants "zero"]\n[Starter "4H"]\nAna plays 2H\nBen slaps\nBen swaps with Cas\n'
                                    "Ben plays 2C\nCas slaps\nCas swaps with Ana\n")


def test_a_swap_missed_is_flagged_once_and_a_carte_missed_can_be_caught():
    found = violations_of(HEAD + '[Variants "zero"]\n[Starter "4H"]\nAna plays 2H\nBen slaps\nBen plays 5H\nCas plays 5C\nAna plays 5D\n')
    assert [v.code for v in found] == ["CP-SWAP-MISSING"]
    found = violations_of(HEAD + '[Starter "4H"]\nAna holds 5H 9C\nAna plays 5H\nBen plays 5C\nCas says contre\n')
    assert [v.code for v in found] == ["REC-BAD-DEAL", "CP-MISSED-CARTE"]  # Cas's « contre » catches it


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Starter "4H"]\n'
                 "Ana draws 37\nBen plays 5H\nAna passes\nBen plays 6H\nAna passes\nBen plays 8H\n",
                 [(5, "CP-DRAW-COUNT", "Ana drew 37 cards, but a player who cannot play draws one card")],
                 id="a-play-ends-a-run-of-passes"),  # no stock: passes count towards a blocked game only in a row
    pytest.param('[Players "Ana Ben"]\n[Variants "maitresse"]\n[Starter "8D"]\nAna holds 8C 8S 7D\nAna plays 8C 8S 7D\nAna draws\n', [
        (5, "REC-BAD-DEAL", "Ana is dealt 3 cards; the deal gives 7"),
        (6, "CP-OUT-OF-TURN", "Ana laid 7D after 8S out of turn: it is Ben's turn, the next to the left after Ana"),
        (6, "CP-NO-MATCH", "Ana played 7D on 8S: neither its suit nor its value"),
        (6, "CP-MAITRESSE", "Ana laid 7D as their last card, but a plouc may not end on a special card (la maîtresse: A, 7, 10, Q"
                            " and KS): the card goes back to Ana's hand; holding only it, Ana cannot play, and draws"),
    ], id="a-forbidden-last-card-after-a-group-goes-back-and-the-turn-stays"),
    pytest.param('[Players "Ana Ben Cas"]\n[Starter "4H"]\nAna holds 5H\nAna plays 5H 9C\n', [
        (4, "REC-BAD-DEAL", "Ana is dealt 1 card; the deal gives 7"), (5, "CP-NOT-IN-HAND", "Ana played 9C, but has no cards left"),
    ], id="a-card-after-the-last"),
    pytest.param('[Players "Ana Ben Cas"]\n[Starter "4H"]\nAna plays 5H 6H\nBen plays 6C\n', [
        (4, "CP-OUT-OF-TURN", "Ana laid 6H after 5H out of turn: it is Ben's turn, the next to the left after Ana"),
    ], id="a-second-value-is-laid-out-of-turn-and-play-goes-on-from-it"),
    pytest.param('[Players "Ana Ben Cas"]\n[Starter "4H"]\nAna plays AH 8H for S\n', [
        (4, "CP-ACE-ANNOUNCE", "Ana announced a suit without laying an ace last"),
        (4, "CP-OUT-OF-TURN", "Ana laid 8H after AH out of turn: it is Ben's turn, the next to the left after Ana"),
    ], id="a-suit-announced-after-a-card-that-is-not-an-ace"),
])
def test_what_a_line_of_several_values_or_a_run_of_passes_leads_to(text, expected):
    found = violations_of('[Game "carte-et-plouc"]\n' + text)
    assert [(v.line, v.code, v.message) for v in found] == expected


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("Ana plays T5\nBen plays 9S\n", [(3, "REC-NOT-IN-DECK")], id="the-first-card-of-the-game"),
    pytest.param('[Starter "4H"]\nAna plays 5H\nCas plays T5\nBen plays 9H\nCas plays 9C\n', [(5, "REC-NOT-IN-DECK")],
                 id="out-of-turn-it-stays-in-the-hand"),
    pytest.param('[Starter "4H"]\nAna plays 7H\nBen plays T5\nCas plays 9S\n', [(5, "REC-NOT-IN-DECK")], id="cards-owed-lapse"),
])
def test_a_card_outside_the_deck_let_stand(text, expected):
    """The next player plays on: the card leaves the hand for the discard (when laid in turn),
    as no card of the game, and what was owed lapses."""
    text = HEAD + text
    assert [(v.line, v.code) for v in violations_of(text)] == expected
    rules = rules_after(text)
    assert sum(rules.cards.count(s) for s in range(3)) == 21 - rules.played
    if "Starter" not in text:
        assert [str(n) for n in rules.notes] == ["the card turned up to start is not in the record ([Starter]): the first card played could not be checked against it"]
    if "Cas plays T5" in text:
        assert rules.cards.count(2) == 6  # the card out of turn did not leave Cas's hand; 9C did
    if "Ben plays T5" in text:
        assert rules.cards.discard[-2] == UNSEEN_CARD and rules.cards.count(1) == 6 and rules.stats()["cards_played"] == 3


@pytest.mark.parametrize(("held", "code", "message"), [
    ("5H ??", "CP-MISSED-CARTE", "Ana came down to one card (their play on line 5) and did not say « carte »"),
    ("??", "CP-MISSED-PLOUC", "Ana laid their last card, T5, on line 5, and did not say « plouc »"),
])
def test_a_card_outside_the_deck_let_stand_that_leaves_one_card_or_none(held, code, message):
    found = violations_of(HEAD + f'[Starter "4H"]\nAna holds {held}\nAna plays T5\nBen plays 9S\n')
    assert [v.message for v in found if v.code == code] == [message]


def test_a_group_ending_on_a_forbidden_last_card_stays_laid_but_that_card():
    """La maîtresse: Ana lays 7D 7H, her last cards; 7H goes back to her hand (flagged once),
    7D stays laid: Ben owes 2 cards, and « carte » is Ana's to say."""
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Variants "maitresse"]\n[Starter "5D"]\nAna holds 7D 7H\nAna plays 7D 7H\n'
    found = violations_of(text)
    assert [(v.line, v.code) for v in found] == [(5, "REC-BAD-DEAL"), (6, "CP-MAITRESSE")]
    assert found[1].column == 14 and found[1].message.startswith("Ana laid 7H as their last card")
    rules = rules_after(text)
    assert rules.cards.known[0] == [read_card("7H")] and rules.cards.discard[-1] == read_card("7D")
    assert [str(t) for t in rules.todo()] == ["Ana says « carte »", "Ben draws 2 cards, or adds a 7"]
    assert rules.stats()["cards_played"] == 1


def test_a_carre_of_aces_announces_the_suit_of_the_card_laid_after_it():
    assert not violations_of(HEAD + '[Starter "4H"]\nAna plays AH AS AD AC 9D\nBen plays 5D\n')


def test_going_out_on_aces_leaves_the_last_ace_s_suit_on_the_table():
    rules = rules_after('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\nAna holds AH AS\nAna plays AH AS\n')
    assert rules.table().extra["suit"] == "spade"


MEGA_ONE_CAS_OWES = '[Sanction "mega-one"]\n[Starter "4H"]\nAna holds 5H 9C\nCas holds 5D 8D 9D\nAna plays 5H\nCas says contre\n'
"""Cas caught Ana's missed « carte » (la Méga One): Cas owes Ana a card."""
ZOUZOU_ANA_OWES = '[Sanction "zouzou"]\n[Starter "4H"]\nAna holds 5H 9C\nAna plays 5H\nCas says contre\n'
"""Cas caught Ana's missed « carte » (la Zouzou): Ana owes a draw."""


@pytest.mark.parametrize(("lines", "expected", "todo"), [
    pytest.param(MEGA_ONE_CAS_OWES + "Ben plays 5C\nCas plays 5D\n",
                 [(10, "CP-SANCTION-UNPAID", "Cas was to give a card to Ana before their own next play or pass, and did not: the sanction lapses")],
                 ["Ana plays a diamond or a 5, or draws"], id="a-gift-not-given-lapses-once"),
    pytest.param(MEGA_ONE_CAS_OWES + "Ana draws\n",
                 [(9, "CP-SANCTION-WRONG", "Ana drew, but la Méga One asks one card from Cas to Ana: it is still owed")],
                 ["Cas gives a card to Ana (la Méga One)", "Ben plays a heart or a 5, or draws"], id="a-draw-while-a-gift-is-owed"),
    pytest.param(ZOUZOU_ANA_OWES + "Cas draws\n", [(8, "CP-SANCTION-WRONG", "Cas drew, but the sanction is Ana's: it is still owed")],
                 ["Ana draws 1 card (sanction)", "Ben plays a heart or a 5, or draws"], id="a-draw-by-another-player"),
    pytest.param(ZOUZOU_ANA_OWES + "Ben draws\nAna draws\n", [], ["Cas plays a heart or a 5, or draws"],
                 id="the-turn-s-draw-then-the-sanction-s"),
    pytest.param(ZOUZOU_ANA_OWES + "Ben draws\nCas draws\nAna draws 2\n",  # her turn's draw, of the wrong count: the sanction waits
                 [(10, "CP-DRAW-COUNT", "Ana drew 2 cards, but a player who cannot play draws one card")],
                 ["Ana draws 1 card (sanction)", "Ben plays a heart or a 5, or draws"], id="the-offender-s-own-turn-draw"),
    pytest.param(ZOUZOU_ANA_OWES + "Ben plays 5C\nCas plays 5D\nAna passes\n", [
        (10, "CP-SANCTION-UNPAID", "Ana was to draw 1 card from the stock before their own next play or pass, and did not: the sanction lapses"),
        (10, "CP-PASS", "Ana passed, but the stock still holds cards: a player who cannot play draws one"),
    ], ["Ben plays a diamond or a 5, or draws"], id="a-pass-with-a-sanction-owed"),
])
def test_sanctions_paid_or_not(lines, expected, todo):
    """(Each record also has its deal's REC-BAD-DEAL and Ana's CP-MISSED-CARTE.)"""
    found = violations_of(HEAD + lines)
    assert [(v.line, v.code, v.message) for v in found if v.code not in ("REC-BAD-DEAL", "CP-MISSED-CARTE")] == expected
    assert [str(t) for t in rules_after(HEAD + lines).todo()] == todo


@pytest.mark.parametrize(("lines", "expected", "todo"), [
    pytest.param("[Starter \"4H\"]\nAna plays 5H\nCas passes\n", [
        (5, "CP-OUT-OF-TURN", "Cas passed out of turn: it is Ben's turn, the next to the left after Ana"),
        (5, "CP-PASS", "Cas passed, but the stock still holds cards: a player who cannot play draws one")],
        ["Ana plays a heart or a 5, or draws"], id="out-of-turn"),
    pytest.param("[Starter \"4S\"]\nAna plays 7S\nBen passes\nCas plays 9S\n", [(5, "CP-PASS", "Ben passed, but cards are owed: draw them")],
                 ["Ana plays a spade or a 9, or draws"], id="cards-owed-lapse"),
    pytest.param("[Starter \"4S\"]\nAna plays QS\nAna passes\nAna plays 9S\n", [
        (5, "CP-PASS", "Ana passed, but the stock still holds cards: a player who cannot play draws one"),
        (6, "CP-OUT-OF-TURN", "Ana played 9S out of turn: it is Ben's turn, the next to the left after Ana")],
        ["Ben plays a spade or a 9, or draws"], id="a-replay-owed"),
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Starter "4H"]\nBen holds 5H 8H 6C\nAna draws 37\nBen plays 5H\nAna plays 6H\nBen passes\n', [
        (5, "REC-BAD-DEAL", "Ben is dealt 3 cards; the deal gives 7"),
        (6, "CP-DRAW-COUNT", "Ana drew 37 cards, but a player who cannot play draws one card"),
        (9, "CP-DRAW-WITH-PLAYABLE", "Ben passed while holding 8H, which could be played")],
        ["Ana plays a heart or a 6, or passes (nothing is left to draw)"], id="no-stock-but-a-card-to-play"),
    pytest.param('[Players "Ana Ben"]\n[Reshuffle "no"]\n[Starter "4H"]\nAna draws 37\nBen plays 5H\nAna passes\nBen draws\nAna passes\nBen plays 8H\n', [
        (5, "CP-DRAW-COUNT", "Ana drew 37 cards, but a player who cannot play draws one card"),
        (8, "CP-DRAW-COUNT", "Ben drew 1 card, but nothing is left to draw: a player who cannot play passes")],
        ["Ana plays a heart or an 8, or passes (nothing is left to draw)"], id="a-draw-ends-a-run-of-passes"),
])
def test_passes(lines, expected, todo):
    """A pass out of turn, or with cards to draw (what was owed lapses, a replay does not
    keep the turn), or with no stock while a card fits; a run of passes for want of a
    stock is broken by any other line (nine in a row block the game: openings.txt)."""
    text = (HEAD if "[Players" not in lines else '[Game "carte-et-plouc"]\n') + lines
    assert [(v.line, v.code, v.message) for v in violations_of(text)] == expected
    assert [str(t) for t in rules_after(text).todo()] == todo


@pytest.mark.parametrize(("lines", "todo"), [
    ('[Variants "zero"]\n[Starter "4H"]\nAna plays 2H\n', ["the first to slap the 2 swaps hands (le zéro)", "Ben plays a heart or a 2, or draws"]),
    ('[Variants "zero"]\n[Starter "4H"]\nAna plays 2H\nBen slaps\n',
     ["Ben swaps hands with another player (le zéro)", "Ben plays a heart or a 2, or draws"]),
    ('[Starter "4H"]\nAna plays AH for S\n', ["Ben plays a spade, or draws"]),
    ('[Starter "4H"]\nAna plays ??\nBen plays ??\n', ["Cas plays, or draws"]),
    ('[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4C"]\nAna holds 5C\nAna plays 5C\n',
     ["Ana says « plouc »", "Ben plays a club or a 5, or draws"]),
    ('[Starter "4C"]\nAna holds 5C\nAna plays 5C\n', ["Ana says « plouc »"]),
])
def test_what_is_to_do(lines, todo):
    """The slap and the swap of le zéro; a suit announced; any card after one nobody saw;
    the « plouc » due, and the turn too when play goes on after it."""
    text = (HEAD if "[Players" not in lines else '[Game "carte-et-plouc"]\n') + lines
    assert [str(t) for t in rules_after(text).todo()] == todo


def test_a_card_nobody_saw_is_noted_once():
    report = check(parse_text(HEAD + '[Starter "4H"]\nAna plays ??\nBen plays ??\n')[0])
    assert [str(n) for n in report.notes] == [
        "Ana played a card nobody saw (??) on line 4: it and the card played after it could not be checked"]


def test_a_result_written_before_the_plouc_leaves_nothing_to_do():
    report = check(parse_text(HEAD + '[Starter "4C"]\n[Result "Ana"]\nAna holds 5C\nAna plays 5C\n')[0])
    assert [str(n) for n in report.notes] == ["Ana's « plouc » is not in the record: it could not be checked"]
    assert report.todo == []


@pytest.mark.parametrize(("variants", "shown"), [("", "-"), ('[Variants "zero six"]\n', "six zero")])
def test_the_table_shows_the_variants_in_play(variants, shown):
    assert rules_after(HEAD + variants).table().extra["variants"] == shown


@pytest.mark.parametrize(("ben", "flagged"), [("7H 9C\nAna plays 5H\nBen draws", ["CP-DRAW-WITH-PLAYABLE"]),  # 7H may be laid, not last
                                              ("7H\nAna plays 5H\nBen says carte\nBen draws", []),  # 7H may not end the plouc
                                              ("KS 9C\nAna plays 5H\nBen draws", [])])  # nothing fits: nothing to note
def test_a_draw_from_a_known_hand_is_wrong_only_with_a_card_that_may_be_laid(ben, flagged):
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Variants "maitresse"]\n[Starter "4H"]\nAna holds 5H 8C\nBen holds ' + ben + "\n"
    report = check(parse_text(text)[0])
    assert [v.code for v in report.violations if v.code not in ("REC-BAD-DEAL", "CP-MISSED-CARTE")] == flagged
    assert report.notes == []


def test_a_draw_proved_wrong_takes_its_note_away_and_the_other_notes_keep_their_lines():
    """Ana's draw on line 4 is proved wrong by 4S (it fitted 4H then): her note goes; Ben's,
    after it, names both his draws."""
    report = check(parse_text(HEAD + '[Starter "4H"]\nAna draws 9C\nBen draws\nCas plays 4C\nAna plays 4S\nBen draws\n')[0])
    assert [(v.line, v.code) for v in report.violations] == [(7, "CP-DRAW-WITH-PLAYABLE")]
    assert [str(n) for n in report.notes] == ["Ben drew or passed instead of playing on lines 5 and 8 while holding cards nobody saw:"
                                              " whether Ben could play was not verified"]


@pytest.mark.parametrize(("proof", "more"), [("", "and 2 more notes of the same kinds"), ("Ana plays 4S\n", "and 1 more note of the same kinds")])
def test_a_draw_proved_wrong_whose_note_was_only_counted_is_no_longer_counted(proof, more):
    """Fifty notes kept (a header repeated), then Ana's and Ben's unverified draws, counted;
    Ana's, proved wrong, leaves the count."""
    text = HEAD + '[Site "Paris"]\n' * 51 + '[Starter "4H"]\nAna draws 9C\nBen draws\nCas plays 4C\n' + proof
    report = check(parse_text(text)[0])
    assert len(report.notes) == 51 and str(report.notes[-1]) == more


def test_a_note_of_many_draws_still_names_five_once_one_is_proved_wrong():
    """Seven draws by Ana; the first (line 4) proved wrong by 4S: the note names the next five."""
    draws = "".join(f"Ana draws {card}\nBen draws\n" for card in "9C 8C 6C 5C 3C 2C JC".split())
    report = check(parse_text('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n' + draws + "Ana plays 4S\n")[0])
    assert [(v.line, v.code) for v in report.violations] == [(18, "CP-DRAW-WITH-PLAYABLE")]
    assert str(report.notes[0]).startswith("Ana drew or passed instead of playing on lines 6, 8, 10, 12, 14 and later ")


@pytest.mark.parametrize(("lines", "rule"), [(MEGA_ONE_CAS_OWES + "Ana draws\n", "La Méga One"), (ZOUZOU_ANA_OWES + "Cas draws\n", "La Zouzou")])
def test_a_sanction_drawn_by_the_wrong_player_quotes_the_sanction_owed(lines, rule):
    [violation] = [v for v in violations_of(HEAD + lines) if v.code == "CP-SANCTION-WRONG"]
    assert violation.rule.startswith(rule)


def test_a_card_outside_the_deck_let_stand_as_the_first_card_begins_the_game():
    """A deal written after it is late, as after any card played."""
    found = violations_of(HEAD + '[Starter "4H"]\nAna plays T5\nBen holds 5C 6C 7C 8C 9C 10C JC\n')
    assert [(v.line, v.code) for v in found] == [(4, "REC-NOT-IN-DECK"), (5, "REC-LATE-DEAL")]


def test_a_group_ending_on_a_forbidden_last_card_is_flagged_once_for_what_its_other_cards_did():
    """7D does not fit 5C: CP-NO-MATCH once, though 7D is laid again without 7H."""
    found = violations_of('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Variants "maitresse"]\n[Starter "5C"]\n'
                          "Ana holds 7D 7H\nAna plays 7D 7H\n")
    assert [(v.line, v.code) for v in found] == [(5, "REC-BAD-DEAL"), (6, "CP-NO-MATCH"), (6, "CP-MAITRESSE")]


def test_a_draw_while_two_gifts_are_owed_names_the_first():
    """Two « contre » that cross (CROSSED_GIFTS): Charlotte's gift to David was owed first."""
    found = [v for v in violations_of(CROSSED_GIFTS + "David draws\n") if v.line == 14]
    assert [(v.code, v.message) for v in found] == [
        ("CP-SANCTION-WRONG", "David drew, but la Méga One asks one card from Charlotte to David: it is still owed")]


def test_a_result_written_before_the_plouc_while_play_goes_on_leaves_the_turn_to_do():
    """[PlayOn]: Ana's « plouc » not written could not be checked; play goes on without her."""
    from referee.state import state_in_text

    state = state_in_text('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas Dan"]\n[PlayOn "yes"]\n[Starter "4C"]\n[Result "Ana"]\n'
                          "Ana holds 5C\nAna plays 5C\n")
    assert state.todo == ["Ben plays a club or a 5, or draws"]


def test_a_wrong_draw_is_flagged_once_and_a_note_comes_back_with_a_later_draw():
    """Ana's draw on line 4 is proved wrong by 4S; her draw on line 10 is noted again, after
    Ben's and Cas's notes (which keep their lines)."""
    report = check(parse_text(HEAD + '[Starter "4H"]\nAna draws 9C\nBen draws\nCas draws\nAna plays 4S\nBen draws\nCas draws\n'
                                     "Ana draws\n")[0])
    assert [(v.line, v.code) for v in report.violations] == [(7, "CP-DRAW-WITH-PLAYABLE")]
    assert [str(n).split(" while")[0] for n in report.notes] == [
        "Ben drew or passed instead of playing on lines 5 and 8", "Cas drew or passed instead of playing on lines 6 and 9",
        "Ana drew or passed instead of playing on line 10"]


def test_a_draw_proved_wrong_once_is_not_proved_wrong_again():
    """9H fitted 4H at Ana's draw too, but that draw was flagged already (4S)."""
    found = violations_of(HEAD + '[Starter "4H"]\nAna draws 9C\nBen draws\nCas plays 4C\nAna plays 4S\nBen plays 9S\nCas plays 9D\nAna plays 9H\n')
    assert [(v.line, v.code) for v in found] == [(7, "CP-DRAW-WITH-PLAYABLE")]


def test_a_draw_of_two_cards_both_seen_is_proved_wrong_later():
    """Ana draws 9C and the next card, 6D, known in the stock: no card nobody saw came in, so
    4S, fitting 4H then, proves that draw wrong."""
    found = violations_of(HEAD + '[Starter "4H"]\n[Stock "?? 6D"]\nAna draws 9C ??\nBen draws\nCas plays 4C\nAna plays 4S\n')
    assert [(v.line, v.code) for v in found] == [(5, "CP-DRAW-COUNT"), (8, "CP-DRAW-WITH-PLAYABLE")]
