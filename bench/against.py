"""``referee check`` against another build of referee, game by game: is a change slower?

    python bench/against.py /path/to/other/venv/bin/referee
    python bench/against.py OTHER --instructions --games 60     # on a busy machine

Both builds check the same records: bench/bench.py's corpora of every refereed game (the
deal written, ``known``, and left out, ``hidden``) and the same in French notation. The
installed ``referee`` beside this Python is *this* build; ``OTHER`` is another install
(for instance a non-editable ``pip install`` of an older commit in a venv of its own, so
that both are compiled alike: ``referee --version`` says how each runs).

Two measures:

- time (the default): the CPU time (user + system) of whole ``referee check`` processes,
  the two builds taking turns in each of ``--repeat`` rounds (the order swapped every
  round); per corpus, the median of the rounds' ratios (this / other) and its range;
- ``--instructions``: the instructions each process runs, counted by Valgrind's
  callgrind (``PYTHONHASHSEED=0``): the same count on every run, whatever else the machine
  does, so a shared or loaded machine gives a sound answer (a run is some 50 times
  slower: keep ``--games`` small). The start-up (a one-game header, no event) is counted
  apart and taken out, so that ``replay`` is the records' own work.

A ratio above 1 is slower than the other build. Exit status 0 (this is a measure, not a
test: bench/README.md's rule, no timing is asserted).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _environment, _load, _referee_command, corpus  # noqa: E402

from referee.simulate import simulable_games  # noqa: E402


def corpora(games: int, folder: Path) -> list[Path]:
    """The records both builds check, written in ``folder``: per game, known and hidden
    hands in English notation, and known hands in French."""
    paths = []
    for game in simulable_games():
        for label, hidden in (("known", False), ("hidden", True)):
            data = corpus(game, games, hidden=hidden)
            paths.append(_write(folder / f"{game}-{label}.txt", data))
        paths.append(_write(folder / f"{game}-fr.txt", corpus(game, games, hidden=False, notation="fr")))
    return paths


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def cpu(command: list[str]) -> float:
    """The CPU time (user + system) of one process running ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_environment(), check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def instructions(command: list[str]) -> int:
    """The instructions one process running ``command`` executes (callgrind's count)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=_environment() | {"PYTHONHASHSEED": "0"}, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        sys.exit(f"valgrind gave no count: {done.stderr[-500:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="the other build's referee script")
    parser.add_argument("--games", type=int, default=400, help="simulated records per corpus (default 400)")
    parser.add_argument("--repeat", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--instructions", action="store_true", help="count instructions with Valgrind, not time")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("--instructions needs Valgrind (apt-get install valgrind)")
    builds = {"this": _referee_command(), "other": [args.other]}
    for name, command in builds.items():
        version = subprocess.run(command + ["--version"], capture_output=True, text=True, check=False).stdout.strip()
        print(f"{name}: {command[0]}: {version}")
    print(f"load before: {_load()}")
    with tempfile.TemporaryDirectory() as folder:
        paths = corpora(args.games, Path(folder))
        if args.instructions:
            empty = _write(Path(folder) / "empty.txt", b'[Game "flaschenteufel"]\n[Players "Ann Bob Cas"]\n')
            base = {name: instructions(command + ["check", str(empty)]) for name, command in builds.items()}
            print(f"start-up: {base['this'] / 1e6:.1f}M instructions against {base['other'] / 1e6:.1f}M "
                  f"({base['this'] / base['other']:.3f})")
            for path in paths:
                counts = {name: instructions(command + ["check", str(path)]) - base[name] for name, command in builds.items()}
                print(f"{path.stem:<28} replay {counts['this'] / 1e6:9.1f}M against {counts['other'] / 1e6:9.1f}M: "
                      f"{counts['this'] / counts['other']:.3f}", flush=True)
        else:
            for path in paths:
                ratios = []
                for turn in range(args.repeat):
                    order = list(builds.items()) if turn % 2 == 0 else list(builds.items())[::-1]
                    spent = {name: cpu(command + ["check", str(path)]) for name, command in order}
                    ratios.append(spent["this"] / spent["other"])
                print(f"{path.stem:<28} {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})", flush=True)
    print(f"load after: {_load()}")


if __name__ == "__main__":
    main()
