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


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """A heading's anchor, as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return {_slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


@pytest.mark.parametrize("page", [*PAGES, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_the_docs_points_at_a_file_and_heading_of_the_repository(page: Path) -> None:
    """A relative link names a file or folder that exists, and its #anchor a heading of it;
    a link out of the repository is a full address (the docs never point beside it)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            assert target.startswith(("https://", "http://")), (page, target)
            continue
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        if not found.exists() or ROOT not in (found, *found.parents):
            broken.append(target)
        elif anchor and found.suffix == ".md" and anchor not in _anchors(found):
            broken.append(target)
    assert not broken, broken


def test_the_docs_have_an_index_that_links_every_page() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")} - {"README.md"}
    linked = {target.partition("#")[0] for target in LINK.findall(index)}
    assert pages <= linked, sorted(pages - linked)
    assert "docs/README.md" in LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_fits_its_job() -> None:
    """At most 12 KB: what referee is, the two commands (tests/test_ci.py runs the first),
    what the install and the tests take, and how to skip the compile; CI's details live
    in docs/ci.md."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 12 * 1024
    for said in ("REFEREE_PURE_BUILD=1", "about a minute", "Python 3.11", "Chromium", "apt-get install -y chromium",
                 "five minutes", "## After a game", "## At the table", "## In CI", "## In an editor", "docs/ci.md"):
        assert said in readme, said


DISPUTES = ROOT / "docs" / "disputes.md"
TABLE_COMMANDS = re.findall(r"^```\n\$ (referee (?:state|explain) [^\n]+)\n(.*?)^```", DISPUTES.read_text(encoding="utf-8"),
                            re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize(("command", "shown"), TABLE_COMMANDS, ids=[c for c, _ in TABLE_COMMANDS])
def test_a_state_or_explain_shown_on_the_disputes_page_prints_what_the_page_shows(command: str, shown: str, tmp_path: Path,
                                                                                 monkeypatch) -> None:
    """The page's `referee state` and `referee explain` outputs are what they print today
    (piped: 80 columns), on the page's own friday.txt."""
    from click.testing import CliRunner

    from referee.cli import main

    text = DISPUTES.read_text(encoding="utf-8")
    friday = re.search(r"run on `friday.txt`[^\n]*\n\n```\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert friday is not None
    (tmp_path / "friday.txt").write_text(friday.group(1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    printed = CliRunner().invoke(main, ["--lang", "en", *command.split()[1:]]).output
    assert printed == shown


def test_the_disputes_page_shows_state_and_explain() -> None:
    assert len(TABLE_COMMANDS) >= 3


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_paragraph_says_a_sentence_twice(page: Path) -> None:
    """A sentence (of 8 words or more) written twice in one paragraph is a slip of an edit."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    twice = []
    for paragraph in re.split(r"\n\s*\n", text):
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", " ".join(paragraph.split())) if len(s.split()) >= 8]
        twice += sorted({s for s in sentences if sentences.count(s) > 1})
    assert not twice, twice


def test_the_extras_are_installed_from_the_clone_as_the_readme_installs_referee() -> None:
    """README.md installs referee from its folder (`pip install .`); a page that says
    `pip install 'referee[lsp]'` sends a newcomer to a package index instead."""
    said = [f"{page.relative_to(ROOT)}:{n}" for page in PAGES
            for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"pip install [\"']?referee\[", line)]
    assert not said, said


EDITORS = ROOT / "docs" / "editors.md"
NEOVIM = re.findall(r"^```lua\n(.*?)^```", EDITORS.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("init", NEOVIM, ids=[f"neovim-{n}" for n in range(len(NEOVIM))])
def test_a_neovim_set_up_of_the_editors_page_shows_a_records_rulings(init: str, tmp_path: Path) -> None:
    """Each init.lua of docs/editors.md, in the Neovim installed (skipped without one, or
    where it asks for a newer one), starts `referee lsp` on a record under records/ and
    shows its violation as a diagnostic."""
    import os
    import shutil
    import subprocess
    import sys

    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("no nvim on PATH")
    needs_config = "vim.lsp.config(" in init
    has_config = subprocess.run([nvim, "--headless", "-c", "lua io.stdout:write(vim.lsp.config and 'yes' or 'no')",
                                 "-c", "qa!"], capture_output=True, text=True, timeout=60).stdout.strip() == "yes"
    if needs_config and not has_config:
        pytest.skip("this set-up needs Neovim 0.11 or later")
    (tmp_path / "config" / "nvim").mkdir(parents=True)
    (tmp_path / "config" / "nvim" / "init.lua").write_text(init, encoding="utf-8")
    (tmp_path / "records").mkdir()
    record = tmp_path / "records" / "friday.txt"
    record.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 5H\nBob slaps\n', encoding="utf-8")
    out = tmp_path / "seen.txt"
    probe = ("lua vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100) "
             "local seen = {vim.bo.filetype} "
             "for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(seen, tostring(d.code)) end "
             f"vim.fn.writefile(seen, '{out}')")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "LANG": "C.UTF-8"}
    subprocess.run([nvim, "--headless", str(record), "-c", probe, "-c", "qa!"], env=env, cwd=tmp_path, timeout=120,
                   stdin=subprocess.DEVNULL, capture_output=True)
    assert out.read_text(encoding="utf-8").split() == ["referee", "BC-FALSE-SLAP"]


def _readme_commands(section: str) -> list[str]:
    """The `referee` command lines of a README section's indented blocks, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return [line.strip().split("   #", 1)[0].strip() for line in text.splitlines() if line.startswith("    referee ")]


AFTER_A_GAME = [c for c in _readme_commands("After a game") + _readme_commands("At the table")
                if c.split()[1] in ("check", "explain", "state", "standings")]


@pytest.mark.parametrize("command", AFTER_A_GAME)
def test_a_command_of_the_readme_runs_as_written(command: str, tmp_path: Path, monkeypatch) -> None:
    """Each check, explain, state and standings line of "After a game" and "At the table",
    typed as written in a folder with the repository's records and the README's
    friday.txt: no usage error and nothing unreadable (exit 0 or 1), and a file it names
    with -o is written."""
    import shlex

    from click.testing import CliRunner

    from referee.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("## After a game\n", 1)[1]
    friday = BLOCK.search(readme)
    assert friday is not None and "[Game " in friday.group(1)
    (tmp_path / "friday.txt").write_text(friday.group(1), encoding="utf-8")
    (tmp_path / "records").symlink_to(ROOT / "records")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)[1:]
    done = CliRunner().invoke(main, ["--lang", "en", *args])
    assert done.exit_code in (0, 1), done.output[-2000:]
    if "-o" in args:
        assert (tmp_path / args[args.index("-o") + 1]).stat().st_size > 0


def test_the_readme_shows_commands_after_a_game() -> None:
    assert {c.split()[1] for c in AFTER_A_GAME} == {"check", "explain", "state", "standings"}


def test_the_readme_says_how_its_bare_referee_commands_find_referee() -> None:
    """The fresh-machine commands install into .venv; the examples after them call a bare
    `referee`, which a new shell finds only once that environment is activated."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    fresh, after = readme.split("## After a game", 1)
    assert ".venv/bin/pip install" in fresh and "\n    referee " in after
    assert ". .venv/bin/activate" in fresh
