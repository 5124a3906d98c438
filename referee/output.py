"""``check -o FILE``: a report written to a file whole or not at all.

The report goes to a temporary file in the same folder, which is flushed to the disk and
renamed over FILE once the check is over; interrupted, it leaves FILE as it was."""

from __future__ import annotations

import os
import tempfile

from .atomic import sync_folder
from .safe_text import plain_lines


class OutputFile:
    """Where a report's chunks go instead of the standard output: strings as they are, a
    text report's lists of lines of styled pieces as plain lines."""

    def __init__(self, path: str):
        self.path = os.path.realpath(path)
        folder, name = os.path.split(self.path)
        handle, self.temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".referee")
        self.file = os.fdopen(handle, "w", encoding="utf-8", newline="")

    def write(self, chunk: object) -> None:
        if isinstance(chunk, list):
            chunk = plain_lines(chunk)
        self.file.write(str(chunk))

    def commit(self) -> None:
        """Make the report the file's content: the file's mode kept, a new one's from the umask."""
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        try:
            mode = os.stat(self.path).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(self.temporary, mode)
        os.replace(self.temporary, self.path)
        sync_folder(os.path.dirname(self.path))

    def discard(self) -> None:
        self.file.close()
        try:
            os.unlink(self.temporary)
        except OSError:
            pass
