"""``referee check --format html``: one self-contained page; every violation of the JSON
report in it; everything a record brings shown as text; the data for the page's script."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest

from referee.html.game import delta
from referee.html.markup import Html, esc, h, json_text

from .conftest import RECORDS
from .html_pages import HOSTILE, Page, check, html_report, json_report, one_of_each, write


@pytest.fixture(scope="module")
def archive() -> tuple[str, list[dict]]:
    """The page and the JSON report of every record of the project."""
    return html_report(str(RECORDS)), json_report(str(RECORDS))


def violations_shown(page: Page) -> list[tuple[str, str]]:
    """(code, message) of each violation drawn in the page."""
    shown = []
    for index in page.find("div", "violation"):
        paragraph = next(i for i in range(index + 1, len(page.elements)) if page.elements[i][0] == "p")
        code_ = next(i for i in range(paragraph + 1, len(page.elements)) if "code" in (page.elements[i][1].get("class") or ""))
        shown.append((page.text(code_), page.text(paragraph)))
    return shown


def test_every_violation_of_the_json_report_is_in_the_page(archive) -> None:
    text, games = archive
    page = Page(text)
    shown = violations_shown(page)
    expected = [(v["code"], v["message"]) for game in games for v in game["violations"]]
    assert len(expected) > 100
    for code_, message in expected:
        assert any(c == code_ and message in p for c, p in shown), (code_, message)
    assert len(page.find("details", "game")) == len(games)


def test_every_game_is_in_the_summary_table_with_a_link_to_it(archive) -> None:
    text, games = archive
    page = Page(text)
    rows = [i for i in page.find("tr") if (page.elements[i][1].get("class") or "").startswith("s-")]
    assert len(rows) == len(games)
    ids = {attrs.get("id") for _, attrs, _ in page.elements}
    links = [attrs["href"] for tag, attrs, _ in page.elements if tag == "a" and (attrs.get("href") or "").startswith("#g")]
    assert links and all(link[1:] in ids for link in links)


def test_the_page_is_self_contained_and_its_script_allowed_by_its_hash(archive) -> None:
    text, _ = archive
    page = Page(text)
    (policy,) = [attrs["content"] for tag, attrs, _ in page.elements if tag == "meta" and attrs.get("http-equiv")]
    assert "default-src 'none'" in policy
    code_scripts = [body for attrs, body in page.scripts if attrs.get("type") != "application/json"]
    assert len(code_scripts) == 1
    digest = base64.b64encode(hashlib.sha256(code_scripts[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    (style,) = [i for i in page.find("style")]
    style_digest = base64.b64encode(hashlib.sha256(page.text(style).encode("utf-8")).digest()).decode()
    assert f"style-src 'sha256-{style_digest}'" in policy
    for tag, attrs, _ in page.elements:
        for name in ("src", "href", "action", "style"):
            value = attrs.get(name)
            assert value is None or (name == "href" and value.startswith("#")), (tag, name, value)
    for attrs, body in page.scripts:
        if attrs.get("type") == "application/json":
            json.loads(body)


def test_a_hostile_record_shows_as_text(tmp_path) -> None:
    path = write(tmp_path, "hostile.txt", HOSTILE)
    text = html_report(str(path))
    page = Page(text)
    assert [tag for tag, _, _ in page.elements].count("script") == len(page.scripts)
    assert all(attrs.get("type") == "application/json" or attrs == {} for attrs, _ in page.scripts)
    assert not page.find("img") and not any(page.text(i) == "bold" for i in page.find("b"))
    assert "alert" not in "".join(body for attrs, body in page.scripts if attrs == {})
    assert "<script>alert" not in text and "<img src" not in text
    everything = "".join(page.text(i) for i in page.find("body"))
    assert "'<script>alert(1)</script>Bob' cannot be a player's name" in everything  # the name, as text
    assert "<img src=x onerror=alert(2)>" in everything  # a header value
    assert "</script><script>alert(3)</script>" in everything
    assert "<script>alert(4)</script> & </details>" in everything  # a comment line
    assert "</script><b>bold</b>" in everything  # an event's comment
    data = [json.loads(body) for attrs, body in page.scripts if attrs.get("type") == "application/json" and attrs.get("id", "").endswith("-data")]
    assert data and "O'Brien" in data[0]["p"]
    assert "O&#x27;Brien" in text


@pytest.mark.parametrize("light", [False, True])
def test_a_hostile_record_is_escaped_in_both_drawings(tmp_path, monkeypatch, light) -> None:
    import referee.html

    if light:
        monkeypatch.setattr(referee.html, "WHOLE_BYTES", 0)
    text = html_report(str(write(tmp_path, "hostile.txt", HOSTILE)))
    assert ('class="game light"' in text) == light
    assert "<script>alert" not in text and "</script><b>" not in text


def test_the_escaping_layer() -> None:
    assert esc("<a href='x'>&") == "&lt;a href=&#x27;x&#x27;&gt;&amp;"
    assert h("<p>{}</p>", "<b>") == "<p>&lt;b&gt;</p>"
    assert h("<p>{}</p>", Html("<b>ok</b>")) == "<p><b>ok</b></p>"
    assert esc("a\x1bb") == "a\\x1bb", "control characters are made visible"
    assert json_text({"a": "</script><!--\u2028"}) == '{"a":"\\u003c/script\\u003e\\u003c!--\\u2028"}'


def apply(previous: dict[str, str], change: dict) -> dict[str, str]:
    """What the page's script does with a delta."""
    state = dict(previous)
    for key, value in change.items():
        if value is None:
            del state[key]
        elif isinstance(value, list):
            old = previous[key]
            state[key] = old[: value[0]] + value[2] + old[len(old) - value[1]:]
        else:
            state[key] = value
    return state


@pytest.mark.parametrize(("old", "new"), [
    ({}, {"t": "Ann", "h0": "3|KS QH 2C"}),
    ({"p:pile": "KS QH 2C 4D 5D"}, {"p:pile": "KS QH 2C 4D 5D 6D"}),
    ({"h0": "26|5C 3C 5H KC 8C 7D"}, {"h0": "25|3C 5H KC 8C 7D"}),
    ({"h0": "12|KS KS KS KS KS"}, {"h0": "12|KS KS KS KS"}),
    ({"x:a": "1", "p:x": "AS AS AS AS AS AS"}, {"p:x": "AS AS AS AS AS AS"}),
])
def test_deltas_give_back_each_table(old, new) -> None:
    assert apply(old, delta(old, new)) == new


def test_every_table_of_a_game_comes_back_from_its_deltas(tmp_path) -> None:
    from referee.notation import parse_text

    from referee.html.game import replayed

    record = parse_text(one_of_each(0.0).split("\n\n[Game")[0])[0]
    found = replayed(record, record.events, ["x", "y"])
    state: dict[str, str] = {}
    previous: dict[str, str] = {}
    for table in found.states:
        state = apply(state, delta(previous, table))
        assert state == table
        previous = table
    assert len(found.states) == len(record.events) > 20


def test_output_file_for_every_format(tmp_path) -> None:
    record = write(tmp_path, "game.txt", (RECORDS / "bataille-corse" / "finished-winner.txt").read_text(encoding="utf-8"))
    for form in ("text", "json", "html", "junit"):
        target = tmp_path / f"report.{form}"
        status, output = check("--format", form, "-o", str(target), str(record))
        assert status == 0 and output == ""
        assert target.read_text(encoding="utf-8") == check("--format", form, str(record))[1] or form == "html"
    assert "<!DOCTYPE html>" in (tmp_path / "report.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "report.html", "report.json", "report.junit", "report.text"]


def test_output_file_that_cannot_be_written(tmp_path) -> None:
    record = write(tmp_path, "game.txt", "[Game \"bataille-corse\"]\n[Players \"A B\"]\n")
    status, output = check("-o", str(tmp_path / "missing" / "report.txt"), str(record))
    assert status == 2 and "cannot write the report to" in output and "Traceback" not in output


def test_one_game_of_each_has_its_chart_and_its_timeline(tmp_path) -> None:
    text = html_report(str(write(tmp_path, "each.txt", one_of_each())))
    page = Page(text)
    sections = page.find("details", "game")
    assert len(sections) == 5 and not page.find("details", "light")
    captions = [page.text(i) for i in page.find("figcaption")]
    assert len(captions) == 5, captions
    assert len(page.find("ol", "timeline")) == 5
    assert page.find("details", "checkpoint")
    assert len(re.findall(r'<symbol id="card-', text)) == len(set(re.findall(r'<symbol id="(card-[^"]+)"', text)))


def test_html_is_a_format_of_the_configuration() -> None:
    from referee.config import FORMATS

    assert "html" in FORMATS


def test_a_match_is_charted_hand_after_hand() -> None:
    page = Page(html_report(str(RECORDS / "flaschenteufel" / "match.txt"), str(RECORDS / "bataille-corse" / "match-hands.txt")))
    captions = [page.text(i) for i in page.find("figcaption")]
    assert any(c.startswith("Sunday: points after each hand") for c in captions), captions
    (matches,) = page.find("section", "matches")
    assert page.elements[matches][1]["class"] == "matches"
    bottle = [c for c in captions if c == "The bottle's price and owner over the hand"]
    assert len(bottle) == 2


def test_violations_past_the_hundredth_of_a_code_are_counted(tmp_path) -> None:
    # a false slap every other event (the events between: a fault the table accepted), not so
    # many that the replay stops following the game (engine.LOST_FAULTED)
    text = '[Game "bataille-corse"]\n[Players "A B"]\nA plays 5H\n' + "B slaps\nA collects ; accepted BC-NOT-WON\n" * 130
    page = Page(html_report(str(write(tmp_path, "many.txt", text))))
    shown = [code_ for code_, _ in violations_shown(page)]
    assert shown.count("BC-FALSE-SLAP") == 100
    assert any(page.text(i).startswith("and 30 more BC-FALSE-SLAP") for i in page.find("li"))


def test_the_page_speaks_french_with_lang_fr(tmp_path) -> None:
    from click.testing import CliRunner

    from referee.cli import main
    from referee.messages import use

    record = RECORDS / "caroleto" / "full-game.txt"
    try:
        text = CliRunner().invoke(main, ["--lang", "fr", "check", "--format", "html", str(record)]).output
    finally:
        use("en", explicit=False)
    page = Page(text)
    assert page.elements[page.find("html")[0]][1]["lang"] == "fr"
    assert "La partie, coup par coup" in [page.text(i) for i in page.find("h4")]
    names = next(json.loads(body) for attrs, body in page.scripts if attrs.get("id") == "card-names")
    assert names["KS"] == "roi de pique" and names["T12"] == "atout 12"
    assert ">R</text>" in text and ">K</text>" not in text, "French corner letters"
    assert "Drinks by unit" not in text and "Boissons par unité" in text


def test_the_same_input_gives_the_same_bytes(tmp_path) -> None:
    """No random token in the ids, the embedded JSON's keys sorted: two runs under two hash
    seeds (and one of them with --jobs) write the same page."""
    import os
    import subprocess
    import sys

    pages = []
    for seed, jobs in (("1", "1"), ("2", "2")):
        out = tmp_path / f"r{seed}.html"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "referee", "--lang", "en", "check", "--format", "html", "-j", jobs, "-o", str(out),
                        str(RECORDS / "caroleto"), str(RECORDS / "pierre-qui-roule")], env=env, check=False, timeout=600)
        pages.append(out.read_bytes())
    assert len(pages[0]) > 10_000 and pages[0] == pages[1]


def _section(text: str, index: int) -> str:
    """The HTML of the game section at ``index`` (0 the first) of a page."""
    return re.split(r'<details (?:open )?class="game', text)[index + 1]


def _plain(markup: str) -> str:
    from html import unescape

    return " ".join(unescape(re.sub(r"<[^>]+>", "", markup)).split())


DRINKS = (RECORDS / "caroleto" / "drinks.txt").read_text(encoding="utf-8")
"""Its second game drinks other than owed: Ben 5 of 4, Cas a full glass for a half, Ann 1
of nothing; Dom 1 of 3 in round 1, and the 2 left in round 2 (3 of 3 in all)."""


def test_the_drinks_table_shows_owed_and_drunk_side_by_side_marked_where_they_differ() -> None:
    game = _section(html_report(str(RECORDS / "caroleto" / "drinks.txt")), 1)
    (table,) = re.findall(r'<table class="drinks">.*?</table>', game)
    heads = [_plain(th) for th in re.findall(r'<th scope="col">(.*?)</th>', table)]
    assert heads == ["owed", "drunk, as written"]
    rows = {_plain(name): (bool(differs), _plain(owed), _plain(drunk))
            for differs, name, owed, drunk in re.findall(r'<tr( class="differs")?><th scope="row">(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>', table)}
    assert rows == {"Ann": (True, "nothing", "\u2260 drunk differs from owed 1 gorgée"),
                    "Ben": (True, "4 gorgées", "\u2260 drunk differs from owed 5 gorgées"),
                    "Cas": (True, "1 half glass", "\u2260 drunk differs from owed no half glass, 1 full glass"),
                    "Dom": (False, "3 gorgées", "3 gorgées")}
    assert re.findall(r'<span class="off">(.*?)</span>', table) == ["1 gorgée", "5 gorgées", "no half glass", "1 full glass"]
    first = _section(html_report(str(RECORDS / "caroleto" / "drinks.txt")), 0)
    assert "drunk, as written</th>" in first and "differs" not in first, "drunk as owed"


def test_a_game_that_writes_no_drink_shows_what_is_owed_only(tmp_path) -> None:
    first = DRINKS.split("\n\n")[1]
    unwritten = "\n".join(line for line in first.splitlines() if " drinks " not in line)
    game = _section(html_report(str(write(tmp_path, "owed.txt", unwritten))), 0)
    (table,) = re.findall(r'<table class="drinks">.*?</table>', game)
    assert [_plain(th) for th in re.findall(r'<th scope="col">(.*?)</th>', table)] == ["owed"]
    assert "Ben</th><td>4 gorgées</td></tr>" in table and "drunk" not in game.split("<h4>")[0]


def test_the_drinks_chart_draws_what_was_drunk_beside_each_round_and_marks_the_differences() -> None:
    game = _section(html_report(str(RECORDS / "caroleto" / "drinks.txt")), 1)
    (chart,) = re.findall(r'<figure class="chart drinks-chart">.*?</figure>', game)
    assert re.findall(r'<title>([^<]*)</title><text class="who"[^>]*>(.*?)</text>', chart) == [(n, n) for n in ("Ann", "Ben", "Cas", "Dom")]
    drawn = chart.split('<ul class="legend">')[0]
    marks = [_plain(title + mark) for title, mark in re.findall(r'<title>([^<]*)</title><text class="mark"[^>]*>(.*?)</text>', drawn)]
    assert marks == ["round 1, Ann: owes nothing but drank 1 gorgée, as written\u2260",
                     "round 1, Ben: owes 4 gorgées but drank 5 gorgées, as written\u2260",
                     "round 1, Cas: owes 1 half glass but drank 1 full glass, as written\u2260",
                     "round 1, Dom: owes 3 gorgées but drank 1 gorgée, as written\u2260",
                     "round 2, Dom: owes nothing but drank 2 gorgées, as written\u2260"]
    drunk = [_plain(t) for t in re.findall(r'<g class="drunk"><title>(.*?)</title>', chart)]
    assert "round 1, Dom: drank 1 gorgée, as written" in drunk and "round 2, Dom: drank 2 gorgées, as written" in drunk
    assert re.findall(r"<li[^>]*>(?:<svg.*?</svg>)(.*?)</li>", chart) == [
        "gorgées", "half glasses", "full glasses", "owed", "drunk, as written", "drunk differs from owed"]


def test_a_long_name_is_cut_in_the_chart_and_whole_in_its_tooltip(tmp_path) -> None:
    long = "Maximilienne-Alexandrine-de-la-Tour-d'Auvergne"
    text = DRINKS.replace("Cas", long)
    game = _section(html_report(str(write(tmp_path, "long.txt", text))), 1)
    ((title, shown),) = [t for t in re.findall(r'<title>([^<]*)</title><text class="who"[^>]*>(.*?)</text>', game) if "Maximilienne" in t[0]]
    assert title == "Maximilienne-Alexandrine-de-la-Tour-d&#x27;Auvergne", "escaped, and whole"
    assert shown == "Maximilienne-Alexandrine-de-la-Tour-d&#x27;A\u2026", "cut at 40 characters with an ellipsis"
    assert f"owes 1 half glass but drank 1 full glass" in game and "<th scope=\"row\">Maximilienne-Alexandrine-de-la-Tour-d&#x27;Auvergne</th>" in game


def test_a_round_that_must_write_its_drinks_and_writes_none_drank_nothing() -> None:
    """[Drinks "all"]: the round that wrote no drink is drawn as nothing drunk, and marked."""
    game = _section(html_report(str(RECORDS / "caroleto" / "options.txt")), 0)
    assert '<tr class="differs"><th scope="row">Ben</th><td>3 gorgées</td>' in game
    assert "<title>round 1, Ben: owes 3 gorgées but drank nothing, as written</title>" in game


def test_drinks_are_compared_over_the_rounds_whose_drinks_are_written() -> None:
    """full-game.txt writes the drinks of rounds 1, 2, 4, 5, 7, 9 and 10, each as owed:
    no player is marked, though what the ten rounds gave is more than what was written;
    a note says which rounds were not compared."""
    game = _section(html_report(str(RECORDS / "caroleto" / "full-game.txt")), 0)
    (table,) = re.findall(r'<table class="drinks">.*?</table>', game)
    assert "<th scope=\"row\">Léa</th><td>32 gorgées, 1 half glass</td><td><span class=\"same\">24 gorgées</span></td>" in table
    assert "differs" not in table and "\u2260" not in game.split("<h4>")[0]
    assert '<p class="note">Rounds 3, 6 and 8 write no drink: what they give is owed, and not compared with what was drunk.</p>' in game


def test_the_summary_says_in_progress_and_over_not_the_faults_again(tmp_path) -> None:
    """The result column of a game in progress says so (its faults have their column), and
    of a finished Caroleto game "over" (no winner: its outcome is the drinks), not "with no
    single winner"."""
    path = tmp_path / "evening.txt"
    path.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 5H\nBob slaps\n\n'
                    + (RECORDS / "caroleto" / "full-game.txt").read_text(encoding="utf-8"), encoding="utf-8")
    page = Page(html_report(str(path)))
    rows = [i for i in page.find("tr") if (page.elements[i][1].get("class") or "").startswith("s-")]
    results = [page.text([j for j in range(row + 1, len(page.elements)) if page.elements[j][0] == "td"][5]) for row in rows]
    assert results == ["in progress", "over"]
