"""For ``referee explain``: for each code Carte et Plouc reports, a short record whose last
event breaks that rule (REC-RESULT-MISMATCH: its [Result] header)."""

from __future__ import annotations


def _game(body: str, players: str = "Ana Ben Cas", **headers: str) -> str:
    tags = "".join(f'[{tag} "{value}"]\n' for tag, value in headers.items())
    return f'[Game "carte-et-plouc"]\n[Players "{players}"]\n{tags}[Starter "4H"]\n\n{body}'


OUT = "Ana plays QH QS QD QC\nAna plays 8C 8S\nAna says carte\nBen plays 8D\nAna plays 9D\n"
"""Ana, alone with Ben, goes out: four Dames (a carré: she plays again), two 8s, the last card."""

EXAMPLES = {
    "CP-NO-MATCH": _game("Ana plays 9S\n"),
    "CP-ACE-SUIT": _game("Ana plays AS for D\n"),
    "CP-ACE-ANNOUNCE": _game("Ana plays AH\n"),
    "CP-MUST-DRAW": _game("Ana plays 7H\nBen plays 9H\n"),
    "CP-DRAW-COUNT": _game("Ana plays 7H\nBen draws 1\n"),
    "CP-NO-REPLAY": _game("Ana plays QH\nBen plays 9H\n"),
    "CP-OUT-OF-TURN": _game("Ana plays 9H\nCas plays 9C\n"),
    "CP-DRAW-WITH-PLAYABLE": _game("Ana holds 5H 7C AH QS 9S 3C 2H\nAna draws\n"),
    "CP-PASS": _game("Ana passes\n"),
    "CP-NOT-IN-HAND": _game("Ana holds 5H 7C AH QS 9S 3C 2H\nAna plays 9H\n"),
    "CP-STOCK-MISMATCH": _game("Ana plays 9H\nBen draws 2S\n", Stock="9C 2S 8D"),
    "CP-MISSED-CARTE": _game("Ana plays QH QS QD QC\nAna plays 8C 8S\nBen plays 8D\n", "Ana Ben"),
    "CP-MISSED-PLOUC": _game(OUT + "Ben plays 9C\n", "Ana Ben"),
    "CP-CALL-NOT-DUE": _game("Ana plays 9H\nAna says carte\n"),
    "CP-FALSE-CONTRE": _game("Ana plays 9H\nBen says contre\n", Sanction="zouzou"),
    "CP-SANCTION-WRONG": _game("Ana plays QH QS QD QC\nAna plays 8C 8S\nCas says contre\nCas draws\n", Sanction="zouzou"),
    "CP-SANCTION-UNPAID": _game("Ana swears\nAna plays 9H\n", Variants="mot-doux"),
    "CP-WRONG-ACCUSATION": _game("Ana plays 9H\nCas accuses Ana\n", Sanction="zouzou", Variants="david-le-fou"),
    "CP-FALSE-SLAP": _game("Ana plays 9H\nCas slaps\n", Variants="zero"),
    "CP-WRONG-SWAP": _game("Ana plays 9H\nCas swaps with Ben\n", Variants="zero"),
    "CP-SWAP-MISSING": _game("Ana plays 2H\nCas slaps\nBen plays 9H\n", Variants="zero"),
    "CP-THREE-OF-CLUBS": _game("Ana plays QH QS QC QD\nAna plays 8D 8C\nAna says carte\nBen plays 5C\nAna plays 3C\n",
                               "Ana Ben", Variants="3-de-trefle"),
    "CP-MAITRESSE": _game(OUT.replace("Ana plays 9D", "Ana plays 7D"), "Ana Ben", Variants="maitresse"),
    "CP-SWEAR": _game("Ana plays 9H\nBen swears\n", Variants="mot-doux"),
    "REC-DUPLICATE-CARD": _game("Ana plays 9H\nBen plays 9H\n"),
    "REC-NOT-IN-DECK": _game("Ana plays T7\n"),
    "REC-BAD-DEAL": _game("Ana holds 5H 7C AH QS 9S 3C\n"),
    "REC-LATE-DEAL": _game("Ana plays 9H\nBen holds 5H 7C AH QS 9S 3C 2H\n"),
    "REC-AFTER-END": _game(OUT + "Ana says plouc\nBen plays 9C\n", "Ana Ben"),
    "REC-RESULT-MISMATCH": _game(OUT + "Ana says plouc\n", "Ana Ben", Result="Ben"),
}
