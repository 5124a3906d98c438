"""Carte et Plouc for the simulator and the live table: the events that break no rule
now (``legal``), a random deal, and an event as a table that sees no hand writes it."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..cards import ACE, SUITS, UNSEEN_CARD, Card
from ..record import Event
from .base import Deal, Setup

if TYPE_CHECKING:
    from .carte_et_plouc import CarteEtPlouc


def hand_size(players: int) -> int:
    """« Jusqu'à 6 joueurs, on distribue 7 cartes à chacun. De 7 à 9 joueurs, on distribue 5 cartes. »"""
    return 7 if players <= 6 else 5


def deal(deck: list[Card], setup: Setup) -> Deal:
    """The hands, one card at a time from the first player; the next card turned up
    (everyone sees it); the rest is the stock, top card first (only a full record gives it)."""
    n = len(setup.players)
    size = hand_size(n)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for k in range(size * n):
        hands[(setup.first + k) % n].append(deck[k])
    starter, stock = deck[size * n], deck[size * n + 1:]
    return Deal(hands, shown=[("Starter", str(starter))], hidden=[("Stock", " ".join(map(str, stock)))])


def public(event: Event) -> Event | None:
    """Nobody sees a hand: the deal is left out, drawn cards are a count, a card given is ??."""
    if event.verb == "holds":
        return None
    if event.verb == "draws":
        count = len(event.cards) if event.cards_text else 1
        return dataclasses.replace(event, cards=(UNSEEN_CARD,) * count, cards_text=str(count))
    if event.verb == "gives":
        return dataclasses.replace(event, cards=(UNSEEN_CARD,) * len(event.cards), cards_text=" ".join(["??"] * len(event.cards)))
    return event


def _event(rules: CarteEtPlouc, seat: int, verb: str, cards=(), target: int | None = None,
           word: str | None = None, suit: str | None = None) -> Event:
    cards = tuple(cards)
    return Event(rules.players[seat], verb, 0, 0, cards, " ".join(map(str, cards)), 0,
                 rules.players[target] if target is not None else None, word, None, None, None, suit)


def _draws(rules: CarteEtPlouc, seat: int, count: int) -> list[Event]:
    """Drawing ``count`` cards: named where they are known (or may be chosen), else a count."""
    events = []
    for way in rules.cards.peek(count, rules.reshuffle):
        if way:
            events.append(_event(rules, seat, "draws", way))
        else:
            events.append(Event(rules.players[seat], "draws", 0, 0, (UNSEEN_CARD,) * count, str(count)))
    return events


def legal(rules: CarteEtPlouc) -> list[Event]:
    """What may come next without breaking a rule: a call or a sanction that is due comes
    first (before the next turn it would be missed), then the slaps on a 2 and the turn."""
    if rules.ended:
        return []
    cards = rules.cards
    available = cards.available(rules.reshuffle)
    if rules.plouc is not None:
        return [_event(rules, rules.plouc, "says", word="plouc")]
    if rules.carte_due:
        return [_event(rules, min(rules.carte_due), "says", word="carte")]
    if rules.swapper is not None:
        partners = [s for s in range(len(rules.players)) if s != rules.swapper and s not in rules.seating.out]
        return [_event(rules, rules.swapper, "swaps", target=s) for s in partners]
    if rules.sanctions and available:
        seat, count = next(iter(rules.sanctions.items()))
        return _draws(rules, seat, min(count, available))
    if rules.gifts:
        giver, receiver = rules.gifts[0]
        held = cards.known[giver] + ([UNSEEN_CARD] if cards.unknown[giver] else [])
        return [_event(rules, giver, "gives", (c,), target=receiver) for c in held]
    events = []
    if rules.zero_open:
        events += [_event(rules, s, "slaps") for s in range(len(rules.players)) if s not in rules.seating.out]
    return events + _turn(rules, available)


def _turn(rules: CarteEtPlouc, available: int) -> list[Event]:
    seat = rules.turn
    cards = rules.cards
    held = cards.candidates(seat)
    if rules._facing():
        answers = [_event(rules, seat, "plays", (c,)) for c in held if rules._playable(c, cards.count(seat))]
        return _draws(rules, seat, min(rules.owed, available)) + answers
    count = cards.count(seat)
    full = not cards.unknown[seat]
    events = []
    for card in held:
        if not rules._playable(card, count):
            continue
        if card.rank == ACE:
            events += [_event(rules, seat, "plays", (card,), suit=s) for s in SUITS if s != (rules.suit or card.suit)]
            continue
        events.append(_event(rules, seat, "plays", (card,)))
        group = [card] + [c for c in cards.known[seat] if c.rank == card.rank and c != card]
        if full and len(group) > 1 and (len(group) < count or not rules._forbidden_last(group[-1])):
            events.append(_event(rules, seat, "plays", group))
    if not events or not full:
        events += _draws(rules, seat, 1) if available else [_event(rules, seat, "passes")]
    return events
