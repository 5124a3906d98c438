"""The JSON-RPC side of ``referee lsp`` to the letter of the protocol, where pygls's own
protocol class falls short of it:

- a request whose params do not have the protocol's shape (``position: {line: -1}``,
  ``params: null``) is answered -32602 (invalid params), a message that is not an object
  -32600 (invalid request), a body that is not JSON -32700 (parse error, ``id: null``);
  a notification of the wrong shape is dropped, and said in the log;
- an error answer never carries a traceback (``error.data``): what went wrong is said in
  its message, and once in the editor's log;
- a request after ``shutdown`` is answered -32600, and ``exit`` ends the process with 1
  when no ``shutdown`` came first (server.run);
- a request cancelled (``$/cancelRequest``) while an asynchronous handler works it out
  (the workspace's diagnostics) is answered -32800 (RequestCancelled); the others are
  answered before the next message is read, and a cancellation after its answer is
  ignored, as the protocol allows;
- ``didChange`` is applied as the protocol says: incremental changes (ranges in the
  client's position units, lines cut at ``\\n``, ``\\r\\n`` and ``\\r`` only) as well as
  whole texts, and a change whose version is not newer than the document's is ignored
  (a stale change: applying it would put the document out of step).

pygls is pinned below 3: the methods overridden here (``structure_message``,
``handle_message``, ``_send_handler_result``) are those of its 2.x protocol class."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
from collections.abc import Generator
from concurrent.futures import Future
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import (JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcRequestCancelled)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.workspace import PositionCodec

from ..messages import say

logger = logging.getLogger(__name__)

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
"""A line as the protocol counts lines: up to ``\\n``, ``\\r\\n`` or ``\\r`` (never the
other characters Python's ``splitlines`` also cuts at, such as a form feed or U+2028)."""


class Written:
    """A request's result written in JSON already (by the server: thousands of
    diagnostics), sent as it is rather than converted by pygls."""

    def __init__(self, text: str) -> None:
        self.text = text


class Refused:
    """A message that cannot be handled as it came, and the error to answer it with (a
    request's; nothing is answered to a notification)."""

    def __init__(self, id: int | str | None, error: JsonRpcException | None) -> None:
        self.id = id
        self.error = error


def lines_of(text: str) -> list[str]:
    """The lines of a text as the protocol counts them, each with its line end."""
    return _LINE.findall(text)


def apply_change(text: str, change: lsp.TextDocumentContentChangeEvent, codec: PositionCodec) -> str:
    """A text after one ``contentChanges`` entry: the whole text, or a range replaced
    (its positions in the client's units; past the end of a line or of the text, at its end)."""
    if not isinstance(change, lsp.TextDocumentContentChangePartial):
        return change.text

    def offset(position: lsp.Position) -> int:
        start = _line_start(text, position.line)
        if start is None:
            return len(text)
        end = _END.search(text, start)
        body = text[start:end.start() if end else len(text)]
        inside = codec.position_from_client_units([body], lsp.Position(0, position.character)).character
        return start + min(inside, len(body))

    start, end = offset(change.range.start), offset(change.range.end)
    return text[:start] + change.text + text[max(start, end):]


_END = re.compile(r"\r\n|\r|\n")


def _line_start(text: str, line: int) -> int | None:
    """Where a line starts (lines counted as the protocol counts them); None past the text.
    Only the line ends before it are looked for: a change near the top costs little."""
    if line == 0:
        return 0
    for number, end in enumerate(_END.finditer(text), 1):
        if number == line:
            return end.end() if end.end() < len(text) else None
    return None


class RefereeProtocol(LanguageServerProtocol):
    """pygls's protocol, with the answers the specification asks for (module docstring)."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" in data and "method" in data:  # a request: answered
                logger.warning("invalid params for %r (request %r)", data.get("method"), data.get("id"))
                return Refused(_id(data["id"]), JsonRpcInvalidParams(say("lsp.error.invalid-params", method=str(data.get("method")))))
            if "id" in data and "method" not in data:  # an answer to the server's request: its future fails
                logger.warning("an answer of the wrong shape to request %r", data.get("id"))
                future = self._request_futures.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_exception(error)
                return Refused(None, None)
            logger.warning("a message of the wrong shape dropped: %r", data.get("method"))
            return Refused(None, None)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Refused):
            if message.id is not None and message.error is not None:
                self._send_response(message.id, error=message.error.to_response_error())
            return
        if not hasattr(message, "jsonrpc"):  # a body that is JSON, but not a JSON-RPC message
            known = _id(message.get("id")) if isinstance(message, dict) else None
            self.refuse(known, JsonRpcInvalidRequest.CODE, say("lsp.error.not-a-message"))
            return
        if self._shutdown and getattr(message, "method", lsp.EXIT) != lsp.EXIT:
            if getattr(message, "id", None) is not None and hasattr(message, "params"):  # a request: answered, refused
                self._send_response(message.id, error=JsonRpcInvalidRequest(say("lsp.error.shutting-down")).to_response_error())
            return
        super().handle_message(message)

    def notify_json(self, method: str, params: str) -> None:
        """A notification whose params are written in JSON already (by the server, not by
        pygls's converter)."""
        self.send_json(f'{{"params":{params},"method":{json.dumps(method)},"jsonrpc":"2.0"}}')

    def send_json(self, body: str) -> None:
        """A message written in JSON already, framed and written as pygls writes one
        (``_send_data``); in ASCII (``json.dumps``'s default): its length in bytes is its length."""
        if self.writer is None:
            logger.error("a message not sent: no transport")
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        try:
            written = self.writer.write((header + body).encode(self.CHARSET))
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            logger.exception("a notification not sent: the pipe is closed")
            raise

    def refuse(self, id: int | str | None, code: int, message: str) -> None:
        """An error answer; ``id`` None when the message's own could not be read."""
        self._send_data({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        """A request's answer; an error answered with its message and no traceback."""
        if future.cancelled():  # a $/cancelRequest came while it was worked out (an asynchronous handler)
            self._request_futures.pop(msg_id, None)
            self._send_response(msg_id, error=JsonRpcRequestCancelled(say("lsp.error.cancelled")).to_response_error())
            return
        error = future.exception()
        if error is None and isinstance(future.result(), Written):
            self._request_futures.pop(msg_id, None)
            self._result_types.pop(msg_id, None)
            self.send_json(f'{{"id":{json.dumps(msg_id)},"jsonrpc":"2.0","result":{future.result().text}}}')
            return
        if error is None:
            super()._send_handler_result(future, msg_id=msg_id)
            return
        self._request_futures.pop(msg_id, None)
        if not isinstance(error, JsonRpcException):
            server: Any = self._server
            server.failed(error)
            error = JsonRpcInternalError(f"{type(error).__name__}: {error}")
        answer = error.to_response_error()
        answer.data = None
        self._send_response(msg_id, error=answer)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        """A document's changes applied, unless the document is not open or the change
        is not newer than the text held (a stale change, ignored)."""
        uri = params.text_document.uri
        document = self.workspace.text_documents.get(uri)
        if document is None:
            logger.warning("a change to a document not open ignored: %s", uri)
            return
        if document.version is not None and params.text_document.version <= document.version:
            logger.warning("a stale change ignored: %s version %s (held: %s)", uri, params.text_document.version,
                           document.version)
            return
        text = document.source
        for change in params.content_changes:
            text = apply_change(text, change, document.position_codec)
        document._source = text  # the workspace's own copy, cut as the protocol cuts lines
        document.version = params.text_document.version
        handler = self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None


def _id(value: object) -> int | str | None:
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


class Server(LanguageServer):
    """pygls's server on RefereeProtocol; ``failed`` says an unexpected error once, in the
    editor's log."""

    def __init__(self, name: str, version: str) -> None:
        super().__init__(name, version, protocol_cls=RefereeProtocol,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)

    def failed(self, error: BaseException) -> None:
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, say("lsp.failed", error=repr(error))))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A body that is not JSON answered -32700 (``id`` null, as JSON-RPC asks); other
        errors said in the log, not in a window over the user's work."""
        import json

        if isinstance(error, json.JSONDecodeError):
            protocol: Any = self.protocol
            protocol.refuse(None, -32700, say("lsp.error.not-json", reason=error.msg))
            return
        if source is not None and getattr(source, "__name__", "") == "FeatureRequestError":
            return  # answered to the request already
        self.failed(error)
