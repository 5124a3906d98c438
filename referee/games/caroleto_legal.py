"""What may be written next in a Caroleto record (``Caroleto.legal``): the simulator's
choices with every card known, and "legal as far as the table can tell" otherwise (a
card that may be in the hand).

Two choices are narrowed on purpose, so that a simulated record never needs a later
line to make an earlier one right: a bout always takes a card when the discard has one,
and a trump 10-20 names whom it redirects to only when something is already aimed at
its player."""

from __future__ import annotations

from ..cards import Card
from ..record import Event
from .base import UNITS
from .caroleto_cards import RED, ROI_DE_PIQUE, TARGETED, is_trump, kind
from .caroleto_places import Places
from .caroleto_round import Round


def legal(rules) -> list[Event]:
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
        return [Event(rules.players[s], "says", 0, 0, word="roi") for s in may_hold]
    if r is None:
        return _opening(rules, _next_round(rules), marker=True)
    owed = next(iter(r.exchange_owed), None)
    if owed is not None:
        return _draws(rules, owed)
    if not r.complete(rules.counts) or not r.closed:
        return _laying(rules, r)
    required = _required(rules, r)
    optional = _optional(rules, r)
    if required or not any(rules.counts) or rules._owed_drinks(r):
        return required + optional
    return optional + _opening(rules, _next_round(rules), marker=True)


def _all_owed(r: Round) -> list[tuple[int, str, float]]:
    owing = r.owing()
    return [(s, u, owing[s, u]) for s, u in sorted(owing, key=lambda k: (k[0], UNITS.index(k[1])))]


def _next_round(rules) -> Round:
    """The round that would begin now: its first drawer, direction and whether it is the last."""
    r = rules.round
    direction = rules.seating.direction
    if r is None:
        return Round(rules.players, 1, rules.announced, direction, all(c <= 1 for c in rules.counts), 0)
    if sum(p.kind == "dame" for p in r.plays) % 2:
        direction = -direction
    first = (r.first + direction) % rules.n if r.first is not None else None
    return Round(rules.players, r.number + 1, first, direction, all(c <= 1 for c in rules.counts), 0)


def _hand(rules, seat: int) -> list[Card]:
    """The cards that may be in a hand (before the first event, as the deal lines give them)."""
    if not rules.started and seat in rules.dealt:
        return [c for c in rules.dealt[seat].cards if c.seen]
    if not rules.started:
        return [c for c in rules.places.possible(Places.seat(seat)) if c not in rules.dealt_cards]
    return rules.places.possible(Places.seat(seat))


def _stock(rules) -> list[Card]:
    """The cards a draw may bring: the stock's, or the discard's about to be shuffled in."""
    if rules.stock:
        return rules.places.possible(rules.places.stock)
    return rules.places.possible(rules.places.discard)


def _draws(rules, seat: int) -> list[Event]:
    name = rules.players[seat]
    return [Event(name, "draws", 0, 0, (c,), str(c)) for c in _stock(rules)]


def _opening(rules, r: Round, marker: bool) -> list[Event]:
    """The events that begin a round: its marker, the exchanges, then the first draw
    (or the cards laid, in the last round)."""
    events = [Event("", "round", 0, 0, word=str(r.number))] if marker else []
    events += _exchanges(rules, r)
    return events + _step_two_or_three(rules, r)


def _exchanges(rules, r: Round) -> list[Event]:
    if not rules._can_draw():
        return []
    return [Event(rules.players[s], "discards", 0, 0, (c,), str(c))
            for s in range(rules.n) if s not in r.exchanged and rules.counts[s]
            for c in _hand(rules, s) if c != ROI_DE_PIQUE]


def _step_two_or_three(rules, r: Round) -> list[Event]:
    undrawn = rules._undrawn(r)
    if undrawn:
        drawer = rules._next_drawer(r)
        events = []
        for seat in [drawer] if drawer is not None else undrawn:
            source = (seat - r.direction) % rules.n
            events += [Event(rules.players[seat], "takes", 0, 0, (c,), str(c), 0, rules.players[source])
                       for c in _hand(rules, source)]
        return events
    return [e for s in range(rules.n) if s not in r.played and rules.counts[s] for e in _plays(rules, r, s, _hand(rules, s))]


def _laying(rules, r: Round) -> list[Event]:
    uses = [(s, c) for s, c in r.bouts.items() if isinstance(c, Card)]
    if uses:
        seat, card = uses[0]
        return _plays(rules, r, seat, [card] if card.seen else _hand(rules, seat), used=True)
    takes = []
    if rules._bouts_open(r):
        discard = rules.places.possible(rules.places.discard)
        takes = [Event(rules.players[s], "takes", 0, 0, (c,), str(c)) for s, v in r.bouts.items() if v == "take" for c in discard]
    if r.complete(rules.counts):
        return takes
    events = _exchanges(rules, r) if r.step <= 1 else []
    return takes + events + _step_two_or_three(rules, r)


def _plays(rules, r: Round, seat: int, cards: list[Card], used: bool = False) -> list[Event]:
    """Each card the seat may lay, with each player its line may name."""
    n, name = rules.n, rules.players[seat]
    others = [s for s in range(n) if s != seat]
    aimed = any(p.target == seat for p in r.plays if p.kind in TARGETED) or any(
        p.kind == "nine" and p.seat != seat for p in r.plays)
    agreed = next((p.target for p in r.plays if p.kind == "six" and p.target is not None), None)
    if not used and rules.counts[seat] == 1 and _last_holder(rules) == seat:
        cards = [ROI_DE_PIQUE]  # the Roi de pique is laid at the end, and only this hand may hold it
    events = []
    for card in cards:
        if card == ROI_DE_PIQUE and not used and rules.counts[seat] > 1:
            continue
        sort = kind(card)
        if sort == "sips" and card.suit in RED:
            targets = sorted(set(rules.seating.neighbours(seat)))
        elif sort in TARGETED:
            targets = others
        elif sort == "six":
            targets = [agreed] if agreed is not None else list(range(n))
        elif sort == "redirect":
            targets = [None] + (others if aimed else [])
        else:
            targets = [None]
        events += [Event(name, "plays", 0, 0, (card,), str(card), 0, rules.players[t] if t is not None else None)
                   for t in targets]
    return events


def _last_holder(rules) -> int | None:
    """The one hand still holding cards that may hold the Roi de pique, when there is one."""
    holders = [s for s in range(rules.n) if rules.counts[s] and rules.places.may(ROI_DE_PIQUE, Places.seat(s))]
    return holders[0] if len(holders) == 1 else None


def _required(rules, r: Round) -> list[Event]:
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


def _optional(rules, r: Round) -> list[Event]:
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
    for seat, unit, owed in rules._owed_drinks(r) if r.writes or rules.every_round else _all_owed(r):
        word = str(int(round(owed))) if unit == "sips" else unit
        events.append(Event(names[seat], "drinks", 0, 0, word=word))
    caught = rules.catchable
    if rules.standing and caught is not None and caught not in r.caught:
        events += [Event(names[s], "catches", 0, 0, target=names[caught]) for s in range(rules.n) if s != caught]
    return events
