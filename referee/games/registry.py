"""The registry of games as data: each game's name, title, rules module and how its cards
are written. Data only, importing nothing of referee: ``notation`` (which needs to know
whether a game writes its cards as numbers) reads it below the games, and
``referee.games`` (which loads the rules) above. Adding a game is one line in ``GAMES``."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final


class GameEntry:
    """A game of the registry (written by hand, not as a dataclass: referee/fast/plain.py).
    Its fields never change: Final, which mypy checks and compiled code enforces."""

    name: Final[str]
    title: Final[str]
    module: Final[str | None]
    """The module of its rules; None while the game is not refereed yet."""
    numbered: Final[bool]
    """Cards are written by their number alone (a bare number is a card, not a count)."""

    def __init__(self, name: str, title: str, module: str | None, numbered: bool = False) -> None:
        self.name = name
        self.title = title
        self.module = module
        self.numbered = numbered

    def __reduce__(self) -> tuple[type[GameEntry], tuple[str, str, str | None, bool]]:
        """Copied and pickled by its fields (compiled with mypyc, a Final field cannot be
        set one at a time)."""
        return GameEntry, (self.name, self.title, self.module, self.numbered)


GAMES = (
    GameEntry("bataille-corse", "Bataille corse", "bataille_corse"),
    GameEntry("carte-et-plouc", "Carte et Plouc de Charlotte", "carte_et_plouc"),
    GameEntry("pierre-qui-roule", "Pierre qui Roule", "pierre_qui_roule"),
    GameEntry("flaschenteufel", "Flaschenteufel", "flaschenteufel", numbered=True),
    GameEntry("caroleto", "Caroleto", "caroleto"),
)


def normalize(name: str) -> str:
    """'Bataille  Corse' and 'bataille_corse' both become 'bataille-corse'."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "-".join(plain.lower().replace("_", " ").replace("-", " ").split())


@lru_cache(maxsize=64)
def find_game(name: str) -> GameEntry | None:
    """The game a [Game] header names, or None."""
    key = normalize(name).replace("-", "")
    return next((g for g in GAMES if key in (g.name.replace("-", ""), normalize(g.title).replace("-", ""))), None)


def numbers_are_cards(name: str | None) -> bool:
    """Whether the game ``name`` names writes its cards as bare numbers (Flaschenteufel)."""
    entry = find_game(name) if name else None
    return bool(entry and entry.numbered)
