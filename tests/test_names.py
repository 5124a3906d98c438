"""Players' names by what they look like (issue 35): read in Unicode NFC, a letter that
shows nothing refused, two names that differ only by look-alike characters refused, and
each such character named by its code point."""

from __future__ import annotations

import unicodedata

import pytest

from referee.games.names import LATIN_1_LETTERS, _prototype, disguised, skeleton

HEAD = '[Game "bataille-corse"]\n[Players "{players}"]\n\n'
NFD_ZOE = unicodedata.normalize("NFD", "Zoé")


def test_a_decomposed_name_is_the_composed_one(check_text) -> None:
    """[Players] in NFD, a line in NFC, another in NFD: one player, Zoé, and no error."""
    assert len(NFD_ZOE) == 4
    report = check_text(HEAD.format(players=f"Bob {NFD_ZOE}") + f"Bob plays 5H\nZoé plays 6H\n{NFD_ZOE} plays 7H\n")
    assert report.status != "error" and report.players == ["Bob", "Zoé"], report
    assert not [v for v in report.violations if v.code == "REC-UNKNOWN-PLAYER"]
    assert [v.line for v in report.violations] == [6], report.violations  # Zoé plays twice in a row


def test_a_decomposed_name_among_suits_and_typography_is_the_composed_one(check_text) -> None:
    """The NFC check is skipped for a text whose characters from U+0300 on are all suit
    symbols, the emoji selector or punctuation (– ’ …): a decomposed name beside them is
    still read as the composed one."""
    report = check_text(HEAD.format(players=f"Bob {NFD_ZOE}") + f"Bob plays 5♥️ ; l’as… –\n{NFD_ZOE} plays 6♠\n")
    assert report.status != "error" and report.players == ["Bob", "Zoé"], report
    assert not report.violations, report.violations


def test_the_texts_the_nfc_check_skips_are_in_nfc() -> None:
    """Every character of the Basic Multilingual Plane from U+0300 on that the reader's
    filter lets by is in NFC alone, composes with no letter, suit or ellipsis before it,
    and is no combining mark."""
    from referee.notation import _ASCII, _MAYBE_DECOMPOSED

    for code in range(0x300, 0x10000):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        if _MAYBE_DECOMPOSED.search(char.encode().translate(None, _ASCII)) is None:
            assert unicodedata.combining(char) == 0 and unicodedata.is_normalized("NFC", char), hex(code)
            assert all(unicodedata.is_normalized("NFC", before + char) for before in "aeAE♥…"), hex(code)


@pytest.mark.parametrize(("players", "shown"), [
    ("Bob Bob\u3164", "U+3164 HANGUL FILLER, a letter that shows nothing"),
    ("Bob \uffa0Ann", "U+FFA0 HALFWIDTH HANGUL FILLER, a letter that shows nothing"),
    ("Bob Al\u200bice", "U+200B ZERO WIDTH SPACE, which is not a letter"),
    ("Bob Ann\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE, which is not a letter"),
    ("Bob An\u200dn", "U+200D ZERO WIDTH JOINER, which is not a letter"),
])
def test_a_name_with_an_invisible_character_is_refused_by_its_code_point(check_text, players, shown) -> None:
    report = check_text(HEAD.format(players=players) + "Bob plays 5H\n")
    assert report.status == "error" and shown in report.error.message, report.error


@pytest.mark.parametrize(("players", "shown"), [
    ("Alice \u0410lice", "U+0410 CYRILLIC CAPITAL LETTER A"),
    ("\u0410lice Bob Alice", "U+0410 CYRILLIC CAPITAL LETTER A"),
    ("Zoe Z\u03bfe", "U+03BF GREEK SMALL LETTER OMICRON"),
    ("Bob B\u043eb", "U+043E CYRILLIC SMALL LETTER O"),
    ("Noé N\u043e\u00e9", "U+043E CYRILLIC SMALL LETTER O"),
])
def test_names_that_differ_only_by_look_alike_characters_are_refused(check_text, players, shown) -> None:
    report = check_text(HEAD.format(players=players) + "Bob plays 5H\n")
    assert report.status == "error" and "look alike" in report.error.message and shown in report.error.message, report.error


@pytest.mark.parametrize("players", ["Bob Борис", "Ann Anna", "Ian Lan", "Олег Oleg"])
def test_names_that_look_different_stand(check_text, players) -> None:
    assert check_text(HEAD.format(players=players) + "Bob plays 5H\n").status != "error"


def test_a_name_that_hides_a_look_alike_letter_gets_a_note_and_its_lines_a_hint(check_text) -> None:
    report = check_text(HEAD.format(players="Bob \u0410lice") + "Bob plays 5H\nAlice plays 6H\n")
    assert any("U+0410 CYRILLIC CAPITAL LETTER A, which looks like A" in n for n in report.notes), report.notes
    unknown = [v.message for v in report.violations if v.code == "REC-UNKNOWN-PLAYER"]
    assert unknown == ["Alice is not one of the players: Bob and Аlice (did you mean Аlice, written with "
                       "U+0410 CYRILLIC CAPITAL LETTER A?)"], unknown
    report = check_text(HEAD.format(players="Bob Alice") + "Bob plays 5H\n\u0410lice plays 6H\n")
    unknown = [v.message for v in report.violations if v.code == "REC-UNKNOWN-PLAYER"]
    assert unknown and "this name is written with U+0410 CYRILLIC CAPITAL LETTER A" in unknown[0], unknown
    assert not check_text(HEAD.format(players="Bob Борис") + "Bob plays 5H\n").notes


def test_the_skeleton_takes_look_alikes_to_latin_and_leaves_ascii() -> None:
    assert skeleton("\u0410l\u0456ce") == "Alice"
    assert skeleton("Ian") == "Ian" and skeleton("lan") == "lan"
    assert skeleton(NFD_ZOE) == "Zoé"


def test_latin_1_letters_stand_for_themselves_in_the_confusables_data() -> None:
    """What lets a check of Zoé and Noé skip reading the data: no Latin-1 letter has
    another to stand for, none is a disguise, and a name of them is its own skeleton."""
    assert LATIN_1_LETTERS and all(_prototype(c) == c for c in LATIN_1_LETTERS)
    name = "".join(sorted(LATIN_1_LETTERS))
    assert skeleton(name) == unicodedata.normalize("NFC", name) and disguised("A" + name) is None


def test_a_check_of_latin_1_names_does_not_read_the_confusables_data() -> None:
    import subprocess
    import sys

    code = ("import sys; from referee.engine import check; from referee.notation import parse_text\n"
            "check(parse_text('[Game \"bataille-corse\"]\\n[Players \"Zoé Noé\"]\\nZoé plays 5H\\n', 'x')[0])\n"
            "print('confusable_homoglyphs' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stdout + done.stderr
