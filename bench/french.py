"""French notation against English: the same simulated games written both ways
(``referee simulate --notation fr``), read and checked, in events per second.

    python bench/french.py            # 150 records per game, best of 7 rounds
    python bench/french.py --games 50 --repeat 3

Times are processor time (``time.process_time``), the best of ``--repeat`` rounds in
which every run takes its turn: on a shared machine, wall time moved by half from one
run to the next. Target: French within 10% of English, parse and check alike."""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench import corpus  # noqa: E402

from referee.engine import check_games  # noqa: E402
from referee.notation import read_games  # noqa: E402
from referee.simulate import simulable_games  # noqa: E402


def parse(data: bytes) -> int:
    return sum(len(record.events) for record in read_games("bench", io.BytesIO(data)))


def check(data: bytes) -> None:
    for _ in check_games(read_games("bench", io.BytesIO(data), lazy=True)):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="simulated records per game")
    parser.add_argument("--repeat", type=int, default=7, help="timed rounds, the best of each kept")
    args = parser.parse_args()
    runs = {(game, notation): corpus(game, args.games, notation=notation) for game in simulable_games() for notation in ("en", "fr")}
    events = {key: parse(data) for key, data in runs.items()}
    best = {(key, kind): float("inf") for key in runs for kind in ("parse", "check")}
    for _ in range(args.repeat):
        for key, data in runs.items():
            for kind, run in (("parse", parse), ("check", check)):
                began = time.process_time()
                run(data)
                best[key, kind] = min(best[key, kind], time.process_time() - began)
    print(f"{'game':18} {'events':>7} {'parse en':>10} {'parse fr':>10} {'fr/en':>6} {'check en':>10} {'check fr':>10} {'fr/en':>6}")
    for game in simulable_games():
        n = events[game, "en"]
        rates = {(notation, kind): n / best[(game, notation), kind] for notation in ("en", "fr") for kind in ("parse", "check")}
        print(f"{game:18} {n:7} {rates['en', 'parse']:10.0f} {rates['fr', 'parse']:10.0f} {rates['fr', 'parse'] / rates['en', 'parse']:6.2f}"
              f" {rates['en', 'check']:10.0f} {rates['fr', 'check']:10.0f} {rates['fr', 'check'] / rates['en', 'check']:6.2f}")


if __name__ == "__main__":
    main()
