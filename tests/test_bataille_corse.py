"""Bataille corse, rule by rule; the examples of the rule text are test cases."""

from __future__ import annotations

import pytest

from referee.cards import read_card
from referee.games.bataille_corse import slap_patterns

from .conftest import RECORDS

ALL = frozenset({"pair", "addition", "sandwich", "big-mac"})


def head(players: str = "Alice Bob", **options: str) -> str:
    tags = "".join(f'[{k} "{v}"]\n' for k, v in options.items())
    return f'[Game "bataille-corse"]\n[Players "{players}"]\n{tags}'


def codes(report) -> list[tuple[int, str]]:
    return [(v.line, v.code) for v in report.violations]


def run(*cards: str) -> list:
    return [read_card(c) for c in cards]


@pytest.mark.parametrize(
    ("cards", "allowed", "found"),
    [
        (("♠6", "6♥"), ALL, ["pair"]),                           # « par exemple ♠6 et 6 »
        (("♠6", "7H", "6D"), ALL, ["sandwich"]),                 # « ♠6 - 7 - 6 »
        (("♣3", "♠10", "JH", "♠3"), ALL, ["big-mac"]),           # « ♣3 - ♠10 - Valet - ♠3 »
        (("3H", "7C"), ALL, ["addition"]),                       # « la somme des 2 dernières cartes fait 10 »
        (("5H", "5C"), ALL, ["pair", "addition"]),
        (("♠6", "7H", "6D"), frozenset({"pair"}), []),
        (("AH", "9C"), ALL, []),
        (("KH", "QC"), ALL, []),
        (("6D",), ALL, []),
    ],
)
def test_slap_patterns(cards, allowed, found) -> None:
    assert slap_patterns(run(*cards), allowed, ace_counts=False) == found


def test_ace_counts_one_in_addition_when_chosen() -> None:
    assert slap_patterns(run("AH", "9C"), ALL, ace_counts=True) == ["addition"]


def test_pair_slap_wins_the_pile_and_the_slapper_leads(check_text) -> None:
    report = check_text(head() + "Alice plays ♠6\nBob plays 6♥\nAlice slaps\nAlice plays 2C\nBob plays 3C\n")
    assert codes(report) == []
    assert report.stats["piles_collected"] == 1


def test_sandwich_only_with_the_variant(check_text) -> None:
    body = "Alice plays ♠6\nBob plays 7H\nAlice plays 6D\nBob slaps\n"
    assert codes(check_text(head(Slaps="sandwich") + body)) == []
    assert codes(check_text(head() + body)) == [(6, "BC-FALSE-SLAP")]


def test_big_mac_example_after_a_payment(check_text) -> None:
    # The Valet's debt of one card is paid by the ♠3, which makes the Big-Mac.
    body = "Alice plays ♣3\nBob plays ♠10\nAlice plays JH\nBob plays ♠3\nAlice slaps\n"
    assert codes(check_text(head(Slaps="big-mac") + body)) == []
    assert codes(check_text(head(Slaps="sandwich") + body)) == [(8, "BC-FALSE-SLAP")]


@pytest.mark.parametrize(("card", "owed"), [("JD", 1), ("QD", 2), ("KD", 3), ("AD", 4)])
def test_paying_cards(check_text, card: str, owed: int) -> None:
    pay = " ".join(f"{n}C" for n in range(2, 2 + owed))
    report = check_text(head() + f"Alice plays {card}\nBob plays {pay}\nAlice collects\n")
    assert codes(report) == []
    short = " ".join(f"{n}C" for n in range(2, 1 + owed))
    if owed > 1:
        report = check_text(head() + f"Alice plays {card}\nBob plays {short}\nAlice collects\n")
        assert codes(report) == [(5, "BC-UNDERPAID")]
    report = check_text(head() + f"Alice plays {card}\nBob plays {pay} 9H\n")
    assert codes(report) == [(4, "BC-OVERPAID")]


def test_a_paying_card_during_a_payment_passes_the_debt_on(check_text) -> None:
    report = check_text(head("Alice Bob Chloe") + "Alice plays KD\nBob plays 2C QS\nChloe plays 3C 4C\nBob collects\n")
    assert codes(report) == []
    report = check_text(head("Alice Bob Chloe") + "Alice plays KD\nBob plays 2C QS\nChloe plays 3C 4C\nAlice collects\n")
    assert codes(report) == [(6, "BC-WRONG-COLLECTOR")]


def test_the_owner_may_just_lead(check_text) -> None:
    report = check_text(head() + "Alice plays JD\nBob plays 8C\nAlice plays 2S\nBob plays 3S\n")
    assert codes(report) == []
    assert report.stats["piles_collected"] == 1


def test_out_of_turn_owes_a_penalty(check_text) -> None:
    report = check_text(head() + "Alice plays 2C\nAlice plays 3C\nAlice burns 3\nBob plays 4C\n")
    assert codes(report) == [(4, "BC-OUT-OF-TURN")]
    report = check_text(head() + "Alice plays 2C\nAlice plays 3C\nBob plays 4C\nAlice plays 5C\n")
    assert codes(report) == [(4, "BC-OUT-OF-TURN"), (6, "BC-PENALTY-UNPAID")]


def test_give_one_penalty(check_text) -> None:
    text = head("Alice Bob Chloe", Penalty="give-1") + "Alice slaps\nAlice gives ?? to Bob\nAlice gives ?? to Chloe\nAlice plays 2C\n"
    assert codes(check_text(text)) == [(4, "BC-FALSE-SLAP")]
    text = head("Alice Bob Chloe", Penalty="give-1") + "Alice slaps\nAlice gives ?? to Bob\nAlice plays 2C\n"
    assert codes(check_text(text)) == [(4, "BC-FALSE-SLAP"), (6, "BC-PENALTY-UNPAID")]


def test_no_slap_ban_is_timed(check_text) -> None:
    body = "20:00:00 Alice slaps\n20:00:05 Alice plays 5C\n20:00:06 Bob plays 5D\n{t} Alice slaps\n"
    late = check_text(head(Penalty="no-slap-30") + body.format(t="20:00:31"))
    early = check_text(head(Penalty="no-slap-30") + body.format(t="20:00:10"))
    assert codes(late) == [(4, "BC-FALSE-SLAP")]
    assert codes(early) == [(4, "BC-FALSE-SLAP"), (7, "BC-SLAP-BANNED")]
    untimed = check_text(head(Penalty="no-slap-30") + "Alice slaps\n")
    assert untimed.notes and "timestamps" in untimed.notes[0]


def test_known_deal_is_checked(check_text) -> None:
    deal = "Alice holds " + " ".join(f"{r}{s}" for s in "SH" for r in ["A", *range(2, 11), "J", "Q", "K"]) + "\n"
    deal += "Bob holds " + " ".join(f"{r}{s}" for s in "DC" for r in ["A", *range(2, 11), "J", "Q", "K"]) + "\n"
    assert codes(check_text(head() + deal + "Alice plays AS\n")) == []
    assert codes(check_text(head() + deal + "Alice plays 2S\n")) == [(5, "BC-DEAL-MISMATCH")]
    assert codes(check_text(head() + deal + "Alice holds 2S\n")) == [(3, "BC-CARD-COUNT")]  # 2S is hers: no duplicate
    assert codes(check_text(head() + deal + "Alice plays AS\nBob plays AS\n")) == [(6, "BC-DEAL-MISMATCH")]


def test_a_card_seen_twice(check_text) -> None:
    assert codes(check_text(head() + "Alice plays 2C\nBob plays 2C\n")) == [(4, "REC-DUPLICATE-CARD")]


def test_in_progress_says_who_must_act(check_text) -> None:
    report = check_text(head() + "Alice plays QD\nBob plays 2C\n")
    assert report.status == "in-progress"
    assert report.todo_words() == ["Bob pays 1 more card to Alice"]


def test_play_out_finds_a_never_ending_deal(check_text) -> None:
    """The non-terminating 2-player deal published in 2024 (only paying cards matter)."""
    p1, p2 = "---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA"
    fill = iter(f"{r}{s}" for s in "SHDC" for r in range(2, 11))
    suits = {c: iter("SHDC") for c in "JQKA"}

    def pack(pattern: str) -> str:
        return " ".join(next(fill) if ch == "-" else ch + next(suits[ch]) for ch in pattern)

    report = check_text(head("P1 P2") + f"P1 holds {pack(p1)}\nP2 holds {pack(p2)}\n", play_out=True)
    assert report.status == "never-ends"
    assert report.result.never_ends == {"start": 35, "length": 440}
    assert report.todo_words() == []  # nobody has anything to do in a game that never ends


def test_legal_changes_nothing_while_a_slap_shows() -> None:
    """Quentin's turn comes with no cards while a pair shows (records/regressions/
    legal-result-empty-pack.txt, second game): he is out unless a slap wins him the pile.
    legal() offers only the slaps and leaves the game as it was; a slap brings him back."""
    from referee.engine import replay, start
    from referee.notation import read_games

    from .conftest import RECORDS

    _, record = read_games(str(RECORDS / "regressions" / "legal-result-empty-pack.txt"))
    rules = replay(start(record), record)
    assert sorted((e.player, e.verb) for e in rules.legal()) == [("Quentin", "slaps"), ("Sofia", "slaps")]
    assert not rules.result().finished and rules.legal()
    rules.apply(record.events[-1].replace(verb="slaps", player="Quentin", cards=(), cards_text=""))
    assert [str(t) for t in rules.todo()] == ["Quentin turns the next card"]


def test_taking_a_slapped_pile_is_harmless(check_text) -> None:
    slapped = head() + "Alice plays 9D\nBob plays 9H\nAlice slaps\n"
    assert codes(check_text(slapped + "Alice collects\nAlice plays 3C\n")) == []
    assert codes(check_text(slapped + "Bob collects\nAlice plays 3C\n")) == [(6, "BC-WRONG-COLLECTOR")]


def test_the_winner_takes_the_last_pile(check_text) -> None:
    """« Le gagnant est le premier joueur à ramasser toutes les cartes »: Bob runs out
    while paying and is out at once; Alice taking that last pile is part of the game, once."""
    finished = (RECORDS / "bataille-corse" / "finished-winner.txt").read_text(encoding="utf-8")
    report = check_text(finished + "Alice collects\n")
    assert (report.status, report.result.winner, codes(report)) == ("valid", "Alice", [])
    last = finished.count("\n") + 2
    assert codes(check_text(finished + "Alice collects\nAlice collects\n")) == [(last, "REC-AFTER-END")]
    assert codes(check_text(finished + "Bob collects\n")) == [(last - 1, "REC-AFTER-END")]


def test_give_one_in_turn_order_from_the_offender(check_text) -> None:
    """Bob, with one card left for two others, gives it to Chloe, who plays after him."""
    rounds = "Alice plays ??\nBob plays ??\nChloe plays ??\n" * 15
    text = head("Alice Bob Chloe", Penalty="give-1") + rounds + "Alice plays 5H\nBob plays 6C\nBob slaps\nBob gives ?? to Chloe\n"
    report = check_text(text)
    assert codes(report) == [(51, "BC-FALSE-SLAP")]
    report = check_text(text.replace("to Chloe", "to Alice"))
    assert codes(report) == [(51, "BC-FALSE-SLAP"), (52, "BC-PENALTY-WRONG")]
    assert report.violations[1].message == "Bob's penalty is to give a card to Chloe, not this"


def test_taking_the_pile_does_not_forfeit_a_penalty(check_text) -> None:
    """The penalty is due before the offender's next card or slap; taking the pile is neither."""
    text = head() + "Alice plays QH\nAlice slaps\nBob plays 3C 4D\nAlice collects\nAlice burns 3\nAlice plays 8S\n"
    assert codes(check_text(text)) == [(4, "BC-FALSE-SLAP")]


def test_an_untimed_slap_during_a_timed_ban_is_noted(check_text) -> None:
    text = head(Penalty="no-slap-30") + "21:00:00 Alice plays 5H\n21:00:01 Alice slaps\nBob plays 5D\nAlice slaps\n"
    report = check_text(text)
    assert codes(report) == [(5, "BC-FALSE-SLAP")]
    assert any("line 7" in note and "no timestamp" in note for note in report.notes)
    later = text.replace("Bob plays 5D", "21:00:40 Bob plays 5D")
    assert not check_text(later).notes


def test_a_player_with_an_empty_pack_may_still_slap_when_their_turn_comes(check_text) -> None:
    """« il doit attendre son prochain tour avant d'être éliminé »: Bob's slap, as his turn
    comes with an empty pack, is a false slap, not a slap by a player who is out."""
    rounds = "Alice plays ??\nBob plays ??\nChloe plays ??\n" * 16
    text = head("Alice Bob Chloe") + rounds + "Alice plays JH\nBob plays 6C\nAlice collects\nAlice plays 8S\nBob slaps\n"
    assert codes(check_text(text)) == [(55, "BC-FALSE-SLAP")]
    out = text + "Chloe plays 2C\nBob slaps\n"
    assert codes(check_text(out))[-1] == (57, "BC-SLAP-WHILE-OUT")


def test_false_slap_messages(check_text) -> None:
    paying = check_text(head(SlapDuringPayment="no") + "Alice plays KH\nBob plays 3C 3D\nBob slaps\n")
    assert paying.violations[0].message == 'Bob slapped, but no slap wins the pile during a payment at this table ([SlapDuringPayment "no"])'
    several = check_text(head(Slaps="pair sandwich") + "Alice plays 2H\nAlice slaps\n")
    assert "shows no pair or sandwich (top: 2H)" in several.violations[0].message


def test_a_penalty_paid_when_none_is_owed(check_text) -> None:
    report = check_text(head() + "Alice burns 3\n")
    assert [(v.code, v.message) for v in report.violations] == [("BC-PENALTY-WRONG", "Alice pays a penalty, but owes none")]


def test_a_target_the_game_has_no_use_for(check_text) -> None:
    report = check_text(head() + "Alice plays 3H on Bob\n")
    assert [(v.line, v.code, v.message) for v in report.violations] == [
        (3, "REC-UNSUPPORTED-EVENT", "Bataille corse has no 'plays … on' event; this line is not replayed")]


@pytest.mark.parametrize(("result", "flagged"), [("Alice", True), ("Zorro", True), ("*", False), ("", False)])
def test_a_result_header_on_an_unfinished_game(check_text, result: str, flagged: bool) -> None:
    report = check_text(head(Result=result) + "Alice plays 5H\n")
    assert codes(report) == ([(3, "REC-RESULT-MISMATCH")] if flagged else [])
    if flagged:
        assert report.violations[0].message == f'[Result "{result}"] disagrees with the replay: in progress'


@pytest.mark.parametrize("name", ["bataille-corse", "Bataille Corse", "bataillecorse", "BATAILLE_CORSE", "Bataille-Corsé"])
def test_game_names(check_text, name: str) -> None:
    assert check_text(f'[Game "{name}"]\n[Players "Alice Bob"]\nAlice plays 5H\n').status == "in-progress"


def test_a_payer_emptied_by_a_burn_is_out_at_once(check_text) -> None:
    """« si un joueur se retrouve à court de cartes pendant qu'il paye une pénalité, il est
    immédiatement éliminé »: B owes 3 for the Roi, and burning his last card puts him out."""
    body = (
        "A plays AS\nB plays 2C 3C 4C 5C\nA collects\nA plays AH\nB plays 6C 7C 8C 9C\n"
        "A collects\nA plays AD\nB plays 10C 2D 3D 4D\nA collects\nA plays QS\nB plays 5D 6D\n"
        "A collects\nA plays JS\nB plays 7D\nA collects\nA plays 4H\nB plays 5H\nB slaps\n"
        "C plays KH\nA plays KS\nB burns 1\nB slaps\n"
    )
    report = check_text(head("A B C") + body)
    assert codes(report) == [(20, "BC-FALSE-SLAP"), (24, "BC-SLAP-WHILE-OUT")]
    before = check_text(head("A B C") + body.removesuffix("B slaps\n"))
    assert "C pays 3 more cards to A" in before.todo_words()


def test_a_fault_without_a_time_is_dated_by_the_last_time_given(check_text) -> None:
    body = "21:00:00 A plays 5C\nC slaps\n21:00:20 B plays 5D\n21:00:25 C slaps\n"
    report = check_text(head("A B C", Penalty="no-slap-30") + body)
    assert codes(report) == [(5, "BC-FALSE-SLAP"), (7, "BC-SLAP-BANNED")]
    assert not report.notes


def test_players_going_out_together_go_in_turn_order_from_the_winner(check_text) -> None:
    """B takes all 52 cards; C, next after B, goes out first and finishes last."""
    report = check_text(head("A B C", First="B") + (
        "A plays 2C\nA burns 3\nA slaps\nA burns 3\nA slaps\nA burns 3\nA slaps\nA burns 3\n"
        "A slaps\nA burns 3\nC plays 3C\nC burns 3\nC slaps\nC burns 3\nC slaps\nC burns 3\n"
        "C slaps\nC burns 3\nC slaps\nC burns 3\nB plays 4C\nC plays 9D\nA plays 9H\nB slaps\n"
    ))
    assert (report.result.winner, report.result.order) == ("B", ["B", "A", "C"])


@pytest.mark.parametrize("penalty", ["burn-3", "give-1"])
def test_legal_offers_the_penalty_owed(penalty: str) -> None:
    """After a false slap, what is legal is to pay the penalty (the offender's card or slap
    would be BC-PENALTY-UNPAID), and paying it as offered breaks no rule."""
    from referee.engine import replay, start
    from referee.notation import parse_text

    deal = "".join(f"{p} holds " + " ".join(f"{r}{s}" for r in [*range(2, 11), "J", "Q", "K", "A"]) + "\n"
                   for p, s in zip(["Alice", "Bob", "Chloe", "Dan"], "SHDC"))
    (record,) = parse_text(head("Alice Bob Chloe Dan", Penalty=penalty) + deal + "Alice plays 2S\nBob slaps\n")
    rules = replay(start(record), record)
    legal = rules.legal()
    assert "Bob" not in {e.player for e in legal if e.verb in ("plays", "slaps")}
    payments = [e for e in legal if e.verb in ("burns", "gives")]
    if penalty == "burn-3":
        assert [(e.verb, e.cards_text) for e in payments] == [("burns", "2H 3H 4H")]
    else:
        assert [(e.verb, e.cards_text, e.target) for e in payments] == [("gives", "2H", t) for t in ("Chloe", "Dan", "Alice")]
    while payments:
        rules.apply(payments[0])
        payments = [e for e in rules.legal() if e.verb in ("burns", "gives")]
    assert [v.code for v in rules.violations] == ["BC-FALSE-SLAP"]
    assert [e.player for e in rules.legal() if e.verb == "plays"] == ["Bob"]


def test_a_card_out_of_turn_says_what_made_it_the_other_players_turn():
    """The turn going round, or a payment under way (« 2 pour une Dame »): the message
    says which, and quotes the rule that decided it."""
    from referee.engine import check
    from referee.notation import parse_text

    games = parse_text(open("records/bataille-corse/out-of-turn.txt", encoding="utf-8").read())
    said = [(v.message, v.rule[:20]) for g in games for v in check(g).violations if v.code == "BC-OUT-OF-TURN"]
    assert said == [("Chloe turned JC, but it is Bob's turn: the turn goes round to the left, to Bob", "À tour de rôle, chac"),
                    ("Chloe turned 6D, but it is Bob's turn: Bob is paying Alice's QH, 1 more card to turn", "lorsqu’un joueur ret")]


DECK = [f"{r}{s}" for s in "SHDC" for r in ["A", *range(2, 11), "J", "Q", "K"]]


@pytest.mark.parametrize(("alice", "bob", "flagged"), [
    (DECK[:26], DECK[26:], []),
    (DECK[:26], DECK[26:51], [(3, "BC-CARD-COUNT")]),              # one card missing: 51
    (DECK[:28], DECK[28:], [(3, "REC-BAD-DEAL")]),                 # 28 and 24 cards
    (DECK[:26], [*DECK[26:51], DECK[0]], [(4, "REC-DUPLICATE-CARD")]),  # AS twice, KC missing
])
def test_a_record_that_is_only_the_deal_is_checked(check_text, alice, bob, flagged) -> None:
    """A table that writes the deal and checks it before playing: every pack written, the
    deal is checked at once (« Toutes les cartes sont distribuées équitablement »)."""
    report = check_text(head() + f"Alice holds {' '.join(alice)}\nBob holds {' '.join(bob)}\n")
    assert codes(report) == flagged
    assert report.status == ("violations" if flagged else "in-progress")
    played = check_text(head() + f"Alice holds {' '.join(alice)}\nBob holds {' '.join(bob)}\nAlice plays {alice[0]}\n")
    assert codes(played) == flagged  # found once, not again at the first card


def test_a_pack_written_again_before_play_is_checked_again(check_text) -> None:
    """The deal is checked at each line that leaves it whole; a fault already reported
    there is not reported twice."""
    deal = f"Alice holds {' '.join(DECK[:26])}\nBob holds {' '.join(DECK[26:51])}\n"
    again = f"Bob holds {' '.join(DECK[26:51])}\n"
    assert codes(check_text(head() + deal + again + "Alice plays AS\n")) == [(3, "BC-CARD-COUNT")]
    assert codes(check_text(head() + deal.replace(DECK[0] + " ", "", 1) + f"Alice holds {' '.join(DECK[:26])} KC\n")) == [
        (3, "BC-CARD-COUNT"), (3, "REC-BAD-DEAL")]  # 50 cards, then 52 dealt 27 and 25


def test_a_deal_written_in_part_is_checked_when_play_starts(check_text) -> None:
    """Bob's pack is not written: it holds what the deal leaves it, and the deal is checked
    at the first card (before it, Bob's line might still come)."""
    text = head() + f"Alice holds {' '.join(DECK[:28])}\n"
    assert codes(check_text(text)) == []
    assert codes(check_text(text + "Alice plays AS\n")) == [(3, "REC-BAD-DEAL")]


GIVE_1_BOB_EMPTY = head("A B C", Penalty="give-1") + (
    "A plays AS\nB plays 2C 3C 4C 5C\nA collects\nA plays AH\nB plays 6C 7C 8C 9C\nA collects\n"
    "A plays AD\nB plays 10C 2D 3D 4D\nA collects\nA plays QS\nB plays 5D 6D\nA collects\n"
    "A plays JS\nB plays 7D\nA collects\nA plays 4H\nB plays 5H\nC plays 6H\nA plays 7H\n"
    "B plays 8H\nC plays 9H\nA plays 10H\nC slaps\n"
)
"""B turns his last card, and A's 10H brings his turn: C's false slap comes before the next
event puts B out, so C owes a card to A and to B."""


def test_a_give_1_penalty_owes_nothing_to_a_player_gone_out(check_text) -> None:
    """« donner une carte à chacun des autres joueurs »: those still in when it is paid. B
    goes out at C's first gift, and is owed none: the to-do list never asks for it."""
    report = check_text(GIVE_1_BOB_EMPTY + "C gives ?? to A\n")
    assert (codes(report), report.todo_words()) == ([(26, "BC-FALSE-SLAP")], ["C turns the next card"])
    report = check_text(GIVE_1_BOB_EMPTY + "C gives ?? to A\nC plays 2S\n")
    assert codes(report) == [(26, "BC-FALSE-SLAP")]


def test_a_card_given_to_a_player_who_is_out_is_flagged_and_stays(check_text) -> None:
    report = check_text(GIVE_1_BOB_EMPTY + "C gives ?? to B\nC gives ?? to A\n")
    assert codes(report) == [(26, "BC-FALSE-SLAP"), (27, "BC-GIVE-TO-OUT")]
    assert report.violations[1].message == "C gave a card to B, who is out of the game and is owed none"
    assert report.stats["cards_unseen"] == 25  # B holds nothing: the card stayed with C
    from referee.state import state_in_text

    hands = state_in_text(GIVE_1_BOB_EMPTY + "C gives ?? to B\n", 27).table.hands
    assert (hands["B"].count, hands["C"].count) == (0, 15)


def test_state_lists_the_slaps_the_table_plays() -> None:
    """`referee state`'s « slaps played »: the pair, always, and the variants chosen, in
    the order of the rule text; not the others."""
    from referee.state import items, state_in_text

    text = head(Slaps="big-mac sandwich") + "Alice plays 5H\n"
    assert ("slaps played", "pair, sandwich and Big-Mac") in items(state_in_text(text, 4))
    assert ("slaps played", "pair") in items(state_in_text(head() + "Alice plays 5H\n", 3))


@pytest.mark.parametrize(("body", "pile", "bob"), [
    ("Alice plays 5H\nAlice plays CC\nBob plays 6C\n", "2 cards: 5H 6C (top)", "25 cards"),    # Bob's turn
    ("Alice plays JH\nBob plays 3C\nBob plays CC\nAlice collects\n", "empty", "25 cards"),  # the pile is Alice's
])
def test_a_card_outside_the_deck_laid_out_of_turn_is_not_moved(check_text, body: str, pile: str, bob: str) -> None:
    """A card outside the deck that the table lets stand counts as laid only when its
    player turned it in turn: out of turn (Bob's turn, or Alice's pile to take) it is not
    replayed, and nothing leaves the pack."""
    from referee.state import items, state_in_text

    report = check_text(head() + body)
    assert [c for _, c in codes(report)] == ["REC-NOT-IN-DECK"]
    assert report.stats["cards_played"] == 2
    shown = dict(items(state_in_text(head() + body, body.count("\n") + 2)))
    assert (shown["pile"], shown["Bob"]) == (pile, bob)


def test_explain_says_why_the_owner_takes_the_pile(tmp_path) -> None:
    """`referee explain FILE:LINE` on a `collects` by the player of the paying card, once
    the debt is paid: the pile is theirs."""
    from referee.cli.explain import explain_place

    path = tmp_path / "g.txt"
    path.write_text(head() + "Alice plays JH\nBob plays 3C\nAlice collects\n", encoding="utf-8")
    said = " ".join(" ".join(explain_place(str(path), 5)).split())
    assert "Alice takes the pile: the debt to Alice is paid" in said


def test_explain_says_what_each_card_of_a_line_does(tmp_path) -> None:
    """`referee explain FILE:LINE` on a `plays` line: the first card of the game, a paying
    card, and a payment card by card."""
    from referee.cli.explain import explain_place

    path = tmp_path / "g.txt"
    path.write_text(head("Alice Bob Chloe") + "Alice plays 5H\nBob plays QS\nChloe plays 3C 4C\n", encoding="utf-8")
    said = [" ".join(" ".join(explain_place(str(path), line)).split()) for line in (3, 4, 5)]
    path.write_text(head() + f"Alice holds {' '.join(DECK[:26])}\n", encoding="utf-8")
    assert "Alice's pack as dealt: 26 cards, top card first" in " ".join(" ".join(explain_place(str(path), 3)).split())
    assert "Alice turns 5H in turn" in said[0]
    assert "QS is a paying card: Chloe owes 2 cards" in said[1]
    assert "Chloe pays 3C to Bob (1 still owed); Chloe pays 4C, the last card owed: the pile is Bob's" in said[2]


@pytest.mark.parametrize(("players", "sizes", "message"), [
    ("Alice Bob", (28, 24), "Alice is dealt 28 cards; the deal gives 26"),
    ("Alice Bob Chloe", (28, 12, 12), "Alice is dealt 28 cards; the deal gives 17 or 18"),
    ("Alice Bob Chloe Dan", (14, 14, 14, 10), "Dan is dealt 10 cards; the deal gives 13"),
    ("Alice Bob Chloe Dan Eve", (10, 10, 10, 10, 12), "Eve is dealt 12 cards; the deal gives 10 or 11"),
])
def test_an_uneven_deal_says_what_each_pack_should_hold(check_text, players: str, sizes: tuple[int, ...], message: str) -> None:
    cards = iter(DECK)
    deal = "".join(f"{p} holds {' '.join(next(cards) for _ in range(n))}\n" for p, n in zip(players.split(), sizes))
    (fault,) = check_text(head(players) + deal).violations
    assert (fault.code, fault.message) == ("REC-BAD-DEAL", message)


def test_a_card_outside_the_deck_counts_as_no_card_of_a_pair(check_text) -> None:
    """The card outside the deck let stand lies between the two fives: they do not
    « se succèdent », and Bob's slap is false."""
    report = check_text(head() + "Alice plays 5H\nBob plays CC\nAlice plays 5C\nBob slaps\n")
    assert codes(report) == [(4, "REC-NOT-IN-DECK"), (6, "BC-FALSE-SLAP")]


def test_a_card_outside_the_deck_as_the_first_card_leaves_the_pack(check_text) -> None:
    """The first card of the game, outside the deck and let stand, leaves Alice's pack,
    whose size the deal (Bob's pack written, Alice's not) gave at that card."""
    from referee.state import items, state_in_text

    text = head() + f"Bob holds {' '.join(DECK[26:])}\nAlice plays CC\nBob plays AD\n"
    assert [c for _, c in codes(check_text(text))] == ["REC-NOT-IN-DECK"]
    assert ("Alice", "25 cards") in items(state_in_text(text, 5))


def test_a_play_out_that_ends_when_the_last_card_paid_makes_a_full_pack(check_text) -> None:
    """Bob pays his last card as the last one owed: Alice takes the pile, holds all 52
    cards, and the play-out stops there (no card is turned after the end)."""
    deal = ("Alice holds 6D 3H 8D 8C 10C 9C 7H 2H 6C 5D KH QD 8H AD 2C JC AH 3C 7S 10S 4C KS 10H JD 6H 4H\n"
            "Bob holds 5S 4S 2S 8S QC 9D 2D 3D JS QH 3S 10D 7C 6S KD KC 7D 9H AS 5C QS 9S 5H JH AC 4D\n")
    report = check_text(head() + deal, play_out=True)
    assert (report.status, report.result.winner, report.result.order) == ("valid", "Alice", ["Alice", "Bob"])
    assert (report.stats["cards_played"], report.stats["piles_collected"]) == (388, 54)


def test_mistakes_offer_one_card_too_many_at_the_end_of_a_payment() -> None:
    """With the deal known and one card owed, `simulate --mistakes` may write the payment
    with one card more on its line: the extra card is BC-OVERPAID, as check says."""
    from referee.engine import replay, start
    from referee.notation import parse_text

    alice = ["JS", *(c for c in DECK[:26] if c != "JS")]
    bob = [*DECK[27:], DECK[26]]  # the ace of diamonds at the bottom: 2D on top
    (record,) = parse_text(head() + f"Alice holds {' '.join(alice)}\nBob holds {' '.join(bob)}\nAlice plays JS\n")
    rules = replay(start(record), record)
    offered = {(m.event.player, m.event.cards_text): m.codes for m in rules.mistakes()}
    assert offered[("Bob", "2D 3D")] == ("BC-OVERPAID",)
    assert offered[("Bob", "3D")] == ("BC-DEAL-MISMATCH",)  # the second card turned instead of the top one
    rules.apply(parse_text(head() + "Bob plays 2D 3D\n")[0].events[0])
    assert [v.code for v in rules.violations] == ["BC-OVERPAID"]


def test_state_before_play_gives_the_packs_not_written_what_the_deal_leaves() -> None:
    from referee.state import items, state_in_text

    text = head("Alice Bob Chloe") + f"Alice holds {' '.join(DECK[:26])}\n"
    shown = dict(items(state_in_text(text, 3)))
    assert (shown["Bob"], shown["Chloe"]) == ("13 cards", "13 cards")


def _offered(text: str) -> dict[tuple[str, str, str, str | None], tuple[str, ...]]:
    from referee.engine import replay, start
    from referee.notation import parse_text

    (record,) = parse_text(text)
    rules = replay(start(record), record)
    return {(m.event.player, m.event.verb, m.event.cards_text, m.event.target): m.codes for m in rules.mistakes()}


def test_mistakes_burn_too_few_or_too_many_cards() -> None:
    """Bob owes three cards (a false slap): `simulate --mistakes` may burn one, two or four."""
    deal = f"Alice holds {' '.join(DECK[:26])}\nBob holds {' '.join(DECK[26:])}\n"
    offered = _offered(head() + deal + "Alice plays AS\nBob slaps\n")
    burns = {cards: codes for (player, verb, cards, _), codes in offered.items() if (player, verb) == ("Bob", "burns")}
    assert burns == {"AD": ("BC-PENALTY-WRONG",), "AD 2D": ("BC-PENALTY-WRONG",), "AD 2D 3D 4D": ("BC-PENALTY-WRONG",),
                     "2D 3D AD": ("BC-DEAL-MISMATCH",) * 2}


def test_mistakes_give_a_card_owed_to_nobody_to_the_next_player() -> None:
    """[Penalty "give-1"], nothing owed: the card a player wrongly gives goes to the next
    player in turn, never to themselves."""
    offered = _offered(head("Alice Bob Chloe", Penalty="give-1") + "Alice plays 5H\n")
    gifts = sorted((player, target) for (player, verb, _, target), codes in offered.items()
                   if verb == "gives" and codes == ("BC-PENALTY-WRONG",))
    assert gifts == [("Alice", "Bob"), ("Bob", "Chloe"), ("Chloe", "Alice")]


@pytest.mark.parametrize(("slaps", "cards", "shows"), [
    ("pair", "6S 6H", "6S 6H, a pair"),
    ("sandwich", "2C 6S 7H 6D", "6S 7H 6D, a sandwich"),
    ("big-mac", "3C 10S JH 3S", "3C 10S JH 3S, a Big-Mac"),
])
def test_state_shows_the_cards_of_the_pattern(slaps: str, cards: str, shows: str) -> None:
    """`referee state`'s « the pile shows »: every card the pattern spans, and no more."""
    from referee.state import items, state_in_text

    players = ["Alice", "Bob"]
    body = "".join(f"{players[i % 2]} plays {card}\n" for i, card in enumerate(cards.split()))
    text = head(Slaps=slaps) + body
    assert ("the pile shows", shows) in items(state_in_text(text, text.count("\n")))


def test_a_debt_on_an_empty_pack_passes_at_once_to_the_next_player() -> None:
    """« il est immédiatement éliminé, et c'est au joueur suivant de finir de payer »: right
    after A's QH, B (no cards) is out and C owes the two cards, though a pair shows; no
    mistake has B take the pile."""
    from referee.engine import replay, start
    from referee.notation import parse_text

    game = (RECORDS / "bataille-corse" / "debt-on-empty-pack.txt").read_text(encoding="utf-8").split("\n\n[")[0]
    (record,) = parse_text(game.split("\nB slaps")[0] + "\n")
    assert record.events[-1].cards_text == "QH"
    rules = replay(start(record), record)
    assert [str(t) for t in rules.todo()] == ["C pays 2 more cards to A", "A and C may slap (pair)"]
    assert sorted(m.event.player for m in rules.mistakes() if m.event.verb == "collects") == ["A", "C"]


def test_explain_of_an_accepted_burn_by_a_player_owing_gifts_slides_no_card(tmp_path) -> None:
    """A bare `burns` by a player whose penalty is to give cards ([Penalty "give-1"]), the
    fault accepted by the table: the burn moves no card, and explain says so (0 cards)."""
    from referee.cli.explain import explain_place

    path = tmp_path / "g.txt"
    path.write_text(head("Alice Bob Chloe Dan", Penalty="give-1")
                    + "Alice plays 5H\nBob plays 6C\nChloe slaps\nChloe burns  ; accepted BC-PENALTY-WRONG\n",
                    encoding="utf-8")
    said = " ".join(" ".join(explain_place(str(path), 7)).split())
    assert "ruled: legal: Chloe pays the penalty: 0 cards slid under the pile" in said
    assert "then: Chloe pays the penalty: give one card each to Dan, Alice and Bob" in said


@pytest.mark.parametrize(("slaps", "cards", "shows"), [
    ("pair", "2C 6S 6H", "6S 6H, a pair"),
    ("addition", "2C 3H 7C", "3H 7C, an addition"),
    ("big-mac", "2C 3C 10S JH 3S", "3C 10S JH 3S, a Big-Mac"),
])
def test_the_pile_shows_the_cards_of_its_pattern_not_those_under_them(slaps: str, cards: str, shows: str) -> None:
    """`referee state`'s « the pile shows » on a run longer than the pattern: the cards the
    pattern spans (two for a pair or an addition, four for a Big-Mac), not the card under them."""
    from referee.state import items, state_in_text

    players = ["Alice", "Bob"]
    body = "".join(f"{players[i % 2]} plays {card}\n" for i, card in enumerate(cards.split()))
    text = head(Slaps=slaps) + body
    assert ("the pile shows", shows) in items(state_in_text(text, text.count("\n")))


def test_an_addition_counts_from_2_and_an_unseen_card_adds_nothing() -> None:
    """« la somme des 2 dernières cartes fait 10 »: 2 and 8 make 10 (the ace out of it); a
    card nobody saw (rank 0) under a 10 is no addition, even with the ace counting 1."""
    from referee.cards import UNSEEN_CARD

    assert slap_patterns(run("2C", "8D"), ALL, ace_counts=False) == ["addition"]
    assert slap_patterns([UNSEEN_CARD, *run("10H")], ALL, ace_counts=True) == []


def test_a_card_out_of_turn_on_the_leaders_next_turn_says_the_turn_goes_round(check_text) -> None:
    """The leader's turn again with cards on the pile is the turn going round, not the lead
    after taking the last pile (« À tour de rôle »)."""
    report = check_text(head() + "Alice plays JH\nBob plays 3C\nAlice collects\nAlice plays 5H\nBob plays 6C\nBob plays 7D\n")
    assert [v.message for v in report.violations] == [
        "Bob turned 7D, but it is Alice's turn: the turn goes round to the left, to Alice"]


def test_bataille_corse_is_for_two_to_five_players() -> None:
    """Five players may sit (« Entre 2 et 5 joueurs »), not six."""
    from referee.engine import start
    from referee.games.base import SetupError
    from referee.notation import parse_text

    start(parse_text(head("A B C D E"))[0])
    with pytest.raises(SetupError, match="Bataille corse is for 2 to 5 players, not 6"):
        start(parse_text(head("A B C D E F"))[0])


def test_a_card_twice_in_one_holds_line_is_a_duplicate(check_text) -> None:
    """A pack written with the same card twice: the second is a card seen twice."""
    report = check_text(head() + f"Alice holds {' '.join(DECK[:25])} {DECK[0]}\n")
    assert [(v.line, v.code, v.column) for v in report.violations if v.code == "REC-DUPLICATE-CARD"] == \
        [(3, "REC-DUPLICATE-CARD", len(f"Alice holds {' '.join(DECK[:25])} ") + 1)]


def test_a_pack_written_again_forgets_the_cards_of_the_first_line(check_text) -> None:
    """Alice's pack written twice before the first card: the second line holds; a card only
    the first line gave her may be dealt to Bob."""
    report = check_text(head() + f"Alice holds {' '.join(DECK[:26])}\nAlice holds {' '.join(DECK[26:])}\n"
                        f"Bob holds {' '.join(DECK[:26])}\n")
    assert codes(report) == []


def test_a_deal_of_more_than_52_cards_leaves_the_packs_not_written_empty(check_text) -> None:
    """Alice and Bob written with 27 cards each (two of them twice): Chloe's pack, not
    written, gets what is left, nothing; the count of the deal is 54."""
    report = check_text(head("Alice Bob Chloe") + f"Alice holds {' '.join(DECK[:27])}\n"
                        f"Bob holds {' '.join(DECK[25:])}\nAlice plays {DECK[0]}\n")
    assert [v.message for v in report.violations if v.code == "BC-CARD-COUNT"] == \
        ["the deal holds 54 cards; Bataille corse deals the whole 52-card deck"]


@pytest.mark.parametrize(("sizes", "flagged"), [
    ((18, 18, 16), (5, "Chloe is dealt 16 cards; the deal gives 17 or 18")),
    ((28, 24), (3, "Alice is dealt 28 cards; the deal gives 26")),
])
def test_a_bad_deal_names_the_pack_furthest_from_an_even_share(check_text, sizes, flagged) -> None:
    """« Toutes les cartes sont distribuées équitablement, une différence d'une carte étant
    possible »: the pack furthest from 52 / players is named, with the fair sizes."""
    names, lines, dealt = ["Alice", "Bob", "Chloe"][: len(sizes)], [], 0
    for name, size in zip(["Alice", "Bob", "Chloe"], sizes):
        lines.append(f"{name} holds {' '.join(DECK[dealt:dealt + size])}\n")
        dealt += size
    report = check_text(head(" ".join(names)) + "".join(lines))
    assert [(v.line, v.message) for v in report.violations] == [flagged]


def test_a_card_turned_out_of_turn_lies_on_the_pile(check_text) -> None:
    """A card turned out of turn goes onto the pile (« la pose au centre »): the same card
    turned again is a card seen twice, already on the pile."""
    report = check_text(head() + "Alice plays 5H\nAlice plays 7C\nBob plays 7C\n")
    assert [(v.line, v.code, v.message) for v in report.violations if v.code == "REC-DUPLICATE-CARD"] == \
        [(5, "REC-DUPLICATE-CARD", "7C appears twice: it is already on the pile")]


def test_a_card_outside_the_deck_let_stand_puts_the_dealt_top_card_on_the_pile(check_text) -> None:
    """A card outside the deck turned in turn and let stand: the card the deal put on top
    of the pack lies on the pile, so Bob turning it is a card already on the pile."""
    report = check_text(head() + f"Alice holds {' '.join(DECK[:26])}\nAlice plays CC\nBob plays {DECK[0]}\n")
    assert [(v.line, v.message) for v in report.violations if v.code == "REC-DUPLICATE-CARD"] == \
        [(5, f"{DECK[0]} appears twice: it is already on the pile")]


def test_a_card_after_the_last_one_of_the_game_on_the_same_line_is_after_the_end() -> None:
    """Bob runs out while paying and is out at once: Alice has won, and a second card on
    Bob's line comes after the end of the game."""
    from referee.engine import check
    from referee.notation import parse_text

    text = (RECORDS / "bataille-corse" / "winner-takes-last-pile.txt").read_text(encoding="utf-8")
    text = text.replace("Bob plays 10C   ;", "Bob plays 10C 3D   ;")
    (game,) = parse_text(text)
    line = next(e.line for e in game.events if e.cards_text.startswith("10C 3D"))
    assert [(v.line, v.code) for v in check(game).violations if v.code == "REC-AFTER-END"][0] == (line, "REC-AFTER-END")
    assert [v.column for v in check(game).violations if v.line == line] == [len("Bob plays 10C ") + 1]


def test_a_card_outside_the_deck_let_stand_in_turn_counts_as_played(check_text) -> None:
    """A card outside the deck turned in turn and let stand is a card played (the card that
    left the pack lies on the pile)."""
    assert check_text(head() + "Alice plays CC\nBob plays 6C\n").stats["cards_played"] == 2


def test_the_first_card_out_of_turn_says_who_turns_the_first_card(check_text) -> None:
    """Nobody has taken a pile yet: the first card is the first player's to turn."""
    report = check_text(head() + "Bob plays 5H\n")
    assert [v.message for v in report.violations] == ["Bob turned 5H, but it is Alice's turn: Alice turns the first card"]


def test_a_card_written_from_another_known_pack_swaps_with_the_dealt_top_card() -> None:
    """records/bataille-corse/deal-mismatch-other-pack.txt: Alice writes a card of Bob's
    known pack; the card her deal put on top takes its place there, so Chloe turning it
    later is a card Bob holds."""
    from referee.engine import check
    from referee.notation import parse_text

    (game,) = parse_text((RECORDS / "bataille-corse" / "deal-mismatch-other-pack.txt").read_text(encoding="utf-8"))
    assert [v.message for v in check(game).violations if v.code == "REC-DUPLICATE-CARD"] == \
        ["5H appears twice: it is already in Bob's cards"]


def test_an_untimed_slap_thirty_seconds_after_the_fault_is_past_the_ban(check_text) -> None:
    """« ne plus pouvoir gifler pendant 30 secondes »: 30 seconds after the fault, by the
    last time given, the ban is over: an untimed slap then draws no note."""
    text = head(Penalty="no-slap-30") + "21:00:00 Alice plays 5H\n21:00:01 Alice slaps\n21:00:31 Bob plays 5D\nAlice slaps\n"
    assert not check_text(text).notes
    assert check_text(text.replace("21:00:31", "21:00:30")).notes


def test_a_false_slap_during_a_payment_where_slaps_stand_names_the_top_four_cards(check_text) -> None:
    """[SlapDuringPayment "yes"]: a slap during a payment is judged on the pile; the pile
    showing no pair, the message names its top four cards, not that a payment is under way."""
    report = check_text(head(SlapDuringPayment="yes") + "Alice plays 2C\nBob plays 3C\nAlice plays 4C\nBob plays KH\n"
                        "Alice plays 5D\nBob slaps\n")
    assert [v.message for v in report.violations] == ["Bob slapped, but the pile shows no pair (top: 3C 4C KH 5D)"]


def test_mistakes_offer_the_second_card_of_a_pack_of_two() -> None:
    """The deal known, Bob's pack down to two cards: `simulate --mistakes` may still turn
    his second card instead of the top one (BC-DEAL-MISMATCH)."""
    offered = _offered(head() + f"Alice holds {' '.join(DECK[:50])}\nBob holds {' '.join(DECK[50:])}\nAlice plays 5S\n")
    assert offered[("Bob", "plays", DECK[51], None)] == ("BC-DEAL-MISMATCH",)


def test_mistakes_offer_one_card_too_many_from_a_pack_of_two() -> None:
    """Bob owes one card and holds two: `simulate --mistakes` may write both on his line
    (the second is BC-OVERPAID)."""
    alice = ["JS", *(c for c in DECK if c not in ("JS", "2D", "3D"))]
    offered = _offered(head() + f"Alice holds {' '.join(alice)}\nBob holds 2D 3D\nAlice plays JS\n")
    assert offered[("Bob", "plays", "2D 3D", None)] == ("BC-OVERPAID",)


def test_mistakes_give_a_player_with_no_cards_the_top_card_of_the_player_due() -> None:
    """Bob's pack is empty while Alice pays: a line that names Bob by mistake turns
    Alice's top card (BC-OUT-OF-TURN, BC-EMPTY-PACK)."""
    alice = ["2S", *(c for c in DECK if c not in ("2S", "KC"))]
    offered = _offered(head() + f"Alice holds {' '.join(alice)}\nBob holds KC\nAlice plays 2S\nBob plays KC\n")
    assert offered[("Bob", "plays", alice[1], None)] == ("BC-OUT-OF-TURN", "BC-EMPTY-PACK")


@pytest.mark.parametrize(("bob", "burns", "codes_offered"), [
    (["2D", "3D", "4D", "6D"], "2D 3D 4D 6D", ("BC-PENALTY-WRONG",)),  # the whole pack, one card too many
    (["2D", "3D"], "3D 2D", ("BC-DEAL-MISMATCH",)),                    # his two cards, in the wrong order
    (["2D"], None, None),                                              # one card: no wrong burn to offer
])
def test_mistakes_burn_a_short_pack_wrongly(bob: list[str], burns: str | None, codes_offered) -> None:
    """Bob owes a burn-3 penalty with four, two or one card left: `simulate --mistakes` may
    burn his whole pack of four, or his two cards in the wrong order; his one card, only right."""
    alice = ["5S", *(c for c in DECK if c not in ("5S", *bob))]
    offered = _offered(head() + f"Alice holds {' '.join(alice)}\nBob holds {' '.join(bob)}\nAlice plays 5S\nBob slaps\n")
    burned = {cards: codes for (player, verb, cards, _), codes in offered.items() if player == "Bob" and verb == "burns"}
    if burns is None:
        assert burned == {}
    else:
        assert burned[burns] == codes_offered


def test_mistakes_give_the_top_card_wrongly_or_the_second_card_to_the_next_player_owed() -> None:
    """[Penalty "give-1"]: Bob owes a card to Chloe, then to Alice. `simulate --mistakes` may
    give the second card instead of the top one to the first player owed (BC-DEAL-MISMATCH),
    or, once Chloe has hers, the top card to Chloe again (BC-PENALTY-WRONG)."""
    deck = [c for c in DECK if c != "5S"]
    alice, bob, chloe = ["5S", *deck[:17]], deck[17:34], deck[34:]
    text = head("Alice Bob Chloe", Penalty="give-1") + \
        f"Alice holds {' '.join(alice)}\nBob holds {' '.join(bob)}\nChloe holds {' '.join(chloe)}\nAlice plays 5S\nBob slaps\n"
    assert _offered(text)[("Bob", "gives", bob[1], "Chloe")] == ("BC-DEAL-MISMATCH",)
    offered = _offered(text + f"Bob gives {bob[0]} to Chloe\n")
    assert offered[("Bob", "gives", bob[1], "Chloe")] == ("BC-PENALTY-WRONG",)
    assert offered[("Bob", "gives", bob[2], "Alice")] == ("BC-DEAL-MISMATCH",)


def test_state_lists_the_payment_owed_before_the_penalty() -> None:
    """`referee state`'s « owed »: the cards of the payment under way first, then the
    penalty, whatever their order in the to-do list."""
    from referee.state import items, state_in_text

    text = head() + "Alice plays AH\nBob slaps\nAlice slaps\n"
    owed = [value for label, value in items(state_in_text(text, text.count("\n"))) if label == "owed"]
    assert owed == ["Bob pays 4 more cards to Alice", "Bob pays the penalty: slide three cards under the pile",
                    "Alice pays the penalty: slide three cards under the pile"]


@pytest.mark.parametrize(("players", "options", "body", "line", "ruled"), [
    ("Alice Bob", {}, "Alice plays 6S\nBob plays 6H\nAlice slaps\n", 5, "Alice's slap wins: the pile shows 6S 6H, a pair"),
    ("Alice Bob", {}, "Alice plays 6S\nBob plays 6H\nAlice slaps\nAlice collects\n", 6,
     "Alice already took the pile by the slap: writing it down is harmless"),
    ("Alice Bob", {}, "Alice plays 5H\nBob slaps\nBob burns\n", 5, "Bob pays the penalty: 3 cards slid under the pile"),
    ("Alice Bob Chloe", {"Penalty": "give-1"}, "Alice plays 5H\nBob slaps\nBob gives ?? to Chloe\n", 6,
     "Bob pays the penalty: a card to Chloe"),
])
def test_explain_rules_on_a_slap_a_collect_after_it_and_a_penalty_paid(tmp_path, players, options, body, line, ruled) -> None:
    """`referee explain FILE:LINE` says why a slap wins, why a collect after it is harmless,
    and what a penalty's burn or gift does."""
    from referee.cli.explain import explain_place

    path = tmp_path / "g.txt"
    path.write_text(head(players, **options) + body, encoding="utf-8")
    assert f"ruled: legal: {ruled}" in " ".join(" ".join(explain_place(str(path), line)).split())


def test_explain_rules_that_the_last_pile_is_the_winners(tmp_path) -> None:
    """records/bataille-corse/winner-takes-last-pile.txt: Alice's collect of the last pile
    is hers to take, the game won."""
    from referee.cli.explain import explain_place

    text = (RECORDS / "bataille-corse" / "winner-takes-last-pile.txt").read_text(encoding="utf-8")
    line = next(n for n, written in enumerate(text.splitlines(), 1) if "her last pile" in written)
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    assert "ruled: legal: Alice has won: the last pile is theirs" in " ".join(" ".join(explain_place(str(path), line)).split())


def test_state_says_play_goes_to_the_left() -> None:
    """« À tour de rôle »: the turn goes round to the left, in [Players] order; JSON says 1."""
    from referee.state import items, state_in_text, to_json

    text = head() + "Alice plays 5H\n"
    state = state_in_text(text, 3)
    assert ("direction", "to the left, in the players' order") in items(state)
    assert to_json(state)["table"]["direction"] == 1


def test_nothing_is_legal_once_the_game_is_won() -> None:
    """records/bataille-corse/winner-takes-last-pile.txt, its last pile taken: the game is
    over, and no event is legal any more (an empty list)."""
    from referee.engine import replay, start
    from referee.notation import parse_text

    text = (RECORDS / "bataille-corse" / "winner-takes-last-pile.txt").read_text(encoding="utf-8")
    kept = text.split("Alice collects  ; expect REC-AFTER-END")[0]
    (record,) = parse_text(kept)
    assert replay(start(record), record).legal() == []


def test_state_before_the_first_card_gives_a_pack_not_written_what_is_left_of_52() -> None:
    """Alice and Bob written with 27 cards each, before any card: Chloe, not written, is
    shown with what is left of the 52 cards, none."""
    from referee.state import items, state_in_text

    text = head("Alice Bob Chloe") + f"Alice holds {' '.join(DECK[:27])}\nBob holds {' '.join(DECK[25:])}\n"
    assert ("Chloe", "no cards") in items(state_in_text(text, text.count("\n")))


def test_explain_says_the_owner_who_just_leads_takes_the_pile_first(tmp_path) -> None:
    """The owner of the pile turns a card without writing the collect: explain says the
    pile is taken first, then the card turned in turn."""
    from referee.cli.explain import explain_place

    path = tmp_path / "g.txt"
    path.write_text(head() + "Alice plays JH\nBob plays 3C\nAlice plays 5D\n", encoding="utf-8")
    said = " ".join(" ".join(explain_place(str(path), 5)).split())
    assert "ruled: legal: Alice takes the pile they won, then leads; Alice turns 5D in turn" in said


def test_mistakes_give_the_second_card_of_a_pack_of_two() -> None:
    """[Penalty "give-1"], Bob's pack down to two cards: `simulate --mistakes` may still give
    his second card instead of the top one (BC-DEAL-MISMATCH)."""
    alice = ["5S", *(c for c in DECK if c not in ("5S", "2D", "3D"))]
    offered = _offered(head("Alice Bob", Penalty="give-1") + f"Alice holds {' '.join(alice)}\nBob holds 2D 3D\n"
                       "Alice plays 5S\nBob slaps\n")
    assert offered[("Bob", "gives", "3D", "Alice")] == ("BC-DEAL-MISMATCH",)
