"""Hardening, second round (issue 20), through the commands: fmt and play write only
through what they checked, under the record's lock; walks read regular files only; no
traceback and the right exit on the new surfaces."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.lock import RecordLock

pexpect = pytest.importorskip("pexpect")

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
UNFORMATTED = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice   plays jd\n'
HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def fmt(*args: str):
    return CliRunner().invoke(main, ["fmt", "--no-config", *args])


def spawn(path):
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", NO_COLOR="1")
    return pexpect.spawn(sys.executable, ["-m", "referee", "play", str(path)], env=env, encoding="utf-8",
                         timeout=20, dimensions=(24, 100))


@pytest.fixture
def unformatted(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(UNFORMATTED, encoding="utf-8")
    return path


# --- D19: fmt keeps owner, group and mode; leaves read-only and hard-linked files -----------------

@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_fmt_keeps_the_owner_and_group_of_another_users_file(unformatted) -> None:
    os.chown(unformatted, 65534, 65534)
    unformatted.chmod(0o640)
    assert fmt(str(unformatted)).exit_code == 0
    status = unformatted.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (65534, 65534, 0o640)
    assert "Alice plays JD" in unformatted.read_text(encoding="utf-8")


def test_fmt_leaves_a_read_only_file_alone_and_says_so(unformatted) -> None:
    unformatted.chmod(0o444)
    result = fmt(str(unformatted))
    assert result.exit_code == 2 and "g.txt: this file is read-only" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED


def test_fmt_leaves_a_hard_linked_file_alone_and_says_so(unformatted) -> None:
    os.link(unformatted, unformatted.with_name("also.txt"))
    result = fmt(str(unformatted))
    assert result.exit_code == 2 and "2 names (hard links)" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED
    assert os.path.samefile(unformatted, unformatted.with_name("also.txt"))


# --- D26: one writer per record -------------------------------------------------------------------

def test_fmt_is_refused_while_a_session_writes_the_record(unformatted) -> None:
    with RecordLock(unformatted, "play"):
        result = fmt(str(unformatted))
    assert result.exit_code == 2 and "being written by another session (referee play" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED
    assert fmt("--check", str(unformatted)).exit_code == 1  # reading needs no lock


def test_a_second_play_session_is_refused_with_who_holds_the_record(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS, encoding="utf-8")
    first = spawn(path)
    first.expect("Alice>")
    second = subprocess.run([sys.executable, "-m", "referee", "play", str(path)], input="Alice plays 5H\n",
                            capture_output=True, text=True, timeout=30)
    assert second.returncode == 2
    assert f"process {first.pid}" in second.stderr and "referee play" in second.stderr
    first.sendline("Alice plays 5H")
    first.expect("ok: ")
    first.sendline("end")
    first.expect(pexpect.EOF)
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]  # the lock file removed


# --- D18: play writes only to the file it opened ---------------------------------------------------

def test_play_never_writes_through_a_link_swapped_in(tmp_path) -> None:
    path, victim = tmp_path / "game.txt", tmp_path / "victim"
    path.write_text(HEADERS, encoding="utf-8")
    victim.write_bytes(b"secret\n")
    child = spawn(path)
    child.expect("Alice>")
    path.rename(tmp_path / "moved.txt")
    path.symlink_to(victim)
    child.sendline("Alice plays 5H")
    child.expect("ok: ")
    child.sendline("end")
    child.expect(pexpect.EOF)
    assert victim.read_bytes() == b"secret\n"
    assert (tmp_path / "moved.txt").read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_play_on_a_device_names_the_file(tmp_path) -> None:
    result = CliRunner().invoke(main, ["play", "/dev/full"], input="")
    assert result.exit_code == 2 and "/dev/full: this is a device, not a regular file" in result.output


def test_play_on_a_named_pipe_says_so_at_once(tmp_path) -> None:
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["play", str(fifo)], input="")
    assert result.exit_code == 2 and "a named pipe (FIFO), not a regular file" in result.output
