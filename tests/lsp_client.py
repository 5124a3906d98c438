"""A small Language Server Protocol client for the tests: a real ``python -m referee lsp``
in a subprocess, spoken to over a pipe in JSON-RPC with Content-Length framing, as an
editor speaks to it."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60.0
"""Seconds to wait for an answer before the test fails (a loaded CI machine is slow)."""


class Client:
    def __init__(self, cwd: Path | None = None):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "LANGUAGE": "en"}  # the locale aside: English unless asked
        self.process = subprocess.Popen([sys.executable, "-m", "referee", "lsp", "--stdio"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd or ROOT, env=env)
        self.incoming: queue.Queue = queue.Queue()
        self.answers: dict[str, object] = {}
        """What to answer the server's requests, by method (else null)."""
        self.asked: list[dict] = []
        """The server's requests, as they came."""
        self.notes: list[dict] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr = b""
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.incoming.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            self.incoming.put(json.loads(stream.read(length)))

    def _read_errors(self) -> None:
        for line in self.process.stderr:
            self.stderr += line

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def _next(self, deadline: float) -> dict:
        message = self.incoming.get(timeout=max(0.01, deadline - time.monotonic()))
        if message is None:
            raise AssertionError("the server stopped: " + self.stderr.decode("utf-8", "replace"))
        if "id" in message and "method" in message:  # a request from the server (a registration): answer it
            self.asked.append(message)
            self.send({"id": message["id"], "result": self.answers.get(message["method"])})
        return message

    def request(self, method: str, params: dict | None) -> object:
        answer = self.answer(method, params)
        assert "error" not in answer, answer["error"]
        return answer.get("result")

    def answer(self, method: str, params: dict | None) -> dict:
        """The whole answer to a request (its result or its error)."""
        self.next_id += 1
        number = self.next_id
        self.send({"id": number, "method": method, "params": params})
        return self.answer_to(number)

    def answer_to(self, number: int | None) -> dict:
        deadline = time.monotonic() + WAIT
        while True:
            message = self._next(deadline)
            if "id" in message and message.get("id") == number and "method" not in message:
                return message
            self.notes.append(message)

    def raw(self, body: bytes) -> None:
        """A message's body sent as it is (framed), JSON or not."""
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()

    def note(self, method: str) -> dict:
        """The next notification of a method (those already come, first)."""
        deadline = time.monotonic() + WAIT
        while True:
            for n, note in enumerate(self.notes):
                if note.get("method") == method:
                    del self.notes[n]
                    return note
            self.notes.append(self._next(deadline))

    def diagnostics(self, uri: str, after: float | None = None) -> list[dict]:
        """The next diagnostics published for a document (those already come, first)."""
        return self.published(uri)["diagnostics"]

    def published(self, uri: str) -> dict:
        """The next publishDiagnostics' params for a document (those already come, first)."""
        deadline = time.monotonic() + WAIT
        while True:
            for n, note in enumerate(self.notes):
                if note.get("method") == "textDocument/publishDiagnostics" and note["params"]["uri"] == uri:
                    del self.notes[: n + 1]
                    return note["params"]
            self.notes.append(self._next(deadline))

    def start(self, locale: str | None = None, capabilities: dict | None = None, **more: object) -> dict:
        params = {"processId": os.getpid(), "rootUri": None, "capabilities": capabilities or {},
                  **({"locale": locale} if locale else {}), **more}
        result = self.request("initialize", params)
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str) -> list[dict]:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "referee", "version": 1, "text": text}})
        return self.diagnostics(uri)

    def change(self, uri: str, text: str, version: int = 2) -> list[dict]:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})
        return self.diagnostics(uri)

    def at(self, method: str, uri: str, line: int, character: int, **more: object) -> object:
        return self.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}, **more})

    def stop(self) -> bytes:
        try:
            self.request("shutdown", None)
            self.notify("exit", {})
            self.process.wait(timeout=WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        return self.stderr


@contextmanager
def running(capabilities: dict | None = None) -> Iterator[Client]:
    """A server started for a module's tests, stopped after them: nothing it wrote to its
    standard error may be a traceback."""
    client = Client()
    client.start(capabilities=capabilities)
    yield client
    stderr = client.stop()
    assert b"Traceback" not in stderr, stderr.decode("utf-8", "replace")
