"""The language server's latency (issue 27): how long after a change to a record of
1,000 events its diagnostics come, not counting the debounce delay.

    python bench/lsp.py            # about half a minute
    python bench/lsp.py --rounds 5 # fewer changes timed

Needs the ``lsp`` extra (``pip install '.[lsp]'``). A real ``referee lsp`` is started
and spoken to over a pipe, as an editor does (tests/lsp_client.py); the record is the
first 1,000 events of a simulated Bataille corse game. Three kinds of change are timed,
each ``--rounds`` times: a comment typed on the last line, a card changed in the middle
(line 500: the game is replayed from the copy of its rules kept before it), a line added
at the end. For each: the time from sending ``didChange`` to receiving the diagnostics,
less the debounce delay (server.DEBOUNCE), median and worst; and the same work done in
the process (the model updated and its problems listed), without the protocol.
Target: at most 100 ms on a 2-core machine."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.lsp.model import Document  # noqa: E402
from referee.lsp.server import DEBOUNCE  # noqa: E402
from referee.notation import parse_text  # noqa: E402
from tests.lsp_client import Client  # noqa: E402

EVENTS = 1000


def record(events: int = EVENTS) -> str:
    """The first ``events`` events of a simulated game with at least that many."""
    for seed in range(1, 50):
        text = subprocess.run([sys.executable, "-m", "referee", "simulate", "bataille-corse", "-n", "4", "--seed",
                               str(seed), "--count", "20"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
        lines = text.split("\n")
        for game in parse_text(text):
            if not hasattr(game, "events") or len(game.events) < events:
                continue
            first, last = game.line, game.events[events - 1].line
            while first > 1 and lines[first - 2].strip():
                first -= 1
            return "\n".join(lines[first - 1:last]) + "\n"
    raise SystemExit("no simulated game is that long")


def changes(text: str) -> dict[str, str]:
    lines = text.rstrip("\n").split("\n")
    typed = lines[:-1] + [lines[-1] + "  ; noted"]
    middle = list(lines)
    n = len(lines) // 2
    while " plays " not in middle[n]:
        n += 1
    middle[n] = middle[n].split(" plays ")[0] + " plays ZZ"
    return {"comment on the last line": "\n".join(typed) + "\n",
            "card changed on the middle line": "\n".join(middle) + "\n",
            "line added at the end": text + lines[-1] + "\n"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="changes timed of each kind (default 20)")
    options = parser.parse_args()
    text = record()
    events = sum(len(g.events) for g in parse_text(text) if hasattr(g, "events"))
    print(f"record: {events} events, {text.count(chr(10))} lines; debounce {DEBOUNCE * 1000:.0f} ms (not counted)")
    client = Client()
    client.start()
    uri = "file:///bench/lsp-1000.txt"
    client.open(uri, text)
    model = Document("lsp-1000.txt")
    model.update(text)
    version = 1
    try:
        for name, changed in changes(text).items():
            protocol, alone = [], []
            for _ in range(options.rounds):
                for body in (changed, text):
                    version += 1
                    began = time.perf_counter()
                    client.change(uri, body, version)
                    took = time.perf_counter() - began - DEBOUNCE
                    if body is changed:
                        protocol.append(took)
                    began = time.perf_counter()
                    model.update(body)
                    model.problems()
                    if body is changed:
                        alone.append(time.perf_counter() - began)
            print(f"{name}: over the protocol median {statistics.median(protocol) * 1000:.1f} ms, "
                  f"worst {max(protocol) * 1000:.1f} ms; in the process median {statistics.median(alone) * 1000:.1f} ms")
    finally:
        client.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
