"""The contract every game follows (referee/games/base.py): the values a game hands on,
the choice of a group of cards, the options and setup read from the headers, the notes,
the drinks' words and the defaults a game inherits. The games' own rulings are tested
by their records; this file tests what they share."""

from __future__ import annotations

import copy
import pickle

import pytest

from referee.cards import read_card
from referee.games.base import Drink, Group, Mistake, Option, Violation
from referee.messages import Said
from referee.record import Event


def cards(text: str) -> tuple:
    return tuple(read_card(word) for word in text.split())


# --- The values a game hands on ------------------------------------------------------------

def test_the_values_a_game_hands_on_copy_and_pickle_whole() -> None:
    """The rules' copies (the editor's forks) and the workers' reports pickle violations,
    mistakes, groups, options and drinks: every field comes back."""
    violation = Violation("BC-FALSE-SLAP", Said("BC-FALSE-SLAP", {"player": "Ann"}), "« rule »", "Ann", 4, 7, True, "fr")
    event = Event("Ann", "plays", 0, 0, cards("7H"), "7H")
    mistake = Mistake(event, ("TR-OUT-OF-TURN", "TR-REVOKE"), follow_on=True)
    group = Group("Ann", read_card("7H"), cards("7S 7D"), 3, cards("7H 7S"), 1, ("H", None), ("S",), cards("7D"))
    option = Option("Slaps", ("pair", "sandwich"), frozenset({"pair"}), "what may be slapped", many=True,
                    aliases=(("sandwiches", "sandwich"),), number=None, needs=(("sandwich", "Penalty", ("burn-3",)),))
    drink = Drink("Ann", 2, "sips", "7H played by Ben", 9, 2)
    fields = {Violation: ("code", "said", "rule", "player", "line", "column", "accepted", "notation"),
              Mistake: ("event", "codes", "follow_on"),
              Group: ("player", "first", "more", "hand", "known", "unseen", "suits", "out_suits", "not_last"),
              Option: ("tag", "choices", "default", "help", "many", "aliases", "number", "needs"),
              Drink: ("player", "amount", "unit", "cause", "line", "round")}
    for value in (violation, mistake, group, option, drink):
        names = fields[type(value)]
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert type(again) is type(value)
            assert [repr(getattr(again, n)) for n in names] == [repr(getattr(value, n)) for n in names]
    assert (violation.player, violation.accepted, violation.notation) == ("Ann", True, "fr")
    assert (violation.key, violation.fields) == ("BC-FALSE-SLAP", {"player": "Ann"})
    assert (mistake.follow_on, Mistake(event, ("TR-REVOKE",)).follow_on) == (True, False)
    assert group.verb == "plays" and (drink.round, Drink("Ann", 1, "sips", "", 3).round) == (2, None)


def test_mistakes_are_equal_by_their_event_codes_and_follow_on_and_shown_by_them() -> None:
    event = Event("Ann", "plays", 0, 0, cards("7H"), "7H")
    mistake = Mistake(event, ("TR-OUT-OF-TURN",))
    assert mistake == Mistake(Event("Ann", "plays", 0, 0, cards("7H"), "7H"), ("TR-OUT-OF-TURN",))
    assert mistake != Mistake(event, ("TR-REVOKE",)) and mistake != Mistake(event, ("TR-OUT-OF-TURN",), True)
    assert mistake != ("Ann", "plays") and mistake.__eq__(event) is NotImplemented
    assert repr(mistake).startswith("Mistake(event=") and "codes=('TR-OUT-OF-TURN',)" in repr(mistake)
    assert "follow_on=False" in repr(mistake)


# --- A group of cards, chosen card by card ---------------------------------------------------

def test_a_group_allows_its_first_card_then_others_of_more_each_once_up_to_the_hand() -> None:
    """Carte et Plouc's plays of several cards of one value: the first card fits, the
    others come from ``more``, each once, in any order; no more cards than the hand holds,
    nor more cards nobody saw than it holds unseen; a play that goes out may not end on a
    card of ``not_last`` and announces from ``out_suits``."""
    group = Group("Ann", read_card("7H"), cards("7S 7D 7C"), 3, cards("7H 7S 7D 7C"), 0, ("S", None), ("D",), cards("7C"))
    assert group.allows(cards("7H"), "S") and group.allows(cards("7H"), None) and not group.allows(cards("7H"), "D")
    assert group.allows(cards("7H 7D"), None) and group.allows(cards("7H 7C"), "S")  # 7C ends no play that stays
    assert not group.allows(cards("7S 7H"), None) and not group.allows((), None)  # the first must come first
    assert not group.allows(cards("7H 7S 7S"), "D") and not group.allows(cards("7H 8S"), None)
    assert not group.allows(cards("7H 7H"), None)  # the first card is not among the others
    assert group.allows(cards("7H 7S 7D"), "D") and not group.allows(cards("7H 7S 7D"), "S")  # out: out_suits
    assert not group.allows(cards("7H 7S 7C"), "D")  # out on le 3 de trèfle's like: not_last
    assert not group.allows(cards("7H 7S 7D 7C"), None)  # four cards from a hand of three
    spelled = [(" ".join(map(str, e.cards)), e.suit) for e in group.lines()]
    assert len(spelled) == len(set(spelled)) == 2 + 3 * 2 + 4 * 1 and ("7H 7D 7S", "D") in spelled
    assert all(e.player == "Ann" and e.verb == "plays" and e.cards_text == " ".join(map(str, e.cards)) for e in group.lines())


def test_a_group_lays_no_more_cards_nobody_saw_than_the_hand_holds_unseen() -> None:
    """Where the hand holds cards nobody saw (``unseen``), a card of ``more`` not known in
    it may be among them: a play lays at most ``unseen`` such cards. By default none."""
    known = Group("Ann", read_card("7H"), cards("7S 7D"), 5, cards("7H"), 1)
    assert known.allows(cards("7H 7S"), None) and known.allows(cards("7H 7D"), None)
    assert not known.allows(cards("7H 7S 7D"), None)
    assert not Group("Ann", read_card("7H"), (), 5).allows(cards("7H"), None)  # nothing known, none unseen
    assert Group("Ann", read_card("7H"), (), 5, cards("7H")).allows(cards("7H"), None)
    assert [e.suit for e in Group("Ann", read_card("7H"), (), 5, cards("7H")).lines()] == [None]  # suits: (None,)
    assert Group("Ann", read_card("7H"), (), 1, cards("7H")).allows(cards("7H"), None)  # out_suits: (None,)


# --- Options read from the headers -----------------------------------------------------------

def test_an_option_reads_its_choices_their_aliases_and_french_words_whatever_the_case_and_accents() -> None:
    one = Option("Scoring", ("first-out", "play-on", "penalties"), "first-out", "how a hand ends",
                 aliases=(("prolonged", "play-on"),))
    assert [one.read(v) for v in ("play-on", " Play_On ", "prolonged", "jeu-prolongé", "Jeu prolongé")] == ["play-on"] * 5
    assert one.read("Points-de-pénalité") == "penalties"
    many = Option("Slaps", ("pair", "sandwich", "none"), frozenset({"pair"}), "slaps", many=True)
    assert many.read("paire, sandwich") == frozenset({"pair", "sandwich"}) and many.read("aucune") == frozenset({"none"})
    assert many.read("Sandwich  pair") == frozenset({"pair", "sandwich"}) and many.read("aucun") == frozenset({"none"})
    with pytest.raises(ValueError) as refused:
        many.read("pair frog, toad")
    assert refused.value.args == ("frog",)  # the first word it does not know
    with pytest.raises(ValueError) as refused:
        many.read(" , ")
    assert refused.value.args == (" , ",)  # no word at all: the value as written
    with pytest.raises(ValueError):
        one.read("first-out play-on")  # one choice only


def test_a_number_option_reads_a_whole_number_in_its_range() -> None:
    cards = Option("Cards", ("2", "4", "6"), lambda players: 6 if players < 5 else 4, "cards dealt", number=(1, 26))
    assert [cards.read(v) for v in ("1", " 26 ", "3")] == [1, 26, 3]
    for value in ("0", "27", "-3", "two", "2.5", "", "٣"):
        with pytest.raises(ValueError):
            cards.read(value)
    assert (cards.default_for(4), cards.default_for(5)) == (6, 4) and Option("A", ("x",), "x", "").default_for(3) == "x"
    assert cards.accepted() == "a whole number from 1 to 26"


def test_an_option_says_what_it_accepts_and_whether_a_value_chose_a_choice() -> None:
    one = Option("Penalty", ("burn-3", "give-1"), "burn-3", "the penalty")
    many = Option("Slaps", ("pair", "sandwich"), frozenset({"pair"}), "slaps", many=True)
    assert one.accepted() == "one of burn-3 or give-1" and many.accepted() == "any of pair or sandwich"
    assert one.chose("give-1", "give-1") and not one.chose("burn-3", "give-1")
    assert many.chose(frozenset({"pair", "sandwich"}), "sandwich") and not many.chose(frozenset({"pair"}), "sandwich")
    assert not one.chose(frozenset({"give-1"}), "give-1")  # one choice is a word, never a set
