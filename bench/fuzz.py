"""Long fuzz run of the referee, outside the test suite.

    python bench/fuzz.py --games 5000

For every refereed game, ``--games`` simulated records (referee/simulate.py), each:
  - checked as written: a simulated record must check clean (valid or in progress);
  - mutated ``--mutations`` times (one event changed: a card replaced, a line dropped,
    duplicated or moved, a false slap added, a slap removed) and checked: the report must
    be clean or flag the changed line or a later one, never an earlier one;
  - garbled once at the byte level (bytes flipped, inserted, deleted or spliced, cut short,
    a stray CR, Latin-1, a very long line): only RecordErrors, never an exception; and
    CRLF, CR-only line ends or a BOM must read and check exactly as the original;
plus ``--bytes`` inputs of random bytes. Any exception is an error; so is a violation
before the mutated line. The first input of each kind of error is saved under
records/regressions/ as ``fuzz-NNN-*.open``, with a comment saying what it exercises
(``--no-save`` to keep the tree clean). Exit status 1 when errors were found.

    python bench/fuzz.py --memory-mb 100

streams ``read_games`` + ``check`` over a 100 MB file of simulated games under tracemalloc
and prints the peak of Python memory (the file is written to a temporary folder).

Options: --seed S (the run is deterministic for a seed), --jobs J (processes),
--max-events N (per simulated record), --regressions DIR.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import referee  # noqa: E402
from referee.engine import check, error_report  # noqa: E402
from referee.export import record_to_json, record_to_text  # noqa: E402
from referee.notation import RecordError, parse_text, read_games  # noqa: E402
from referee.record import Record  # noqa: E402
from referee.report import render, to_json  # noqa: E402
from referee.simulate import MUTATIONS, Mutation, mutate, rules_class, simulable_games, simulate, violations_before  # noqa: E402

GARBLES = ("flip", "insert", "delete", "truncate", "crlf", "cr", "stray-cr", "latin-1", "bom", "bom+crlf", "long-line", "splice")
LOSSLESS = frozenset({"crlf", "cr", "bom", "bom+crlf"})
"""Garbles that change nothing a reader may see: the record must read and check the same."""


class Failure(Exception):
    """What went wrong, a signature to tell kinds apart, and the offending input."""

    def __init__(self, kind: str, signature: str, detail: str, data: bytes):
        super().__init__(kind, signature, detail, data)  # all of them, to cross processes
        self.kind, self.signature, self.detail, self.data = kind, signature, detail, data

    def __str__(self) -> str:
        return self.detail


def _signature(error: BaseException) -> str:
    """Where an exception was raised, in the referee's code: one per bug, not per input."""
    package = str(Path(referee.__file__).resolve().parent)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(package)]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(error).__name__} at {where}"


def _exception(kind: str, error: BaseException, what: str, data: bytes) -> Failure:
    tb = "".join(traceback.format_exception(error))
    return Failure(kind, _signature(error), f"{what}: {type(error).__name__}: {error}\n{tb}", data)


def read_and_check(data: bytes, kind: str, what: str, render_report: bool = False) -> list:
    """Read and check every game of the bytes; a Failure for any exception."""
    try:
        items = list(read_games("fuzz.txt", io.BytesIO(data)))
        reports = []
        for item in items:
            if isinstance(item, RecordError):
                str(item)
                continue
            report = check(item)
            check(item, play_out=True)
            data_json = to_json(report)
            if render_report:
                from rich.console import Console
                from rich.text import Text

                console = Console(file=io.StringIO(), width=100, force_terminal=True)
                for pieces in render(report, item.sources(v.line for v in report.violations) if report.violations else None):
                    console.print(Text.assemble(*pieces))
                _validate(data_json, record_to_json(item))
            reports.append((item, report))
        if render_report:
            for item in items:
                if isinstance(item, RecordError):
                    _validate(to_json(error_report(item)), None)
        return reports
    except Failure:
        raise
    except Exception as error:  # noqa: BLE001 - any exception is what we look for
        raise _exception(kind, error, what, data) from None


_SCHEMAS: dict = {}


def _validate(report: dict, record: dict | None) -> None:
    """The JSON of a report and of a record against schemas/ (what --json and export print)."""
    import json

    import jsonschema

    if not _SCHEMAS:
        for name in ("report", "record"):
            _SCHEMAS[name] = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate([report], _SCHEMAS["report"])
    if record is not None:
        jsonschema.validate({"file": "fuzz.txt", "games": [record]}, _SCHEMAS["record"])


def garble(text: str, rng: random.Random) -> tuple[str, bytes]:
    kind = rng.choice(GARBLES)
    data = text.encode()
    at = rng.randrange(len(data) + 1)
    if kind == "flip" and data:
        at = min(at, len(data) - 1)
        data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    elif kind == "insert":
        data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[at:]
    elif kind == "delete":
        data = data[:at] + data[at + rng.randint(1, 40):]
    elif kind == "truncate":
        data = data[:at]
    elif kind == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif kind == "cr":
        data = data.replace(b"\n", b"\r")
    elif kind == "stray-cr":
        data = data[:at] + b"\r" + data[at:]
    elif kind == "latin-1":
        data = text.encode("latin-1", "replace")
    elif kind == "bom":
        data = b"\xef\xbb\xbf" + data
    elif kind == "bom+crlf":
        data = b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    elif kind == "long-line":
        data = data[:at] + b"; " + rng.choice([b"x", "é".encode(), "😀".encode()]) * rng.randint(1000, 6000) + b"\n" + data[at:]
    elif kind == "splice":
        other = rng.randrange(len(data) + 1)
        data = data[:at] + data[min(at, other):max(at, other)] + data[at:]
    return kind, data


def fuzz_one(game: str, index: int, seed: int, mutations: int, max_events: int) -> tuple[Counter, list[Failure]]:
    """One simulated record of a game, its mutations and one garbled copy."""
    rng = random.Random(f"{seed}:{game}:{index}")
    cls = rules_class(game)
    players = rng.randint(cls.min_players, cls.max_players)
    hidden = rng.random() < 0.4
    counts: Counter = Counter()
    failures: list[Failure] = []
    what = f"simulate({game!r}, {players}, {seed * 1_000_003 + index}, hidden={hidden}, max_events={max_events})"
    try:
        text = simulate(game, players, seed * 1_000_003 + index, hidden=hidden, max_events=max_events)
    except Exception as error:  # noqa: BLE001
        return counts, [_exception("simulate", error, what, b"")]
    data = text.encode()
    counts["records"] += 1
    try:
        original = read_and_check(data, "simulated", what, render_report=index % 20 == 0)
        if len(original) != 1:
            raise ValueError("the simulated text does not read as one record")
        record, report = original[0]
        if report.violations or report.status not in ("valid", "in-progress"):
            v = report.violations[0] if report.violations else None
            sig = f"simulated record not clean: {v.code if v else report.status}"
            failures.append(Failure("simulated", sig, f"{what}: {sig} at line {v.line if v else '?'}: {v.message if v else ''}", data))
        again = parse_text(record_to_text(record))[0]
        if not isinstance(again, Record) or [(e.player, e.verb, e.cards) for e in again.events] != \
                [(e.player, e.verb, e.cards) for e in record.events]:
            failures.append(Failure("export", "export --to text changes the events", f"{what}: export round trip differs", data))
    except Failure as failure:
        failures.append(failure)
        return counts, failures
    except ValueError as error:
        failures.append(Failure("simulated", f"simulated record unreadable: {error}", f"{what}: {error}", data))
        return counts, failures

    for m in range(mutations):
        kind = MUTATIONS[(index + m) % len(MUTATIONS)]
        mutation = mutate(text, rng, kind, record)
        if mutation is None:
            continue
        if m == mutations - 1 and rng.random() < 0.5:
            # Several changes at once: nothing may be flagged before the first of them.
            for _ in range(rng.randint(1, 3)):
                again = mutate(mutation.text, rng)
                if again is not None:
                    mutation = Mutation(f"{mutation.kind}+{again.kind}", min(mutation.line, again.line),
                                        again.text, f"{mutation.detail}; {again.detail}")
            kind = "several"
        counts["mutated"] += 1
        counts[f"mutated {kind}"] += 1
        mdata = mutation.text.encode()
        mwhat = f"{what}, mutation {mutation.kind} ({mutation.detail})"
        try:
            reports = read_and_check(mdata, f"mutation-{kind}", mwhat, render_report=m == 0 and index % 20 == 0)
        except Failure as failure:
            failures.append(failure)
            continue
        if len(reports) != 1:
            failures.append(Failure(f"mutation-{kind}", "mutated record unreadable", f"{mwhat}: not one record", mdata))
            continue
        mrecord, report = reports[0]
        counts[f"status {report.status}"] += 1
        try:
            exported = check(parse_text(record_to_text(mrecord))[0])
            if (exported.status, sorted(v.code for v in exported.violations)) != \
                    (report.status, sorted(v.code for v in report.violations)):
                failures.append(Failure(f"export-{kind}", "export --to text changes the report of a mutated record",
                                        f"{mwhat}: the exported record checks differently", mdata))
        except Exception as error:  # noqa: BLE001
            failures.append(_exception(f"export-{kind}", error, f"{mwhat}, exported", mdata))
        early = violations_before(report, mutation.line)
        if early:
            v = early[0]
            sig = f"{v.code} before the mutated line ({kind})"
            detail = f"{mwhat}: {v.code} at line {v.line}, before line {mutation.line}: {v.message}"
            failures.append(Failure(f"mutation-{kind}", sig, detail, mdata))

    kind, gdata = garble(text, rng)
    counts["garbled"] += 1
    counts[f"garbled {kind}"] += 1
    try:
        garbled = read_and_check(gdata, f"garble-{kind}", f"{what}, garbled ({kind})")
        if kind in LOSSLESS and _summary(garbled) != _summary(original):
            sig = f"the record reads differently with {kind}"
            errors = [str(i).splitlines()[0] for i in read_games("fuzz.txt", io.BytesIO(gdata)) if isinstance(i, RecordError)]
            failures.append(Failure(f"garble-{kind}", sig, f"{what}, garbled ({kind}): reads differently "
                                    f"({len(garbled)} record(s), {len(gdata)} bytes) {' '.join(errors[:1])}", gdata))
    except Failure as failure:
        failures.append(failure)
    return counts, failures


def _summary(reports) -> list:
    return [([(e.line, e.player, e.verb, e.cards) for e in record.events], report.status,
             [(v.line, v.code) for v in report.violations]) for record, report in reports]


def fuzz_bytes(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    rng = random.Random(f"{seed}:bytes:{index}")
    size = rng.choice((0, 1, 10, 100, 1000, 5000))
    if rng.random() < 0.5:
        data = bytes(rng.randrange(256) for _ in range(size))
    else:  # bytes that look more like text: printable, newlines, brackets, quotes
        alphabet = b'[]"; \n\t.:0123456789AJQKSHDCplaysGamePlr?' + "é♠".encode()
        data = bytes(rng.choice(alphabet) for _ in range(size))
    try:
        read_and_check(data, "bytes", f"random bytes #{index}")
        return Counter(bytes=1), []
    except Failure as failure:
        return Counter(bytes=1), [failure]


def _task(args):
    kind, *rest = args
    return fuzz_one(*rest) if kind == "game" else fuzz_bytes(*rest)


def save(failure: Failure, folder: Path, number: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    slug = "".join(c if c.isalnum() else "-" for c in failure.signature.lower()).strip("-")[:60]
    path = folder / f"fuzz-{number:03d}-{failure.kind}-{slug}.open"
    first = failure.detail.splitlines()[0]
    note = (f"; OPEN BUG found by bench/fuzz.py ({failure.kind}): {failure.signature}.\n"
            f"; {first[:300]}\n"
            f"; Exercises: reading and checking must give a report or a RecordError, never an exception;\n"
            f"; a mutated record is flagged at the changed line or after it. Rename to .txt (with\n"
            f"; '; expect' lines) or .unreadable once fixed.\n")
    path.write_bytes(note.encode() + failure.data)
    return path


def run_fuzz(args) -> int:
    games = simulable_games()
    tasks = [("game", g, i, args.seed, args.mutations, args.max_events) for i in range(args.games) for g in games]
    tasks += [("bytes", i, args.seed) for i in range(args.bytes)]
    counts: Counter = Counter()
    found: dict[str, tuple[Failure, int]] = {}
    errors = 0
    started = time.time()
    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs)
        results = pool.map(_task, tasks, chunksize=16)
    else:
        pool, results = None, map(_task, tasks)
    for done, (c, failures) in enumerate(results, 1):
        counts.update(c)
        for failure in failures:
            errors += 1
            if failure.signature not in found:
                found[failure.signature] = (failure, 0)
                print(f"NEW ERROR {failure.signature}\n  {failure.detail.splitlines()[0][:500]}", flush=True)
            found[failure.signature] = (found[failure.signature][0], found[failure.signature][1] + 1)
        if done % 500 == 0:
            print(f"  {done}/{len(tasks)} inputs, {errors} errors, {time.time() - started:.0f}s", flush=True)
    if pool:
        pool.shutdown()
    elapsed = time.time() - started

    tried = counts["records"] + counts["mutated"] + counts["garbled"] + counts["bytes"]
    print(f"\nfuzz seed {args.seed}: {args.games} simulated record(s) per game ({', '.join(games)}), {elapsed:.0f}s")
    print(f"  records tried: {tried}")
    for key in ("records", "mutated", "garbled", "bytes"):
        print(f"    {key:10} {counts[key]}")
    print("  mutations:  " + ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("mutated ")))
    print("  garbles:    " + ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("garbled ")))
    print("  mutated records' status: " + ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("status ")))
    print(f"  errors found: {errors} ({len(found)} kind(s))")
    for number, (signature, (failure, times)) in enumerate(sorted(found.items()), 1):
        line = f"    {times:6} x {signature}"
        if args.save:
            line += f"  -> {save(failure, Path(args.regressions), number)}"
        print(line)
    return 1 if errors else 0


def run_memory(args) -> int:
    from referee.notation import read_games

    games = [simulate("bataille-corse", 2 + s % 4, s, hidden=s % 3 == 1) for s in range(40)]
    block = "\n".join(games).encode()
    target = args.memory_mb * 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "large.txt"
        with open(path, "wb") as out:
            for _ in range(target // len(block) + 1):
                out.write(block)
        size = path.stat().st_size
        check(next(read_games(str(path))))
        import tracemalloc

        started = time.time()
        tracemalloc.start()
        count = Counter()
        for item in read_games(str(path)):
            count["error" if isinstance(item, RecordError) else check(item).status] += 1
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        elapsed = time.time() - started
    print(f"memory: {size / 1e6:.1f} MB, {sum(count.values())} games ({dict(count)}), "
          f"peak traced Python memory {peak / 1e6:.2f} MB ({100 * peak / size:.2f}% of the file), {elapsed:.0f}s")
    return 0 if peak < size / 10 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="simulated records per game (default 1000)")
    parser.add_argument("--mutations", type=int, default=3, help="mutated copies of each record (default 3)")
    parser.add_argument("--bytes", type=int, default=None, help="random byte inputs (default: as many as --games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-events", type=int, default=1500, help="events per simulated record at most (default 1500)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--regressions", default=str(ROOT / "records" / "regressions"))
    parser.add_argument("--no-save", dest="save", action="store_false", help="do not save failing records")
    parser.add_argument("--memory-mb", type=int, default=0, help="run the memory check on a file of this many MB instead")
    args = parser.parse_args(argv)
    if args.memory_mb:
        return run_memory(args)
    if args.bytes is None:
        args.bytes = args.games
    return run_fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
