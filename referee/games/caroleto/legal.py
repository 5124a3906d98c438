"""What may be written next in a Caroleto record (``Caroleto.legal``): every move the
referee accepts there, with every card known, and "legal as far as the table can tell"
otherwise (a card that may be in the hand).

Some of them stay right only if a later line makes them so (a 6 left unnamed for a later
6 to name, a trump 10-20 naming someone before anything is aimed at its player, a card
other than the Roi de pique from the one hand that may hold it): the simulator leaves
those aside (``simulator_leaves_aside``, ``Caroleto.choices``), so that a simulated record
never needs a later line to make an earlier one right. It also always takes a card with
a bout when the discard has one."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import UNSEEN_CARD, Card
from ...record import Event
from .cards import RED, ROI_DE_PIQUE, TARGETED, is_trump, kind
from .places import Places
from .round import Round
from .state import CaroletoState, all_owed, next_round


def legal(rules: CaroletoState) -> list[Event]:
    if rules._finished():
        return []
    r = rules.round
    if rules.announced is None and (r is None or (r.number == 1 and r.step == 0)):
        if ROI_DE_PIQUE in rules.dealt_cards:
            may_hold = [rules.dealt_cards[ROI_DE_PIQUE]]
        elif not rules.started:  # not in a hand written whole
            may_hold = [s for s in range(rules.n) if s not in rules.dealt or not all(c.seen for c in rules.dealt[s].cards)]
        else:
            may_hold = [s for s in range(rules.n) if rules.places.may(ROI_DE_PIQUE, Places.seat(s))]
        marker = [Event("", "round", 0, 0, word="1")] if r is None else []  # the announcement may follow it
        return marker + [Event(rules.players[s], "says", 0, 0, word="roi") for s in may_hold]
    if r is None:
        return _opening(rules, next_round(rules), marker=True)
    owed = next(iter(r.exchange_owed), None)
    if owed is not None:
        return _draws(rules, owed)
    if not r.complete(rules.counts) or not r.closed:
        return _laying(rules, r)
    required = _required(rules, r)
    optional = _optional(rules, r)
    if required or not any(rules.counts) or rules._owed_drinks(r):
        return required + optional
    return optional + _opening(rules, next_round(rules), marker=True)


def _hand(rules: CaroletoState, seat: int) -> list[Card]:
    """The cards that may be in a hand (before the first event, as the deal lines give them)."""
    if not rules.started and seat in rules.dealt:
        return [c for c in rules.dealt[seat].cards if c.seen]
    if not rules.started:
        return [c for c in rules.places.possible(Places.seat(seat)) if c not in rules.dealt_cards]
    return rules.places.possible(Places.seat(seat))


def _stock(rules: CaroletoState) -> list[Card]:
    """The cards a draw may bring: the stock's, or the discard's about to be shuffled in."""
    if rules.stock:
        return rules.places.possible(rules.places.stock)
    return rules.places.possible(rules.places.discard)


def _draws(rules: CaroletoState, seat: int) -> list[Event]:
    name = rules.players[seat]
    cards = _stock(rules)
    events = [Event(name, "draws", 0, 0, (c,), str(c)) for c in cards]
    r = rules.round
    if r is not None and r.exchange_owed.get(seat) == 2:  # both cards on one line (the second may come from the discard shuffled in)
        events += [Event(name, "draws", 0, 0, (c, UNSEEN_CARD), f"{c} ??") for c in cards]
    return events


def _opening(rules: CaroletoState, r: Round, marker: bool) -> list[Event]:
    """The events that begin a round: its marker, the exchanges, then the first draw
    (or the cards laid, in the last round)."""
    events = [Event("", "round", 0, 0, word=str(r.number))] if marker else []
    events += _exchanges(rules, r)
    return events + _step_two_or_three(rules, r)


def _exchanges(rules: CaroletoState, r: Round) -> list[Event]:
    if not rules._can_draw():
        return []
    return [Event(rules.players[s], "discards", 0, 0, (c,), str(c))
            for s in range(rules.n) if s not in r.exchanged and rules.counts[s]
            for c in _hand(rules, s) if c != ROI_DE_PIQUE]


def _step_two_or_three(rules: CaroletoState, r: Round) -> list[Event]:
    undrawn = rules._undrawn(r)
    if undrawn:
        drawer = rules._next_drawer(r)
        events = []
        for seat in [drawer] if drawer is not None else undrawn:
            source = (seat - r.direction) % rules.n
            events += [Event(rules.players[seat], "takes", 0, 0, (c,), str(c), 0, rules.players[source])
                       for c in [UNSEEN_CARD, *_hand(rules, source)]]  # first, the card as the table sees it: not at all
        return events
    return [e for s in range(rules.n) if s not in r.played and rules.counts[s] for e in _plays(rules, r, s, _hand(rules, s))]


def _laying(rules: CaroletoState, r: Round) -> list[Event]:
    takes = []
    if rules._bouts_open(r):
        discard = rules.places.possible(rules.places.discard)
        takes = [Event(rules.players[s], "takes", 0, 0, (c,), str(c)) for s, v in r.bouts.items() if v == "take" for c in discard]
    uses = [(s, c) for s, c in r.bouts.items() if isinstance(c, Card)]
    if uses:  # the bouts take at the end of the round: another may take before a card taken is used, either used first
        return [e for seat, card in uses for e in _plays(rules, r, seat, [card] if card.seen else _hand(rules, seat), used=True)] + takes
    drinks = _drinks_owed(rules, r)  # what the exchange's draws gave, drunk before the cards are laid
    if r.complete(rules.counts):
        return takes + drinks
    events = _exchanges(rules, r) if r.step <= 1 else []
    return takes + events + _step_two_or_three(rules, r) + drinks


def _plays(rules: CaroletoState, r: Round, seat: int, cards: list[Card], used: bool = False) -> list[Event]:
    """Each card the seat may lay, with each player its line may name."""
    n, name = rules.n, rules.players[seat]
    others = [s for s in range(n) if s != seat]
    aimed = any(p.target == seat for p in r.plays if p.kind in TARGETED) or any(
        p.kind == "nine" and p.seat != seat for p in r.plays)
    agreed = next((p.target for p in r.plays if p.kind == "six" and p.target is not None), None)
    if not used and rules.counts[seat] == 1 and _last_holder(rules) == seat and not _others_to_lay(rules, r, seat):
        cards = [ROI_DE_PIQUE]  # the Roi de pique is laid at the end, and only this hand may hold it
    events = []
    for card in cards:
        if card == ROI_DE_PIQUE and not used and rules.counts[seat] > 1:
            continue
        sort = kind(card)
        targets: Sequence[int | None]  # None: the line names nobody
        if sort == "sips" and card.suit in RED:
            targets = sorted(set(rules.seating.neighbours(seat)))
        elif sort in TARGETED:
            targets = others
        elif sort == "six":
            targets = [agreed] if agreed is not None else list(range(n))
            if _unnamed_six_stands(rules, r, seat, agreed):
                targets = [*targets, None]  # the named plays first (mistakes.py takes the first)
        elif sort == "redirect":
            targets = [None, *(others if aimed or _may_name_unaimed(rules, r, seat) else [])]
        else:
            targets = [None]
        events += [Event(name, "plays", 0, 0, (card,), str(card), 0, rules.players[t] if t is not None else None)
                   for t in targets]
    return events


def _others_to_lay(rules: CaroletoState, r: Round, seat: int) -> bool:
    """Someone else is still to lay a card this round (the seat's play does not close it)."""
    return any(s != seat and rules.counts[s] and s not in r.played for s in range(rules.n))


def _unnamed_six_stands(rules: CaroletoState, r: Round, seat: int, agreed: int | None) -> bool:
    """A 6 may go unnamed when another 6 names the player, when it is the fourth (four
    need no name), or when someone else is still to lay a card (their 6 may name)."""
    sixes = sum(p.kind == "six" for p in r.plays)
    return agreed is not None or sixes >= 3 or _others_to_lay(rules, r, seat)


def _may_name_unaimed(rules: CaroletoState, r: Round, seat: int) -> bool:
    """A trump 10-20 may name someone while nothing is aimed at its player yet, unless it
    closes the round while the 6s designate that player (``CA-TRUMP-ON-SIX``)."""
    if _others_to_lay(rules, r, seat):
        return True
    sixes = [p for p in r.plays if p.kind == "six"]
    named = next((p.target for p in sixes if p.target is not None), None)
    return not (len(sixes) >= 4 or named == seat)


def simulator_leaves_aside(rules: CaroletoState, event: Event) -> bool:
    """Whether the simulator leaves aside a move ``legal()`` offers (``Caroleto.choices``):
    one that stays right only if a later line makes it so (a 6 left unnamed that no 6
    names yet, a trump 10-20 naming someone while nothing is aimed at its player, a card
    other than the Roi de pique from the one hand that may hold it, in its last card); a
    card drawn face down or taken unseen (the simulator knows every card); and, so that its games end,
    every catch but one of the last drinker, once a round."""
    if event.verb in ("draws", "takes"):
        return not all(c.seen for c in event.cards)
    r = rules.round
    if r is None:
        return False
    seat = rules.seats.get(event.player)
    if event.verb == "catches":
        caught = rules.seats.get(event.target) if event.target is not None else None
        return caught != rules.catchable or rules.catchable in r.caught
    if event.verb != "plays" or seat is None or len(event.cards) != 1:
        return False
    if r.complete(rules.counts) and r.closed:  # the card opens the next round: the 6s and aims of this one are over
        r = next_round(rules)
    card, sort = event.cards[0], kind(event.cards[0])
    used = isinstance(r.bouts.get(seat), Card)
    if not used and rules.counts[seat] == 1 and _last_holder(rules) == seat and card != ROI_DE_PIQUE:
        return True
    if sort == "six" and event.target is None:
        return not any(p.kind == "six" and p.target is not None for p in r.plays) and sum(p.kind == "six" for p in r.plays) < 3
    if sort == "redirect" and event.target is not None:
        return not (any(p.target == seat for p in r.plays if p.kind in TARGETED)
                    or any(p.kind == "nine" and p.seat != seat for p in r.plays))
    return False


def _last_holder(rules: CaroletoState) -> int | None:
    """The one hand still holding cards that may hold the Roi de pique, when there is one."""
    holders = [s for s in range(rules.n) if rules.counts[s] and rules.places.may(ROI_DE_PIQUE, Places.seat(s))]
    return holders[0] if len(holders) == 1 else None


def _required(rules: CaroletoState, r: Round) -> list[Event]:
    """What step 4 must still settle: the bid, the duel's round, the votes, the draws."""
    names = rules.players
    events = []
    b = r.bidding()
    if b is not None:
        seat, suit = b.bidder, b.play.card.suit
        hand = [c for c in _hand(rules, seat) if c != ROI_DE_PIQUE] if rules.counts[seat] else []
        higher = [c for c in hand if c.suit == suit and c.rank > b.bar]
        events += [Event(names[seat], "bids", 0, 0, (c,), str(c)) for c in higher + [c for c in hand if is_trump(c)]]
        sure = rules.places.sure(Places.seat(seat))
        if not any(c.suit == suit and c.rank > b.bar and c != ROI_DE_PIQUE for c in sure):
            events.append(Event(names[seat], "passes", 0, 0))
    for duel in r.duels:
        if duel.waiting:
            a, c = sorted(duel.players)
            events += [Event(names[a], "beats", 0, 0, target=names[c]), Event(names[c], "beats", 0, 0, target=names[a])]
    for dossier in r.dossiers:
        if not dossier.complete:
            events += [Event(names[s], "votes", 0, 0, word=w) for s in sorted(dossier.voters - set(dossier.votes))
                       for w in ("pourri", "bon")]
    if rules._can_draw():
        drawers = {d.drawer for d in r.nine_draws} | {s for s, owed in r.refill.items() if owed}
        for seat in sorted(drawers):
            events += _draws(rules, seat)
    return events


def _drinks_owed(rules: CaroletoState, r: Round) -> list[Event]:
    """The drinks still owed: gorgées in any number up to what is owed (a table writes
    them one effect at a time), the other units one at a time."""
    events = []
    for seat, unit, owed in all_owed(r):
        words = [str(k) for k in range(1, int(owed + 1e-9) + 1)] if unit == "sips" else [unit]
        events += [Event(rules.players[seat], "drinks", 0, 0, word=w) for w in words]
    return events


def _optional(rules: CaroletoState, r: Round) -> list[Event]:
    """What step 4 may bring: a « double », a dare's choice or refusal, the drinks, a catch."""
    names = rules.players
    events = []
    for seat in sorted({d.loser for d in r.duels if not d.waiting and d.loser is not None and not d.drank}):
        last = max((d for d in r.duels if not d.waiting and d.loser == seat and not d.drank), key=lambda d: d.lost_at)
        if last.stake < 8:  # « double » is said of the last round lost
            events.append(Event(names[seat], "says", 0, 0, word="double"))
    for dare in r.dares:
        if not dare.refused:
            if dare.choice is None:
                events += [Event(names[dare.player], "says", 0, 0, word=w) for w in ("action", "vérité")]
            events.append(Event(names[dare.player], "refuses", 0, 0))
    events += _drinks_owed(rules, r)
    if rules.standing:  # what breaking the Cavalier's rule looks like is for the table to judge
        events += [Event(names[s], "catches", 0, 0, target=names[t]) for t in range(rules.n) for s in range(rules.n) if s != t]
    return events
