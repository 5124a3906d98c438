"""The violation codes referee reports: every refereed game's, and the notation's own
(referee/record_rules.py). ``explain`` tells what each means; the configuration's
``select`` and ``ignore`` are checked against them."""

from __future__ import annotations

from functools import lru_cache

from .. import record_rules
from . import GAMES, load_rules
from .base import Rules


def refereed() -> list[type[Rules]]:
    """The rules of every refereed game."""
    return [load_rules(g) for g in GAMES if g.module is not None]


def known_codes() -> list[str]:
    """Every code a game or the engine can report, in a stable order."""
    return list(_known())


@lru_cache(maxsize=1)
def _known() -> tuple[str, ...]:
    """Found once: the configuration checks the codes of each of its per-file ignores
    against them (thousands of patterns sorted the codes again for each)."""
    codes = dict.fromkeys(record_rules.CODES)
    for cls in refereed():
        codes.update(dict.fromkeys(cls.CODES))
    return tuple(sorted(codes, key=lambda c: (c.startswith("REC-"), c)))
