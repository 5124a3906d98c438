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


# --- Drinks in words ---------------------------------------------------------------------------

def test_a_drink_says_its_amount_in_its_unit_and_its_cause_in_the_record_s_letters() -> None:
    """Whole amounts as whole numbers (2.0 gorgées is 2), halves as they are, the central
    glass in thirds (or whole), in the language in use (worded once, then remembered by
    language: the French words after the English ones are French)."""
    from referee.games.base import amount_said, amount_text
    from referee.messages import use

    shown = [(2, "sips"), (2.0, "sips"), (1.5, "half"), (1 / 3, "central"), (2 / 3, "central"), (1.0, "central"),
             (1, "up"), (3, "glass")]
    assert [amount_text(a, u) for a, u in shown] == [
        "2 gorgées", "2 gorgées", "1.5 half glasses", "1/3 of the central glass", "2/3 of the central glass",
        "the whole central glass", "1 glass drunk to the bottom", "3 full glasses"]
    assert [amount_said(a, u).words() for a, u in shown] == [amount_text(a, u) for a, u in shown]
    assert amount_said(2.0, "sips").fields == {"count": 2} and type(amount_said(2.0, "sips").fields["count"]) is int
    assert amount_said(1.5, "half").fields == {"count": 1.5} and amount_said(1.0, "central").key == "unit.central-full"
    use("fr", explicit=True)
    assert [amount_text(a, u) for a, u in shown[3:6]] == ["1/3 du verre au centre", "2/3 du verre au centre",
                                                         "tout le verre au centre"]
    use("en", explicit=True)
    drink = Drink("Ann", 2, "sips", Said("report.winner", {"player": "Ann"}), 9)
    assert (drink.text(), drink.cause_words(), Drink("Ann", 1, "up", "7H played by Ben", 3).cause_words()) == (
        "2 gorgées", "winner: Ann", "7H played by Ben")


def test_a_drink_s_cause_names_its_cards_in_the_notation_asked_for() -> None:
    from referee.messages import listed

    drink = Drink("Ann", 2, "sips", Said("report.order", {"players": listed([read_card("QS")])}), 9)
    assert (drink.cause_words(), drink.cause_words("fr")) == ("finishing order: QS", "finishing order: DP")


# --- Notes ---------------------------------------------------------------------------------------

def test_a_game_keeps_its_first_notes_counts_the_others_and_rewrites_a_kept_one_in_place() -> None:
    from referee.games.base import NOTES_KEPT, Notes

    notes = Notes(["first"])
    for n in range(NOTES_KEPT + 5):
        notes.append(f"note {n}")
    assert (len(notes), notes.more, notes[-1]) == (NOTES_KEPT, 6, f"note {NOTES_KEPT - 2}")
    notes[1] = "rewritten"
    notes[NOTES_KEPT] = "counted, not kept"  # past the kept ones: nothing to rewrite
    notes[NOTES_KEPT + 3] = "counted, not kept"
    notes[2:4] = ["a", "b"]
    assert notes[:5] == ["first", "rewritten", "a", "b", "note 3"] and len(notes) == NOTES_KEPT


# --- What a game inherits ----------------------------------------------------------------------

def _toy():
    """A made-up game meeting the contract with nothing of its own but its metadata."""
    from referee.games.base import Result, Rules

    class Toy(Rules):
        name, title, min_players, max_players = "toy", "Toy", 2, 4
        deck = frozenset(cards("7H 8H 9H 10H 7S 8S"))
        verbs = frozenset({"plays", "holds"})
        finished = False

        def result(self) -> Result:
            return Result(self.finished)

        def legal(self) -> list:
            return [Event("Ann", "plays", 0, 0, cards("7H"), "7H")]

    return Toy


def _setup(cls, headers: str):
    from referee.notation import parse_text

    (record,) = parse_text(headers + "\n")
    return cls.setup_from(record)


def test_a_game_inherits_a_deal_a_tally_of_its_drinks_and_answers_that_say_nothing_of_its_own() -> None:
    """The defaults of the contract: the whole deck dealt one card at a time from the first
    player; drinks added up by player and unit; a deal line left out of a record that
    shows no hand; over when the result says so; the simulator's choices are the legal
    moves; and no table, mistakes, statistics, drinks, explanation, chart or card face."""
    from referee.games.base import Drink, Table

    toy = _toy()
    setup = _setup(toy, '[Game "toy"]\n[Players "Ann Ben Cas"]\n[Dealer "Ann"]')
    assert setup.first == 1
    deal = toy.deal(list(cards("7H 8H 9H 10H 7S 8S")), setup)
    assert [" ".join(map(str, hand)) for hand in deal.hands] == ["9H 8S", "7H 10H", "8H 7S"]  # Ben first
    assert (deal.shown, deal.hidden) == ([], [])
    rules = toy(setup)
    assert rules.in_play == toy.deck and rules.seat("Cas") == 2 and rules.players == ("Ann", "Ben", "Cas")
    assert not rules.over() and rules.choices() == rules.legal()
    rules.finished = True
    assert rules.over(Event("Ann", "plays", 9, 1, cards("7H"), "7H"))
    holds, plays = Event("Ann", "holds", 3, 1, cards("7H 8H"), "7H 8H"), Event("Ann", "plays", 4, 1, cards("7H"), "7H")
    assert toy.public(holds) is None and toy.public(plays) is plays
    assert repr(rules.table()) == repr(Table()) and rules.table().scores == {} and rules.table().owed == []
    assert (rules.mistakes(), rules.stats(), rules.drinks(), rules.score_why("Ann"), rules.drunk(), rules.drunk_rounds()) == (
        [], {}, [], "", {}, {})
    assert (rules.ruling(plays), rules.chart_point(), toy.numbered_face(7), rules.lay_stray(plays, 0), rules.play_out()) == (
        None, None, None, None, None)
    assert rules.tallies() == {}
    rules.drinks = lambda: [Drink("Ann", 2, "sips", "", 4), Drink("Ben", 1, "up", "", 5), Drink("Ann", 3, "sips", "", 6),
                            Drink("Ann", 1 / 3, "central", "", 7)]
    assert rules.tallies() == {"Ann": {"sips": 5, "central": 1 / 3}, "Ben": {"up": 1}}


def test_a_copy_of_the_rules_keeps_every_attribute_compiled_or_not() -> None:
    """``__getstate__``: the attributes of the instance, and those a compiled class names
    in ``__mypyc_attrs__`` (not ``__dict__`` itself, nor one never set)."""
    toy = _toy()
    rules = toy(_setup(toy, '[Game "toy"]\n[Players "Ann Ben"]'))
    rules.extra = 3
    toy.__mypyc_attrs__ = ("players", "__dict__", "never_set")
    state = rules.__getstate__()
    assert state["players"] == ("Ann", "Ben") and state["extra"] == 3
    assert "__dict__" not in state and "never_set" not in state
    again = copy.deepcopy(rules)
    assert again.extra == 3 and again.players == ("Ann", "Ben") and again.seats == {"Ann": 0, "Ben": 1}


# --- The setup the headers give --------------------------------------------------------------

def _optioned():
    """The made-up game with options: one played only with another chosen beforehand,
    and a tag of its own that is no option."""
    toy = _toy()

    class Optioned(toy):
        options = (Option("Penalty", ("none", "burn-3"), "none", "the penalty"),
                   Option("Slaps", ("pair", "sandwich"), frozenset({"pair"}), "slaps", many=True,
                          needs=(("sandwich", "Penalty", ("burn-3",)),)))
        extra_tags = ("Stock",)

    return Optioned


def _refused(cls, headers: str) -> tuple[int, str]:
    from referee.games.base import SetupError

    with pytest.raises(SetupError) as refused:
        _setup(cls, headers)
    header = refused.value.header
    return (header.line if header is not None else 0), str(refused.value)


def test_a_game_without_players_is_told_at_its_players_header_or_its_first() -> None:
    toy = _toy()
    assert _refused(toy, '[Game "toy"]\n[Event "x"]') == (1, 'this game has no [Players "..."] header: name the players in seating order')
    assert _refused(toy, '[Game "toy"]\n[Players " "]')[0] == 2


def test_the_players_are_named_once_each_between_the_game_s_bounds_and_the_seats_name_players() -> None:
    toy = _toy()
    assert _refused(toy, '[Game "toy"]\n[Players "Ann Ben Ann"]') == (2, "Ann is named twice in [Players]")
    assert _refused(toy, '[Game "toy"]\n[Players "Ann"]') == (2, "Toy is for 2 to 4 players, not 1")
    assert _refused(toy, '[Game "toy"]\n[Players "A B C D E"]')[1] == "Toy is for 2 to 4 players, not 5"
    assert _refused(toy, '[Game "toy"]\n[Players "Ann Ben"]\n[Dealer "Cas"]') == (3, '[Dealer "Cas"] names nobody in [Players]')
    assert _setup(toy, '[Game "toy"]\n[Players "Ann Ben Cas"]\n[Dealer "Cas"]').first == 0  # the player after the dealer
    assert _setup(toy, '[Game "toy"]\n[Players "Ann Ben Cas"]\n[First "Cas"]').first == 2
    assert _setup(toy, '[Game "toy"]\n[Players "Ann, Ben"]').players == ("Ann", "Ben")


def test_a_target_or_a_number_of_hands_is_a_whole_number_from_one() -> None:
    toy = _toy()
    for tag in ("Target", "Hands"):
        assert _setup(toy, f'[Game "toy"]\n[Players "Ann Ben"]\n[{tag} "1"]').players == ("Ann", "Ben")
        for value in ("0", "-2", "x", ""):
            line, message = _refused(toy, f'[Game "toy"]\n[Players "Ann Ben"]\n[{tag} "{value}"]')
            assert line == 3 and message.startswith(f'[{tag} "{value}"]: expected a whole number from 1'), message


def test_an_option_played_with_another_chosen_beforehand_is_refused_without_it_at_that_one_s_header() -> None:
    """[Slaps "sandwich"] needs [Penalty "burn-3"]: refused at [Penalty] when it is written
    otherwise, at [Slaps] when it is not written; options not written take their default."""
    game = _optioned()
    needs = '[Slaps "sandwich"] is played with [Penalty] chosen beforehand: burn-3'
    assert _refused(game, '[Game "toy"]\n[Players "Ann Ben"]\n[Slaps "sandwich"]') == (3, needs)
    assert _refused(game, '[Game "toy"]\n[Players "Ann Ben"]\n[Penalty "none"]\n[Slaps "pair sandwich"]') == (3, needs)
    setup = _setup(game, '[Game "toy"]\n[Players "Ann Ben"]\n[Slaps "sandwich"]\n[Penalty "burn-3"]')
    assert setup.options == {"Penalty": "burn-3", "Slaps": frozenset({"sandwich"})}
    assert _setup(game, '[Game "toy"]\n[Players "Ann Ben"]').options == {"Penalty": "none", "Slaps": frozenset({"pair"})}
    assert _refused(game, '[Game "toy"]\n[Players "Ann Ben"]\n[Penalty "two"]') == (
        3, '[Penalty "two"]: Toy accepts one of none or burn-3')


def test_a_tag_given_twice_is_an_error_where_it_is_read_else_a_note_and_a_tag_close_to_one_is_named() -> None:
    """Every tag referee reads (Game to Hands, the options) given twice with two values is
    refused at the second; given twice alike, or a tag only kept, a note. A tag close to
    one the game only keeps ([Dates]) is a note, once; close to one it reads (an option,
    its own tag), a violation the engine flags (``misspelled_tags``)."""
    from referee.games.base import misspelled_tags
    from referee.notation import parse_text

    game = _optioned()
    assert _refused(game, '[Game "toy"]\n[Players "Ann Ben"]\n[Hands "2"]\n[Hands "3"]') == (
        4, "[Hands] is given twice, as '2' (line 3) and as '3': say which holds")
    setup = _setup(game, '[Game "toy"]\n[Players "Ann Ben"]\n[Date "1"]\n[Date "2"]\n[Hands "2"]\n[Hands "2"]\n'
                         '[Dates "x"]\n[Dates "x"]')
    assert [note.words() for note in setup.notes] == [
        "[Date] on line 4 is given again; the first one holds",
        "[Hands] on line 6 repeats an earlier header with the same value",
        "[Dates] on line 7 is not a header referee reads: did you mean [Date]?",
        "[Dates] on line 8 repeats an earlier header with the same value"]
    (record,) = parse_text('[Game "toy"]\n[Players "Ann Ben"]\n[Dates "x"]\n[Stok "7H"]\n[Penalties "none"]\n[Zebra "z"]\n')
    assert [(h.tag, known) for h, known in misspelled_tags(record, game)] == [("Stok", "Stock"), ("Penalties", "Penalty")]
    assert [note.words() for note in game.setup_from(record).notes] == [
        "[Dates] on line 3 is not a header referee reads: did you mean [Date]?"]


def test_a_name_that_is_a_verb_of_the_record_s_notation_is_refused_in_every_hand_of_a_french_match() -> None:
    """A French match's later hand, French by its match alone (no [Notation] of its own),
    refuses a French verb as a player's name, as its first hand does."""
    from referee.engine import check_games
    from referee.notation import read_games
    import io

    text = ('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Alice Bob"]\n[Partie "M"]\n\nAlice joue 2P\n\n'
            '[Partie "M"]\n[Joueurs "Alice Tape"]\n\nAlice joue 2P\n')
    reports = [r for _, r in check_games(read_games("<r>", io.BytesIO(text.encode())))]
    assert reports[1].status == "error" and reports[1].error.message == "'Tape' is an action word and cannot be a player's name"
