"""The notation: card spellings, events, comments, and syntax errors in player terms."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import CAVALIER, EXCUSE_CARD, KING, NUMBERED, QUEEN, TRUMP, UNSEEN_CARD, Card, read_card
from referee.convert.export import record_to_text
from referee.notation import WORD_VERBS, RecordError, parse_text, read_suit
from referee.record import Record

HEAD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n'


@pytest.mark.parametrize(
    ("spelling", "card"),
    [
        ("7H", Card(7, "H")), ("10♥", Card(10, "H")), ("10h", Card(10, "H")), ("♠6", Card(6, "S")),
        ("6♤", Card(6, "S")), ("10♥\ufe0f", Card(10, "H")), ("QS", Card(QUEEN, "S")), ("DS", Card(QUEEN, "S")),
        ("KD", Card(KING, "D")), ("RD", Card(KING, "D")), ("VC", Card(11, "C")), ("AS", Card(1, "S")),
        ("1S", Card(1, "S")), ("DC", Card(QUEEN, "C")), ("CD", Card(CAVALIER, "D")), ("T21", Card(21, TRUMP)),
        ("t1", Card(1, TRUMP)), ("EX", EXCUSE_CARD), ("??", UNSEEN_CARD),
    ],
)
def test_card_spellings(spelling: str, card: Card) -> None:
    assert read_card(spelling) == card


@pytest.mark.parametrize("spelling", ["11H", "0S", "T22", "T0", "HQ", "7X", "", "10"])
def test_not_cards(spelling: str) -> None:
    assert read_card(spelling) is None


def test_canonical_spelling() -> None:
    assert [str(read_card(s)) for s in ("10♥", "DS", "rd", "♣V", "cc", "t7", "ex", "??")] == [
        "10H", "QS", "KD", "JC", "CC", "T7", "EX", "??"]


def test_event_fields() -> None:
    (record,) = parse_text(HEAD + "12. 21:04:05 Alice plays 10♥ ♠6 on Bob ; note\n")
    (event,) = record.events
    assert (event.move, event.time, event.player, event.verb, event.target, event.comment) == (
        "12.", "21:04:05", "Alice", "plays", "Bob", "; note")
    assert [str(c) for c in event.cards] == ["10H", "6S"]
    assert (event.line, event.column) == (3, 14)
    assert [event.card_column(0), event.card_column(1)] == [26, 30]
    assert event.seconds == 21 * 3600 + 4 * 60 + 5


def test_counts_of_unseen_cards() -> None:
    (record,) = parse_text(HEAD + "Alice burns 3\nBob gives ?? to Alice\n")
    assert record.events[0].cards == (UNSEEN_CARD,) * 3
    assert record.events[1].cards == (UNSEEN_CARD,)


def test_flaschenteufel_numbers_are_cards() -> None:
    (record,) = parse_text('[Game "flaschenteufel"]\n[Players "A B C"]\nA plays 24\n')
    assert str(record.events[0].cards[0]) == "24"


def test_every_verb_parses() -> None:
    lines = ["Alice holds 7H 8H", "Alice plays 5S on Bob", "Alice draws", "Alice draws 2", "Alice slaps",
             "Alice collects", "Alice burns 2C 8D 5S", "Alice gives QS to Bob", "Alice takes ?? from Bob",
             "Alice takes from Bob", "Alice discards 3C", "Alice swaps with Bob", "Alice passes",
             "Alice says carte", "Alice swears", "Alice drinks 3", "Alice drinks half", "Alice beats Bob",
             "Alice refuses", "Alice votes pourri"]
    (record,) = parse_text(HEAD + "\n".join(lines) + "\n")
    assert [e.verb for e in record.events] == [line.split()[1] for line in lines]


def test_a_player_named_after_a_verb_is_read_as_the_player() -> None:
    """A name is any word, a verb's too: the verb is the second word, never the name."""
    (record,) = parse_text(HEAD + "holds discards 10♥ 7H\nplays swaps with Bob\n")
    assert [(e.player, e.verb) for e in record.events] == [("holds", "discards"), ("plays", "swaps")]


def test_a_round_marker_is_placed_at_its_dashes() -> None:
    (record,) = parse_text(HEAD + "\t--  round 2 ; two\n  -- round\n")
    assert [(e.verb, e.line, e.column, e.word, e.comment) for e in record.events] == [
        ("round", 3, 2, "2", "; two"), ("round", 4, 3, None, None)]


def test_the_cards_as_written_keep_a_suit_symbol_with_its_emoji_selector() -> None:
    """The written cards (what a message quotes) run to the end of the last one, however
    long it is beside the first (10♥ and its selector U+FE0F: 4 characters after 2H)."""
    (record,) = parse_text(HEAD + "Alice plays 2H 10♥\ufe0f\n")
    (event,) = record.events
    assert (event.cards_text, event.cards_column) == ("2H 10♥\ufe0f", 13)
    assert event.cards == (Card(2, "H"), Card(10, "H"))


def test_games_and_line_numbers_in_a_file() -> None:
    text = "; round 1\n" + HEAD + "Alice plays 3H\n\n; round 2\n" + HEAD + "\nBob plays 4C\n"
    first, second = parse_text(text)
    assert (first.line, first.events[0].line) == (2, 4)
    assert (second.line, second.events[0].line) == (7, 10)
    assert second.comments[0].text == "; round 2"


def test_crlf_and_bom() -> None:
    (record,) = parse_text("\ufeff" + (HEAD + "Alice plays 3H ; x\n").replace("\n", "\r\n"))
    assert record.events[0].comment == "; x"
    assert record.events[0].cards == (Card(3, "H"),)


def test_comments_survive_text_export() -> None:
    text = "; before\n" + HEAD + "; between\nAlice plays 3H ; after\n; end\n"
    (record,) = parse_text(text)
    again = record_to_text(record)
    for comment in ("; before", "; between", "; after", "; end"):
        assert comment in again
    (reparsed,) = parse_text(again)
    assert [(c.text) for c in reparsed.comments] == [c.text for c in record.comments]
    assert [(e.player, e.verb, e.cards) for e in reparsed.events] == [(e.player, e.verb, e.cards) for e in record.events]


# The common mistakes, each with where the error must point and what it must say.
MISTAKES = [
    (HEAD + "Alice plays 11H\n", (3, 13), "expected a card such as 7H or 10♥, got '11H'"),
    (HEAD + "Alice plays 3H4C\n", (3, 13), "put a space between cards: '3H 4C'"),
    (HEAD + "Alice plays 3H 1O\n", (3, 16), "got '1O'"),
    (HEAD + "Alice play 3H\n", (3, 7), "unknown action 'play' (did you mean 'plays'?)"),
    (HEAD + "Alice plays\n", (3, 12), "expected a card after 'plays'"),
    (HEAD + "plays 3H\n", (3, 1), "start the line with the player's name"),
    (HEAD + "Alice gives 3H Bob\n", (3, 16), "expected 'to'"),
    (HEAD + "Alice plays 7\n", (3, 13), "'7' is not a card in this game"),
    ('[Game bataille-corse]\n', (1, 7), 'a header value goes in double quotes: [Game "bataille-corse"]'),
    ('[Game "bataille-corse"\n', (1, 23), "this header is not closed"),
    ("Alice plays 3H\n", (1, 1), "a game starts with its headers"),
    ("; nothing but a comment\n\n", (1, 1), "no game here"),
    ('[Game "flaschenteufel"]\n[Players "A B C"]\nA plays 19\n', (3, 9), "not a Flaschenteufel card"),
    (HEAD + "Alice plays 3H @\n", (3, 16), "unexpected '@'"),
    (HEAD + "Alice drinks\n", (3, 13), "a number of gorgées"),
    (HEAD + "Alice draws 3 100000000000\n", (3, 15), "more than any deck holds"),
    (HEAD + "Alice plays 24\n", (3, 13), "'24' is not a card in this game: a card has a rank and a suit, such as 7H"),
    ('[Game"flaschenteufel"]\n[Players "A B C"]\nA plays 19\n', (3, 9), "not a Flaschenteufel card"),
    (HEAD + "21:4 Alice plays 3H\n", (3, 1), "expected a time such as 21:04"),
    (HEAD + "12 Alice plays 3H\n", (3, 1), "a move number ends with a dot: '12.'"),
    (HEAD + "Alice scores 1234567890123\n", (3, 14), "12345678901… has more than 9 digits"),
    (HEAD + "Alice scores -0001234567890\n", (3, 14), "-0001234567… has more than 9 digits"),
    (HEAD + "-- round 0\n", (3, 10), "a round is numbered from 1: -- round 2, not '0'"),
    (HEAD + "  -- round 1234567890123\n", (3, 12), "12345678901… has more than 9 digits"),
]


@pytest.mark.parametrize("text", ["", " \n\n\t\n"])
def test_an_empty_file_is_said_so_of_the_whole_file(text: str) -> None:
    """Nothing but white space: an error of the file (line 0), not "no game here" at 1:1."""
    (error,) = parse_text(text)
    assert isinstance(error, RecordError) and (error.line, error.column) == (0, 0) and error.empty
    assert str(error) == '<text>: an empty file: a record starts with headers such as [Game "bataille-corse"]'


@pytest.mark.parametrize(("text", "where", "message"), MISTAKES)
def test_syntax_errors(text: str, where: tuple[int, int], message: str) -> None:
    errors = [g for g in parse_text(text) if isinstance(g, RecordError)]
    assert errors, "expected an error"
    error = errors[0]
    assert (error.line, error.column) == where, str(error)
    assert message in error.message
    shown = str(error)
    assert shown.startswith(f"<text>:{where[0]}:{where[1]}: ")
    if error.source:
        assert shown.endswith("^")


def test_a_bad_game_does_not_hide_the_next() -> None:
    text = HEAD + "Alice plays 11H\n" + HEAD + "Alice plays 3H\n"
    bad, good = parse_text(text)
    assert isinstance(bad, RecordError) and bad.line == 3
    assert good.events[0].line == 6


@pytest.mark.parametrize(
    "data",
    [b"\xff\xfe\x00A", b"[Game \"bataille-corse\"]\n\xe9\n", b"\x00\x01\x02", b"[" * 10000, b"A" * 100000],
)
def test_bytes_never_crash(data: bytes) -> None:
    import io

    from referee.notation import read_games

    items = list(read_games("x.txt", io.BytesIO(data)))
    assert items and all(isinstance(i, RecordError) for i in items)
    assert all(i.line >= 1 and i.message for i in items)


@pytest.mark.parametrize(("number", "message"), [
    ("0", "'0' is not a card in this game: a card has a rank and a suit, such as 7H or 10♥"),
    ("1", "'1' is not a card in this game: a card has a suit, such as 1H or 1♥"),
    ("10", "'10' is not a card in this game: a card has a suit, such as 10H or 10♥"),
    ("11", "'11' is not a card in this game: a card has a rank and a suit, such as 7H or 10♥"),
])
def test_a_number_played_as_a_card_is_told_its_missing_suit_from_1_to_10(number: str, message: str) -> None:
    (error,) = parse_text(HEAD + f"Alice plays {number}\n")
    assert isinstance(error, RecordError) and (error.line, error.column, error.message) == (3, 13, message)


# --- Reading a file in blocks ------------------------------------------------------------
# notation reads a file 65,536 bytes at a time (BLOCK); a line is judged too long when it
# is whole in what was read, or when over 4 × 4,096 characters of it wait for the next block.

def _read(data: bytes) -> list:
    """Each game's events (player, verb, line) and comments, or each error's place and message."""
    from referee.notation import read_games

    return [(error.line, error.column, error.message) if isinstance(error := item, RecordError) else
            ([(e.player, e.verb, e.line) for e in item.events], [c.text for c in item.comments])
            for item in read_games("x.txt", io.BytesIO(data))]


def _comments(size: int, end: str = "\n") -> str:
    """Comment lines of exactly ``size`` characters (a blank line for a last odd one)."""
    lines = [";" + "x" * (999 - len(end)) + end] * (size // 1000)
    rest = size % 1000
    lines.append(";" + "x" * (rest - 1 - len(end)) + end if rest > len(end) else end * (rest // len(end)))
    text = "".join(lines)
    assert len(text) == size
    return text


def test_a_last_line_without_a_line_end_is_read() -> None:
    assert _read((HEAD + "Alice plays 3H").encode()) == [([("Alice", "plays", 3)], [])]
    assert _read((HEAD + "Alice plays 3H\n; the end").encode()) == [([("Alice", "plays", 3)], ["; the end"])]


def test_a_file_of_cr_line_ends_longer_than_four_lines_is_read() -> None:
    text = (HEAD + "Alice plays 3H\n" + "; a comment\n" * 2000 + "Bob plays 4C\n").replace("\n", "\r")
    assert len(text) > 4 * 4096
    ((events, comments),) = _read(text.encode())
    assert events == [("Alice", "plays", 3), ("Bob", "plays", 2004)] and len(comments) == 2000


def test_a_crlf_cut_by_the_end_of_a_block_is_one_line_end() -> None:
    head = HEAD.replace("\n", "\r\n")
    before = head + _comments(64_535 - len(head), "\r\n") + ";" + "x" * 999  # then its CR is byte 65,535
    assert len(before.encode()) == 65_535
    ((events, _),) = _read((before + "\r\nAlice plays 3H\r\n").encode())
    assert events == [("Alice", "plays", before.count("\n") + 2)]


@pytest.mark.parametrize(("waiting", "message"), [
    (16_384, "this line is 20000 characters long; a record line holds at most 4096"),
    (16_385, "this line is over 4096 characters long; a record line holds at most 4096"),
])
def test_a_long_line_across_two_blocks_is_told_its_length_if_4_times_4096_characters_wait(
        waiting: int, message: str) -> None:
    """The line starts ``waiting`` characters before the end of the first block."""
    text = HEAD + _comments(65_536 - waiting - len(HEAD)) + ";" + "x" * 19_999 + "\nAlice plays 3H\n"
    line = text[:65_536 - waiting].count("\n") + 1
    assert _read(text.encode()) == [(line, 4097, message)]


def test_a_long_line_in_one_block_is_told_its_length() -> None:
    assert _read((HEAD + ";" + "x" * 39_999 + "\n").encode()) == [
        (3, 4097, "this line is 40000 characters long; a record line holds at most 4096")]


def test_a_line_of_4096_characters_is_not_the_long_one() -> None:
    text = HEAD + ";" + "x" * 4095 + "\n;" + "y" * 4999 + "\nAlice plays 3H\n"
    assert _read(text.encode()) == [(4, 4097, "this line is 5000 characters long; a record line holds at most 4096")]


def test_nul_bytes_after_the_first_block_are_binary_data_at_their_line() -> None:
    """Only a file's first bytes can show UTF-16 or UTF-32: NUL bytes further on are binary data."""
    first = HEAD + _comments(65_536 - len(HEAD))
    assert _read(first.encode() + "Bob plays 4C\n".encode("utf-16-le"))[-1] == (
        first.count("\n") + 1, 2, "this file holds binary data (a NUL byte), not a record")


@pytest.mark.parametrize(("text", "encoding", "told"), [
    (HEAD, "utf-32-be", "UTF-32 (big-endian, without a byte-order mark) text, not UTF-8"),
    (HEAD, "utf-32-le", "UTF-32 (little-endian, without a byte-order mark) text, not UTF-8"),
    (HEAD, "utf-16-be", "UTF-16 (big-endian, without a byte-order mark) text"),
    ("A\n", "utf-16-le", "UTF-16 (little-endian, without a byte-order mark) text"),  # 4 bytes: the least to tell
    (HEAD, "utf-16", "UTF-16 (little-endian) text (what Windows Notepad calls Unicode)"),
    (HEAD, "utf-32", "UTF-32 (little-endian) text, not UTF-8"),
])
def test_a_file_in_utf_16_or_utf_32_is_told_so(text: str, encoding: str, told: str) -> None:
    ((line, column, message),) = _read(text.encode(encoding))
    assert (line, column) == (1, 1) and f"this file is {told}" in message



@pytest.mark.parametrize(("text", "encoding", "claimed"), [
    ("\u03a9bcdefghij", "utf-16-le", False),  # Ω: of the high bytes of its characters 0, 2, 4, 6, 8, 80% are NUL
    ("\u03a9bcdefghijklmnopqrs", "utf-16-le", True),  # 90%
    ("\0b\0defghijklmnopqrst", "utf-16-le", False),  # 20% of the low bytes of characters 0, 2 … 18 are NUL
    ("\0bcdefghijklmnopqrst", "utf-16-le", True),  # 10%
    ("\u03a9bc" * 4 + "\n", "utf-32-le", False),  # bytes 1 (little-endian) or 2 (big-endian): 69% NUL
    ("\u03a9bc" * 4 + "\n", "utf-32-be", False),
])
def test_a_wide_text_is_claimed_only_when_its_nul_bytes_fall_over_80_percent_in_place(
        text: str, encoding: str, claimed: bool) -> None:
    """UTF-16 or UTF-32 without a byte-order mark is told by where its NUL bytes fall: in
    the bytes a character's high part fills, over 80% of them; in the others, under 20%.
    Anything else holding a NUL byte is binary data."""
    ((line, column, message),) = _read(text.encode(encoding))
    assert ("without a byte-order mark" in message) == claimed and ("binary data" in message) != claimed



@pytest.mark.parametrize(("nul_at", "claimed"), [
    ([], False),  # the high bytes of the odd characters: 819 NUL of 1,024 in the first 4,096 bytes (under 80%)
    (range(0, 408, 2), True),  # and 204 of the 1,024 even characters NUL (under 20%), then one more just past
])
def test_a_wide_text_is_judged_on_its_first_4096_bytes(nul_at: range, claimed: bool) -> None:
    chars = ["a"] * 2100
    for i in range(2047, 2047 - 2 * 205, -2):
        chars[i] = "\u03a9" if not claimed else "a"
    for i in [*nul_at, 2048]:
        chars[i] = "\0"
    ((_, _, message),) = _read("".join(chars).encode("utf-16-le"))
    assert ("without a byte-order mark" in message) == claimed

def test_a_long_line_is_told_its_length_when_its_cr_is_read_with_it() -> None:
    text = (HEAD + ";" + "x" * 19_999 + "\r;").replace("\n", "\r")
    assert _read(text.encode()) == [(3, 4097, "this line is 20000 characters long; a record line holds at most 4096")]


def test_a_long_line_after_a_first_empty_cr_line_is_told_at_line_2() -> None:
    assert _read(b"\r;" + b"x" * 19_999 + b"\r") == [
        (2, 4097, "this line is over 4096 characters long; a record line holds at most 4096")]


@pytest.mark.parametrize("data", [b"\n\xe9\n", b"\r\xe9\r;\r", b"\r\n\xe9\r\n"])
def test_a_bad_byte_after_an_empty_first_line_is_told_at_line_2(data: bytes) -> None:
    assert _read(data) == [(2, 1, "this file is not UTF-8 text (byte 0xe9 cannot be read); save it as UTF-8")]


def test_a_bad_byte_in_a_file_of_cr_line_ends_is_told_at_its_line_and_column() -> None:
    text = HEAD.replace("\n", "\r").encode() + b"Alice plays 3H\r; caf\xe9\rBob plays 4C\r"
    assert _read(text)[-1] == (4, 6, "this file is not UTF-8 text (byte 0xe9 cannot be read); save it as UTF-8")


def test_blank_lines_before_the_first_game_are_counted() -> None:
    (record,) = parse_text("\n \n\t\n" + HEAD + "Alice plays 3H\n")
    assert (record.line, record.events[0].line) == (4, 6)


def test_a_head_too_long_is_told_at_its_first_line_and_the_next_game_is_read() -> None:
    text = "\n" + HEAD + (";" + "x" * 98 + "\n") * 5001 + "Alice plays 5H\nBob plays 6H\n" + HEAD + "Bob plays 4C\n"
    items = list(read_games_of(text))
    assert [type(item).__name__ for item in items] == ["RecordError", "Record"]
    error, record = items
    assert (error.path, error.line, error.column, error.source) == ("<r>", 2, 1, '[Game "bataille-corse"]\n')
    assert [(e.player, e.line) for e in record.events] == [("Bob", text.count("\n"))]



def test_a_file_that_cannot_be_opened_is_said_so_in_the_system_s_words(tmp_path) -> None:
    from referee.notation import read_games

    assert [(e.line, e.column, e.message) for e in read_games(str(tmp_path / "none.txt"))] == [
        (0, 0, "cannot read the file: No such file or directory")]


def test_a_file_read_by_its_path_is_closed_after(tmp_path, monkeypatch) -> None:
    import builtins

    from referee.notation import read_games

    (tmp_path / "game.txt").write_text(HEAD + "Alice plays 3H\n", encoding="utf-8")
    opened = []
    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", lambda *args, **kwargs: opened.append(real_open(*args, **kwargs)) or opened[-1])
    assert [type(item).__name__ for item in read_games(str(tmp_path / "game.txt"))] == ["Record"]
    assert len(opened) == 1 and opened[0].closed


def test_a_part_of_a_file_is_numbered_from_its_first_line() -> None:
    from referee.notation import read_games

    text = HEAD + "Alice plays 3H\n" + HEAD + "Bob plays 11H\n" + HEAD + ";" + "x" * 5000 + "\n"
    items = list(read_games("<r>", io.BytesIO(text.encode()), first_line=11))
    assert (items[0].line, items[0].events[0].line) == (11, 13)
    assert [(e.line, e.column) for e in items[1:]] == [(16, 11), (19, 4097)]
    assert [item.line for item in read_games("<r>", io.BytesIO(text.encode()), first_line=2)] == [2, 7, 10]
    head = HEAD + (";" + "x" * 98 + "\n") * 5001 + "Alice plays 5H\n"
    assert [item.line for item in read_games("<r>", io.BytesIO(head.encode()), first_line=11)] == [11]


def test_a_hand_reads_its_match_s_game_and_notation_given_from_before() -> None:
    from referee.notation import read_games

    text = '[Match "m"]\n[Players "A B C"]\nA joue 24\n'
    (record,) = read_games("<r>", io.BytesIO(text.encode()), match_games={"m": "flaschenteufel"},
                           match_french={"m": True})
    assert record.french and [(e.verb, e.cards) for e in record.events] == [("plays", (Card(24, NUMBERED),))]


def test_lazy_games_not_taken_are_passed_over() -> None:
    from referee.notation import read_games

    text = "; before\n" + HEAD + "Alice plays 3H\n" + HEAD + "Bob plays 11H\n" + HEAD + "Bob plays 4C\n"
    items = list(read_games("<r>", io.BytesIO(text.encode()), lazy=True))
    assert [type(item).__name__ for item in items] == ["Record"] * 3
    assert [c.text for c in items[0].comments] == ["; before"]  # a head's comments are kept, lazy or not


def test_events_before_any_header_are_one_error_however_long() -> None:
    text = "Alice plays 3H\n" * 5000 + HEAD + "Bob plays 4C\n"
    items = read_games_of(text)
    assert [(type(item).__name__, item.line) for item in items] == [("RecordError", 1), ("Record", 5001)]


def test_a_game_read_whole_keeps_the_text_of_all_its_lines() -> None:
    """A game of more than 4 blocks read whole: sources() finds its first lines (a lazy game
    keeps only its latest 4 blocks' lines)."""
    (record,) = read_games_of(HEAD + "Alice plays 3H\n" * 18_000)
    assert record.sources([3, 18_002]) == {3: "Alice plays 3H", 18_002: "Alice plays 3H"}

def read_games_of(text: str) -> list:
    from referee.notation import read_games

    return list(read_games("<r>", io.BytesIO(text.encode())))

def test_a_bad_byte_first_in_a_file_is_told() -> None:
    assert _read(b"\xe9 plays 3H\n") == [(1, 1, "this file is not UTF-8 text (byte 0xe9 cannot be read); save it as UTF-8")]


def test_a_name_typed_decomposed_reads_as_the_composed_one() -> None:
    ((events, _),) = _read(("[Game \"bataille-corse\"]\n[Players \"Zoe\u0301 Bob\"]\nZoe\u0301 plays 3H\n").encode())
    assert events == [("Zo\u00e9", "plays", 3)]


def test_a_stream_that_cannot_be_read_is_an_error_of_the_file() -> None:
    from referee.notation import read_games

    class Failing:
        def read(self, size: int) -> bytes:
            raise OSError(5, "Input/output error")

    class NotReady:
        def read(self, size: int) -> None:
            return None

    assert [(e.line, e.column, e.message) for e in read_games("x.txt", Failing())] == [
        (0, 0, "cannot read the file: Input/output error")]
    assert [(e.line, e.column, e.message) for e in read_games("x.txt", NotReady())] == [
        (0, 0, "cannot read the file: the stream has no data ready (it is non-blocking)")]


@pytest.mark.parametrize(("size", "first"), [(10_000, False), (16_384, False), (16_385, True), (20_000, True)])
def test_comments_between_two_games_go_with_the_next_unless_over_16384_characters(size: int, first: bool) -> None:
    text = HEAD + "Alice plays 3H\n" + _comments(size) + HEAD + "Bob plays 4C\n"
    (_, one), (_, two) = _read(text.encode())
    count = _comments(size).count("\n")
    assert (len(one), len(two)) == ((count, 0) if first else (0, count))



def _first_block() -> tuple[str, int]:
    """A game's events, then comment lines (over 900 characters, under 16,384) that end the
    first block of 65,536 characters; and how many comment lines."""
    events = HEAD + "Alice plays 3H\n" * ((65_536 - len(HEAD) - 1000) // 15)
    comments = _comments(65_536 - len(events))
    return events + comments, comments.count("\n")


def test_comments_that_end_a_block_go_with_the_game_whose_header_starts_the_next() -> None:
    first, count = _first_block()
    one, two = read_games_of(first + HEAD + "Bob plays 4C\n")
    assert (len(one.comments), len(two.comments)) == (0, count)
    assert two.text.startswith(";x")


def test_comments_that_end_a_block_before_an_event_are_read_once() -> None:
    first, count = _first_block()
    (record,) = read_games_of(first + "Bob plays 4C\n")
    assert len(record.comments) == count and record.events[-1].player == "Bob"



def test_a_comment_after_a_blank_line_that_starts_a_block_goes_with_the_next_game() -> None:
    first = HEAD + "Alice plays 3H\n" * 4366
    assert len(first) == 65_536
    one, two = read_games_of(first + "\n; about the next game\n" + HEAD + "Bob plays 4C\n")
    assert ([c.text for c in one.comments], [c.text for c in two.comments]) == ([], ["; about the next game"])

def test_a_game_s_text_starts_at_its_first_kept_line() -> None:
    _, second = read_games_of(HEAD + "Alice plays 3H\n\n" + HEAD + "Bob plays 4C\n")
    assert (second.line, second.text) == (5, HEAD)


def test_a_comment_before_a_blank_line_and_a_header_goes_with_the_next_game() -> None:
    one, two = read_games_of(HEAD + "Alice plays 3H\n; about the next game\n\n" + HEAD + "Bob plays 4C\n")
    assert ([c.text for c in one.comments], [c.text for c in two.comments]) == ([], ["; about the next game"])

def test_a_head_with_no_good_header_is_told_its_first_bad_line() -> None:
    assert _read(b'[Game bataille-corse]\n[Players Alice]\nAlice plays 3H\n') == [
        (1, 7, 'a header value goes in double quotes: [Game "bataille-corse"]')]

# --- The two readings of a line agree ----------------------------------------------------
# A game is read one token per line (start rule `start`); a refused line is read again
# token by token (`line`) to explain the error. Both must accept the same lines, or a
# good line would be refused with a vague message, or a bad one accepted.

def _both_readings(line: str) -> tuple[bool, bool]:
    from referee._grammar_parser import UnexpectedInput, VisitError
    from referee.notation import _parser, _Problem

    parser, _ = _parser()
    text = line.rstrip("\n") + "\n"
    readings = []
    for start in ("start", "line"):
        try:
            parser.parse(text, start=start)
            readings.append(True)
        except (VisitError, _Problem):  # the builder's own checks (a number that is not a card)
            readings.append(True)
        except UnexpectedInput:
            readings.append(False)
    return readings[0], readings[1]


def _fine_event(line: str) -> tuple | None:
    """What the token-by-token reading sees in an event line or a round marker."""
    from referee.notation import _parser

    tree = _parser()[0].parse(line.rstrip("\n") + "\n", start="line")
    marker = next(iter(tree.find_data("marker")), None)
    if marker is not None:
        parts = {t.type: str(t) for t in marker.children}
        return None, None, "", "round", "", None, None, parts.get("NUMBER"), parts.get("COMMENT")
    event = next(iter(tree.find_data("event")), None)
    if event is None:
        return None
    tokens = [t for t in event.children if not hasattr(t, "data")]
    action = next(t for t in event.children if hasattr(t, "data")).children
    parts = {t.type: str(t) for t in tokens}
    verb = str(action[0])
    cards = next((str(t).strip() for t in action if t.type == "CARDS"), "")
    suit = next((read_suit(str(t)) for t in action if t.type == "SUIT"), None)
    names = [str(t) for t in action if t.type in ("WORD", "AMOUNT", "NUMBER")]
    word = names[0] if verb in WORD_VERBS else None
    if verb == "drinks" and not word.isdigit():
        word = word.lower()
    target = names[0] if names and word is None else None
    return parts.get("MOVE"), parts.get("TIME"), parts["WORD"], verb, cards, suit, target, word, parts.get("COMMENT")


def _coarse_event(line: str) -> tuple | None:
    (record,) = parse_text(HEAD + line.rstrip("\n") + "\n")
    if not record.events:
        return None
    e = record.events[0]
    return e.move, e.time, e.player, e.verb, e.cards_text, e.suit, e.target, e.word, e.comment


def _record_lines() -> list[str]:
    from .conftest import RECORDS

    return sorted({line for path in RECORDS.rglob("*.txt") for line in path.read_text(encoding="utf-8-sig").splitlines()})


def test_both_readings_agree_on_every_record_line() -> None:
    lines = _record_lines() + [text.splitlines()[-1] for text, _, _ in MISTAKES if text.strip()]
    assert len(lines) > 500
    disagree = [line for line in lines if len(set(_both_readings(line))) > 1]
    assert not disagree
    events = [line for line in lines if not line.lstrip().startswith(("[", ";")) and all(_both_readings(line))
              and isinstance(parse_text(HEAD + line + "\n")[0], Record)]
    assert len(events) > 300
    assert [_coarse_event(line) for line in events] == [_fine_event(line) for line in events]


@pytest.mark.parametrize("line", [
    "Alice plays♠6", "Alice takes from Bob", "Alice says to ; hmm", "Alice gives 3H to to",
    "Alice plays 3H on on", "12.20:15Alice plays 3H;c", "  Alice\u00a0plays 3H 4C\ton Bob ; x",
    "Alice drinks half", "Alice votes on", "Alice beats Bob;", "Alice swaps with Ex",
    "Alice plays AD for C", "Alice plays 1H for ♣️ on Bob", "Alice plays AD for C on on", "Alice plays AD for S on for", "Alice gives 3H to for",
    "Alice plays AS for trèfles;x", "-- round 2", "--round", "  --  round 12 ; r", "Alice bids T6",
    "Alice takes 5S", "Alice takes 5S from for", "Alice catches on", "Alice accuses Bob", "Alice scores -5",
    "Alice drinks Up", "Alice votes for", "Alice says for",
])
def test_the_builder_splits_a_line_as_the_grammar_reads_it(line: str) -> None:
    assert _both_readings(line) == (True, True)
    assert _coarse_event(line) == _fine_event(line)


FRAGMENTS = ["Alice", "Bob", "plays", "slaps", "gives", "takes", "says", "drinks", "swaps", "on", "to", "from",
             "with", "for", "C", "♣", "trèfle", "--", "round", "bids", "scores", "catches", "-5", "up", "3H", "10♥", "♠6", "??", "T21", "EX", "7", "12.", "21:04", "21:04:12", "carte", "half",
             '"x"', "[", "]", ";", "; note", "Game", "on", "ontario", "toto", "plays3H", "\u00a0", "\t", " ", " ", ""]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8), st.lists(st.booleans(), max_size=8))
def test_both_readings_agree_on_made_up_lines(pieces: list[str], glued: list[bool]) -> None:
    line = "".join(p + ("" if g else " ") for p, g in zip(pieces, glued + [False] * len(pieces)))
    accepted, explained = _both_readings(line)
    assert accepted == explained, line
    if accepted and not line.lstrip().startswith(("[", ";")) and isinstance(parse_text(HEAD + line + "\n")[0], Record):
        assert _coarse_event(line) == _fine_event(line), line


def _lark_and_lexer(text: str, french: bool) -> tuple[object, object]:
    """What Lark's parser makes of ``text`` with rule ``start`` (its lines, the line of its
    error, or the builder's problem), and the same from the lexer of rule ``start`` alone."""
    from referee._grammar_parser import UnexpectedInput
    from referee.notation import _Problem, builder_for, parser_for

    readings: list[object] = []
    for read in (lambda: parser_for(french)[0].parse(text, start="start"), lambda: builder_for(french)[1].read(text, builder_for(french)[0])):
        builder = builder_for(french)[1]
        builder.offset, builder.numbered, builder.comments = 0, False, True
        try:
            readings.append(read())
        except UnexpectedInput as error:
            readings.append(error.line)
        except _Problem as problem:
            readings.append((problem.line, problem.column, problem.message))
    return readings[0], readings[1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=6), min_size=1, max_size=6), st.booleans())
def test_the_lexer_of_rule_start_reads_as_lark(lines: list[list[str]], french: bool) -> None:
    """notation reads a game with the generated lexer of rule ``start`` and no parser loop:
    the same lines, the same first refused line, the same problem as Lark's parser."""
    text = "".join(" ".join(pieces) + "\n" for pieces in lines)
    lark, lexer = _lark_and_lexer(text, french)
    assert lark == lexer, text


def test_the_lexer_of_rule_start_reads_every_record_as_lark() -> None:
    from .conftest import RECORDS

    texts = [path.read_text(encoding="utf-8-sig") for path in sorted(RECORDS.rglob("*.txt"))]
    outcomes = [_lark_and_lexer(text, french) for text in texts for french in (False, True)]
    assert all(lark == lexer for lark, lexer in outcomes)
    assert sum(isinstance(lark, tuple) and isinstance(lark[1], list) and len(lark[1]) > 5 for lark, _ in outcomes) > 50  # read whole
    assert sum(isinstance(lark, int) for lark, _ in outcomes) > 10  # refused at a line


@pytest.mark.parametrize("notation_of", ["en", "fr"])
@pytest.mark.parametrize("game, players", [("bataille-corse", 3), ("carte-et-plouc", 3), ("pierre-qui-roule", 4),
                                           ("flaschenteufel", 4), ("caroleto", 4)])
def test_the_quick_split_reads_every_simulated_line_as_the_line_pattern(game: str, players: int, notation_of: str,
                                                                        monkeypatch) -> None:
    """Every line the builder splits in plain Python (numbered cards and counts included)
    gives the event the line pattern gives: games with mistakes, hands shown and hidden,
    in English and in French notation."""
    from referee import notation
    from referee.simulate import simulate

    text = "".join(simulate(game, players, seed, hidden=seed % 2 == 1, max_events=400, mistakes=0.05, notation=notation_of)
                   for seed in range(12))

    def events() -> list:
        return [[(e.player, e.verb, e.line, e.column, e.cards, e.cards_text, e.cards_column, e.target, e.word,
                  e.move, e.time, e.comment, e.suit) for e in record.events] if isinstance(record, Record) else record
                for record in notation.read_games("sim.txt", io.BytesIO(text.encode()))]

    quick = events()
    monkeypatch.setattr(notation._Builder, "_split", lambda self, *args: None)
    assert events() == quick and sum(map(len, quick)) > 400


def test_the_generated_parser_is_current() -> None:
    """referee/_grammar_parser.py and _grammar_parser_fr.py are what grammar/generate.py
    writes from the grammar, the French words and the Lark installed (run it after
    changing any of them)."""
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("lark")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(root / "grammar" / "generate.py"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_reading_a_record_imports_no_lark() -> None:
    """The parser is Lark's stand-alone one: checking records, in English and in French
    notation, never imports Lark (its grammar loader alone took a third of the start-up)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\nfrom referee.cli import main\n"
            "try: main(['check', 'records/bataille-corse/accepted.txt', 'records/bataille-corse/fr-partie.txt'])\n"
            "except SystemExit: pass\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'lark'], sorted(sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0 and "fr-partie.txt" in done.stdout, done.stderr


@pytest.mark.parametrize("text, long", [
    ("", False), ("\n", False), ("a" * 4096 + "\n", False), ("a" * 4097 + "\n", True), ("ok\n" + "a" * 4097, True),
    ("ok\n" + "a" * 4096, False), ("\n\n" + "b" * 5000 + "\nok\n", True), ("x\n" * 3000, False),
    ("\n" + "x\n" * 3000, False),
])
def test_a_line_too_long_is_found_without_cutting_lines(text: str, long: bool) -> None:
    from referee.notation import MAX_LINE, _has_long_line

    assert MAX_LINE == 4096
    assert _has_long_line(text) is long
    assert long is (max(map(len, text.split("\n"))) > MAX_LINE)


def test_a_game_s_head_holds_at_most_500000_characters() -> None:
    """docs/notation.md: « a game holds at most 500,000 characters » before its first event
    (its headers and the comments among them); one more and the game is refused."""
    from referee.notation import read_games

    def first(size: int) -> Record | RecordError:
        k, r = divmod(size - len(HEAD), 100)
        text = HEAD + (";" + "x" * 98 + "\n") * k + (";" + "y" * (r - 2) + "\n" if r else "") + "Alice plays 5H\n"
        return next(iter(read_games("<r>", io.BytesIO(text.encode()))))

    assert isinstance(first(500_000), Record) and isinstance(first(499_999), Record)
    refused = first(500_001)
    assert isinstance(refused, RecordError) and refused.message.startswith("the headers of the game that starts here")
    assert "500,000 characters" in refused.message


def test_one_drink_line_writes_at_most_999_gorgees() -> None:
    """docs/games/caroleto.md: « One drink line writes at most 999 gorgées »; 1000 is an
    error at its number."""
    head = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n'
    (record,) = parse_text(head + "Ben drinks 999\n")
    assert isinstance(record, Record) and record.events[0].word == "999"
    (error,) = parse_text(head + "Ben drinks 1000\n")
    assert isinstance(error, RecordError) and (error.line, error.column) == (3, 12)
    assert "1000 gorgées is more than one drink line writes (at most 999)" in error.message


@pytest.mark.parametrize(("written", "read"), [("1", "1"), ("37", "37"), ("36 1", "36 1"), ("0", None), ("38", None),
                                                ("19", None), ("36 38", None)])
def test_flaschenteufel_s_cards_are_numbered_1_to_37_without_19(written: str, read: str | None) -> None:
    (record,) = parse_text('[Game "flaschenteufel"]\n[Players "A B C"]\nA plays ' + written + "\n")
    if read is None:
        assert isinstance(record, RecordError) and "is not a Flaschenteufel card: they are numbered 1 to 37" in record.message
    else:
        assert isinstance(record, Record) and " ".join(map(str, record.events[0].cards)) == read


def test_every_header_event_and_comment_keeps_its_line_and_column_however_indented() -> None:
    """Where a record's lines are told (carets, the editor's ranges): indented headers,
    events and comments (spaces or a tab), the line after an indented one, a comment
    after an event or on its own line; a header's value unescaped (\\" and \\\\)."""
    text = (' [Game "bataille-corse"]\n[Players "Alice Bob"]  ; the players\n[Event "a \\"quoted\\" name, \\\\ here"]\n\n'
            "   Alice plays 5H\nBob plays 7C  ; a comment\n; a comment line\n  ; an indented one\n\tAlice plays 8D\n")
    (record,) = parse_text(text)
    assert isinstance(record, Record)
    assert [(h.tag, h.value, h.line, h.column) for h in record.headers] == [
        ("Game", "bataille-corse", 1, 2), ("Players", "Alice Bob", 2, 1), ("Event", 'a "quoted" name, \\ here', 3, 1)]
    assert [(e.player, e.line, e.column, e.cards_column, e.comment) for e in record.events] == [
        ("Alice", 5, 4, 16, None), ("Bob", 6, 1, 11, "; a comment"), ("Alice", 9, 2, 14, None)]
    assert [(c.text, c.line, c.column) for c in record.comments] == [("; a comment line", 7, 1), ("; an indented one", 8, 3)]


def test_a_count_of_unseen_cards_stands_for_78_cards_at_most() -> None:
    """A bare number after a counting verb is that many cards nobody saw, up to a whole
    tarot deck (78); one more is an error."""
    head = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n'
    (record,) = parse_text(head + "Ann takes 78 from Ben\n")
    assert isinstance(record, Record) and record.events[0].cards == (UNSEEN_CARD,) * 78
    (error,) = parse_text(head + "Ann takes 79 from Ben\n")
    assert isinstance(error, RecordError) and "'79' cards is more than any deck holds (at most 78)" in error.message


# The wording of a syntax error, whole: each branch of explain() with the message it gives,
# in both notations where they differ (FR: a record in French notation, [Notation "fr"]).
FR_HEAD = '[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Alice Bob"]\n'
EXPLAINED = [
    (HEAD + "[Event bataille corse]\n", (3, 8), 'a header value goes in double quotes: [Event "bataille corse"]'),
    (HEAD + "[Event]\n", (3, 7), 'a header value goes in double quotes: [Event ""]'),  # the tag without its ]
    (HEAD + "[Event " + "x" * 40 + "]\n", (3, 8), f'a header value goes in double quotes: [Event "{"x" * 40}"]'),
    (HEAD + "[Event " + "x" * 41 + "]\n", (3, 8), f'a header value goes in double quotes: [Event "{"x" * 40}…"]'),
    (HEAD + "Alice plays 3H 7H" + "x" * 38 + "\n", (3, 16), f"expected a card such as 7H or 10♥, got '7H{'x' * 38}'"),
    (HEAD + "Alice plays 3H 7H" + "x" * 39 + "\n", (3, 16), f"expected a card such as 7H or 10♥, got '7H{'x' * 38}…'"),
    (HEAD + "Alice plays 3H 3H4C5D\n", (3, 16), "put a space between cards: '3H 4C 5D', not '3H4C5D'"),
    (HEAD + "Alice plays 10H10C\n", (3, 13), "put a space between cards: '10H 10C', not '10H10C'"),
    (HEAD + "Alice plays QH10C\n", (3, 13), "put a space between cards: 'QH 10C', not 'QH10C'"),
    (HEAD + "Alice plays 3H3\n", (3, 13), "expected a card such as 7H or 10♥, got '3H3'"),
    (FR_HEAD + "Alice joue 3C4T5K\n", (4, 12), "put a space between cards: '3C 4T 5K', not '3C4T5K'"),
    (HEAD + "Alice plays\n", (3, 12), "expected a card after 'plays', such as 7H or 10♥"),
    (FR_HEAD + "Alice joue\n", (4, 11), "expected a card after 'joue', such as 7C, DP or 10♥"),
    (HEAD + "Alice\n", (3, 6), "'Alice' is followed by no action: an event reads like Alice plays 7H"),
    (FR_HEAD + "Alice\n", (4, 6), "'Alice' is followed by no action: in French notation, an event reads like Alice joue 7C"),
    (HEAD + "Alice plais 3H\n", (3, 7), "unknown action 'plais' (did you mean 'plays'?); an event reads: Alice plays 7H"),
    (FR_HEAD + "Alice jeux 3C\n", (4, 7), "unknown action 'jeux'; an event in French notation reads: Alice joue 7C"),
    (HEAD + "Alice plays AD for x\n", (3, 20), "expected the suit announced after 'for': a letter (S H D C), a symbol (♠ ♥ ♦ ♣) "
     "or its name (pique, cœur, carreau, trèfle), got 'x'"),
    (HEAD + "Alice plays AD for\n", (3, 19), "expected the suit announced after 'for': a letter (S H D C), a symbol (♠ ♥ ♦ ♣) "
     "or its name (pique, cœur, carreau, trèfle)"),
    (FR_HEAD + "Alice joue AK pour x\n", (4, 20), "expected the suit announced after 'pour': a letter (P C K T), a symbol "
     "(♠ ♥ ♦ ♣) or its name (pique, cœur, carreau, trèfle), got 'x'"),
    (HEAD + "-- x\n", (3, 4), "a round marker reads: -- round, or -- round 2 (its number, in digits); got '-- x'"),
    (HEAD + "-- round x\n", (3, 10), "a round marker reads: -- round, or -- round 2 (its number, in digits); got '-- round x'"),
    (FR_HEAD + "-- manche x\n", (4, 11), "a round marker reads: -- manche, or -- manche 2 (its number, in digits); got '-- manche x'"),
    (HEAD + "-- round 1 x\n", (3, 12), "expected the end of the line, got 'x'"),
    (HEAD + "Alice scores x\n", (3, 14), "expected a score in digits after 'scores', such as 28 or -5, got 'x'"),
    (FR_HEAD + "Alice marque x\n", (4, 14), "expected a score in digits after 'scores', such as 28 or -5, got 'x'"),
    (HEAD + "Alice scores 3 x\n", (3, 16), "expected the end of the line, got 'x'"),
    (HEAD + "Alice says 7\n", (3, 12), "expected a word after 'says', such as carte, plouc, contre or double, got '7'"),
    (FR_HEAD + "Alice dit 7\n", (4, 11), "expected a word after 'dit', such as carte, plouc, contre or double, got '7'"),
    (HEAD + "Alice votes 7\n", (3, 13), "expected a word after 'votes', such as pourri or bon, got '7'"),
    (FR_HEAD + "Alice vote 7\n", (4, 12), "expected a word after 'vote', such as pourri or bon, got '7'"),
    (HEAD + "Alice says for x\n", (3, 16), "expected the end of the line, got 'x'"),
    (HEAD + "Alice gives 3H\n", (3, 15), "expected 'to', got 'end of line'"),
    (FR_HEAD + "Alice donne 3C Bob\n", (4, 16), "expected 'à', got 'Bob'"),
    (FR_HEAD + "Alice prend 3C x\n", (4, 16), "expected 'à' or the end of the line, got 'x'"),
    (HEAD + "Alice plays 3H on 4\n", (3, 19), "expected a player's name, got '4'"),
    (HEAD + "Alice plays 3H @\n", (3, 16), "unexpected '@' here; expected 'for', 'on' or the end of the line"),
    (FR_HEAD + "Alice joue 3C @\n", (4, 15), "unexpected '@' here; expected 'pour', 'sur' or the end of the line"),
    (HEAD + "12. @\n", (3, 5), "unexpected '@' here; expected a player's name or a time such as 21:04"),
    (HEAD + "12.5 Alice plays\n", (3, 4), "expected a player's name or a time such as 21:04, got '5'"),
    (HEAD + "--x\n", (3, 3), "a round marker reads: -- round, or -- round 2 (its number, in digits); got '--x'"),
    (HEAD + "Alice plays 3H on round x\n", (3, 25), "expected the end of the line, got 'x'"),
    (HEAD + "Alice plays 3H on scores x\n", (3, 26), "expected the end of the line, got 'x'"),
    (HEAD + "Alice plays ; x\n", (3, 13), "expected a card such as 7H or 10♥, got ';'"),
    (HEAD + "Alice plays 10♥\ufe0f3H\n", (3, 13), "put a space between cards: '10♥\ufe0f 3H', not '10♥\ufe0f3H'"),
    (HEAD + "Alice joue 3C ; the 3 of clubs\n", (3, 7), "'joue' is French: this looks like a French record: add "
     "[Notation \"fr\"] to its headers (in English notation: plays). Mind the letters: in French notation C is cœur, "
     "not clubs, so 3C is the 3 de cœur there; the clubs (trèfle) are T: 3T"),
    (HEAD + "Alice joue 3T\n", (3, 7), "'joue' is French: this looks like a French record: add [Notation \"fr\"] to "
     "its headers (in English notation: plays). Mind the letters: in French notation the suits are P C K T (pique, "
     "cœur, carreau, trèfle): C is cœur there, not clubs"),
]


@pytest.mark.parametrize(("text", "where", "message"), EXPLAINED)
def test_a_syntax_error_is_worded_for_its_spot(text: str, where: tuple[int, int], message: str) -> None:
    (error,) = [g for g in parse_text(text) if isinstance(g, RecordError)]
    assert (error.line, error.column, error.message) == (*where, message)


@pytest.mark.parametrize(("text", "message"), [
    (HEAD + "Alice gives 3H\n", "attendu\xa0: «\xa0to\xa0», et non «\xa0fin de ligne\xa0»"),
    (HEAD + "plays 3H\n", "qui «\xa0plays\xa0»\xa0? commencez la ligne par le nom du joueur\xa0: Alice plays ..."),
    (FR_HEAD + "joue 3C\n", "qui joue\xa0? commencez la ligne par le nom du joueur\xa0: Alice joue ..."),
])
def test_a_syntax_error_is_worded_in_the_language_in_use(text: str, message: str) -> None:
    """The end of a line and the missing player, said in French when referee speaks French."""
    from referee.messages import use

    use("fr", explicit=False)
    (error,) = [g for g in parse_text(text) if isinstance(g, RecordError)]
    assert error.message == message


def test_one_card_is_not_glued_cards() -> None:
    from referee.notation import split_cards

    assert split_cards("3H") is None and split_cards("10♥\ufe0f") is None
    assert split_cards("10♥\ufe0f3H") == ["10♥\ufe0f", "3H"]


def _lazy(text: str, comments: bool | None = None) -> tuple[Record, list]:
    """The first game read lazily and its batches, taken before the next game is asked for
    (after, they are gone: read_games's contract)."""
    from referee.notation import read_games

    record = next(read_games("x.txt", io.BytesIO(text.encode()), lazy=True, comments=comments))
    assert isinstance(record, Record)
    return record, list(record.batches)


def test_a_lazy_game_keeps_the_events_and_comments_around_a_bad_line() -> None:
    """The lines after one the parser refuses are read on: their events and comments kept,
    the refused line an error at its place."""
    text = HEAD + "Alice plays 3H\n; one\nBob plays 11H\n; two\nAlice plays 4H\nBob plays 5H\n"
    _, (batch,) = _lazy(text, comments=True)
    assert [(e.line, e.player) for e in batch.events] == [(3, "Alice"), (7, "Alice"), (8, "Bob")]
    assert [(c.line, c.text) for c in batch.comments] == [(4, "; one"), (6, "; two")]
    assert [(e.line, e.column) for e in batch.errors] == [(5, 11)]


def test_a_lazy_game_keeps_the_headers_and_comments_after_a_bad_header() -> None:
    text = '[Game "bataille-corse"]\n; one\n[Event bataille]\n; two\n[Players "Alice Bob"]\nAlice plays 3H\n'
    record, _ = _lazy(text)
    assert [(h.key, h.line) for h in record.headers] == [("game", 1), ("players", 5)]
    assert [(c.line, c.text) for c in record.comments] == [(2, "; one"), (4, "; two")]
    assert [(e.line, e.column) for e in record.errors] == [(3, 8)]


@pytest.mark.parametrize(("lines", "where"), [
    ("Alice plays 3H ; no\x01te\nBob plays 4H\n", (3, 20)),  # in a comment, the next line after it
    ("\nAlice pl\x01ays 3H\n", (4, 9)),  # a blank line first
    ("Alice plays 3H\n\nBob pl\x01ays 3H\n", (5, 7)),
])
def test_a_control_character_is_told_at_its_line_and_column(lines: str, where: tuple[int, int]) -> None:
    (error,) = parse_text(HEAD + lines)
    assert isinstance(error, RecordError) and (error.line, error.column) == where
    assert error.message.startswith("a control character (U+0001) here")


def test_a_control_character_after_a_bad_line_and_a_blank_one_is_told_at_its_place() -> None:
    """The reading goes on after a bad line in growing pieces (one line, then two): the
    piece of a blank line and a control character tells it at its own line and column."""
    _, (batch,) = _lazy(HEAD + "Alice plays 11H\nAlice plays 3H\n\nBob pl\x01ays 3H\nAlice plays 3H\n")
    assert [(e.line, e.column, e.message[:33]) for e in batch.errors] == [
        (3, 13, "expected a card such as 7H or 10♥"), (6, 7, "a control character (U+0001) here")]
    assert [e.line for e in batch.events] == [4, 7]


@pytest.mark.parametrize(("error", "reason"), [
    (FileNotFoundError(2, "No such file or directory"), "aucun fichier ni dossier de ce nom"),
    (PermissionError(13, "Permission denied"), "permission refusée"),
    (PermissionError(1, "Operation not permitted"), "permission refusée"),
    (IsADirectoryError(21, "Is a directory"), "c'est un dossier"),
    (NotADirectoryError(20, "Not a directory"), "un élément du chemin n'est pas un dossier"),
    (OSError(5, "Input/output error"), "Input/output error"),  # not in the table: the system's words
    (ValueError("a stream that broke"), "a stream that broke"),  # no errno at all
])
def test_why_a_file_cannot_be_read_is_said_in_the_language_in_use(error: Exception, reason: str) -> None:
    from referee.messages import use
    from referee.notation import unreadable_reason

    use("fr", explicit=False)
    assert unreadable_reason(error) == reason
