"""Pierre qui Roule, rule by rule (the records under records/pierre-qui-roule/ hold the
rest): the deck by player count, aces high, the pick-up, the end of the hand."""

from __future__ import annotations

import pytest

from referee.cards import read_card
from referee.games.pierre_qui_roule import PierreQuiRoule, deck_for, high
from referee.notation import parse_text

HEAD = '[Game "pierre-qui-roule"]\n[Players "{players}"]\n'


def head(players: str = "Ann Ben Cas Dom", **options: str) -> str:
    return HEAD.format(players=players) + "".join(f'[{k} "{v}"]\n' for k, v in options.items())


def codes(report) -> list[tuple[int, str]]:
    return [(v.line, v.code) for v in report.violations]


@pytest.mark.parametrize(("players", "size", "lowest"), [(4, 32, 7), (5, 40, 5), (6, 48, 3)])
def test_the_short_deck_keeps_eight_cards_a_player(players, size, lowest):
    deck = deck_for(players, "short")
    assert len(deck) == size == 8 * players
    assert min(c.rank for c in deck if c.rank > 1) == lowest and read_card("AS") in deck


def test_the_full_deck_is_the_52_cards():
    assert len(deck_for(4, "full")) == len(deck_for(6, "full")) == 52


def test_aces_are_high():
    assert high(read_card("AH")) > high(read_card("KH")) > high(read_card("2H"))


@pytest.mark.parametrize(("value", "read"), [("52", "full"), ("jeu allégé", "short"), ("Jeu prolongé", "play-on"),
                                             ("points de pénalité", "penalties"), ("premier sorti", "first-out")])
def test_option_spellings(value, read):
    option = next(o for o in PierreQuiRoule.options if read in o.choices)
    assert option.read(value) == read


def test_a_match_counts_penalty_points_by_default():
    (alone,) = parse_text(head())
    (hand,) = parse_text(head(Match="Friday"))
    (chosen,) = parse_text(head(Match="Friday", Scoring="play-on"))
    assert [PierreQuiRoule.setup_from(r).options["Scoring"] for r in (alone, hand, chosen)] == \
        ["first-out", "penalties", "play-on"]


def test_the_deal_is_eight_cards_each_from_the_games_deck():
    (record,) = parse_text(head("Ann Ben Cas Dom Eve Fay", Deck="full"))
    setup = PierreQuiRoule.setup_from(record)
    deal = PierreQuiRoule.deal(sorted(PierreQuiRoule.deck), setup)
    assert [len(h) for h in deal.hands] == [8] * 6
    assert len({c for h in deal.hands for c in h}) == 48


def test_who_cannot_follow_can_only_pick_up(check_text):
    deal = "Ann holds 7H 8H 9H 10S JS QS KD AD\nDom holds KS 7C 8C 9C JC QC KC AC\n"
    from referee.engine import replay, start

    (record,) = parse_text(head() + deal + "Ann plays 9H\n")
    rules = replay(start(record), record)
    rules.seating.out.update({1, 2})  # Ben and Cas aside: Dom is due, with no heart
    assert [(e.player, e.verb) for e in rules.legal()] == [("Dom", "collects")]
    assert [str(t) for t in rules.todo()] == ["Dom has no card to follow with (a heart): they pick up the trick"]


def test_a_table_that_stops_playing_on_gives_a_partial_order(check_text):
    body = open("records/pierre-qui-roule/play-on.txt", encoding="utf-8").read()
    stopped = body.split("Cas plays 8D")[0].replace('[Result "Ben Dom Ann Cas"]', '[Result "Ben"]')
    report = check_text(stopped)
    assert (report.status, report.result.order) == ("valid", ["Ben"])
    report = check_text(stopped.replace('[Result "Ben"]', ""))
    assert report.status == "in-progress" and report.result.winner == "Ben"


def test_a_score_in_a_hand_that_counts_none_says_so(check_text):
    text = open("records/pierre-qui-roule/first-out.txt", encoding="utf-8").read()
    report = check_text(text[text.index("; Without"):])
    assert [v.message for v in report.violations][:1] == ["Ben scores 0, but the replay counts no score: the game, with these options, keeps none"]


def test_a_card_out_of_turn_says_what_made_it_the_other_players_turn_and_quotes_that_rule(check_text):
    """The first lead, the trick going round, the trick taken: each ruling says which, and
    quotes the sentence of the rules that decided it (not the whole turn rule)."""
    report = check_text(open("records/pierre-qui-roule/out-of-turn.txt", encoding="utf-8").read())
    said = [(v.line, v.message, v.rule) for v in report.violations if v.code == "TR-OUT-OF-TURN"]
    assert said == [
        (8, "Ben played 9H, but it is Ann's turn: Ann leads the first trick",
         "Le joueur à gauche du donneur entame n'importe quelle carte pour débiter la première levée."),
        (12, "Ann played 8S, but it is Dom's turn: Dom took the last trick and leads the next (AH is the highest card of the suit led, aces high)",
         "Le vainqueur de la levée entame la suivante."),
        (14, "Cas played 9S, but it is Ben's turn: the trick goes round to the left from Dom, its leader: Ben is next",
         "Chaque joueur suivant doit jouer une carte de la couleur demandée s'il en possède une."),
    ]


def test_a_card_laid_on_a_picked_up_trick_goes_to_the_picker_who_may_lead_it(check_text):
    """« Pierre qui roule »: after a pick-up the picker leads; a card another player lays on
    the trick first is flagged and taken with the rest (records/pierre-qui-roule/played-on.txt
    with hidden hands). With the hands known, the card is then the picker's: it is counted
    in their hand, not in the one who laid it, and the picker may lead it at once."""
    from referee.engine import replay, start

    deal = ("Ann holds 9H 7S 8S 9S 10S JS QS KS\nBen holds 7D 8D 9D 10D JD QD KD AD\n"
            "Cas holds 10H JH 7C 8C 9C 10C JC QC\nDom holds 7H 8H QH KH AH KC AC AS\n")
    moves = "Ann plays 9H\nBen collects\nCas plays 10H\n"
    text = head(Dealer="Dom") + deal + moves
    (record,) = parse_text(text)
    rules = replay(start(record), record)
    assert [h.count for h in rules.hands] == [7, 10, 7, 8]  # Ben: his 8, the 9H picked up, the 10H laid on it
    assert rules.place[read_card("10H")] == 1  # Ben's now
    report = check_text(text + "Ben plays 10H\n")
    assert codes(report) == [(10, "PQ-PLAYED-ON")]  # Ben leads the 10H he took: no other fault


@pytest.mark.parametrize("players", ["Ann Ben Cas", "Ann Ben Cas Dom Eve Fay Gus"])
def test_pierre_qui_roule_seats_four_to_six_players(players):
    """Four to six players: the deck is 8 cards a player (7–A for 4, up to 3–A for 6)."""
    from referee.engine import start
    from referee.games.base import SetupError

    (record,) = parse_text(head(players))
    with pytest.raises(SetupError) as error:
        start(record)
    assert str(error.value) == f"Pierre qui Roule is for 4 to 6 players, not {len(players.split())}"
    for n in (4, 6):
        (record,) = parse_text(head(" ".join("Ann Ben Cas Dom Eve Fay".split()[:n])))
        assert len(start(record).players) == n


def test_a_revoke_names_the_card_led_not_the_last_one_played(check_text):
    """The trick was led with 9H; Ben's KH is only the highest so far."""
    from referee.games.pierre_qui_roule import _DEAL

    report = check_text(head(Dealer="Dom") + _DEAL + "Ann plays 9H\nBen plays KH\nCas plays 7D\n")
    assert [(v.line, v.code, v.message) for v in report.violations] == [
        (10, "TR-REVOKE", "Cas played 7D on 9H, but holds 10H")]


def test_a_pick_up_out_of_turn_says_in_words_whose_turn_it_is(check_text):
    report = check_text(head(Dealer="Dom") + "Ann plays 9H\nBen plays KH\nDom collects\n")
    assert [v.message for v in report.violations] == [
        "Dom picked up the trick, but it is Cas's turn (the trick goes round to the left from Ann, its leader: "
        "Cas is next): only the player who cannot follow picks it up"]


def test_playing_on_ends_when_one_player_is_left_with_cards(check_text):
    """« Jeu prolongé »: without a [Result], the hand is over once the third player goes
    out; the last one is ranked last, and a card after that is after the end."""
    body = open("records/pierre-qui-roule/play-on.txt", encoding="utf-8").read().replace('[Result "Ben Dom Ann Cas"]\n', "")
    report = check_text(body)
    assert (report.status, report.result.order) == ("valid", ["Ben", "Dom", "Ann", "Cas"])
    assert codes(check_text(body + "Cas plays 7S\n")) == [(50, "REC-AFTER-END")]


def test_the_first_out_is_the_whole_order_when_the_others_do_not_play_on(check_text):
    report = check_text(open("records/pierre-qui-roule/first-out.txt", encoding="utf-8").read().split("\n\n; Without")[0])
    assert (report.result.winner, report.result.order) == ("Ben", ["Ben"])


@pytest.mark.parametrize(("deck", "aside"), [("full", ["2C", "2D", "2H"]), ("short", [])])
def test_the_simulated_mistakes_lay_three_cards_set_aside_when_the_deck_is_full(deck, aside):
    """With the deal written and the full deck, 20 of the 52 cards are set aside: the
    simulator may have the player due lay one of them (the first three, in the deck's
    order), not in their hand. The short deck sets none aside."""
    from referee.engine import replay, start
    from referee.games.pierre_qui_roule import _DEAL

    (record,) = parse_text(head(Dealer="Dom", Deck=deck) + _DEAL)
    rules = replay(start(record), record)
    laid = [(m.event.player, m.event.cards_text) for m in rules.mistakes() if m.codes == ("TR-NOT-IN-HAND",)]
    assert laid == [("Ann", card) for card in aside]
