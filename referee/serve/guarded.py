"""The connections of ``referee serve``, bounded: a page on a local network meets slow
and many clients, on purpose or not.

uvicorn bounds nothing of the time a client takes to send its request, and accepts
connections until the process runs out of files, then logs a traceback for each it
cannot accept. Here, in uvicorn's own HTTP protocol (h11):

- a request (its line, headers and body) must arrive within ``REQUEST_TIMEOUT`` seconds
  of the connection, or of the end of the answer before it; else the connection is
  closed. An event stream, once asked for, is an answer and runs on;
- one address holds at most ``PER_CLIENT`` connections at once, and all of them at most
  ``Limits.most`` (well under the process's limit of open files); a connection past
  either is closed as soon as it is accepted, so that the others are still served;
- what the server would log of it (refused or slow connections, requests that are not
  HTTP, accepts the system refused) is said in one line a minute at most, never with a
  traceback.

The limits are documented in docs/disputes.md."""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..messages import say

REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a whole request."""
PER_CLIENT = 64
"""Connections one address may hold open at once (a phone holds two or three)."""
MOST = 512
"""Connections the server holds open at once, at most (fewer when the process may open
fewer files: see ``Limits``)."""
QUIET_FOR = 60.0
"""Seconds between two lines said of refused or slow connections."""


class Limits:
    """The connections open now, by address, and the bounds on them."""

    def __init__(self, per_client: int = PER_CLIENT, most: int | None = None) -> None:
        self.per_client = per_client
        self.most = most if most is not None else _most()
        self.open: Counter[str] = Counter()
        self.total = 0

    def admit(self, client: str) -> bool:
        """Count a new connection from ``client``, if the bounds allow it."""
        if self.total >= self.most or self.open[client] >= self.per_client:
            return False
        self.open[client] += 1
        self.total += 1
        return True

    def release(self, client: str) -> None:
        self.open[client] -= 1
        self.total -= 1
        if self.open[client] <= 0:
            del self.open[client]


def _most() -> int:
    """MOST, or half the files this process may open when that is fewer (the record, the
    lock and the listening socket need a few)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MOST if soft == resource.RLIM_INFINITY else max(8, min(MOST, soft // 2))


class Quiet(logging.Filter):
    """Lets one record a minute through, as one line of its own (no traceback): what a
    flood of connections makes the server log never floods the terminal."""

    def __init__(self, every: float = QUIET_FOR) -> None:
        super().__init__()
        self.every, self.last = every, -every

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        record.msg, record.args = say("serve.overloaded"), ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def quiet_logs() -> None:
    """One line a minute at most from the loggers a flood of connections reaches."""
    for name in ("asyncio", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, Quiet) for f in logger.filters):
            logger.addFilter(Quiet())


def protocol(limits: Limits, timeout: float = REQUEST_TIMEOUT) -> type[H11Protocol]:
    """uvicorn's h11 protocol with ``limits`` on its connections and ``timeout`` on its requests."""

    class Guarded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _counted = ""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            client = self.client[0] if self.client else ""
            if not limits.admit(client):
                logging.getLogger("uvicorn.error").warning("connection refused: too many open")
                transport.abort()
                return
            self._counted = client or "?"
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted:
                limits.release("" if self._counted == "?" else self._counted)
                self._counted = ""
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
                self._disarm()  # the whole request is in: the answer may take its time

        def on_response_complete(self) -> None:
            self._arm()  # the next request on this connection has its own time
            super().on_response_complete()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                logging.getLogger("uvicorn.error").warning("request too slow")
                self.transport.abort()

    return Guarded


def server_options(limits: Limits | None = None) -> dict[str, Any]:
    """What ``uvicorn.Config`` is given for bounded connections."""
    quiet_logs()
    return {"http": protocol(limits or Limits()), "timeout_keep_alive": 5}
