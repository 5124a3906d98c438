"""What ``referee lsp`` offers beyond the diagnostics (issue 37), over a pipe as an editor
speaks to it: fix-all and ``context.only``, range formatting, renaming a player and
finding their lines, inlay hints from the replay, semantic tokens (cards by suit) and
whole legal moves as snippets. Each answer is checked against what the command-line
tools say of the same record."""

from __future__ import annotations

import pytest

from referee.engine import check_games
from referee.cli.fmt import canonical
from referee.notation import parse_text
from referee.state import state_in_text

from .conftest import RECORDS
from .lsp_client import Client, running
from .test_lsp import _apply

pytest.importorskip("pygls")

SNIPPETS = {"textDocument": {"completion": {"completionItem": {"snippetSupport": True}}}}


@pytest.fixture(scope="module")
def client():
    with running(capabilities=SNIPPETS) as client:
        yield client


def _uri(name: str) -> str:
    return f"file:///lsp-features/{name}"


def _faults(text: str) -> list[tuple[int, str | None]]:
    found = []
    for item, report in check_games(parse_text(text)):
        found += [(v.line, v.code) for v in report.violations] + [(e.line, None) for e in report.errors]
        if report.error is not None and not report.errors:
            found.append((report.error.line, None))
    return sorted(found, key=str)


def _actions(client: Client, uri: str, first: int, last: int, only: list[str] | None = None) -> list[dict]:
    context: dict = {"diagnostics": [], **({"only": only} if only is not None else {})}
    return client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "context": context,
                                                      "range": {"start": {"line": first, "character": 0},
                                                                "end": {"line": last, "character": 0}}})


# --- Fix-all and context.only ----------------------------------------------------------------

FIXABLE = ('[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nana plays 7H\nBen plays 8H\nAna plays 9H10H\n'
           "Ben plyas 2C\n")


def test_fix_all_applies_every_sure_fix_in_one_edit(client: Client) -> None:
    uri = _uri("fixall.txt")
    client.open(uri, FIXABLE)
    (action,) = _actions(client, uri, 0, 0, ["source.fixAll"])
    assert action["kind"] == "source.fixAll.referee"
    fixed = _apply(FIXABLE, action["edit"]["changes"][uri])
    assert fixed == FIXABLE.replace("ana plays", "Ana plays").replace("9H10H", "9H 10H")  # the verb is a guess: left
    assert [line for line, _ in _faults(fixed)] == [7]


def test_context_only_gives_the_kinds_asked_for(client: Client) -> None:
    uri = _uri("only.txt")
    client.open(uri, FIXABLE)
    quick = _actions(client, uri, 3, 6, ["quickfix"])
    assert quick and {a["kind"] for a in quick} == {"quickfix"}
    source = _actions(client, uri, 3, 6, ["source"])
    assert {a["kind"] for a in source} <= {"source", "source.fixAll.referee"} and "source.fixAll.referee" in {a["kind"] for a in source}
    everything = _actions(client, uri, 3, 6)
    assert {a["kind"] for a in everything} >= {"quickfix", "source.fixAll.referee"}


# --- Range formatting ------------------------------------------------------------------------

def test_range_formatting_changes_only_the_lines_asked_for(client: Client) -> None:
    text = '[Game "bataille-corse"]\n[Players   "Ana Ben"]\n\nAna plays 7H\nBen   plays 8H\nAna    plays 9H\n'
    uri = _uri("range.txt")
    client.open(uri, text)
    edits = client.request("textDocument/rangeFormatting", {
        "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True},
        "range": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 3}}})
    assert _apply(text, edits) == text.replace("Ben   plays", "Ben plays")
    whole = canonical("range.txt", text.encode("utf-8"))
    edits = client.request("textDocument/rangeFormatting", {
        "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 6, "character": 0}}})
    assert _apply(text, edits) == whole


# --- A player's name -------------------------------------------------------------------------

MATCH = ('[Game "caroleto"]\n[Match "m"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Ann"]\nBen says roi\n'
         "Ben takes ?? from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\nAnn takes ?? from Dom\n"
         "Ann plays 4H on Ben\nBen plays 3D on Ann\n\n"
         '[Game "caroleto"]\n[Match "m"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\nBen takes ?? from Ann\n\n'
         '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\nBen takes ?? from Ann\n')


def _position(text: str, line_text: str, word: str) -> dict:
    lines = text.split("\n")
    line = lines.index(line_text)
    return {"line": line, "character": lines[line].index(word) + 1}


def test_rename_a_player_in_every_line_and_header_of_the_match(client: Client) -> None:
    uri = _uri("rename.txt")
    client.open(uri, MATCH)
    where = _position(MATCH, "Ann plays 4H on Ben", "Ann")
    prepared = client.request("textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": where})
    assert prepared == {"start": {"line": where["line"], "character": 0}, "end": {"line": where["line"], "character": 3}}
    edit = client.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": where, "newName": "Zoé"})
    renamed = _apply(MATCH, edit["changes"][uri])
    first, third = renamed.split('[Game "caroleto"]\n[Players')
    assert "Ann" not in first and first.count("Zoé") == MATCH.split('[Game "caroleto"]\n[Players')[0].count("Ann")
    assert third == MATCH.split('[Game "caroleto"]\n[Players')[1]  # another game's Ann is someone else
    assert len(_faults(renamed)) == len(_faults(MATCH))
    taken = client.answer("textDocument/rename", {"textDocument": {"uri": uri}, "position": where, "newName": "Ben"})
    assert taken["error"]["code"] == -32803 and "Ben" in taken["error"]["message"]
    spaced = client.answer("textDocument/rename", {"textDocument": {"uri": uri}, "position": where, "newName": "Jo Ann"})
    assert spaced["error"]["code"] == -32803
    on_card = _position(MATCH, "Ann plays 4H on Ben", "4H")
    assert client.request("textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": on_card}) is None


def test_a_player_is_declared_in_players_and_found_on_each_line(client: Client) -> None:
    uri = _uri("references.txt")
    client.open(uri, MATCH)
    where = _position(MATCH, "Ben plays 3D on Ann", "Ann")
    (found,) = [client.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": where})]
    assert found["range"]["start"] == {"line": 2, "character": 10}
    refs = client.request("textDocument/references", {"textDocument": {"uri": uri}, "position": where,
                                                       "context": {"includeDeclaration": False}})
    lines = sorted(r["range"]["start"]["line"] + 1 for r in refs)
    assert lines == [4, 6, 9, 10, 11, 17]


# --- Inlay hints -----------------------------------------------------------------------------

def test_inlay_hints_show_the_table_at_the_end_of_each_round_and_game(client: Client) -> None:
    text = (RECORDS / "caroleto" / "full-game.txt").read_text(encoding="utf-8")
    uri = _uri("hints.txt")
    client.open(uri, text)
    lines = text.split("\n")
    found = client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}})
    assert found
    markers = [n for n, line in enumerate(lines) if line.startswith("-- round")]
    hinted = [h["position"]["line"] for h in found]
    for marker in markers[1:]:
        assert max(n for n in range(marker) if lines[n].strip() and not lines[n].startswith(";")) in hinted
    for hint in found:
        line = hint["position"]["line"]
        assert hint["position"]["character"] == len(lines[line].rstrip())
        table = state_in_text(text, line + 1).table
        for player, hand in table.hands.items():
            assert f"{player} {hand.count}" in hint["label"]


# --- Semantic tokens -------------------------------------------------------------------------

def _decoded(legend: dict, data: list[int], text: str) -> list[tuple[str, str, set[str]]]:
    lines, found, line, column = text.split("\n"), [], 0, 0
    for n in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[n:n + 5]
        line, column = line + delta_line, (column + delta_start if delta_line == 0 else delta_start)
        units = lines[line].encode("utf-16-le")
        word = units[2 * column:2 * (column + length)].decode("utf-16-le")
        found.append((word, legend["tokenTypes"][kind],
                      {m for i, m in enumerate(legend["tokenModifiers"]) if modifiers >> i & 1}))
    return found


def test_semantic_tokens_colour_cards_by_suit() -> None:
    client = Client()
    text = ('[Game "bataille-corse"]\n[Players "Ana Zoë🂡"]\n\nAna plays 7H\nZoë🂡 plays 10♠ ; accepted BC-FALSE-SLAP\n'
            "Ana plays QD\n")
    try:
        legend = client.start()["capabilities"]["semanticTokensProvider"]["legend"]
        uri = _uri("tokens.txt")
        client.open(uri, text)
        data = client.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["data"]
    finally:
        assert b"Traceback" not in client.stop()
    found = _decoded(legend, data, text)
    assert ("7H", "enumMember", {"hearts", "red"}) in found
    assert ("10♠", "enumMember", {"spades", "black"}) in found
    assert ("QD", "enumMember", {"diamonds", "red"}) in found
    assert ("Zoë🂡", "variable", {"declaration"}) in found and ("Zoë🂡", "variable", set()) in found  # UTF-16 lengths
    assert ("plays", "keyword", set()) in found and ("BC-FALSE-SLAP", "macro", set()) in found
    assert ("Players", "property", set()) in found


# --- Snippets --------------------------------------------------------------------------------

def test_completion_writes_a_whole_legal_move_as_a_snippet(client: Client) -> None:
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\nAna plays \n'
    uri = _uri("snippet.txt")
    client.open(uri, text)
    items = {i["label"]: i for i in client.at("textDocument/completion", uri, 4, 10)["items"]}
    ace = items["AH"]
    assert ace["insertTextFormat"] == 2 and ace["textEdit"]["newText"] == "AH for ${1|S,D,C|}"
    assert items["4S"].get("insertTextFormat") != 2 and items["4S"]["textEdit"]["newText"] == "4S"
    caroleto = MATCH.split("\n\n")[0].rsplit("\n", 2)[0] + "\nAnn plays \n"
    uri = _uri("snippet-on.txt")
    client.open(uri, caroleto)
    line = caroleto.count("\n") - 1
    items = {i["label"]: i for i in client.at("textDocument/completion", uri, line, 10)["items"]}
    assert items["4H"]["textEdit"]["newText"] == "4H on ${1|Ben,Dom|}"
    plain = Client()
    try:
        plain.start()
        plain.open(uri, caroleto)
        items = {i["label"]: i for i in plain.at("textDocument/completion", uri, line, 10)["items"]}
        assert "4H" not in items  # a client without snippets gets each whole move, not the card alone
        assert items["4H on Ben"]["textEdit"]["newText"] == "4H on Ben" and "4H on Dom" in items
    finally:
        plain.stop()


# --- Highlights and folding ------------------------------------------------------------------

def test_highlight_the_other_plays_of_a_card_and_the_lines_of_a_player(client: Client) -> None:
    text = '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna plays 7H\nBen plays 7H\nAna plays 8H\n'
    uri = _uri("highlight.txt")
    client.open(uri, text)
    found = client.request("textDocument/documentHighlight", {"textDocument": {"uri": uri},
                                                              "position": {"line": 3, "character": 11}})
    assert sorted((h["range"]["start"]["line"], h["range"]["start"]["character"]) for h in found) == [(3, 10), (4, 10)]
    found = client.request("textDocument/documentHighlight", {"textDocument": {"uri": uri},
                                                              "position": {"line": 5, "character": 1}})
    assert sorted(h["range"]["start"]["line"] for h in found) == [1, 3, 5]


def test_games_and_rounds_fold(client: Client) -> None:
    text = (RECORDS / "caroleto" / "full-game.txt").read_text(encoding="utf-8")
    uri = _uri("folding.txt")
    client.open(uri, text)
    found = client.request("textDocument/foldingRange", {"textDocument": {"uri": uri}})
    starts = {r["startLine"] for r in found}
    lines = text.split("\n")
    rounds = [n for n, line in enumerate(lines) if line.startswith("-- round")]
    assert rounds and set(rounds[:-1]) <= starts
    games = [g.line - 1 for g in parse_text(text) if hasattr(g, "events")]
    assert set(games) <= starts and all(r["endLine"] > r["startLine"] for r in found)
