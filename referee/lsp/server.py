"""The protocol side of ``referee lsp``: pygls's LanguageServer over standard input and
output (on protocol.py's RefereeProtocol, which answers as the specification says), each
request answered by features.py from the document's model.

Diagnostics are pushed DEBOUNCE seconds after the last change (a request that needs
the document reads the change at once), with the version of the text they are about;
a client that pulls them (``textDocument/diagnostic``, ``workspace/diagnostic``) gets them
when it asks, and none pushed. Changes come incrementally (ranges) or as whole texts, and
the lines are cut as the protocol cuts them (``\\n``, ``\\r\\n``, ``\\r``), whatever control
characters a record holds. Places go out in the units the client asked for (UTF-16 by
default; UTF-8 and UTF-32 when it offers them)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable, Sequence
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path

from ..config import Config, ConfigError, find
from ..messages import say
from . import features, hints, players, tokens
from .model import Document, Problem
from .protocol import Server, Written, lines_of
from .settings import EditorSettings, read_settings

DEBOUNCE = 0.1
"""Seconds of quiet after a change before its diagnostics are worked out (100 ms)."""
STATS = "referee.stats"
"""A command that answers how many games were read and events replayed, by document."""
CONFIG_FILES = ("referee.toml", "pyproject.toml")
"""The files whose change makes the configuration be read again (watched)."""

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "information": lsp.DiagnosticSeverity.Information, "hint": lsp.DiagnosticSeverity.Hint}
_KINDS = {"player": lsp.CompletionItemKind.Variable, "verb": lsp.CompletionItemKind.Keyword,
          "card": lsp.CompletionItemKind.Value, "word": lsp.CompletionItemKind.Text,
          "tag": lsp.CompletionItemKind.Property, "value": lsp.CompletionItemKind.EnumMember}
FIX_ALL = "source.fixAll.referee"
REQUEST_FAILED = -32803
_TOKEN_TYPES = ["variable", "keyword", "enumMember", "string", "property", "comment", "macro", "number"]
_TOKEN_MODIFIERS = ["declaration", "spades", "hearts", "diamonds", "clubs", "red", "black"]
_TOKEN_KIND = {"player": "variable", "verb": "keyword", "keyword": "keyword", "card": "enumMember", "word": "string",
               "value": "string", "tag": "property", "comment": "comment", "code": "macro", "number": "number"}
LEGEND = lsp.SemanticTokensLegend(_TOKEN_TYPES, _TOKEN_MODIFIERS)
"""Players are variables, verbs keywords, cards enum members with their suit and colour
as modifiers (``hearts``, ``red``), codes macros."""
_SYMBOLS = {"game": lsp.SymbolKind.Module, "hand": lsp.SymbolKind.Namespace, "round": lsp.SymbolKind.Struct}


class RefereeServer(Server):
    """The documents open, each with its model, and the diagnostics waiting to go out."""

    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("referee")
        except PackageNotFoundError:
            number = "0"
        super().__init__("referee", number)
        self.documents: dict[str, Document] = {}
        self.client_language: str | None = None
        """The language of the editor's interface, when it says it (``locale``) and referee speaks it."""
        self.waiting: dict[str, asyncio.TimerHandle] = {}
        self.configs: dict[str, Config] = {}
        self.editor = EditorSettings()
        """The editor's settings (settings.py): they win over the configuration file's."""
        self.generation = 0
        """Counts the changes of settings and configuration: part of a diagnostic report's id."""
        self.pulls = False
        """Whether the client pulls diagnostics (then none is pushed)."""
        self.shut = False
        """Whether ``shutdown`` came (``exit`` then ends with 0, else 1)."""
        self.made: dict[str, tuple[dict[int, Made], dict[int, Made]]] = {}
        """Each document's diagnostics as last pushed, and the time before, by problem
        (``Document.problems`` gives the same Problem for the same fault): a change that
        rules thousands of faults again pushes mostly diagnostics made already."""

    def open(self, uri: str) -> bool:
        return uri in self.workspace.text_documents

    def text(self, uri: str) -> str:
        source: str = self.workspace.text_documents[uri].source
        return source

    def version_of(self, uri: str) -> int | None:
        document = self.workspace.text_documents.get(uri)
        return document.version if document is not None else None

    def take_settings(self, value: object) -> None:
        """The editor's settings changed: every open document ruled again with them."""
        settings = read_settings(value)
        for warning in settings.warnings:
            self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, warning))
        if settings == self.editor:
            return
        self.editor = settings
        self.generation += 1
        self.made.clear()  # the severities may differ
        for uri, model in self.documents.items():
            model.settings = settings.resolve(model.config, model.path)
            model.memo = {}
        self.everything_again()

    def configuration_changed(self) -> None:
        """A configuration file changed: read again, every open document ruled again."""
        self.configs.clear()
        self.documents.clear()
        self.made.clear()
        self.generation += 1
        self.everything_again()

    def everything_again(self) -> None:
        if self.pulls:
            if _can(self.client_capabilities, "workspace", "diagnostics", "refresh_support"):
                self.workspace_diagnostic_refresh(None)
            return
        for uri in list(self.workspace.text_documents):
            self.later(uri)

    def config_for(self, path: str | None) -> Config:
        """The configuration ``check`` would use for a file in that folder."""
        return self.config_in(_folder(path))

    def config_in(self, folder: str) -> Config:
        if folder not in self.configs:
            try:
                self.configs[folder] = find(folder)
            except ConfigError as error:
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, str(error)))
                self.configs[folder] = Config()
            for warning in self.configs[folder].warnings:  # a configuration skipped: not the user's own
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, warning))
        return self.configs[folder]

    def speak(self, model: Document) -> None:
        """Speak a document's language: the editor's ``lang`` setting, else its
        configuration's ``lang``, else the editor's interface's, else the locale's (as
        ``check``: the setting is its --lang)."""
        from ..text.locales import from_locale
        from ..messages import use

        lang = model.settings.lang
        use(lang or self.client_language or from_locale(), explicit=lang is not None)

    def document(self, uri: str) -> Document:
        """The model of a document, brought up to date with any change still waiting;
        a request on a document not open is answered -32602 (invalid params), and no
        model is kept for it."""
        if not self.open(uri):
            raise JsonRpcInvalidParams(say("lsp.not-open", uri=uri))
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
            self.publish(uri)
        if uri not in self.documents:
            self.refresh(uri)
        model = self.documents[uri]
        self.speak(model)
        return model

    def refresh(self, uri: str) -> None:
        path = _path(uri)
        model = self.documents.get(uri)
        if model is None:
            config = self.config_for(path)
            model = self.documents[uri] = Document(path or uri, config, self.editor.resolve(config, path or uri))
        self.speak(model)
        model.update(self.text(uri))

    def later(self, uri: str) -> None:
        """Publish a document's diagnostics once it has been quiet for DEBOUNCE seconds."""
        waiting = self.waiting.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.waiting[uri] = asyncio.get_running_loop().call_later(DEBOUNCE, self.publish, uri)

    def publish(self, uri: str) -> None:
        """Rule a document's text, and push its diagnostics (unless the client pulls them)
        as the protocol's JSON, made here (``diagnostic_json``) rather than by pygls's
        converter: the same message, in a fraction of the time."""
        self.waiting.pop(uri, None)
        if not self.open(uri):  # closed while waiting
            return
        try:
            self.refresh(uri)
            if self.pulls:
                return
            items = self.diagnostics_json(uri)
        except Exception as error:  # a server that stops answering loses the editor: say it, go on
            self.failed(error)
            return
        version = self.version_of(uri)
        versioned = "" if version is None else f',"version":{version:d}'
        params = '{"uri":' + _json(uri) + ',"diagnostics":[' + ",".join(items) + "]" + versioned + "}"
        protocol: Any = self.protocol
        protocol.notify_json(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        model = self.documents[uri]
        return [diagnostic(self, model, p) for p in model.problems(self.editor.max_problems)]

    def diagnostics_json(self, uri: str) -> list[str]:
        """``diagnostics`` as the protocol's JSON; a diagnostic pushed for the same problem
        on the same line's text, the last time or the time before, is not made again."""
        model = self.documents[uri]
        last, before = self.made.get(uri, ({}, {}))
        made: dict[int, Made] = {}
        items = []
        for problem in model.problems(self.editor.max_problems):
            key = id(problem)
            text = model.line(problem.line)
            found = made.get(key) or last.get(key) or before.get(key)
            if found is None or found[0] is not problem or found[1] != text:
                found = problem, text, diagnostic_json(self, model, problem)
            made[key] = found
            items.append(found[2])
        self.made[uri] = made, last
        return items

    def report_id(self, uri: str) -> str:
        """What a pulled report is about: the text's version and the settings'."""
        return f"{self.version_of(uri)}.{self.generation}"



def _path(uri: str) -> str | None:
    """The file a document is, when it is one (not an unsaved buffer)."""
    return to_fs_path(uri) if uri.startswith("file:") else None


def _folder(path: str | None) -> str:
    """Where the configuration of a document is looked for, as ``check`` looks for it."""
    return os.path.dirname(os.path.abspath(path)) if path else os.getcwd()


def _can(capabilities: object, *names: str) -> bool:
    """Whether the client's capabilities say yes at the end of a path of names."""
    for name in names:
        capabilities = getattr(capabilities, name, None)
    return bool(capabilities)


_UNITS: dict[str, Callable[[str], int]] = {
    "utf-8": lambda text: len(text.encode("utf-8", "surrogatepass")),
    "utf-16": lambda text: len(text.encode("utf-16-le", "surrogatepass")) // 2,
    "utf-32": len,
}
"""The code units of a text in each encoding a client may ask for (as pygls counts them,
without a loop over the characters in Python: a thousand diagnostics in a few milliseconds)."""


def _position(server: RefereeServer, uri: str, model: Document, line: int, column: int) -> lsp.Position:
    """A place (from 1, in characters) in the client's units."""
    return lsp.Position(*_place(server, model, line, column))


def _place(server: RefereeServer, model: Document, line: int, column: int) -> tuple[int, int]:
    """``_position``'s line and character, without making a Position (a diagnostic needs
    two, and a change may make thousands)."""
    line = max(line, 1)
    if line > len(model.lines):
        return line - 1, 0
    before = model.lines[line - 1][:max(column, 1) - 1]
    if before.isascii():
        return line - 1, len(before)
    codec = server.workspace.position_codec
    units = _UNITS.get(str(getattr(codec.encoding, "value", codec.encoding)))
    if units is not None:
        return line - 1, units(before)
    found = codec.position_to_client_units(model.lines, lsp.Position(line - 1, max(column, 1) - 1))
    return found.line, found.character


def _range(server: RefereeServer, uri: str, model: Document, edit: features.Edit) -> lsp.Range:
    return lsp.Range(_position(server, uri, model, edit.line, edit.column),
                     _position(server, uri, model, edit.end_line, edit.end_column))


def _from_client(server: RefereeServer, uri: str, model: Document, position: lsp.Position) -> tuple[int, int]:
    codec = server.workspace.position_codec
    if position.line >= len(model.lines):
        return position.line + 1, 1
    inside = codec.position_from_client_units(model.lines, position)
    return inside.line + 1, inside.character + 1


def _lines(server: RefereeServer, uri: str, model: Document, span: lsp.Range) -> tuple[int, int]:
    """The first and last lines (from 1) of a range the client sent."""
    return _from_client(server, uri, model, span.start)[0], _from_client(server, uri, model, span.end)[0]


Made = tuple[Problem, str, str]
"""A diagnostic made: its problem, the text of its line then, and its JSON."""
_json: Callable[[str], str] = json.encoder.encode_basestring_ascii
"""A string in JSON, in ASCII, as json.dumps writes it (its own C writer, called directly)."""
_RULES: dict[str, str] = {}
"""The end of a message that quotes its rule (``\n« rule »``), in JSON without its opening
quote, by rule: the same few rules are quoted by thousands of diagnostics."""
_DIAGNOSTIC = '{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"message":%s,"severity":%d'
_CODED = ',"code":%s,"source":"referee","data":{"code":%s}}'
_UNCODED = ',"source":"referee"}'


def diagnostic(server: RefereeServer, model: Document, problem: Problem, uri: str = "") -> lsp.Diagnostic:
    """A problem at the word it points at (the whole line for a header or a note), shown
    with the severity the editor's settings give its code."""
    line, begin, end, message, severity = _diagnosed(server, model, problem)
    return lsp.Diagnostic(lsp.Range(lsp.Position(line, begin), lsp.Position(line, end)), message, severity, problem.code,
                          source="referee", data={"code": problem.code} if problem.code else None)


def diagnostic_json(server: RefereeServer, model: Document, problem: Problem) -> str:
    """``diagnostic`` written in JSON (in ASCII), as pygls's converter would make it (no
    field that is None), without making it: a few thousand in a few milliseconds."""
    line, begin, end, message, severity = _diagnosed(server, model, problem, quoted=False)
    if problem.rule:  # a string in JSON is its characters' in turn: the rule's part written once
        rule = _RULES.get(problem.rule)
        if rule is None:
            rule = _RULES[problem.rule] = _json(f"\n« {problem.rule} »")[1:]
        message = _json(message)[:-1] + rule
    else:
        message = _json(message)
    made = _DIAGNOSTIC % (line, begin, line, end, message, severity)
    if problem.code:
        code = _json(problem.code)
        return made + _CODED % (code, code)
    return made + _UNCODED


def _diagnosed(server: RefereeServer, model: Document, problem: Problem,
               quoted: bool = True) -> tuple[int, int, int, str, lsp.DiagnosticSeverity]:
    """Where a diagnostic goes (its line, and its first and last characters in the
    client's units, both on that line), what it says (with the rule it quotes, unless
    ``quoted`` is false), and how severe it is."""
    text = model.line(problem.line)
    if problem.severity == "information" or problem.column <= 1 and text.lstrip().startswith("["):
        begin, end = len(text) - len(text.lstrip()) + 1, len(text.rstrip()) + 1
    else:
        begin, end = features.word_at(text, problem.column)
        begin = min(begin, problem.column) if problem.column <= len(text) + 1 else len(text) + 1
    end = max(end, begin + 1) if begin <= len(text) else begin
    line, first = _place(server, model, problem.line, begin)
    message = problem.message + (f"\n« {problem.rule} »" if problem.rule and quoted else "")
    severity = problem.severity if problem.severity != "error" else server.editor.severity_of(problem.code, "error")
    return line, first, _place(server, model, problem.line, end)[1], message, _SEVERITY[severity]


def _token_range(server: RefereeServer, uri: str, model: Document, token: tokens.Token) -> lsp.Range:
    return _range(server, uri, model, features.Edit(token.line, token.column, token.line, token.end, ""))


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether a code action's kind is one the client asked for (``context.only``: a
    kind asks for itself and the kinds under it, ``source`` for ``source.fixAll``)."""
    return only is None or any(kind == o or kind.startswith(o + ".") for o in only)


def _edit(server: RefereeServer, uri: str, model: Document, edit: features.Edit) -> lsp.TextEdit:
    return lsp.TextEdit(_range(server, uri, model, edit), edit.text)


def build() -> RefereeServer:
    server = RefereeServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: RefereeServer, params: lsp.InitializeParams) -> None:
        from ..text.locales import languages

        wanted = (params.locale or "").replace("_", "-").split("-")[0].lower()
        ls.client_language = wanted if wanted in languages() else None
        ls.pulls = _can(params.capabilities, "text_document", "diagnostic")
        if params.initialization_options is not None:
            ls.take_settings(params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: RefereeServer, params: lsp.InitializedParams) -> None:
        if _can(ls.client_capabilities, "workspace", "did_change_watched_files", "dynamic_registration"):
            watchers = [lsp.FileSystemWatcher(f"**/{name}") for name in CONFIG_FILES]
            ls.client_register_capability(lsp.RegistrationParams([lsp.Registration(
                "referee-configuration", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                lsp.DidChangeWatchedFilesRegistrationOptions(watchers))]))
        ask_settings(ls)

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: RefereeServer, params: None) -> None:
        ls.shut = True
        for waiting in ls.waiting.values():
            waiting.cancel()
        ls.waiting.clear()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: RefereeServer, params: lsp.DidChangeConfigurationParams) -> None:
        if isinstance(params.settings, dict) and params.settings:
            ls.take_settings(params.settings)
        else:  # "ask me": the client keeps them (VS Code)
            ask_settings(ls)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: RefereeServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.rsplit("/", 1)[-1] in CONFIG_FILES for change in params.changes):
            ls.configuration_changed()

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
        ls.made.pop(uri, None)
        if not ls.pulls:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, lsp.DiagnosticOptions(False, True, identifier="referee"))
    def pull(ls: RefereeServer, params: lsp.DocumentDiagnosticParams) -> lsp.DocumentDiagnosticReport | Written:
        uri = params.text_document.uri
        ls.document(uri)
        made = ls.report_id(uri)
        if params.previous_result_id == made:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=made)
        items = ",".join(ls.diagnostics_json(uri))  # written here, as those pushed
        return Written(f'{{"items":[{items}],"kind":"full","resultId":{_json(made)}}}')

    @server.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def pull_all(ls: RefereeServer, params: lsp.WorkspaceDiagnosticParams) -> lsp.WorkspaceDiagnosticReport:
        """Worked out a record at a time, the messages that came meanwhile read between two:
        a ``$/cancelRequest`` for it stops it there, answered -32800 (RequestCancelled)."""
        previous = {p.uri: p.value for p in params.previous_result_ids}
        return lsp.WorkspaceDiagnosticReport(await workspace_reports(ls, previous))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "[", '"']))
    def completion(ls: RefereeServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        found = features.complete(model, line, column)
        where = features.Edit(line, found.column, line, column, "")
        snippets = _can(ls.client_capabilities, "text_document", "completion", "completion_item", "snippet_support")
        items: list[lsp.CompletionItem] = []
        for n, item in enumerate(found.items):
            snippet = snippets and bool(item.snippet)
            # a move that must go on (a suit, a player): a snippet, or each whole move written out
            written = [item.snippet] if snippet else item.plain or [item.label]
            for text in written:
                edit = lsp.TextEdit(_range(ls, uri, model, where), text)
                items.append(lsp.CompletionItem(item.label if snippet else text, kind=_KINDS[item.kind],
                                                detail=item.detail or None, text_edit=edit,
                                                sort_text=f"{0 if item.first else 1}{len(items):05d}",
                                                insert_text_format=lsp.InsertTextFormat.Snippet if snippet else None,
                                                preselect=True if item.first and n == 0 and text == written[0] else None))
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
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.Source,
                                                             FIX_ALL]))
    def code_action(ls: RefereeServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        model = ls.document(uri)
        first, last = _lines(ls, uri, model, params.range)
        only = params.context.only
        found = []
        if _wanted(lsp.CodeActionKind.QuickFix, only) or _wanted(lsp.CodeActionKind.Source, only):
            for action in features.actions(model, first, last):
                kind = lsp.CodeActionKind.QuickFix if action.kind == "quickfix" else lsp.CodeActionKind.Source
                if not _wanted(kind, only):
                    continue
                edits = [_edit(ls, uri, model, e) for e in action.edits]
                problems = [diagnostic(ls, model, action.problem)] if action.problem and action.problem.message else None
                found.append(lsp.CodeAction(action.title, kind=kind, diagnostics=problems,
                                            is_preferred=action.preferred or None,
                                            edit=lsp.WorkspaceEdit(changes={uri: edits})))
        if _wanted(FIX_ALL, only):
            fixes = features.fix_all(model)
            if fixes:
                edits = [_edit(ls, uri, model, e) for e in fixes]
                found.append(lsp.CodeAction(say("lsp.action.fix-all"), kind=FIX_ALL,
                                            edit=lsp.WorkspaceEdit(changes={uri: edits})))
        return found

    @server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
    def range_formatting(ls: RefereeServer, params: lsp.DocumentRangeFormattingParams) -> list[lsp.TextEdit]:
        uri = params.text_document.uri
        model = ls.document(uri)
        first, last = _lines(ls, uri, model, params.range)
        if params.range.end.character == 0 and last > first:  # a selection of whole lines ends at the next line's start
            last -= 1
        return [_edit(ls, uri, model, e) for e in features.format_range(model, first, last)]

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: RefereeServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        token = players.player_at(model, line, column)
        return _range(ls, uri, model, features.Edit(line, token.column, line, token.end, "")) if token else None

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    def rename(ls: RefereeServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit:
        from pygls.exceptions import JsonRpcException

        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        try:
            edits = players.rename(model, line, column, params.new_name)
        except players.RenameRefused as refused:
            raise JsonRpcException(str(refused), code=REQUEST_FAILED) from None
        return lsp.WorkspaceEdit(changes={uri: [_edit(ls, uri, model, e) for e in edits]})

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RefereeServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        token = players.player_at(model, line, column)
        found = players.declaration(model, line, token.text) if token else None
        return lsp.Location(uri, _token_range(ls, uri, model, found)) if found else None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RefereeServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        token = players.player_at(model, line, column)
        if token is None:
            return []
        found = players.occurrences(model, line, token.text)
        if not params.context.include_declaration:
            found = [t for t in found if "declaration" not in t.modifiers]
        return [lsp.Location(uri, _token_range(ls, uri, model, t)) for t in found]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    def highlight(ls: RefereeServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight]:
        uri = params.text_document.uri
        model = ls.document(uri)
        line, column = _from_client(ls, uri, model, params.position)
        return [lsp.DocumentHighlight(_token_range(ls, uri, model, t), lsp.DocumentHighlightKind.Text)
                for t in players.highlights(model, line, column)]

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding(ls: RefereeServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
        model = ls.document(params.text_document.uri)
        found = []
        for symbol in features.symbols(model):
            for part in [symbol, *symbol.children]:
                if part.end > part.line:  # lines from 0, as the protocol counts them
                    found.append(lsp.FoldingRange(part.line - 1, part.end - 1, kind=lsp.FoldingRangeKind.Region))
        for start, end in hints.trick_spans(model):
            if end > start:
                found.append(lsp.FoldingRange(start - 1, end - 1, kind=lsp.FoldingRangeKind.Region))
        return found

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
    def inlay_hint(ls: RefereeServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
        uri = params.text_document.uri
        model = ls.document(uri)
        first, last = _lines(ls, uri, model, params.range)
        return [lsp.InlayHint(_position(ls, uri, model, h.line, h.column), h.label, padding_left=True)
                for h in hints.hints(model, first, last)]

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def semantic_tokens(ls: RefereeServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        uri = params.text_document.uri
        model = ls.document(uri)
        data: list[int] = []
        before = lsp.Position(0, 0)
        for token in tokens.tokens(model):
            where = _token_range(ls, uri, model, token)
            if where.end.line != where.start.line or where.end.character <= where.start.character:
                continue
            same = where.start.line == before.line
            data += [where.start.line - before.line, where.start.character - (before.character if same else 0),
                     where.end.character - where.start.character, _TOKEN_TYPES.index(_TOKEN_KIND[token.kind]),
                     sum(1 << _TOKEN_MODIFIERS.index(m) for m in token.modifiers)]
            before = where.start
        return lsp.SemanticTokens(data)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RefereeServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        uri = params.text_document.uri
        model = ls.document(uri)
        edits = [_edit(ls, uri, model, e) for e in features.format_edits(model)]
        refused = model.memo.get("format refused")
        if refused is not None:  # as fmt says it: the record is left as it is
            from ..text.safe_text import visible

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


def ask_settings(ls: RefereeServer) -> None:
    """Ask the client for the ``referee`` section of its settings, when it keeps them."""
    if not _can(ls.client_capabilities, "workspace", "configuration"):
        return

    async def asked() -> None:
        try:
            values = await ls.workspace_configuration_async(lsp.ConfigurationParams([lsp.ConfigurationItem(section="referee")]))
        except (Exception, asyncio.CancelledError):  # an error answer, or none before shutdown: the settings stay
            return
        if values and values[0] is not None:
            ls.take_settings(values[0])

    asyncio.ensure_future(asked())


async def workspace_reports(ls: RefereeServer, previous: dict[str, str]) -> list[lsp.WorkspaceDocumentDiagnosticReport]:
    """Every record of the workspace's folders, found as ``check FOLDER`` finds them (the
    configuration's extensions and excludes): an open one as the editor holds it, the
    others as the disk does (by size and time: unchanged since the last pull, said so).
    Between two records the other messages are read (a cancellation among them)."""
    from pygls.uris import from_fs_path

    from ..files.paths import Excludes, expand

    folders = [to_fs_path(f.uri) for f in ls.workspace.folders.values()] or [ls.workspace.root_path]
    reports: list[lsp.WorkspaceDocumentDiagnosticReport] = []
    for folder in filter(None, folders):
        config = ls.config_in(os.path.abspath(folder))
        for path in expand([folder], config.extensions, Excludes(config.exclude, config.root), config.force_exclude):
            if not isinstance(path, str):
                continue
            await asyncio.sleep(0)  # the messages that came meanwhile: a $/cancelRequest stops here
            uri = from_fs_path(path) or path
            if ls.open(uri):
                ls.document(uri)
                made, version, text = ls.report_id(uri), ls.version_of(uri), None
            else:
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                made, version = f"{info.st_mtime_ns}.{info.st_size}.{ls.generation}", None
            if previous.get(uri) == made:
                reports.append(lsp.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=version, result_id=made))
                continue
            if version is None:
                try:
                    with open(path, "rb") as file:
                        text = file.read().decode("utf-8", "surrogateescape")
                except OSError:
                    continue
                model = Document(path, config, ls.editor.resolve(config, path))
                model.update(text)
                found = [diagnostic(ls, model, p) for p in model.problems(ls.editor.max_problems)]
            else:
                found = ls.diagnostics(uri)
            reports.append(lsp.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=version, items=found, result_id=made))
    return reports


def run() -> int:
    """``referee lsp``: serve on standard input and output until the editor says exit."""
    import sys

    output = os.fdopen(os.dup(sys.stdout.fileno()), "wb")  # the protocol's own: pygls closes it at exit
    sys.stdout = sys.stderr  # nothing else may write into the protocol's stream
    quiet = logging.StreamHandler(sys.stderr)  # pygls's warnings in one line each, without their tracebacks
    quiet.setFormatter(_OneLine("referee lsp: %(message)s"))
    quiet.addFilter(lambda record: not str(record.msg).startswith("Unable to deserialize"))  # said by protocol.py in one line
    for name in ("pygls", "referee.lsp"):
        logging.getLogger(name).addHandler(quiet)
        logging.getLogger(name).propagate = False
    server = build()
    server.start_io(sys.stdin.buffer, output)
    return 0 if server.shut else 1  # exit without shutdown: 1, as the specification says


class _OneLine(logging.Formatter):
    """A log line without its traceback: stderr is the editor's log, read by people."""

    def format(self, record: logging.LogRecord) -> str:
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return super().format(record)
