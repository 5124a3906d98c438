"""``referee fmt`` and the JSON form of records: the canonical writer loses nothing, is
idempotent, and text -> JSON -> text gives the formatted record back exactly, over every
record in records/ and over simulated ones; files are rewritten whole or not at all."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.engine import check_games
from referee.convert.export import record_to_json
from referee.cli.fmt import Formatter, Style, canonical, write_atomically
from referee.convert.importer import read_json
from referee.notation import RecordError, read_games
from referee.files.record_file import FileRefused
from referee.simulate import simulate

from .conftest import RECORDS

GOOD = sorted(p for p in RECORDS.rglob("*.txt") if p.parent.name != "bad")
STYLES = [Style("ascii", "english"), Style("symbols", "french")]


def simulated() -> list[tuple[str, str]]:
    cases = []
    for game, players in (("bataille-corse", 3), ("carte-et-plouc", 3), ("pierre-qui-roule", 4), ("flaschenteufel", 4),
                          ("caroleto", 4)):
        for seed in range(2):
            cases.append((f"{game}-{seed}", simulate(game, players, seed, hidden=seed == 1, mistakes=0.05)))
    return cases


SIMULATED = simulated()
TEXTS = [(str(p.relative_to(RECORDS)), p.read_text(encoding="utf-8-sig")) for p in GOOD] + SIMULATED


def games(text: str) -> list:
    found = list(read_games("<record>", io.BytesIO(text.encode("utf-8"))))
    assert not any(isinstance(g, RecordError) for g in found), [str(g) for g in found if isinstance(g, RecordError)]
    return found


def verdicts(records: list) -> list:
    """What a check says of each game, without the places (fmt moves lines)."""
    return [(r.status, Counter(v.code for v in r.violations), sorted(r.result.order) if r.result else None, r.todo)
            for _, r in check_games(iter(records))]


def to_json_and_back(records: list) -> list:
    document = {"file": "g.json", "games": [record_to_json(r) for r in records]}
    back = list(read_json("g.json", json.dumps(document, ensure_ascii=False).encode("utf-8")))
    assert not any(isinstance(g, RecordError) for g in back), [str(g) for g in back if isinstance(g, RecordError)]
    return back


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[n for n, _ in TEXTS])
def test_fmt_is_idempotent_loses_nothing_and_survives_json(name: str, text: str) -> None:
    records = games(text)
    for style in STYLES:
        formatted = Formatter(style).text(records)
        again = games(formatted)
        assert Formatter(style).text(again) == formatted  # idempotent
        assert verdicts(again) == verdicts(records)  # the same game: every event, header and mark kept
        comments = [c.text.rstrip() for r in records for c in r.comments]
        assert sorted(c.text for r in again for c in r.comments) == sorted(comments)
        assert Formatter(style).text(to_json_and_back(again)) == formatted  # text -> JSON -> text
    assert verdicts(to_json_and_back(records)) == verdicts(records)
    own = Formatter().text(records)  # in the record's own notation and spelling style
    assert Formatter().text(games(own)) == own
    assert verdicts(games(own)) == verdicts(records)


def test_the_canonical_form() -> None:
    text = ("; Friday\n\n[dealer \"Bob\"]\n; the players\n[Players \"Alice Bob\"]  ; seated so\n[Place \"Lyon\"]\n"
            "[Zone \"x\"]\n[Game \"bataille-corse\"]\n[Slaps \"sandwich\"]\n"
            "001.  9:04  Alice   plays  qs   ; a queen\nBob plays 2♥\n\n\n  Bob plays 3h\n"
            "Alice burns ?? ??  ; paid\n; the end\n")
    lines = canonical("g.txt", text.encode()).split("\n")
    assert lines == ["; Friday", "", '[Game "bataille-corse"]', "; the players", '[Players "Alice Bob"]  ; seated so',
                     '[Dealer "Bob"]', '[Slaps "sandwich"]', '[Place "Lyon"]', '[Zone "x"]', "",
                     "1. 09:04 Alice plays QS  ; a queen", "Bob plays 2H", "", "Bob plays 3H", "Alice burns 2  ; paid",
                     "; the end", ""]
    assert "Alice plays D♠  ; a queen" in canonical("g.txt", text.encode(), Style("symbols", "french"))


def test_numbers_are_cards_in_flaschenteufel_never_counts() -> None:
    text = '[Game "flaschenteufel"]\n[Players "A B C"]\nA holds ?? ?? ??\n[Match "m"]\n'
    match = ('[Game "flaschenteufel"]\n[Match "m"]\n[Players "A B C"]\nA plays 3\n\n'
             '[Match "m"]\nB holds ?? ??\n')
    assert "A holds ?? ?? ??" in canonical("g.txt", text.encode())
    assert "B holds ?? ??" in canonical("g.txt", match.encode())
    assert "A draws 2" in canonical("g.txt", b'[Game "caroleto"]\n[Players "A B C"]\nA draws ?? ??\n')


@pytest.fixture
def unformatted(tmp_path):
    text = (RECORDS / "bataille-corse" / "accepted.txt").read_text(encoding="utf-8")
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    path.chmod(0o640)
    return path


def test_fmt_rewrites_and_keeps_the_mode(unformatted) -> None:
    before = unformatted.read_bytes()
    runner = CliRunner()
    result = runner.invoke(main, ["fmt", "--no-config", "--check", str(unformatted)])
    assert result.exit_code == 1 and f"would reformat {unformatted}" in result.output
    result = runner.invoke(main, ["fmt", "--no-config", "--diff", str(unformatted)])
    assert result.exit_code == 1 and "-Bob slaps            ; accepted" in result.output and "+Bob slaps  " in result.output
    assert unformatted.read_bytes() == before
    result = runner.invoke(main, ["fmt", "--no-config", str(unformatted)])
    assert result.exit_code == 0 and unformatted.read_bytes() == canonical("g", before).encode()
    assert unformatted.stat().st_mode & 0o777 == 0o640
    assert os.listdir(unformatted.parent) == ["g.txt"]
    modified = unformatted.stat().st_mtime_ns
    result = runner.invoke(main, ["fmt", "--no-config", "--check", str(unformatted)])
    assert result.exit_code == 0
    assert runner.invoke(main, ["fmt", "--no-config", str(unformatted)]).exit_code == 0
    assert unformatted.stat().st_mtime_ns == modified  # nothing to change: not written


def test_fmt_never_touches_a_file_it_cannot_read(tmp_path) -> None:
    path = tmp_path / "g.txt"
    text = '[Game "bataille-corse"]\n[Players "A B"]\nA   plays 3H\nB plays 11H\n'
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", "--no-config", str(path), str(tmp_path / "missing.txt")])
    assert result.exit_code == 2 and "4:9: expected a card" in result.output and "cannot read the file" in result.output
    assert path.read_text(encoding="utf-8") == text


def test_a_failed_write_leaves_the_file_whole(unformatted, monkeypatch) -> None:
    before = unformatted.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "rename", fail)
    with pytest.raises(FileRefused, match="cannot write the file: No space left on device"):
        write_atomically(str(unformatted), "half")
    assert unformatted.read_bytes() == before and os.listdir(unformatted.parent) == ["g.txt"]


def test_fmt_follows_a_symbolic_link(unformatted) -> None:
    before = unformatted.read_bytes()
    link = unformatted.parent / "link.txt"
    link.symlink_to(unformatted.name)
    assert CliRunner().invoke(main, ["fmt", "--no-config", str(link)]).exit_code == 0
    assert link.is_symlink() and unformatted.read_bytes() == canonical("g", before).encode()


def test_a_killed_fmt_leaves_every_file_whole(tmp_path) -> None:
    """fmt is killed (SIGKILL: no clean-up) at several moments of a run over many files,
    each after it has said it rewrote so many (a point of the run, not a time, which a
    busy machine would make mean nothing): every file is its old text or its new one,
    never a part."""
    sources = [p.read_bytes() for p in GOOD if p.stat().st_size < 20_000][:40]
    folder = tmp_path / "records"
    folder.mkdir()
    before: dict[str, bytes] = {}
    for n in range(400):
        data = sources[n % len(sources)]
        name = f"r{n:03d}.txt"
        (folder / name).write_bytes(data)
        before[name] = data
    after = {name: canonical(name, data).encode() for name, data in before.items()}
    command = [sys.executable, "-m", "referee", "fmt", "--no-config", str(folder)]
    changing = sum(before[name] != after[name] for name in before)
    assert changing >= 20
    for rewritten in (1, changing // 10, changing // 6, changing // 4):  # of those not rewritten yet: 2/3 at most
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
        for _ in range(rewritten):  # "reformatted PATH", once each file is rewritten
            assert process.stdout.readline().startswith(b"reformatted ")
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdout.close()
        for name in before:
            assert (folder / name).read_bytes() in (before[name], after[name]), name
    subprocess.run(command, check=True, capture_output=True)
    assert all((folder / name).read_bytes() == after[name] for name in before)
    assert all(name.endswith((".txt", ".referee-fmt")) for name in os.listdir(folder))  # a lock taken over, then removed


def test_stdin_is_formatted_to_stdout() -> None:
    result = CliRunner().invoke(main, ["fmt", "--no-config", "-"], input='[Game "bataille-corse"]\n[players "A B"]\nA plays qs\n')
    assert result.exit_code == 0 and result.output == '[Game "bataille-corse"]\n[Players "A B"]\n\nA plays QS\n'


# --- JSON records --------------------------------------------------------------------------

def test_check_and_import_read_a_json_record(tmp_path) -> None:
    text = (RECORDS / "bataille-corse" / "accepted.txt").read_text(encoding="utf-8")
    runner = CliRunner()
    exported = runner.invoke(main, ["export", "--to", "json", str(RECORDS / "bataille-corse" / "accepted.txt")]).output
    (tmp_path / "g.json").write_text(exported, encoding="utf-8")
    (tmp_path / "g.record").write_text(exported, encoding="utf-8")  # JSON by its first character
    imported = runner.invoke(main, ["import", "--no-config", str(tmp_path / "g.json")])
    assert imported.exit_code == 0 and imported.output == canonical("g", text.encode())
    original = runner.invoke(main, ["check", "--no-config", "--format", "concise", str(RECORDS / "bataille-corse" / "accepted.txt")])
    for name in ("g.json", "g.record"):
        result = runner.invoke(main, ["check", "--no-config", "--format", "concise", str(tmp_path / name)])
        assert result.exit_code == original.exit_code == 1
        assert result.output.replace(str(tmp_path / name), "X") == original.output.replace(str(RECORDS / "bataille-corse" / "accepted.txt"), "X")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["games"][0]["events"][1].__setitem__("cards", ["7H", "11H"]), "games[0].events[1].cards[1]: '11H' is not a card"),
    (lambda d: d["games"][0]["events"][0].__setitem__("verb", "jumps"), "games[0].events[0].verb: 'jumps' is not one of"),
    (lambda d: d["games"][0]["events"][0].pop("player"), "games[0].events[0]: 'player' is a required property"),
    (lambda d: d["games"][0]["events"][0].__setitem__("comment", "; a\n[Game \"x\"]"), "games[0].events[0].comment: "),
    (lambda d: d["games"][0]["events"][0].pop("cards"), "games[0].events[0]: expected a card after 'plays'"),
    (lambda d: d.pop("games"), "$: 'games' is a required property"),
])
def test_a_bad_json_record_names_the_place(tmp_path, change, message: str) -> None:
    document = {"file": "g.txt", "games": [record_to_json(r) for r in games(
        '[Game "bataille-corse"]\n[Players "A B"]\nA plays 3H\nB plays 4H\n\n[Game "bataille-corse"]\n[Players "A B"]\nA plays 5H\n')]}
    change(document)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "--no-config", str(path)])
    assert result.exit_code == 2 and f"{path}: {message}" in result.output, result.output
    if "games" in document:  # the other game is read
        assert "A plays 5H" in result.output


def test_not_json(tmp_path) -> None:
    path = tmp_path / "g.json"
    path.write_text('{"file": "x",\n "games": [}', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", str(path)])
    assert result.exit_code == 2 and f"{path}:2:12: this file is not JSON" in result.output


def test_a_json_record_with_no_game_is_an_error_as_an_empty_text_file(tmp_path) -> None:
    """A check of nothing must not pass: ``{"games": []}`` is what an empty text file is."""
    path = tmp_path / "g.json"
    path.write_text('{"file": "g.txt", "games": []}', encoding="utf-8")
    for command in ("check", "import"):
        result = CliRunner().invoke(main, [command, "--no-config", str(path)])
        assert result.exit_code == 2 and f"{path}: games: no game here" in result.output, result.output


def test_a_game_with_no_event_cannot_come_before_another_in_json() -> None:
    document = {"file": "x", "games": [{"line": 1, "headers": [{"tag": "Game", "value": "bataille-corse", "line": 1}],
                                        "events": [], "comments": []},
                                       {"line": 3, "headers": [{"tag": "Game", "value": "caroleto", "line": 3}],
                                        "events": [], "comments": []}]}
    found = list(read_json("x", json.dumps(document).encode()))
    assert isinstance(found[1], RecordError) and "games[1]: this game would be read as part of the game before it" in str(found[1])


def test_export_to_text_says_what_it_does() -> None:
    result = CliRunner().invoke(main, ["export", "--help"])
    assert "canonical form" in result.output and "referee fmt" in result.output


def test_export_and_fmt_write_the_same(tmp_path) -> None:
    path = Path(RECORDS / "carte-et-plouc" / "match.txt")
    exported = CliRunner().invoke(main, ["export", "--no-config", "--to", "text", str(path)]).output
    assert exported == canonical(str(path), path.read_bytes())


def test_fmt_exclude_in_the_configuration_leaves_a_record_as_written(tmp_path) -> None:
    """[tool.referee.fmt] exclude: fmt leaves the record alone; check still reads it."""
    record = tmp_path / "records" / "spell.txt"
    record.parent.mkdir()
    record.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays ♣3\n', encoding="utf-8")
    (tmp_path / "referee.toml").write_text('[fmt]\nexclude = ["records/spell.txt"]\n', encoding="utf-8")
    (tmp_path / ".git").mkdir()
    config = str(tmp_path / "referee.toml")
    runner = CliRunner()
    assert runner.invoke(main, ["fmt", "--config", config, "--check", str(tmp_path / "records")]).exit_code == 2  # nothing to format
    (tmp_path / "referee.toml").write_text("", encoding="utf-8")
    assert runner.invoke(main, ["fmt", "--config", config, "--check", str(tmp_path / "records")]).exit_code == 1
    (tmp_path / "referee.toml").write_text('[fmt]\nexclude = ["records/spell.txt"]\n', encoding="utf-8")
    done = runner.invoke(main, ["check", "--config", config, str(tmp_path / "records")])
    assert done.exit_code == 0 and "spell.txt" in done.output
