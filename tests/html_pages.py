"""Reports for the HTML tests: made in this process (``referee check --format html``), and
read back with the standard library's HTML parser."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main
from referee.simulate import simulate

EACH_GAME = [("bataille-corse", 2), ("carte-et-plouc", 3), ("caroleto", 4), ("flaschenteufel", 3), ("pierre-qui-roule", 4)]

HOSTILE = (
    '[Game "bataille-corse"]\n'
    '[Players "Alice O\'Brien"]\n'
    '[Event "<img src=x onerror=alert(2)>"]\n'
    '[Place "</script><script>alert(3)</script>"]\n'
    "; <script>alert(4)</script> & </details>\n"
    "Alice plays JD ; </script><b>bold</b>\n"
    "O'Brien plays 8C\n"
    "Alice collects\n"
    "Alice slaps\n"
    "\n"
    '[Game "bataille-corse"]\n'
    '[Players "Alice <script>alert(1)</script>Bob"]\n'
)
"""A record that brings markup: in header values, comments, and a player's name (a name
holds letters, digits, ' and - only: a name with markup makes a game that cannot be
checked, whose error quotes it)."""


def one_of_each(mistakes: float = 0.05) -> str:
    """A file with one simulated game of each game, with table mistakes."""
    return "\n".join(simulate(game, players, seed=3, mistakes=mistakes, max_events=400) for game, players in EACH_GAME)


def check(*args: str) -> tuple[int, str]:
    """``referee check ARGS``: the exit status and the output."""
    result = CliRunner().invoke(main, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.output


def html_report(*args: str) -> str:
    return check("--format", "html", *args)[1]


def json_report(*args: str) -> list[dict]:
    return json.loads(check("--format", "json", *args)[1])


class Page(HTMLParser):
    """What the tests read from a page: elements with their attributes and text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.stack: list[int] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._script: dict[str, str | None] | None = None
        self.feed(text)
        self.close()

    VOID = {"meta", "br", "img", "input", "link", "hr"}

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), []))
        if tag == "script":
            self._script = dict(attrs)
        if tag not in self.VOID:
            self.stack.append(len(self.elements) - 1)

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), []))

    def handle_endtag(self, tag):
        if not any(self.elements[i][0] == tag for i in self.stack):
            return
        while self.stack:
            index = self.stack.pop()
            if self.elements[index][0] == tag:
                break

    def handle_data(self, data):
        if self._script is not None:
            self.scripts.append((self._script, data))
            self._script = None
        for index in self.stack:
            self.elements[index][2].append(data)

    def text(self, index: int) -> str:
        return "".join(self.elements[index][2])

    def find(self, tag: str, cls: str | None = None) -> list[int]:
        return [i for i, (t, attrs, _) in enumerate(self.elements)
                if t == tag and (cls is None or cls in (attrs.get("class") or "").split())]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path
