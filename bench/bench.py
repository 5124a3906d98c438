"""The benchmark: speed and memory of ``referee check`` against its targets (issues 4, 25).

    python bench/bench.py            # long: ~5,000 simulated games per game and corpus
    python bench/bench.py --quick    # a smaller run, a few seconds each part

Needs the ``bench`` extra (python-chess): ``pip install '.[bench]'``. Times the installed
``referee`` script (the one beside this Python), so ``pip install .`` first to time the
compiled fast path; ``referee --version`` says which path it runs. Prints, on records
made by ``referee simulate``:

- per refereed game and for both corpora (known hands: the deal written; hidden hands:
  only what the table saw), whole processes, in interleaved rounds: ``referee check`` on
  the corpus against a Python process reading random legal chess games with python-chess
  (``read_game``: each SAN move parsed against the position, so checked legal, and
  played), as events per second over plies per second: the median ratio over the rounds
  and its range (min-max); target: at least 3x. Beside it, the regex-per-line floor: one
  Python process that matches one compiled regular expression against each event line
  of the same file, and nothing else; referee's share of it is the floor's time over
  referee's (target: at least 50%). With ``--compare-pure``, the same install run on its
  pure-Python sources too (``REFEREE_PURE=1``);
- with ``--in-process``, the same in one process: parse alone, parse + replay, replay;
- files per second of ``referee check`` on a folder of ``--files`` small records (one
  simulated game each), in one process and with ``--jobs`` (``--folder-only`` for this
  part alone);
- start-up: ``referee check`` on a one-game record against bare ``python -c pass``;
  target: at most STARTUP times;
- peak memory (resident set of the whole process) of ``referee check --json`` on
  multi-game files of growing size up to ``--memory-mb``, and on one legal game of that
  size; target: flat, and at most 100 MB on a 100 MB file;
- the peak memory of ``export --to json``, ``export --to text`` and ``fmt --check`` on one
  game of ``--memory-mb`` (the long legal game, and one of cards face down) against
  ``check --json``'s on the same file (issue 38); target: at most 3x check's;
- hostile input (issue 16): the time and peak memory of ``referee check --json`` on each
  shape that once took quadratic time or unbounded memory: lines that end in a long run of
  blanks, ``?``, digits, suit symbols, quotes or backslashes and a stray character (in many
  games), a ``--memory-mb`` run of blank lines, one long game of the lines that cost the
  most memory, and heads past their limit (MAX_HEAD); target: at most 100 MB, and time
  in proportion.

Every timed run takes its turn in every round, so that the machine's ups and downs fall
on all alike; ratios are taken within a round, then their median over the rounds is
shown. The garbage collector runs as in the CLI.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine import check, start, replay  # noqa: E402
from referee.notation import read_games  # noqa: E402
from referee.record import Record  # noqa: E402
from referee.simulate import rules_class, simulable_games, simulate  # noqa: E402

MB = 1 << 20
TARGET = 3
"""Events per second at least this many times python-chess's plies per second."""
STARTUP = 6
"""Start-up: at most this many times bare Python's."""
SHARE = 0.5
"""referee's share of the regex-per-line floor: at least this (the floor's time over referee's)."""


def corpus(game: str, games: int, seed: int = 1, hidden: bool | None = None, notation: str = "en") -> bytes:
    """Simulated records of ``game``: every number of players it allows in turn, the deal
    written (``hidden=False``), left out (``True``), or each in turn (None), in English or
    French notation."""
    cls = rules_class(game)
    counts = range(cls.min_players, cls.max_players + 1)
    texts = [simulate(game, counts[s % len(counts)], seed + s, hidden=s % 2 == 1 if hidden is None else hidden,
                      notation=notation)
             for s in range(games)]
    return "\n".join(texts).encode()


def rounds(repeat: int, runs: dict[str, Callable[[], object]]) -> dict[str, list[float]]:
    """The time of each run, in seconds, in each of ``repeat`` rounds in which every run
    takes its turn: the machine's ups and downs fall on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            began = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - began)
    return times


def spread(values: list[float], unit: str = "x", digits: int = 2) -> str:
    """A median and its range: ``2.51x (2.40-2.63)``."""
    return f"{statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def corpora(games: int, keep: Path | None) -> dict[str, bytes]:
    """Both corpora of every refereed game (``"<game> known"``, ``"<game> hidden"``),
    simulated in as many processes as there are cores; read from ``keep`` when an earlier
    run left them there (and left there for the next)."""
    from concurrent.futures import ProcessPoolExecutor

    wanted = {f"{game} {label}": (game, games, 1, label == "hidden")
              for game in simulable_games() for label in ("known", "hidden")}
    found = {name: (keep / f"{name.replace(' ', '-')}-{games}.txt") for name in wanted} if keep else {}
    missing = [name for name in wanted if not (keep and found[name].exists())]
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        made = dict(zip(missing, pool.map(corpus, *zip(*(wanted[name] for name in missing))))) if missing else {}
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        for name, data in made.items():
            found[name].write_bytes(data)
    return {name: made[name] if name in made else found[name].read_bytes() for name in wanted}


def fastest(repeat: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The shortest time of each run over ``repeat`` interleaved rounds."""
    return {name: min(kept) for name, kept in rounds(repeat, runs).items()}


def referee_runs(data: bytes) -> tuple[int, dict[str, Callable[[], object]]]:
    """Events, and the timed runs on them: parse alone, parse + replay, replay alone
    (the records parsed beforehand)."""
    records = [r for r in read_games("bench", io.BytesIO(data)) if isinstance(r, Record)]
    return sum(len(r.events) for r in records), {
        "parse": lambda: sum(1 for _ in read_games("bench", io.BytesIO(data))),
        "parse+replay": lambda: [check(r) for r in read_games("bench", io.BytesIO(data)) if isinstance(r, Record)],
        "replay": lambda: [replay(start(r), r).result() for r in records],
    }


def in_process(repeat: int, corpora: dict[str, bytes], events: dict[str, int], text: str, plies: int) -> None:
    """Parse alone, parse + replay and replay alone in this process, against python-chess's
    reader in the same rounds."""
    runs: dict[str, Callable[[], object]] = {"chess": chess_run(text)}
    for name, data in corpora.items():
        runs.update({f"{name} {part}": run for part, run in referee_runs(data)[1].items()})
    seconds = rounds(repeat, runs)
    chess = [plies / t for t in seconds["chess"]]
    print(f"\nIn process (median of {repeat} interleaved rounds):")
    print(f"  {'python-chess PGN':<24} {plies:>9} plies   parse+replay {statistics.median(chess):>9,.0f}/s")
    for name, count in events.items():
        rate = {part: count / statistics.median(seconds[f"{name} {part}"]) for part in ("parse", "parse+replay", "replay")}
        ratio = [count / t / c for t, c in zip(seconds[f"{name} parse+replay"], chess)]
        print(f"  {name:<24} {count:>9} events  parse {rate['parse']:>9,.0f}/s  parse+replay {rate['parse+replay']:>9,.0f}/s"
              f"  (replay alone {rate['replay']:>9,.0f}/s): {spread(ratio)} python-chess")


def chess_pgn(games: int, seed: int = 1) -> tuple[str, int]:
    """Random legal chess games as PGN text, and their plies."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out, plies = [], 0
    for number in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 200:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"Random game {number + 1}"
        out.append(str(game))
        plies += board.ply()
    return "\n\n".join(out) + "\n", plies


def chess_run(text: str) -> Callable[[], None]:
    """python-chess's PGN reader on ``text``: ``read_game`` parses each move's SAN against
    the position (so checks it is legal) and plays it on its board, which is parse +
    legal-move replay in one pass."""
    import chess.pgn

    def run() -> None:
        stream = io.StringIO(text)
        while chess.pgn.read_game(stream) is not None:
            pass

    return run


_CHESS_PROCESS = "import sys, chess.pgn\nwith open(sys.argv[1]) as f:\n    while chess.pgn.read_game(f) is not None: pass\n"

FLOOR = r'^\s*(?:(?:(\d+)\.\s*)?(?:(\d+:\d\d(?::\d\d)?)\s+)?(\S+) (\S+)(?: ([^;]*?))?\s*(?:;(.*))?|\[(\w+) "(.*)"\].*|--.*|;.*)?$'
"""The floor's regular expression: a line read as move number, time, player, verb, the
rest and a comment (or a header, a round mark, a comment, a blank line): about the least
any reader of these records does to each line."""

_FLOOR_PROCESS = f"""import re, sys
line = re.compile({FLOOR!r})
with open(sys.argv[1], encoding="utf-8") as f:
    for text in f:
        if line.match(text.rstrip("\\n")) is None: sys.exit("not matched: " + text)
"""


def processes(repeat: int, corpora: dict[str, bytes], pgn: str, pure: bool) -> dict[str, list[float]]:
    """The wall time of whole processes in each round: ``referee check`` on each corpus
    (the exit status says violations; none are expected), the regex floor on it, with
    ``pure`` the same install on its sources, and Python reading the PGN with
    python-chess."""
    with tempfile.TemporaryDirectory() as folder:
        runs: dict[str, tuple[list[str], dict[str, str]]] = {}
        for name, data in corpora.items():
            path = Path(folder) / f"{name.replace(' ', '-')}.txt"
            path.write_bytes(data)
            runs[name] = (_referee_command() + ["check", str(path)], _environment())
            runs[f"{name} floor"] = ([sys.executable, "-c", _FLOOR_PROCESS, str(path)], _environment())
            if pure:
                runs[f"{name} pure"] = (runs[name][0], _environment() | {"REFEREE_PURE": "1"})
        path = Path(folder) / "chess.pgn"
        path.write_text(pgn)
        runs["chess"] = ([sys.executable, "-c", _CHESS_PROCESS, str(path)], _environment())
        return rounds(repeat, {name: (lambda c=command, e=env: _run(c, e)) for name, (command, env) in runs.items()})


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
    if done.returncode not in (0, 1) or b"not matched" in done.stderr:
        sys.exit(f"{command[:3]} failed: {done.stderr.decode()[-2000:]}")


def running_path() -> str:
    """What ``referee --version`` says of the installed script: its path, compiled or not."""
    done = subprocess.run(_referee_command() + ["--version"], capture_output=True, text=True, env=_environment(), check=False)
    return done.stdout.strip() or done.stderr.strip()


def folder_rates(repeat: int, folder: Path, jobs: list[int]) -> dict[int, float]:
    """The shortest wall time of ``referee check`` on a folder of records, whole process,
    for each number of jobs (the runs taking turns in each round)."""
    command = _referee_command() + ["check", "--no-config", "--quiet", "--format", "concise", str(folder)]
    return fastest(repeat, {j: (lambda j=j: subprocess.run(command + ["--jobs", str(j)], stdout=subprocess.DEVNULL,
                                                               env=_environment(), check=False)) for j in jobs})


def small_records(folder: Path, files: int) -> int:
    """``files`` one-game records of every refereed game in turn, in ten subfolders; their
    total size in bytes."""
    names = simulable_games()
    size = 0
    for n in range(files):
        game = names[n % len(names)]
        cls = rules_class(game)
        text = simulate(game, cls.min_players + n % (cls.max_players - cls.min_players + 1), n, hidden=n % 2 == 1)
        path = folder / f"{n % 10}" / f"{game}-{n:05d}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        size += len(text.encode())
    return size


def _load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (other work slows every run)."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _referee_command() -> list[str]:
    script = Path(sys.executable).parent / "referee"
    return [str(script)] if script.exists() else [shutil.which("referee") or "referee"]


def _environment() -> dict[str, str]:
    """The environment of the timed commands: as a user's, where Python keeps compiled
    bytecode (PYTHONDONTWRITEBYTECODE would make every start-up compile from source)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def startup(repeat: int, record: Path) -> tuple[float, float]:
    """Median wall time of ``python -c pass`` and of ``referee check`` on one game, the
    two run in turn so that the machine's ups and downs fall on both alike."""
    commands = [[sys.executable, "-c", "pass"], _referee_command() + ["check", str(record)]]
    times: list[list[float]] = [[], []]
    for turn in range(repeat + 1):  # the first turn warms the file cache and writes the bytecode
        for command, kept in zip(commands, times):
            began = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_environment())
            if turn:
                kept.append(time.perf_counter() - began)
    return statistics.median(times[0]), statistics.median(times[1])


_PEAK = """
import atexit, resource, sys

def peak():
    try:
        with open("/proc/self/status") as status:
            kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // (1 if sys.platform != "darwin" else 1024)
    sys.stderr.write(f"peak {kb}\\n")

atexit.register(peak)
from referee.cli import main
main(sys.argv[1:])
"""
"""Runs a referee command (``check --json FILE`` ...) and writes the process's own peak
resident memory at exit (from /proc where there is one: the rusage figure of a child also
counts the memory of the process it was forked from)."""

CHECK = ("check", "--json")
STREAMED = {"export --to json": ("export", "--to", "json"), "export --to text": ("export", "--to", "text"),
            "fmt --check": ("fmt", "--check", "--no-config")}
"""The commands that read a game as check does (issue 38): target at most 3x check's peak."""


def peak_rss(path: Path, command: tuple[str, ...] = CHECK) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of ``referee check --json`` (or ``command``) on a file."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PEAK, *command, str(path)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=_environment() | {"PYTHONPATH": str(ROOT)}, check=False)
    kb = int(done.stderr.rsplit("peak ", 1)[1])
    return time.perf_counter() - began, kb / 1024


def long_game(path: Path, size: int) -> None:
    """One legal game of about ``size`` bytes: the published Bataille corse deal that
    never ends (records/bataille-corse/playout-never-ends.txt), played on and on, with
    no slap (a slap is never owed)."""
    from referee.convert.export import line_text
    from referee.notation import parse_text

    text = (ROOT / "records" / "bataille-corse" / "playout-never-ends.txt").read_text(encoding="utf-8")
    (record,) = parse_text(text)
    rules = replay(start(record), record)
    with open(path, "w", encoding="utf-8") as out:
        written = out.write(text)
        while written < size:
            lines = []
            for _ in range(1000):
                event = next(e for e in rules.legal() if e.verb != "slaps")
                rules.apply(event)
                lines.append(line_text(event))
            written += out.write("\n".join(lines) + "\n")


def unseen_game(path: Path, events: int) -> None:
    """One game of ``events`` cards turned face down (``Alice plays ??``, ``Bob plays ??``):
    the shape that took export 2.8 GB at 1.5 million events (issue 38)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\n')
        for _ in range(events // 2000):
            out.write("Alice plays ??\nBob plays ??\n" * 1000)


def streamed_part(folder: Path, memory_mb: int) -> None:
    """Peak memory of export and fmt against check's on the same long games (issue 38)."""
    print("\nPeak memory of export and fmt against check --json on one long game (target at most 3x check's):")
    shapes = [("the published Bataille corse deal played on", lambda p: long_game(p, memory_mb * MB)),
              ("cards face down (plays ??)", lambda p: unseen_game(p, memory_mb * MB // 14))]
    worst = 0.0
    for name, make in shapes:
        path = folder / "streamed.txt"
        make(path)
        _, base = peak_rss(path)
        line = f"  {name}, {path.stat().st_size / MB:.1f} MB: check {base:.1f} MB"
        for label, command in STREAMED.items():
            seconds, rss = peak_rss(path, command)
            worst = max(worst, rss / base)
            line += f"; {label} {rss:.1f} MB ({rss / base:.2f}x, {seconds:.1f} s)"
        print(line)
        path.unlink()
    print(f"  worst ratio {worst:.2f}x; target at most 3x: {'met' if worst <= 3 else 'NOT met'}")


def hostile_files(folder: Path, memory_mb: int, hostile_mb: int) -> list[tuple[str, Path]]:
    """The hostile shapes, each in a file of its own."""
    from referee.notation import MAX_HEAD, MAX_LINE

    head = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n'
    fill = MAX_LINE - 40
    lines = {
        "blanks after a card": "Alice plays 7H" + " " * fill + "x", "tabs and blanks after a card": "Alice plays 7H" + "\t " * (fill // 2) + "x",
        "question marks": "Alice plays " + "?" * fill + "x", "digits": "Alice plays " + "1" * fill + "x",
        "suit symbols": "Alice plays " + "♠" * fill + "x", "quotes": '[Event "' + '"' * fill + "x",
        "backslashes": '[Event "' + "\\" * fill + "x", "escaped quotes": '[Event "' + '\\"' * (fill // 2) + "x",
    }
    files = []
    for name, line in lines.items():
        path = folder / f"line-{len(files)}.txt"
        path.write_text((head + line + "\nAlice plays 7H\n") * 200, encoding="utf-8")
        files.append((f"200 games, a line of {name}", path))
    path = folder / "blank-run.txt"
    with open(path, "w") as out:
        out.write(head + "Alice plays 7H\n")
        for _ in range(memory_mb):
            out.write("\n" * MB)
    files.append((f"{memory_mb} MB of blank lines after an event", path))
    for name, line in (("burns 78", "Bob burns 78\n"), ("false slaps", "Bob slaps\n"), ("comments", ";\n")):
        path = folder / f"long-{name.replace(' ', '-')}.txt"
        with open(path, "w") as out:
            out.write(head + "Alice plays 7H\n")
            block = line * (MB // len(line))
            for _ in range(hostile_mb):
                out.write(block)
        files.append((f"one game of {hostile_mb} MB of {name}", path))
    path = folder / "long-head.txt"
    with open(path, "w") as out:
        out.write(("; a comment before the headers\n" * (MAX_HEAD // 30) + head + "Alice plays 7H\n") * 20)
    files.append(("20 games whose heads run past the limit (MAX_HEAD)", path))
    return files


def folder_part(files: int, repeat: int) -> None:
    """Files per second of ``referee check`` on a folder of small records: one process
    against --jobs."""
    with tempfile.TemporaryDirectory() as folder:
        size = small_records(Path(folder), files)
        jobs = sorted({1, 2, os.cpu_count() or 1})
        print(f"\nA folder of {files} small records ({size / files / 1024:.1f} KB each), whole process, best of {repeat}:")
        seconds = folder_rates(repeat, Path(folder), jobs)
        for j in jobs:
            print(f"  --jobs {j}: {seconds[j]:6.2f} s, {files / seconds[j]:7,.0f} files/s"
                  f" ({seconds[1] / seconds[j]:.2f}x one process)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run")
    parser.add_argument("--games", type=int, help="simulated records per game and corpus (default 5000, quick 100)")
    parser.add_argument("--repeat", type=int, help="timed rounds (default 5, quick 3)")
    parser.add_argument("--compare-pure", action="store_true",
                        help="time the installed referee on its pure-Python sources too (REFEREE_PURE=1)")
    parser.add_argument("--keep-corpora", type=Path, metavar="FOLDER",
                        help="keep the simulated corpora in FOLDER, and read them from there on the next run")
    parser.add_argument("--in-process", action="store_true", help="time parse and replay in this process too")
    parser.add_argument("--memory-mb", type=int, help="largest file for the memory part (default 100, quick 10)")
    parser.add_argument("--hostile-mb", type=int, help="size of the files of games at the size limit (default 10, quick 2)")
    parser.add_argument("--files", type=int, help="small records in the folder checked with --jobs (default 1000, quick 200)")
    parser.add_argument("--folder-only", action="store_true", help="only the folder part: files per second against --jobs")
    parser.add_argument("--streamed-only", action="store_true",
                        help="only the memory of export and fmt against check's on one long game (issue 38)")
    args = parser.parse_args()
    games = args.games or (100 if args.quick else 5000)
    repeat = args.repeat or (3 if args.quick else 5)
    memory_mb = args.memory_mb or (10 if args.quick else 100)
    hostile_mb = args.hostile_mb or (2 if args.quick else 10)
    files = args.files or (200 if args.quick else 1000)

    print(f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cores")
    if args.folder_only:
        folder_part(files, repeat)
        return 0
    if args.streamed_only:
        with tempfile.TemporaryDirectory() as folder:
            streamed_part(Path(folder), memory_mb)
        return 0
    print(f"referee: {running_path()}")
    corpus_of = corpora(games, args.keep_corpora)
    events = {name: sum(len(r.events) for r in read_games("bench", io.BytesIO(data)) if isinstance(r, Record))
              for name, data in corpus_of.items()}
    text, plies = chess_pgn(max(games // 5, 20))
    if args.in_process:
        in_process(repeat, corpus_of, events, text, plies)

    print(f"\nWhole processes, {games} simulated games per game and corpus (known hands, hidden hands),"
          f" {plies} plies of chess; median of {repeat} interleaved rounds (min-max):")
    before_load = _load()
    seconds = processes(repeat, corpus_of, text, args.compare_pure)
    chess = [plies / t for t in seconds["chess"]]
    print(f"  {'python-chess PGN':<24} {plies:>9} plies   {statistics.median(chess):>9,.0f}/s")
    print(f"  {'game, corpus':<24} {'events':>9} {'events/s':>12}   {'vs python-chess':<19}"
          f" {'share of the floor':<19}" + (f" {'pure Python':<19}" if args.compare_pure else ""))
    slow, low = [], []
    for name, count in events.items():
        ratio = [count / t / c for t, c in zip(seconds[name], chess)]
        share = [f / t for f, t in zip(seconds[f"{name} floor"], seconds[name])]
        line = (f"  {name:<24} {count:>9} {count / statistics.median(seconds[name]):>10,.0f}/s   {spread(ratio):<19}"
                f" {spread([100 * x for x in share], '%', 0):<19}")
        if args.compare_pure:
            line += f" {spread([count / t / c for t, c in zip(seconds[f'{name} pure'], chess)])}"
        print(line)
        if statistics.median(ratio) < TARGET:
            slow.append(name)
        if statistics.median(share) < SHARE:
            low.append(name)
    for target, missed in ((f"at least {TARGET}x python-chess", slow), (f"at least {SHARE:.0%} of the floor", low)):
        print(f"  target {target} on every game and corpus: {'met' if not missed else 'NOT met (' + ', '.join(missed) + ')'}")
    print(f"  load average (1, 5, 15 min) before: {before_load}, after: {_load()}")

    folder_part(files, repeat)

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        small = folder / "one-game.txt"
        small.write_text(simulate(simulable_games()[0], 3, 7))
        bare, ours = startup(7 if args.quick else 21, small)
        ratio = ours / bare
        print(f"\nStart-up (median): python -c pass {bare * 1000:.1f} ms, referee check {ours * 1000:.1f} ms:"
              f" {ratio:.1f}x (target {STARTUP}x): {'met' if ratio <= STARTUP else 'NOT met'}")

        print("\nPeak memory of referee check --json (resident set, whole process):")
        block = corpus(simulable_games()[0], 50, seed=1000) + b"\n"
        tiny_time, tiny_rss = peak_rss(small)
        print(f"  {small.stat().st_size / MB:>7.3f} MB file: {tiny_rss:6.1f} MB peak, {tiny_time:6.1f} s")
        size, peaks = 1, []
        while size <= memory_mb:
            path = folder / f"{size}mb.txt"
            with open(path, "wb") as out:
                for _ in range(-(-size * MB // len(block))):
                    out.write(block)
            seconds, rss = peak_rss(path)
            peaks.append(rss)
            print(f"  {path.stat().st_size / MB:>7.1f} MB file: {rss:6.1f} MB peak, {seconds:6.1f} s")
            path.unlink()
            size *= 10
        growth = peaks[-1] - peaks[0]
        print(f"  growth from 1 MB to {memory_mb} MB: {growth:+.1f} MB; target at most 100 MB on 100 MB:"
              f" {'met' if peaks[-1] <= 100 else 'NOT met'}")
        print("  one game, legal and never ending (the published Bataille corse deal, played on):")
        size, peaks = 1, []
        while size <= memory_mb:
            path = folder / f"one-game-{size}mb.txt"
            long_game(path, size * MB)
            seconds, rss = peak_rss(path)
            peaks.append(rss)
            print(f"  {path.stat().st_size / MB:>7.1f} MB game: {rss:6.1f} MB peak, {seconds:6.1f} s")
            path.unlink()
            size *= 10
        print(f"  growth from 1 MB to {memory_mb} MB: {peaks[-1] - peaks[0]:+.1f} MB; target at most 100 MB on 100 MB:"
              f" {'met' if peaks[-1] <= 100 else 'NOT met'}")

        streamed_part(folder, memory_mb)

        print("\nHostile input: referee check --json (resident set, whole process):")
        worst = 0.0
        for name, path in hostile_files(folder, memory_mb, hostile_mb):
            seconds, rss = peak_rss(path)
            worst = max(worst, rss)
            print(f"  {name:<52} {path.stat().st_size / MB:>7.1f} MB: {rss:6.1f} MB peak, {seconds:6.1f} s"
                  f" ({seconds / (path.stat().st_size / MB):.1f} s/MB)")
            path.unlink()
        print(f"  worst peak {worst:.1f} MB; target at most 100 MB: {'met' if worst <= 100 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
