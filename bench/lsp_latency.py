"""The editor's latency targets of issue 33, over the protocol as an editor sees it
(not a timed test): how long after a change its diagnostics come, the debounce delay
(server.DEBOUNCE) not counted.

    python bench/lsp_latency.py              # a few minutes
    python bench/lsp_latency.py --rounds 10  # fewer changes timed

Needs the ``lsp`` extra. A real ``referee lsp`` is started and spoken to over a pipe
(tests/lsp_client.py), each change sent as editors send it (incrementally: a range
replaced). Two records, both simulated Bataille corse (4 players):

- **a long game**: the longest game of ``--games`` simulated ones (the simulator's games
  end before 5,000 events; the longest is used, and its length said). Each round, a
  card is changed on a line drawn at random anywhere in the game, then changed back.
  Target (issue 33, for 5,000 events): at most 50 ms at the 90th percentile.
- **a file of 100,000 events** (as many games as it takes): a comment line added at
  the top, then taken away. Target: at most 300 ms.

For each: the median, the 90th percentile and the worst."""

from __future__ import annotations

import argparse
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
from tests.lsp_client import Client  # noqa: E402


def simulated(count: int, seed: int) -> str:
    return subprocess.run([sys.executable, "-m", "referee", "simulate", "bataille-corse", "-n", "4", "--seed", str(seed),
                           "--count", str(count)], capture_output=True, text=True, cwd=ROOT, check=True).stdout


def longest_game(games: int) -> tuple[str, int]:
    """The text of the longest simulated game (its comments and headers included) and its events."""
    text = simulated(games, 1)
    lines = text.split("\n")
    records = [g for g in parse_text(text) if hasattr(g, "events")]
    best = max(records, key=lambda g: len(g.events))
    first, last = best.line, best.events[-1].line
    while first > 1 and lines[first - 2].strip():
        first -= 1
    return "\n".join(lines[first - 1:last]) + "\n", len(best.events)


def big_file(events: int) -> tuple[str, int]:
    parts, total, seed = [], 0, 1
    while total < events:
        text = simulated(40, seed)
        parts.append(text)
        total += sum(len(g.events) for g in parse_text(text) if hasattr(g, "events"))
        seed += 1
    return "\n".join(parts), total


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def line(name: str, took: list[float], target: float) -> str:
    worst, ninety = max(took) * 1000, p90(took) * 1000
    return (f"{name}: median {statistics.median(took) * 1000:.0f} ms, 90th percentile {ninety:.0f} ms, worst {worst:.0f} ms "
            f"(target {target * 1000:.0f} ms at the 90th percentile: {'met' if ninety <= target * 1000 else 'not met'})")


class Timed:
    """A document open in a server, changed incrementally, each change timed."""

    def __init__(self, client: Client, uri: str, text: str, full: bool = False) -> None:
        self.client, self.uri, self.version, self.full = client, uri, 1, full
        self.lines = text.split("\n")
        began = time.perf_counter()
        client.open(uri, text)
        self.opened = time.perf_counter() - began

    def change(self, line: int, start: int, end: int, text: str, end_line: int | None = None) -> float:
        self.version += 1
        change = {"range": {"start": {"line": line, "character": start},
                            "end": {"line": line if end_line is None else end_line, "character": end}}, "text": text}
        last = line if end_line is None else end_line
        head = self.lines[line][:start] + text + self.lines[last][end:]
        self.lines[line:last + 1] = head.split("\n")
        if self.full:  # the whole text, as a client without incremental changes sends it
            change = {"text": "\n".join(self.lines)}
        began = time.perf_counter()
        self.client.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": self.version},
                                                       "contentChanges": [change]})
        self.client.diagnostics(self.uri)
        return time.perf_counter() - began - DEBOUNCE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="changes timed of each kind (default 30)")
    parser.add_argument("--games", type=int, default=40, help="games simulated to find a long one (default 40)")
    parser.add_argument("--events", type=int, default=100_000, help="events of the large file (default 100,000)")
    parser.add_argument("--full", action="store_true", help="send whole texts, not ranges (a server without incremental changes)")
    options = parser.parse_args()
    game, events = longest_game(options.games)
    big, total = big_file(options.events)
    print(f"long game: {events} events, {game.count(chr(10))} lines; large file: {total} events, "
          f"{big.count(chr(10))} lines; debounce {DEBOUNCE * 1000:.0f} ms (not counted)")
    client = Client()
    client.start()
    try:
        timed = Timed(client, "file:///bench/long-game.txt", game, options.full)
        lines = game.split("\n")
        plays = [n for n, text in enumerate(lines) if " plays " in text]
        took = []
        pick = random.Random(33)
        for _ in range(options.rounds):
            n = pick.choice(plays)
            at = lines[n].index(" plays ") + len(" plays ")
            card = lines[n][at:].split()[0]
            took.append(timed.change(n, at, at + len(card), "ZZ"))
            timed.change(n, at, at + 2, card)
        print(line(f"a card changed anywhere in the long game ({events} events)", took, 0.050))
        big_timed = Timed(client, "file:///bench/large.txt", big, options.full)
        print(f"large file opened and ruled in {big_timed.opened:.1f} s")
        took = []
        for _ in range(options.rounds):
            took.append(big_timed.change(0, 0, 0, "; a line added at the top\n"))
            big_timed.change(0, 0, 0, "", end_line=1)
        print(line(f"a line added at the top of the large file ({total} events)", took, 0.300))
    finally:
        client.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
