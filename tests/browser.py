"""Browser tests' harness: Debian's Chromium (/usr/bin/chromium) driven by Playwright,
never a browser that Playwright downloads (no ``playwright install``).

Use in a test module::

    from tests.browser import browser, chromium_page, screenshot  # noqa: F401 (fixtures)

    def test_page(chromium_page):
        page = chromium_page(viewport=(390, 844))
        page.goto(url)
        screenshot(page, "table-phone")
        assert page.console_errors == []

With no Chromium (or no Playwright) the tests skip with a message shown in the run's
summary; under ``CI=true`` they fail instead. Screenshots go to ``artifacts/screenshots/``
(``REFEREE_SCREENSHOTS`` chooses another folder); the run prints where.
"""

from __future__ import annotations

import os
import shutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(os.environ.get("REFEREE_SCREENSHOTS", ROOT / "artifacts" / "screenshots"))
PHONE, LAPTOP = (390, 844), (1280, 800)
EXPECT_WAIT = 20_000
"""Milliseconds an ``expect`` waits for its page to agree (Playwright's 5 s is tight on a
loaded machine; a page that agrees at once is not waited for)."""

_taken: list[Path] = []


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM}: install Debian's chromium package (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install '.[test]'"
    return None


def require_browser() -> None:
    """Skip (with a warning the summary shows), or under CI=true fail, when there is no browser."""
    reason = missing()
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    warnings.warn(f"browser tests skipped: {reason}", pytest.PytestWarning, stacklevel=2)
    pytest.skip(f"browser tests skipped: {reason}")


_shared: dict[str, Any] = {"users": 0}
"""One Playwright and one Chromium for the tests of a module, whichever modules import the
fixture. Not one for the session: Playwright's sync API keeps an event loop running in
the thread while it lives, and the editor's pytest-lsp tests (pytest-asyncio), run next
in the same worker, would find it there ("Cannot run the event loop while another loop is
running"); pytest ends a module's fixtures before the next module's test."""


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """One headless Chromium for a module's tests."""
    require_browser()
    if _shared["users"] == 0:
        from playwright.sync_api import expect, sync_playwright

        expect.set_options(timeout=EXPECT_WAIT)
        _shared["playwright"] = sync_playwright().start()
        _shared["browser"] = _shared["playwright"].chromium.launch(executable_path=CHROMIUM, args=ARGS)
    _shared["users"] += 1
    yield _shared["browser"]
    _shared["users"] -= 1
    if _shared["users"] == 0:
        _shared["browser"].close()
        _shared["playwright"].stop()
        if _taken:
            plugins = request.config.pluginmanager
            reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
            if reporter is not None and capture is not None:
                with capture.global_and_fixture_disabled():
                    reporter.write_line(f"\nbrowser screenshots ({len(_taken)}) kept in {SCREENSHOTS}")


@pytest.fixture
def chromium_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """A factory of pages, each in a context of its own: ``chromium_page(viewport=(390, 844),
    scripts=True, dark=False)``. Each page records its console errors and uncaught
    exceptions in ``page.console_errors`` and the URLs it asked for in ``page.requests``."""
    contexts = []

    def open_page(viewport: tuple[int, int] = PHONE, scripts: bool = True, dark: bool = False, **options: Any) -> Any:
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                      java_script_enabled=scripts, color_scheme="dark" if dark else "light", **options)
        contexts.append(context)
        page = context.new_page()
        page.console_errors = []
        page.requests = []
        page.on("console", lambda message: page.console_errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: page.console_errors.append(str(error)))
        page.on("request", lambda req: page.requests.append(req.url))
        return page

    yield open_page
    for context in contexts:
        context.close()


def screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    """Keep a screenshot of ``page`` as ``<SCREENSHOTS>/<name>.png``; its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    _taken.append(path)
    return path


def external(requests: list[str]) -> list[str]:
    """The requests of a page that left it: anything but its file, data: and blob: URLs."""
    return [url for url in requests if not url.startswith(("file:", "data:", "blob:", "about:"))]


CHARTS_OUTSIDE = """() => [...document.querySelectorAll('figure.chart')].flatMap((f, k) => {
    const box = f.getBoundingClientRect(), svg = f.querySelector('svg[role=img]').getBoundingClientRect(), out = [];
    if (f.scrollWidth > f.clientWidth) out.push([k, 'the figure scrolls']);
    if (svg.left < box.left - 0.5 || svg.right > box.right + 0.5) out.push([k, 'the drawing']);
    f.querySelectorAll('svg[role=img] text').forEach(t => { const r = t.getBoundingClientRect();
        if (r.left < svg.left - 0.5 || r.right > svg.right + 0.5 || r.top < svg.top - 0.5 || r.bottom > svg.bottom + 0.5)
            out.push([k, t.textContent]); });
    return out; })"""


def charts_outside(page: Any) -> list[list[object]]:
    """Each chart of the page (``figure.chart``) that scrolls, runs past its figure, or has
    a text past its drawing: ``[chart index, what]``; empty when every chart fits."""
    found: list[list[object]] = page.evaluate(CHARTS_OUTSIDE)
    return found
