"""The record's own rules: the engine's ``REC-*`` codes, shared by every game.

A game's violation codes come with the game (``Rules.RULES``, ``CODES``, ``EXAMPLES``);
the codes the engine and the matches report for any game live here, in the first two
tables: the rule of the notation each one breaks (quoted from docs/notation.md). Their
examples, records of a game, are with the games (referee/games/shared_examples.py).
The convention referee follows is the message ``why.<CODE>``.
A game that maps a ``REC-*`` code to one of its own rules (a card twice: the game's
deck) has that rule quoted too (``referee explain``)."""

from __future__ import annotations

TITLE = "the record's notation"

RULES = {
    "players": "Players: required: the players in seating order, separated by spaces or commas. "
               "A name written in another case than in Players (alice for Alice) is an unknown player, with a hint.",
    "events": "An event a game has no use for is reported, not rejected by the parser: "
              "the notation is one language for every game.",
    "deck": "A card is a rank followed by a suit, with no space; each game is played with its own deck.",
    "once": "Each card of the deck is in one place at a time: a card already seen in one place cannot turn up in another.",
    "deal": "A record may give the full deal (holds lines before the first play: each player's hand, "
            "or each pack in order, top card first), a part of it, or nothing but what was seen on the table.",
    "dealt": "The deal gives each player as many cards as the game deals.",
    "end": "A game is over once it has its winner (or its finishing order): nothing is played after its end.",
    "result": "Result: the outcome the table wrote: the winner's name, or a finishing order from the winner on; "
              "referee checks it. * or empty: not known yet, as in PGN.",
    "scores": "Ana scores 28 gives Ana's score for the game as the table counted it; "
              "referee counts the score itself and flags a line that disagrees.",
    "accepted": "; accepted CODE on a line says that the table saw that fault there and let it pass.",
    "match-end": "[Target \"300\"] ends the match when a total reaches 300, [Hands \"5\"] after five finished hands; "
                 "a hand after the end does not count.",
    "round": "[Round \"3\"], when given, must be the hand's number in the match.",
    "rotation": "The deal passes to the left: a hand without Dealer (or First) is dealt by the player after the previous dealer.",
    "tags": "A tag that no game reads but is close to one this game reads ([Slap \"sandwich\"] for [Slaps]) is a violation, "
            "REC-MISSPELLED-TAG: \"did you mean [Slaps]?\"; as written it is ignored, and the option's default would apply in silence.",
    "totals": "[Totals \"Ann 12, Ben 30\"] on a hand gives the running totals after it, as the table wrote them, and is checked.",
}

CODES = {
    "REC-UNKNOWN-PLAYER": "players",
    "REC-UNSUPPORTED-EVENT": "events",
    "REC-NOT-IN-DECK": "deck",
    "REC-DUPLICATE-CARD": "once",
    "REC-LATE-DEAL": "deal",
    "REC-BAD-DEAL": "dealt",
    "REC-AFTER-END": "end",
    "REC-RESULT-MISMATCH": "result",
    "REC-SCORE-MISMATCH": "scores",
    "REC-STALE-ACCEPTED": "accepted",
    "REC-AFTER-MATCH": "match-end",
    "REC-ROUND-ORDER": "round",
    "REC-DEALER-ROTATION": "rotation",
    "REC-TOTALS-MISMATCH": "totals",
    "REC-MISSPELLED-TAG": "tags",
}
