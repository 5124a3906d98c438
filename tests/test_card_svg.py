"""The card pictures: one symbol per distinct face, placed with <use>, named for screen
readers in English and French, and valid XML with nothing external."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from referee.html.card_svg import label, symbol_id, symbols, use
from referee.cards import EXCUSE_CARD, STANDARD_52, TAROT_78, UNSEEN_CARD, Card, numbered_deck

FLASCHENTEUFEL = numbered_deck([n for n in range(1, 38) if n != 19])
EVERY_FACE = list(TAROT_78) + list(FLASCHENTEUFEL) + [UNSEEN_CARD]


@pytest.mark.parametrize(("card", "key"), [
    (Card(14, "S"), "card-KS"), (Card(10, "H"), "card-10H"), (Card(12, "C"), "card-CC"),
    (Card(12, "T"), "card-T12"), (EXCUSE_CARD, "card-EX"), (Card(23, "N"), "card-N23"), (UNSEEN_CARD, "card-back"),
])
def test_symbol_ids(card: Card, key: str) -> None:
    assert symbol_id(card) == key


def test_every_face_has_its_own_id() -> None:
    assert len({symbol_id(c) for c in EVERY_FACE}) == len(EVERY_FACE) == 78 + 36 + 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_symbols_define_each_distinct_face_once(lang: str) -> None:
    cards = [Card(14, "S"), Card(14, "S"), Card(2, "H"), UNSEEN_CARD, Card(23, "N"), Card(21, "T"), EXCUSE_CARD]
    tree = ET.fromstring(symbols(cards, lang))
    ids = [s.get("id") for s in tree.iter("{http://www.w3.org/2000/svg}symbol")]
    assert sorted(ids) == sorted(["suit-S", "suit-H", "card-KS", "card-2H", "card-back", "card-N23", "card-T21", "card-EX"])


def test_every_face_is_well_formed_and_self_contained() -> None:
    for lang in ("en", "fr"):
        drawn = symbols(EVERY_FACE, lang)
        ET.fromstring(drawn)
        assert "style=" not in drawn and "<script" not in drawn
        assert not re.search(r'href="(?!#)', drawn), "only references inside the page"


@pytest.mark.parametrize(("card", "en", "fr", "en_letter", "fr_letter"), [
    (Card(14, "S"), "king of spades", "roi de pique", "K", "R"),
    (Card(13, "H"), "queen of hearts", "dame de cœur", "Q", "D"),
    (Card(11, "D"), "jack of diamonds", "valet de carreau", "J", "V"),
])
def test_court_cards_are_named_and_lettered_in_each_language(card, en, fr, en_letter, fr_letter) -> None:
    assert label(card) == en and label(card, "fr") == fr
    for lang, letter, other in (("en", en_letter, fr_letter), ("fr", fr_letter, en_letter)):
        texts = re.findall(r">([^<>]+)</text>", symbols([card], lang))
        assert letter in texts and other not in texts


def test_other_cards_are_named() -> None:
    assert label(Card(12, "T"), "fr") == "atout 12" and label(Card(12, "T")) == "trump 12"
    assert label(EXCUSE_CARD, "fr") == "l'Excuse"
    assert label(Card(23, "N")) == "23, red, 3 points"
    assert label(Card(4, "N"), "fr") == "4, bleu, 1 point"
    assert label(UNSEEN_CARD) == "a card face down"
    assert label(Card(1, "S"), "xx") == "ace of spades", "an unknown language falls back to English"


def test_numbered_cards_are_drawn_in_their_colour_with_their_points() -> None:
    drawn = symbols([Card(23, "N"), Card(24, "N"), Card(25, "N")])
    red, blue, yellow = (re.search(rf'id="card-N{n}".*?fill="(#\w+)"', drawn).group(1) for n in (23, 24, 25))
    assert len({red, blue, yellow}) == 3
    assert ">3</text>" in re.search(r'id="card-N23".*?</symbol>', drawn).group(0)


def test_use_names_the_card_and_points_at_its_symbol() -> None:
    placed = use(Card(14, "S"), width=40, lang="fr")
    element = ET.fromstring(placed.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    assert element.get("class") == "card" and element.get("role") == "img"
    assert element.get("aria-label") == "roi de pique"
    assert element.get("width") == "40" and element.get("height") == "56"
    assert element[0].get("href") == "#card-KS"
