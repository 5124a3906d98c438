"""``referee lsp`` through a maintained test harness for language servers (pytest-lsp),
as the editors of docs/editors.md start it: with the capabilities Neovim 0.7 (Debian's),
Neovim 0.11 and VS Code declare, recorded by pytest-lsp. pytest-lsp checks every answer
against what the client said it can take (a snippet to a client without snippets, a
position encoding it did not offer): such a warning fails the test here."""

from __future__ import annotations

import os
import sys

import pytest

pytest.importorskip("pytest_lsp")

import pytest_lsp  # noqa: E402
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from referee.engine import check_games  # noqa: E402
from referee.notation import parse_text  # noqa: E402

from .conftest import ROOT  # noqa: E402

pytestmark = [pytest.mark.asyncio, pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

CLIENTS = ("neovim@v0.7.0", "neovim@v0.11.0", "visual-studio-code")
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "referee", "lsp"],
                            server_env={**os.environ, "PYTHONPATH": str(ROOT), "LANGUAGE": "en"})
TEXT = ('[Game "carte-et-plouc"]\n[Players "Zoé Ben"]\n[Starter "4H"]\n\n'
        "Zoé plays QH QS QD QC\nZoé plays 8C 8S\nBen plays 8D\n")
URI = "file:///lsp-harness/game.txt"


@pytest_lsp.fixture(config=SERVER, params=CLIENTS)
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def registered(ls: LanguageClient, params: types.RegistrationParams) -> None:
        """The watchers of referee.toml and pyproject.toml, taken as an editor takes them."""

    answer = await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities(request.param)))
    lsp_client.encoding = answer.capabilities.position_encoding or "utf-16"  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _opened(client: LanguageClient, text: str = TEXT) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(URI, "referee", 1, text)))


async def _diagnostics(client: LanguageClient) -> list[types.Diagnostic]:
    """The diagnostics as the client gets them: pulled when it can pull them (Neovim
    0.11), else pushed (and then none is pushed to a client that pulls)."""
    assert client.capabilities is not None
    if client.capabilities.text_document is not None and client.capabilities.text_document.diagnostic is not None:
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(types.TextDocumentIdentifier(URI)))
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        return list(report.items)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[URI])


async def test_diagnostics_are_those_of_check(client: LanguageClient) -> None:
    _opened(client)
    (fault,) = await _diagnostics(client)
    (expected,) = [v for _, report in check_games(parse_text(TEXT)) for v in report.violations]
    assert fault.code == expected.code and fault.range.start.line == expected.line - 1


async def test_places_are_in_the_encoding_the_client_chose(client: LanguageClient) -> None:
    """Neovim 0.11 offers UTF-8 first: a column after « é » counts two; the others UTF-16."""
    text = TEXT.replace("Ben plays 8D", "Zoé plays ZZ")
    _opened(client, text)
    found = await _diagnostics(client)
    encoding = client.encoding  # type: ignore[attr-defined]
    (fault,) = [d for d in found if d.range.start.line == 6]
    before = "Zoé plays "
    assert fault.range.start.character == (len(before.encode("utf-8")) if encoding == "utf-8" else len(before))


async def test_completion_rename_tokens_and_hints_answer_as_the_client_can_take(client: LanguageClient) -> None:
    text = TEXT.rsplit("Ben", 1)[0] + "Ben plays \n"
    _opened(client, text)
    completion = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(URI), types.Position(6, 10)))
    assert completion is not None and {"8D", "AD"} <= {i.label for i in completion.items}
    renamed = await client.text_document_rename_async(types.RenameParams(
        types.TextDocumentIdentifier(URI), types.Position(4, 1), "Léa"))
    assert renamed is not None and len(renamed.changes[URI]) == 3  # [Players] and two lines
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(types.TextDocumentIdentifier(URI)))
    assert tokens is not None and len(tokens.data) % 5 == 0 and tokens.data
    found = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(URI), types.Range(types.Position(0, 0), types.Position(8, 0))))
    assert found is not None
