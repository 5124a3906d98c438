"""Recall and precision of the referee on games with known mistakes, outside the test suite.

    python bench/mistakes.py --games 10000

For every refereed game, ``--games`` records written as by

    referee simulate GAME --players N --seed S --mistakes RATE [--hidden]

(the seeds S from ``--seed`` on, N going round the game's player counts, every fifth
record without its deal): legal play into which real table mistakes are put, each
mistake's line marked ``; expect CODE ...`` with every code the referee must report
there, follow-on codes included. Each record is checked. Per code:

- recall: the share of the marked codes that the report gives at their line;
- precision: the share of the codes the report gives that were marked at that line.

Both must be 100%. The first records where a code falls short are listed with the
command that writes them, and the line and code missed or not marked. An exception
while simulating or checking is an error. Exit status 1 when anything falls short.

Options: --rate R (default 0.03), --seed S, --jobs J (processes), --show N (records
listed per code that falls short).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine import check  # noqa: E402
from referee.notation import RecordError, parse_text  # noqa: E402
from referee.simulate import marked, reported, rules_class, simulable_games, simulate  # noqa: E402


def command(game: str, players: int, seed: int, rate: float, hidden: bool) -> str:
    return f"referee simulate {game} --players {players} --seed {seed} --mistakes {rate}" + (" --hidden" if hidden else "")


def one(game: str, index: int, seed: int, rate: float) -> dict:
    """Simulate one record with mistakes, check it, and compare the marks with the report."""
    cls = rules_class(game)
    players = cls.min_players + index % (cls.max_players - cls.min_players + 1)
    hidden = index % 5 == 4
    what = command(game, players, seed + index, rate, hidden)
    try:
        text = simulate(game, players, seed + index, hidden=hidden, mistakes=rate)
        items = parse_text(text)
        if len(items) != 1 or isinstance(items[0], RecordError):
            return {"what": what, "error": f"does not read as one record: {items[0]}"}
        record = items[0]
        report = check(record)
    except Exception as error:  # noqa: BLE001
        return {"what": what, "error": "".join(traceback.format_exception(error))}
    want, got = marked(record), reported(report)
    return {
        "what": what,
        "events": len(record.events),
        "marked": Counter(code for (_, code), n in want.items() for _ in range(n)),
        "reported": Counter(code for (_, code), n in got.items() for _ in range(n)),
        "missed": sorted((want - got).elements()),
        "unmarked": sorted((got - want).elements()),
    }


def _task(args):
    return one(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="records per game (default 1000)")
    parser.add_argument("--rate", type=float, default=0.03, help="the chance per event of a mistake (default 0.03)")
    parser.add_argument("--seed", type=int, default=0, help="the first record's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--show", type=int, default=3, help="records listed per code that falls short (default 3)")
    args = parser.parse_args(argv)

    games = simulable_games()
    tasks = [(g, i, args.seed, args.rate) for g in games for i in range(args.games)]
    started = time.time()
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    results = pool.map(_task, tasks, chunksize=16) if pool else map(_task, tasks)
    totals = {key: Counter() for key in ("marked", "reported", "missed", "unmarked")}
    shown: Counter = Counter()
    errors, events = [], 0
    for done, result in enumerate(results, 1):
        if "error" in result:
            errors.append(result)
            print(f"ERROR {result['what']}\n{result['error']}", flush=True)
            continue
        events += result["events"]
        for key in totals:
            totals[key].update(result[key] if key in ("marked", "reported") else Counter(c for _, c in result[key]))
        for key in ("missed", "unmarked"):
            for line, code in result[key]:
                if shown[key, code] < args.show:
                    shown[key, code] += 1
                    print(f"{key.upper()} {code} at line {line}: {result['what']}", flush=True)
        if done % 1000 == 0:
            print(f"  {done}/{len(tasks)} records, {time.time() - started:.0f}s", flush=True)
    if pool:
        pool.shutdown()

    marked_, reported_, missed, unmarked = (totals[k] for k in ("marked", "reported", "missed", "unmarked"))
    print(f"\nmistakes seed {args.seed}, rate {args.rate}: {args.games} record(s) per game ({', '.join(games)}), "
          f"{events} events, {sum(marked_.values())} codes marked, {time.time() - started:.0f}s")
    print(f"  {'code':22} {'marked':>8} {'reported':>9} {'recall':>8} {'precision':>10}")
    codes = sorted(set(marked_) | set(reported_) | {c for g in games for c in rules_class(g).mistake_codes})
    for code in [*codes, None]:
        m = sum(marked_.values()) if code is None else marked_[code]
        r = sum(reported_.values()) if code is None else reported_[code]
        hit_m = m - (sum(missed.values()) if code is None else missed[code])
        hit_r = r - (sum(unmarked.values()) if code is None else unmarked[code])
        recall = f"{100 * hit_m / m:.2f}%" if m else "-"
        precision = f"{100 * hit_r / r:.2f}%" if r else "-"
        print(f"  {code or 'all':22} {m:8} {r:9} {recall:>8} {precision:>10}")
    unreached = [c for g in games for c in rules_class(g).mistake_codes if not marked_[c]]
    if unreached:
        print(f"  codes never reached: {' '.join(unreached)}")
    if errors:
        print(f"  errors: {len(errors)}")
    return 1 if errors or missed or unmarked or unreached else 0


if __name__ == "__main__":
    sys.exit(main())
