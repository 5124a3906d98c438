"""``referee serve FILE``: the table on everyone's phone, from one record file.

A local web server (Starlette on Uvicorn) shows the game as it stands, offers the legal
moves, and rules each line as it is played, as ``referee play`` does; every connected
page follows live. It holds the record's writing lock for its whole run, listens on
127.0.0.1 unless told otherwise, and then asks for a token made at each start.

The web stack is the ``serve`` extra: this package imports it only when it runs, and
only the ``serve`` command imports this package."""

from __future__ import annotations

import secrets
import signal
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from ..messages import say

if TYPE_CHECKING:
    from ..config import Resolved
    from .table import Served

LOOPBACK = ("127.0.0.1", "localhost", "::1")


STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop the server as Ctrl-C does: the "stopped" line, the lock
released, and 128 + the signal's number as the exit status (130, 143, 129)."""


def run(path: str, host: str = "127.0.0.1", port: int = 8000, settings: Resolved | None = None) -> int:
    """Serve ``path`` until Ctrl-C (or SIGTERM, SIGHUP): exit status 128 + the signal's
    number then (130, 143, 129), 2 when it cannot start. ``settings``: what the
    configuration says for the record."""
    from ..live import SessionError
    from ..files.lock import LockHeld, RecordLock
    from ..notation import RecordError
    from ..cli.running import interrupted, stopping_as_ctrl_c
    from ..text.safe_text import visible

    try:
        import uvicorn  # noqa: F401  # the extra is there

        from .table import Served
    except ImportError as error:
        print(say("serve.needs-extra", module=error.name), file=sys.stderr)
        return 2
    try:
        with stopping_as_ctrl_c(interrupt=True), RecordLock(path, "serve") as lock:
            served = Served(path, settings, lock=lock)
            if not served.is_new():
                served.session()  # a record that cannot be read is said now, not on a page
            sock = _listen(host, port)
            try:
                status = _serve(served, sock, host)
            except KeyboardInterrupt as stop:  # before the server took the signals, or after
                status = interrupted(stop)
            print(say("serve.stopped", path=visible(path)), flush=True)
            return status
    except LockHeld as error:
        print(visible(str(error)), file=sys.stderr)
        return 2
    except (SessionError, RecordError) as error:
        print(visible(str(error)), file=sys.stderr)
        return 2
    except OSError as error:
        print(say("serve.cannot-listen", host=visible(host), port=port, reason=error.strerror or error), file=sys.stderr)
        return 2


def _serve(served: Served, sock: socket.socket, host: str) -> int:
    """Serve on ``sock`` until a signal of STOPPING: 128 + its number."""
    import uvicorn

    from ..text.safe_text import visible
    from .app import make_app

    port = sock.getsockname()[1]
    loopback = host in LOOPBACK
    token = None if loopback else secrets.token_urlsafe(18)
    hosts = allowed_hosts(port) if loopback else None
    app, pages = make_app(served, token, hosts)
    url = f"http://{_reachable(host)}:{port}/" + (f"?token={token}" if token else "")
    print(say("serve.listening", path=visible(served.path), url=url), flush=True)
    if token:
        _qr(url)
    print(say("serve.stop"), flush=True)

    class Server(uvicorn.Server):
        stopped_by = int(signal.SIGINT)

        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            """uvicorn's raises the signal again once stopped, which would end the process
            before the "stopped" line and the lock's release: not here."""
            before = {sig: signal.signal(sig, self.handle_exit) for sig in STOPPING}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            Server.stopped_by = int(sig)
            pages.hub.close()  # the event streams end, so that the server may stop
            super().handle_exit(sig, frame)

    from .guarded import server_options

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            server_header=False, timeout_graceful_shutdown=2, **server_options())
    try:
        Server(config).run(sockets=[sock])
    except KeyboardInterrupt as stop:
        from ..cli.running import interrupted

        return interrupted(stop)
    return 128 + Server.stopped_by


def allowed_hosts(port: int) -> set[str]:
    """The Host headers a page on this machine may send: its names with the port, and
    without it when the port is the scheme's own (80: browsers leave it out)."""
    names = ("127.0.0.1", "localhost", "[::1]")
    return {f"{name}:{port}" for name in names} | (set(names) if port == 80 else set())


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (0: any free port) and listening."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _reachable(host: str) -> str:
    """The address others use to reach the server: this machine's address on its network
    when it listens on all of them (no packet is sent to find it)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: only the routing table is read
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def _qr(url: str) -> None:
    """The address as a QR code in the terminal, for a phone's camera."""
    import segno

    print(say("serve.scan"))
    segno.make(url, error="l").terminal(out=sys.stdout, compact=True)
    sys.stdout.flush()


__all__ = ["run"]
