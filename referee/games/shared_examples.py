"""The examples of the engine's ``REC-*`` codes (their rules: referee/record_rules.py),
shown by ``referee explain`` when no game has one of its own: each a short record of a
game that breaks the rule (its last line, a deal line or a header, marked
``; expect CODE``). With the games, since each is written in one."""

from __future__ import annotations

_BC = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n'
_SHORT_HAND = '''Bob holds 5H            ; accepted REC-BAD-DEAL (one card, for a short game)
Alice plays 3C
Bob plays 5H            ; Bob's last card
Alice plays 4D          ; Bob's turn comes with an empty pack: Alice wins
'''
"""A finished game of Bataille corse in four lines: the table let Bob start with one card."""

EXAMPLES = {
    "REC-UNKNOWN-PLAYER": _BC + "Alice plays 5H\nZoe plays 6C             ; expect REC-UNKNOWN-PLAYER\n",
    "REC-UNSUPPORTED-EVENT": _BC + "Alice plays 5H\nBob draws 2              ; expect REC-UNSUPPORTED-EVENT\n",
    "REC-NOT-IN-DECK": _BC + "Alice plays 5H\nBob plays T5             ; expect REC-NOT-IN-DECK\n",
    "REC-DUPLICATE-CARD": _BC + "Alice plays 5H\nBob plays 6C\nAlice plays 5H           ; expect REC-DUPLICATE-CARD\n",
    "REC-LATE-DEAL": _BC + "Alice plays 5H\nBob holds 9S             ; expect REC-LATE-DEAL\n",
    "REC-BAD-DEAL": _BC + "Alice holds 20           ; expect REC-BAD-DEAL\nAlice plays 5H\n",
    "REC-AFTER-END": _BC + _SHORT_HAND + "Alice plays 6D           ; expect REC-AFTER-END\n",
    "REC-RESULT-MISMATCH": _BC + '[Result "Bob"]           ; expect REC-RESULT-MISMATCH\nAlice plays 5H\n',
    "REC-SCORE-MISMATCH": '''[Game "pierre-qui-roule"]
[Players "Ann Ben Cas Dom"]
[Dealer "Dom"]
[Scoring "penalties"]
Ann holds 9H             ; accepted REC-BAD-DEAL (a card or two each, for a short hand)
Ben holds 10H 7S         ; accepted REC-BAD-DEAL
Cas holds JH             ; accepted REC-BAD-DEAL
Dom holds QH             ; accepted REC-BAD-DEAL
Ann plays 9H             ; Ben, left with 7S, is the last to hold cards
Ben scores 1             ; expect REC-SCORE-MISMATCH
''',
    "REC-STALE-ACCEPTED": _BC + "Alice plays 5H\nBob plays 6C             ; accepted BC-FALSE-SLAP ; expect REC-STALE-ACCEPTED\n",
    "REC-AFTER-MATCH": '[Match "Friday"]\n[Hands "1"]\n' + _BC + _SHORT_HAND
                       + '\n[Match "Friday"]         ; expect REC-AFTER-MATCH\n',
    "REC-ROUND-ORDER": '[Match "Friday"]\n' + _BC + "Alice plays 5H\n\n"
                       + '[Match "Friday"]\n[Round "3"]              ; expect REC-ROUND-ORDER\n',
    "REC-DEALER-ROTATION": '[Match "Friday"]\n' + _BC + '[Dealer "Alice"]\nBob plays 5H\n\n'
                           + '[Match "Friday"]\n[Dealer "Alice"]         ; expect REC-DEALER-ROTATION\n',
    "REC-TOTALS-MISMATCH": '[Match "Friday"]\n' + _BC + '[Totals "Bob 1"]         ; expect REC-TOTALS-MISMATCH\n'
                           + _SHORT_HAND,
    "REC-MISSPELLED-TAG": _BC + '[Slap "sandwich"]        ; expect REC-MISSPELLED-TAG\nAlice plays 5H\n',
}
"""A short record per code, its fault marked where referee reports it."""
