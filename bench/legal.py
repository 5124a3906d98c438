"""The long run of tests/test_legal.py: ``legal()`` agrees with the replay.

    python bench/legal.py                       # 20 000 positions of every refereed game
    python bench/legal.py --positions 2000 --game bataille-corse --seed 7

At each position (a ``referee simulate`` record cut after a random line) every event
``legal()`` offers, or a sample of them, is appended and the record checked again; a
violation on the appended line is a disagreement, printed with its record. Exit
status 1 when there is any."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.agreement import disagreements, positions  # noqa: E402
from referee.simulate import simulable_games  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20_000, help="positions per game (default 20000)")
    parser.add_argument("--game", action="append", help="a game (default: every refereed game)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample", type=int, default=12, help="events checked per position, at most (default 12)")
    args = parser.parse_args()
    failed = 0
    for game in args.game or simulable_games():
        rng = random.Random(args.seed)
        start = time.perf_counter()
        found = [d for p in positions(game, args.positions, args.seed) for d in disagreements(p, rng, args.sample)]
        print(f"{game}: {args.positions} positions, {len(found)} disagreement(s), {time.perf_counter() - start:.1f} s")
        for text in found[:3]:
            print(text)
        failed += len(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
