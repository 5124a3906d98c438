"""Behaviours a mutation run found unpinned: each test fails on a mutant that changes it."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner

from referee.cli import main
from referee.notation import RecordError, read_games
from referee.state import state_in_text

HEAD = '[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n\n'


def test_round_zero_cannot_be_read() -> None:
    text = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n\n-- round 0\n'
    from referee.engine import check_games

    ((_, report),) = check_games(read_games("<r>", io.BytesIO(text.encode()), lazy=True))
    assert report.status == "error" and [e.line for e in report.errors] == [4]


def test_a_byte_that_is_not_utf8_late_in_a_file_keeps_the_games_before_it() -> None:
    raw = b'[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 5H\n\n' \
          b'[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 6H\nBob plays \xff7C\n'
    items = list(read_games("<r>", io.BytesIO(raw)))
    assert [type(i).__name__ for i in items] == ["Record", "Record", "RecordError"]
    assert isinstance(items[2], RecordError) and items[2].line == 8


def test_after_a_card_not_in_a_known_hand_which_card_left_it_is_unknown() -> None:
    state = state_in_text(HEAD + "Ann holds 7H 8H 9H 10S JS QS KD AD\nAnn plays 7S\n")
    ann = state.table.hands["Ann"]
    assert [v.code for v in state.violations] == ["TR-NOT-IN-HAND"]
    assert (ann.count, list(ann.known)) == (7, [])
    # so any of its cards may be the one that left: another player may play one of them
    state = state_in_text(HEAD + "Ann holds 7H 8H 9H 10H JH QH KH AH\nAnn plays 7S\nBen plays 7H\n")
    assert [v.code for v in state.violations] == ["TR-NOT-IN-HAND", "PQ-MUST-PICK-UP"]


def test_explain_a_line_that_follows_suit(tmp_path) -> None:
    path = tmp_path / "follow.txt"
    path.write_text(HEAD + "Ann plays 7H\nBen plays 8H\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", f"{path}:6"])
    assert result.exit_code == 0, result.output
    assert "legal" in result.output and "8H" in result.output and "heart" in result.output


def test_after_a_setup_error_the_unreadable_lines_later_in_the_game_are_still_told(tmp_path) -> None:
    path = tmp_path / "setup.txt"
    path.write_text(HEAD.replace('"Dom"]', '"Zed"]') + "Ann plays 7H\nBen plays 1\nCas plays ZZ\n\n"
                    + HEAD + "Ann plays 7H\n", encoding="utf-8")
    from referee.engine import check_games

    (_, first), (_, second) = check_games(read_games(str(path), lazy=True))
    assert first.status == "error" and (first.error.line, first.error.column) == (3, 1)
    assert [(e.line, e.column) for e in first.errors] == [(6, 11), (7, 11)] and first.error_count == 2
    assert second.status == "in-progress"  # the next game is read and checked
    result = CliRunner().invoke(main, ["check", "--format", "json", str(path)])
    unreadable = [report.get("unreadable") for report in json.loads(result.output)]
    assert unreadable[0]["count"] == 2 and [u["line"] for u in unreadable[0]["lines"]] == [6, 7]
    assert unreadable[1] is None


# --- tricks.py ------------------------------------------------------------------------
DEAL = ("Ann holds 7H 8H 9H 10H JH QH KH AH\nBen holds 7S 8S 9S 10S JS QS KS AS\n"
        "Cas holds 7D 8D 9D 10D JD QD KD AD\nDom holds 7C 8C 9C 10C JC QC KC AC\n")


def test_a_note_names_the_hands_not_given_and_only_them(check_text) -> None:
    assert check_text(HEAD + DEAL + "Ann plays 7H\n").notes == []
    (note,) = check_text(HEAD + DEAL.splitlines()[0] + "\nAnn plays 7H\n").notes
    assert note.startswith("the hands of Ben, Cas and Dom were not given")


def test_a_revoke_says_what_the_player_did_instead_of_following(check_text) -> None:
    deal = DEAL.replace("KH AH", "KH AS").replace("KS AS", "KS AH")  # Ben holds a heart
    played = check_text(HEAD + deal + "Ann plays 7H\nBen plays 7S\n").violations
    picked = check_text(HEAD + deal + "Ann plays 7H\nBen collects\n").violations
    assert [(v.code, v.message) for v in played] == [("TR-REVOKE", "Ben played 7S on 7H, but holds AH")]
    assert [(v.code, v.message) for v in picked] == [("TR-REVOKE", "Ben picked up the trick led with 7H, but holds AH")]


def test_explain_a_line_that_deals_a_hand(tmp_path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text(HEAD + DEAL, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", f"{path}:6"])
    assert result.exit_code == 0, result.output
    assert "Ben's hand as dealt: 8 cards" in result.output


def test_a_card_played_twice_says_where_it_already_is(check_text) -> None:
    text = HEAD + "Ann plays 7H\nBen plays 8H\nCas plays 9H\nDom plays 10H\nDom plays 7C\nAnn plays 7H\n"
    assert [v.message for v in check_text(text).violations] == ["7H appears twice: it is already played"]


# --- bataille_corse.py ----------------------------------------------------------------
def _explained(tmp_path, text: str, line: int) -> str:
    path = tmp_path / "record.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", f"{path}:{line}"])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_the_no_slap_30_ban_lasts_30_seconds(check_text) -> None:
    """« ne plus pouvoir gifler pendant 30 secondes »: a slap 29 s after the false slap is
    banned, one 30 s after it wins the pile. (A test rather than a record: the README's
    first command counts the records' codes.)"""
    text = ('[Game "bataille-corse"]\n[Players "Alice Bob"]\n[Penalty "no-slap-30"]\n\n'
            "21:00:00 Alice plays 3H\n21:00:05 Bob slaps\n21:00:20 Bob plays 4H\n21:00:33 Alice plays 4S\n"
            "21:00:34 Bob slaps\n21:00:35 Bob slaps\n21:00:36 Bob plays 5C\n")
    report = check_text(text)
    assert [(v.line, v.code) for v in report.violations] == [(6, "BC-FALSE-SLAP"), (9, "BC-SLAP-BANNED")]
    assert report.todo_words() == ["Alice turns the next card"]


def test_explain_a_payment_card_by_card_and_a_late_slap(tmp_path) -> None:
    text = ('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays QH\nBob plays 3C 4D\nAlice collects\n'
            "Alice plays 5H\nBob plays 5D\nBob slaps\nAlice slaps\n")
    assert "Bob pays 3C to Alice (1 still owed); Bob pays 4D, the last card owed: the pile is Alice's" \
        in _explained(tmp_path, text, 5)
    assert "Alice slaps a pile Bob already won by a slap, with no card between: a late hand, not a fault" \
        in _explained(tmp_path, text, 10)


# --- pierre_qui_roule.py --------------------------------------------------------------
def test_the_cards_picked_up_are_in_the_pickers_hand(check_text) -> None:
    text = HEAD + "Ann plays 7H\nBen collects\nBen plays 8S\nCas plays 7H\n"
    assert [v.message for v in check_text(text).violations] == ["7H appears twice: it is already in Ben's cards"]


def test_a_pick_up_by_the_player_due_who_holds_the_suit_led_is_a_mistake_to_simulate() -> None:
    from referee.engine import replay, start
    from referee.notation import parse_text

    deal = DEAL.replace("KH AH", "KH AS").replace("KS AS", "KS AH")  # Ben holds a heart
    (record,) = parse_text(HEAD + deal + "Ann plays 7H\n")
    rules = replay(start(record), record)
    assert sorted((m.event.player, m.codes) for m in rules.mistakes() if m.event.verb == "collects") == [
        ("Ann", ("PQ-WRONG-PICKUP",)), ("Ben", ("TR-REVOKE",)), ("Cas", ("PQ-WRONG-PICKUP",)), ("Dom", ("PQ-WRONG-PICKUP",))]


# --- flaschenteufel.py ----------------------------------------------------------------
FT = '[Game "flaschenteufel"]\n[Players "A B C D"]\n[Dealer "D"]\n\n'


def test_before_the_first_card_what_each_preparation_lacks_is_to_do(check_text) -> None:
    report = check_text(FT + "A discards ??\nA gives ?? to B\nB discards ??\n")
    assert report.todo_words() == ["A gives a card face down to D", "B gives a card face down to C and A",
                           "C puts a card face down into the devil's trick", "C gives a card face down to D and B",
                           "D puts a card face down into the devil's trick", "D gives a card face down to A and C"]


def test_a_player_who_has_prepared_takes_in_the_cards_given_to_them() -> None:
    ready_first = FT + "A discards ??\nA gives ?? to B\nA gives ?? to D\nB gives 5 to A\n"
    given_first = FT + "B gives 5 to A\nA discards ??\nA gives ?? to B\nA gives ?? to D\n"
    for text in (ready_first, given_first):  # 9 cards, one laid, two given, one taken in
        hand = state_in_text(text).table.hands["A"]
        assert (hand.count, [str(card) for card in hand.known]) == (7, ["5"])
    waiting = state_in_text(FT + "B gives 5 to A\nA discards ??\nA gives ?? to B\n").table.hands["A"]
    assert (waiting.count, waiting.known) == (7, [])  # A still owes D a card: the 5 waits


# --- caroleto.py ----------------------------------------------------------------------
def test_a_bid_too_low_names_the_bid_to_beat(check_text) -> None:
    text = ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\nBen takes ?? from Ann\n'
            "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays AH\nBen plays CS\n"
            "Cas plays CH\nDom plays CD\nBen bids 5H\nCas bids 4H\n")
    report = check_text(text)
    assert [v.message for v in report.violations] == ["4H is not higher than 5H: each bid beats the one before"]
    assert report.todo_words() == ["Dom bids on AH (above 5H, or a trump), or passes"]


# --- carte_et_plouc_calls.py ----------------------------------------------------------
CP = '[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Variants "{variant}"]\n[Starter "4H"]\n\n'


def _faults(check_text, text: str) -> list[tuple[int, str, str]]:
    return [(v.line, v.code, v.message) for v in check_text(text).violations]


def test_a_false_slap_names_the_top_of_the_discard(check_text) -> None:
    text = CP.format(variant="zero") + "Ana plays 2H\nBen plays 9H\nCas slaps\n"
    assert _faults(check_text, text) == [(8, "CP-FALSE-SLAP", "Cas slapped the discard, but no 2 has just been laid (top: 9H)")]


def test_a_swap_with_oneself_is_flagged_and_ends_the_swap_owed(check_text) -> None:
    head = CP.format(variant="zero") + "Ana plays 2H\nCas slaps\nCas swaps with Cas\n"
    assert _faults(check_text, head + "Ben plays 9H\n") == [(8, "CP-WRONG-SWAP", "Cas swapped with themselves")]
    assert _faults(check_text, head + "Cas swaps with Ana\n") == [
        (8, "CP-WRONG-SWAP", "Cas swapped with themselves"),
        (9, "CP-WRONG-SWAP", "Cas swapped hands, but only the first to slap a 2 swaps")]


def test_a_sanction_unpaid_quotes_the_rule_that_gave_it(check_text) -> None:
    text = CP.format(variant="mot-doux") + "Ana plays 9H\nCas swears\nBen plays 9C\nCas plays 5C\n"
    (unpaid,) = [v for v in check_text(text).violations if v.code == "CP-SANCTION-UNPAID"]
    assert unpaid.rule.startswith("La règle du mot doux")


# --- notation.py ----------------------------------------------------------------------
def test_the_cards_of_a_line_keep_their_text_as_written() -> None:
    from referee.notation import parse_text

    lines = "Ana plays 7H 8H\nBen plays 9h  9S\nCas plays 10H JH QH ; three\nAna plays 2H\n"
    (record,) = parse_text('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n\n' + lines)
    assert [(e.cards_text, e.cards_column) for e in record.events] == [
        ("7H 8H", 11), ("9h  9S", 11), ("10H JH QH", 11), ("2H", 11)]


def test_a_line_too_long_to_read_in_one_block_is_told_at_its_own_line() -> None:
    head = b'[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 5H\n'
    for length in (7_000, 100_000):  # within a block, and longer than a block can hold
        items = list(read_games("<r>", io.BytesIO(head + b"Bob plays " + b"7C " * length + b"\n")))
        assert [type(i).__name__ for i in items] == ["Record", "RecordError"]
        assert (items[1].line, items[1].column) == (5, 4097)


def test_a_control_character_is_told_at_its_line_and_column() -> None:
    from referee.engine import check_games

    raw = b'[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 5H\nBob plays 7C\nAlice plays 8\x07D\nBob plays 9C\n'
    for lazy in (False, True):
        ((_, report),) = check_games(read_games("<r>", io.BytesIO(raw), lazy=lazy))
        assert report.status == "error" and (report.error.line, report.error.column) == (6, 14)


# --- engine.py ------------------------------------------------------------------------
def test_statistics_count_a_file_that_cannot_be_read_as_one_unreadable(tmp_path) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes('[Game "bataille-corse"]\n'.encode("utf-16"))
    result = CliRunner().invoke(main, ["check", "--statistics", str(path)])
    assert result.output.split()[:2] == ["1", "unreadable"], result.output


def test_wide_encodings_without_a_byte_order_mark_and_a_leading_nul_are_told() -> None:
    text = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 5H\nBob plays 7C\n'
    expected = {"utf-16-le": "UTF-16 (little-endian, without a byte-order mark)",
                "utf-16-be": "UTF-16 (big-endian, without a byte-order mark)",
                "utf-32-le": "UTF-32 (little-endian, without a byte-order mark)"}
    for encoding, words in expected.items():
        (error,) = read_games("<r>", io.BytesIO(text.encode(encoding)))
        assert isinstance(error, RecordError) and words in error.message and (error.line, error.column) == (1, 1)
    (error,) = read_games("<r>", io.BytesIO(b"\0" + text.encode()))
    assert isinstance(error, RecordError) and "binary data (a NUL byte)" in error.message


def test_one_card_in_the_discard_is_still_a_card_to_draw(check_text) -> None:
    """Caroleto: no stock, and the discard holds only the card of Ann's exchange: its two
    draws are still owed when the round ends. (Not a record of records/: legal() offers
    no exchange when nothing can be drawn, where check lets the discard pass.)"""
    report = check_text('[Game "caroleto"]\n[Players "Ann Ben Cas"]\n[Cards "26"]\nBen says roi\nAnn discards 2C\n'
                        "Ben takes ?? from Ann\nCas takes ?? from Ben\nAnn takes ?? from Cas\n"
                        "Ann plays CD\nBen plays CS\nCas plays CH\n-- round 2\n")
    assert [(v.code, v.line) for v in report.violations] == [("CA-UNSETTLED", 12)]


# --- The replay stops following a game that the record no longer tells (engine.LOST_FAULTED) ---

def slaps(pattern: str) -> str:
    """A game of two where Bob slaps a pile that shows no pair, once per letter of
    ``pattern``: F a fault (with the penalty left unpaid from the one before), A a fault
    the table accepted (the first after an F still breaks a rule: the penalty unpaid)."""
    lines = ['[Game "bataille-corse"]', '[Players "Ann Bob"]', '[Result "Ann"]', '', "Ann plays 2H"]
    lines += ["Bob slaps" + (" ; accepted BC-FALSE-SLAP" if p == "A" else "") for p in pattern]
    return "\n".join(lines) + "\n"


def replayed(text: str) -> tuple[object, object]:
    from referee.engine import Found, finish, replay, start

    (record,) = read_games("<r>", io.BytesIO(text.encode()))
    rules = start(record)
    rules.violations = Found()
    replay(rules, record)
    return rules, finish(rules, record)


def test_the_replay_stops_following_a_game_at_the_30th_of_40_events_that_break_a_rule() -> None:
    """At the 30th faulted event in a row the game is given up: its faults so far stay,
    the events after it are counted (10 here, lines 36 to 45) and not checked, nor its
    [Result] (no REC-RESULT-MISMATCH), and nothing is left to do. One fewer, and the game
    is followed to its end, its [Result] checked."""
    rules, report = replayed(slaps("F" * 40))
    assert (rules.lost_at, rules.unchecked, rules.unchecked_last) == (35, 10, 45)
    assert max(v.line for v in report.violations) == 35 and "REC-RESULT-MISMATCH" not in {v.code for v in report.violations}
    assert report.notes[-1] == ("the replay stopped following the game at line 35: 30 of the last 40 events each broke a "
                                "rule, as when a line before them is missing or miscopied; 10 events after it (to line 45) "
                                "were not checked, nor the result")
    assert report.todo == [] and report.status == "violations"
    rules, report = replayed(slaps("F" * 29))
    assert rules.lost_at == 0 and "REC-RESULT-MISMATCH" in {v.code for v in report.violations}
    assert not any("stopped following" in n for n in report.notes)


def test_the_faults_that_stop_the_replay_are_counted_over_the_last_40_events_the_accepted_not_counted() -> None:
    """30 faulted events within 40 stop it, at the last (its last event: said so); spread
    over 41 they do not. A fault the table accepted is no sign that the record is lost."""
    rules, report = replayed(slaps("F" * 15 + "A" * 11 + "F" * 14))
    assert rules.lost_at == 45 and rules.unchecked == 0
    assert report.notes[-1].startswith("the replay stopped following the game at line 45, its last event: 30 of the last 40")
    assert replayed(slaps("F" * 15 + "A" * 12 + "F" * 14))[0].lost_at == 0
    assert replayed(slaps("A" * 60))[0].lost_at == 0
    assert state_in_text(slaps("A" * 60)).stopped == 0  # replayed into a list (state), accepted faults among them
    assert state_in_text(slaps("F" * 15 + "A" * 11 + "F" * 14)).stopped == 45


def test_a_game_given_up_is_the_same_in_the_live_record_replayed_from_checkpoints() -> None:
    """The live record replays a changed game from its last checkpoint: a game given up
    after a checkpoint, then written on, says what ``check`` says of it."""
    from referee.engine import check_games
    from referee.live import SNAPSHOT_EVERY, Replayer

    text = slaps("A" * 2 * SNAPSHOT_EVERY + "F" * 32)  # faults the table accepted, then a game lost: past two checkpoints
    live = Replayer("<r>")
    live.update(text)
    assert live.reports[-1][2].notes[-1].startswith(f"the replay stopped following the game at line {6 + 2 * SNAPSHOT_EVERY + 29}")
    for more in ("Bob slaps\n", "Ann plays 3H\nBob slaps\n"):
        text += more
        live.update(text)
        ((_, report),) = check_games(read_games("<r>", io.BytesIO(text.encode())))
        (_, _, kept) = live.reports[-1]
        assert (kept.notes, [(v.line, v.code) for v in kept.violations]) == \
            (report.notes, [(v.line, v.code) for v in report.violations])
        assert "stopped following the game" in kept.notes[-1]


def test_the_state_of_a_game_given_up_offers_no_move_and_asks_for_the_record_to_be_mended() -> None:
    """``state``, ``play`` and the table page show the table where the replay stopped:
    nothing is legal from it, and what is to do is to mend the record."""
    state = state_in_text(slaps("F" * 40))
    assert state.legal == [] and state.may == []
    assert state.todo == ["mend the record before line 35: the replay stopped following the game there (30 of the last "
                          "40 events broke a rule)"]
    assert state_in_text(slaps("F" * 29)).legal != []


def test_explain_says_a_line_after_the_game_was_given_up_was_not_ruled(tmp_path) -> None:
    path = tmp_path / "lost.txt"
    path.write_text(slaps("F" * 40), encoding="utf-8")
    after = " ".join(CliRunner().invoke(main, ["explain", f"{path}:40"]).output.split())
    assert "ruled: not checked: the replay stopped following the game at line 35, where 30 of the last 40" in after
    before = CliRunner().invoke(main, ["explain", f"{path}:5"]).output
    assert "not checked" not in before and "ruled:" in before


def test_play_offers_nothing_from_a_game_the_replay_stopped_following(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(slaps("F" * 40), encoding="utf-8")
    said = " ".join(CliRunner().invoke(main, ["play", str(path)], input="legal\n").output.split())
    assert "nothing: the replay stopped following the game at line 35; undo back to the slip, or mend the record" in said
    path.write_text(slaps("F" * 29), encoding="utf-8")
    assert "stopped following" not in CliRunner().invoke(main, ["play", str(path)], input="legal\n").output


def test_lines_after_the_end_of_a_game_never_stop_the_replay_and_its_result_is_checked() -> None:
    """Once a game has its winner, every line after it is REC-AFTER-END: as many as they
    are, the game was followed to its end, and its [Result] is checked against it."""
    from referee.simulate import simulate

    game = simulate("bataille-corse", 2, 3)
    (record,) = read_games("<r>", io.BytesIO(game.encode()))
    winner = record.tag("Result")
    loser = next(p for p in record.tag("Players").split() if p != winner)
    text = game.replace(f'[Result "{winner}"]', f'[Result "{loser}"]') + f"{winner} plays 2H\n" * 40
    rules, report = replayed(text)
    assert rules.lost_at == 0 and report.result.winner == winner
    assert [v.code for v in report.violations].count("REC-AFTER-END") == 40
    assert "REC-RESULT-MISMATCH" in {v.code for v in report.violations}
def test_a_file_that_cannot_be_read_is_told_it_cannot_be_checked_not_its_unreadable_lines() -> None:
    """A file the reader refuses whole (an unclosed header) has no lines read and none
    counted as unreadable: its report says it cannot be checked (the HTML status)."""
    from referee.engine import check_games
    from referee.html.game import status_text

    ((item, report),) = check_games(read_games("<r>", io.BytesIO(b'[Game "bataille-corse"\n')))
    assert isinstance(item, RecordError) and report.status == "error"
    assert (report.error_count, status_text(report)) == (0, "cannot be checked")


def test_a_report_states_the_winner_the_finishing_order_of_more_than_one_and_the_scores() -> None:
    """What the text, JSON and HTML reports say of a game's result: the winner, the
    finishing order when it names more than one player, the scores and what they count;
    nothing of a game that cannot be checked, nor of one in progress whose order names one
    player out (Bataille corse)."""
    from referee.engine import check_games

    from .conftest import RECORDS

    def said(path: str) -> list[list[str]]:
        return [[s.words() for s in report.result_said()] for _, report in check_games(read_games(str(RECORDS / path)))]

    assert said("flaschenteufel/card-outside-the-deck.txt") == [
        ["winner: B", "finishing order: B, C and A", "points: A 0, B 15, C 7"]]
    assert said("bataille-corse/finished-winner.txt") == [["winner: Alice", "finishing order: Alice and Bob"]]
    assert said("bataille-corse/empty-pack.txt") == [[]]  # Bob out, nobody won yet
    assert said("bad/unknown-game.txt") == [[]]


def test_found_keeps_the_first_few_of_each_code_counts_the_rest_and_the_faults_the_table_accepted() -> None:
    """engine.Found, where a game's violations go: each handed on as it comes, the first
    ``keep`` of each code kept (at least one) with the text of its line, the others only
    counted; every one counted, those the table did not accept as open."""
    from referee.engine import Found
    from referee.games.base import Violation
    from referee.messages import Said

    def fault(code: str, line: int, accepted: bool = False) -> Violation:
        return Violation(code, Said(code, {}), "", "Ann", line, 1, accepted)

    faults = [fault("A-X", 3), fault("A-X", 4, accepted=True), fault("B-Y", 4), fault("A-X", 5), fault("A-X", 6)]
    for keep, kept in ((None, faults), (2, faults[:3]), (1, faults[:1] + faults[2:3]), (0, faults[:1] + faults[2:3])):
        handed: list[Violation] = []
        found = Found(keep, handed.append)
        found.source_of = lambda line: None if line == 4 else f"line {line}"
        for violation in faults:
            found.append(violation)
        assert handed == faults and list(found) == kept and len(found) == 5
        assert (found.open, found.accepted) == (4, {(4, "A-X")})
        assert found.omitted() == ({} if keep is None else {"A-X": 4 - max(keep, 1)})
        assert found.sources == {v.line: f"line {v.line}" for v in kept if v.line != 4}
    found = Found()  # no text to take: none kept
    found.append(faults[0])
    assert list(found) == faults[:1] and found.sources == {}


def test_a_report_keeps_the_drinks_the_record_writes_round_by_round() -> None:
    """What the HTML report's drinks chart sets beside each round's drinks."""
    from referee.engine import check_games

    from .conftest import RECORDS

    reports = [report for _, report in check_games(read_games(str(RECORDS / "caroleto" / "drinks.txt")))]
    assert reports[0].drunk_rounds == {1: {"Ben": {"sips": 4}, "Cas": {"half": 1}, "Dom": {"sips": 3}}}


def _only_report(text: str, lazy: bool):
    from referee.engine import check_games

    return [report for _, report in check_games(read_games("<r>", io.BytesIO(text.encode()), lazy=lazy))][-1]


def test_a_game_without_a_game_header_is_told_at_its_first_header_read_whole_or_lazily() -> None:
    """No [Game]: the error points at the game's first header and quotes it; the lines
    after it that cannot be read are still told (a lazy read looks at the first batches
    for an event and keeps them). Headers alone after a game's events are told where
    headers go, at the first of them; a tag close to Game is named."""
    for lazy in (False, True):
        report = _only_report('[Players "Ann Ben"]\n[Event "x"]\nAnn plays 5H\nBen plays 7C\n' + "Ann frobs 8C\n" * lazy, lazy)
        assert report.error.message.startswith('this game has no [Game "..."] header; say which game')
        assert (report.error.line, report.error.column, report.error.source) == (1, 1, '[Players "Ann Ben"]')
        assert [e.line for e in report.errors] == [5] * lazy  # read whole, a line that cannot be read refuses the file
        report = _only_report('[Game "bataille-corse"]\n[Players "Ann Ben"]\nAnn plays 5H\n[Event "x"]\n[Result "*"]\n', lazy)
        assert "starts a new game, and this one has no [Game" in report.error.message and report.error.line == 4
        report = _only_report('[Gmae "bataille-corse"]\n[Players "Ann Ben"]\nAnn plays 5H\n', lazy)
        assert 'did you mean [Game "bataille-corse"] for [Gmae]?' in report.error.message
        report = _only_report('[Players "Ann Ben"]\n[Games "chess"]\nAnn plays 5H\n', lazy)
        assert 'did you mean [Game "..."] for [Games]?' in report.error.message and report.error.line == 2
    # read lazily, a game is looked at up to its first batch with an event, not past it: a
    # block of comments after it (a batch with no event) makes it no game of headers alone
    report = _only_report('[Players "Ann Ben"]\nAnn plays 5H\n' + "; a comment to fill a block of the file\n" * 2000, True)
    assert report.error.message.startswith('this game has no [Game "..."] header; say which game')


def test_an_event_the_game_does_not_have_is_named_as_written(check_text) -> None:
    """A round line in a game without rounds is named as it is written (« -- round »),
    a verb the game does not have by itself, and one naming a player it cannot by its
    preposition."""
    report = check_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 5H\n-- round 2\n'
                        "Bob drinks 3\nBob plays 6C on Alice\n")
    assert [v.message for v in report.violations] == [
        "Bataille corse has no '-- round' event; this line is not replayed",
        "Bataille corse has no 'drinks' event; this line is not replayed",
        "Bataille corse has no 'plays … on' event; this line is not replayed"]


def test_a_game_replayed_in_two_parts_keeps_the_card_outside_the_deck_waiting_between_them() -> None:
    """The live record replays a game from a checkpoint: a card outside the deck on the
    last line of one part is still waiting when the next part begins, and stands when
    the other player turns on, as in one replay of the whole (Bataille corse: it comes off
    Bob's pack onto the pile)."""
    from referee.engine import replay, start
    from referee.notation import parse_text

    head = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n\n'
    (whole,) = parse_text(head + "Alice plays 5H\nBob plays CC\nAlice plays 6C\n")
    (first,) = parse_text(head + "Alice plays 5H\nBob plays CC\n")
    (second,) = parse_text(head + "Alice plays 6C\n")
    once = replay(start(whole), whole)
    rules, held = start(whole), []
    replay(rules, first, held)
    assert [event.line for event, _ in held] == [5]
    replay(rules, second, held)
    assert held == [] and repr(rules.table()) == repr(once.table()) and rules.todo() == once.todo()
    assert [v.code for v in rules.violations] == [v.code for v in once.violations] == ["REC-NOT-IN-DECK"]


def test_scores_lines_past_those_kept_are_noted_once() -> None:
    from referee.engine import CLAIMS_KEPT

    claims = '[Game "pierre-qui-roule"]\n[Players "A B C D"]\n' + "A scores 3\n" * (CLAIMS_KEPT + 3)
    report = _only_report(claims, True)
    assert [n for n in report.notes if "were not checked" in n] == [
        f"the scores written from line {CLAIMS_KEPT + 3} on were not checked: a game checks its first {CLAIMS_KEPT}"]


def test_a_name_that_is_no_players_gets_the_player_it_may_mean(check_text) -> None:
    """REC-UNKNOWN-PLAYER's hint: the player whose name differs only by case or accents
    (however far apart the letters look), only by a look-alike letter (in the name written
    or in the player's), or by a letter or two; none for a name far from every player's."""
    head = '[Game "bataille-corse"]\n[Players "Noé Alice \u0410nn"]\n\nNoé plays 5H\n'

    def hint(line: str) -> str:
        (violation,) = [v for v in check_text(head + line).violations if v.code == "REC-UNKNOWN-PLAYER"]
        return violation.message.removeprefix(f"{line.split()[0]} is not one of the players: Noé, Alice and \u0410nn")

    assert hint("NOE plays 6H\n") == " (did you mean Noé?)"
    assert hint("Alcie plays 6H\n") == " (did you mean Alice?)"
    assert hint("Ann plays 6H\n") == " (did you mean \u0410nn, written with U+0410 CYRILLIC CAPITAL LETTER A?)"
    assert hint("\u0430lice plays 6H\n") == " (did you mean Alice? this name is written with U+0430 CYRILLIC SMALL LETTER A)"
    assert hint("Zed plays 6H\n") == ""


def test_an_unknown_game_names_the_games_referee_referees() -> None:
    """... and its report names the game as written (the JSON report's ``game``)."""
    report = _only_report('[Game "batalle-corse"]\n[Players "Ann Ben"]\nAnn plays 5H\n', False)
    assert (report.status, report.game) == ("error", "batalle-corse")
    assert report.error.message == ("unknown game 'batalle-corse' (did you mean 'bataille-corse'?); referee knows "
                                    "bataille-corse, carte-et-plouc, pierre-qui-roule, flaschenteufel and caroleto")


def test_a_result_written_or_an_event_after_the_end_names_the_game_s_outcome(check_text) -> None:
    """REC-AFTER-END and REC-RESULT-MISMATCH say what the replay found: the winner, a game
    over with no single winner (Caroleto), one in progress, or one that never ends (played
    out)."""
    from referee.engine import check_games

    from .conftest import RECORDS

    def said(path: str, play_out: bool = False) -> list[str]:
        return [v.message.split("(")[-1] if v.code == "REC-AFTER-END" else v.message.split(": ")[-1]
                for _, report in check_games(read_games(str(RECORDS / path)), play_out)
                for v in report.violations if v.code in ("REC-AFTER-END", "REC-RESULT-MISMATCH")]

    assert said("bataille-corse/after-end.txt") == ["winner: Alice); this event is not replayed"] * 2
    assert said("bataille-corse/result-unfinished.txt") == ["in progress"]
    assert said("caroleto/end.txt") == ["over, with no single winner",
                                        "over, with no single winner); this event is not replayed"]
    text = (RECORDS / "bataille-corse" / "playout-never-ends.txt").read_text(encoding="utf-8")
    report = check_text(text.replace('[Players "Alice Bob"]', '[Players "Alice Bob"]\n[Result "Alice"]'), play_out=True)
    assert [v.message for v in report.violations] == ['[Result "Alice"] disagrees with the replay: never ends']


def test_finish_refuses_rules_whose_violations_are_not_a_found() -> None:
    """finish() reads what Found keeps (the faults the table accepted, the lines' text):
    rules replayed into a plain list are a caller's mistake, told as such."""
    import pytest

    from referee.engine import finish, replay, start
    from referee.notation import parse_text

    (record,) = parse_text('[Game "bataille-corse"]\n[Players "Ann Ben"]\nAnn plays 5H\n')
    rules = replay(start(record), record)
    with pytest.raises(TypeError, match="must be a Found"):
        finish(rules, record)


def test_the_state_of_a_game_says_violations_unless_the_table_accepted_them() -> None:
    """``referee state``'s status: violations while one the table did not accept stands;
    else in progress, or valid once over."""
    from .conftest import RECORDS

    head = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 5H\n'
    assert state_in_text(head + "Alice plays 6H\n").status == "violations"
    assert state_in_text(head + "Alice plays 6H  ; accepted BC-OUT-OF-TURN\n").status == "in-progress"
    assert state_in_text((RECORDS / "bataille-corse" / "finished-winner.txt").read_text(encoding="utf-8")).status == "valid"


def test_a_match_s_faults_on_headers_quote_their_lines() -> None:
    """A match's faults are found once the game is replayed (on its headers): the report
    still holds the text of their lines, as of every fault's."""
    from referee.engine import check_games

    from .conftest import RECORDS

    reports = [r for _, r in check_games(read_games(str(RECORDS / "bataille-corse" / "match-hands.txt")))]
    (report,) = [r for r in reports if r.line == 40]
    assert [(v.line, v.code) for v in report.violations] == [
        (40, "REC-DEALER-ROTATION"), (42, "REC-ROUND-ORDER"), (43, "REC-TOTALS-MISMATCH")]
    assert {line: text.split(";")[0].strip() for line, text in report.sources.items()} == {
        40: '[Dealer "Bob"]', 42: '[Round "3"]', 43: '[Totals "Alice 1, Bob 1"]'}


def test_a_game_s_error_is_its_first_line_that_cannot_be_read() -> None:
    report = _only_report('[Game "bataille-corse"]\n[Players "Ann Ben"]\nAnn plays 5H\nBen frobs 6H\n'
                          "Ann frobs 7H\n", True)
    assert report.status == "error" and [e.line for e in report.errors] == [4, 5] and report.error.line == 4


def test_a_written_result_names_the_winner_or_the_finishing_order_from_the_winner_on() -> None:
    """[Result] with one name is the winner, not the first player out of a game going on
    (Bataille corse's order names who is out); with several, the finishing order, and a
    wrong one is told the order the replay found."""
    from .conftest import RECORDS

    def faults(path: str, written: str) -> list[str]:
        text = (RECORDS / path).read_text(encoding="utf-8").replace("; expect", ";").replace('[Result "Alice"]\n', "")
        text = text.replace('[Game "bataille-corse"]', f'[Game "bataille-corse"]\n[Result "{written}"]', 1)
        return [v.message for v in _only_report(text.split("\n\n[Game")[0], False).violations
                if v.code == "REC-RESULT-MISMATCH"]

    assert faults("bataille-corse/empty-pack.txt", "Bob") == ['[Result "Bob"] disagrees with the replay: in progress']
    assert faults("bataille-corse/finished-winner.txt", "Alice, Bob") == []
    assert faults("bataille-corse/finished-winner.txt", "Bob Alice") == [
        '[Result "Bob Alice"] disagrees with the replay: finishing order: Alice and Bob']


def test_a_score_written_wrong_is_told_the_replay_s_count_and_how_it_counts() -> None:
    """REC-SCORE-MISMATCH: the score as written, the replay's and why (Flaschenteufel); a
    game that keeps no score with its options says so (Pierre qui Roule, first out)."""
    from referee.engine import check_games

    from .conftest import RECORDS

    def told(path: str) -> list[str]:
        return [v.message for _, report in check_games(read_games(str(RECORDS / path)))
                for v in report.violations if v.code == "REC-SCORE-MISMATCH"]

    assert told("flaschenteufel/card-points.txt") == [
        "B scores 22, but the replay counts 24: the points of the cards in the tricks B took (3 tricks); the bottle, "
        "which scores minus the devil's trick, ends with C"]
    assert told("pierre-qui-roule/first-out.txt") == [
        f"{p} scores {n}, but the replay counts no score: the game, with these options, keeps none" for p, n in (("Ben", 0), ("Ann", 7))]


def test_a_fault_early_in_a_long_game_read_lazily_keeps_the_text_of_its_line() -> None:
    """A game read a block at a time keeps only its latest blocks' lines: the text of a
    faulty line is taken when it is flagged, so the report still quotes it at the end."""
    text = ('[Game "bataille-corse"]\n[Players "Ann Ben"]\nAnn plays 5H\nAnn plays 6H\n'
            + "; a comment to fill the blocks of the file\n" * 10_000)
    report = _only_report(text, True)
    assert [(v.line, v.code) for v in report.violations] == [(4, "BC-OUT-OF-TURN")]
    assert report.sources == {4: "Ann plays 6H"}


def test_the_configured_options_of_a_game_apply_to_each_game_checked() -> None:
    """check_games' ``prepare`` (``referee standings`` gives each record its game's
    configured options): a pair slapped is no fault, a sandwich a false slap unless the
    configuration adds sandwiches."""
    from referee.config import add_defaults
    from referee.engine import check_games

    game = '[Game "bataille-corse"]\n[Players "Ann Ben"]\n\nAnn plays 5H\nBen plays 7C\nAnn plays 5S\nBen slaps\n'
    for games, codes in ((None, ["BC-FALSE-SLAP"]), ({"bataille-corse": {"Slaps": "pair sandwich"}}, [])):
        prepare = (lambda record, games=games: add_defaults(record, games)) if games else None
        reports = [r for _, r in check_games(read_games("<r>", io.BytesIO((game + "\n" + game).encode())), prepare=prepare)]
        assert [[v.code for v in r.violations] for r in reports] == [codes, codes]


def test_a_mark_is_settled_against_its_line_s_faults_those_kept_or_only_counted_and_past_the_marks_kept() -> None:
    """Each ``; accepted`` mark is settled against the faults of its line: at the end, by
    ``check`` (every fault counted, even those of a code the Found keeps one of); past
    MARKS_KEPT marks, the oldest at once during the replay, also into a plain list (as
    ``referee state`` replays). A mark whose fault was flagged is not stale; one on a line
    without it is."""
    from referee.engine import MARKS_KEPT, Found, check, replay, start
    from referee.notation import parse_text

    head = '[Game "bataille-corse"]\n[Players "Ann Ben"]\n\nAnn plays 5H\nBen slaps  ; accepted BC-OUT-OF-TURN\n'

    def stale(violations) -> list[tuple[int, str]]:
        return [(v.line, v.fields["mark"]) for v in violations if v.code == "REC-STALE-ACCEPTED"]

    (record,) = parse_text(head + "Ben slaps  ; accepted BC-FALSE-SLAP\n" * 2)
    assert stale(check(record, found=Found(1)).violations) == [(5, "BC-OUT-OF-TURN")]
    (record,) = parse_text(head + "Ben slaps  ; accepted BC-FALSE-SLAP\n" * (MARKS_KEPT + 2))
    rules = start(record)  # its violations a list
    replay(rules, record)
    assert stale(rules.violations) == [(5, "BC-OUT-OF-TURN")]  # settled during the replay
