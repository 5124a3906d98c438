"""``referee serve``, at the level of HTTP: the page, the lines ruled and written, undo,
the live stream, and every guard (token, Host, Origin, size, rate, escaping)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from referee.files.lock import RecordLock  # noqa: E402
from referee.serve.app import BODY_LIMIT, WRITES_PER_SECOND, make_app  # noqa: E402
from referee.serve.table import Served  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'
ORIGIN = {"origin": "http://testserver"}


def serve(tmp_path: Path, text: str = HEADERS + "Alice plays 5H\n", token: str | None = None,
          clock=time.monotonic) -> tuple[TestClient, Path, object]:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    app, pages = make_app(Served(str(path)), token, None if token else {"testserver"}, clock)
    return TestClient(app), path, pages


def run_async(main):
    """Run a coroutine function in a thread of its own: a running loop (the browser
    tests' Playwright) may hold this one."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def notice(html: str) -> str:
    found = re.search(r'<div id="notice".*?</div>', html, re.S)
    assert found, html
    return found.group()


def test_the_page_shows_the_table_with_its_legal_moves(tmp_path) -> None:
    client, _, _ = serve(tmp_path)
    page = client.get("/")
    assert page.status_code == 200
    assert "turn: Bob" in page.text
    assert 'value="Bob plays KC"' in page.text  # a legal move's button
    sprite = re.search(r'<use href="(/f/\w+\.svg)#card-5H"', page.text)  # the pile's card face, from the deck's faces
    assert sprite
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=\"/serve\.js\")", page.text), "an inline script"
    assert re.findall(r'(?:src|href)="(?!/|#)', page.text) == [], "a resource from elsewhere"


def test_a_legal_line_is_written_and_said_written(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    answer = client.post("/line", data={"line": "Bob plays KC"}, headers=ORIGIN)
    assert answer.status_code == 200
    assert "written: Bob plays KC" in notice(answer.text)
    assert path.read_text().endswith("Alice plays 5H\nBob plays KC\n")


def test_a_line_that_starts_with_a_verb_is_the_next_players(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    client.post("/line", data={"line": "plays KC"}, headers=ORIGIN)
    assert path.read_text().endswith("Bob plays KC\n")


def test_a_fault_is_shown_with_its_rule_and_the_table_chooses(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    before = path.read_text()
    shown = notice(client.post("/line", data={"line": "Alice slaps"}, headers=ORIGIN).text)
    assert "BC-FALSE-SLAP" in shown and "no pair" in shown
    assert "« un joueur qui commet une erreur" in shown  # the rule, quoted in the text's French
    assert "why: A slap wins the pile when the top of the pile shows a pattern" in shown  # the convention
    assert 'value="played"' in shown and 'value="accepted"' in shown and 'value="cancel"' in shown
    assert path.read_text() == before  # nothing written until the table chooses
    client.post("/line", data={"line": "Alice slaps", "choice": "cancel"}, headers=ORIGIN)
    assert path.read_text() == before
    client.post("/line", data={"line": "Alice slaps", "choice": "accepted"}, headers=ORIGIN)
    assert path.read_text().endswith("Alice slaps ; accepted BC-FALSE-SLAP\n")


def test_a_fault_written_as_played(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    client.post("/line", data={"line": "Alice slaps", "choice": "played"}, headers=ORIGIN)
    assert path.read_text().endswith("Alice plays 5H\nAlice slaps\n")


@pytest.mark.parametrize("line, said", [
    ("Zoe plays 5C", "the replay cannot use this line"),
    ("Bob plays KC\nChloe plays 2H", "one line at a time"),
    ('[Result "1-0"]', "headers go at the top"),
    ("Bob dances", "unknown action"),
    ("   ", "type a line of the record"),
])
def test_a_line_the_replay_cannot_use_is_never_written(tmp_path, line, said) -> None:
    client, path, _ = serve(tmp_path)
    before = path.read_text()
    answer = client.post("/line", data={"line": line}, headers=ORIGIN)
    assert answer.status_code == 422
    assert said in notice(answer.text)
    assert path.read_text() == before


def test_undo_asks_then_cuts_the_last_line(tmp_path) -> None:
    client, path, _ = serve(tmp_path, HEADERS + "Alice plays 5H\nBob plays KC  ; a king\n\n")
    asked = notice(client.post("/undo", data={}, headers=ORIGIN).text)
    assert "Take back the last line" in asked and "Bob plays KC  ; a king" in asked
    assert "Bob plays KC" in path.read_text()  # asked, not done
    wrong = client.post("/undo", data={"confirm": "Alice plays 5H"}, headers=ORIGIN)
    assert "the last line is now" in notice(wrong.text)
    assert "Bob plays KC" in path.read_text()
    client.post("/undo", data={"confirm": "Bob plays KC  ; a king"}, headers=ORIGIN)
    assert path.read_text() == HEADERS + "Alice plays 5H\n"
    client.post("/undo", data={"confirm": "Alice plays 5H"}, headers=ORIGIN)
    assert path.read_text() == HEADERS
    nothing = client.post("/undo", data={}, headers=ORIGIN)
    assert "nothing to undo" in notice(nothing.text)
    assert path.read_text() == HEADERS  # the headers stay


def test_the_record_as_text(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    answer = client.get("/record.txt")
    assert answer.text == path.read_text()
    assert answer.headers["content-type"].startswith("text/plain")


# --- Everything a record brings is escaped --------------------------------------------------

HOSTILE = ('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Event "<img src=x onerror=alert(2)>"]\n\n'
           "; <script>alert(3)</script>\n"
           'Alice plays 5H ; "><script>alert(4)</script>\n'
           "Bob slaps ; <script>alert(5)</script>\n")


def test_a_hostile_record_is_escaped(tmp_path) -> None:
    client, _, _ = serve(tmp_path, HOSTILE)
    for html in (client.get("/").text, client.post("/undo", data={}, headers=ORIGIN).text):
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(" in html  # shown, as text


def test_a_hostile_name_is_escaped(tmp_path) -> None:
    client, _, _ = serve(tmp_path, '[Game "bataille-corse"]\n[Players "<script>alert(1)</script> Bob Chloe"]\n\n')
    html = client.get("/").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "cannot be a player" in html
    assert "<script>alert" not in html


def test_a_hostile_name_in_the_new_game_form_is_escaped(tmp_path) -> None:
    client, path, _ = serve(tmp_path, "")
    answer = client.post("/new", data={"game": "bataille-corse", "players": "<script>alert(1)</script> Bob"},
                         headers=ORIGIN)
    assert answer.status_code == 400
    assert "<script>alert" not in answer.text and "&lt;script&gt;" in answer.text
    assert path.read_text() == ""


# --- Nobody in --------------------------------------------------------------------------------

def test_a_token_is_needed_beyond_this_machine(tmp_path) -> None:
    client, path, _ = serve(tmp_path, token="s3cret-token")
    for method, url in (("GET", "/"), ("GET", "/record.txt"), ("GET", "/events"), ("GET", "/serve.js"),
                        ("GET", "/?token=wrong")):
        assert client.request(method, url).status_code == 403, url
    before = path.read_text()
    assert client.post("/line", data={"line": "Bob plays KC"}, headers=ORIGIN).status_code == 403
    assert path.read_text() == before
    entry = client.get("/?token=s3cret-token", follow_redirects=False)
    assert entry.status_code == 303 and entry.headers["location"] == "/"
    assert "httponly" in entry.headers["set-cookie"].lower() and "samesite=strict" in entry.headers["set-cookie"].lower()
    assert client.get("/").status_code == 200  # the cookie carries it from now on
    assert client.post("/line", data={"line": "Bob plays KC"}, headers=ORIGIN).status_code == 200
    assert path.read_text().endswith("Bob plays KC\n")


def test_the_decks_faces_need_the_token_too_and_come_with_its_cookie(tmp_path) -> None:
    """Beyond this machine, the faces document is guarded like the page: refused without
    the token, sent with the cookie the token's entry set (as the page's own requests
    carry it)."""
    client, _, _ = serve(tmp_path, token="s3cret-token")
    client.get("/?token=s3cret-token")
    (address,) = set(re.findall(r'<use href="(/f/\w+\.svg)#', client.get("/").text))
    assert client.get(address).status_code == 200
    client.cookies.clear()
    assert client.get(address).status_code == 403


def test_the_token_is_compared_in_constant_time() -> None:
    source = (ROOT / "referee" / "serve" / "app.py").read_text()
    assert "hmac.compare_digest(" in source


@pytest.mark.parametrize("origin", [None, "http://evil.example", "null", "http://testserver.evil.example"])
def test_a_write_from_another_origin_is_refused(tmp_path, origin) -> None:
    client, path, _ = serve(tmp_path)
    before = path.read_text()
    headers = {"origin": origin} if origin else {}
    answer = client.post("/line", data={"line": "Bob plays KC"}, headers=headers)
    assert answer.status_code == 403 and "does not come from the referee page" in answer.text
    assert path.read_text() == before


def test_another_host_name_is_refused(tmp_path) -> None:
    client, _, _ = serve(tmp_path)
    assert client.get("/", headers={"host": "rebound.example"}).status_code == 421


def test_an_oversized_body_is_refused(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    before = path.read_text()
    big = "line=" + "x" * BODY_LIMIT
    answer = client.post("/line", content=big, headers={**ORIGIN, "content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 413
    chunks = (part for part in [b"line=", b"x" * BODY_LIMIT, b"y"])  # no Content-Length: counted as it comes
    answer = client.post("/line", content=chunks, headers={**ORIGIN, "content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 413
    assert path.read_text() == before


def test_a_client_writes_at_most_twenty_times_a_second(tmp_path) -> None:
    now = [100.0]
    client, _, _ = serve(tmp_path, clock=lambda: now[0])
    codes = [client.post("/undo", data={}, headers=ORIGIN).status_code for _ in range(WRITES_PER_SECOND + 1)]
    assert codes[:-1] == [200] * WRITES_PER_SECOND and codes[-1] == 429
    now[0] += 1.0
    assert client.post("/undo", data={}, headers=ORIGIN).status_code == 200


def test_no_path_comes_from_a_request(tmp_path) -> None:
    client, _, _ = serve(tmp_path)
    (tmp_path / "secret.txt").write_text("secret")
    for url in ("/../secret.txt", "/static/../../secret.txt", "/secret.txt", "/record.txt/../secret.txt",
                "/%2e%2e/secret.txt"):
        answer = client.get(url)
        assert "secret" not in answer.text, url


# --- Everyone at once -------------------------------------------------------------------------

async def _events(app, lines: int):
    """The first ``lines`` events of the live stream, read at the ASGI level."""
    received: asyncio.Queue = asyncio.Queue()
    done = asyncio.Event()
    scope = {"type": "http", "method": "GET", "path": "/events", "raw_path": b"/events", "query_string": b"",
             "headers": [(b"host", b"testserver")], "scheme": "http", "client": ("127.0.0.1", 1), "server": None,
             "http_version": "1.1", "root_path": ""}

    async def receive():
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.body" and message.get("body"):
            await received.put(message["body"].decode())

    task = asyncio.create_task(app(scope, receive, send))
    return task, received, done


def test_every_page_gets_the_table_after_a_line(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n")

    async def main() -> None:
        app, pages = make_app(Served(str(path)), None, {"testserver"})
        streams = [await _events(app, 2) for _ in range(3)]
        for _, received, _ in streams:
            assert (await asyncio.wait_for(received.get(), 5)).startswith("retry:")
            first = await asyncio.wait_for(received.get(), 5)
            assert "event: parts" in first and '"version":0' in first  # the page has the table: its digests only
        pages.served.play("Bob plays KC")
        pages.hub.publish()
        for task, received, done in streams:
            second = await asyncio.wait_for(received.get(), 5)
            assert "turn: Chloe" in second and 'data-version="1"' in second
            done.set()
            pages.hub.close()
            await asyncio.wait_for(task, 5)

    run_async(main)


def test_a_live_update_sends_what_changed_within_10_kb(tmp_path) -> None:
    """A move's live update holds the parts of the page it changed, not the page: at
    most 10 KB for a 4-player game (the whole page was 53 KB), and a page that holds
    them all as the update's digests say."""
    path = tmp_path / "game.txt"
    path.write_text('[Game "bataille-corse"]\n[Players "Ana Ben Cas Dan"]\n\nAna plays 5H\n')

    async def main() -> tuple[str, str, str]:
        app, pages = make_app(Served(str(path)), None, {"testserver"})
        _, received, done = await _events(app, 2)
        await asyncio.wait_for(received.get(), 5)
        first = await asyncio.wait_for(received.get(), 5)
        pages.served.play("Ben plays KC")
        pages.hub.publish()
        second = await asyncio.wait_for(received.get(), 5)
        done.set()
        pages.hub.close()
        return first, second, "".join(pages.live("en").values())

    first, second, page = run_async(main)
    assert len(second.encode()) <= 10 * 1024
    assert 'id="part-words"' not in second  # unchanged: not sent again
    head = json.loads(second.split("\n")[1].removeprefix("data: "))
    assert head["version"] == 1 and "turn: Cas" in second
    assert 'id="part-bar"' in second and 'id="part-sym-card-5H"' not in second  # the 5H face was sent before
    for name, digest in head["h"].items():  # every part the page holds after it, as the digests say
        assert f'data-h="{digest}"' in page


def test_two_lines_at_once_are_ruled_one_after_the_other(tmp_path) -> None:
    import httpx2

    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n")

    async def main() -> list[str]:
        app, _ = make_app(Served(str(path)), None, {"testserver"})
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://testserver") as client:
            answers = await asyncio.gather(*(client.post("/line", data={"line": line}, headers=ORIGIN)
                                             for line in ("Bob plays KC", "Bob plays 7S")))
        return [notice(a.text) for a in answers]

    first, second = run_async(main)
    assert "written: Bob plays KC" in first
    assert "BC-" in second and "written" not in second  # ruled on the table after the king: not Bob's turn
    assert path.read_text().endswith("Alice plays 5H\nBob plays KC\n")


# --- A new game -------------------------------------------------------------------------------

def test_a_new_game_from_the_form(tmp_path) -> None:
    client, path, _ = serve(tmp_path, "")
    assert "A new game" in client.get("/").text
    form = client.get("/?game=carte-et-plouc").text
    assert 'name="players"' in form and 'name="option.Variants"' in form
    bad = client.post("/new", data={"game": "bataille-corse", "players": "Alice"}, headers=ORIGIN)
    assert bad.status_code == 400 and path.read_text() == ""
    assert 'value="Alice"' in bad.text  # what was typed is kept
    good = client.post("/new", data={"game": "bataille-corse", "players": "Alice, Bob Chloe", "option.Penalty": "give-1"},
                       headers=ORIGIN, follow_redirects=False)
    assert good.status_code == 303
    assert path.read_text() == ""  # the headers are written with the first move
    assert "turn: Alice" in client.get("/").text  # a page loaded before it shows the game started
    client.post("/line", data={"line": "Alice plays 5H"}, headers=ORIGIN)
    text = path.read_text()
    assert text.startswith('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Penalty "give-1"]\n[Date "')
    assert text.endswith('"]\n\nAlice plays 5H\n')


def test_the_language_is_chosen_on_the_page(tmp_path) -> None:
    client, _, _ = serve(tmp_path)
    switched = client.get("/?lang=fr", follow_redirects=False)
    assert switched.status_code == 303 and "referee_lang=fr" in switched.headers["set-cookie"]
    french = client.get("/").text
    assert '<html lang="fr">' in french
    assert "à jouer\u00a0: Bob" in french and "Coups permis" in french and "Arbitrer" in french
    assert 'aria-label="5 de cœur"' in french  # the card faces speak French too
    flagged = notice(client.post("/line", data={"line": "Alice slaps"}, headers=ORIGIN).text)
    assert "fait la table" in flagged and "BC-FALSE-SLAP" in flagged and "Alice" in flagged
    assert "but the pile" not in flagged  # the violation's message in French too
    english = client.get("/?lang=en", follow_redirects=True).text
    assert '<html lang="en">' in english and "turn: Bob" in english


# --- The command ------------------------------------------------------------------------------

def _start(path: Path, *args: str) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(path), "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = process.stdout.readline()
    found = re.search(r"http://\S+", line)
    assert found, line + process.stderr.read()
    return process, found.group()


def test_the_command_prints_its_port_and_stops_on_ctrl_c(tmp_path) -> None:
    import httpx2

    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n")
    process, url = _start(path)
    try:
        assert not url.endswith(":0/") and url.startswith("http://127.0.0.1:")
        assert httpx2.get(url).status_code == 200
        httpx2.post(url + "line", data={"line": "Bob plays KC"}, headers={"origin": url.rstrip("/")})
        from referee.files.lock import LockHeld

        with pytest.raises(LockHeld, match="serve"):  # the record's writing lock is held, and says by whom
            with RecordLock(str(path), "play"):
                pass
        second = subprocess.run([sys.executable, "-m", "referee", "serve", str(path), "--port", "0"], capture_output=True,
                                text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=30)
        assert second.returncode == 2 and "serve" in second.stderr and "Traceback" not in second.stderr
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert path.read_text().endswith("Bob plays KC\n")


def test_the_command_beyond_this_machine_shows_a_token_and_a_qr_code(tmp_path) -> None:
    import httpx2

    path = tmp_path / "game.txt"
    path.write_text(HEADERS)
    process, url = _start(path, "--host", "0.0.0.0")
    try:
        token = re.search(r"\?token=([\w-]{20,})", url)
        assert token, url
        local = re.sub(r"//[^/]+", "//127.0.0.1:" + url.split(":")[2].split("/")[0], url)
        assert httpx2.get(local.split("?")[0]).status_code == 403
        assert httpx2.get(local, follow_redirects=True).status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=15)
    assert "▀" in out or "█" in out  # the QR code


def test_serve_is_refused_while_another_writer_holds_the_record(tmp_path, capsys) -> None:
    from referee.serve import run

    path = tmp_path / "game.txt"
    path.write_text(HEADERS)
    with RecordLock(str(path), "play"):
        assert run(str(path), "127.0.0.1", 0) == 2
    assert "play" in capsys.readouterr().err


def test_a_record_that_cannot_be_read_is_said_at_start(tmp_path, capsys) -> None:
    from referee.serve import run

    path = tmp_path / "game.txt"
    path.write_text('[Game "bataille-corse"]\n[Players "Alice"]\n\n')
    assert run(str(path), "127.0.0.1", 0) == 2
    assert "game.txt" in capsys.readouterr().err


def test_the_web_stack_is_not_imported_by_the_command_line() -> None:
    found = subprocess.run([sys.executable, "-X", "importtime", "-c", "import referee.cli"], capture_output=True,
                           text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True).stderr
    modules = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in found.splitlines() if "|" in line}
    assert not modules & {"starlette", "uvicorn", "jinja2", "segno", "httpx", "httpx2", "anyio", "playwright"}
    assert "referee.serve" not in found


def test_a_server_killed_outright_leaves_the_record_to_the_next(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n")
    process, _ = _start(path)
    process.kill()  # no Ctrl-C: the system drops the lock with the process
    process.communicate(timeout=15)
    again, url = _start(path)
    try:
        import httpx2

        assert "turn: Bob" in httpx2.get(url).text
    finally:
        again.send_signal(signal.SIGINT)
        again.communicate(timeout=15)
    assert again.returncode == 130


def test_a_port_taken_is_said(tmp_path, capsys) -> None:
    import socket

    from referee.serve import run

    path = tmp_path / "game.txt"
    path.write_text(HEADERS)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        assert run(str(path), "127.0.0.1", taken.getsockname()[1]) == 2
    assert "cannot listen on 127.0.0.1 port" in capsys.readouterr().err


def test_the_browsers_language_by_default(tmp_path) -> None:
    client, _, _ = serve(tmp_path)
    assert '<html lang="fr">' in client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"}).text
    assert '<html lang="en">' in client.get("/", headers={"accept-language": "de-DE"}).text


def test_a_record_changed_by_another_hand_is_read_again(tmp_path) -> None:
    client, path, _ = serve(tmp_path)
    assert "turn: Bob" in client.get("/").text
    with open(path, "a", encoding="utf-8") as file:  # an editor, which the writing lock cannot stop
        file.write("Bob plays KC\n")
    assert "turn: Chloe" in client.get("/").text
    client.post("/line", data={"line": "Chloe plays 2H"}, headers=ORIGIN)
    assert path.read_text().endswith("Bob plays KC\nChloe plays 2H\n")


def test_without_the_extra_the_command_says_what_to_install(tmp_path, monkeypatch, capsys) -> None:
    from referee.serve import run

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if referee[serve] were not installed
    path = tmp_path / "game.txt"
    path.write_text(HEADERS)
    assert run(str(path), "127.0.0.1", 0) == 2
    assert "pip install '.[serve]' in referee's folder" in capsys.readouterr().err


# --- Several cards of one value, picked one by one -------------------------------------------

GROUPS = ('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "5C"]\n\n'
          "Ben holds ?? ?? ?? ?? ?? ?? ??\nCas holds ?? ?? ?? ?? ?? ?? ??\n")


def group_form(html: str) -> str:
    found = re.search(r'<form[^>]*class="group.*?</form>', html, re.S)
    assert found, html
    return found.group()


def groups_in(form: str) -> list[dict]:
    """The groups the page's script is given (data-groups)."""
    import html
    import json

    found = re.search(r"data-groups='([^']*)'", form)
    assert found, form
    return json.loads(html.unescape(found.group(1)))


def test_a_play_of_several_cards_is_offered_as_a_choice(tmp_path) -> None:
    client, _, _ = serve(tmp_path, GROUPS + "Ana holds KC KH KS 4D 9D 8H 2S\n")
    form = group_form(client.get("/").text)
    assert 'name="group" value="Ana"' in form
    assert re.findall(r'data-card="(\w+)"', form) == ["KC", "KH", "KS"]
    (group,) = groups_in(form)  # the group, for the script
    assert (group["player"], group["first"], group["more"], group["hand"]) == ("Ana", "KC", ["KH", "KS"], 7)
    assert 'class="suits' not in form  # kings name no suit


@pytest.mark.parametrize("cards, suit", [("KC KS KH", ""), ("KC KH", ""), ("KC", "")])
def test_a_play_picked_card_by_card_is_written(tmp_path, cards, suit) -> None:
    client, path, _ = serve(tmp_path, GROUPS + "Ana holds KC KH KS 4D 9D 8H 2S\n")
    answer = client.post("/line", data={"group": "Ana", "cards": cards, "suit": suit}, headers=ORIGIN)
    assert answer.status_code == 200 and f"written: Ana plays {cards}" in notice(answer.text)
    assert path.read_text().endswith(f"Ana plays {cards}\n")


@pytest.mark.parametrize("group, cards, suit", [
    ("Ana", "KH KC", ""),  # KH does not fit: no group opens with it
    ("Ana", "KC KH KH", ""),  # each card once
    ("Ana", "KC 4D", ""),  # another value
    ("Ana", "KC KH", "S"),  # kings name no suit
    ("Ana", "KC KH", "X"),  # no suit
    ("Ana", "KC ZZ", ""),  # no card
    ("Ana", "", ""),  # no cards at all
    ("Ben", "KC KH", ""),  # not Ben's
])
def test_a_play_the_choice_does_not_allow_is_refused_unwritten(tmp_path, group, cards, suit) -> None:
    client, path, _ = serve(tmp_path, GROUPS + "Ana holds KC KH KS 4D 9D 8H 2S\n")
    before = path.read_text()
    answer = client.post("/line", data={"group": group, "cards": cards, "suit": suit}, headers=ORIGIN)
    assert answer.status_code == 422 and "cannot be laid together now" in notice(answer.text)
    assert path.read_text() == before


def test_a_play_of_aces_names_the_suit_its_last_ace_sets(tmp_path) -> None:
    client, path, _ = serve(tmp_path, GROUPS + "Ana holds AC AH 4D 9D 8H 2S 3S\n")
    form = group_form(client.get("/").text)
    assert re.findall(r'data-suit="(\w*)"', form) == ["S", "H", "D", "C", ""]  # C and none: only going out
    (group,) = groups_in(form)
    assert group["suits"] == ["S", "H", "D"]  # the page offers only these now
    for suit in ("", "C"):
        refused = client.post("/line", data={"group": "Ana", "cards": "AC AH", "suit": suit}, headers=ORIGIN)
        assert refused.status_code == 422
    answer = client.post("/line", data={"group": "Ana", "cards": "AC AH", "suit": "D"}, headers=ORIGIN)
    assert "written: Ana plays AC AH for D" in notice(answer.text)
    assert path.read_text().endswith("Ana plays AC AH for D\n")


def test_the_choice_in_french_sends_its_cards_in_english_letters(tmp_path) -> None:
    client, path, _ = serve(tmp_path, GROUPS + "Ana holds AC AH 4D 9D 8H 2S 3S\n")
    client.get("/?lang=fr")
    form = group_form(client.get("/").text)
    assert "Plusieurs cartes de même valeur" in form and "Le dernier as demande\u00a0:" in form
    assert ">carreau</button>" in form and 'data-card="AH"' in form
    answer = client.post("/line", data={"group": "Ana", "cards": "AC AH", "suit": "C"}, headers=ORIGIN)
    assert "ne peuvent pas être posées ensemble" in notice(answer.text)


def test_a_new_carte_et_plouc_game_shows_its_table(tmp_path) -> None:
    """Every hand unknown: legal() offers groups at once (the page once failed on them,
    and the browser's new game waited for a table that never came)."""
    client, path, _ = serve(tmp_path, "")
    good = client.post("/new", data={"game": "carte-et-plouc", "players": "Ann Ben Cas"}, headers=ORIGIN,
                       follow_redirects=False)
    assert good.status_code == 303 and path.read_text() == ""
    page = client.get("/")
    assert page.status_code == 200 and "turn: Ann" in page.text
    assert 'name="group" value="Ann"' in group_form(page.text)


CALLS = ('[Game "carte-et-plouc"]\n[Players "Ana Ben Cas"]\n[Starter "5H"]\n\n'
         "Ana plays QH QS QD QC\nAna plays 8C\nBen plays 8D\nCas plays 9D\nAna plays 9H\n")


def test_a_call_due_comes_first_and_once_said_is_not_offered_again(tmp_path) -> None:
    client, path, _ = serve(tmp_path, CALLS)
    page = client.get("/").text
    assert '<button name="line" value="Ana says carte" class="call">' in page  # due: marked so
    client.post("/line", data={"line": "Ana says carte"}, headers=ORIGIN)
    assert path.read_text().endswith("Ana says carte\n")
    assert 'value="Ana says carte"' not in client.get("/").text  # said: not offered again


def test_a_new_game_offers_each_options_values_and_the_card_turned_up(tmp_path) -> None:
    client, path, _ = serve(tmp_path, "")
    form = client.get("/?game=carte-et-plouc").text
    assert '<option value="" selected>none (default)</option>' in form and '<option value="zouzou">zouzou</option>' in form
    assert 'type="checkbox" name="option.Variants" value="six"' in form  # a set of choices: a box each
    assert '<select id="turned" name="turned">' in form and '<option value="QH">queen of hearts</option>' in form
    refused = client.post("/new", data={"game": "carte-et-plouc", "players": "Ann Ben", "turned": "ZZ"}, headers=ORIGIN)
    assert refused.status_code == 400 and "ZZ is no card of this game" in refused.text and path.read_text() == ""
    client.post("/new", data={"game": "carte-et-plouc", "players": "Ann Ben", "turned": "QH",
                              "option.Variants": "six"}, headers=ORIGIN)
    client.post("/line", data={"line": "Ann plays 5H"}, headers=ORIGIN)
    text = path.read_text()
    assert '[Starter "QH"]' in text and '[Variants "six"]' in text and "[Sanction" not in text  # a default: no header


def test_a_french_and_an_english_reader_get_their_own_words_from_one_replay(tmp_path, monkeypatch) -> None:
    from markupsafe import escape

    from referee import live, state
    from referee.engine import check
    from referee.messages import speaking
    from referee.notation import parse_text

    text = HEADERS + "Alice plays 5H\nChloe plays 6C\n"  # Chloe out of turn: a fault on the page
    client, _, _ = serve(tmp_path, text)
    replays = {"check": 0, "state": 0}
    last, rules_at = live.Replayer.last, state.rules_at

    def counted_last(self, *args, **kwargs):
        replays["check"] += 1
        return last(self, *args, **kwargs)

    def counted_rules_at(*args, **kwargs):
        replays["state"] += 1
        return rules_at(*args, **kwargs)

    monkeypatch.setattr(live.Replayer, "last", counted_last)
    monkeypatch.setattr(state, "rules_at", counted_rules_at)
    french = client.get("/", headers={"accept-language": "fr"}).text
    english = client.get("/", headers={"accept-language": "en"}).text
    assert replays == {"check": 1, "state": 0}  # one replay for both readers, its state taken from its last checkpoint
    (record,) = parse_text(text)
    (fault,) = check(record).violations
    for page, lang in ((french, "fr"), (english, "en")):
        with speaking(lang):
            assert str(escape(fault.message)) in page, (lang, fault.message)
    assert "BC-OUT-OF-TURN" in french and "au tour de Bob" in french and "Bob's turn" not in french


def test_caroletos_trumps_and_excuse_are_picked_by_their_name_in_the_pages_language(tmp_path) -> None:
    client, _, _ = serve(tmp_path, '[Game "caroleto"]\n[Players "Pierre Alice Cas"]\n\nPierre says roi\n')
    for lang, trumps, excuse in (("en", "trumps", "Excuse"), ("fr", "atouts", "Excuse")):
        page = client.get("/", headers={"accept-language": lang}).text
        picks = re.findall(r'<button type="button" class="suit-pick suit-(\w)"[^>]*>([^<]*)</button>', page)
        assert picks[:6] == [("S", "\u2660"), ("H", "\u2665"), ("D", "\u2666"), ("C", "\u2663"), ("T", trumps),
                             ("X", excuse)]
        names = json.loads(re.search(r"data-suits='([^']*)'", page).group(1))
        assert (names["T"], names["X"]) == (trumps, excuse)  # what the script names them by in a live update


def test_a_new_games_headers_are_written_with_its_first_move_by_a_real_server(tmp_path) -> None:
    """Nothing on the disk at "Start": the headers are held by the server (a page loaded
    then shows the game started, a page that listens is sent it), and written with the
    first line, in one write; a line refused writes nothing either."""
    import httpx2

    path = tmp_path / "game.txt"
    process, url = _start(path)
    origin = {"origin": url.rstrip("/")}
    try:
        with httpx2.Client(timeout=10) as client:
            with client.stream("GET", url + "events") as stream:
                lines = stream.iter_lines()
                assert "event: new" in [next(lines) for _ in range(3)]  # a page on the form: no game yet
                started = client.post(url + "new", data={"game": "bataille-corse", "players": "Ana Ben Cas"},
                                      headers=origin, follow_redirects=False)
                assert started.status_code == 303
                for _ in range(20):
                    if next(lines) == "event: parts":
                        break
                assert next(lines).startswith('data: {"version":')  # the game started, sent to the page that listens
            assert path.read_text() == ""
            page = client.get(url).text  # a page loaded (or reloaded) between Start and the first move
            assert "turn: Ana" in page and "A new game" not in page
            assert client.get(url + "record.txt").text == ""
            refused = client.post(url + "line", data={"line": "Ben plays 5H"}, headers=origin)
            assert "BC-" in refused.text and path.read_text() == ""  # flagged: nothing written
            client.post(url + "line", data={"line": "Ana plays 5H"}, headers=origin)
            text = path.read_text()
            assert text.startswith('[Game "bataille-corse"]\n[Players "Ana Ben Cas"]\n[Date "')
            assert text.endswith('"]\n\nAna plays 5H\n') and text.count("[Game") == 1
            assert "turn: Ben" in client.get(url).text
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=15)


def test_the_decks_faces_are_one_document_the_browser_keeps(tmp_path) -> None:
    """Every face of the game's deck comes from one SVG document, fetched once and kept
    for good (its address changes with its drawing): a live update sends no face."""
    client, _, pages = serve(tmp_path, '[Game "bataille-corse"]\n[Players "Ana Ben Cas Dan"]\n\nAna plays 5H\n')
    page = client.get("/").text
    (address,) = set(re.findall(r'<use href="(/f/\w+\.svg)#', page))
    assert "<symbol" not in page  # no face in the page itself
    faces = client.get(address)
    assert faces.status_code == 200 and faces.headers["content-type"].startswith("image/svg+xml")
    assert "immutable" in faces.headers["cache-control"] and "no-store" not in faces.headers["cache-control"]
    assert faces.text.count("<symbol id=\"card-") == 53 and 'id="card-back"' in faces.text  # 52 and a card face down
    assert "no-store" in client.get("/").headers["cache-control"]  # the page itself: never kept
    assert client.get("/f/00000000.svg").status_code == 404
    french = client.get("/", headers={"accept-language": "fr"}).text
    assert re.search(r'<use href="(/f/\w+\.svg)#', french).group(1) != address  # the French faces (V, D, R)


@pytest.mark.parametrize("game, seed, moves", [("caroleto", 2, 60), ("carte-et-plouc", 3, 60), ("flaschenteufel", 1, 40)])
def test_every_moves_live_update_in_a_4_player_game_is_within_10_kb(tmp_path, game, seed, moves) -> None:
    """Hands unknown, as at a real table: Caroleto's 16 pickers at once (57 KB when each
    card was a button), Carte et Plouc's 48 faces and its several cards laid together (23
    KB), a Flaschenteufel card's face seen first (20 KB): the buttons go as lists the
    page's script makes, and the faces come from the deck's document."""
    from referee.serve.app import _event
    from referee.simulate import simulate

    lines = simulate(game, 4, seed, hidden=True, max_events=400).split("\n")
    path = tmp_path / "game.txt"
    path.write_text("\n".join(line for line in lines if line.startswith("[")) + "\n")
    _, pages = make_app(Served(str(path)), None, {"testserver"})
    shown, sizes = pages.live("en"), []
    for line in [line for line in lines if line and not line.startswith(("[", ";"))][:moves]:
        assert pages.served.play(line, "played").kind == "written", line
        sizes.append(len(_event(pages.changes("en", shown)).encode()))
        shown = {**shown, **pages.live("en")}
    assert max(sizes) <= 10 * 1024, sorted(sizes)[-5:]


def test_a_file_written_by_another_hand_before_the_first_move_is_its_game(tmp_path) -> None:
    """A game started and not played is held by the server only: a record another hand
    writes meanwhile is the file's game, and the move chosen on the held one is refused."""
    client, path, _ = serve(tmp_path, "")
    client.post("/new", data={"game": "bataille-corse", "players": "Ana Ben"}, headers=ORIGIN)
    table = re.search(r'data-table="([^"]*)"', client.get("/").text).group(1)
    path.write_text(HEADERS + "Alice plays 5H\n")  # an editor's save
    answer = client.post("/line", data={"line": "Ana plays 5H", "table": table}, headers=ORIGIN)
    assert answer.status_code == 409 and path.read_text() == HEADERS + "Alice plays 5H\n"
    assert "turn: Bob" in client.get("/").text


def test_a_decks_rows_sent_once_are_referred_to_as_the_page_reads_them(tmp_path) -> None:
    """In an update, a deck's rows already written out are sent as "#n": the n-th rows
    written out in the part (what the page's script reads); each is the deck's own."""
    from referee.simulate import simulate

    lines = simulate("caroleto", 4, 2, hidden=True, max_events=400).split("\n")
    played = [i for i, line in enumerate(lines) if line and not line.startswith(("[", ";"))]
    _, _, pages = serve(tmp_path, "\n".join(lines[:played[13]]) + "\n")
    sent = re.findall(r'class="deck" data-pattern="[^"]*" data-rows="([^"]*)"', pages.live("en")["legal"])
    full = re.findall(r'class="deck" data-pattern="[^"]*" data-rows="([^"]*)"', pages.page_parts("en")["legal"])
    written = [rows for rows in sent if not rows.startswith("#")]
    assert len(sent) == len(full) > len(written) > 0  # some sent once, referred to after
    assert [written[int(rows[1:])] if rows.startswith("#") else rows for rows in sent] == full
def test_a_line_flagged_and_not_written_is_not_the_last_line_to_undo(tmp_path) -> None:
    """The record's line ruled at its end but not written (the table must choose) leaves
    the record as it was: the line undo offers is still the last one written (the live
    record's replayer, which rules the line on the text with it, is not what the page reads)."""
    from referee.serve.table import Served

    path = tmp_path / "r.txt"
    path.write_text(HEADERS + "Alice plays 5H\n", encoding="utf-8")
    served = Served(str(path))
    ruling = served.play("Chloe plays 6C")  # out of turn: flagged
    assert ruling.kind == "flagged"
    assert served.last_line() == "Alice plays 5H"
    assert served.session().state is not None and "Chloe" not in (served.session().text.splitlines()[-1])


def test_a_game_the_replay_stopped_following_offers_no_move_and_says_why(tmp_path) -> None:
    """The page of a game given up (engine.LOST_FAULTED: 30 false slaps in a row) asks for
    the record to be mended, and offers nothing from the table where the replay stopped:
    not "the game is over"."""
    client, _, _ = serve(tmp_path, HEADERS + "Alice plays 5H\n" + "Bob slaps\n" * 35)
    page = client.get("/").text
    legal = re.search(r'<div id="part-legal".*?</section>', page, re.S).group()
    assert "nothing: the replay stopped following the game at line 34; undo back to the slip, or mend the record" in legal
    assert "the game is over" not in page and 'value="Bob plays' not in page
    assert "mend the record before line 34" in page
