"""``simulate --mistakes``: legal games with real table mistakes, each line marked with the
codes the referee must report there (``Rules.mistakes``, the game's own statement of what
each mistake breaks).

Recall (the marked codes the report gives at their line) and precision (the reported codes
that were marked there) must both be 100%. The long run is bench/mistakes.py."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from referee.cli import main
from referee.engine import check, replay, start
from referee.games.base import Mistake, Rules
from referee.notation import parse_text
from referee.record import Event
from referee.simulate import SimulationError, marked, reported, rules_class, simulable_games, simulate

from .test_properties import fuzz_settings
from .expectations import expectations

SIMULATED = simulable_games()
RATES = (0.03, 0.1, 0.3)


def scored(game: str, players: int, seed: int, hidden: bool, rate: float) -> tuple[Counter, Counter]:
    """The codes a simulated record marks and those its report gives, by (line, code)."""
    (record,) = parse_text(simulate(game, players, seed, hidden=hidden, max_events=1500, mistakes=rate))
    return marked(record), reported(check(record))


def cases(count: int):
    """count records per game, going round the player counts, the rates and the hidden deal."""
    for game in SIMULATED:
        cls = rules_class(game)
        for seed in range(count):
            players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
            yield game, players, seed, seed % 5 == 4, RATES[seed % len(RATES)]


@pytest.mark.parametrize("game", SIMULATED)
def test_recall_and_precision_are_complete(game):
    """On 250 records: every marked code reported at its line, every reported code marked,
    and every code a table can commit in the game reached."""
    want, got = Counter(), Counter()
    for case in cases(250):
        if case[0] != game:
            continue
        w, g = scored(*case)
        assert g == w, (case, sorted((w - g).elements())[:5], sorted((g - w).elements())[:5])
        want += Counter(code for (_, code), n in w.items() for _ in range(n))
        got += Counter(code for (_, code), n in g.items() for _ in range(n))
    assert want == got
    unreached = [c for c in rules_class(game).mistake_codes if not want[c]]
    assert not unreached


@fuzz_settings(60)
@given(st.sampled_from(SIMULATED), st.integers(0, 10**6), st.booleans(), st.sampled_from(RATES))
def test_any_seed_is_marked_as_reported(game, seed, hidden, rate):
    cls = rules_class(game)
    players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
    want, got = scored(game, players, seed, hidden, rate)
    assert got == want, (game, players, seed, hidden, rate)


def test_a_card_outside_the_deck_on_the_last_line_does_not_stand():
    """The simulator lets such a card stand at once, but the referee only when the next
    players play on: a record that ends on one (here, a card that leaves Gaëlle alone with
    cards) is in progress, and gets no [Result]."""
    text = simulate("bataille-corse", 3, 1157, mistakes=0.3)
    (record,) = parse_text(text)
    assert record.events[-1].comment.endswith("REC-NOT-IN-DECK") and record.header("Result") is None
    assert marked(record) == reported(check(record))


@pytest.mark.parametrize("case", [
    ("carte-et-plouc", 6, 5084, True, 0.3),  # a 3 of clubs laid on a hand known to hold the ace taken back
    ("carte-et-plouc", 8, 5094, True, 0.3),  # a 3 of clubs seen in another hand (taken back): a card seen twice
])
def test_records_bench_mistakes_found_wrong(case):
    """Hands nobody sees but a forbidden last card taken back, which stays known: the
    simulator leaves out the mistakes whose codes then depend on what the referee knows."""
    want, got = scored(*case)
    assert got == want


@pytest.mark.parametrize("game", SIMULATED)
def test_every_game_declares_its_mistakes(game):
    cls = rules_class(game)
    assert cls.mistake_codes, f"{game} declares no mistake_codes"
    assert cls.mistakes is not Rules.mistakes, f"{game} does not say which mistakes a table makes"
    assert set(cls.mistake_codes) <= set(cls.CODES)


def test_the_marks_read_as_in_records():
    """The simulator marks a line the way records/ do: test_records reads the same codes."""
    text = simulate("bataille-corse", 3, 7, mistakes=0.2)
    (expected,) = expectations(text)
    (record,) = parse_text(text)
    assert expected["codes"] == marked(record) and marked(record)


def test_no_mistakes_is_the_legal_record():
    for seed in range(5):
        assert simulate("bataille-corse", 2 + seed % 4, seed, mistakes=0.0) == simulate("bataille-corse", 2 + seed % 4, seed)
        assert "; expect" not in simulate("bataille-corse", 3, seed)


def test_same_seed_same_mistakes():
    for seed in range(3):
        assert simulate("bataille-corse", 4, seed, mistakes=0.1) == simulate("bataille-corse", 4, seed, mistakes=0.1)
    assert simulate("bataille-corse", 4, 1, mistakes=0.1) != simulate("bataille-corse", 4, 1)


def test_penalties_are_paid_or_left_unpaid():
    """After a fault the table pays the penalty, or leaves it unpaid on purpose."""
    paid = unpaid = 0
    for seed in range(40):
        (record,) = parse_text(simulate("bataille-corse", 3, seed, {"Penalty": "burn-3"}, mistakes=0.1, max_events=800))
        paid += sum(e.verb == "burns" and not e.comment for e in record.events)
        unpaid += sum("BC-PENALTY-UNPAID" in (e.comment or "") for e in record.events)
    assert paid > 20 and unpaid > 5, (paid, unpaid)


@pytest.mark.parametrize("rate", [-0.1, 1.5])
def test_a_rate_is_a_chance(rate):
    with pytest.raises(SimulationError, match="from 0 to 1"):
        simulate("bataille-corse", 2, 0, mistakes=rate)
    result = CliRunner().invoke(main, ["simulate", "bataille-corse", "-n", "2", "--mistakes", str(rate)])
    assert result.exit_code == 2 and "from 0 to 1" in result.stderr and result.stdout == ""


def test_cli_mistakes():
    result = CliRunner().invoke(main, ["simulate", "bataille-corse", "-n", "3", "--seed", "4", "--count", "2", "--mistakes", "0.1"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "\n".join(simulate("bataille-corse", 3, s, mistakes=0.1) for s in (4, 5))
    records = parse_text(result.stdout)
    assert len(records) == 2 and all(marked(r) == reported(check(r)) and marked(r) for r in records)


# --- What Bataille corse says of a situation --------------------------------------------------

EMPTY_TURN = """[Game "bataille-corse"]
[Players "Alice Bob Chloe Dan Eve"]

Alice plays AS
Bob plays 2C 3C 4C 5C
Alice collects
Alice plays AH
Bob plays 6C 7C 8C 9C
Alice collects
Alice plays JS
Bob plays 10C
Alice collects
Alice plays 4D
Bob slaps
Bob burns 3
"""
"""Bob's turn, and he has just burned his last cards: he is out at the next event other
than a slap; until then a slap of his is his own (false) slap, not one by a player out."""


def rules_after(text: str):
    (record,) = parse_text(text)
    return replay(start(record), record)


def test_asking_what_may_happen_changes_nothing():
    rules = rules_after(EMPTY_TURN)
    assert {(e.player, e.verb) for e in rules.legal()} == {("Chloe", "plays")}  # any card that may be on top
    offered = {(m.event.player, m.event.verb): m.codes for m in rules.mistakes()}
    assert offered[("Bob", "slaps")] == ("BC-FALSE-SLAP",)
    assert offered[("Chloe", "collects")] == ("BC-NOT-WON",)
    rules.apply(Event("Bob", "slaps", 99, 1))
    assert rules.violations[-1].code == "BC-FALSE-SLAP"
    assert check(parse_text(EMPTY_TURN + "Bob slaps\n")[0]).violations[-1].code == "BC-FALSE-SLAP"


def test_a_card_outside_the_deck_after_an_empty_turn_stands():
    """Bob is out at the next event other than a slap: Chloe's card outside the deck is
    that event, laid in turn, as the replay lays it once Dan plays on (the simulator lays
    it at once, without asking ``over`` first)."""
    stray = parse_text(EMPTY_TURN + "Chloe plays T5\n")[0].events[-1]
    rules = rules_after(EMPTY_TURN)
    pile = len(rules.pile)
    rules.lay_stray(stray, 0)
    assert len(rules.pile) == pile + 1 and rules.players[rules.turn] == "Dan"
    (record,) = parse_text(EMPTY_TURN + "Chloe plays T5\nDan plays 9D\n")
    after = EMPTY_TURN.count("\n")
    assert [(v.line - after, v.code) for v in check(record).violations if v.line > after] == [(1, "REC-NOT-IN-DECK")]


def test_a_penalty_owed_shapes_the_mistakes():
    """Bob owes two cards (his false slap, two cards left): his own card or slap leaves the
    penalty unpaid, a burn of one card is the wrong penalty; the others turn out of turn."""
    rules = rules_after(EMPTY_TURN.replace("Bob burns 3\n", ""))
    offered = {(m.event.player, m.event.verb, m.event.cards_text): m for m in rules.mistakes()}
    assert offered[("Bob", "plays", "??")] == Mistake(offered[("Bob", "plays", "??")].event, ("BC-PENALTY-UNPAID",), True)
    assert offered[("Bob", "slaps", "")].codes == ("BC-PENALTY-UNPAID", "BC-FALSE-SLAP")
    assert offered[("Bob", "burns", "??")].codes == ("BC-PENALTY-WRONG",)
    assert ("Bob", "burns", "?? ??") not in offered
    assert offered[("Chloe", "plays", "??")].codes == ("BC-OUT-OF-TURN",)
    assert offered[("Chloe", "collects", "")].codes == ("BC-NOT-WON",)
    assert all(not m.follow_on for key, m in offered.items() if key != ("Bob", "plays", "??"))


def test_a_penalty_card_given_to_a_player_gone_out():
    """[Penalty "give-1"]: C's false slap owes a card to A and to B, whose turn has come
    with an empty pack; at C's next event B is out. The simulator offers a card given to B
    as BC-GIVE-TO-OUT (and only to A as the payment), and the referee says the same."""
    from .test_bataille_corse import GIVE_1_BOB_EMPTY

    rules = rules_after(GIVE_1_BOB_EMPTY)
    offered = {(m.event.player, m.event.verb, m.event.target): m.codes for m in rules.mistakes()}
    assert offered[("C", "gives", "B")] == ("BC-GIVE-TO-OUT",)
    assert {(e.verb, e.target) for e in rules.legal() if e.player == "C"} == {("gives", "A")}
    gift = next(m.event for m in rules.mistakes() if (m.event.verb, m.event.target) == ("gives", "B"))
    rules.apply(gift.replace(line=99, column=1))
    assert [v.code for v in rules.violations][-1] == "BC-GIVE-TO-OUT"
    assert [str(t) for t in rules.todo()] == ["C pays the penalty: give a card to A", "C turns the next card"]


def test_simulate_gives_a_penalty_card_to_a_player_gone_out():
    """Some simulated records make the mistake, and each is reported where it is marked."""
    found = 0
    for seed in range(60):
        text = simulate("bataille-corse", 3 + seed % 3, seed, {"Penalty": "give-1"}, mistakes=0.3, max_events=600)
        if "BC-GIVE-TO-OUT" in text:
            (record,) = parse_text(text)
            assert marked(record) == reported(check(record)), seed
            found += 1
    assert found
