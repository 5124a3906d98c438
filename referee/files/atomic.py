"""The one way referee writes a file (docs/files.md): every writer goes through here.

- ``Temporary``: a new file beside a name (``.NAME.XXXXXXXX.PREFIX``, made in the folder
  kept open, never through a link), written whole, synced, given its mode (and owner),
  then renamed over the name; ``discard`` removes it. ``fmt``'s rewrite
  (RecordFile.replace) and ``check -o`` use it.
- ``open_output``: where ``check -o FILE`` writes. A regular file, or a new name, is
  replaced by a rename once the report is whole; a named pipe or a character device
  (``/dev/null``, a terminal) is written in place, opened for writing as a shell's ``>``
  opens it; ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` and ``/proc/self/fd/N`` write
  to that very descriptor (``>> ci.log`` appends); a symbolic link, a block device, a
  socket and a folder are refused (WriteFailed with the reason).
- ``side_name``: the name of a file kept beside another (a lock, a temporary file) within
  the longest name the folder takes: a long name is cut, and a hash of it added.
- ``write_all``: every byte written, however many calls it takes.

Errors are WriteFailed: the path as named and the reason, in words; a temporary file is
removed before it is raised."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable

from ..messages import say

_O = {name: getattr(os, name, 0) for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC", "O_DIRECTORY", "O_BINARY")}
NAME_MAX = 255
"""The longest file name, in bytes, when the folder does not say (most systems' limit)."""
OUTPUT_FULL = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name))
"""The errors of an output that cannot take more (a full disk or quota, ``> /dev/full``): on
the standard output, said by the command's endings (running.with_endings)."""
_BUFFER = 1 << 16
_STANDARD = r"/dev/(?:(stdout)|(stderr)|fd/([0-9]{1,9}))|/proc/(?:self|([0-9]{1,9}))/fd/([0-9]{1,9})"


class WriteFailed(Exception):
    """A file that could not be written, or that referee will not write: the path as
    named and why (a few words, from the system or the catalogue)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        self.path, self.reason = path, reason


def reason(error: OSError) -> str:
    """Why the system refused, in a few words."""
    if error.errno == errno.ELOOP:
        return say("file.kind.link")
    return error.strerror or str(error) or type(error).__name__


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    for test, key in ((stat.S_ISDIR, "folder"), (stat.S_ISFIFO, "fifo"), (stat.S_ISCHR, "device"),
                      (stat.S_ISBLK, "device"), (stat.S_ISSOCK, "socket"), (stat.S_ISLNK, "link")):
        if test(mode):
            return say(f"file.kind.{key}")
    return None if stat.S_ISREG(mode) else say("file.kind.other")


def write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    """Write every byte of ``data`` (a write may take only part of it); OSError."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def name_max(folder: int | str) -> int:
    """The longest name the folder takes, in bytes."""
    try:
        found = os.fpathconf(folder, "PC_NAME_MAX") if isinstance(folder, int) else os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return NAME_MAX
    return found if found > 0 else NAME_MAX


def side_name(folder: int | str, name: str, suffix: str) -> str:
    """``.NAME`` + ``suffix``: a file referee keeps beside NAME. When that is longer than
    the folder takes, NAME is cut and a hash of the whole name added (``.CUT~HASH`` +
    ``suffix``): the same name always gives the same side name."""
    whole = f".{name}{suffix}"
    limit = name_max(folder)
    if len(os.fsencode(whole)) <= limit:
        return whole
    import hashlib

    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
    room = max(limit - len(os.fsencode(f".~{digest}{suffix}")), 0)
    cut = os.fsencode(name)[:room].decode("utf-8", "ignore")
    return f".{cut}~{digest}{suffix}"


def umask_mode() -> int:
    """The mode a new file gets: 0o666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class Temporary:
    """A new file beside ``name`` in the open ``folder``, renamed over ``name`` once
    whole (``commit``) or removed (``discard``). OSError when it cannot be made."""

    def __init__(self, folder: int, name: str, prefix: str) -> None:
        import secrets

        self.folder, self.target = folder, name
        for attempt in range(100):  # pragma: no mutate - a name taken by chance: another
            self.name = side_name(folder, name, f".{secrets.token_hex(4)}.{prefix}")
            try:
                self.fd = os.open(self.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O["O_NOFOLLOW"] | _O["O_CLOEXEC"]
                                  | _O["O_BINARY"], 0o600, dir_fd=folder)
                break
            except FileExistsError:
                if attempt == 99:
                    raise
        self.made = True

    def write(self, data: bytes | bytearray | memoryview) -> None:
        write_all(self.fd, data)

    def commit(self, mode: int, owner: tuple[int, int] | None = None, check: Callable[[], None] | None = None) -> None:
        """Give the file ``mode`` (and ``owner``, as far as the user may), sync it, run
        ``check`` (which may refuse), and rename it over the name; the folder synced."""
        try:
            if owner is not None:
                same_owner(self.fd, owner)
            if hasattr(os, "fchmod"):
                os.fchmod(self.fd, mode)
            os.fsync(self.fd)
            fd, self.fd = self.fd, -1
            os.close(fd)
            if check is not None:
                check()
            os.rename(self.name, self.target, src_dir_fd=self.folder, dst_dir_fd=self.folder)
        except BaseException:
            self.discard()
            raise
        self.made = False
        sync(self.folder)

    def discard(self) -> None:
        """Close and remove the file (nothing when it is gone already)."""
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            try:
                os.close(fd)
            except OSError:
                pass
        if self.made:
            self.made = False
            try:
                os.unlink(self.name, dir_fd=self.folder)
            except OSError:
                pass


def same_owner(fd: int, owner: tuple[int, int]) -> None:
    """The owner and group ``owner`` on an open file, as far as the user may (root keeps
    both; another user keeps the group when it is one of theirs)."""
    if hasattr(os, "fchown"):
        for pair in (owner, (-1, owner[1])):
            try:
                os.fchown(fd, *pair)
                return
            except OSError:
                continue


def sync(fd: int) -> None:
    """Make a folder's entries (a file made or renamed in it) durable, as far as it can be."""
    try:
        os.fsync(fd)
    except OSError:
        pass


def sync_folder(folder: str) -> None:
    """``sync`` by the folder's name."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        sync(handle)
    finally:
        os.close(handle)


# --- check -o FILE ------------------------------------------------------------------------

class Output:
    """Where ``check -o FILE`` writes (see the module's docstring): ``write`` the report's
    bytes, then ``commit`` (the report is FILE's now) or ``discard``; WriteFailed."""

    def __init__(self, path: str, fd: int, temporary: Temporary | None, mode: int, owner: tuple[int, int] | None) -> None:
        self.path, self.fd, self.temporary, self.mode, self.owner = path, fd, temporary, mode, owner
        self.buffer = bytearray()

    def write(self, data: bytes) -> None:
        self.buffer += data
        if len(self.buffer) >= _BUFFER:
            self._flush()

    def _flush(self) -> None:
        data, self.buffer = self.buffer, bytearray()
        try:
            write_all(self.fd, data)
        except OSError as error:
            self.discard()
            raise WriteFailed(self.path, reason(error)) from None

    def commit(self) -> None:
        self._flush()
        try:
            if self.temporary is not None:
                self.temporary.commit(self.mode, self.owner)
                folder, self.temporary.folder, self.temporary, self.fd = self.temporary.folder, -1, None, -1
                os.close(folder)
                return
            try:
                os.fsync(self.fd)
            except OSError as error:
                if error.errno not in (errno.EINVAL, errno.EROFS, errno.ENOTSUP, errno.EBADF):
                    raise  # a pipe, a terminal or /dev/null has nothing to sync; a full disk does
            os.close(self.fd)
            self.fd = -1
        except OSError as error:
            self.discard()
            raise WriteFailed(self.path, reason(error)) from None

    def discard(self) -> None:
        """Drop the report: a temporary file removed, FILE left as it was."""
        self.buffer = bytearray()
        if self.temporary is not None:
            self.temporary.discard()
            folder, self.temporary.folder = self.temporary.folder, -1
            if folder >= 0:
                os.close(folder)
        elif self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
        self.fd = -1


def standard_descriptor(path: str) -> int | None:
    """The descriptor a name of this process's own streams stands for (``/dev/stdout``
    1, ``/dev/fd/N`` and ``/proc/self/fd/N`` N), else None."""
    import re

    found = re.fullmatch(_STANDARD, path)
    if found is None:
        return None
    out, err, dev_fd, pid, proc_fd = found.groups()
    if pid is not None and int(pid) != os.getpid():
        return None
    return 1 if out else 2 if err else int(dev_fd or proc_fd)


def open_output(path: str) -> Output:
    """The file of ``check -o`` opened for writing (see the module's docstring);
    WriteFailed when it cannot be, or must not be, written."""
    number = standard_descriptor(path)
    if number is not None:
        try:
            return Output(path, os.dup(number), None, 0, None)
        except OSError as error:
            raise WriteFailed(path, reason(error)) from None
    folder_name, name = os.path.split(path)
    try:
        folder = os.open(folder_name or ".", os.O_RDONLY | _O["O_DIRECTORY"] | _O["O_CLOEXEC"])
    except OSError as error:
        raise WriteFailed(path, reason(error)) from None
    try:
        return _open_in(path, folder, name)
    except BaseException:
        os.close(folder)
        raise


def _open_in(path: str, folder: int, name: str) -> Output:
    try:
        status: os.stat_result | None = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise WriteFailed(path, reason(error)) from None
    if status is None or stat.S_ISREG(status.st_mode):
        try:
            temporary = Temporary(folder, name, "referee")
        except OSError as error:
            raise WriteFailed(path, reason(error)) from None
        mode = umask_mode() if status is None else stat.S_IMODE(status.st_mode)
        owner = None if status is None else (status.st_uid, status.st_gid)
        return Output(path, temporary.fd, temporary, mode, owner)
    refusal = _refusal(status.st_mode)
    if refusal is not None:
        raise WriteFailed(path, refusal)
    try:  # a named pipe waits for its reader here, as a shell's > does
        fd = os.open(name, os.O_WRONLY | _O["O_NOFOLLOW"] | _O["O_CLOEXEC"] | _O["O_BINARY"], dir_fd=folder)
    except OSError as error:
        raise WriteFailed(path, reason(error)) from None
    refusal = _refusal(os.fstat(fd).st_mode)
    if refusal is not None or stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since it was looked at
        os.close(fd)
        raise WriteFailed(path, refusal or say("file.replaced"))
    os.close(folder)
    return Output(path, fd, None, 0, None)


def _refusal(mode: int) -> str | None:
    """Why ``-o`` does not write a file of this kind (None: it may, in place or by rename)."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        return None
    if stat.S_ISLNK(mode):
        return say("output.link")
    kind = say("output.kind.block") if stat.S_ISBLK(mode) else kind_of(mode)
    return say("output.kind", kind=kind)
