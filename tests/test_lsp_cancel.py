"""A long request cancelled (issue 37): the workspace's diagnostics are worked out a record
at a time, the editor's messages read between two; a ``$/cancelRequest`` for them stops
the work, answered -32800 (RequestCancelled) with a message and no traceback, and the
server answers what comes next."""

from __future__ import annotations

import pytest

from .conftest import RECORDS
from .lsp_client import Client

pytest.importorskip("pygls")

PULLS = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}


def test_workspace_diagnostics_cancelled_answer_request_cancelled() -> None:
    client = Client()
    try:
        client.start(capabilities=PULLS, rootUri=RECORDS.as_uri(), workspaceFolders=[{"uri": RECORDS.as_uri(), "name": "r"}])
        client.next_id += 1
        number = client.next_id
        client.send({"id": number, "method": "workspace/diagnostic", "params": {"previousResultIds": []}})
        client.notify("$/cancelRequest", {"id": number})
        answer = client.answer_to(number)
        assert "result" not in answer and answer["error"]["code"] == -32800, answer.get("result", {}).get("items", [])[:1]
        assert answer["error"]["message"] and not answer["error"].get("data")
        stats = client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []})
        assert stats == {}  # the server goes on; no record was kept for the request
        whole = client.request("workspace/diagnostic", {"previousResultIds": []})["items"]
        assert len(whole) > 100  # not cancelled: every record of records/
    finally:
        assert b"Traceback" not in client.stop()
