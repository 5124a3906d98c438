"""The table page for a noisy table (issue 34), in a real headless Chromium at a phone's
size (390×844) and a laptop's: the bar that stays, this phone's seat, a card in two taps,
the slap buttons, a double tap, a fault in plain words seen accepted on another phone, a
French game from the new-game form to its third move, a second phone following the new
game, and a long name. Each step's screenshot is kept (table-*.png)."""

from __future__ import annotations

import pytest

from tests.browser import LAPTOP, PHONE, browser, chromium_page, screenshot  # noqa: F401 (fixtures)
from tests.test_serve_browser import expect, only_from, served, turn_up  # noqa: F401 (fixtures)

BC = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Penalty "give-1"]\n\n'
CP = '[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "5C"]\n\n'
SIZES = [(PHONE, "phone"), (LAPTOP, "laptop")]


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height


@pytest.mark.parametrize("size, name", SIZES)
def test_the_bar_stays_in_view_with_whose_turn_and_the_seats(served, chromium_page, size, name) -> None:
    server = served(BC + "Alice plays 5H\nBob plays KC\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    screenshot(page, f"table-bar-scrolled-{name}", full_page=False)
    assert page.evaluate("window.scrollY") > 0, "the page scrolled"
    assert in_view(page, ".turn") and "turn: Chloe" in page.inner_text(".turn")
    assert in_view(page, ".seats-row .chip.now") and page.inner_text(".seats-row .chip.now .name") == "Chloe"
    assert "Chloe pays 3 more cards to Bob" in page.inner_text("#part-bar .todo")
    assert "Bob plays KC" in page.inner_text("#part-bar .last")
    only_from(page, server)


def test_this_phones_seat_comes_first_and_is_kept(served, chromium_page) -> None:
    server = served(CP + "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\nAna holds KC KH KS 4D 9D 8H 2S\n"
                    "Ana plays KC\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    page.select_option("#me", "Cas")
    assert "your turn" not in page.inner_text(".turn")  # Ben's turn, not Cas's
    assert page.locator("#part-legal .player.mine").count() == 0  # Cas has nothing to play
    assert "me" in page.locator('.seats-row .chip[data-player="Cas"]').get_attribute("class")
    page.select_option("#me", "Ben")
    expect(page.locator(".turn")).to_have_text("your turn, Ben")
    assert "mine" in page.locator("#part-legal .player").first.get_attribute("class")
    screenshot(page, "table-my-seat-phone")
    page.reload()  # kept in this browser
    expect(page.locator(".turn")).to_have_text("your turn, Ben")
    expect(page.locator("#me")).to_have_value("Ben")
    other = chromium_page(viewport=PHONE)  # another phone: its own seat
    other.goto(server.url)
    expect(other.locator(".turn")).to_have_text("turn: Ben")
    only_from(page, server)


@pytest.mark.parametrize("size, name", SIZES)
def test_a_card_in_two_taps_choose_then_confirm(served, chromium_page, size, name) -> None:
    server = served(CP + "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\nAna holds KC 4D 9C 8H 2S 3C 7C\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    clubs = page.locator('form.moves .faces[data-suit="C"] button.face')
    assert [b.get_attribute("value") for b in clubs.all()] == ["Ana plays KC", "Ana plays 9C", "Ana plays 3C",
                                                                "Ana plays 7C"]  # by suit, in the hand's order
    clubs.nth(1).click()
    write = page.locator("form.moves .go button")
    expect(write).to_have_text("Write: Ana plays 9C")
    screenshot(page, f"table-two-taps-{name}")
    assert "plays 9C" not in server.path.read_text()  # the first tap chose, no more
    write.click()
    expect(page.locator("#notice .ok")).to_contain_text("written: Ana plays 9C")
    assert server.path.read_text().endswith("Ana plays 9C\n")
    only_from(page, server)


def test_an_aces_suit_is_a_second_tap(served, chromium_page) -> None:
    server = served(CP + "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\nAna holds AC KH 4D 9D 8H 2S 3S\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    assert page.locator("form.moves button", has_text="for").count() == 0  # no "plays AC for H"
    page.locator("form.moves button.named-pick").click()
    suits = page.locator("form.moves .named.open button")
    expect(suits).to_have_count(3)
    screenshot(page, "table-ace-suit-phone")
    suits.nth(1).click()
    expect(page.locator("#notice .ok")).to_contain_text("Ana plays AC for H")
    assert server.path.read_text().endswith("Ana plays AC for H\n")


@pytest.mark.parametrize("size, name", SIZES)
def test_a_slap_button_for_every_player_in_one_tap(served, chromium_page, size, name) -> None:
    server = served(BC + "Alice plays 5H\nBob plays 6C\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    slaps = page.locator("#part-bar .anyone button")
    assert [b.inner_text() for b in slaps.all()] == ["Alice slaps", "Bob slaps", "Chloe slaps"]  # no pattern: still there
    assert "give-1" in page.inner_text("#part-bar .anyone .note")  # the penalty the table chose
    screenshot(page, f"table-slaps-{name}", full_page=False)
    slaps.first.click()  # a false slap, in one tap: the table says what happened
    page.wait_for_selector("#notice .fault")
    page.locator("#notice button[value=cancel]").click()
    expect(page.locator("#notice .cancelled")).to_be_visible()
    turn_up(page, "Chloe plays 6D")
    expect(page.locator("#part-bar .anyone button.due")).to_have_count(3)  # a pair: every slap is good now
    page.locator("#part-bar .anyone button", has_text="Bob slaps").click()
    expect(page.locator("#notice .ok")).to_contain_text("written: Bob slaps")
    assert server.path.read_text().endswith("Bob plays 6C\nChloe plays 6D\nBob slaps\n")
    only_from(page, server)


def test_a_double_tap_on_the_confirmation_writes_once(served, chromium_page) -> None:
    server = served(CP + "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\nAna holds KC 4D 9C 8H 2S 3C 7C\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    page.locator('form.moves button.face[value="Ana plays 7C"]').click()
    page.locator("form.moves .go button").dblclick()
    expect(page.locator("#notice .ok")).to_contain_text("Ana plays 7C")
    page.wait_for_timeout(300)
    assert server.path.read_text().count("Ana plays 7C") == 1
    assert page.locator("#notice .fault").count() == 0


def test_a_fault_in_plain_words_and_every_phone_sees_it_accepted(served, chromium_page) -> None:
    server = served(BC + "Alice plays 5H\n")
    page, other = chromium_page(viewport=PHONE), chromium_page(viewport=PHONE)
    for p in (page, other):
        p.goto(server.url)
    page.locator("#part-bar .anyone button", has_text="Chloe slaps").click()
    page.wait_for_selector("#notice .fault")
    plain = page.inner_text("#notice .fault .plain")
    assert "Chloe" in plain and "BC-" not in plain and "[" not in plain  # what happened, in words, first
    assert not page.locator("#notice .fault blockquote").is_visible()  # the rule folded
    assert "cancel" in page.locator("#notice button[value=cancel]").get_attribute("class")
    accept = page.locator("#notice button[value=accepted]")
    assert "writes Chloe slaps ; accepted BC-FALSE-SLAP" in accept.inner_text()  # says what it writes
    screenshot(page, "table-fault-plain-phone")
    accept.click()
    expect(other.locator("#part-bar .accepted-now")).to_contain_text("accepted by the table: BC-FALSE-SLAP", timeout=5000)
    screenshot(other, "table-accepted-other-phone", full_page=False)
    only_from(other, server)


def test_a_french_game_from_the_form_to_its_third_move(served, chromium_page) -> None:
    server = served("")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url + "?lang=fr")
    page.select_option("#game", "bataille-corse")
    page.wait_for_selector("form.setup")
    assert "glisse-3" in page.inner_text("form.setup") and "burn-3" not in page.inner_text("form.setup")  # French values
    page.locator("#players").fill("Ana Ben Cas")
    page.select_option("#dealer", "Cas")  # the dealer among the players
    page.select_option('select[name="option.Penalty"]', "donne-1")  # an option's values, each a choice, in French
    screenshot(page, "table-new-french-phone")
    page.locator("form.setup button.start").click()
    page.wait_for_selector("#part-bar .turn")
    for line in ("Ana joue 5C", "Ben joue RT", "Cas joue 2P"):
        suit = {"C": "H", "T": "C", "P": "S", "K": "D"}[line[-1]]
        page.locator(f"form.moves button.suit-pick[data-suit={suit}]").first.click()
        page.locator(f'form.moves .values.open button[value="{line}"]').click()
        expect(page.locator("#notice .ok")).to_contain_text(line)
    screenshot(page, "table-french-third-move-phone")
    text = server.path.read_text()
    assert text.startswith('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Ben Cas"]\n[Donneur "Cas"]')
    assert '[Penalty "donne-1"]' in text  # the value as the French page said it (a French record reads it)
    assert text.endswith("Ana joue 5C\nBen joue RT\nCas joue 2P\n")
    body = page.inner_text("body")
    for english in ("turn:", "Legal moves", "plays", "Write", "slaps", "last line"):
        assert english not in body, english
    only_from(page, server)


def test_a_second_phone_follows_the_new_game(served, chromium_page) -> None:
    server = served("")
    first, second = chromium_page(viewport=PHONE), chromium_page(viewport=PHONE)
    for p in (first, second):
        p.goto(server.url + "?game=carte-et-plouc")
        p.wait_for_selector("form.setup")
    first.locator("#players").fill("Ann Ben Cas")
    first.select_option("#turned", "QH")  # the card turned up
    first.locator("form.setup button.start").click()
    first.wait_for_selector("#part-bar .turn")
    expect(second.locator("#part-bar .turn")).to_contain_text("turn: Ann", timeout=5000)
    screenshot(second, "table-second-phone-follows")
    assert server.path.read_text() == ""  # the headers wait for the first move
    second.reload()  # a page reloaded before the first move: the game started, not the form
    expect(second.locator("#part-bar .turn")).to_contain_text("turn: Ann")
    first.fill("#line", "Ann plays 5H")
    first.locator("#entry button").click()
    expect(first.locator("#notice .ok")).to_contain_text("Ann plays 5H")
    expect(second.locator("#part-bar .last")).to_contain_text("Ann plays 5H", timeout=5000)
    text = server.path.read_text()
    assert text.startswith('[Game "carte-et-plouc"]\n[Players "Ann Ben Cas"]\n[Starter "QH"]\n')
    assert text.endswith('"]\n\nAnn plays 5H\n')
    only_from(second, server)


@pytest.mark.parametrize("size, name", SIZES)
def test_a_long_name_keeps_the_page_within_its_screen(served, chromium_page, size, name) -> None:
    long = "Bartholomew" * 273  # 3,003 characters
    server = served(f'[Game "bataille-corse"]\n[Players "Alice {long} Chloe"]\n\nAlice plays 5H\n')
    page = chromium_page(viewport=size)
    page.goto(server.url)
    page.wait_for_selector("#part-piles svg.card")
    screenshot(page, f"table-long-name-{name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert page.evaluate("document.body.scrollHeight") < 6000  # cut, not a column of letters
    only_from(page, server)


def test_a_card_picked_on_the_buttons_a_live_update_made(served, chromium_page) -> None:
    """A live update sends the cards a player may turn as a list; the page's script makes
    their buttons, which write as the page's own do."""
    server = served(BC + "Alice plays 5H\n")
    phone, laptop = chromium_page(viewport=PHONE), chromium_page(viewport=LAPTOP)
    for page in (phone, laptop):
        page.goto(server.url)
        page.wait_for_selector("#part-piles svg.card")
    turn_up(phone, "Bob plays KC")
    expect(laptop.locator(".turn")).to_contain_text("Chloe", timeout=5000)
    assert laptop.locator('form.moves .values button[value="Chloe plays 2H"]').count() == 1  # made by the script
    turn_up(laptop, "Chloe plays 2H")
    expect(laptop.locator("#notice .ok")).to_contain_text("written: Chloe plays 2H")
    expect(phone.locator("#part-bar .last")).to_contain_text("Chloe plays 2H", timeout=5000)
    assert server.path.read_text().endswith("Bob plays KC\nChloe plays 2H\n")
    screenshot(laptop, "table-live-buttons-laptop")
    for page in (phone, laptop):
        only_from(page, server)


def test_on_a_phone_that_says_whose_it_is_the_others_moves_are_one_tap_away(served, chromium_page) -> None:
    from referee.simulate import simulate

    lines = simulate("caroleto", 4, 3, hidden=True, max_events=400).split("\n")
    played = [i for i, line in enumerate(lines) if line and not line.startswith(("[", ";"))]
    server = served("\n".join(lines[:played[24]]) + "\n")  # each lays a card: every player has moves
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    players = page.locator("#part-legal .player")
    assert players.count() == 4
    names = [p.get_attribute("data-player") for p in players.all()]
    page.select_option("#me", names[2])
    first = page.locator("#part-legal .player").first
    assert first.get_attribute("data-player") == names[2] and first.locator("form.moves button").first.is_visible()
    other = page.locator(f'#part-legal .player[data-player="{names[0]}"]')
    assert not other.locator("form.moves button").first.is_visible()  # folded
    screenshot(page, "table-others-folded-phone")
    other.locator("h3").click()
    assert other.locator("form.moves button").first.is_visible()  # one tap away
    only_from(page, server)


def test_buttons_sent_as_lists_are_made_by_the_page_as_the_page_has_them(served, chromium_page) -> None:
    """A live update sends a player's faces, an ace's suits and the cards laid together as
    lists (a few bytes a card); the page's script makes their buttons, which work as the
    page's own: two taps write a face, an ace's suits come at its first tap. Every face
    comes from the deck's one document (the browser fetches it once)."""
    import httpx2

    server = served(CP + "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\n"
                         "Ana holds AC 7C 7H 8C 9C 2S 3S\n")
    laptop = chromium_page(viewport=LAPTOP)
    laptop.goto(server.url)
    origin = {"origin": server.url.rstrip("/")}
    httpx2.post(server.url + "line", data={"line": "Ana plays 8C"}, headers=origin)
    httpx2.post(server.url + "undo", data={"confirm": "Ana plays 8C"}, headers=origin)  # the table as it was: sent live
    expect(laptop.locator("#live")).to_have_attribute("data-version", "2", timeout=5000)
    ana = laptop.locator('#part-legal .player[data-player="Ana"]')
    assert ana.locator(".faces-by-suit[data-cards]").count() == 1  # the list, as the update sent it
    assert ana.locator('button.face[value="Ana plays 9C"] use').get_attribute("href").startswith("/f/")
    assert ana.locator('form.group button.pick[data-card="7H"] svg').get_attribute("aria-label") == "7 of hearts"
    ana.locator("button.face.named-pick").first.click()  # the ace: its suits
    expect(ana.locator('.named.open button[value="Ana plays AC for H"]')).to_be_visible()
    ana.locator('button.face[value="Ana plays 9C"]').click()
    expect(ana.locator(".go button.write-this")).to_contain_text("Write: Ana plays 9C")
    ana.locator('button.face[value="Ana plays 9C"]').click()  # the second tap writes
    expect(laptop.locator("#notice .ok")).to_contain_text("written: Ana plays 9C")
    assert server.path.read_text().endswith("Ana holds AC 7C 7H 8C 9C 2S 3S\nAna plays 9C\n")
    screenshot(laptop, "table-lists-made-laptop")
    assert len({url for url in laptop.requests if "/f/" in url}) == 1
    only_from(laptop, server)


def test_an_ace_picked_by_suit_and_value_shows_its_suits(served, chromium_page) -> None:
    """Where the card is picked by suit then value, an ace whose play names a suit is a
    value like the others: its tap shows the suits, as the page has them and as a live
    update's list makes them."""
    import httpx2

    server = served(CP + "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\nAna holds ?? ?? ?? ?? ?? ?? ??\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    origin = {"origin": server.url.rstrip("/")}
    for version in ("0", "2"):
        if version == "2":  # the same table again, sent live: the buttons made by the script
            httpx2.post(server.url + "line", data={"line": "Ana plays 8C"}, headers=origin)
            httpx2.post(server.url + "undo", data={"confirm": "Ana plays 8C"}, headers=origin)
        expect(page.locator("#live")).to_have_attribute("data-version", version, timeout=5000)
        ana = page.locator('#part-legal .player[data-player="Ana"]')
        ana.locator("button.suit-pick[data-suit=C]").first.click()
        ana.locator(".values.open button.named-value").first.click()
        expect(ana.locator('.named.open button[value="Ana plays AC for H"]')).to_be_visible()
        assert ana.locator(".values.open button[value='Ana plays 7C']").count() == 1
    screenshot(page, "table-ace-by-value-phone")
    ana.locator('.named.open button[value="Ana plays AC for H"]').click()
    expect(page.locator("#notice .ok")).to_contain_text("written: Ana plays AC for H")
    only_from(page, server)
