"""Every example record in README.md and docs/ states its verdict (``; expect ...``
comments, as the records under records/ do) and gets it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import ROOT
from .expectations import check_expectations, expectations

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, str]]:
    """(where, text) of each fenced block that is a record: it has a [Game] (or [Jeu]) header."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if re.search(r'^\[(Game|Jeu)\s*"', match.group(1), re.MULTILINE):
                line = text.count("\n", 0, match.start()) + 2
                found.append((f"{page.relative_to(ROOT)}:{line}", match.group(1)))
    return found


EXAMPLES = examples()


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize(("where", "text"), EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_example_states_and_gets_its_verdict(where: str, text: str) -> None:
    assert all(any(item.startswith("status ") for item in game["whole"]) for game in expectations(text)), \
        f"{where}: say the example's verdict with '; expect status ...'"
    check_expectations(text)


def test_nothing_points_outside_the_repository() -> None:
    """A user's clone has only the repository: the docs, the code's docstrings and the
    records quote what they need instead of pointing at the rule files beside it."""
    outside = re.compile(r"\.\./" + "shared|" + "shared/" + "rules")
    folders = ("referee", "docs", "grammar", "schemas", "bench", "records", "tests")
    kinds = (".py", ".md", ".txt", ".lark", ".json")
    files = [ROOT / "README.md", *(p for f in folders for p in (ROOT / f).rglob("*") if p.suffix in kinds)]
    found = [f"{p.relative_to(ROOT)}:{n}" for p in files
             for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1) if outside.search(line)]
    assert len(files) > 100 and not found


PYTHON = [(page, match.group(1)) for page in PAGES
          for match in re.finditer(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)]


@pytest.mark.parametrize("page", sorted({p for p, _ in PYTHON}), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_run(page: Path) -> None:
    """The Python examples of a page run in order, as one session, and their asserts hold."""
    names: dict[str, object] = {}
    for _, code in (item for item in PYTHON if item[0] == page):
        exec(compile(code, str(page), "exec"), names)


def test_the_api_page_has_examples() -> None:
    assert sum(p.name == "api.md" for p, _ in PYTHON) >= 4


SHOWN = [(page, match.group(1), match.group(2))
         for page in (ROOT / "README.md", ROOT / "docs" / "fr" / "README.md")
         for match in re.finditer(r"^```\n\$ (referee check [^\n]+)\n(.*?)^```", page.read_text(encoding="utf-8"),
                                  re.MULTILINE | re.DOTALL)]


@pytest.mark.parametrize(("page", "command", "shown"), SHOWN, ids=[str(p.relative_to(ROOT)) for p, _, _ in SHOWN])
def test_a_check_shown_on_a_front_page_prints_what_the_page_shows(page: Path, command: str, shown: str, monkeypatch) -> None:
    """The first example of README.md (and of its French twin, in French) is what
    referee check prints today, to the character (the French page's no-break spaces aside)."""
    from click.testing import CliRunner

    from referee.cli import main

    monkeypatch.chdir(ROOT)
    lang = "fr" if "fr" in page.parts else "en"
    printed = CliRunner().invoke(main, ["--lang", lang, *command.split()[1:]]).output
    assert printed.replace("\u00a0", " ") == shown.replace("\u00a0", " ")


def test_the_front_pages_show_a_check() -> None:
    assert len(SHOWN) == 2
