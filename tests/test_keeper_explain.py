"""``referee explain --list`` (and ``explain`` with no argument): every code, grouped by
game, with its one-line title (``title.<CODE>``), in English and in French."""

from __future__ import annotations

import re

from click.testing import CliRunner

from referee.cli import main
from referee.cli.explain import code_groups, known_codes
from referee.games import GAMES, load_rules
from referee.messages import ENGLISH

from .test_explain import ALL_CODES

LINE = re.compile(r"  (?P<code>[A-Z][A-Z0-9-]+) +(?P<title>\S.*)")


def listed(*args: str) -> dict[str, str]:
    done = CliRunner().invoke(main, ["explain", *args])
    assert done.exit_code == 0, done.output
    found = [LINE.fullmatch(line) for line in done.output.splitlines() if line.startswith("  ")]
    assert all(found), done.output
    codes = [m["code"] for m in found if m]
    assert len(codes) == len(set(codes)), "a code listed twice"
    return {m["code"]: m["title"] for m in found if m}


def test_every_code_has_a_title_of_its_own() -> None:
    titles = [ENGLISH.get(f"title.{code}") for code in ALL_CODES]
    assert None not in titles, [c for c in ALL_CODES if f"title.{c}" not in ENGLISH]
    assert len(set(titles)) >= len(titles) - 1  # CP- and TR-NOT-IN-HAND say the same thing in two games
    others = {"unreadable", "in-progress"}  # what SARIF and --statistics count besides the codes
    assert not [k for k in ENGLISH if k.startswith("title.") and k[6:] not in {*ALL_CODES, *others}], "a title for no code"


def test_explain_with_no_argument_lists_every_code_with_its_title() -> None:
    titles = listed()
    assert set(titles) == set(ALL_CODES)
    assert titles["BC-FALSE-SLAP"] == "a slap when the pile shows no pair"
    assert listed("--list") == titles


def test_the_list_is_grouped_by_game_then_the_record_s_own_codes() -> None:
    output = CliRunner().invoke(main, ["explain", "--list"]).output
    headings = [line for line in output.splitlines() if line and not line.startswith(" ")]
    games = [load_rules(g).title for g in GAMES if g.module is not None]
    assert headings == [*games, "Pierre qui Roule and Flaschenteufel", "the record (every game)"]
    groups = dict(code_groups())
    assert all(c.startswith("BC-") for c in groups["Bataille corse"]) and "BC-FALSE-SLAP" in groups["Bataille corse"]
    assert "TR-REVOKE" in groups["Pierre qui Roule and Flaschenteufel"]
    assert set(groups["the record (every game)"]) == {c for c in known_codes() if c.startswith("REC-")}
    block = output.split("\n\n")[0].splitlines()
    assert block[0] == "Bataille corse" and block[1].startswith("  BC-CARD-COUNT ")


def test_the_list_speaks_french() -> None:
    done = CliRunner().invoke(main, ["--lang", "fr", "explain", "--list"])
    assert "  BC-FALSE-SLAP          une tape sur la pile quand elle ne montre pas de paire" in done.output
    assert "la feuille (tous les jeux)" in done.output and "Pierre qui Roule et Flaschenteufel" in done.output
