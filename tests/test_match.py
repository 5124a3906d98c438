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
