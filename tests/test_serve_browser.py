"""``referee serve`` in a real headless Chromium (tests/browser.py): at a phone's size
and a laptop's, a move by button and by text, a fault and the table's choice, undo, two
pages following each other live, the French page, and a server restarted mid-game.
Each step's screenshot is kept (serve-*.png)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser import EXPECT_WAIT, LAPTOP, PHONE, browser, chromium_page, screenshot  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parent.parent
HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Penalty "give-1"]\n\n'


class Server:
    """A ``referee serve`` process on a record, on a port of its own that it keeps
    across a restart."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(self.path), "--port", str(self.port)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        assert self.url in line, line + self.process.stderr.read()

    def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        self.process.communicate(timeout=20)
        return self.process.returncode


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[str], Server]]:
    servers: list[Server] = []

    def start(text: str) -> Server:
        path = tmp_path / "game.txt"
        path.write_text(text, encoding="utf-8")
        server = Server(path)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.process is not None and server.process.poll() is None:
            server.stop()


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def turn_up(page, line: str) -> None:
    """A card turned (its value unknown to the page until then): its suit, then its value."""
    suit = line.split()[-1][-1]
    page.locator(f"form.moves button.suit-pick[data-suit={suit}]").first.click()
    page.locator(f'form.moves .values.open button[value="{line}"]').click()


def only_from(page, server: Server) -> None:
    """The page asked nothing of any other server, and had no error."""
    assert [url for url in page.requests if not url.startswith(server.url)] == []
    assert page.console_errors == []


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_the_table_loads(served, chromium_page, size, name) -> None:
    server = served(HEADERS + "Alice plays 5H\nBob plays KC\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    page.wait_for_selector("#part-piles svg.card")
    screenshot(page, f"serve-table-{name}")
    assert "turn: Chloe" in page.inner_text(".turn")
    assert page.locator(".seat.now .name").inner_text() == "Chloe"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], "the page is wider than the screen"
    only_from(page, server)


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_a_legal_move_by_button_then_one_by_text(served, chromium_page, size, name) -> None:
    server = served(HEADERS + "Alice plays 5H\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    turn_up(page, "Bob plays KC")
    page.wait_for_selector("#notice .ok")
    assert "written: Bob plays KC" in page.inner_text("#notice")
    assert "turn: Chloe" in page.inner_text(".turn")
    screenshot(page, f"serve-button-{name}")
    field = page.locator("#line")
    field.fill("Chl")
    options = page.eval_on_selector_all("#words option", "list => list.map(o => o.value)")
    assert "Chloe" in options  # completion of the player's name
    field.fill("Chloe plays ")
    options = page.eval_on_selector_all("#words option", "list => list.map(o => o.value)")
    assert "Chloe plays 2H" in options  # then of the cards
    field.fill("Chloe plays 2H")
    field.press("Enter")
    expect(page.locator("#notice")).to_contain_text("Chloe plays 2H")
    assert field.input_value() == ""
    screenshot(page, f"serve-text-{name}")
    assert server.path.read_text().endswith("Bob plays KC\nChloe plays 2H\n")
    only_from(page, server)


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_a_fault_is_shown_with_its_rule_and_accepted_by_the_table(served, chromium_page, size, name) -> None:
    server = served(HEADERS + "Alice plays 5H\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    page.locator("#line").fill("Alice slaps")
    page.locator("#entry button").click()
    page.wait_for_selector("#notice .fault")
    assert "BC-FALSE-SLAP" not in page.inner_text("#notice .fault .plain")  # plain words first, the code folded
    page.locator("#notice .fault summary").click()
    shown = page.inner_text("#notice")
    assert "BC-FALSE-SLAP" in shown and "« un joueur qui commet une erreur" in shown
    assert "why: A slap wins the pile" in shown
    screenshot(page, f"serve-fault-{name}")
    assert "slaps" not in server.path.read_text()
    page.locator("#notice button", has_text="Accepted by the table").click()
    page.wait_for_selector("#notice .ok")
    assert server.path.read_text().endswith("Alice slaps ; accepted BC-FALSE-SLAP\n")
    assert page.locator("#line").input_value() == ""  # written: the field is free again
    assert "BC-FALSE-SLAP (accepted)" in page.inner_text(".faults")
    screenshot(page, f"serve-accepted-{name}")
    only_from(page, server)


def test_undo_after_a_confirmation(served, chromium_page) -> None:
    server = served(HEADERS + "Alice plays 5H\nBob plays KC\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    page.locator("form.undo button").click()
    page.wait_for_selector("#notice .confirm")
    assert "Bob plays KC" in page.inner_text("#notice")
    screenshot(page, "serve-undo-ask")
    assert server.path.read_text().endswith("Bob plays KC\n")
    page.locator("#notice button", has_text="Yes, take it back").click()
    page.wait_for_selector("#notice .ok")
    assert "undone: Bob plays KC" in page.inner_text("#notice")
    assert "turn: Bob" in page.inner_text(".turn")
    assert server.path.read_text() == HEADERS + "Alice plays 5H\n"
    screenshot(page, "serve-undone")
    only_from(page, server)


def test_two_pages_see_each_others_moves_live(served, chromium_page) -> None:
    server = served(HEADERS + "Alice plays 5H\n")
    phone, laptop = chromium_page(viewport=PHONE), chromium_page(viewport=LAPTOP)
    for page in (phone, laptop):
        page.goto(server.url)
        page.wait_for_selector("#part-piles svg.card")
    turn_up(phone, "Bob plays KC")
    expect(laptop.locator(".turn")).to_contain_text("Chloe", timeout=EXPECT_WAIT)
    assert laptop.locator("#line").get_attribute("placeholder").startswith("Chloe plays ")  # the example follows
    laptop.locator("#line").fill("plays 2H")
    laptop.locator("#line").press("Enter")
    expect(phone.locator("#part-bar .last")).to_contain_text("Chloe plays 2H", timeout=EXPECT_WAIT)
    screenshot(phone, "serve-live-phone")
    screenshot(laptop, "serve-live-laptop")
    for page in (phone, laptop):
        only_from(page, server)


def test_the_french_page(served, chromium_page) -> None:
    server = served(HEADERS + "Alice plays 5H\nBob plays KC\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    page.locator(".langs a[hreflang=fr]").click()
    page.wait_for_selector("html[lang=fr]")
    screenshot(page, "serve-french")
    assert "à jouer\u00a0: Chloe" in page.inner_text(".turn")
    assert "Coups permis" in page.inner_text(".legal h2")
    assert page.locator('svg.card[aria-label*="roi"]').count() >= 1  # the card faces speak French too
    page.locator("#line").fill("Alice slaps")
    page.locator("#line").press("Enter")
    page.wait_for_selector("#notice .fault")
    assert "Qu'a fait la table" in page.inner_text("#notice")
    screenshot(page, "serve-french-fault")
    only_from(page, server)


def test_a_restart_mid_game(served, chromium_page) -> None:
    server = served(HEADERS + "Alice plays 5H\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    for line in ("Bob plays KC", "Chloe plays 2H"):
        turn_up(page, line)
        expect(page.locator("#notice")).to_contain_text(line)
    started = page.locator("#live").get_attribute("data-start")
    assert server.stop() == 130
    page.wait_for_selector("#offline:not([hidden])", timeout=EXPECT_WAIT)
    screenshot(page, "serve-restart-offline")
    server.start()
    page.wait_for_selector("#offline[hidden]", state="attached", timeout=EXPECT_WAIT)
    # the new server's table taken (its parts come just after the connection: a suit picked
    # before they come is redrawn unpicked)
    page.wait_for_function("s => document.getElementById('live').dataset.start !== s", arg=started, timeout=EXPECT_WAIT)
    assert "Chloe pays 2 more" in page.inner_text(".todo")
    turn_up(page, "Chloe plays 3H")  # the new server counts its changes from 0
    expect(page.locator("#notice")).to_contain_text("Chloe plays 3H")
    expect(page.locator("#part-bar .last")).to_contain_text("Chloe plays 3H")
    expect(page.locator(".todo")).to_contain_text("Chloe pays 1 more")
    screenshot(page, "serve-restart-again")
    assert server.path.read_text().endswith("Alice plays 5H\nBob plays KC\nChloe plays 2H\nChloe plays 3H\n")
    errors = [e for e in page.console_errors if "ERR_CONNECTION_REFUSED" not in e and "events" not in e]
    assert errors == []


def test_a_new_game_from_the_form(served, chromium_page) -> None:
    server = served("")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    page.select_option("#game", "carte-et-plouc")  # the form follows the game chosen
    page.wait_for_selector("form.setup")
    page.locator("#players").fill("Ann Ben Cas")
    screenshot(page, "serve-new-game")
    page.locator("form.setup button").click()
    page.wait_for_selector("#part-bar .turn")
    assert "turn: Ann" in page.inner_text(".turn")
    assert server.path.read_text() == ""  # written with the first move
    page.fill("#line", "Ann plays 5H")
    page.locator("#entry button").click()
    expect(page.locator("#notice .ok")).to_contain_text("Ann plays 5H")
    assert server.path.read_text().startswith('[Game "carte-et-plouc"]\n[Players "Ann Ben Cas"]\n')
    only_from(page, server)


def test_a_move_without_the_script(served, chromium_page) -> None:
    """The forms are plain HTML forms: with scripts off, a move still goes through
    (the browser's own post, with the page's Origin), only the live updates are lost."""
    server = served(HEADERS + "Alice plays 5H\n")
    page = chromium_page(viewport=PHONE, scripts=False)
    page.goto(server.url)
    page.locator("form.moves.first button[value=\"Bob plays KC\"]").click()
    page.wait_for_selector("#notice .ok")
    assert "written: Bob plays KC" in page.inner_text("#notice")
    assert server.path.read_text().endswith("Bob plays KC\n")
    page.locator("#line").fill("Alice slaps")
    page.locator("#line").press("Enter")
    page.wait_for_selector("#notice .fault")
    page.locator("#notice button", has_text="Write it as played").click()
    page.wait_for_selector("#notice .ok")
    assert server.path.read_text().endswith("Bob plays KC\nAlice slaps\n")


GROUPS = ('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "5C"]\n\n'
          "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\n")


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_several_cards_picked_one_by_one(served, chromium_page, size, name) -> None:
    server = served(GROUPS + "Ana holds KC KH KS 4D 9D 8H 2S\n")
    page = chromium_page(viewport=size)
    page.goto(server.url)
    form = page.locator("form.group")
    form.locator("summary").click()
    pick = lambda card: form.locator(f'button.pick[data-card="{card}"]')  # noqa: E731
    write = form.locator("button.write")
    expect(pick("KH")).to_be_disabled()  # the first card first: KH does not fit on 5C
    expect(write).to_be_disabled()
    pick("KC").click()
    expect(write).to_be_enabled()  # KC alone is a play too
    pick("KS").click()
    expect(pick("KS")).to_be_disabled()  # each card once
    expect(form.locator(".play .cards svg")).to_have_count(2)
    pick("KH").click()
    expect(form.locator(".play .cards svg")).to_have_count(3)  # the play as it grows
    screenshot(page, f"serve-group-{name}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], "the page is wider than the screen"
    write.click()
    page.wait_for_selector("#notice .ok")
    assert "written: Ana plays KC KS KH" in page.inner_text("#notice")
    assert server.path.read_text().endswith("Ana plays KC KS KH\n")
    expect(page.locator('form.group input[name="group"]')).to_have_value("Ben")  # Ben's turn now, his cards unknown
    only_from(page, server)


def test_several_aces_name_the_suit_their_last_one_sets(served, chromium_page) -> None:
    server = served(GROUPS + "Ana holds AC AH 4D 9D 8H 2S 3S\n")
    page = chromium_page(viewport=PHONE)
    page.goto(server.url)
    form = page.locator("form.group")
    form.locator("summary").click()
    suits = form.locator(".suits")
    expect(suits).to_be_hidden()
    form.locator('button.pick[data-card="AC"]').click()
    form.locator('button.pick[data-card="AH"]').click()
    expect(suits).to_be_visible()
    expect(form.locator("button.write")).to_be_disabled()  # a suit must be named
    expect(form.locator('button.suit[data-suit="C"]')).to_be_disabled()  # only when going out
    form.locator('button.suit[data-suit="D"]').click()
    expect(form.locator(".play .named")).to_contain_text("diamond")
    screenshot(page, "serve-group-aces-phone")
    form.locator("button.write").click()
    page.wait_for_selector("#notice .ok")
    assert server.path.read_text().endswith("Ana plays AC AH for D\n")
    only_from(page, server)
