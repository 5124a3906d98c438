"""Hardening, second round (issue 20): writing a record (RecordFile, RecordLock) and what
is never read (special files, unbounded input)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from referee.files.lock import LockHeld, RecordLock, lock_path
from referee.files.record_file import FileRefused, RecordFile

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GOOD, encoding="utf-8")
    return path


@pytest.fixture
def victim(tmp_path):
    path = tmp_path / "elsewhere" / "victim"
    path.parent.mkdir()
    path.write_bytes(b"secret\n")
    path.chmod(0o600)
    return path


# --- D18: written only through what was checked ------------------------------------------------

def test_a_link_swapped_in_after_the_read_is_never_written_through(record, victim) -> None:
    with RecordFile.open(record) as opened:
        assert opened.read_text() == GOOD
        record.rename(record.with_name("moved.txt"))
        record.symlink_to(victim)
        with pytest.raises(FileRefused) as refused:
            opened.replace("formatted\n")
    assert "replaced" in str(refused.value)
    assert victim.read_bytes() == b"secret\n" and record.is_symlink()
    assert sorted(p.name for p in record.parent.iterdir()) == ["elsewhere", "game.txt", "moved.txt"]  # no temporary left


def test_an_append_goes_to_the_file_that_was_opened(record, victim) -> None:
    with RecordFile.open(record) as opened:
        opened.read_text()
        record.rename(record.with_name("moved.txt"))
        record.symlink_to(victim)
        opened.append("Bob plays 9C\n")
    assert victim.read_bytes() == b"secret\n"
    assert record.with_name("moved.txt").read_text(encoding="utf-8") == GOOD + "Bob plays 9C\n"


def test_a_link_named_on_purpose_is_resolved_once(record) -> None:
    link = record.with_name("tonight.txt")
    link.symlink_to(record.name)
    with RecordFile.open(link) as opened:
        opened.replace(opened.read_text() + "; end\n")
    assert link.is_symlink() and record.read_text(encoding="utf-8").endswith("; end\n")


def test_replace_is_refused_when_the_file_changed_since_it_was_read(record) -> None:
    with RecordFile.open(record) as opened:
        opened.read_text()
        time.sleep(0.01)
        with open(record, "a", encoding="utf-8") as other:
            other.write("Bob plays 9C\n")
        with pytest.raises(FileRefused, match="changed"):
            opened.replace("x\n")
    assert record.read_text(encoding="utf-8").endswith("Bob plays 9C\n")


# --- D19: owner, group, mode, hard links, read-only files -----------------------------------------

@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_replace_keeps_the_owner_the_group_and_the_mode(record) -> None:
    os.chown(record, 65534, 65534)
    record.chmod(0o640)
    with RecordFile.open(record) as opened:
        opened.replace(opened.read_text() + "; end\n")
    status = record.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (65534, 65534, 0o640)
    assert record.read_text(encoding="utf-8").endswith("; end\n")


def test_the_mode_is_kept(record) -> None:
    record.chmod(0o604)
    with RecordFile.open(record) as opened:
        opened.replace("x\n")
    assert stat.S_IMODE(record.stat().st_mode) == 0o604


def test_a_file_with_several_names_is_left_alone(record) -> None:
    other = record.with_name("other-name.txt")
    os.link(record, other)
    with RecordFile.open(record) as opened:
        opened.read_text()
        with pytest.raises(FileRefused, match="2 names"):
            opened.replace("x\n")
    assert record.read_text(encoding="utf-8") == GOOD and os.path.samefile(record, other)


def test_a_read_only_file_is_left_alone_even_by_root(record) -> None:
    record.chmod(0o444)
    with RecordFile.open(record) as opened:
        assert opened.read_text() == GOOD
        with pytest.raises(FileRefused, match="read-only"):
            opened.replace("x\n")
        with pytest.raises(FileRefused, match="read-only"):
            opened.append("x\n")
    assert record.read_text(encoding="utf-8") == GOOD


# --- D15, D20: special files and sizes ----------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_is_refused_at_once(tmp_path) -> None:
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match="named pipe"):
        RecordFile.open(fifo)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_link_to_a_device_is_refused(tmp_path) -> None:
    link = tmp_path / "game.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileRefused, match="a device"):
        RecordFile.open(link)


def test_a_file_over_the_limit_is_refused_before_it_is_read(record) -> None:
    with pytest.raises(FileRefused, match="larger than"):
        RecordFile.open(record, limit=10)


def test_a_new_record_is_created_without_following_a_link(tmp_path, victim) -> None:
    with RecordFile.open(tmp_path / "new.txt", create=True) as opened:
        opened.append("[Game \"bataille-corse\"]\n")
    assert (tmp_path / "new.txt").read_text(encoding="utf-8") == '[Game "bataille-corse"]\n'


# --- D26: one writer at a time --------------------------------------------------------------------

def test_a_second_writer_is_refused_with_who_holds_the_record(record) -> None:
    with RecordLock(record, "play"):
        assert os.path.exists(lock_path(record))
        with pytest.raises(LockHeld) as held:
            with RecordLock(record, "fmt"):
                pass
        text = str(held.value)
        assert "play" in text and f"process {os.getpid()}" in text and "game.txt" in text
        assert str(os.getpid()) in held.value.holder
    assert not os.path.exists(lock_path(record))
    with RecordLock(record, "fmt"):  # free again
        pass


def test_two_links_to_one_record_share_its_lock(record) -> None:
    link = record.with_name("tonight.txt")
    link.symlink_to(record.name)
    with RecordLock(record, "play"):
        with pytest.raises(LockHeld):
            with RecordLock(link, "play"):
                pass


def test_a_lock_left_by_a_dead_process_is_taken_over(record) -> None:
    code = ("import sys, time; from referee.files.lock import RecordLock\n"
            "lock = RecordLock(sys.argv[1], 'play').__enter__(); print('held', flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", code, str(record)], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=os.getcwd()))
    try:
        assert child.stdout.readline() == "held\n"
        with pytest.raises(LockHeld, match=f"process {child.pid}"):
            RecordLock(record, "play").__enter__()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert os.path.exists(lock_path(record))  # left behind by the dead process
    with RecordLock(record, "play"):
        pass
    assert not os.path.exists(lock_path(record))


def test_a_link_planted_as_the_lock_file_is_not_followed(record, victim) -> None:
    os.symlink(victim, lock_path(record))
    with pytest.raises(LockHeld) as refused:
        with RecordLock(record, "play"):
            pass
    assert str(refused.value) == f"{record}: its lock file {lock_path(record)} is a symbolic link, which referee " \
                                 "never follows or writes through: remove it"
    assert victim.read_bytes() == b"secret\n"


def test_a_lock_file_that_goes_between_two_looks_is_looked_for_again(record, monkeypatch) -> None:
    """Its holder removed it after this writer found it there, before it opened it."""
    from referee.files import lock

    opening, state = os.open, []

    def racing(path, flags, *args, **kwargs):
        if flags & os.O_EXCL and not state and os.fspath(path) == lock_path(record):
            state.append("raced")
            os.unlink(path)
            raise FileExistsError(17, "File exists", path)
        return opening(path, flags, *args, **kwargs)

    with open(lock_path(record), "w"):
        pass
    monkeypatch.setattr(lock.os, "open", racing)
    with RecordLock(record, "play"):
        assert state == ["raced"]
