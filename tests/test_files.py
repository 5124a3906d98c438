"""What ``referee check`` and ``referee fmt`` are given: files, folders, patterns and
excludes (referee/files/paths.py), and the configuration (referee/config.py)."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.config import Config, ConfigError, find, load
from referee.files.paths import Excludes, NotFound, compiled_patterns, expand

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
SLAP = GOOD + "Alice slaps\n"


def tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def records(tmp_path, monkeypatch):
    tree(tmp_path, {"club/2026/b.txt": GOOD, "club/2026/a.txt": GOOD, "club/z.txt": GOOD, "club/notes.md": "# notes",
                    "club/drafts/d.txt": SLAP, "club/.hidden/h.txt": SLAP, "club/old.draft.txt": SLAP})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_folder_is_searched_at_every_depth_in_a_stable_order(records) -> None:
    found = list(expand(["club"]))
    assert found == [os.path.join("club", *p) for p in
                     (("2026", "a.txt"), ("2026", "b.txt"), ("drafts", "d.txt"), ("old.draft.txt",), ("z.txt",))]


def test_excludes_by_name_and_by_path(records) -> None:
    assert list(expand(["club"], excludes=Excludes(("drafts", "*.draft.txt")))) == \
        [os.path.join("club", "2026", "a.txt"), os.path.join("club", "2026", "b.txt"), os.path.join("club", "z.txt")]
    assert list(expand(["club"], excludes=Excludes(("club/2026/*",)))) == \
        [os.path.join("club", "drafts", "d.txt"), os.path.join("club", "old.draft.txt"), os.path.join("club", "z.txt")]


def _one_by_one(patterns: tuple[str, ...], relative: str) -> bool:
    """How the excludes were matched before issue 38: each pattern on its own, with fnmatch."""
    from fnmatch import fnmatchcase

    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if "/" in pattern:
            if fnmatchcase(relative, pattern.lstrip("/")) or fnmatchcase(relative, pattern.lstrip("/") + "/*"):
                return True
        elif any(fnmatchcase(part, pattern) for part in relative.split("/")):
            return True
    return False


def test_excludes_compiled_together_match_as_each_pattern_alone() -> None:
    import random

    rng = random.Random(38)
    pieces = ["a", "b", "ab", "old", "*", "?", "**", "[ab]", "[!a]", "[", "x.txt", "*.txt", "", "."]
    for _ in range(300):
        patterns = tuple("/" * rng.randint(0, 1) + "/".join(rng.choice(pieces) for _ in range(rng.randint(1, 3)))
                         + "/" * (rng.random() < 0.1) for _ in range(rng.randint(1, 4)))
        for _ in range(10):
            relative = "/".join(rng.choice(["a", "b", "ab", "old", "x.txt", "y.txt", "[", "a.b"]) for _ in range(rng.randint(1, 4)))
            alone = _one_by_one(patterns, relative)
            assert compiled_patterns(patterns).match(relative) == alone, (patterns, relative)
            assert Excludes(patterns, "/r").match("/r/" + relative) == alone, (patterns, relative)


def test_thousands_of_patterns_are_compiled_once_for_every_path(records, monkeypatch) -> None:
    """Each pattern matched on its own, 20,000 of them took 13 s for 2 files (issue 38):
    the excludes and the per-file ignores are compiled once (at most two regular
    expressions for a set of patterns), whatever the number of patterns and of paths."""
    import fnmatch
    import re

    from referee.files import paths
    from referee.reports.writer import Settings

    compile_ = re.compile
    calls: list[str] = []

    def counting(pattern, flags=0):
        calls.append(pattern)
        assert len(calls) <= 4, "a pattern compiled again"
        return compile_(pattern, flags)

    fnmatch._compile_pattern.cache_clear()
    paths.compiled_patterns.cache_clear()
    monkeypatch.setattr(re, "compile", counting)
    many = tuple(f"club/old{n}/*.txt" if n % 2 else f"draft{n}*" for n in range(2000))
    excludes = Excludes((*many, "drafts"), ".")
    assert list(expand(["club"], excludes=excludes)) == \
        [os.path.join("club", "2026", "a.txt"), os.path.join("club", "2026", "b.txt"),
         os.path.join("club", "old.draft.txt"), os.path.join("club", "z.txt")]
    assert len(calls) <= 2
    calls.clear()
    settings = Settings(per_file_ignores=tuple((p, ("BC-FALSE-SLAP",)) for p in (*many, "club/2026/*")))
    assert [settings.for_file(f"club/{n}/a.txt").ignore for n in (2026, 2027) for _ in range(50)] == \
        [("BC-FALSE-SLAP",)] * 50 + [()] * 50
    assert len(calls) <= 2


def test_patterns_are_expanded_by_referee(records) -> None:
    assert list(expand(["club/**/[ab].txt"])) == ["club/2026/a.txt", "club/2026/b.txt"]
    (missing,) = expand(["club/**/*.pgn"])
    assert isinstance(missing, NotFound) and missing.message == "no file matches this pattern"


def test_a_file_named_is_checked_unless_forced_out(records) -> None:
    excludes = Excludes(("drafts",))
    assert list(expand(["club/drafts/d.txt", "club/notes.md"], excludes=excludes)) == ["club/drafts/d.txt", "club/notes.md"]
    assert list(expand(["club/drafts/d.txt"], excludes=excludes, force_exclude=True)) == []


def test_a_file_found_twice_is_checked_once(records) -> None:
    assert list(expand(["club/z.txt", "club/./z.txt", "club/*.txt"])) == ["club/z.txt", "club/old.draft.txt"]


def test_the_record_extension(records) -> None:
    assert list(expand(["club"], extensions=(".md",))) == [os.path.join("club", "notes.md")]
    (empty,) = expand(["club/2026"], extensions=(".json",))
    assert isinstance(empty, NotFound) and "ending in .json" in empty.message


def test_check_of_a_folder_exits_as_its_worst_file(records) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["check", "--no-config", "club/2026"]).exit_code == 0
    result = runner.invoke(main, ["check", "--no-config", "club"])
    assert result.exit_code == 1 and "in 5 files)" in result.output
    result = runner.invoke(main, ["check", "--no-config", "club/2026", "nothing/*.txt"])
    assert result.exit_code == 2 and "nothing/*.txt: no file matches this pattern" in result.output


# --- The configuration ------------------------------------------------------------------------

PYPROJECT = """
[project]
name = "club"

[tool.referee]
exclude = ["drafts", "*.draft.txt"]
format = "concise"
ignore = ["BC-FALSE-SLAP"]

[tool.referee.fmt]
suits = "symbols"

[tool.referee.games.bataille-corse]
Slaps = "pair sandwich"
"""


def test_the_configuration_is_found_above_the_current_folder(records, monkeypatch) -> None:
    (records / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    monkeypatch.chdir(records / "club")
    config = find()
    assert config.path == str(records / "pyproject.toml") and config.root == str(records)
    assert config.exclude == ("drafts", "*.draft.txt") and config.format == "concise" and config.suits == "symbols"
    assert config.games == {"bataille-corse": {"Slaps": "pair sandwich"}}
    assert not config.chosen("BC-FALSE-SLAP") and config.chosen("BC-OUT-OF-TURN")


def test_a_referee_toml_comes_before_a_pyproject_and_the_search_stops_at_the_repository(records, monkeypatch) -> None:
    (records / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (records / "club" / "referee.toml").write_text('format = "github"\n', encoding="utf-8")
    monkeypatch.chdir(records / "club" / "2026")
    assert find().format == "github"
    (records / "club" / "2026" / ".git").mkdir()
    assert find().path is None


def test_a_pyproject_without_a_referee_table_is_passed_by(records, monkeypatch) -> None:
    (records / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (records / "club" / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    monkeypatch.chdir(records / "club")
    assert find().path == str(records / "pyproject.toml")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no file owners")
def test_a_configuration_every_user_may_write_is_not_read(records, monkeypatch) -> None:
    path = records / "referee.toml"
    path.write_text('ignore = ["BC"]\n', encoding="utf-8")
    path.chmod(0o666)
    monkeypatch.chdir(records / "club")
    config = find()
    assert config.path is None and config.ignore == ()
    assert "every user may write to it" in config.warnings[0]
    assert load(str(path)).ignore == ("BC",)  # named with --config: the user's choice


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no file owners")
@pytest.mark.parametrize("name", ["referee.toml", "pyproject.toml"])
def test_a_configuration_not_to_be_read_is_not_read_whatever_it_holds(records, monkeypatch, name: str) -> None:
    """Its owner and mode are checked before it is parsed: a file planted above the work
    that is not TOML cannot stop every check (exit 2) either."""
    path = records / name
    path.write_text('[tool.referee\nignore = [BC\n', encoding="utf-8")
    path.chmod(0o666)
    monkeypatch.chdir(records / "club")
    config = find()
    assert config.path is None and "every user may write to it" in config.warnings[0]
    result = CliRunner().invoke(main, ["check", "z.txt"])
    assert result.exit_code == 0 and "is not read" in result.output


@pytest.mark.parametrize(("text", "message"), [
    ('colour = "red"\n', "unknown key 'colour'"),
    ('format = "xml"\n', "format: expected one of text, concise"),
    ('exclude = "drafts"\nselect = [1]\n', "select: expected a list of strings"),
    ('[games.belote]\nX = "y"\n', "games.belote: 'belote' is not a game"),
    ('[games.bataille-corse]\nSlap = "pair"\n', "games.bataille-corse.Slap: bataille-corse has no such option"),
    ('[games.bataille-corse]\nSlaps = "pairs"\n', "games.bataille-corse.Slaps: expected any of"),
    ("format = \n", "is not TOML"),
    ('ignore = ["BC-FALSE-SLPA"]\n', "ignore: 'BC-FALSE-SLPA' is neither a code referee reports nor the start of one (did you mean 'BC-FALSE-SLAP'?)"),
    ('select = ["BC", "XY"]\n', "select: 'XY' is neither a code"),
    ('fmt = "symbols"\n', "fmt: expected a table (keys: suits, ranks, exclude)"),
    ('games = ["bataille-corse"]\n', "games: expected a table (keys: a game's name)"),
])
def test_a_bad_configuration_is_a_clear_error(records, text: str, message: str) -> None:
    path = records / "referee.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=".") as raised:
        load(str(path))
    assert message in str(raised.value)
    result = CliRunner().invoke(main, ["check", "club/z.txt"])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_a_code_that_names_no_code_is_an_error_not_a_pass(records, option: str) -> None:
    """A typo in --select would select nothing (and --ignore ignore nothing): the check
    would pass, or fail, for the wrong reason. Codes are read in upper case, as explain
    reads them."""
    runner = CliRunner()
    result = runner.invoke(main, ["check", "--no-config", option, "BC-FALSE-SLPA", "club/drafts/d.txt"])
    assert result.exit_code == 2 and "did you mean 'BC-FALSE-SLAP'" in result.output
    result = runner.invoke(main, ["check", "--no-config", "--select", "bc-false-slap,tr", "club/drafts/d.txt"])
    assert result.exit_code == 1 and "BC-FALSE-SLAP" in result.output
    assert runner.invoke(main, ["check", "--no-config", "--ignore", "bc-", "club/drafts/d.txt"]).exit_code == 0


def test_the_configuration_drives_check_and_flags_win(records) -> None:
    (records / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["check", "club"])  # drafts and *.draft.txt left out; concise
    assert result.exit_code == 0, result.output
    assert result.output.endswith("(3 games in 3 files)\n")
    result = runner.invoke(main, ["check", "--format", "text", "--ignore", "CP", "club/drafts/d.txt"])
    assert result.exit_code == 1 and "6:1 BC-FALSE-SLAP" in result.output  # the flag's ignore replaces the file's
    assert runner.invoke(main, ["check", "club/drafts/d.txt"]).exit_code == 0  # ignored by the configuration
    assert runner.invoke(main, ["check", "--no-config", "club"]).exit_code == 1


def test_default_options_per_game_apply_where_a_record_sets_none(records) -> None:
    (records / "referee.toml").write_text('[games.bataille-corse]\nSlaps = "pair sandwich"\n', encoding="utf-8")
    sandwich = GOOD.replace("Alice collects\n", "Alice collects\nAlice plays 5H\nBob plays 2C\nAlice plays 5S\nBob slaps\n")
    tree(records, {"s.txt": sandwich, "own.txt": sandwich.replace('Bob"]', 'Bob"]\n[Slaps "pair"]')})
    runner = CliRunner()
    result = runner.invoke(main, ["check", "--format", "json", "s.txt", "own.txt"])
    import json

    data = json.loads(result.output)
    assert data[0]["status"] == "in-progress" and data[0]["headers"]["Slaps"] == "pair sandwich"
    assert data[1]["status"] == "violations" and data[1]["headers"]["Slaps"] == "pair"
    assert runner.invoke(main, ["check", "--no-config", "s.txt"]).exit_code == 1


def test_the_configuration_sets_the_canonical_spellings(records) -> None:
    (records / "referee.toml").write_text('[fmt]\nsuits = "symbols"\nranks = "french"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "--to", "text", "club/z.txt"])
    assert "Alice plays V♦" in result.output
    result = CliRunner().invoke(main, ["export", "--to", "text", "--suits", "ascii", "club/z.txt"])
    assert "Alice plays VD" in result.output


def test_nothing_in_a_configuration_is_run(records) -> None:
    """tomllib reads data only; a key that would name code is refused like any unknown key."""
    (records / "referee.toml").write_text('plugins = ["os:system"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown key 'plugins'"):
        load(str(records / "referee.toml"))
    assert Config().chosen("ANY-CODE")
