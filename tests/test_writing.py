"""Hardening, third round (issue 38): every file referee writes goes through one path
(referee/files/atomic.py). ``check -o`` never replaces what it must not (a device, a pipe, the
file behind /dev/stdout, a link's target); a full disk is said, exit 2, with no temporary
file left and the original untouched, for every writer; lock files that cannot be used
are named with the reason; long names and read-only folders still work."""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

from referee.files.atomic import NAME_MAX, side_name, standard_descriptor
from referee.cli import main
from referee.files.lock import LockHeld, RecordLock, lock_path

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
UNFORMATTED = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice   plays JD\n'
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
FULL = "No space left on device"


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GOOD, encoding="utf-8")
    return path


def referee(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """``python -m referee ARGS`` in a process of its own (its standard streams are real)."""
    if "stdout" not in kwargs:
        kwargs.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-m", "referee", *args], text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=os.getcwd()), **kwargs)


def report_of(record) -> str:
    return referee("check", str(record)).stdout


def leftovers(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.startswith("."))


def device(tmp_path, name: str, kind: int, major: int, minor: int):
    """A device node made here (never the machine's own): skipped where mknod is not allowed."""
    path = tmp_path / name
    try:
        os.mknod(path, kind | 0o666, os.makedev(major, minor))
    except (PermissionError, AttributeError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    return path


# --- check -o: what FILE is ----------------------------------------------------------------------

def test_o_dev_stdout_appended_to_a_file_appends(record, tmp_path) -> None:
    log = tmp_path / "ci.log"
    log.write_text("earlier steps\n", encoding="utf-8")
    with open(log, "a", encoding="utf-8") as out:
        done = referee("check", "-o", "/dev/stdout", str(record), stdout=out, stderr=subprocess.PIPE)
    assert done.returncode == 0, done.stderr
    assert log.read_text(encoding="utf-8") == "earlier steps\n" + report_of(record)


def test_o_dev_stdout_into_a_pipe(record) -> None:
    done = referee("check", "-o", "/dev/stdout", str(record))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == report_of(record) and "in progress" in done.stdout


@pytest.mark.parametrize("name, number", [("/dev/stdout", 1), ("/dev/stderr", 2), ("/dev/fd/7", 7),
                                          ("/proc/self/fd/1", 1), ("/dev/fd/", None), ("/dev/stdout2", None),
                                          ("/tmp/dev/stdout", None), ("/proc/1/fd/1", None)])
def test_the_names_of_the_own_streams(name, number) -> None:
    assert standard_descriptor(name) == number
    assert standard_descriptor(f"/proc/{os.getpid()}/fd/3") == 3


def test_o_a_named_pipe_is_written_in_place(record, tmp_path) -> None:
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = referee("check", "-o", str(fifo), str(record))
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got == [report_of(record).encode()]
    assert leftovers(tmp_path) == []


def test_o_a_character_device_stays_a_device(record, tmp_path) -> None:
    null = device(tmp_path, "null", stat.S_IFCHR, os.major(os.stat("/dev/null").st_rdev),
                  os.minor(os.stat("/dev/null").st_rdev))
    done = referee("check", "-o", str(null), str(record))
    assert done.returncode == 0 and done.stderr == ""
    assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.stat("/dev/null").st_rdev
    assert leftovers(tmp_path) == []


def test_o_a_full_device_is_said_and_stays_a_device(record, tmp_path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    full = device(tmp_path, "full", stat.S_IFCHR, os.major(os.stat("/dev/full").st_rdev),
                  os.minor(os.stat("/dev/full").st_rdev))
    done = referee("check", "-o", str(full), str(record))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"cannot write the report to {full}: {FULL}\n"
    assert stat.S_ISCHR(os.lstat(full).st_mode) and leftovers(tmp_path) == []


def test_o_a_block_device_is_refused(record, tmp_path) -> None:
    disk = device(tmp_path, "disk", stat.S_IFBLK, 240, 77)  # a number no driver holds: nothing to write even if opened
    done = referee("check", "-o", str(disk), str(record))
    assert done.returncode == 2
    assert done.stderr == f"cannot write the report to {disk}: it is a block device (a disk): a report is written " \
                          "to a regular file, a new file, a named pipe or a character device such as /dev/null\n"
    assert stat.S_ISBLK(os.lstat(disk).st_mode)


def test_o_a_socket_is_refused(record, tmp_path) -> None:
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        done = referee("check", "-o", str(path), str(record))
    finally:
        server.close()
    assert done.returncode == 2 and "it is a socket:" in done.stderr
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_o_a_link_at_file_is_not_followed(record, tmp_path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"secret\n")
    link = tmp_path / "report.txt"
    link.symlink_to(victim)
    done = referee("check", "-o", str(link), str(record))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"cannot write the report to {link}: it is a symbolic link, which referee does not write " \
                          "through (name the file it points to)\n"
    assert victim.read_bytes() == b"secret\n" and link.is_symlink() and leftovers(tmp_path) == []


def test_o_a_regular_file_is_replaced_whole_with_its_mode_and_owner(record, tmp_path) -> None:
    """As fmt replaces a record: root's report to a club member's file stays theirs."""
    target = tmp_path / "report.txt"
    target.write_text("an old report, longer than the new one " * 20, encoding="utf-8")
    target.chmod(0o640)
    owner = (65534, 65534) if ROOT else (os.getuid(), os.getgid())
    os.chown(target, *owner)
    done = referee("check", "-o", str(target), str(record))
    assert done.returncode == 0
    assert target.read_text(encoding="utf-8") == report_of(record)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and leftovers(tmp_path) == []
    assert (target.stat().st_uid, target.stat().st_gid) == owner


# --- A full disk, for every writer ----------------------------------------------------------------

@pytest.fixture
def full_disk(tmp_path, monkeypatch, request):
    """Writes (and syncs) to files under tmp_path fail as on a full disk; the first write
    takes half of its bytes first, as a disk that fills up in the middle does."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc to tell a file's descriptor")
    folder = str(tmp_path)
    spared = getattr(request, "param", ".referee-lock")  # the lock file is written first: spared, unless asked
    write, fsync = os.write, os.fsync
    calls = []

    def here(fd: int) -> bool:
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return False
        return name.startswith(folder) and not name.endswith(spared)

    def failing_write(fd: int, data) -> int:
        if not here(fd):
            return write(fd, data)
        calls.append(fd)
        if len(calls) == 1 and len(data) > 1:
            return write(fd, bytes(data)[:len(data) // 2])
        raise OSError(errno.ENOSPC, FULL)

    def failing_fsync(fd: int) -> None:
        if here(fd) and stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, FULL)
        fsync(fd)

    monkeypatch.setattr(os, "write", failing_write)
    monkeypatch.setattr(os, "fsync", failing_fsync)
    return calls


def run(*args: str, typed: str | None = None):
    return CliRunner().invoke(main, list(args), input=typed, catch_exceptions=False)


@pytest.mark.parametrize("form", ["text", "json", "html"])
def test_o_on_a_full_disk(record, tmp_path, full_disk, form) -> None:
    target = tmp_path / "report.txt"
    target.write_text("the last report\n", encoding="utf-8")
    result = run("check", "--format", form, "-o", str(target), str(record))
    assert result.exit_code == 2
    assert result.output == f"cannot write the report to {target}: {FULL}\n"
    assert target.read_text(encoding="utf-8") == "the last report\n" and leftovers(tmp_path) == []


def test_o_a_new_file_on_a_full_disk(record, tmp_path, full_disk) -> None:
    result = run("check", "-o", str(tmp_path / "new.txt"), str(record))
    assert result.exit_code == 2 and FULL in result.output
    assert sorted(os.listdir(tmp_path)) == ["game.txt"]


def test_fmt_on_a_full_disk(tmp_path, full_disk) -> None:
    path = tmp_path / "game.txt"
    path.write_text(UNFORMATTED, encoding="utf-8")
    result = run("fmt", "--no-config", str(path))
    assert result.exit_code == 2
    assert f"{path}: cannot write the file: {FULL}; it is left as it was\n" in result.output
    assert path.read_text(encoding="utf-8") == UNFORMATTED and leftovers(tmp_path) == []


@pytest.mark.parametrize("full_disk", ["(nothing spared)"], indirect=True)
def test_a_lock_file_on_a_full_disk_is_named(tmp_path, full_disk) -> None:
    path = tmp_path / "game.txt"
    path.write_text(UNFORMATTED, encoding="utf-8")
    result = run("fmt", "--no-config", str(path))
    assert result.exit_code == 2
    assert f"{path}: cannot write its lock file {lock_path(path)}: {FULL}\n" in result.output
    assert path.read_text(encoding="utf-8") == UNFORMATTED and leftovers(tmp_path) == []


def test_play_on_a_full_disk_leaves_no_half_line(tmp_path, full_disk) -> None:
    path = tmp_path / "game.txt"
    path.write_text(GOOD, encoding="utf-8")
    result = run("play", str(path), typed="Alice plays 5H\n")
    assert result.exit_code == 2
    assert f"{path}: cannot write the file: {FULL}; it is left as it was" in result.output
    assert path.read_text(encoding="utf-8") == GOOD and leftovers(tmp_path) == []


@pytest.mark.parametrize("command", [["export"], ["export", "--to", "json"], ["import"], ["check", "--format", "html"],
                                     ["check"], ["fmt", "-"]])
def test_a_full_standard_output_is_said(record, tmp_path, command) -> None:
    if not os.path.exists("/dev/full") or not stat.S_ISCHR(os.stat("/dev/full").st_mode):
        pytest.skip("no /dev/full here")
    source = record
    if command == ["import"]:
        source = tmp_path / "game.json"
        source.write_text(referee("export", "--to", "json", str(record)).stdout, encoding="utf-8")
    with open("/dev/full", "w") as full, open(source, "rb") as stdin:
        done = referee(*command, "-" if command == ["fmt", "-"] else str(source), stdout=full, stderr=subprocess.PIPE,
                       stdin=stdin)
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith(f"referee: cannot write to the standard output: {FULL}\n") and "Traceback" not in done.stderr


# --- Lock files --------------------------------------------------------------------------------

def deny(monkeypatch, path: str, flags_denied: int, unlink_error: int | None = None) -> None:
    """This user may not open ``path`` with ``flags_denied`` (as another user's file), nor,
    with ``unlink_error``, remove it (a sticky folder)."""
    opening, unlinking = os.open, os.unlink

    def guarded_open(name, flags, *args, **kwargs):
        if os.fspath(name) == path and flags & flags_denied and not flags & os.O_EXCL and os.path.lexists(path):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return opening(name, flags, *args, **kwargs)

    def guarded_unlink(name, *args, **kwargs):
        if os.fspath(name) == path and unlink_error is not None:
            raise OSError(unlink_error, os.strerror(unlink_error), path)
        return unlinking(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    monkeypatch.setattr(os, "unlink", guarded_unlink)


INFO = '{"user": "ana", "host": "club-pc", "pid": 4242, "command": "play", "since": "2026-11-26 20:14:03"}'


def test_another_users_stale_lock_that_cannot_be_removed_is_named(record, monkeypatch) -> None:
    lock = lock_path(record)
    with open(lock, "w") as out:
        out.write(INFO)
    deny(monkeypatch, lock, os.O_RDWR | os.O_WRONLY, errno.EPERM)
    result = run("fmt", "--no-config", str(record))
    assert result.exit_code == 2
    assert f"{record}: its lock file {lock} was left by ana (process 4242 on club-pc, since 2026-11-26 20:14:03), " \
           "whose session is over, but it cannot be taken over: Operation not permitted; ask ana or an " \
           "administrator to remove it\n" in result.output
    assert "cannot read the file" not in result.output


def test_another_users_stale_lock_is_taken_over_when_it_can_be_removed(record, monkeypatch) -> None:
    lock = lock_path(record)
    with open(lock, "w") as out:
        out.write(INFO)
    deny(monkeypatch, lock, os.O_RDWR | os.O_WRONLY)
    with RecordLock(record, "fmt"):
        assert str(os.getpid()) in open(lock).read()
    assert not os.path.exists(lock)


def test_another_users_lock_in_use_names_its_holder(record, monkeypatch) -> None:
    import fcntl

    lock = lock_path(record)
    with open(lock, "w") as out:
        out.write(INFO)
    holder = os.open(lock, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        deny(monkeypatch, lock, os.O_RDWR | os.O_WRONLY, errno.EPERM)
        with pytest.raises(LockHeld, match="user ana on club-pc, process 4242"):
            with RecordLock(record, "play"):
                pass
    finally:
        os.close(holder)


def test_another_users_unreadable_lock_names_its_owner(record, monkeypatch) -> None:
    lock = lock_path(record)
    with open(lock, "w") as out:
        out.write(INFO)
    deny(monkeypatch, lock, os.O_RDWR | os.O_WRONLY | os.O_RDONLY | os.O_NONBLOCK)
    import pwd

    owner = pwd.getpwuid(os.getuid()).pw_name
    with pytest.raises(LockHeld) as refused:
        with RecordLock(record, "play"):
            pass
    assert str(refused.value).startswith(f"{record}: its lock file {lock} belongs to {owner}, and this user may not use it")


@pytest.mark.skipif(not ROOT, reason="makes a file of another user")
def test_another_users_stale_lock_for_real(tmp_path) -> None:
    """As a user who may not write root's lock file in a sticky folder (as /tmp is)."""
    import pwd

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody")
    folder = tmp_path / "club"
    folder.mkdir(mode=0o1777)
    folder.chmod(0o1777)
    tmp_path.chmod(0o755)
    path = folder / "r.txt"
    path.write_text(UNFORMATTED, encoding="utf-8")
    path.chmod(0o666)
    with open(lock_path(path), "w") as out:
        out.write(INFO)
    try:
        done = subprocess.run([sys.executable, "-m", "referee", "fmt", "--no-config", str(path)], capture_output=True,
                              text=True, timeout=60, user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[],
                              env=dict(os.environ, PYTHONPATH=os.getcwd()), cwd="/")
    except PermissionError:
        pytest.skip("the user nobody may not run this Python")
    if "No module named" in done.stderr:
        pytest.skip("the user nobody may not read referee here")
    assert done.returncode == 2
    assert f"its lock file {lock_path(path)} was left by ana" in done.stderr and "Permission denied" not in done.stderr
    assert path.read_text(encoding="utf-8") == UNFORMATTED


def test_a_lock_that_is_a_link_is_named_by_fmt(record, tmp_path) -> None:
    os.symlink(tmp_path / "nowhere", lock_path(record))
    result = run("fmt", "--no-config", str(record))
    assert result.exit_code == 2
    assert f"{record}: its lock file {lock_path(record)} is a symbolic link, which referee never follows or writes " \
           "through: remove it\n" in result.output


def test_a_lock_that_is_a_named_pipe_is_named(record) -> None:
    os.mkfifo(lock_path(record))
    with pytest.raises(LockHeld, match="is a named pipe"):
        with RecordLock(record, "play"):
            pass


@pytest.mark.parametrize("length", [241, 248, 255])
def test_a_record_with_a_long_name_is_formatted_and_played(tmp_path, length) -> None:
    path = tmp_path / ("é" * ((length - 4) // 2) + "a" * ((length - 4) % 2) + ".txt")
    assert len(os.fsencode(path.name)) == length
    path.write_text(UNFORMATTED, encoding="utf-8")
    result = run("fmt", "--no-config", str(path))
    assert result.exit_code == 0, result.output
    assert "Alice plays JD" in path.read_text(encoding="utf-8")
    result = run("play", str(path), typed="Bob plays 8C\n")
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8").endswith("Bob plays 8C\n")
    assert sorted(os.listdir(tmp_path)) == [path.name]


def test_long_names_get_short_distinct_side_names(tmp_path) -> None:
    one, two = "x" * 250 + "1.txt", "x" * 250 + "2.txt"
    names = [side_name(str(tmp_path), name, ".referee-lock") for name in (one, two)]
    assert names[0] != names[1] and all(len(os.fsencode(n)) <= NAME_MAX for n in names)
    assert names[0] == side_name(str(tmp_path), one, ".referee-lock")  # the same name, the same lock
    assert side_name(str(tmp_path), "game.txt", ".referee-lock") == ".game.txt.referee-lock"
    accented = side_name(str(tmp_path), "é" * 127, ".0123abcd.referee-fmt")
    assert len(os.fsencode(accented)) <= NAME_MAX and accented.encode("utf-8")  # never half a character


def read_only_folder(monkeypatch, folder) -> None:
    """Nothing may be made in ``folder`` (as for a user who may not write it; root may)."""
    opening = os.open

    def guarded_open(name, flags, *args, **kwargs):
        where = os.path.dirname(os.fspath(name)) if "dir_fd" not in kwargs else None
        if flags & os.O_CREAT and where == str(folder) and not os.path.lexists(name):
            raise PermissionError(errno.EACCES, "Permission denied", name)
        return opening(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)


def test_play_in_a_read_only_folder_locks_the_record_itself(record, monkeypatch) -> None:
    read_only_folder(monkeypatch, record.parent)
    result = run("play", str(record), typed="Alice plays 5H\n")
    assert result.exit_code == 0, result.output
    assert record.read_text(encoding="utf-8").endswith("Alice plays 5H\n")
    assert not os.path.exists(lock_path(record))
    with RecordLock(record, "play"):  # and writers still exclude each other
        with pytest.raises(LockHeld, match="is being written by another session"):
            with RecordLock(record, "fmt"):
                pass


def test_a_new_record_in_a_read_only_folder_is_refused_with_where_the_lock_would_be(tmp_path, monkeypatch) -> None:
    path = tmp_path / "new.txt"
    read_only_folder(monkeypatch, tmp_path)
    result = run("play", str(path), typed="")
    assert result.exit_code == 2
    assert f"{path}: cannot create its lock file {lock_path(path)} (Permission denied), and there is no record yet " \
           "whose own lock could do instead" in result.output


def test_fmt_in_a_read_only_folder_says_why_it_needs_the_folder(tmp_path, monkeypatch) -> None:
    path = tmp_path / "game.txt"
    path.write_text(UNFORMATTED, encoding="utf-8")
    opening = os.open

    def guarded_open(name, flags, *args, **kwargs):
        if flags & os.O_CREAT and os.fspath(name).endswith(".referee-fmt"):
            raise PermissionError(errno.EACCES, "Permission denied", name)
        return opening(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    result = run("fmt", "--no-config", str(path))
    assert result.exit_code == 2
    assert f"{path}: cannot write the new text beside the file (Permission denied): referee writes it to a new file " \
           "in the same folder and renames it over this one, so the folder must be writable; the file is left as it " \
           "was\n" in result.output
    assert path.read_text(encoding="utf-8") == UNFORMATTED
