"""Carte et Plouc's rulings in words (``referee explain FILE:LINE``): what a legal line
does, read from the table it meets and from the table it leaves."""

from __future__ import annotations

import copy

from ...messages import in_clauses, join, say
from ...record import Event
from .state import PloucState


def ruling(rules: PloucState, event: Event) -> str | None:
    """Why a legal line stands, and what it does: the card it matches, the powers it
    sets off (the direction, a player skipped, cards owed, a replay, the suit an ace
    announces), a player out."""
    name, verb = event.player, event.verb
    if verb == "holds":
        return say("cp.ruling.holds", player=name, count=len(event.cards))
    after = copy.deepcopy(rules, {id(rules.setup): rules.setup})  # the table this line leaves
    after.apply(event)
    said = [_what(rules, event)]
    if after.seating.direction != rules.seating.direction:
        said.append(say("cp.ruling.reversed"))
    if after.suit != rules.suit and event.suit:
        said.append(say("cp.ruling.suit", suit=say(f"cp.suits.{after.suit}")))
    if after.owed and after.owed != rules.owed:
        # owed by the next player to take a turn: after a replay (a carré of 7s), the one after it
        debtor = after.seating.after(after.turn, 1 + after.skip) if after.again else after.turn
        said.append(say("cp.ruling.owed", player=after.players[debtor], count=after.owed))
    seat = rules.seats[name]
    when, skipped = after.skipped
    if when == after.seq and skipped:
        said.append(say("cp.ruling.skip", players=join(after.players[s] for s in skipped)))
    if after.zero_open and not rules.zero_open:
        said.append(say("cp.ruling.zero"))
    if after.again and after.turn == seat:
        said.append(say("cp.ruling.again", player=name, why=say(f"cp.again.{after.again}")))
    out = after.out_order[len(rules.out_order):]
    if out:
        said.append(say("cp.ruling.out", players=join(after.players[s] for s in out)))
    return in_clauses(s for s in said if s)


def _what(rules: PloucState, event: Event) -> str:
    """The line itself, and why it may be played."""
    name, verb = event.player, event.verb
    if verb == "plays":
        card = event.cards[0]
        if rules.owed and rules.answers(card):
            why = "cp.ruling.adds"
        elif rules.suit is None:
            why = "cp.ruling.any"
        elif card.suit == rules.suit:
            why = "cp.ruling.suit-match"
        else:
            why = "cp.ruling.value-match"
        top = rules.top_text() if rules.cards.discard else "?"
        return say(why, player=name, cards=event.cards_text or " ".join(map(str, event.cards)), top=top)
    if verb == "draws":
        count = len(event.cards) if event.cards_text else 1
        if rules.sanctions.get(rules.seats[name]):
            return say("cp.ruling.draw-sanction", player=name, count=count)
        if rules.owed:
            return say("cp.ruling.draw-owed", player=name, count=count)
        return say("cp.ruling.draw", player=name)
    if verb == "passes":
        return say("cp.ruling.pass-after-draw" if rules.last_pass == rules.seats[name] else "cp.ruling.pass", player=name)
    if verb == "says":
        return say(f"cp.ruling.says.{event.word}", player=name) if event.word in ("carte", "plouc", "contre") else ""
    if verb in ("slaps", "swaps", "gives", "accuses", "swears"):
        return say(f"cp.ruling.{verb}", player=name, target=event.target or "")
    return ""
