"""Caroleto, a drinking game on the French tarot deck; its rules in one module each:

- rules: the game as it is written, round by round, with every drink and its cause (``Caroleto``);
- state: what the table knows and owes at each moment (``CaroletoState``), which every module below asks;
- round: one round as it is written: exchange, draw, cards laid, what step 4 settles;
- cards: the cards as data: kind, whom each may name, what a trump answers;
- places: where each card may be, as far as the record tells;
- legal: what may be written next (``Caroleto.legal``), and what the simulator leaves aside;
- mistakes: the mistakes a table makes (``simulate --mistakes``), with their codes;
- ruling: a line's ruling in words (``referee explain FILE:LINE``);
- examples: for each code, a short record that breaks its rule.
"""

from .rules import RULES_CLASS

__all__ = ["RULES_CLASS"]
