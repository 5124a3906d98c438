"""Caroleto's rulings in words (``referee explain FILE:LINE``): what a legal line does,
and the drinks it gives, each with its cause (read from the table the line leaves)."""

from __future__ import annotations

import copy
from collections import Counter

from ...messages import in_clauses, join, say
from ...record import Event
from ..base import Drink, Rules, amount_text


def ruling(rules: Rules, event: Event) -> str | None:
    """The line in words, then every drink it gives (a card's effect resolved, a duel,
    a dossier, a catch), with the cause the game gives it."""
    name, verb = event.player, event.verb
    if verb == "holds":
        return say("ca.ruling.holds", player=name, count=len(event.cards))
    if verb == "round":
        return say("ca.ruling.round", number=event.word or "")
    before = Counter(_key(d) for d in rules.drinks())
    after = copy.deepcopy(rules, {id(rules.setup): rules.setup})  # the table this line leaves
    after.apply(event)
    said = [_what(event)]
    given: list[Drink] = []
    for drink in after.drinks():  # the drinks the line adds (the game works a round's drinks out anew)
        if before[_key(drink)] > 0:
            before[_key(drink)] -= 1
        else:
            given.append(drink)
    if given:
        said.append(say("ca.ruling.drinks-given", drinks=join(
            say("ca.ruling.drink", player=d.player, amount=amount_text(d.amount, d.unit), cause=d.cause) for d in given)))
    return in_clauses(s for s in said if s) or None


def _key(drink: Drink) -> tuple[str, float, str, str]:
    return drink.player, drink.amount, drink.unit, str(drink.cause)


def _what(event: Event) -> str:
    name, verb = event.player, event.verb
    cards = event.cards_text or " ".join(map(str, event.cards))
    if verb == "plays":
        key = "ca.ruling.plays-on" if event.target else "ca.ruling.plays"
        return say(key, player=name, cards=cards, target=event.target or "")
    if verb == "takes":
        key = "ca.ruling.takes-from" if event.target else "ca.ruling.takes"
        return say(key, player=name, cards=cards, target=event.target or "")
    if verb == "says" and event.word in ("roi", "double", "action", "verite", "vérité"):
        return say(f"ca.ruling.says.{event.word.replace('é', 'e')}", player=name)
    if verb in ("drinks", "bids", "passes", "beats", "refuses", "votes", "catches", "discards", "draws"):
        return say(f"ca.ruling.{verb}", player=name, cards=cards, target=event.target or "", word=event.word or "")
    return ""
