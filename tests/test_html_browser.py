"""The HTML report in a real Chromium (tests/browser.py): it opens with no console error
and no request, every game section and chart is there, a state opens with scripts on
and off, a large archive's game draws its timeline when opened, and the summary table
sorts. Screenshots at phone and laptop widths are kept."""

from __future__ import annotations

import re

import pytest

from referee.convert.export import line_text
from referee.notation import parse_text
from tests.browser import LAPTOP, PHONE, browser, charts_outside, chromium_page, external, screenshot  # noqa: F401

from .conftest import RECORDS
from .html_pages import EACH_GAME, HOSTILE, html_report, one_of_each, write


@pytest.fixture(scope="module")
def each_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("each")
    record = write(folder, "each.txt", one_of_each())
    return write(folder, "each.html", html_report(str(record)))


@pytest.fixture(scope="module")
def archive_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("archive")
    return write(folder, "archive.html", html_report(str(RECORDS)))


@pytest.mark.parametrize(("size", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_one_game_of_each_opens_with_every_section_and_chart(chromium_page, each_page, size, name) -> None:
    page = chromium_page(viewport=size)
    page.goto(each_page.as_uri())
    assert page.locator("details.game").count() == len(EACH_GAME)
    assert page.locator("figure.chart").count() == len(EACH_GAME)
    for index in range(len(EACH_GAME)):
        page.locator("details.game > summary").nth(index).click()
    assert page.locator("details.game[open]").count() == len(EACH_GAME)
    assert page.locator("figure.chart svg[role=img]").first.is_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size[0], "nothing wider than the screen"
    screenshot(page, f"html-each-{name}")
    from tests.browser import SCREENSHOTS

    page.locator("figure.chart").nth(2).screenshot(path=str(SCREENSHOTS / f"html-chart-drinks-{name}.png"))
    assert page.console_errors == [] and external(page.requests) == []


def test_the_state_after_an_event_opens_with_scripts_on(chromium_page, each_page) -> None:
    page = chromium_page(viewport=PHONE)
    page.goto(each_page.as_uri())
    page.locator("details.game > summary").nth(2).click()  # Caroleto
    event = page.locator("details.game").nth(2).locator("li.event").nth(20)
    event.click()
    panel = event.locator(".state-panel")
    assert panel.is_visible()
    assert panel.locator("dl.state dt").count() >= 4
    assert panel.locator("svg.card").count() > 0
    panel.scroll_into_view_if_needed()
    screenshot(page, "html-state-phone", full_page=False)
    panel.locator("button").click()
    assert event.locator(".state-panel").count() == 0
    event.focus()
    page.keyboard.press("Enter")
    assert event.locator(".state-panel").count() == 1
    assert page.console_errors == []


def test_the_states_at_the_end_of_each_trick_open_with_scripts_off(chromium_page, each_page) -> None:
    page = chromium_page(viewport=PHONE, scripts=False)
    page.goto(each_page.as_uri())
    game = page.locator("details.game").nth(3)  # Flaschenteufel
    game.locator("summary").first.click()
    checkpoint = game.locator("details.checkpoint").first
    assert not checkpoint.locator("dl.state").is_visible()
    checkpoint.locator("summary").click()
    assert checkpoint.locator("dl.state").is_visible()
    game.locator("li.event").nth(5).click()
    assert page.locator(".state-panel").count() == 0, "no script ran"
    checkpoint.scroll_into_view_if_needed()
    screenshot(page, "html-checkpoint-noscript-phone", full_page=False)


def test_an_archive_opens_sorts_and_links_to_its_games(chromium_page, archive_page) -> None:
    page = chromium_page(viewport=LAPTOP)
    page.goto(archive_page.as_uri())
    rows = page.locator("#summary tbody tr")
    assert rows.count() > 300
    screenshot(page, "html-archive-laptop", full_page=False)
    page.locator("#summary th button").nth(3).click()  # violations
    page.locator("#summary th button").nth(3).click()
    assert page.locator("#summary th").nth(3).get_attribute("aria-sort") == "descending"
    counts = [int(c) for c in page.locator("#summary tbody tr td:nth-child(4)").all_inner_texts()]
    assert counts == sorted(counts, reverse=True) and counts[0] > 0
    link = rows.first.locator("a")
    target = link.get_attribute("href")[1:]
    link.click()
    assert page.locator(f"#{target}").evaluate("d => d.open")
    assert page.console_errors == [] and external(page.requests) == []
    phone = chromium_page(viewport=PHONE, dark=True)
    phone.goto(archive_page.as_uri())
    screenshot(phone, "html-archive-phone-dark", full_page=False)
    assert phone.console_errors == []


def test_a_light_game_draws_its_timeline_when_opened(chromium_page, tmp_path, monkeypatch) -> None:
    import referee.html

    monkeypatch.setattr(referee.html, "WHOLE_BYTES", 0)
    timed = ('[Game "bataille-corse"]\n[Players "Ann Bob"]\n1. 20:10 Ann plays JD\n2. 20:10 Bob plays 8C\n'
             "3. 20:11:05 Ann collects ; mine\n5. Ann plays 4H\n20:12 Bob plays 3C\n6. 20:12 Ann plays 2S\n")
    text = one_of_each() + "\n\n" + timed + "\n" + HOSTILE
    record = write(tmp_path, "light.txt", text)
    page_file = write(tmp_path, "light.html", html_report(str(record)))
    page = chromium_page(viewport=PHONE)
    page.goto(page_file.as_uri())
    games = page.locator("details.game.light")
    assert games.count() == len(EACH_GAME) + 2
    assert games.first.locator("li.event").count() == 0, "drawn only when opened"
    records = [r for r in parse_text(text) if r.events]
    for index, record_ in enumerate(records):
        games.nth(index).locator("summary").click()
        games.nth(index).locator("li.event").first.wait_for()
        shown = games.nth(index).locator("li.event").all_inner_texts()
        expected = []
        for event in record_.events:
            words = line_text(event)
            if event.cards:
                words = words.replace(event.cards_text, "", 1)
            expected.append(f"{event.line} {words}")
        assert [" ".join(re.sub(" \u26a0 [A-Z0-9-]+", "", s).split()) for s in shown] == [" ".join(e.split()) for e in expected]
        assert games.nth(index).locator("li.event svg.card").count() == sum(len(e.cards) for e in record_.events)
    flagged = games.nth(0).locator("li.flagged a.code")
    assert flagged.count() > 0
    flagged.first.click()
    assert page.evaluate("() => location.hash").startswith("#g")
    comments = games.nth(len(EACH_GAME) + 1).locator("li.comment").all_inner_texts()
    assert any("<script>alert(4)</script>" in c for c in comments)
    screenshot(page, "html-light-phone", full_page=False)
    assert page.console_errors == []


def test_the_archive_summary_fits_a_phone(chromium_page, archive_page) -> None:
    """At 390 px: no sideways scroll, each row of the summary at most about 120 px high,
    the result (or what is left of the game) said on every row."""
    page = chromium_page(viewport=PHONE)
    page.goto(archive_page.as_uri())
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0], "nothing wider than the screen"
    box = page.evaluate("() => { const s = document.querySelector('#summary').parentElement; return [s.scrollWidth, s.clientWidth]; }")
    assert box[0] <= box[1], "the summary scrolls sideways"
    heights = page.evaluate("() => [...document.querySelectorAll('#summary tbody tr')].map(r => r.getBoundingClientRect().height)")
    assert len(heights) > 300 and max(heights) <= 120, sorted(heights)[-5:]
    results = page.evaluate("() => [...document.querySelectorAll('#summary tbody tr td:nth-child(6)')].map(c => c.textContent)")
    assert all(results), [n for n, r in enumerate(results) if not r][:5]
    visible = page.evaluate("() => [...document.querySelectorAll('#summary thead th')].map(th => th.offsetWidth > 0)")
    assert visible == [True, True, False, True, True, True, False]  # status told in the result, file and line in the game
    screenshot(page, "html-archive-phone", full_page=False)
    assert page.console_errors == []


LONG = "Maximilienne-Alexandrine-de-la-Tour-d'Auvergne"


@pytest.fixture(scope="module")
def charts_pages(tmp_path_factory):
    """One game of each, a Caroleto game that drinks other than owed, long names in a
    legend and in the drinks chart: the page in English and in French."""
    from click.testing import CliRunner

    from referee.cli import main
    from referee.messages import use

    folder = tmp_path_factory.mktemp("charts")
    each = one_of_each()
    assert "Maëlys" in each
    drinks = (RECORDS / "caroleto" / "drinks.txt").read_text(encoding="utf-8").split("\n\n")[2].replace("Cas", LONG)
    record = write(folder, "charts.txt", each.replace("Maëlys", LONG + "-Lauragais") + "\n\n" + drinks)
    pages = {}
    try:
        for lang in ("en", "fr"):
            result = CliRunner().invoke(main, ["--lang", lang, "check", "--format", "html", str(record)])
            pages[lang] = write(folder, f"charts-{lang}.html", result.output)
    finally:
        use("en", explicit=False)
    return pages


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("size", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_every_chart_and_the_drinks_table_fit_their_panel(chromium_page, charts_pages, lang, size, name) -> None:
    """At 390 px and on a laptop, in French and in English: no chart scrolls or runs past
    its panel, every text of a chart is inside its drawing, a long name is cut in the
    drinks chart and in a legend, and the drinks table needs no sideways scroll."""
    page = chromium_page(viewport=size)
    page.goto(charts_pages[lang].as_uri())
    page.evaluate("() => document.querySelectorAll('details.game').forEach(d => d.open = true)")
    assert page.locator("figure.chart").count() == len(EACH_GAME) + 1
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0], "nothing wider than the screen"
    outside = charts_outside(page) + page.evaluate("""() => [...document.querySelectorAll('figure.chart')].flatMap((f, k) =>
        [...f.querySelectorAll('.legend li')].filter(li => li.getBoundingClientRect().right > f.getBoundingClientRect().right + 0.5)
            .map(li => [k, li.textContent]))""")
    assert outside == []
    wide = page.evaluate("() => [...document.querySelectorAll('table.drinks')].map(t => t.parentElement)"
                         ".filter(s => s.scrollWidth > s.clientWidth).length")
    assert wide == 0, "a drinks table scrolls sideways"
    drinks = page.locator("figure.drinks-chart").last
    names = drinks.locator("text.who").all_text_contents()
    assert names[0] == "Ann" and names[2].startswith("Maximilienne-") and names[2].endswith("\u2026") and LONG in names[2] + LONG
    assert drinks.locator("svg[role=img] text.mark").count() == 5
    legend = page.locator(".legend li", has_text=LONG).first
    assert legend.get_attribute("title") == LONG + "-Lauragais"
    if size == PHONE:
        assert legend.evaluate("li => li.scrollWidth > li.clientWidth"), "the long name is cut with an ellipsis"
    drinks.scroll_into_view_if_needed()
    from tests.browser import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    drinks.screenshot(path=str(SCREENSHOTS / f"html-chart-drinks-owed-{lang}-{name}.png"))
    page.locator("table.drinks").last.screenshot(path=str(SCREENSHOTS / f"html-drinks-table-{lang}-{name}.png"))
    page.locator("figure.chart").nth(1).screenshot(path=str(SCREENSHOTS / f"html-chart-cards-{lang}-{name}.png"))
    assert page.console_errors == []


@pytest.mark.parametrize(("size", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_the_archive_page_and_its_charts_fit_the_screen(chromium_page, archive_page, size, name) -> None:
    """The project's records as one page, its games drawn whole opened: nothing wider than
    the screen, the summary scrolls not sideways, and every chart (the matches', each
    game's) inside its panel."""
    page = chromium_page(viewport=size)
    page.goto(archive_page.as_uri())
    opened = page.evaluate("() => { const g = [...document.querySelectorAll('details.game:not(.light)')];"
                           " g.forEach(d => d.open = true); return g.length; }")
    assert opened > 50
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0], "nothing wider than the screen"
    box = page.evaluate("() => { const s = document.querySelector('#summary').parentElement; return [s.scrollWidth, s.clientWidth]; }")
    assert box[0] <= box[1], "the summary scrolls sideways"
    assert page.locator("section.matches figure.chart").count() >= 2
    assert page.locator("figure.chart").count() > 40
    assert charts_outside(page) == []
    page.locator("section.matches").scroll_into_view_if_needed()
    screenshot(page, f"html-archive-matches-{name}", full_page=False)
    assert page.console_errors == []
