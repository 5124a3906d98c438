"""Writing a record file whole or not at all: through referee/record_file.py, the one way
every command rewrites one (see docs/files.md)."""

from __future__ import annotations

import os

from .record_file import RecordFile


def replace_file(path: str, data: bytes, prefix: str = "referee") -> None:
    """Replace a file's content with ``data``: a temporary file in the same folder
    (``.NAME.*.PREFIX``), synced, given the file's owner, group and mode, renamed over the
    very entry opened (RecordFile.replace). A symbolic link named here is resolved once:
    the file it points to is replaced, the link kept. FileRefused for a file that is not
    a regular file, read-only or has several names."""
    with RecordFile.open(path) as opened:
        opened.read_bytes()
        opened.replace(data, prefix)


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
