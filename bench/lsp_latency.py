"""The editor's latency targets of issue 33, over the protocol as an editor sees it
(not a timed test): how long after a change its diagnostics come, the debounce delay
(server.DEBOUNCE) not counted.

    python bench/lsp_latency.py                           # a few minutes
    python bench/lsp_latency.py --rounds 10               # fewer changes timed
    python bench/lsp_latency.py --against /path/to/tree   # before and after, interleaved
    /path/to/venv/bin/python bench/lsp_latency.py --installed   # that install's (compiled) server

Needs the ``lsp`` extra. A real ``referee lsp`` is started and spoken to over a pipe
(tests/lsp_client.py), each change sent as editors send it (incrementally: a range
replaced). Three records, all simulated Bataille corse (4 players):

- **a long game**: the longest game of ``--games`` simulated ones. Each round, a card is
  changed to ``ZZ`` (a line that cannot be read: every turn after it is thrown off, and
  its faults are diagnosed until the replay stops following the game) on a line drawn
  at random anywhere in the game, then changed back (not timed); then the same card
  changed to another of the deck (the next rank of its suit: the line reads, the card
  is elsewhere, and the game is most often replayed to its end), and back.
- **the longest game found** (``--seed-long``, with every slap pattern and the slapper
  leading: 3,953 events; the simulator's games end before 5,000 events, and none of the
  6,000 seeds tried reached it), changed in the same way. Target (issue 33, for
  5,000 events): at most 50 ms at the 90th percentile.
- **a game of 5,006 events**: the longest of 40 simulated games of Pierre qui Roule for
  six (seed 11; Bataille corse's games end sooner), changed in the same way (``--only
  5000``). Target (issue 33): at most 50 ms at the 90th percentile.
- **a file of 100,000 events** (as many games as it takes): a comment line added at
  the top, then taken away. Target: at most 300 ms.

For each: the median, the 90th percentile and the worst of the time the editor waits
(wall), and the median and 90th percentile of the server's own CPU time for the change
(Linux: read from /proc, all its threads). The load average is said before and after:
on a shared machine, compare two trees with ``--against``, which starts a second server
on the other tree's code and makes every change on both, in turn (the first of the two
alternating), so that both see the same load."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.lsp.server import DEBOUNCE  # noqa: E402
from referee.notation import parse_text  # noqa: E402
from tests import lsp_client  # noqa: E402
from tests.lsp_client import Client  # noqa: E402

LONG_SEED = 3166
"""The seed of the longest Bataille corse game found (4 players, every slap pattern, the slapper leads)."""
LONG_VARIANTS = {"Slaps": "pair sandwich big-mac addition", "SlapLeads": "slapper"}


def simulated(count: int, seed: int, game: str = "bataille-corse", players: int = 4) -> str:
    return subprocess.run([sys.executable, "-m", "referee", "simulate", game, "-n", str(players), "--seed", str(seed),
                           "--count", str(count)], capture_output=True, text=True, cwd=ROOT, check=True).stdout


def longest_game(games: int, seed: int = 1, game: str = "bataille-corse", players: int = 4) -> tuple[str, int]:
    """The text of the longest simulated game (its comments and headers included) and its events."""
    text = simulated(games, seed, game, players)
    lines = text.split("\n")
    records = [g for g in parse_text(text) if hasattr(g, "events")]
    best = max(records, key=lambda g: len(g.events))
    first, last = best.line, best.events[-1].line
    while first > 1 and lines[first - 2].strip():
        first -= 1
    return "\n".join(lines[first - 1:last]) + "\n", len(best.events)


def found_game(seed: int) -> tuple[str, int]:
    """The longest game found: one simulated game (4 players), and its events."""
    from referee.simulate import simulate

    text = simulate("bataille-corse", 4, seed, LONG_VARIANTS)
    (record,) = [g for g in parse_text(text) if hasattr(g, "events")]
    return text, len(record.events)


def big_file(events: int) -> tuple[str, int]:
    parts, total, seed = [], 0, 1
    while total < events:
        text = simulated(40, seed)
        parts.append(text)
        total += sum(len(g.events) for g in parse_text(text) if hasattr(g, "events"))
        seed += 1
    return "\n".join(parts), total


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def cpu(pid: int) -> float:
    """The seconds of CPU a process has had, all its threads (0 where /proc does not say)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as file:
                total += int(file.read().split()[0])
    except OSError:
        return 0.0
    return total / 1e9


def line(name: str, took: list[float], used: list[float], target: float) -> str:
    worst, ninety = max(took) * 1000, p90(took) * 1000
    return (f"{name}: median {statistics.median(took) * 1000:.0f} ms, 90th percentile {ninety:.0f} ms, worst {worst:.0f} ms "
            f"(target {target * 1000:.0f} ms at the 90th percentile: {'met' if ninety <= target * 1000 else 'not met'}); "
            f"server CPU median {statistics.median(used) * 1000:.0f} ms, 90th percentile {p90(used) * 1000:.0f} ms")


class Timed:
    """A document open in a server, changed incrementally, each change timed."""

    def __init__(self, client: Client, uri: str, text: str, full: bool = False) -> None:
        self.client, self.uri, self.version, self.full = client, uri, 1, full
        self.lines = text.split("\n")
        began = time.perf_counter()
        client.open(uri, text)
        self.opened = time.perf_counter() - began

    def change(self, line: int, start: int, end: int, text: str, end_line: int | None = None) -> tuple[float, float]:
        """The time the change took (wall, debounce not counted) and the server's CPU for it."""
        self.version += 1
        change = {"range": {"start": {"line": line, "character": start},
                            "end": {"line": line if end_line is None else end_line, "character": end}}, "text": text}
        last = line if end_line is None else end_line
        head = self.lines[line][:start] + text + self.lines[last][end:]
        self.lines[line:last + 1] = head.split("\n")
        if self.full:  # the whole text, as a client without incremental changes sends it
            change = {"text": "\n".join(self.lines)}
        pid = self.client.process.pid
        used = cpu(pid)
        began = time.perf_counter()
        self.client.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": self.version},
                                                       "contentChanges": [change]})
        self.client.diagnostics(self.uri)
        return time.perf_counter() - began - DEBOUNCE, cpu(pid) - used


def servers(against: str | None, installed: bool = False) -> list[tuple[str, Client]]:
    """This tree's server, and the other tree's when one is given; with ``installed``, the
    server of the referee installed beside this Python instead of this tree's (a compiled
    build: the client's PYTHONPATH and folder are then an empty one)."""
    import tempfile

    here = Path(tempfile.mkdtemp(prefix="lsp-latency-")) if installed else ROOT
    trees = [("installed" if installed else "this tree", here)] + ([("against", Path(against).resolve())] if against else [])
    started = []
    for name, tree in trees:
        lsp_client.ROOT = tree  # the server runs the code of that tree (its PYTHONPATH and folder)
        client = Client()
        client.start()
        started.append((name, client))
    lsp_client.ROOT = ROOT
    return started


def other_card(card: str) -> str:
    """Another card of the deck, of the same suit: the next rank (a slip of the pen that
    reads, the card it names being elsewhere: the replay goes on to the end)."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    rank, suit = card[:-1], card[-1]
    return ranks[(ranks.index(rank) + 1) % len(ranks)] + suit if rank in ranks else card


EDITS = {"changed to ZZ (unreadable)": lambda card: "ZZ", "changed to another card": other_card}


def cards_changed(clients: list[tuple[str, Client]], name: str, text: str, events: int, rounds: int, full: bool) -> None:
    """Each round, a card on a line drawn at random changed (to ZZ, then to another card
    of the deck), then back: each server in turn."""
    lines = text.split("\n")
    plays = [n for n, line in enumerate(lines) if " plays " in line]
    docs = [Timed(client, f"file:///bench/{name}.txt", text, full) for _, client in clients]
    took: dict[str, list[list[tuple[float, float]]]] = {edit: [[] for _ in clients] for edit in EDITS}
    pick = random.Random(33)
    for round_ in range(rounds):
        n = pick.choice(plays)
        at = lines[n].index(" plays ") + len(" plays ")
        card = lines[n][at:].split()[0]
        order = list(range(len(docs)))[:: 1 if round_ % 2 == 0 else -1]
        for edit, written in EDITS.items():
            new = written(card)
            for k in order:
                took[edit][k].append(docs[k].change(n, at, at + len(card), new))
                docs[k].change(n, at, at + len(new), card)
    for edit, kinds in took.items():
        for (who, _), times in zip(clients, kinds):
            print(line(f"[{who}] a card {edit} anywhere in the {name} ({events} events)", [t for t, _ in times],
                       [c for _, c in times], 0.050))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="changes timed of each kind (default 30)")
    parser.add_argument("--games", type=int, default=40, help="games simulated to find a long one (default 40)")
    parser.add_argument("--events", type=int, default=100_000, help="events of the large file (default 100,000)")
    parser.add_argument("--seed-long", type=int, default=LONG_SEED, help="the seed of the longest game (default 3166)")
    parser.add_argument("--full", action="store_true", help="send whole texts, not ranges (a server without incremental changes)")
    parser.add_argument("--against", metavar="TREE", help="another checkout of referee, its server changed in turn with this one")
    parser.add_argument("--installed", action="store_true",
                        help="time the referee installed beside this Python (a compiled build), not this tree's code")
    parser.add_argument("--only", choices=("long", "longest", "5000", "large"), action="append",
                        help="the cases to run (default all)")
    options = parser.parse_args()
    only = set(options.only or ("long", "longest", "5000", "large"))
    print(f"load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} processors); debounce {DEBOUNCE * 1000:.0f} ms (not counted)")
    clients = servers(options.against, options.installed)
    try:
        if "long" in only:
            game, events = longest_game(options.games)
            cards_changed(clients, "long game", game, events, options.rounds, options.full)
        if "longest" in only:
            game, events = found_game(options.seed_long)
            cards_changed(clients, "longest game", game, events, options.rounds, options.full)
        if "5000" in only:
            game, events = longest_game(40, 11, "pierre-qui-roule", 6)
            cards_changed(clients, "Pierre qui Roule game", game, events, options.rounds, options.full)
        if "large" in only:
            big, total = big_file(options.events)
            docs = []
            for who, client in clients:
                docs.append(Timed(client, f"file:///bench/large.txt", big, options.full))
                print(f"[{who}] large file ({total} events, {big.count(chr(10))} lines) opened and ruled in {docs[-1].opened:.1f} s")
            took: list[list[tuple[float, float]]] = [[] for _ in clients]
            for round_ in range(options.rounds):
                for k in list(range(len(docs)))[:: 1 if round_ % 2 == 0 else -1]:
                    took[k].append(docs[k].change(0, 0, 0, "; a line added at the top\n"))
                    docs[k].change(0, 0, 0, "", end_line=1)
            for (who, _), times in zip(clients, took):
                print(line(f"[{who}] a line added at the top of the large file ({total} events)", [t for t, _ in times],
                           [c for _, c in times], 0.300))
    finally:
        for _, client in clients:
            client.stop()
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
