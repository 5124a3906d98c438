"""The editor's memory on a record flagged on every line (found by bench/fuzz.py --lsp,
issue 38): the copies of a game kept to replay from held every violation each, so they
grew as the square of the record (211 MB for 266 kB)."""

from __future__ import annotations

import tracemalloc

from referee.lsp.model import Document

HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays 7H\n'


def peak(lines: int) -> int:
    tracemalloc.start()
    try:
        Document("/tmp/flagged.txt").update(HEADERS + "Zoe plays 7H\n" * lines)  # Zoe plays in no game
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_record_flagged_on_every_line_takes_memory_in_proportion() -> None:
    small, large = peak(2_000), peak(6_000)
    assert large < 12_000_000, large  # 3 MB per thousand lines and more before; about 1 MB now
    assert large < 4 * small, (small, large)  # three times the lines: about three times the memory
