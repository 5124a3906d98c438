"""French as a French table speaks it (issue 35): one word for one thing, as the glossary
(docs/fr/glossaire.md) chooses it; words that agree with the things they name; no
« ceci » where the thing has a name; no sentence that needs a player's gender."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from referee import i18n
from referee.sentences import bataille_corse, caroleto, carte_et_plouc, flaschenteufel, pierre_qui_roule, tricks

from .conftest import ROOT

GLOSSARY = ROOT / "docs" / "fr" / "glossaire.md"
GAME_KEYS = {key for module in (bataille_corse, caroleto, carte_et_plouc, flaschenteufel, pierre_qui_roule, tricks)
             for key in module.ENGLISH}
ROUND_KEYS = {*caroleto.ENGLISH, "why.caroleto.REC-AFTER-END", "report.drink", "legal.round", "stat.rounds",
              "html.round", "html.chart.drinks", "game-option.caroleto.Drinks"}
"""The sentences where a round is the Caroleto's (the only game written in rounds)."""
A_TURN = re.compile(r"\b(son|leur|au|à) tour\b|\btour de rôle\b|\btour à tour\b")
"""« tour » as a player's turn, which stays « tour »."""


def french_sentences() -> list[tuple[str, str]]:
    """Every French sentence of the catalogue as (key, text): the rules' and the records'
    quotes (« … ») and the fields ({player}) left out."""
    with open(i18n.po_path("fr"), "rb") as stream:
        catalogue = read_po(stream)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            found.append((message.context, re.sub(r"\{[^}]*\}", "{}", re.sub(r"«[^»]*»", "«…»", text))))
    return found


def glossary() -> dict[str, tuple[list[str], str]]:
    """The glossary's table: each word chosen, with the words never used for its thing
    (in backquotes) and the words of its « jamais » cell."""
    rows = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("mot", "---"):
            rows[cells[0]] = (re.findall(r"`([^`<]+)`", cells[2]), cells[2])
    return rows


def test_the_glossary_is_linked_and_names_the_pairs_of_the_issue() -> None:
    rows = glossary()
    assert "infraction" in rows["faute"][0] and "tour" in rows["manche"][0], rows
    assert "fr/glossaire.md" in (ROOT / "docs" / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("chosen", sorted(glossary()))
def test_the_catalogue_never_uses_a_word_the_glossary_rejects(chosen) -> None:
    rejected, cell = glossary()[chosen]
    wrong = []
    for key, text in french_sentences():
        for word in rejected:
            if "phrase d'un jeu" in cell and key not in GAME_KEYS:
                continue
            if "phrase du Caroleto" in cell:
                if key in ROUND_KEYS and re.search(rf"\b{word}\b", A_TURN.sub("", text)):
                    wrong.append((key, word, text))
                continue
            if re.search(rf"\b{word}\b", text, re.IGNORECASE):
                wrong.append((key, word, text))
    assert not wrong, wrong[:5]


FEMININE = "action|manche|faute|carte|pile|main|partie|feuille|ligne|pénalité|tape|couleur|règle|gorgée|enchère|annonce|sanction|bouteille|surenchère|défausse|pioche|donne|prise"
MASCULINE = "tour|pli|paquet|verre|joueur|coup|bout|atout|échange|duel|vote|dossier|roi|valet|cavalier|fichier|code"
DISAGREEING = [
    re.compile(rf"\b(aucun|un|le|du|au|ce|cet|dernier|premier|nouveau|seul|second)\s+({FEMININE})s?\b", re.IGNORECASE),
    re.compile(rf"\b(aucune|une|la|cette|dernière|première|nouvelle|seule|seconde)\s+({MASCULINE})s?\b", re.IGNORECASE),
]


def test_words_agree_with_the_things_they_name() -> None:
    titles = re.compile(r"Carte et Plouc|Bataille corse|Pierre qui Roule")  # « le Carte et Plouc »: a game
    wrong = [(key, text) for key, text in french_sentences() if any(p.search(titles.sub("{}", text)) for p in DISAGREEING)]
    assert not wrong, wrong[:5]


def test_the_agreement_check_finds_the_mistakes_of_the_issue() -> None:
    assert any(p.search("aucun action ou vérité d'un 8 ne tombe sur {}") for p in DISAGREEING)
    assert any(p.search("la tour 3 commence") for p in DISAGREEING)
    assert not any(p.search("aucune action ou vérité d'un 8 ne tombe sur {}") for p in DISAGREEING)


def test_no_sentence_says_ceci_or_needs_a_player_s_gender() -> None:
    """« ceci » stands for a thing the sentence should name; a reflexive after a player
    (« se cible soi-même », « lui-même ») says what a name does not: its bearer's gender."""
    wrong = [(key, text) for key, text in french_sentences()
             if re.search(r"\bceci\b", text) or re.search(r"\{\}[^.;:]*\b(soi|lui|elle)-même", text)]
    assert not wrong, wrong[:5]
