"""A record file opened once, and written only through what was opened and checked.

``fmt`` and ``play`` (and the table page) read a record and then write it. Between the
two, anyone who may write the record's folder could put a symbolic link in its place, and
a writer that named the file again would write wherever the link points. Here:

- the record's name is resolved once, when it is opened (a link named on purpose leads to
  the file it points to, once); its folder is opened then and kept; the file is opened
  relative to that folder without following a link (``O_NOFOLLOW``), without blocking
  (``O_NONBLOCK``: a pipe put there cannot hang), and checked (``fstat``) to be a regular
  file no larger than ``limit`` before a byte of it is read;
- ``append`` and ``truncate`` write through the descriptor that was checked, then sync it;
- ``replace`` writes a temporary file in the same folder (through the folder kept), gives
  it the record's owner, group and mode (as far as the user may), syncs it, checks that
  the name still leads to the very file that was read, unchanged since, and renames the
  temporary file over that name. A rename replaces a link put there, never follows it.
  A read-only record and a record with several names (hard links: a rename would make
  them two files) are left alone, with a sentence that says why.

Every refusal is a FileRefused: the path and a sentence from the message catalogue."""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING, BinaryIO

from .atomic import Temporary, WriteFailed, kind_of as kind_of, reason as reason, sync, write_all
from ..messages import say
from ..text.safe_text import visible

if TYPE_CHECKING:  # pathlib and what it imports cost 2.5 ms of every start
    from pathlib import Path

RECORD_LIMIT = 64 << 20
"""The largest record ``fmt`` and ``play`` read whole, in bytes (``check`` streams any size)."""
_O = {name: getattr(os, name, 0) for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC", "O_DIRECTORY", "O_BINARY")}


class FileRefused(Exception):
    """A file referee will not read or write: its path, and why (a sentence)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(path, message)
        self.path, self.message = path, message

    def __str__(self) -> str:
        return visible(f"{self.path}: {self.message}")


def open_regular(path: str) -> BinaryIO:
    """A file opened for reading, checked to be a regular file (a link is followed) before
    a byte of it is read: ValueError with a sentence for a named pipe (which could hang the
    read), a device (``/dev/zero`` never ends, ``/dev/stdin`` reads the terminal), a socket
    or a folder; the standard input is read with ``-``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
                 | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(say("file.not-regular", kind=kind_of(mode)) + say("file.use-stdin"))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _writable(status: os.stat_result) -> bool:
    """Whether the mode lets the user write the file (root too is held to its mode: a
    read-only record was made so on purpose)."""
    if not hasattr(os, "getuid"):
        return bool(status.st_mode & stat.S_IWUSR)
    uid = os.getuid()
    if uid == 0:
        return bool(status.st_mode & 0o222)
    if status.st_uid == uid:
        return bool(status.st_mode & stat.S_IWUSR)
    if status.st_gid in (os.getgid(), *os.getgroups()):
        return bool(status.st_mode & stat.S_IWGRP)
    return bool(status.st_mode & stat.S_IWOTH)


class RecordFile:
    """A record opened once (see the module's docstring); a context manager."""

    def __init__(self, path: str, folder: int, name: str, fd: int, writable: bool, limit: int) -> None:
        self.path, self.folder, self.name, self.fd, self.writable, self.limit = path, folder, name, fd, writable, limit
        self.status = os.fstat(fd)

    @classmethod
    def open(cls, path: str | Path, *, create: bool = False, limit: int = RECORD_LIMIT, write: bool = True) -> RecordFile:
        """Open a record: FileRefused when it cannot be, is not a regular file or is over
        ``limit`` bytes. ``create``: make it (empty) when there is none. ``write``: open it
        for writing when the user may (else it is read only, and a write is refused)."""
        shown = str(path)
        real = os.path.realpath(path)  # links named on purpose are resolved here, once
        folder_name, name = os.path.split(real)
        try:
            folder = os.open(folder_name or ".", os.O_RDONLY | _O["O_DIRECTORY"] | _O["O_CLOEXEC"])
        except OSError as error:
            raise FileRefused(shown, say("file.unreadable", reason=reason(error))) from None
        try:
            fd, writable = cls._open_in(folder, name, create, write)
        except OSError as error:
            os.close(folder)
            raise FileRefused(shown, say("file.unreadable", reason=reason(error))) from None
        try:
            record = cls(shown, folder, name, fd, writable, limit)
            kind = kind_of(record.status.st_mode)
            if kind is not None:
                raise FileRefused(shown, say("file.not-regular", kind=kind))
            if record.status.st_size > limit:
                raise FileRefused(shown, say("file.too-large", limit=limit >> 20))
            os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            os.close(folder)
            raise
        return record

    @staticmethod
    def _open_in(folder: int, name: str, create: bool, write: bool) -> tuple[int, bool]:
        flags = _O["O_NOFOLLOW"] | _O["O_NONBLOCK"] | _O["O_CLOEXEC"] | _O["O_BINARY"]
        if create:
            try:
                return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | flags, 0o666, dir_fd=folder), True
            except FileExistsError:
                pass
        if write:
            try:
                return os.open(name, os.O_RDWR | flags, dir_fd=folder), True
            except OSError as error:
                if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ETXTBSY, errno.EISDIR):
                    raise
        return os.open(name, os.O_RDONLY | flags, dir_fd=folder), False

    # --- Reading ----------------------------------------------------------------------------
    def read_bytes(self) -> bytes:
        """The whole file, from its start (FileRefused past the limit: it grew)."""
        chunks, size = [], 0
        offset = 0
        while size <= self.limit:
            chunk = os.pread(self.fd, min(1 << 20, self.limit + 1 - size), offset)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            offset += len(chunk)
        if size > self.limit:
            raise FileRefused(self.path, say("file.too-large", limit=self.limit >> 20))
        self.status = os.fstat(self.fd)
        return b"".join(chunks)

    def read_text(self) -> str:
        """The whole file as text (UTF-8, a byte-order mark dropped); UnicodeDecodeError."""
        return self.read_bytes().decode("utf-8-sig")

    def size(self) -> int:
        return os.fstat(self.fd).st_size

    def last_byte(self) -> bytes:
        """The file's last byte (b"" when it is empty)."""
        size = self.size()
        return os.pread(self.fd, 1, size - 1) if size else b""

    def moved(self) -> bool:
        """Whether the record's name now leads to another file than the one held (an editor
        saved it by writing a copy and renaming it over the old one); FileRefused when it leads
        to nothing, or to what is not a regular file (a link planted there is not followed)."""
        try:
            there = os.stat(self.name, dir_fd=self.folder, follow_symlinks=False)
        except OSError:
            raise FileRefused(self.path, say("file.gone")) from None
        kind = kind_of(there.st_mode)
        if kind is not None:
            raise FileRefused(self.path, say("file.not-regular", kind=kind))
        here = os.fstat(self.fd)
        return (there.st_dev, there.st_ino) != (here.st_dev, here.st_ino)

    def reopen(self) -> None:
        """Hold the file the record's name now leads to, opened as at the start (through the
        folder kept, never through a link), in place of the one held."""
        fd, writable = self._open_in(self.folder, self.name, False, self.writable)
        try:
            status = os.fstat(fd)
            kind = kind_of(status.st_mode)
            if kind is not None:
                raise FileRefused(self.path, say("file.not-regular", kind=kind))
            os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        old, self.fd, self.writable, self.status = self.fd, fd, writable, status
        os.close(old)

    # --- Writing ----------------------------------------------------------------------------
    def _may_write(self) -> None:
        if not self.writable or not _writable(os.fstat(self.fd)):
            raise FileRefused(self.path, say("file.read-only"))

    def append(self, text: str | bytes) -> int:
        """Write at the end of the file, through the descriptor kept, and sync it to the
        disk; the offset it was written at. FileRefused when it cannot be written (a full
        disk): the file is cut back to where it ended, as it was."""
        self._may_write()
        data = text.encode("utf-8") if isinstance(text, str) else text
        offset = os.lseek(self.fd, 0, os.SEEK_END)  # the writing lock keeps other writers out
        try:
            write_all(self.fd, data)
            os.fsync(self.fd)
        except OSError as error:
            try:
                os.ftruncate(self.fd, offset)
            except OSError:
                pass
            raise self._cannot_write(error) from None
        self.status = os.fstat(self.fd)
        return offset

    def truncate(self, size: int) -> None:
        """Cut the file to ``size`` bytes in place (undo of lines appended), and sync it."""
        self._may_write()
        try:
            os.ftruncate(self.fd, size)
            os.fsync(self.fd)
        except OSError as error:
            raise self._cannot_write(error) from None
        self.status = os.fstat(self.fd)

    def _cannot_write(self, error: OSError | WriteFailed) -> FileRefused:
        why = error.reason if isinstance(error, WriteFailed) else reason(error)
        return FileRefused(self.path, say("file.cannot-write", reason=why))

    def replace(self, text: str | bytes | bytearray, prefix: str = "referee") -> None:
        """Replace the file's content, whole or not at all: see the module's docstring.
        FileRefused when the file is read-only, has several names, changed since it was
        read or is no longer the file at its name; the file is then left as it is."""
        self._may_write()
        now = os.fstat(self.fd)
        if now.st_nlink > 1:
            raise FileRefused(self.path, say("file.hard-links", count=now.st_nlink))
        if (now.st_size, now.st_mtime_ns) != (self.status.st_size, self.status.st_mtime_ns):
            raise FileRefused(self.path, say("file.changed"))
        data = text.encode("utf-8") if isinstance(text, str) else text
        try:
            temporary = Temporary(self.folder, self.name, prefix)
        except OSError as error:
            raise FileRefused(self.path, say("file.cannot-write-beside", reason=reason(error))) from None
        try:
            temporary.write(data)
            temporary.commit(stat.S_IMODE(now.st_mode), (now.st_uid, now.st_gid), self._still_here)
        except OSError as error:
            temporary.discard()
            raise self._cannot_write(error) from None
        except BaseException:
            temporary.discard()
            raise
        # The descriptor now holds the old file: take the new one, through the same folder.
        old, self.fd = self.fd, os.open(self.name, os.O_RDWR | _O["O_NOFOLLOW"] | _O["O_CLOEXEC"], dir_fd=self.folder)
        os.close(old)
        self.status = os.fstat(self.fd)

    def _still_here(self) -> None:
        """FileRefused unless the name still leads to the file that was read."""
        try:
            there = os.stat(self.name, dir_fd=self.folder, follow_symlinks=False)
        except OSError:
            raise FileRefused(self.path, say("file.replaced")) from None
        if (there.st_dev, there.st_ino) != (self.status.st_dev, self.status.st_ino):
            raise FileRefused(self.path, say("file.replaced"))

    def sync_folder(self) -> None:
        """Make the file's entry in its folder durable (after it was made or renamed)."""
        sync(self.folder)

    # --- Closing ----------------------------------------------------------------------------
    def close(self) -> None:
        for fd in (self.fd, self.folder):
            try:
                os.close(fd)
            except OSError:
                pass
        self.fd = self.folder = -1

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def replace_file(path: str, data: bytes, prefix: str = "referee") -> None:
    """Replace a file's content with ``data``: a temporary file in the same folder
    (``.NAME.*.PREFIX``), synced, given the file's owner, group and mode, renamed over the
    very entry opened (RecordFile.replace). A symbolic link named here is resolved once:
    the file it points to is replaced, the link kept. FileRefused for a file that is not
    a regular file, read-only, has several names or cannot be written."""
    with RecordFile.open(path) as opened:
        opened.read_bytes()
        opened.replace(data, prefix)


def read_stdin(limit: int, name: str = "<stdin>", too_large: str | None = None) -> bytes:
    """The standard input, read by blocks up to ``limit`` bytes: FileRefused past it (with
    ``too_large``, else the usual sentence), and when the standard input is closed
    (``<&-``) or fails."""
    import sys

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise FileRefused(name, say("file.unreadable", reason=say("file.stdin-closed")))
    chunks, size = [], 0
    try:
        while size <= limit:
            chunk = stream.read(min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except (OSError, ValueError) as error:
        raise FileRefused(name, say("file.unreadable", reason=getattr(error, "strerror", None) or str(error))) from None
    if size > limit:
        raise FileRefused(name, too_large or say("file.too-large", limit=limit >> 20))
    return b"".join(chunks)
