"""``referee lsp`` to the letter of the protocol (issue 37), over a pipe as an editor
speaks to it (tests/lsp_client.py): the error answers of JSON-RPC, incremental changes
and versions, shutdown and exit, pulled diagnostics, the editor's settings and the
configuration files watched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine import check_games
from referee.notation import parse_text

from .lsp_client import WAIT, Client

pytest.importorskip("pygls")

GAME = '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna plays 7H\nBen plays 8H\n'
URI = "file:///lsp-test/protocol.txt"


@pytest.fixture()
def client():
    client = Client()
    client.start()
    yield client
    stderr = client.stop()
    assert b"Traceback" not in stderr, stderr.decode("utf-8", "replace")


def _codes(text: str) -> list[str]:
    return sorted(v.code for _, report in check_games(parse_text(text)) for v in report.violations)


def _hover(uri: str, line: int = 0, character: int = 0) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


# --- JSON-RPC's errors -----------------------------------------------------------------------

@pytest.mark.parametrize("params", [_hover(URI, -1), None, {"textDocument": {"uri": URI}}, {"position": "x"}])
def test_invalid_params_are_answered_32602(client: Client, params: object) -> None:
    answer = client.answer("textDocument/hover", params)
    assert answer["error"]["code"] == -32602 and "data" not in answer["error"]
    assert client.open(URI, GAME) == []  # and the server goes on


def test_a_body_that_is_not_json_is_answered_32700(client: Client) -> None:
    client.raw(b'{"jsonrpc": "2.0", "id": 7, "method": ')
    assert client.answer_to(None)["error"]["code"] == -32700
    client.raw(b"[1, 2]")
    assert client.answer_to(None)["error"]["code"] == -32600
    assert client.open(URI, GAME) == []
    assert not [n for n in client.notes if n.get("method") == "window/showMessage"]  # no popup over the user's work


def test_a_request_on_a_document_not_open_keeps_no_model(client: Client) -> None:
    for uri in ("file:///nowhere/never-opened.txt", URI):
        answer = client.answer("textDocument/hover", _hover(uri))
        assert answer["error"]["code"] == -32602 and "data" not in answer["error"], answer
        assert "Traceback" not in json.dumps(answer)
    client.open(URI, GAME)
    client.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    assert client.diagnostics(URI) == []
    assert client.answer("textDocument/completion", _hover(URI))["error"]["code"] == -32602
    assert client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []}) == {}


# --- Changes and versions ------------------------------------------------------------------

def _range(line: int, start: int, end: int) -> dict:
    return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


def test_incremental_changes_are_applied_in_utf16_units_and_protocol_lines() -> None:
    """The server announces incremental changes and applies them: their columns in
    UTF-16 units (a card symbol outside the Basic Multilingual Plane before the edit takes
    two), their lines cut at \\n, \\r\\n and \\r only (a U+2028 in a comment is no line end)."""
    client = Client()
    try:
        assert client.start()["capabilities"]["textDocumentSync"]["change"] == 2
        text = '[Game "bataille-corse"]\n[Players "Ana Ben"]\n; a \u2028 comment\n\nAna plays 7H ; 🂡\nBen plays 8H\n'
        assert client.open(URI, text) == []
        change = {"range": _range(4, 16, 16), "text": " and"}  # after the astral card: column 16 in UTF-16
        client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [change]})
        assert client.diagnostics(URI) == []
        change = {"range": _range(5, 10, 12), "text": "ZZ"}  # Ben plays ZZ: line 5 as the protocol counts
        client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [change]})
        (fault,) = client.diagnostics(URI)
        assert fault["range"] == _range(5, 10, 12) and "ZZ" in fault["message"]
        edits = client.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                                           "options": {"tabSize": 4, "insertSpaces": True}})
        assert edits == [] or "🂡 and" in edits[0]["newText"]
    finally:
        assert b"Traceback" not in client.stop()


def test_stale_changes_are_ignored_and_diagnostics_carry_the_version(client: Client) -> None:
    client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "referee", "version": 5, "text": GAME}})
    assert client.published(URI)["version"] == 5
    faulty = GAME.replace("Ben plays 8H", "Ben plays ZZ")
    client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 6}, "contentChanges": [{"text": faulty}]})
    published = client.published(URI)
    assert published["version"] == 6 and len(published["diagnostics"]) == 1
    client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 4}, "contentChanges": [{"text": GAME}]})
    client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 7}, "contentChanges": []})
    published = client.published(URI)
    assert published["version"] == 7 and len(published["diagnostics"]) == 1  # the stale text was not taken


# --- Shutdown and exit -----------------------------------------------------------------------

def test_exit_without_shutdown_ends_with_1() -> None:
    client = Client()
    client.start()
    client.notify("exit", None)
    assert client.process.wait(timeout=WAIT) == 1


def test_shutdown_then_exit_ends_with_0_and_requests_between_are_refused() -> None:
    client = Client()
    client.start()
    client.open(URI, GAME)
    assert client.request("shutdown", None) is None
    answer = client.answer("textDocument/hover", _hover(URI, 4, 1))
    assert answer["error"]["code"] == -32600
    client.notify("exit", None)
    assert client.process.wait(timeout=WAIT) == 0


# --- Pulled diagnostics ----------------------------------------------------------------------

PULLS = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}


def test_a_client_that_pulls_diagnostics_gets_them_when_it_asks() -> None:
    client = Client()
    faulty = GAME.replace("Ben plays 8H", "Ben plays 8H\nBen plays 9H")
    try:
        capabilities = client.start(capabilities=PULLS)["capabilities"]
        assert capabilities["diagnosticProvider"]["interFileDependencies"] is False
        client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "referee", "version": 1,
                                                                "text": faulty}})
        report = client.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
        assert report["kind"] == "full" and sorted(d["code"] for d in report["items"]) == _codes(faulty) != []
        again = client.request("textDocument/diagnostic", {"textDocument": {"uri": URI}, "previousResultId": report["resultId"]})
        assert again == {"kind": "unchanged", "resultId": report["resultId"]}
        client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": GAME}]})
        changed = client.request("textDocument/diagnostic", {"textDocument": {"uri": URI}, "previousResultId": report["resultId"]})
        assert changed["kind"] == "full" and changed["items"] == []
        client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []})
        assert not [n for n in client.notes if n.get("method") == "textDocument/publishDiagnostics"]  # none pushed
    finally:
        assert b"Traceback" not in client.stop()


def test_workspace_diagnostics_cover_the_records_the_configuration_does_not_exclude(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "referee.toml").write_text('exclude = ["old"]\n', encoding="utf-8")
    faulty = GAME.replace("Ben plays 8H", "Ben plays 8H\nBen plays 9H")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "kept.txt").write_text(faulty, encoding="utf-8")
    (tmp_path / "a.txt").write_text(faulty, encoding="utf-8")
    (tmp_path / "b.txt").write_text(GAME, encoding="utf-8")
    client = Client(cwd=tmp_path)
    try:
        client.start(capabilities=PULLS, rootUri=tmp_path.as_uri(),
                     workspaceFolders=[{"uri": tmp_path.as_uri(), "name": "w"}])
        opened = (tmp_path / "b.txt").as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": opened, "languageId": "referee", "version": 3,
                                                                "text": faulty}})  # the editor's text, not the disk's
        reports = client.request("workspace/diagnostic", {"previousResultIds": []})["items"]
        found = {r["uri"].rsplit("/", 1)[-1]: r for r in reports}
        assert set(found) == {"a.txt", "b.txt"}
        assert sorted(d["code"] for d in found["a.txt"]["items"]) == _codes(faulty)
        assert found["b.txt"]["version"] == 3 and len(found["b.txt"]["items"]) == len(_codes(faulty))
        previous = [{"uri": r["uri"], "value": r["resultId"]} for r in reports]
        again = client.request("workspace/diagnostic", {"previousResultIds": previous})["items"]
        assert {r["kind"] for r in again} == {"unchanged"}
    finally:
        assert b"Traceback" not in client.stop()


# --- The editor's settings and the configuration files ---------------------------------------

def _carte() -> str:
    from referee.games.carte_et_plouc.examples import EXAMPLES

    return EXAMPLES["CP-MISSED-CARTE"]


def test_settings_at_start_and_when_they_change() -> None:
    """``initializationOptions`` first; ``didChangeConfiguration`` with the settings, or
    without them (then the server asks ``workspace/configuration``); ``severity`` per
    code; the editor's ``lang``; a setting that cannot be used is said and left out."""
    text = _carte()
    client = Client()
    try:
        client.start(initializationOptions={"referee": {"ignore": ["CP-MISSED-CARTE"]}},
                     capabilities={"workspace": {"configuration": True}})
        assert client.open(URI, text) == []
        client.notify("workspace/didChangeConfiguration", {"settings": {"referee": {"severity": {"CP": "warning"}}}})
        (fault,) = client.diagnostics(URI)
        assert fault["code"] == "CP-MISSED-CARTE" and fault["severity"] == 2
        client.answers["workspace/configuration"] = [{"lang": "fr", "select": ["CP-MISSED"], "colour": "red"}]
        client.notify("workspace/didChangeConfiguration", {"settings": None})
        assert "colour" in client.note("window/showMessage")["params"]["message"]
        (fault,) = client.diagnostics(URI)
        assert fault["severity"] == 1 and "carte" in fault["message"] and fault["message"] != _english_message(text)
    finally:
        assert b"Traceback" not in client.stop()


def _english_message(text: str) -> str:
    (message,) = [v.message for _, report in check_games(parse_text(text)) for v in report.violations]
    return message


def test_a_watched_configuration_file_is_read_again_when_it_changes(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    config = tmp_path / "referee.toml"
    config.write_text('ignore = ["CP-MISSED-CARTE"]\n', encoding="utf-8")
    record = tmp_path / "game.txt"
    client = Client(cwd=tmp_path)
    try:
        client.start(capabilities={"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}})
        assert client.open(record.as_uri(), _carte()) == []
        registered = [m for m in client.asked if m["method"] == "client/registerCapability"]
        watchers = registered[0]["params"]["registrations"][0]["registerOptions"]["watchers"]
        assert {w["globPattern"] for w in watchers} == {"**/referee.toml", "**/pyproject.toml"}
        config.write_text("", encoding="utf-8")
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": config.as_uri(), "type": 2}]})
        assert [d["code"] for d in client.diagnostics(record.as_uri())] == ["CP-MISSED-CARTE"]
    finally:
        assert b"Traceback" not in client.stop()


# --- A line added above many games (issue 33) ------------------------------------------------

def test_games_moved_down_are_not_replayed(client: Client) -> None:
    """A line added at the top moves every game down: their reports are numbered anew
    (what check says, at check's lines), and only the game that changed is replayed."""
    import subprocess
    import sys

    from .conftest import ROOT

    text = subprocess.run([sys.executable, "-m", "referee", "simulate", "bataille-corse", "-n", "4", "--seed", "7",
                           "--count", "20"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    text = text.replace("plays", "plyas", 1)  # a fault in the first game, and the rest as simulated
    games = [g for g in parse_text(text) if hasattr(g, "events")]
    client.open(URI, text)
    before = client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []})[URI]
    changed = "; a line added at the top\n" + text
    shown = client.change(URI, changed)
    after = client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []})[URI]
    assert after["events replayed"] - before["events replayed"] <= len(games[0].events)
    assert after["reports moved"] - before.get("reports moved", 0) >= len(games) - 1
    from .test_lsp import _expected, _shown

    assert _shown(shown) == _expected(changed) != set()


def test_identical_games_moved_keep_their_own_lines() -> None:
    """Games read once and moved in place (their events renumbered, not copied) never
    share their events with another place of the same text: each edit says what a fresh
    reading says, line for line (a guard for the renumbering in place: it passes before
    it too, and fails without the guards of model.py)."""
    from referee.lsp.model import Document

    game = GAME.replace("Ben plays 8H", "Ben plays 8H\nBen plays 9H") + "\n"  # a game and a blank line: one stretch
    other = GAME.replace("7H", "6H") + "\n"
    sequences = [[game + game, "; x\n" + game + game, game + "; x\n" + game, game + game, "; x\n" + game + game + game],
                 [game + other, game + game],  # found in place, and moved from there
                 [other + game, game + game]]  # moved away, then found in place
    for texts in sequences:
        kept = Document("same.txt")
        for text in texts:
            kept.update(text)
            fresh = Document("same.txt")
            fresh.update(text)
            assert [(p.line, p.code) for p in kept.problems()] == [(p.line, p.code) for p in fresh.problems()]
            for _, item, _ in fresh.reports:
                assert [e.line for e in kept.record_at(item.line).events] == [e.line for e in item.events]
