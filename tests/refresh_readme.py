"""Write again what README.md's and docs/fr/README.md's first command prints (the first
lines, the line count and the summary), after the records or the summary change:
``python tests/refresh_readme.py`` from the checkout. tests/test_ci.py checks them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = (("README.md", "## On a fresh machine", "lines", ()), ("docs/fr/README.md", "## Pour commencer", "lignes", ("--lang", "fr")))


def refresh() -> None:
    for page, heading, word, lang in PAGES:
        command = [sys.executable, "-m", "referee", *lang, "check", "--statistics", "--exclude", "bad", "records"]
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False).stdout.splitlines()
        path = ROOT / page
        text = path.read_text(encoding="utf-8")
        start = text.index(heading)
        end = text.index("\n## ", start + 1)
        section = re.sub(r"^```\n.*?^```", lambda _: "```\n" + "\n".join([*out[:3], "…", out[-1]]) + "\n```",
                         text[start:end], count=1, flags=re.MULTILINE | re.DOTALL)
        section = re.sub(rf"\d+ {word}", f"{len(out) - 1} {word}", section, count=1)
        path.write_text(text[:start] + section + text[end:], encoding="utf-8")


if __name__ == "__main__":
    refresh()
