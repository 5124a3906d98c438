"""Completion over a pipe as an editor asks for it (issue 37): ``??`` where the game takes a
card nobody saw, a move that needs a suit announced or a player named offered only
whole (a snippet, or one item for each choice to a client without snippets), and the
calls due first. Each legal item, written into the record, is checked as ``check``
checks it: none brings a fault."""

from __future__ import annotations

import pytest

from .lsp_client import Client, running
from .test_lsp_features import SNIPPETS, _faults

pytest.importorskip("pygls")

PLOUC = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\nAna plays \n'
CAROLETO = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nAnn says roi\nAnn takes \n'
FLASCHE = ('[Game "flaschenteufel"]\n[Players "A B C"]\n[Dealer "C"]\nA discards ??\nB discards ??\nC discards ??\n'
           "A gives ?? to B\nA gives ?? to C\nB gives ?? to C\nB gives ?? to A\nC gives ?? to A\nC gives ?? to B\nA plays \n")
DRAWN = ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Ann"]\nBen says roi\nBen takes ?? from Ann\n'
         "Cas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays \n")


@pytest.fixture(scope="module")
def snippets():
    with running(capabilities=SNIPPETS) as client:
        yield client


@pytest.fixture(scope="module")
def plain():
    with running() as client:
        yield client


def _items(client: Client, name: str, text: str) -> list[dict]:
    """The items offered at the end of the record's last line, in their order."""
    uri = f"file:///lsp-completion/{name}"
    client.open(uri, text)
    lines = text.split("\n")
    answer = client.at("textDocument/completion", uri, len(lines) - 2, len(lines[-2]))
    return sorted(answer["items"], key=lambda i: i["sortText"])


def _legal(items: list[dict]) -> list[dict]:
    return [i for i in items if i["sortText"].startswith("0")]


def _written(text: str, item: dict) -> str:
    """The record with the item's text at the end of its last line."""
    return text[:-1] + item["textEdit"]["newText"] + "\n"


def test_a_hidden_card_is_offered_first_where_the_table_writes_it(snippets: Client, plain: Client) -> None:
    first = _items(snippets, "take.txt", CAROLETO)[0]
    assert first["label"] == "??" and first["textEdit"]["newText"] == "?? from ${1:Dom}"
    assert first["insertTextFormat"] == 2
    first = _items(plain, "take.txt", CAROLETO)[0]
    assert first["label"] == first["textEdit"]["newText"] == "?? from Dom"
    assert _faults(_written(CAROLETO, first)) == []


def test_a_hidden_card_is_offered_only_where_the_game_takes_it(plain: Client) -> None:
    played = [i["label"] for i in _legal(_items(plain, "play.txt", PLOUC))]
    assert "??" in played and played[0] != "??"  # a card laid face up: after the cards seen
    assert "??" not in [i["label"] for i in _legal(_items(plain, "flasche.txt", FLASCHE))]  # every card is seen there
    assert any(code == "TR-UNSEEN-CARD" for _, code in _faults(FLASCHE.replace("plays ", "plays ??")))


def test_a_move_that_needs_a_suit_or_a_player_is_offered_whole(plain: Client) -> None:
    items = _items(plain, "ace.txt", PLOUC)
    labels = [i["label"] for i in items]
    assert {"AH for S", "AH for D", "AH for C"} <= set(labels) and "AH" not in labels
    targeted = [i["label"] for i in _items(plain, "on.txt", DRAWN)]
    assert "4H" not in targeted and {"4H on Ben", "4H on Dom"} <= set(targeted)


@pytest.mark.parametrize("name, text", [("ace", PLOUC), ("take", CAROLETO), ("on", DRAWN), ("flasche", FLASCHE)])
def test_every_legal_item_written_brings_no_fault(plain: Client, name: str, text: str) -> None:
    legal = _legal(_items(plain, f"every-{name}.txt", text))
    assert legal
    for item in legal:
        assert _faults(_written(text, item)) == [], item["label"]


def test_the_calls_due_come_first(plain: Client) -> None:
    text = ('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "5H"]\n\n'
            "Ana plays QH QS QD\nAna plays 8D 8C\nBen plays 5C\nAna plays QC\n\n")
    first = _items(plain, "calls.txt", text)[0]
    assert first["textEdit"]["newText"] == "Ana says carte"
    assert _faults(_written(text, first)) == []
    assert _faults(text + "Ben plays 5S\n")  # the turn before the call: a fault
