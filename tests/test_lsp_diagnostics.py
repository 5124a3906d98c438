"""The diagnostics the editor pushes, made as the protocol's JSON by the server itself
(referee/lsp/server.py ``diagnostic_json``), not by pygls's converter: the same JSON to
the key, for every kind of problem and every place; and a change that rules thousands
of faults again makes only the diagnostics it has not made before."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pygls.workspace import Workspace  # noqa: E402

from referee.lsp import server as lsp_server  # noqa: E402

URI = "file:///tmp/referee-diagnostics/game.txt"
TEXT = """; Every kind of problem: faults (one accepted), a line that cannot be read, a misspelled tag, a note
[Game "bataille-corse"]
[Players "Océane Noé"]
[Slpas "pair"]
[Penalty "burn-3"]
[Penalty "burn-3"]

Océane plays 5H
Noé plays 5C
Océane plays 7D
Noé plays ZZ
Zoé plays 9S
Océane plays 8S ; accepted BC-OUT-OF-TURN
🂡 Océane plays 9S
Océane slaps
"""


def server_with(text: str, encoding: lsp.PositionEncodingKind = lsp.PositionEncodingKind.Utf16) -> lsp_server.RefereeServer:
    server = lsp_server.build()
    server.protocol._workspace = Workspace(None, position_encoding=encoding)
    server.workspace.put_text_document(lsp.TextDocumentItem(URI, "referee", 1, text))
    server.refresh(URI)
    return server


@pytest.mark.parametrize("encoding", [lsp.PositionEncodingKind.Utf16, lsp.PositionEncodingKind.Utf8,
                                      lsp.PositionEncodingKind.Utf32])
def test_a_diagnostic_made_as_json_is_what_the_converter_makes_of_it(encoding) -> None:
    server = server_with(TEXT, encoding)
    model = server.documents[URI]
    problems = model.problems()
    assert {p.severity for p in problems} >= {"error", "hint", "information"}
    assert any(p.code is None for p in problems) and any(p.code for p in problems)
    converter = default_converter()
    for problem in problems:
        made = lsp_server.diagnostic_json(server, model, problem)
        assert made.isascii()
        assert json.loads(made) == converter.unstructure(lsp_server.diagnostic(server, model, problem)), problem
    assert [json.loads(d) for d in server.diagnostics_json(URI)] == [converter.unstructure(d) for d in server.diagnostics(URI)]


def long_game() -> list[str]:
    from referee.simulate import simulate

    return simulate("bataille-corse", 3, 4, hidden=True, max_events=600).split("\n")


def test_a_change_and_its_undo_push_what_a_fresh_server_pushes_and_remake_only_what_changed() -> None:
    """A card made unreadable early in a long game throws every turn after it off
    (hundreds of faults), then the card is put back: each time the diagnostics are those
    of a server that never saw the text before, and those of the faults that were
    diagnosed already (before the change, and all of them after the undo) are not made
    again."""
    lines = long_game()
    text = "\n".join(lines) + "\n"
    n = next(i for i, line in enumerate(lines) if " plays " in line and i > 40)
    changed = list(lines)
    changed[n] = changed[n].rsplit(" ", 1)[0] + " ZZ"
    broken = "\n".join(changed) + "\n"
    server = server_with(text)
    first = server.diagnostics_json(URI)
    for version in (broken, text, broken):
        server.workspace.get_text_document(URI)._source = version
        server.refresh(URI)
        pushed = server.diagnostics_json(URI)
        assert pushed == server_with(version).diagnostics_json(URI)
    assert len(pushed) > 100, "the change throws the game off"
    server.workspace.get_text_document(URI)._source = text
    server.refresh(URI)
    again = server.diagnostics_json(URI)
    assert [id(d) for d in again] == [id(d) for d in first], "the text as it was: every diagnostic made already"


def test_a_fault_on_a_line_whose_text_changed_is_placed_on_the_new_text() -> None:
    """The same fault on a line written otherwise (a misspelled tag, its value spaced
    out: the diagnostic spans the header): its diagnostic is made again, to the new end."""
    server = server_with(TEXT)
    spaced = TEXT.replace('[Slpas "pair"]', '[Slpas    "pair"]')

    def tag(diagnostics: list[str]) -> dict:
        (found,) = [d for d in map(json.loads, diagnostics) if d.get("code") == "REC-MISSPELLED-TAG"]
        return found

    before = tag(server.diagnostics_json(URI))
    server.workspace.get_text_document(URI)._source = spaced
    server.refresh(URI)
    after = tag(server.diagnostics_json(URI))
    assert after["range"]["end"]["character"] == before["range"]["end"]["character"] + 3
    assert after == tag(server_with(spaced).diagnostics_json(URI))
