"""Caroleto's cards as data: what kind of card each is, whom it may name, what a trump
answers, and what each does at its fullest (the exchange's face-up card, the 9's draws).

The conventions are in docs/games/caroleto.md, card by card."""

from __future__ import annotations

from collections.abc import Callable

from ...cards import CAVALIER, EXCUSE, JACK, KING, QUEEN, TAROT_78, TRUMP, UNSEEN, Card

ROI_DE_PIQUE = Card(KING, "S")
RED = frozenset("HD")

SUIT_KINDS = {1: "ace", 2: "sips", 3: "sips", 4: "sips", 5: "sips", 6: "six", 7: "seven", 8: "eight", 9: "nine",
              10: "ten", JACK: "valet", CAVALIER: "cavalier", QUEEN: "dame", KING: "roi"}
"""The kind of a suited card, by rank (the Roi de pique is a kind of its own)."""

TARGETED = frozenset({"sips", "eight", "ten", "valet"})
"""Cards laid before their target: « 2 à 5, 8, 10, valet »."""
ANSWERED = TARGETED | {"nine"}
"""What a trump 2-20 answers: the targeted cards aimed at its player, and the 9's draw
(the text's own example: « si quelqu'un joue un neuf, il devra piocher ... à la place
du joueur ciblé »). Never a 6: « le 6 reste imparable »."""
MAY_NAME = TARGETED | {"six", "redirect"}
"""Cards whose line may name a player: the targeted cards, a 6's designation, a trump
10-20's redirect."""



def kind(card: Card) -> str:
    """ace, sips (2 to 5), six ... roi, roi-de-pique; back (trumps 2-9), redirect
    (trumps 10-20), bout (the Excuse, 1 and 21 of trumps)."""
    if card.suit == EXCUSE:
        return "bout"
    if card.suit == TRUMP:
        return "bout" if card.rank in (1, 21) else "back" if card.rank <= 9 else "redirect"
    if card == ROI_DE_PIQUE:
        return "roi-de-pique"
    return SUIT_KINDS[card.rank]


KIND = {card: kind(card) for card in TAROT_78}
"""Each card's kind, worked out once."""


def is_seen(card: Card) -> bool:
    """``card.seen``, as a function: compiled, a call of it is native, where the property
    of the card (a named tuple) is looked up by name at each of the replay's many asks."""
    return card.suit != UNSEEN


def is_trump(card: Card) -> bool:
    """A trump that cuts in the ace's bidding: T1 to T21 (the Excuse is no trump)."""
    return card.suit == TRUMP


def cap(players: int) -> int:
    """« pas plus de 8 gorgées si on est 4, 10 si on est 5, etc. »: two sips a player."""
    return 2 * players


def maximum(card: Card, players: int) -> tuple[int, str] | None:
    """What the card makes its drawer drink when drawn face up (the exchange, the 9):
    the most it can make one player drink, sips capped at two a player; None for a card
    with no drink of its own. Amount and unit."""
    found = _MAXIMUM.get(KIND[card] if card in KIND else kind(card))
    if found is None:
        return None
    amount, unit = found(card, players)
    return (min(amount, cap(players)) if unit == "sips" else amount), unit


_MAXIMUM: dict[str, Callable[[Card, int], tuple[int, str]]] = {
    "ace": lambda card, n: (2 * n, "sips"),          # the bidding goes round and round: only the cap bounds it
    "sips": lambda card, n: (card.rank, "sips"),     # the card's value
    "six": lambda card, n: (1, "sips"),              # a 6 alone: one sip
    "seven": lambda card, n: (n, "sips"),            # the top of the count
    "eight": lambda card, n: (1, "glass"),           # the dare refused
    "ten": lambda card, n: (8, "sips"),              # the duel lost three times: 2, 4, 8
    "valet": lambda card, n: (1, "half"),            # the dossier judged pourri
}
