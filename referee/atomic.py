"""Writing a record file whole or not at all, the one way every command rewrites one."""

from __future__ import annotations

import os


def replace_file(path: str, data: bytes, prefix: str = "referee") -> None:
    """Replace a file's content with ``data``: written to a temporary file in the same
    folder (``.NAME.*.PREFIX``), flushed to the disk, given the file's mode, then renamed
    over it, and the rename made durable; a crash leaves either the old file or the new
    one, never half of one. A symbolic link is followed: the file it points to is
    replaced, the link kept."""
    import tempfile

    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    mode = os.stat(target).st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=f".{prefix}")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    sync_folder(folder)


def sync_folder(folder: str) -> None:
    """Make a new or renamed file's entry in its folder durable too."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
