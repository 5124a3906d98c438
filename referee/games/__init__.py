"""The games' rules, loaded on demand from the registry (``referee.games.registry``:
names and aliases as data, which ``notation`` reads too). Importing this package loads
no rules and nothing above the registry (``notation`` imports the registry through it):
``load_rules`` imports a game's module the first time it is asked for."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .registry import GAMES, GameEntry, find_game, normalize, numbers_are_cards

if TYPE_CHECKING:
    from .base import Rules

__all__ = ["GAMES", "GameEntry", "find_game", "load_rules", "normalize", "numbers_are_cards"]


_LOADED: dict[str, type[Rules]] = {}
"""The rules class of each game module loaded."""


def load_rules(entry: GameEntry) -> type[Rules]:
    """The rules class of a game (``RULES_CLASS`` of its module or package)."""
    module = entry.module
    assert module is not None  # a game referee referees
    rules_class = _LOADED.get(module)
    if rules_class is None:
        rules_class = _LOADED[module] = importlib.import_module(f"{__name__}.{module}").RULES_CLASS
    return rules_class
