"""``referee standings``: the games of records added up per player, from the engine's
reports; checked against the JSON ``check`` report added up by hand."""

from __future__ import annotations

import re

import json
from collections import defaultdict

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.files.resources import read_resource

from .conftest import RECORDS


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def by_hand(games: list[dict]) -> dict:
    """The standings of a JSON check report, added up here from its fields alone."""
    players: dict = defaultdict(lambda: {"played": defaultdict(int), "wins": defaultdict(int), "places": defaultdict(lambda: defaultdict(int)),
                                         "scores": defaultdict(int), "matches": defaultdict(int), "match_wins": defaultdict(int),
                                         "match_totals": defaultdict(int), "unfinished": 0, "given": defaultdict(float), "drunk": defaultdict(float), "causes": 0,
                                         "made": 0, "accepted": 0})
    kinds: dict = defaultdict(int)
    unfinished = unreadable = 0
    matches = {}
    for g in games:
        if g["status"] == "error" or g["result"] is None:
            unreadable += 1
            continue
        for v in g["violations"]:
            if v["player"] in g["players"]:
                players[v["player"]]["accepted" if v["accepted"] else "made"] += 1
        for name, units in g["tallies"].items():
            for unit, amount in units.items():
                players[name]["given"][unit] += amount
        for name, units in g["drunk"].items():
            for unit, amount in units.items():
                players[name]["drunk"][unit] += amount
        for d in g["drinks"]:
            players[d["player"]]["causes"] += 1
        if "match" in g:
            matches[g["file"], g["match"]["name"]] = (g["game"], g["match"])
        result = g["result"]
        if not result["finished"]:
            unfinished += 1
            for name in g["players"]:
                players[name]["unfinished"] += 1
            continue
        kinds[g["game"]] += 1
        order = result["order"] or ([result["winner"]] if result["winner"] else [])
        for name in g["players"]:
            p = players[name]
            p["played"][g["game"]] += 1
            if name == result["winner"]:
                p["wins"][g["game"]] += 1
            if name in order:
                p["places"][g["game"]][str(order.index(name) + 1)] += 1
            if name in result["scores"]:
                p["scores"][g["game"]] += result["scores"][name]
    for game, m in matches.values():
        if m["over"]:
            for name, total in m["totals"].items():
                players[name]["matches"][game] += 1
                players[name]["match_totals"][game] += total
                if name in m["winners"]:
                    players[name]["match_wins"][game] += 1
    return {"players": json.loads(json.dumps(players)), "kinds": dict(kinds), "unfinished": unfinished, "unreadable": unreadable}


def shown(data: dict) -> dict:
    """The same fields, taken from the standings' JSON."""
    players = {}
    for name, p in data["players"].items():
        players[name] = {key: p[key] for key in ("played", "wins", "places", "scores", "matches", "match_wins", "match_totals",
                                                 "unfinished")}
        players[name].update(given={u: float(a) for u, a in p["drinks"]["given"].items()},
                             drunk={u: float(a) for u, a in p["drinks"]["drunk"].items()}, causes=len(p["drinks"]["causes"]),
                             made=p["faults"]["made"], accepted=p["faults"]["accepted"])
    return {"players": players, "kinds": {k: v["games"] for k, v in data["kinds"].items()},
            "unfinished": len(data["unfinished"]), "unreadable": len(data["unreadable"])}


def test_standings_add_up_the_check_report_of_the_records(runner) -> None:
    checked = runner.invoke(main, ["--lang", "en", "check", "--format", "json", str(RECORDS)])
    added = runner.invoke(main, ["--lang", "en", "standings", "--format", "json", str(RECORDS)])
    assert added.exit_code == 2, added.output  # records/bad: unreadable, counted apart
    expected = by_hand(json.loads(checked.output))
    expected["players"] = {n: {k: (dict(v) if isinstance(v, dict) else v) for k, v in p.items()} for n, p in expected["players"].items()}
    data = json.loads(added.output)
    assert shown(data) == expected
    assert data["games"] == len(json.loads(checked.output))
    assert expected["unreadable"] > 20 and expected["unfinished"] > 100 and len(expected["kinds"]) == 5


def test_standings_json_matches_its_schema(runner) -> None:
    result = runner.invoke(main, ["standings", "--format", "json", str(RECORDS)])
    jsonschema.validate(json.loads(result.output), json.loads(read_resource("schemas", "standings.schema.json")))


BC = '[Game "bataille-corse"]\n[Players "{} Bob"]\n{} plays JD\nBob plays 8C\n{} collects\n'


def bc(tmp_path, name: str, player: str) -> str:
    return write(tmp_path, name, BC.format(player, player, player))


def test_names_alike_are_told_and_merged_by_an_alias(runner, tmp_path) -> None:
    bc(tmp_path, "a.txt", "Zoe")
    bc(tmp_path, "b.txt", "Zoé")
    data = json.loads(runner.invoke(main, ["standings", "--no-config", "--format", "json", str(tmp_path)]).output)
    assert sorted(data["players"]) == ["Bob", "Zoe", "Zoé"]
    assert data["players"]["Zoé"]["unfinished"] == 1
    assert data["alike"] == [["Zoe", "Zoé"]]
    text = " ".join(runner.invoke(main, ["--lang", "en", "standings", "--no-config", str(tmp_path)]).output.split())
    assert "did you mean Zoé? (--alias Zoe=Zoé)" in text
    merged = json.loads(runner.invoke(main, ["standings", "--no-config", "--format", "json", "--alias", "Zoe=Zoé", str(tmp_path)]).output)
    assert sorted(merged["players"]) == ["Bob", "Zoé"] and merged["players"]["Zoé"]["unfinished"] == 2
    assert merged["alike"] == []


def test_the_configuration_gives_aliases(runner, tmp_path) -> None:
    bc(tmp_path, "a.txt", "Ann")
    bc(tmp_path, "b.txt", "Anne")
    config = write(tmp_path, "referee.toml", '[standings]\naliases = {Ann = "Anne"}\n')
    data = json.loads(runner.invoke(main, ["standings", "--config", config, "--format", "json", str(tmp_path)]).output)
    assert sorted(data["players"]) == ["Anne", "Bob"]
    bad = write(tmp_path, "bad.toml", '[standings]\naliases = ["Ann"]\n')
    result = runner.invoke(main, ["--lang", "en", "standings", "--config", bad, str(tmp_path)])
    assert result.exit_code == 2 and "standings.aliases: expected a table of names" in result.output


def test_an_alias_no_game_uses_is_said(runner, tmp_path) -> None:
    """``--alias Zoë=Zoé`` where the records write Zoe: said in text and JSON, never a silent no-op."""
    bc(tmp_path, "a.txt", "Zoe")
    args = ["standings", "--no-config", "--alias", "Zoë=Zoé", "--alias", "Bob=Robert", str(tmp_path)]
    data = json.loads(runner.invoke(main, [*args, "--format", "json"]).output)
    assert data["unused_aliases"] == [["Zoë", "Zoé"]] and "Robert" in data["players"]
    text = " ".join(runner.invoke(main, ["--lang", "en", *args]).output.split())
    assert "the alias Zoë=Zoé is not used: no game read has a player named Zoë" in text and "Bob=Robert" not in text
    french = " ".join(runner.invoke(main, ["--lang", "fr", *args]).output.split())
    assert "l'alias Zoë=Zoé ne sert pas" in french


def test_a_bad_alias_is_said(runner, tmp_path) -> None:
    result = runner.invoke(main, ["--lang", "en", "standings", "--no-config", "--alias", "Zoe", bc(tmp_path, "a.txt", "Zoe")])
    assert result.exit_code == 2 and "write it NAME=PLAYER" in result.output


def test_the_text_fits_40_columns_and_counts_apart(runner, tmp_path) -> None:
    result = runner.invoke(main, ["--lang", "en", "standings", str(RECORDS)])
    lines = result.output.splitlines()
    assert [line for line in lines if len(line) > 40 and str(RECORDS) not in line] == []
    assert any(line.startswith("Pierre qui Roule: ") for line in lines)
    said = re.search(r"\b(\d+) games that cannot be read, not counted:", " ".join(result.output.split()))
    checked = json.loads(runner.invoke(main, ["--lang", "en", "check", "--format", "json", str(RECORDS)]).output)
    assert said and int(said.group(1)) == sum(game["status"] == "error" for game in checked), result.output


def test_the_excludes_apply(runner) -> None:
    data = json.loads(runner.invoke(main, ["standings", "--format", "json", "--exclude", "bad", str(RECORDS)]).output)
    assert data["unreadable"] == [] or all("/bad/" not in u["file"] for u in data["unreadable"])
    assert not any("/bad/" in g["file"] for g in data["read"])


def test_french(runner) -> None:
    result = runner.invoke(main, ["--lang", "fr", "standings", str(RECORDS / "pierre-qui-roule")])
    assert "Classement" in result.output and "points de pénalité" in result.output


def test_html_page(runner, tmp_path) -> None:
    out = tmp_path / "s.html"
    bc(tmp_path, "<b>a.txt", "Zoe")
    result = runner.invoke(main, ["--lang", "en", "standings", "--format", "html", "-o", str(out),
                                  str(RECORDS / "pierre-qui-roule"), str(tmp_path / "<b>a.txt")])
    page = out.read_text(encoding="utf-8")
    assert result.exit_code == 0, result.output
    assert "<script" not in page and "script-src &#x27;none&#x27;" in page
    assert "&lt;b&gt;a.txt" in page and "<b>" not in page
    assert '<span class="nw">#1 ×9</span>' in page and page.count("&lt;") == 2  # the file name, in the games and in progress: markup is not escaped twice
    assert page.count('<table class="board">') >= 3 and "Pierre qui Roule: 14 games" in page


def test_a_rating_per_game_from_the_finishing_orders(runner) -> None:
    pytest.importorskip("openskill")
    result = runner.invoke(main, ["standings", "--rating", "--format", "json", str(RECORDS / "pierre-qui-roule")])
    data = json.loads(result.output)
    jsonschema.validate(data, json.loads(read_resource("schemas", "standings.schema.json")))
    ratings = data["ratings"]["pierre-qui-roule"]
    best = max(ratings, key=lambda p: ratings[p]["ordinal"])
    assert best == "Ben" == data["kinds"]["pierre-qui-roule"]["leaderboard"][0]  # 9 games won of 13
    assert "ratings" not in json.loads(runner.invoke(main, ["standings", "--format", "json", str(RECORDS / "pierre-qui-roule")]).output)


def test_the_rating_without_openskill_says_what_to_install(runner, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "openskill", None)  # import openskill... raises ImportError
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    result = runner.invoke(main, ["--lang", "en", "standings", "--rating", str(RECORDS / "pierre-qui-roule")])
    assert result.exit_code == 2 and "pip install '.[rating]' in referee's folder" in result.output
    plain = runner.invoke(main, ["--lang", "en", "standings", str(RECORDS / "pierre-qui-roule")])
    assert "Pierre qui Roule: 14 games" in " ".join(plain.output.split())  # asked for nothing: openskill never imported


def test_the_page_links_each_drink_and_game_not_counted_to_its_game(runner, tmp_path) -> None:
    import re

    out = tmp_path / "s.html"
    runner.invoke(main, ["--lang", "en", "standings", "--format", "html", "-o", str(out), str(RECORDS / "caroleto")])
    page = out.read_text(encoding="utf-8")
    links = re.findall(r'href="#(g[0-9a-f]+)"', page)
    ids = set(re.findall(r'id="(g[0-9a-f]+)"', page))
    assert len(links) > 50 and set(links) <= ids


def test_the_page_shows_the_rating_when_asked(runner, tmp_path) -> None:
    pytest.importorskip("openskill")
    out = tmp_path / "s.html"
    runner.invoke(main, ["--lang", "en", "standings", "--rating", "--format", "html", "-o", str(out), str(RECORDS / "pierre-qui-roule")])
    page = out.read_text(encoding="utf-8")
    assert "Rating: a guide, not a truth" in page and page.index(">Ben<") < page.index(">Cas<")


def test_aliases_are_followed_and_a_circle_ends(tmp_path) -> None:
    from referee.standings import Standings

    assert Standings({"Zoe": "Zoé", "Zoé": "Zoé M"}).name("Zoe") == "Zoé M"
    assert Standings({"A": "B", "B": "A"}).name("A") == "B"


def test_the_page_charts_the_evenings_drinks_and_links_each_chart_to_its_games(runner, tmp_path) -> None:
    """The drinks of every game that gives or writes them, a row per player, owed beside
    drunk, each game's number linked to its row; under each chart the games it comes from."""
    out = tmp_path / "standings.html"
    caroleto = RECORDS / "caroleto"
    result = runner.invoke(main, ["--lang", "en", "standings", "--format", "html", "-o", str(out),
                                  str(caroleto / "drinks.txt"), str(caroleto / "full-game.txt"), str(RECORDS / "flaschenteufel")])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    (chart,) = re.findall(r'<figure class="chart drinks-chart">.*?</figure>', text)
    names = re.findall(r'<title>([^<]*)</title><text class="who"', chart)
    assert names == ["Ann", "Ben", "Cas", "Dom", "Léa", "Max", "Noé", "Zoé"]
    ids = set(re.findall(r'<tr class="s-[^"]*" id="([^"]+)"', text))
    links = re.findall(r'<a href="#([^"]+)"><text', chart)
    assert links and set(links) <= ids
    assert "<title>game 2 (" in chart and ": owes 4 gorgées but drank 5 gorgées, as written</title>" in chart
    sources = re.findall(r'<details class="sources"><summary>(.*?)</summary><ol>(.*?)</ol>', text)
    assert sources and all(set(re.findall(r'href="#([^"]+)"', items)) <= ids for _, items in sources)
    assert sources[-1][0].startswith(f"the {len(links)} games this chart comes from")


def test_the_evenings_drinks_are_compared_over_the_rounds_whose_drinks_are_written(runner, tmp_path) -> None:
    """full-game.txt writes the drinks of seven rounds of ten, each as owed: no mark."""
    out = tmp_path / "standings.html"
    result = runner.invoke(main, ["--lang", "en", "standings", "--format", "html", "-o", str(out),
                                  str(RECORDS / "caroleto" / "full-game.txt")])
    assert result.exit_code == 0, result.output
    (chart,) = re.findall(r'<figure class="chart drinks-chart">.*?</figure>', out.read_text(encoding="utf-8"))
    assert '<g class="drunk">' in chart and 'class="mark"' not in chart and 'class="differs"' not in chart


def test_each_leaderboard_lists_the_games_it_counts_each_linked_to_its_row(runner, tmp_path) -> None:
    out = tmp_path / "standings.html"
    result = runner.invoke(main, ["--lang", "en", "standings", "--format", "html", "-o", str(out), "--exclude", "bad", str(RECORDS)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    data = json.loads(runner.invoke(main, ["standings", "--format", "json", "--exclude", "bad", str(RECORDS)]).output)
    ids = set(re.findall(r'<tr class="s-[^"]*" id="([^"]+)"', text))
    for section in re.findall(r'<section class="kind">.*?</section>', text):
        (summary, items) = re.findall(r'<details class="sources"><summary>(.*?)</summary><ol>(.*?)</ol>', section)[0]
        links = re.findall(r'href="#([^"]+)"', items)
        assert set(links) <= ids and len(links) == int(re.search(r"the (\d+) games", summary).group(1))
        title = re.search(r"<h2>(.*?): (\d+) games?</h2>", section)
        assert len(links) == int(title.group(2)), title.group(1)
    assert sum(len(re.findall(r'href="#', s)) for s in re.findall(r'<section class="kind">.*?</section>', text)) >= sum(
        k["games"] for k in data["kinds"].values())
def test_names_that_only_look_alike_are_told(runner, tmp_path) -> None:
    """Issue 35: a Cyrillic А makes another name that reads the same (« Аnn », « Ann »)."""
    bc(tmp_path, "a.txt", "Ann")
    bc(tmp_path, "b.txt", "\u0410nn")
    data = json.loads(runner.invoke(main, ["standings", "--no-config", "--format", "json", str(tmp_path)]).output)
    assert data["alike"] == [["Ann", "\u0410nn"]], data["alike"]
