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
from referee.lsp.settings import MAX_PROBLEMS  # noqa: E402

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
    (dozens of faults, until the replay stops following the game), then the card is put back: each time the diagnostics are those
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
    assert len(pushed) > 30 and "stopped following the game" in pushed[-1], "the change throws the game off"
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


def cascade() -> str:
    """Games whose early card cannot be read: every turn after it is thrown off, dozens of
    faults a game until the replay stops following it, well over a thousand in all."""
    from referee.simulate import simulate

    games = []
    for seed in range(35, 75):
        lines = simulate("bataille-corse", 4, seed, {"Slaps": "pair sandwich big-mac addition"}).split("\n")
        n = next(i for i, line in enumerate(lines) if " plays " in line and i > 20)
        lines[n] = lines[n].rsplit(" ", 1)[0] + " ZZ"
        games.append("\n".join(lines) + "\n")
    return "\n".join(games)


def test_at_most_max_problems_are_shown_the_first_in_the_records_order_then_how_many_more() -> None:
    """The editor's setting maxProblems (by default 1,000, what VS Code shows of a file):
    the first faults in the record's order, the line that cannot be read always, then one
    note, on the line of the first fault left out, that says how many more there are."""
    from referee.lsp.settings import read_settings

    text = cascade()
    server = server_with(text)
    model = server.documents[URI]
    every = model.problems()
    faults = [p for p in every if p.code]
    assert len(faults) > MAX_PROBLEMS, "the cascade is longer than the limit"
    shown = [json.loads(d) for d in server.diagnostics_json(URI)]
    unreadable = [p for p in every if p.severity == "error" and p.code is None]
    unread = {id(p) for p in unreadable}
    kept, left = [], []
    for p in every:  # every unreadable line, the faults and notes up to the limit
        (kept if id(p) in unread or len(kept) - sum(id(k) in unread for k in kept) < MAX_PROBLEMS else left).append(p)
    assert len(shown) == len(unreadable) + MAX_PROBLEMS + 1 == len(kept) + 1
    assert every.index(unreadable[-1]) > every.index(left[0]), "an unreadable line past the limit is shown too"
    assert [d["message"] for d in shown[:-1]] == [p.message + (f"\n« {p.rule} »" if p.rule else "") for p in kept]
    assert shown[-1]["range"]["start"]["line"] == left[0].line - 1
    assert shown[-1]["severity"] == lsp.DiagnosticSeverity.Information and "code" not in shown[-1]
    assert shown[-1]["message"].startswith(f"{len(left):,} more problems from this line on, not shown")
    server.editor, server.made = read_settings({"maxProblems": 3}), {}  # as take_settings sets them
    assert [json.loads(d)["message"] for d in server.diagnostics_json(URI)][:-1] == [
        p.message + (f"\n« {p.rule} »" if p.rule else "") for p in every if id(p) in unread or p in faults[:3]]
    server.editor, server.made = read_settings({"maxProblems": 0}), {}
    assert len(server.diagnostics_json(URI)) == len(every)
    assert [d.message for d in server.diagnostics(URI)] == [json.loads(d)["message"] for d in server.diagnostics_json(URI)]


def test_one_problem_more_is_said_in_the_singular_in_french() -> None:
    from referee.messages import use

    server = server_with(TEXT)
    model = server.documents[URI]
    count = sum(1 for p in model.problems() if p.code or p.severity == "information")  # what the limit counts
    use("fr", explicit=True)
    try:
        note = model.problems(count - 1)[-1]
        assert note.message.startswith("1 autre problème à partir de cette ligne, non montré\u00a0:"), note.message
    finally:
        use("en", explicit=True)


def test_a_max_problems_setting_that_is_not_a_count_is_left_out_and_said() -> None:
    from referee.lsp.settings import read_settings

    assert read_settings({"maxProblems": 50}).max_problems == 50
    for bad in (-1, True, "100", 2.5):
        settings = read_settings({"maxProblems": bad})
        assert settings.max_problems == MAX_PROBLEMS
        assert settings.warnings == ("the editor's setting maxProblems is left out: expected a whole number from 0 "
                                     "(no limit), such as 1,000",)


def test_a_pulled_report_holds_what_is_pushed_and_what_the_converter_would_write() -> None:
    """A client that pulls (``textDocument/diagnostic``) gets the diagnostics written by
    the server as those pushed are: the same as a pushing client gets, the same as
    pygls's converter would write them, in a report with its kind and id."""
    from tests.lsp_client import Client

    pulling, pushed = Client(), Client()
    try:
        pulling.start(capabilities={"textDocument": {"diagnostic": {"dynamicRegistration": False}}})
        pushed.start()
        pulling.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "referee", "version": 1,
                                                                  "text": TEXT}})
        report = pulling.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
        assert report["kind"] == "full" and report["resultId"] and len(report["items"]) >= 6
        assert report["items"] == pushed.open(URI, TEXT)
        converter = default_converter()
        server = server_with(TEXT)
        assert report["items"] == [converter.unstructure(d) for d in server.diagnostics(URI)]
        long = cascade()  # over the limit: the first shown, then how many more, as pushed
        pulling.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": long}]})
        report = pulling.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
        assert report["items"] == [json.loads(d) for d in server_with(long).diagnostics_json(URI)]
        unreadable = sum(1 for d in report["items"] if "code" not in d and d["severity"] == lsp.DiagnosticSeverity.Error)
        assert len(report["items"]) == MAX_PROBLEMS + unreadable + 1
        assert "more problems from this line on" in report["items"][-1]["message"]
    finally:
        assert b"Traceback" not in pulling.stop()
        assert b"Traceback" not in pushed.stop()
