"""The games' rules, loaded on demand from the registry (``referee.game_names``: names
and aliases as data, which ``notation`` reads too)."""

from __future__ import annotations

import importlib

from ..game_names import GAMES, GameEntry, find_game, normalize, numbers_are_cards
from .base import Rules

__all__ = ["GAMES", "GameEntry", "find_game", "load_rules", "normalize", "numbers_are_cards"]


def load_rules(entry: GameEntry) -> type[Rules]:
    """The rules class of a game (``RULES_CLASS`` of its module or package)."""
    rules_class: type[Rules] = importlib.import_module(f"{__name__}.{entry.module}").RULES_CLASS
    return rules_class
