"""The HTML report's size and speed (issue 24): not a timed test, a measure.

    python bench/html.py                 # Caroleto 100 games, Bataille corse 10,000 games
    python bench/html.py --bc-games 1000 # a smaller archive

Prints, for the records ``referee simulate`` writes:

- ``referee simulate caroleto --players 4 --seed 5 --count 100``: the time of ``referee
  check --format html`` on them (a whole process, best of ``--repeat``) and the page's
  size; target: under 2 s and 2 MB;
- ``--bc-games`` simulated Bataille corse games: the same, and how long Debian's Chromium
  takes to show the page's summary table (its first row laid out) and to load it all;
  target: under 50 MB, the summary within 5 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20


def referee(*args: str, out: Path | None = None) -> float:
    """Run ``referee ARGS`` (its output to ``out``); the seconds it took."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    with open(out or os.devnull, "wb") as sink:
        subprocess.run([sys.executable, "-m", "referee", *args], stdout=sink, env=env, check=False)
    return time.perf_counter() - started


def report(records: Path, page: Path, repeat: int) -> tuple[float, float]:
    """(best seconds, MB) of ``check --format html`` on ``records``."""
    best = min(referee("check", "--format", "html", "-o", str(page), str(records)) for _ in range(repeat))
    return best, page.stat().st_size / MB


def in_chromium(page: Path) -> tuple[float, float]:
    """(seconds to the summary's first row, seconds to the load event) in headless Chromium."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from tests.browser import ARGS, CHROMIUM

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        started = time.perf_counter()
        tab.goto(page.as_uri(), wait_until="commit")
        tab.wait_for_selector("#summary tbody tr", state="visible", timeout=120_000)
        summary = time.perf_counter() - started
        tab.wait_for_load_state("load", timeout=300_000)
        loaded = time.perf_counter() - started
        browser.close()
    return summary, loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bc-games", type=int, default=10_000, help="simulated Bataille corse games (default 10,000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of the Caroleto report, the best kept")
    parser.add_argument("--no-browser", action="store_true", help="leave Chromium out")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        caroleto = work / "caroleto.txt"
        referee("simulate", "caroleto", "--players", "4", "--seed", "5", "--count", "100", out=caroleto)
        seconds, size = report(caroleto, work / "caroleto.html", options.repeat)
        print(f"caroleto, 100 games: check --format html {seconds:.2f} s, {size:.2f} MB (target: 2 s, 2 MB)")
        bataille = work / "bataille.txt"
        referee("simulate", "bataille-corse", "--players", "2", "--seed", "1", "--count", str(options.bc_games), out=bataille)
        seconds, size = report(bataille, work / "bataille.html", 1)
        print(f"bataille corse, {options.bc_games:,} games ({bataille.stat().st_size / MB:.1f} MB of records): "
              f"check --format html {seconds:.1f} s, {size:.1f} MB (target: 50 MB)")
        if not options.no_browser:
            summary, loaded = in_chromium(work / "bataille.html")
            print(f"  in Chromium: summary shown after {summary:.2f} s, page loaded after {loaded:.2f} s (target: summary within 5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
