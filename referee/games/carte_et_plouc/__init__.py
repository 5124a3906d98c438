"""Le Carte et Plouc de Charlotte, one module per concern:

- ``rules``: the rules class: the deal, the turn, the powers, the draws and passes, the end;
- ``state``: the table's state and what fits now, which rules, calls, play and ruling stand on;
- ``calls``: the calls (« carte », « plouc », « contre ») and the additional rules;
- ``cards``: what the table knows of the cards (hands, discard, stock);
- ``play``: the simulator's side: legal events, the deal, the hidden view, the mistakes;
- ``ruling``: a legal line's ruling in words (``referee explain FILE:LINE``);
- ``examples``: a record for each code (``referee explain CODE``).

The conventions followed where the rule text is silent are in docs/games/carte-et-plouc.md."""

from .rules import RULES_CLASS

__all__ = ["RULES_CLASS"]
