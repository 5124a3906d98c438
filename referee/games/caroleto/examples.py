"""For each Caroleto code, a short whole record whose last event line breaks that rule
(``referee explain CODE``; REC-RESULT-MISMATCH is flagged at its ``Result`` header).
tests/test_caroleto.py checks each."""

from __future__ import annotations

_HEAD = '[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n'
_DRAW = "Ann says roi\nAnn takes ?? from Dom\nBen takes ?? from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\n"
"""Ann announces the Roi de pique, and the draw of the first round, Ann first."""
_ACE = _DRAW + "Ann plays AH\nBen plays 7D\nCas plays 7C\nDom plays 7S\n"
"""An ace: the bidding goes from Ben."""
_SEVENS = "Ann says roi\nAnn plays 7H\nBen plays 7C\nCas plays 7D\nDom plays 7S\n"


def _game(body: str, **headers: str) -> str:
    return _HEAD + "".join(f'[{tag} "{value}"]\n' for tag, value in headers.items()) + body


EXAMPLES: dict[str, str] = {
    "CA-ROI-NOT-DEALT": _game("Ann holds 2H\nBen holds 3H\nCas holds 4H\nDom holds 5H\n-- round 1\n", Cards="1"),
    "CA-ROI-UNANNOUNCED": _game("Ann takes ?? from Dom\n"),
    "CA-ROI-FALSE": _game("Ben says roi\nCas says roi\n"),
    "CA-ROI-EARLY": _game(_DRAW + "Ann plays KS\n"),
    "CA-ROI-EXCHANGED": _game("Ann says roi\nAnn discards KS\n"),
    "CA-ROI-CHEAT": _game(_SEVENS, Cards="1"),
    "CA-EXCHANGE-TWICE": _game("Ann says roi\nBen discards 3C\nBen draws 4H\nBen draws ??\nBen discards 5C\n"),
    "CA-EXCHANGE-LATE": _game("Ann says roi\nAnn takes ?? from Dom\nBen discards 3C\n"),
    "CA-DRAW-ORDER": _game("Ann says roi\nBen takes ?? from Ann\n"),
    "CA-DRAW-MISSING": _game("Ann says roi\nAnn takes ?? from Dom\nAnn plays 7C\n"),
    "CA-DRAW-LATE": _game(_DRAW + "Ann plays 7C\nBen takes ?? from Ann\n"),
    "CA-DRAW-LAST-ROUND": _game("Ann says roi\nAnn takes ?? from Dom\n", Cards="1"),
    "CA-DRAW-UNDUE": _game("Ann says roi\nAnn draws ??\n"),
    "CA-STOCK-EMPTY": '[Game "caroleto"]\n[Players "Ann Ben Cas"]\n[Cards "26"]\n'
                      "Ann says roi\nAnn takes ?? from Cas\nBen takes ?? from Ann\nCas takes ?? from Ben\n"
                      "Ann plays 9C\nBen plays 7C\nCas plays 7D\nBen draws ??\n",
    "CA-PLAYED-TWICE": _game(_DRAW + "Ann plays 7C\nAnn plays 7D\n"),
    "CA-TARGET-GENERAL": _game(_DRAW + "Ann plays 7C on Ben\n"),
    "CA-TARGET-SELF": _game(_DRAW + "Ann plays 3S on Ann\n"),
    "CA-NO-TARGET": _game(_DRAW + "Ann plays 3S\n"),
    "CA-TARGET-NEIGHBOUR": _game(_DRAW + "Ann plays 3H on Cas\n"),
    "CA-SIX-TARGETS": _game(_DRAW + "Ann plays 6C on Ben\nCas plays 6D on Dom\n"),
    "CA-TRUMP-ON-SIX": _game(_DRAW + "Ann plays 6C on Ben\nCas plays 7C\nDom plays 7D\nBen plays T14 on Cas\n"),
    "CA-BID-TURN": _game(_ACE + "Cas bids 5H\n"),
    "CA-BID-SUIT": _game(_ACE + "Ben bids 5C\n"),
    "CA-BID-LOW": _game(_ACE + "Ben bids 9H\nCas bids 5H\n"),
    "CA-BID-STOP": _game("Cas holds 9H 2C 3C 4C 5C 6C 8C 9C CC JC\nAnn says roi\nAnn takes ?? from Dom\n"
                         "Ben takes ?? from Ann\nCas takes ?? from Ben\nDom takes 2C from Cas\n"
                         "Ann plays AH\nBen plays 7D\nCas plays CC\nDom plays 7S\nBen bids 5H\nCas passes\n"),
    "CA-HAND-SIZE": _game(_ACE + "Ben bids 5H\nCas passes\nBen draws ??\nBen draws ??\n"),
    "CA-DUEL-WRONG": _game(_DRAW + "Ann plays 10S on Ben\nBen plays 7C\nCas plays 7D\nDom plays 7S\nCas beats Ann\n"),
    "CA-DOUBLE-PAST-8": _game(_DRAW + "Ann plays 10S on Ben\nBen plays 7C\nCas plays 7D\nDom plays 7S\n"
                                      "Ann beats Ben\nBen says double\nAnn beats Ben\nBen says double\n"
                                      "Ann beats Ben\nBen says double\n"),
    "CA-VOTE-WRONG": _game(_DRAW + "Ann plays VS on Ben\nBen plays 7C\nCas plays 7D\nDom plays 7S\nBen votes pourri\n"),
    "CA-DARE-WRONG": _game(_DRAW + "Ann plays 8S on Ben\nBen plays 7C\nCas plays 7D\nDom plays 7S\nCas refuses\n"),
    "CA-CATCH-NO-RULE": _game("Ann says roi\nBen catches Cas\n"),
    "CA-BOUT-TAKE": _game("Ann says roi\nAnn discards 3C\nAnn draws 7H\nAnn draws ??\n" + _DRAW[12:]
                          + "Ann plays 7C\nBen plays 7D\nCas plays 7S\nDom plays QH\nBen takes 3C\n"),
    "CA-UNSETTLED": _game(_DRAW + "Ann plays 10S on Ben\nBen plays 7C\nCas plays 7D\nDom plays 7S\n-- round 2\n"),
    "CA-ROUND-NUMBER": _game("Ann says roi\n-- round 2\n"),
    "CA-DRINK-WRONG": _game(_DRAW + "Ann plays 4S on Ben\nBen plays QH\nCas plays QD\nDom plays QS\nBen drinks 5\n"),
    "CA-DRINK-UNDUE": _game(_DRAW + "Ann plays 4S on Ben\nBen plays QH\nCas plays QD\nDom plays QS\nCas drinks 2\n"),
    "CA-DRINK-MISSING": _game(_DRAW + "Ann plays 4S on Ben\nBen plays QH\nCas plays 5S on Dom\nDom plays QD\n"
                                      "Dom drinks 5\n-- round 2\n"),
    "REC-DUPLICATE-CARD": _game("Ann says roi\nAnn discards 3C\nAnn draws 3C\n"),
    "REC-BAD-DEAL": _game("Ann holds 2H 3H\n"),
    "REC-AFTER-END": _game("Ann says roi\nAnn plays KS\nBen plays 7C\nCas plays 7D\nDom plays 7S\n-- round 2\n", Cards="1"),
    "REC-RESULT-MISMATCH": _game("Ann says roi\n", Result="Ann"),
}
