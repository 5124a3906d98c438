"""The match machinery (referee/match.py): what a hand inherits from the hand before, the
standing after each hand, and the faults of a match (its records are under records/, in
each game's match*.txt)."""

from __future__ import annotations

from referee.engine import check_games
from referee.match import Matches, describe, follow_match
from referee.notation import parse_text

HAND = """[Game "bataille-corse"]
[Players "Alice Bob"]
[Dealer "Bob"]
[Match "m"]

Alice holds 2S
Bob holds AS 3H
Alice plays 2S
Bob plays AS
Bob collects
"""
"""A short hand Bob wins (its deal too short: a violation, but the hand counts)."""


def standings(text: str, matches: Matches | None = None) -> list[str]:
    return [describe(report.match) if report.match else "" for _, report in check_games(parse_text(text), matches=matches)]


def test_a_copy_of_the_matches_follows_on_without_changing_them():
    matches = Matches()
    assert standings(HAND, matches) == ["match 'm' after hand 1: Alice 0 and Bob 1 (hands won)"]
    twin = matches.copy()
    later = '[Match "m"]\n\nBob plays 3H\n'  # unfinished: nothing more counted
    assert standings(later, twin) == ["match 'm' after hand 2: Alice 0 and Bob 1 (hands won)"]
    assert standings(later, matches) == ["match 'm' after hand 2: Alice 0 and Bob 1 (hands won)"]  # not hand 3


def test_the_standing_in_the_json_report():
    from referee.reports.report import to_json

    text = HAND.replace('[Match "m"]', '[Match "m"]\n[Target "3"]\n[Hands "5"]')
    ((_, report),) = check_games(parse_text(text))
    assert to_json(report)["match"] == {"name": "m", "hand": 1, "totals": {"Alice": 0, "Bob": 1}, "counts": "wins",
                                        "over": False, "winners": [], "target": 3, "hands": 5}


def test_the_game_and_notation_of_a_match_are_followed_for_its_later_hands():
    games: dict[str, str] = {}
    french: dict[str, bool] = {}
    first, second, alone = parse_text(HAND + '\n[Match "m"]\n\nBob plays 3H\n\n[Game "bataille-corse"]\n'
                                      '[Players "Alice Bob"]\n\nAlice plays 2S\n')
    follow_match(alone, games, french)  # no match: nothing to follow
    assert (games, french) == ({}, {})
    follow_match(first, games, french)
    follow_match(second, games, french)  # names no game: its match's
    assert (games, french) == ({"m": "bataille-corse"}, {"m": False})


def test_a_match_whose_hands_name_no_dealer_goes_on():
    text = HAND.replace('[Dealer "Bob"]\n', "")
    assert standings(text + "\n" + text) == ["match 'm' after hand 1: Alice 0 and Bob 1 (hands won)",
                                             "match 'm' after hand 2: Alice 0 and Bob 2 (hands won)"]


def test_a_hand_outside_a_match_or_that_cannot_be_read_has_no_standing():
    assert standings(HAND.replace('[Match "m"]\n', "")) == [""]
    unreadable = '[Game "bataille-corse"]\n[Players "Alice"]\n[Match "m"]\n\nAlice plays 2S\n'  # one player: a setup error
    assert standings(unreadable + "\n" + HAND) == ["", "match 'm' after hand 1: Alice 0 and Bob 1 (hands won)"]


def test_a_match_ends_when_a_total_reaches_its_target():
    text = HAND.replace('[Match "m"]', '[Match "m"]\n[Target "1"]')
    assert standings(text) == ["match 'm' won by Bob after hand 1: Alice 0 and Bob 1 (hands won)"]


def test_a_hand_after_the_end_is_flagged_at_its_first_header():
    text = HAND.replace('[Match "m"]', '[Match "m"]\n[Target "1"]') + '\n  [Match "m"]\n\nBob plays 3H\n'
    ((_, _), (_, late)) = check_games(parse_text(text))
    assert [(v.line, v.column) for v in late.violations if v.code == "REC-AFTER-MATCH"] == [(13, 3)]  # not column 1


def test_the_faults_of_a_match_written_in_french_are_told_in_french_notation():
    from .conftest import RECORDS

    text = (RECORDS / "bataille-corse" / "fr-match-hands.txt").read_text(encoding="utf-8")
    faults = {v.code: v for _, report in check_games(parse_text(text)) for v in report.violations}
    assert faults["REC-ROUND-ORDER"].notation == "fr" and faults["REC-ROUND-ORDER"].message.startswith('[Manche "3"]')
    assert {faults[c].notation for c in ("REC-DEALER-ROTATION", "REC-AFTER-MATCH", "REC-TOTALS-MISMATCH")} == {"fr"}


def test_each_hand_may_say_its_round_and_a_wrong_one_is_told_the_right_one():
    first = HAND.replace('[Match "m"]', '[Match "m"]\n[Round "1"]').replace('[Dealer "Bob"]\n', "")
    right = first + "\n" + first.replace('[Round "1"]', '[Round "2"]')
    assert [v.code for _, report in check_games(parse_text(right)) for v in report.violations] == ["BC-CARD-COUNT"] * 2
    wrong = first + "\n" + first.replace('[Round "1"]', '[Round "3"]')
    (message,) = [v.message for _, report in check_games(parse_text(wrong)) for v in report.violations
                  if v.code == "REC-ROUND-ORDER"]
    assert message == "[Round \"3\"]: this is hand 2 of match 'm'"


def test_a_dealer_or_first_player_out_of_turn_is_told_who_it_should_be():
    dealt = HAND + "\n" + HAND  # Bob deals twice: Alice, after him, should
    assert [v.message for _, report in check_games(parse_text(dealt)) for v in report.violations
            if v.code == "REC-DEALER-ROTATION"] == ["Bob deals, but the deal passes to the left: after Bob, Alice deals"]
    led = HAND.replace("Dealer", "First")  # Bob leads twice
    assert [v.message for _, report in check_games(parse_text(led + "\n" + led)) for v in report.violations
            if v.code == "REC-DEALER-ROTATION"] == ["Bob plays first, but the deal passes to the left: after Bob, Alice plays first"]


def test_totals_are_checked_to_the_last_player_and_an_unpaired_word_is_a_mismatch():
    def mismatches(totals: str) -> list[tuple[str, str | None]]:
        """The match's faults: each with the player whose total is wrong (the first)."""
        text = HAND.replace('[Match "m"]', f'[Match "m"]\n[Totals "{totals}"]')
        return [(v.code, v.player) for _, report in check_games(parse_text(text)) for v in report.violations
                if v.code.startswith("REC-")]

    assert mismatches("Alice 0, Bob 1") == []
    assert mismatches("Alice 0, Bob 2") == [("REC-TOTALS-MISMATCH", "Bob")]
    assert mismatches("Alice 1, Bob 2") == [("REC-TOTALS-MISMATCH", "Alice")]
    assert mismatches("Alice 0, Bob") == [("REC-TOTALS-MISMATCH", None)]


def test_a_hand_with_other_players_does_not_inherit_a_dealer_who_is_not_one_of_them():
    other = '\n[Players "Carl Dan"]\n[Match "m"]\n\nCarl plays 2S\n'  # no Dealer: Alice (after Bob) plays no more
    ((_, _), (_, report)) = check_games(parse_text(HAND + other))
    assert report.status != "error", report.error
    assert describe(report.match) == "match 'm' after hand 2: Alice 0 and Bob 1 (hands won)"
    stays = '\n[Players "Alice Bob Carl"]\n[Match "m"]\n\nBob plays 2S\n'  # Alice is still in: she deals
    ((_, _), (record, report)) = check_games(parse_text(HAND + stays))
    assert record.tag("Dealer") == "Alice" and report.status != "error"
