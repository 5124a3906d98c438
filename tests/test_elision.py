"""French as a French table speaks it (issue 35): a word before a name or a card elides
before a vowel sound (« au tour d'Ann », « l'AS »), and only then (« de Bob », « le 8C »)."""

from __future__ import annotations

import re

import pytest

from referee import messages
from referee.messages import ELIDED, elide, say

VOWEL_NAMES = ["Ann", "Éva", "Yves", "Hugo", "AS", "Alice", "Ugo", "Œdipe"]
CONSONANT_NAMES = ["Bob", "Zoé", "8C", "10S", "KH", "Chloé", "Yann"[0:0] + "Ben"]


@pytest.mark.parametrize(("before", "value", "after"), [
    ("c'est au tour de ", "Ana", "c'est au tour d'"),
    ("les cartes de ", "Alice", "les cartes d'"),
    ("depuis le ", "AS", "depuis l'"),
    ("celui de ", "Ann", "celui d'"),
    ("De ", "Éva", "D'"),
    ("« de ", "Hugo", "« d'"),
    ("parce que ", "Ann", "parce qu'"),
    ("jusque ", "à", "jusqu'"),
    ("le duel du ", "AS", "le duel de l'"),
    ("Au ", "AS", "À l'"),
    ("du ", "8C", "du "),
    ("le ", "8C", "le "),
    ("de ", "Bob", "de "),
    ("garde ", "Ann", "garde "),
    ("monde ", "Ann", "monde "),
    ("de", "Ann", "de"),
])
def test_a_word_elides_before_a_vowel_sound_only(before, value, after) -> None:
    assert elide(before, value) == after


def french_sentences(value: str) -> list[tuple[str, str]]:
    """Every French sentence of the catalogue with ``value`` in each of its plain fields
    (a count is 2), as referee says it."""
    said = []
    with messages.speaking("fr"):
        for key in messages.ENGLISH:
            text = messages.template(key, 2)
            parts = messages._parts(text)
            if parts is None:
                continue
            fields: dict[str, object] = {name: value for _, name in parts if name is not None}
            fields["count"] = 2
            said.append((key, say(key, **fields)))
    return said


ELIDABLE = "|".join(sorted(ELIDED, key=len, reverse=True))


@pytest.mark.parametrize("name", VOWEL_NAMES)
def test_no_french_sentence_leaves_a_word_unelided_before_a_vowel(name) -> None:
    unelided = re.compile(rf"(?<![\w'’])({ELIDABLE})[ \u00a0]{re.escape(name)}\b")
    found = [(key, text) for key, text in french_sentences(name) if unelided.search(text)]
    assert not found, found[:5]
    assert any(f"d'{name}" in text for _, text in french_sentences(name))


@pytest.mark.parametrize("name", CONSONANT_NAMES)
def test_no_french_sentence_elides_before_a_consonant(name) -> None:
    wrong = re.compile(rf"\b(d|qu|l|n|s)'{re.escape(name)}\b")
    found = [(key, text) for key, text in french_sentences(name) if wrong.search(text)]
    assert not found, found[:5]


def test_english_never_elides() -> None:
    with messages.speaking("en"):
        assert "de Ann" in messages.fill("de {player}", {"player": "Ann"})
        assert say("live.undone", line="Ann plays AS") == messages.fill(messages.ENGLISH["live.undone"], {"line": "Ann plays AS"})
