"""The browser harness itself: the card faces drawn in a real Chromium."""

from __future__ import annotations

from referee.html.card_svg import symbols, use
from referee.cards import TAROT_78, UNSEEN_CARD, numbered_deck
from tests.browser import LAPTOP, browser, chromium_page, external, screenshot  # noqa: F401

CARDS = list(TAROT_78) + list(numbered_deck([n for n in range(1, 38) if n != 19])) + [UNSEEN_CARD]


def test_every_card_face_is_drawn(chromium_page, tmp_path) -> None:
    page_file = tmp_path / "cards.html"
    page_file.write_text('<!doctype html><meta charset="utf-8"><style>.card-defs{position:absolute}</style>'
                         + symbols(CARDS, "fr") + "".join(use(c, lang="fr") for c in CARDS), encoding="utf-8")
    page = chromium_page(viewport=LAPTOP)
    page.goto(page_file.as_uri())
    screenshot(page, "cards-fr")
    assert page.locator("svg.card").count() == len(CARDS)
    box = page.locator('svg.card[aria-label="roi de pique"]').bounding_box()
    assert box is not None and round(box["width"]) == 56
    drawn = page.evaluate("() => document.querySelector('#card-KS').getBBox !== undefined")
    assert drawn
    assert page.console_errors == [] and external(page.requests) == []
