"""The protocol side of ``referee lsp``: pygls's LanguageServer over standard input and
output, each request answered by features.py from the document's model.

Diagnostics are published DEBOUNCE seconds after the last change (a request that needs
the document reads the change at once). The client sends the whole text on each change
(full synchronisation: the server's lines are then cut as the client cuts them, whatever
control characters a record holds). Places go out in the units the client asked for
(UTF-16 by default)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ..config import Config, ConfigError, find, resolve
from ..messages import say
from . import features
from .model import Document, Problem

DEBOUNCE = 0.1
"""Seconds of quiet after a change before its diagnostics are worked out (100 ms)."""
STATS = "referee.stats"
"""A command that answers how many games were read and events replayed, by document."""

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "information": lsp.DiagnosticSeverity.Information,
             "hint": lsp.DiagnosticSeverity.Hint}
_KINDS = {"player": lsp.CompletionItemKind.Variable, "verb": lsp.CompletionItemKind.Keyword,
          "card": lsp.CompletionItemKind.Value, "word": lsp.CompletionItemKind.Text,
          "tag": lsp.CompletionItemKind.Property, "value": lsp.CompletionItemKind.EnumMember}
_SYMBOLS = {"game": lsp.SymbolKind.Module, "hand": lsp.SymbolKind.Namespace, "round": lsp.SymbolKind.Struct}


class RefereeServer(LanguageServer):
    """The documents open, each with its model, and the diagnostics waiting to go out."""

    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("referee")
        except PackageNotFoundError:
            number = "0"
        super().__init__("referee", number, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.documents: dict[str, Document] = {}
        self.client_language: str | None = None
        """The language of the editor's interface, when it says it (``locale``) and referee speaks it."""
        self.waiting: dict[str, asyncio.TimerHandle] = {}
        self.configs: dict[str, Config] = {}

    def config_for(self, path: str | None) -> Config:
        """The configuration ``check`` would use for a file in that folder."""
        folder = _folder(path)
        if folder not in self.configs:
            try:
                self.configs[folder] = find(folder)
            except ConfigError as error:
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, str(error)))
                self.configs[folder] = Config()
            for warning in self.configs[folder].warnings:  # a configuration skipped: not the user's own
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, warning))
        return self.configs[folder]

    def speak(self, config: Config) -> None:
        """Speak a document's language: its configuration's ``lang``, else the editor's,
        else the locale's (as ``check``: --lang aside)."""
        from ..locales import from_locale
        from ..messages import use

        lang = resolve(config, ".").lang  # as every face resolves it (no --lang in an editor)
        use(lang or self.client_language or from_locale(), explicit=lang is not None)

    def document(self, uri: str) -> Document:
        """The model of a document, brought up to date with any change still waiting."""
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
            self.publish(uri)
        if uri not in self.documents:
            self.refresh(uri)
        model = self.documents[uri]
        self.speak(model.config)
        return model

    def refresh(self, uri: str) -> None:
        path = _path(uri)
        model = self.documents.get(uri)
        if model is None:
            model = self.documents[uri] = Document(path or uri, self.config_for(path))
        self.speak(model.config)
        model.update(self.workspace.get_text_document(uri).source)

    def later(self, uri: str) -> None:
        """Publish a document's diagnostics once it has been quiet for DEBOUNCE seconds."""
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.waiting[uri] = asyncio.get_running_loop().call_later(DEBOUNCE, self.publish, uri)

    def publish(self, uri: str) -> None:
        self.waiting.pop(uri, None)
        try:
            self.refresh(uri)
            model = self.documents[uri]
            diagnostics = [diagnostic(self, uri, model, p) for p in model.problems()]
        except Exception as error:  # a server that stops answering loses the editor: say it, go on
            self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, say("lsp.failed", error=repr(error))))
            return
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diagnostics))


def _path(uri: str) -> str | None:
    """The file a document is, when it is one (not an unsaved buffer)."""
    return to_fs_path(uri) if uri.startswith("file:") else None


def _folder(path: str | None) -> str:
    """Where the configuration of a document is looked for, as ``check`` looks for it."""
    return os.path.dirname(os.path.abspath(path)) if path else os.getcwd()


def _position(server: RefereeServer, uri: str, model: Document, line: int, column: int) -> lsp.Position:
    """A place (from 1, in characters) in the client's units."""
    codec = server.workspace.get_text_document(uri).position_codec
    line = max(line, 1)
    position = lsp.Position(line - 1, max(column, 1) - 1)
    return codec.position_to_client_units(model.lines, position) if line <= len(model.lines) else lsp.Position(line - 1, 0)


def _range(server: RefereeServer, uri: str, model: Document, edit: features.Edit) -> lsp.Range:
    return lsp.Range(_position(server, uri, model, edit.line, edit.column),
                     _position(server, uri, model, edit.end_line, edit.end_column))


def _from_client(server: RefereeServer, uri: str, model: Document, position: lsp.Position) -> tuple[int, int]:
    codec = server.workspace.get_text_document(uri).position_codec
    if position.line >= len(model.lines):
        return position.line + 1, 1
    inside = codec.position_from_client_units(model.lines, position)
    return inside.line + 1, inside.character + 1


def diagnostic(server: RefereeServer, uri: str, model: Document, problem: Problem) -> lsp.Diagnostic:
    """A problem at the word it points at (the whole line for a header or a note)."""
    text = model.line(problem.line)
    if problem.severity == "information" or problem.column <= 1 and text.lstrip().startswith("["):
        begin, end = len(text) - len(text.lstrip()) + 1, len(text.rstrip()) + 1
    else:
        begin, end = features.word_at(text, problem.column)
        begin = min(begin, problem.column) if problem.column <= len(text) + 1 else len(text) + 1
    end = max(end, begin + 1) if begin <= len(text) else begin
    where = features.Edit(problem.line, begin, problem.line, end, "")
    message = problem.message + (f"\n« {problem.rule} »" if problem.rule else "")
    return lsp.Diagnostic(_range(server, uri, model, where), message, _SEVERITY[problem.severity], problem.code,
                          source="referee", data={"code": problem.code} if problem.code else None)


def _edit(server: RefereeServer, uri: str, model: Document, edit: features.Edit) -> lsp.TextEdit:
    return lsp.TextEdit(_range(server, uri, model, edit), edit.text)


def build() -> RefereeServer:
    server = RefereeServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: RefereeServer, params: lsp.InitializeParams) -> None:
        from ..locales import languages

        wanted = (params.locale or "").replace("_", "-").split("-")[0].lower()
        ls.client_language = wanted if wanted in languages() else None

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RefereeServer, params: lsp.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.documents.pop(uri, None)
        ls.configs.pop(_folder(_path(uri)), None)  # the configuration read again: it may have changed
        ls.later(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RefereeServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RefereeServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.documents.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "[", '"']))
    def completion(ls: RefereeServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        found = features.complete(model, line, column)
        where = features.Edit(line, found.column, line, column, "")
        items = []
        for n, item in enumerate(found.items):
            edit = lsp.TextEdit(_range(ls, uri, model, where), item.label)
            items.append(lsp.CompletionItem(item.label, kind=_KINDS[item.kind], detail=item.detail or None,
                                            sort_text=f"{0 if item.first else 1}{n:05d}", text_edit=edit,
                                            preselect=True if item.first and n == 0 else None))
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RefereeServer, params: lsp.HoverParams) -> lsp.Hover | None:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        text = features.hover(model, line, column)
        if text is None:
            return None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.Source]))
    def code_action(ls: RefereeServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        model = ls.document(uri)
        first = _from_client(ls, uri, model, params.range.start)[0]
        last = _from_client(ls, uri, model, params.range.end)[0]
        found = []
        for action in features.actions(model, first, last):
            edits = [_edit(ls, uri, model, e) for e in action.edits]
            kind = lsp.CodeActionKind.QuickFix if action.kind == "quickfix" else lsp.CodeActionKind.Source
            problems = [diagnostic(ls, uri, model, action.problem)] if action.problem and action.problem.message else None
            found.append(lsp.CodeAction(action.title, kind=kind, diagnostics=problems, is_preferred=action.preferred or None,
                                        edit=lsp.WorkspaceEdit(changes={uri: edits})))
        return found

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RefereeServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        uri = params.text_document.uri
        model = ls.document(uri)
        edits = [_edit(ls, uri, model, e) for e in features.format_edits(model)]
        refused = model.memo.get("format refused")
        if refused is not None:  # as fmt says it: the record is left as it is
            from ..safe_text import visible

            ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, visible(str(refused))))
        return edits

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RefereeServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        uri = params.text_document.uri
        model = ls.document(uri)

        def convert(symbol: features.Symbol) -> lsp.DocumentSymbol:
            whole = features.Edit(symbol.line, 1, symbol.end, len(model.line(symbol.end)) + 1, "")
            first = features.Edit(symbol.line, 1, symbol.line, len(model.line(symbol.line)) + 1, "")
            return lsp.DocumentSymbol(symbol.name, _SYMBOLS[symbol.kind], _range(ls, uri, model, whole),
                                      _range(ls, uri, model, first), detail=symbol.detail or None,
                                      children=[convert(c) for c in symbol.children])

        return [convert(s) for s in features.symbols(model)]

    @server.command(STATS)
    def stats(ls: RefereeServer, *args: Any) -> dict[str, dict[str, int]]:
        return {uri: dict(model.counts) for uri, model in ls.documents.items()}

    return server


def run() -> int:
    """``referee lsp``: serve on standard input and output until the editor says exit."""
    import sys

    output = os.fdopen(os.dup(sys.stdout.fileno()), "wb")  # the protocol's own: pygls closes it at exit
    sys.stdout = sys.stderr  # nothing else may write into the protocol's stream
    build().start_io(sys.stdin.buffer, output)
    return 0
