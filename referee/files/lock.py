"""The record's writing lock: one writer at a time on a record (``play``, ``fmt``, the
table page).

A writer holds an exclusive ``flock`` on a lock file beside the record,
``.NAME.referee-lock``, which says who holds it (user, host, process, command, since
when), and a second ``flock`` on the record itself when it exists (taken again once the holder
made it, or when an editor's save by rename put another file at its name). The lock file is
created with ``O_EXCL`` and opened with ``O_NOFOLLOW``: a link planted in its place is
never followed. A second writer is refused with a LockHeld that names the holder. The
system drops a ``flock`` when its process dies, however it dies: a lock file left by a
dead process is one nobody holds, and the next writer takes it over (another user's,
which this user may not write, is removed and made anew; when it cannot be removed, the
refusal names the lock file, who left it and why). The holder removes the lock file when
it is done.

A name too long to take the suffix is cut and hashed (``atomic.side_name``), so that every
record has a lock file. In a folder where no lock file can be made (read-only to this
user), an existing record is locked by its own ``flock`` alone: writers still exclude each
other, but a second one is not told who holds it. Every refusal is a LockHeld (a
LockRefused when the lock file cannot be used) whose sentence names the lock file.

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

from .atomic import kind_of, reason, side_name
from ..messages import say
from ..text.safe_text import visible

SUFFIX = ".referee-lock"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_INFO_LIMIT = 4096
_DENIED = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


class LockHeld(Exception):
    """The record's lock cannot be had: another writer holds it (or, a LockRefused, its
    lock file cannot be used); ``str()`` says who or why, in a sentence."""

    def __init__(self, path: str, holder: str, message: str) -> None:
        super().__init__(message)
        self.path, self.holder, self.message = path, holder, message

    def __str__(self) -> str:
        return visible(self.message)


class LockRefused(LockHeld):
    """The record's lock file cannot be used: a link or a special file in its place,
    another user's that cannot be taken over, a folder where none can be made for a
    record not made yet, a full disk. The sentence names the lock file and the reason."""


def lock_path(record: str | Path) -> str:
    """The lock file of a record: ``.NAME.referee-lock`` beside it, a long NAME cut and
    hashed to stay within the longest name the folder takes (atomic.side_name)."""
    folder, name = os.path.split(os.path.realpath(record))
    return os.path.join(folder, side_name(folder or ".", name, SUFFIX))


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
        self.no_file = ""  # why no lock file could be made (the record's own flock does instead)

    def __enter__(self) -> RecordLock:
        for _ in range(20):  # a lock file removed by its holder while we looked: look again
            fd = self._open()
            if fd < 0:
                break
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
            if self.fd >= 0:
                self._write_info()
            self.lock_record()
            if self.fd < 0 and self.record_fd < 0:
                raise self._refused("lock.cannot-create", reason=self.no_file)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _open(self) -> int:
        """The lock file: created anew, else the one there (never through a link); -1 when
        none can be made in the record's folder (read-only: the record's flock does)."""
        for _ in range(100):  # the one there may go (its holder done) between the two opens
            try:
                return os.open(self.lock, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
            except FileExistsError:
                pass
            except OSError as error:
                if error.errno not in _DENIED or os.path.lexists(self.lock):
                    raise self._refused("lock.cannot-open", reason=reason(error)) from None
                self.no_file = reason(error)
                return -1
            try:
                fd = os.open(self.lock, os.O_RDWR | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
                break
            except FileNotFoundError:
                continue
            except OSError as error:
                self._not_a_file()
                if error.errno not in _DENIED:
                    raise self._refused("lock.cannot-open", reason=reason(error)) from None
                self._take_over(error)  # another user's: removed when nobody holds it, then made anew
        else:
            raise self._held({})
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            self._not_a_file()
        return fd

    def _not_a_file(self) -> None:
        """LockRefused when what is at the lock's name is a link or not a regular file."""
        try:
            mode = os.stat(self.lock, follow_symlinks=False).st_mode
        except OSError:
            return
        kind = kind_of(mode)
        if kind is not None:
            raise self._refused("lock.not-a-file", kind=kind)

    def _take_over(self, denied: OSError) -> None:
        """Another user's lock file, which this user may not write: LockHeld when its
        holder is still at work; otherwise it is removed (under its flock, as its holder
        would), or, when it cannot be, LockRefused naming who left it."""
        try:
            fd = os.open(self.lock, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return
        except OSError as error:
            if error.errno not in _DENIED:
                raise self._refused("lock.cannot-open", reason=reason(error)) from None
            raise self._refused("lock.other-user", reason=reason(error), owner=self._owner()) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                self._not_a_file()
            info = _read_info(fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise self._held(info) from None
            try:
                os.unlink(self.lock)
            except FileNotFoundError:
                pass
            except OSError as error:
                if not info:
                    raise self._refused("lock.cannot-open", reason=reason(denied)) from None
                raise self._refused("lock.left-by-other", reason=reason(error), user=info.get("user", "?"),
                                    pid=info.get("pid", "?"), host=info.get("host", "?"),
                                    since=info.get("since", "?")) from None
        finally:
            os.close(fd)

    def _owner(self) -> str:
        """The user the lock file belongs to: a name, else a number."""
        try:
            uid = os.stat(self.lock, follow_symlinks=False).st_uid
        except OSError:
            return "?"
        try:
            import pwd

            return pwd.getpwuid(uid).pw_name
        except (ImportError, KeyError):
            return str(uid)

    def _refused(self, key: str, **fields: str) -> LockRefused:
        return LockRefused(self.path, "?", say(key, path=self.path, lock=self.lock, **fields))

    def _write_info(self) -> None:
        info = {"user": _user(), "host": socket.gethostname(), "pid": os.getpid(), "command": self.command,
                "since": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())}
        data = json.dumps(info).encode("utf-8")
        try:
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, data, 0)
            os.fsync(self.fd)
        except OSError as error:
            raise self._refused("lock.cannot-write", reason=reason(error)) from None

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
