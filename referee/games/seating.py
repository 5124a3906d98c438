"""Turn order around the table, shared by the games: seats in [Players] order, each
player's left neighbour the next one, a direction that a card may reverse, players
skipped or out."""

from __future__ import annotations

from collections.abc import Collection, Iterator

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Seating:
    """Who comes after whom. Seats are numbers in [Players] order; ``direction`` 1 goes
    to the left (the next seat), -1 to the right."""

    def __init__(self, count: int, direction: int = 1):
        self.count = count
        self.direction = direction
        self.out: set[int] = set()
        """Seats that no longer play (they are passed over)."""

    def reverse(self) -> None:
        self.direction = -self.direction

    def left(self, seat: int) -> int:
        """The left neighbour (the next seat in [Players]), whatever the direction."""
        return (seat + 1) % self.count

    def right(self, seat: int) -> int:
        """The right neighbour (the previous seat in [Players])."""
        return (seat - 1) % self.count

    def after(self, seat: int, steps: int = 1) -> int:
        """The player ``steps`` turns after ``seat`` in the current direction, passing
        over the seats that are out (``seat`` itself when nobody else plays)."""
        if not self.out:
            return (seat + steps * self.direction) % self.count
        for _ in range(steps):
            seat = next(self.around(seat), seat)
        return seat

    def around(self, seat: int) -> Iterator[int]:
        """The other seats still in, in turn order from ``seat`` (not included)."""
        for k in range(1, self.count):
            other = (seat + k * self.direction) % self.count
            if other not in self.out:
                yield other

    def first(self, seat: int, skip: Collection[int] = ()) -> int | None:
        """The first seat still in and not in ``skip``, in turn order from ``seat``
        (``seat`` itself first); None when there is none."""
        out, count, step = self.out, self.count, self.direction
        for _ in range(count):
            if seat not in out and seat not in skip:
                return seat
            seat = (seat + step) % count
        return None

    def neighbours(self, seat: int) -> tuple[int, int]:
        """(left, right)."""
        return self.left(seat), self.right(seat)
