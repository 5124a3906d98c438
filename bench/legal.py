"""The long run of tests/test_legal.py: ``legal()`` agrees with the replay.

    python bench/legal.py                       # 20 000 positions of every refereed game
    python bench/legal.py --positions 2000 --game bataille-corse --seed 7
    python bench/legal.py --both 200          # and the other way: 200 random Carte et Plouc games

The other way (``--both N``): every line of the project's records that checks clean was
offered where it stands, and N Carte et Plouc games are played by a random policy that
never asks ``legal()``; at each of their positions every move that checks clean must be
offered, and a sample of the moves offered must check clean.

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

from referee.simulate.agreement import disagreements, missed_in_record, positions, random_play  # noqa: E402
from referee.simulate import simulable_games  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20_000, help="positions per game (default 20000)")
    parser.add_argument("--game", action="append", help="a game (default: every refereed game)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample", type=int, default=12, help="events checked per position, at most (default 12)")
    parser.add_argument("--both", type=int, default=0, metavar="N",
                        help="also the other way: the records, and N random Carte et Plouc games")
    args = parser.parse_args()
    failed = 0
    if args.both:
        failed += other_way(args.both, args.seed)
    for game in args.game or simulable_games():
        rng = random.Random(args.seed)
        start = time.perf_counter()
        found = [d for p in positions(game, args.positions, args.seed) for d in disagreements(p, rng, args.sample)]
        print(f"{game}: {args.positions} positions, {len(found)} disagreement(s), {time.perf_counter() - start:.1f} s")
        for text in found[:3]:
            print(text)
        failed += len(found)
    return 1 if failed else 0


def other_way(games: int, seed: int) -> int:
    """What checks clean is offered: the records' lines, then random games; the count of
    disagreements, the first few printed."""
    import io

    from referee.engine import check_games
    from referee.notation import read_games
    from referee.record import Record

    start = time.perf_counter()
    missed: list[str] = []
    for path in sorted((Path(__file__).resolve().parent.parent / "records").glob("*/*.txt")):
        for record, report in check_games(read_games(str(path), io.BytesIO(path.read_bytes()))):
            if isinstance(record, Record) and report.error is None:
                missed += missed_in_record(record)
    print(f"records: {len(missed)} clean line(s) not offered, {time.perf_counter() - start:.1f} s")
    for text in missed[:5]:
        print(text)
    start = time.perf_counter()
    found = [f for s in range(seed, seed + games) for f in random_play("carte-et-plouc", 2 + s % 8, s, 150)]
    print(f"carte-et-plouc: {games} random games, {len(found)} disagreement(s), {time.perf_counter() - start:.1f} s")
    for text in found[:3]:
        print(text)
    return len(missed) + len(found)


if __name__ == "__main__":
    sys.exit(main())
