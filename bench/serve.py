"""The benchmark of ``referee serve`` (issue 23): how long from a line sent by one page
until every connected page has the table after it.

    python bench/serve.py                 # 20 clients, a game of 1,000 events, 40 lines
    python bench/serve.py --clients 50 --lines 100
    python bench/serve.py --before 40     # the same game after 40 finished games in the file
    python bench/serve.py --players 4     # a game of 4 players (the bytes of each update: issue 34)
    python bench/serve.py --sizes         # every game's updates, 4 players, hands unknown (no server)
    python bench/serve.py --phases        # where a move's time goes: ruling, writing, reading, rendering

A real ``referee serve`` process on a simulated game of Bataille corse cut after
``--events`` events; ``--clients`` server-sent-event clients (raw HTTP/1.1 streams, not
browsers) listen; one more client posts the game's next lines one after another, as the
page does. For each line: the time from sending it until the last client has received the
table that holds it (ruled, appended and synced to the disk, rendered and sent), and the
time of the POST's answer, and the bytes of each live update a client received (a move's
update sends the parts of the page it changed: at most 10 KB, issue 34). Target: the
worst client within 100 ms on a 2-core machine.
Needs the ``serve`` extra."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.simulate import simulate  # noqa: E402

TARGET_MS = 100.0
TARGET_BYTES = 10 * 1024


def long_game(events: int, more: int, players: int = 5) -> tuple[str, list[str]]:
    """A record of Bataille corse cut after ``events`` events, and the ``more`` lines that
    follow it (legal: a simulated game, hands hidden as a table sees them)."""
    for seed in range(1, 500):
        lines = simulate("bataille-corse", players, seed, hidden=True, max_events=events + more + 10).split("\n")
        played = [i for i, line in enumerate(lines) if line and not line.startswith(("[", ";"))]
        if len(played) >= events + more:
            cut = played[events - 1] + 1
            return "\n".join(lines[:cut]) + "\n", [lines[i] for i in played[events:events + more]]
    raise SystemExit("no simulated game long enough")


async def _request(host: str, port: int, head: str, body: bytes = b"") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(head.encode() + body)
    await writer.drain()
    return reader, writer


class Listener:
    """One page's event stream: the time each version of the table arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.bytes: dict[int, int] = {}
        """The size of the update that brought each version, in bytes."""
        self.ready = asyncio.Event()

    async def run(self, host: str, port: int) -> None:
        reader, writer = await _request(host, port, f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n")
        data = b""
        try:
            while True:
                chunk = await reader.read(1 << 16)
                if not chunk:
                    return
                now = time.perf_counter()
                data += chunk
                *events, data = data.split(b"\n\n")  # an event cut between two reads is read whole in the next
                for event in events:
                    found = re.search(rb'^data: \{"version":(\d+)', event, re.M)
                    if found:
                        self.seen.setdefault(int(found.group(1)), now)
                        self.bytes.setdefault(int(found.group(1)), len(event) + 2)
                self.ready.set()
        finally:
            writer.close()


async def post(host: str, port: int, line: str) -> float:
    """Send a line as the page does; the time of the answer, in seconds."""
    body = urlencode({"line": line}).encode()
    head = (f"POST /line HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: http://{host}:{port}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    start = time.perf_counter()
    reader, writer = await _request(host, port, head, body)
    status = await reader.readline()
    await reader.read()
    writer.close()
    if b" 200 " not in status:
        raise SystemExit(f"the line {line!r} was not written: {status.decode().strip()}")
    return time.perf_counter() - start


async def measure(host: str, port: int, clients: int, lines: list[str]) -> tuple[list[float], list[float], list[int]]:
    listeners = [Listener() for _ in range(clients)]
    tasks = [asyncio.create_task(listener.run(host, port)) for listener in listeners]
    await asyncio.gather(*(listener.ready.wait() for listener in listeners))
    shown, answered = [], []
    for version, line in enumerate(lines, start=1):
        start = time.perf_counter()
        answered.append(await post(host, port, line))
        deadline = start + 5
        while not all(version in listener.seen for listener in listeners):
            if time.perf_counter() > deadline:
                raise SystemExit(f"a client never saw the table after {line!r}")
            await asyncio.sleep(0.001)
        shown.append(max(listener.seen[version] for listener in listeners) - start)
        await asyncio.sleep(0.06)  # under the limit of 20 writes a second from one client
    for task in tasks:
        task.cancel()
    sizes = [listener.bytes[version] for listener in listeners for version in range(1, len(lines) + 1)]
    return shown, answered, sizes


SIZE_GAMES = ("bataille-corse", "carte-et-plouc", "caroleto", "flaschenteufel", "pierre-qui-roule")


def update_sizes(game: str, seeds: range, players: int = 4, events: int = 400) -> list[tuple[int, str]]:
    """The bytes of each move's live update (as a page that got every update before it
    receives it), and the move, over simulated games of ``game`` whose hands are unknown
    (as at a real table: nobody types the deal), each played from its headers on. In this
    process, through the page's own rendering (``Pages.changes``), no server."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]  # bench/html.py is not the html module
    from referee.serve.app import Pages, _event
    from referee.serve.table import Served

    found = []
    for seed in seeds:
        lines = simulate(game, players, seed, hidden=True, max_events=events).split("\n")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder, "game.txt")
            path.write_text("\n".join(line for line in lines if line.startswith("[")) + "\n", encoding="utf-8")
            pages = Pages(Served(str(path)))
            shown = pages.live("en")
            for line in (line for line in lines if line and not line.startswith(("[", ";"))):
                if pages.served.play(line, "played").kind != "written":
                    break
                found.append((len(_event(pages.changes("en", shown)).encode()), line))
                shown = {**shown, **pages.live("en")}
    return found


def sizes_main(seeds: int) -> int:
    """Every game's live updates (``update_sizes``): median and worst, against 10 KB."""
    print(f"a move's live update, 4 players, hands unknown, {seeds} simulated games each (target {TARGET_BYTES // 1024} KB):")
    worst_of_all = 0
    for game in SIZE_GAMES:
        sizes = sorted(update_sizes(game, range(1, seeds + 1)))
        worst, line = sizes[-1]
        worst_of_all = max(worst_of_all, worst)
        print(f"  {game:17} {len(sizes):5} moves: median {statistics.median(s for s, _ in sizes) / 1024:4.1f} KB, "
              f"worst {worst / 1024:4.1f} KB ({line})")
    return 0 if worst_of_all <= TARGET_BYTES else 1


def phases_main(events: int, count: int, players: int) -> int:
    """Where the time of a move goes on the server, in this process (no HTTP): ruling the
    line (a replay of the game with it), writing it (appended and synced to the disk),
    reading the record again (the game as it stands), rendering the parts of the page
    that changed and the event sent to each page, the answer to the page that sent it."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]  # bench/html.py is not the html module
    from starlette.requests import Request

    from referee.serve.app import Pages, _event
    from referee.serve.table import Served

    text, lines = long_game(events, count, players)
    times: dict[str, list[float]] = {"rule": [], "write": [], "read": [], "render": [], "event": [], "answer": []}
    scope = {"type": "http", "method": "POST", "path": "/line", "headers": [(b"host", b"bench")], "query_string": b""}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "long.txt")
        path.write_text(text, encoding="utf-8")
        served = Served(str(path))
        pages = Pages(served)
        shown = pages.live("en")
        for line in lines:
            session = served.session()
            start = time.perf_counter()
            faults, _ = session.rule(line)
            ruled = time.perf_counter()
            served._append(session, line)
            written = time.perf_counter()
            served.session()
            read = time.perf_counter()
            update = pages.changes("en", shown)
            rendered = time.perf_counter()
            _event(update)
            sent = time.perf_counter()
            pages.page(Request(scope))
            answered = time.perf_counter()
            shown = {**shown, **pages.live("en")}
            for name, spent in zip(times, (ruled - start, written - ruled, read - written, rendered - read,
                                           sent - rendered, answered - sent)):
                times[name].append(1000 * spent)
    print(f"a move on the server, a game of {events} events, {players} players, {count} lines, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (median, 90th percentile, in ms):")
    for name, spent in times.items():
        print(f"  {name:7} {statistics.median(spent):6.1f} {sorted(spent)[int(0.9 * (len(spent) - 1))]:6.1f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20, help="event-stream clients (default 20)")
    parser.add_argument("--events", type=int, default=1000, help="events in the game before the lines sent (default 1000)")
    parser.add_argument("--lines", type=int, default=40, help="lines sent, one after another (default 40)")
    parser.add_argument("--players", type=int, default=5, help="players of the game (default 5)")
    parser.add_argument("--before", type=int, default=0,
                        help="finished games of Bataille corse in the file before the game played (default 0)")
    parser.add_argument("--sizes", type=int, nargs="?", const=3, default=0, metavar="GAMES",
                        help="measure the bytes of every game's updates instead, over GAMES simulated games each (3)")
    parser.add_argument("--phases", action="store_true", help="say where a move's time goes on the server instead")
    args = parser.parse_args()
    if args.sizes:
        return sizes_main(args.sizes)
    if args.phases:
        return phases_main(args.events, args.lines, args.players)
    text, lines = long_game(args.events, args.lines, args.players)
    text = "".join(simulate("bataille-corse", 5, 1000 + n, hidden=True) + "\n" for n in range(args.before)) + text
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "long.txt")
        path.write_text(text, encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        server = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(path), "--port", "0"],
                                  stdout=subprocess.PIPE, text=True, env=env)
        try:
            address = re.search(r"http://([\d.]+):(\d+)/", server.stdout.readline())
            assert address, "the server printed no address"
            shown, answered, sizes = asyncio.run(measure(address.group(1), int(address.group(2)), args.clients, lines))
            with urllib.request.urlopen(address.group(0)) as answer:  # the page, as a first visit gets it
                page = len(answer.read())
        finally:
            server.terminate()
            server.wait(10)
    ms = [1000 * s for s in shown]
    print(f"referee serve: a game of {args.events} events after {args.before} finished games "
          f"({text.count(chr(10))} lines), {args.clients} event-stream clients, {len(lines)} lines, {os.cpu_count()} CPUs")
    print(f"  line sent -> table shown on every client: median {statistics.median(ms):.1f} ms, "
          f"90th percentile {sorted(ms)[int(0.9 * (len(ms) - 1))]:.1f} ms, worst {max(ms):.1f} ms "
          f"(target {TARGET_MS:.0f} ms)")
    print(f"  line sent -> answer to the page that sent it: median {1000 * statistics.median(answered):.1f} ms")
    print(f"  a move's live update: median {statistics.median(sizes) / 1024:.1f} KB, worst {max(sizes) / 1024:.1f} KB "
          f"(target {TARGET_BYTES // 1024} KB; the whole page: {page / 1024:.1f} KB)")
    return 0 if statistics.median(ms) <= TARGET_MS and max(sizes) <= TARGET_BYTES else 1


if __name__ == "__main__":
    sys.exit(main())
