"""The record's writing lock: one writer at a time on a record (``play``, ``fmt``, the
table page).

A writer holds an exclusive ``flock`` on a lock file beside the record,
``.NAME.referee-lock``, which says who holds it (user, host, process, command, since
when), and a second ``flock`` on the record itself when it exists (taken again once the holder
made it, or when an editor's save by rename put another file at its name). The lock file is
created with ``O_EXCL`` and opened with ``O_NOFOLLOW``: a link planted in its place is
never followed. A second writer is refused with a LockHeld that names the holder. The
system drops a ``flock`` when its process dies, however it dies: a lock file left by a
dead process is one nobody holds, and the next writer takes it over. The holder removes
the lock file when it is done.

The record's name is resolved once (``realpath``): two sessions on one file through two
links are two writers of the same record."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import stat
import time
from pathlib import Path

from .messages import say
from .safe_text import visible

SUFFIX = ".referee-lock"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_INFO_LIMIT = 4096


class LockHeld(Exception):
    """Another writer holds the record; ``str()`` says who, in a sentence."""

    def __init__(self, path: str, holder: str, message: str) -> None:
        super().__init__(message)
        self.path, self.holder, self.message = path, holder, message

    def __str__(self) -> str:
        return visible(self.message)


def lock_path(record: str | Path) -> str:
    """The lock file of a record."""
    folder, name = os.path.split(os.path.realpath(record))
    return os.path.join(folder, f".{name}{SUFFIX}")


def _user() -> str:
    try:
        import getpass

        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name known: the number will do
        return str(os.getuid()) if hasattr(os, "getuid") else "?"


class RecordLock:
    """``with RecordLock(path, "play"):`` — the record is this process's to write."""

    def __init__(self, path: str | Path, command: str) -> None:
        self.path, self.command = str(path), command
        self.lock = lock_path(path)
        self.fd = self.record_fd = -1

    def __enter__(self) -> RecordLock:
        for _ in range(20):  # a lock file removed by its holder while we looked: look again
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                info = _read_info(fd)
                os.close(fd)
                raise self._held(info) from None
            except BaseException:
                os.close(fd)
                raise
            try:
                here = os.stat(self.lock, follow_symlinks=False)
            except FileNotFoundError:
                os.close(fd)
                continue
            if (here.st_dev, here.st_ino) != (os.fstat(fd).st_dev, os.fstat(fd).st_ino):
                os.close(fd)
                continue
            self.fd = fd
            break
        else:
            raise self._held({})
        try:
            self._write_info()
            self.lock_record()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _open(self) -> int:
        """The lock file: created anew, else the one there (never through a link)."""
        for _ in range(100):  # the one there may go (its holder done) between the two opens
            try:
                return os.open(self.lock, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
            except FileExistsError:
                pass
            try:
                fd = os.open(self.lock, os.O_RDWR | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
                break
            except FileNotFoundError:
                continue
        else:
            raise self._held({})
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(errno.EEXIST, say("lock.not-a-file"), self.lock)
        return fd

    def _write_info(self) -> None:
        info = {"user": _user(), "host": socket.gethostname(), "pid": os.getpid(), "command": self.command,
                "since": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())}
        data = json.dumps(info).encode("utf-8")
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, data, 0)
        os.fsync(self.fd)

    def lock_record(self) -> None:
        """A second flock, on the record itself: taken at the start when the record exists,
        and again by the holder once it made the record, or when its name has come to lead to
        another file (an editor saved it by rename); a second name of the same file (a hard
        link) is then held too. LockHeld when another writer holds that file."""
        try:
            fd = os.open(os.path.realpath(self.path), os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return
        status = os.fstat(fd)
        held = os.fstat(self.record_fd) if self.record_fd >= 0 else None
        if not stat.S_ISREG(status.st_mode) or (held and (held.st_dev, held.st_ino) == (status.st_dev, status.st_ino)):
            os.close(fd)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise self._held({}) from None
        if self.record_fd >= 0:
            os.close(self.record_fd)
        self.record_fd = fd

    def _held(self, info: dict[str, str]) -> LockHeld:
        if info:
            holder = f"{info.get('user', '?')}@{info.get('host', '?')} pid {info.get('pid', '?')} " \
                     f"({info.get('command', '?')}) since {info.get('since', '?')}"
            message = say("lock.held", path=self.path, command=info.get("command", "?"), user=info.get("user", "?"),
                          host=info.get("host", "?"), pid=info.get("pid", "?"), since=info.get("since", "?"))
        else:
            holder = "?"
            message = say("lock.held-unknown", path=self.path)
        return LockHeld(self.path, holder, message)

    def __exit__(self, *exc: object) -> None:
        if self.fd >= 0:
            try:
                os.unlink(self.lock)  # still holding it: nobody takes a file about to go
            except OSError:
                pass
            os.close(self.fd)
            self.fd = -1
        if self.record_fd >= 0:
            os.close(self.record_fd)
            self.record_fd = -1


def _read_info(fd: int) -> dict[str, str]:
    """What a lock file says of its holder ({} when it says nothing readable)."""
    try:
        data = os.pread(fd, _INFO_LIMIT, 0)
        info = json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return {k: str(v)[:200] for k, v in info.items()} if isinstance(info, dict) else {}
