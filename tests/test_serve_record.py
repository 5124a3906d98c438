"""The record under ``referee serve`` while other hands touch it: an editor saving the file
in each of the usual ways, a move chosen on a table that is no more, a double tap, a hard
link, a line that cannot be read, and the signals that stop the server (issue 33)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from referee.files.lock import LockHeld, RecordLock, lock_path  # noqa: E402
from referee.serve.app import make_app  # noqa: E402
from referee.serve.table import Served  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'
ORIGIN = {"origin": "http://testserver"}


def serve(path: Path, text: str = HEADERS + "Alice plays 5H\n") -> tuple[TestClient, object]:
    path.write_text(text, encoding="utf-8")
    app, pages = make_app(Served(str(path)), None, {"testserver"})
    return TestClient(app), pages


def table(html: str) -> str:
    """The table a page shows, as its moves send it back."""
    found = re.search(r'id="live" data-version="\d+" data-start="\w+" data-table="([\w-]+)"', html)
    assert found, html
    return found.group(1)


def rename_over(path: Path, text: str) -> None:
    """How most editors save: a new copy, renamed over the old file."""
    copy = path.with_name(".copy")
    copy.write_text(text, encoding="utf-8")
    os.replace(copy, path)


def write_in_place(path: Path, text: str) -> None:
    with open(path, "r+", encoding="utf-8") as file:
        file.write(text)


def truncate_and_write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("save", [rename_over, write_in_place, truncate_and_write])
def test_a_move_after_an_editor_saved_the_file_goes_into_the_file_saved(tmp_path, save) -> None:
    path = tmp_path / "ed.txt"
    client, _ = serve(path)
    assert "turn: Bob" in client.get("/").text
    save(path, HEADERS + "Alice plays 5H\nBob plays KC ; an editor's line\n")
    assert "turn: Chloe" in client.get("/").text  # the file the name leads to now, read
    answer = client.post("/line", data={"line": "Chloe plays 2H"}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    assert path.read_text() == HEADERS + "Alice plays 5H\nBob plays KC ; an editor's line\nChloe plays 2H\n"
    assert client.get("/record.txt").text == path.read_text()


def test_a_move_chosen_before_an_editor_saved_is_refused_and_the_new_table_shown(tmp_path) -> None:
    path = tmp_path / "ed.txt"
    client, _ = serve(path)
    seen = table(client.get("/").text)
    rename_over(path, HEADERS + "Alice plays 5H\nBob plays KC\n")
    answer = client.post("/line", data={"line": "Bob plays 3S", "table": seen}, headers=ORIGIN)
    assert answer.status_code == 409
    assert "the record changed" in answer.text and "turn: Chloe" in answer.text
    assert path.read_text() == HEADERS + "Alice plays 5H\nBob plays KC\n"


def test_a_move_is_never_written_to_a_file_that_lost_its_name(tmp_path) -> None:
    path = tmp_path / "ed.txt"
    client, _ = serve(path)
    path.unlink()
    answer = client.post("/line", data={"line": "Bob plays KC"}, headers=ORIGIN)
    assert answer.status_code == 422 and "no longer there" in answer.text
    assert not path.exists()


def test_a_double_tap_writes_once_and_says_already_written(tmp_path) -> None:
    path = tmp_path / "game.txt"
    client, _ = serve(path)
    move = {"line": "Bob plays KC", "table": table(client.get("/").text)}
    first = client.post("/line", data=move, headers=ORIGIN)
    second = client.post("/line", data=move, headers=ORIGIN)
    assert "written: Bob plays KC" in first.text
    assert second.status_code == 200 and "already written: Bob plays KC" in second.text
    assert "CP-OUT-OF-TURN" not in second.text and "REC-DUPLICATE-CARD" not in second.text
    assert path.read_text().count("Bob plays KC") == 1


def test_the_fault_panel_of_a_double_tap_writes_nothing_twice(tmp_path) -> None:
    path = tmp_path / "game.txt"
    client, _ = serve(path)
    seen = table(client.get("/").text)
    client.post("/line", data={"line": "Bob plays KC", "table": seen}, headers=ORIGIN)
    played = {"line": "Bob plays KC", "choice": "played", "table": seen}
    assert "already written" in client.post("/line", data=played, headers=ORIGIN).text
    assert path.read_text().count("Bob plays KC") == 1


def test_a_move_chosen_before_the_server_restarted_is_written_on_the_same_table(tmp_path) -> None:
    path = tmp_path / "game.txt"
    client, _ = serve(path)
    seen = table(client.get("/").text)
    again, _ = serve(path, path.read_text())  # another run of the server, on the same record
    answer = again.post("/line", data={"line": "Bob plays KC", "table": seen}, headers=ORIGIN)
    assert answer.status_code == 200 and "written: Bob plays KC" in answer.text
    stale = again.post("/line", data={"line": "Chloe plays 2H", "table": "0-00000000"}, headers=ORIGIN)
    assert stale.status_code == 409 and "Chloe plays 2H" not in path.read_text()


def test_the_page_carries_its_table_in_every_move(tmp_path) -> None:
    client, _ = serve(tmp_path / "game.txt")
    page = client.get("/").text
    seen = table(page)
    forms = re.findall(r'<form method="post" action="/line" class="moves.*?</form>', page, re.S)
    assert forms and all(f'name="table" value="{seen}"' in f for f in forms)


def test_a_new_record_is_held_through_its_other_names(tmp_path) -> None:
    path = tmp_path / "nw.txt"
    process = _start(path)  # a new file: made by the server
    try:
        os.link(path, tmp_path / "nw2.txt")
        second = subprocess.run([sys.executable, "-m", "referee", "serve", str(tmp_path / "nw2.txt"), "--port", "0"],
                                capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=30)
        assert second.returncode == 2 and "being written by another session" in second.stderr
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)


def test_a_file_saved_by_rename_is_held_by_the_lock(tmp_path) -> None:
    path = tmp_path / "ed.txt"
    path.write_text(HEADERS)
    with RecordLock(str(path), "serve") as lock:
        served = Served(str(path), lock=lock)
        rename_over(path, HEADERS + "Alice plays 5H\n")
        assert served.refresh()
        os.link(path, tmp_path / "other.txt")
        with pytest.raises(LockHeld):
            with RecordLock(str(tmp_path / "other.txt"), "play"):
                pass


def test_a_line_that_cannot_be_read_leaves_the_page_usable(tmp_path) -> None:
    path = tmp_path / "served.txt"
    client, _ = serve(path)
    with open(path, "a", encoding="utf-8") as file:
        file.write("Zorg frobnicates 99X\n")
    page = client.get("/")
    assert page.status_code == 200
    assert "Zorg frobnicates 99X" in page.text and 'action="/undo"' in page.text
    asked = client.post("/undo", data={}, headers=ORIGIN)
    assert asked.status_code == 200 and 'name="confirm" value="Zorg frobnicates 99X"' in asked.text
    done = client.post("/undo", data={"confirm": "Zorg frobnicates 99X"}, headers=ORIGIN)
    assert done.status_code == 200 and "Traceback" not in done.text
    assert path.read_text() == HEADERS + "Alice plays 5H\n"
    assert "turn: Bob" in client.get("/").text


def test_bytes_that_are_not_utf8_never_answer_500(tmp_path) -> None:
    path = tmp_path / "served.txt"
    client, _ = serve(path)
    with open(path, "ab") as file:
        file.write(b"x \xff\n")
    assert client.get("/record.txt").status_code == 200
    assert "\ufffd" in client.get("/record.txt").text
    for answer in (client.get("/"), client.post("/undo", data={}, headers=ORIGIN),
                   client.post("/line", data={"line": "Bob plays KC"}, headers=ORIGIN)):
        assert answer.status_code < 500 and "Traceback" not in answer.text
    assert client.post("/undo", data={"confirm": "x \ufffd"}, headers=ORIGIN).status_code == 200
    assert path.read_bytes() == (HEADERS + "Alice plays 5H\n").encode()


def _outside_edit_seen(path: Path, edit: Callable[[], None], wait: float) -> list[str]:
    """The first two events of a page's stream, then the one after ``edit``."""
    path.write_text(HEADERS + "Alice plays 5H\n")
    served = Served(str(path))
    _, pages = make_app(served, None, {"testserver"})

    async def main() -> list[str]:
        stream = pages._stream("en")
        seen = [await anext(stream), await anext(stream)]  # retry:, then the table
        await asyncio.sleep(0.2)  # the watch under way
        edit()
        seen.append(await asyncio.wait_for(anext(stream), wait))
        pages.hub.close()
        await stream.aclose()
        return seen

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def _append(path: Path) -> Callable[[], None]:
    def edit() -> None:
        with open(path, "a", encoding="utf-8") as file:
            file.write("Bob plays KC\n")
    return edit


def _save_by_rename(path: Path) -> Callable[[], None]:
    def edit() -> None:
        copy = path.with_name(".game.txt.swp")
        copy.write_text(path.read_text() + "Bob plays KC\n")
        os.replace(copy, path)
    return edit


@pytest.mark.parametrize("edit", [_append, _save_by_rename])
def test_an_outside_edit_reaches_the_open_pages_without_a_request(tmp_path, monkeypatch, edit) -> None:
    from referee.serve import watch

    monkeypatch.setenv("REFEREE_WATCH", "poll")
    path = tmp_path / "game.txt"
    seen = _outside_edit_seen(path, edit(path), 3 * watch.POLL_EVERY + 1)
    assert '"version":0' in seen[1] and "turn: Chloe" in seen[2]


@pytest.mark.parametrize("edit", [_append, _save_by_rename])
def test_the_system_tells_the_page_of_an_outside_edit(tmp_path, monkeypatch, edit) -> None:
    """With watchfiles, the notice comes from the system: no look is due for a minute."""
    from referee.serve import watch

    monkeypatch.delenv("REFEREE_WATCH", raising=False)
    monkeypatch.setattr(watch, "POLL_EVERY", 60.0)
    monkeypatch.setattr(watch, "LOOK_EVERY_MS", 60_000)
    assert watch.how() == "watchfiles"
    path = tmp_path / "game.txt"
    seen = _outside_edit_seen(path, edit(path), 10)
    assert "turn: Chloe" in seen[2]


def _start(path: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(path), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "http://" in line, line + (process.stderr.read() if process.stderr else "")
    return process


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_signal_stops_the_server_as_ctrl_c_does(tmp_path, sig, status) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS)
    process = _start(path)
    assert os.path.exists(lock_path(path))
    process.send_signal(sig)
    out, err = process.communicate(timeout=20)
    assert process.returncode == status, err
    assert "stopped" in out and "Traceback" not in err
    assert not os.path.exists(lock_path(path))


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_stops_play_as_ctrl_c_does(tmp_path, sig, status) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "referee", "play", str(path)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None
    said = b""
    while not said.endswith(b"Bob> "):  # the prompt: the session is waiting for a line
        byte = process.stdout.read(1)
        assert byte, said
        said += byte
    assert os.path.exists(lock_path(path))
    process.send_signal(sig)
    _, err = process.communicate(timeout=20)
    assert process.returncode == status, err
    assert b"Traceback" not in err
    assert not os.path.exists(lock_path(path))
    assert path.read_text() == HEADERS + "Alice plays 5H\n"


@pytest.mark.parametrize("save", [rename_over, write_in_place, truncate_and_write])
def test_play_reads_a_record_an_editor_saved_before_it_writes(tmp_path, save) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "referee", "play", str(path)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stdin is not None

    def until(prompt: bytes) -> bytes:
        said = b""
        while not said.endswith(prompt):
            byte = process.stdout.read(1)
            assert byte, said
            said += byte
        return said

    until(b"Bob> ")
    save(path, HEADERS + "Alice plays 5H\nBob plays KC\n")
    process.stdin.write(b"Chloe plays 2H\n")
    process.stdin.flush()
    said = until(b"Chloe> ")
    assert b"read again" in said and b"written" not in said.replace(b"nothing was written", b"")
    process.stdin.write(b"Chloe plays 2H\nend\n")
    process.stdin.flush()
    process.communicate(timeout=20)
    assert path.read_text() == HEADERS + "Alice plays 5H\nBob plays KC\nChloe plays 2H\n"
