"""docs/editors.md compares ``referee lsp`` with ``ruff server`` line by line (issue 37):
what its referee column says the server does is what the server declares when it starts
(a provider for each request it answers, none for a "no")."""

from __future__ import annotations

import re

import pytest

from .conftest import ROOT
from .lsp_client import Client

pytest.importorskip("pygls")

DOC = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
PROVIDERS = {
    "`textDocument/completion`": ("completionProvider",),
    "`textDocument/rename`, `prepareRename`": ("renameProvider",),
    "`textDocument/definition`, `references`": ("definitionProvider",),
    "`textDocument/documentHighlight`": ("documentHighlightProvider",),
    "`textDocument/documentSymbol`": ("documentSymbolProvider",),
    "`textDocument/foldingRange`": ("foldingRangeProvider",),
    "`textDocument/inlayHint`": ("inlayHintProvider",),
    "`textDocument/semanticTokens/full`": ("semanticTokensProvider", "full"),
    "`textDocument/formatting`": ("documentFormattingProvider",),
    "`textDocument/rangeFormatting`": ("documentRangeFormattingProvider",),
    "`textDocument/hover`": ("hoverProvider",),
    "`textDocument/diagnostic` (pulled)": ("diagnosticProvider",),
    "`workspace/diagnostic`": ("diagnosticProvider", "workspaceDiagnostics"),
    "`codeAction/resolve`": ("codeActionProvider", "resolveProvider"),
    "notebooks (`notebookDocument/*`)": ("notebookDocumentSync",),
}
"""A row of the table, and where the server's capabilities say whether it does it."""


def _rows() -> dict[str, tuple[str, str]]:
    section = DOC.split("## Against ruff's server", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and not set(cells[0]) <= set("-") and cells[0] != "capability":
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def test_the_table_says_what_the_server_declares() -> None:
    rows = _rows()
    assert len(rows) >= 30 and set(PROVIDERS) <= set(rows)
    client = Client()
    try:
        capabilities = client.start()["capabilities"]
    finally:
        assert b"Traceback" not in client.stop()
    for row, path in PROVIDERS.items():
        found: object = capabilities
        for key in path:
            found = found.get(key) if isinstance(found, dict) else None
        said = rows[row][1]
        assert bool(found) == (not re.match(r"no\b", said)), (row, said, found)
    commands = capabilities["executeCommandProvider"]["commands"]
    assert all(f"`{c}`" in rows["`workspace/executeCommand`"][1] for c in commands)
