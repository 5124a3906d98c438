"""``check -o FILE``: a report written to a file whole or not at all, through the one
write path (referee/files/atomic.py, docs/files.md).

A regular file (or a new name) gets the report through a temporary file in the same folder,
synced and renamed over FILE once the check is over; interrupted or failed, it leaves FILE
as it was and no temporary file. A named pipe or a character device (``/dev/null``) is
written in place, ``/dev/stdout`` and its kin through the descriptor they name; a link, a
block device, a socket or a folder is refused."""

from __future__ import annotations

from .atomic import WriteFailed as WriteFailed, open_output
from ..text.safe_text import plain_lines


class OutputFile:
    """Where a report's chunks go instead of the standard output: strings as they are, a
    text report's lists of lines of styled pieces as plain lines. WriteFailed (with the
    reason) when FILE cannot be written; the temporary file is then gone."""

    def __init__(self, path: str):
        self.path = path
        self.output = open_output(path)

    def write(self, chunk: object) -> None:
        if isinstance(chunk, list):
            chunk = plain_lines(chunk)
        self.output.write(str(chunk).encode("utf-8", "backslashreplace"))  # as records_out() writes the standard output

    def commit(self) -> None:
        """Make the report the file's content: the file's mode kept, a new one's from the umask."""
        self.output.commit()

    def discard(self) -> None:
        self.output.discard()
