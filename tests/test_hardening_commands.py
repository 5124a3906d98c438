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


# --- D15, D16, D17: walks read regular files only, follow no link to a folder, skip nothing silently ----

def referee(*args: str, stdin: str = "", cwd=None) -> subprocess.CompletedProcess:
    """The command in its own process, with a time limit: a hang fails the test."""
    return subprocess.run([sys.executable, "-m", "referee", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=cwd, env=dict(os.environ, PYTHONPATH=os.getcwd()))


@pytest.fixture
def hostile_tree(tmp_path):
    """A folder of records with a named pipe, a link to /dev/stdin and two links to '..'."""
    folder = tmp_path / "club"
    (folder / "sub").mkdir(parents=True)
    formatted = GOOD.replace("]\nAlice", "]\n\nAlice", 1)
    (folder / "a.txt").write_text(formatted, encoding="utf-8")
    (folder / "sub" / "b.txt").write_text(formatted, encoding="utf-8")
    os.mkfifo(folder / "sub" / "pipe.txt")
    (folder / "stdin.txt").symlink_to("/dev/stdin")
    (folder / "sub" / "up").symlink_to("..")
    (folder / "up").symlink_to("..")
    return folder


@pytest.mark.parametrize("command", [["check", "-q"], ["check", "-q", "--jobs", "2"], ["fmt", "--check"]])
@pytest.mark.parametrize("target", ["club", "club/**/*.txt", "club/*/*.txt", "club/**"])
def test_a_walk_reads_regular_files_only_and_follows_no_link_to_a_folder(hostile_tree, command, target) -> None:
    done = referee(*command, "--no-config", target, stdin="never read\n", cwd=hostile_tree.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pipe" not in done.stdout + done.stderr and "stdin" not in done.stdout + done.stderr
    if command[0] == "check":
        files = 2 if target in ("club", "club/**/*.txt", "club/**") else 1
        assert f"in {files} file(s)" in done.stdout


@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["state"], ["explain"]])
def test_a_named_pipe_named_on_the_command_line_is_refused_at_once(hostile_tree, command) -> None:
    target = str(hostile_tree / "sub" / "pipe.txt") + (":3" if command == ["explain"] else "")
    done = referee(*command, target)
    assert done.returncode == 2 and "a named pipe (FIFO), not a regular file" in done.stdout + done.stderr


def test_a_link_to_the_standard_input_is_not_read(hostile_tree) -> None:
    done = referee("check", str(hostile_tree / "stdin.txt"), stdin=GOOD)
    assert done.returncode == 2 and "not a regular file" in done.stdout


def test_a_folder_that_cannot_be_listed_is_named_and_the_check_fails(hostile_tree, monkeypatch) -> None:
    from referee import paths

    listing = os.scandir
    locked = str(hostile_tree / "sub")

    def scandir(path):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return listing(path)

    monkeypatch.setattr(paths.os, "scandir", scandir)
    for target in (str(hostile_tree), str(hostile_tree) + "/**/*.txt"):
        result = CliRunner().invoke(main, ["check", "--no-config", "-q", target])
        assert result.exit_code == 2, result.output
        assert f"{locked}: this folder cannot be listed (Permission denied)" in result.output
    result = fmt(str(hostile_tree))
    assert result.exit_code == 2 and "this folder cannot be listed" in result.output


def test_a_folder_deeper_than_the_path_limit_is_named(tmp_path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, encoding="utf-8")
    name = "d" * 250
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(20):  # some 5,000 characters: past PATH_MAX
        os.mkdir(name, dir_fd=fd)
        deeper = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = deeper
    with open(os.open("deep.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w", encoding="utf-8") as deep:
        deep.write(GOOD)
    os.close(fd)
    done = referee("check", "-q", "--no-config", str(tmp_path))
    assert done.returncode == 2 and "this folder cannot be listed" in done.stdout + done.stderr


# --- D23: a worker killed mid-batch ----------------------------------------------------------------

def _killing(paths, settings):
    """A worker's check that kills its own process (as the out-of-memory killer would)
    when it reaches kill.txt."""
    import signal

    from referee import batch

    if any(p.endswith("kill.txt") for p in paths):
        os.kill(os.getpid(), signal.SIGKILL)
    return batch.__dict__["_checked"](paths, settings)


def test_a_worker_killed_mid_batch_loses_only_its_batch(tmp_path, monkeypatch) -> None:
    """The workers are forked from this process, with the patched check."""
    from referee import batch

    monkeypatch.setattr(batch, "BATCH_FILES", 4)
    monkeypatch.setitem(batch.__dict__, "_checked", batch._in_worker)
    monkeypatch.setattr(batch, "_in_worker", _killing)
    folder = tmp_path / "club"
    folder.mkdir()
    for n in range(40):
        (folder / f"r{n:02d}.txt").write_text(GOOD, encoding="utf-8")
    (folder / "kill.txt").write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", "-q", "--jobs", "2", str(folder)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "BrokenProcessPool" not in str(result.exception or "")
    assert "kill.txt: this file could not be checked: its worker process failed" in result.output
    lost = result.output.count("its worker process failed")
    assert 1 <= lost <= 4, result.output[-3000:]  # the batch of kill.txt only
    assert f"in 41 file(s): 0 valid, 0 with violations, {41 - lost} in progress" in result.output
