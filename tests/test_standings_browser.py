"""The standings page (``referee standings --format html``) in a real Chromium
(tests/browser.py): at a phone's and a laptop's width nothing runs past the screen, the
charts stay inside their panel, and the page asks for nothing and runs nothing."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.browser import LAPTOP, PHONE, browser, charts_outside, chromium_page, external, screenshot  # noqa: F401

from .conftest import RECORDS


@pytest.fixture(scope="module")
def standings_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("standings") / "standings.html"
    result = CliRunner().invoke(main, ["--lang", "en", "standings", "--format", "html", "-o", str(out), "--exclude", "bad",
                                       str(RECORDS)])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize(("size", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_the_standings_page_fits_the_screen(chromium_page, standings_page, size, name) -> None:
    page = chromium_page(viewport=size)
    page.goto(standings_page.as_uri())
    assert page.locator("table.board").count() >= 7  # a leaderboard per game, the players, the games
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0], "nothing wider than the screen"
    wide = page.evaluate("() => [...document.querySelectorAll('.scroll')].filter(s => s.scrollWidth > s.clientWidth).length")
    assert wide == 0, "a table scrolls sideways"
    charts = page.locator("figure.chart")
    assert charts.count() >= 2  # the running scores of Flaschenteufel and Pierre qui Roule
    for index in range(charts.count()):
        figure, svg = charts.nth(index).bounding_box(), charts.nth(index).locator("svg[role=img]").bounding_box()
        assert svg["x"] >= figure["x"] and svg["x"] + svg["width"] <= figure["x"] + figure["width"] + 0.5
    assert charts_outside(page) == []
    broken = page.evaluate("""() => [...document.querySelectorAll('table.board td.name')].filter(td => {
        const name = td.textContent.trim(), range = document.createRange();
        range.selectNodeContents(td);
        return !/\\s/.test(name) && name.length <= 10 && range.getClientRects().length > 1;
    }).map(td => td.textContent.trim())""")
    assert broken == [], "a short name broken over two lines"
    assert page.locator("figure.drinks-chart").count() == 1
    screenshot(page, f"standings-{name}", full_page=False)
    from tests.browser import SCREENSHOTS

    page.locator("section.evening-drinks").screenshot(path=str(SCREENSHOTS / f"standings-drinks-{name}.png"))
    assert page.console_errors == [] and external(page.requests) == []
