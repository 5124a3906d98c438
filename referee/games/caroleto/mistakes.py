"""The mistakes a Caroleto table makes (``Caroleto.mistakes``, for ``simulate --mistakes``),
each with the codes the referee must report on its line.

The codes come from the situation as the rules module knows it (whose turn it is to
draw or bid, what is owed, what each hand holds), never from applying the event. A
mistake is offered only where its codes are certain: a card laid wrongly only when a
card may be laid now; what step 4 settles only once the cards' effects are set out."""

from __future__ import annotations

from collections.abc import Iterator

from ...cards import Card
from ...record import Event
from ..base import Mistake
from .cards import KIND, RED, ROI_DE_PIQUE, TARGETED, is_trump
from .legal import _hand, _plays, _stock
from .places import Places
from .round import Round
from .state import CaroletoState, next_round

RS = ROI_DE_PIQUE

MISTAKE_CODES = (
    "CA-ROI-UNANNOUNCED", "CA-ROI-FALSE", "CA-ROI-EARLY", "CA-ROI-EXCHANGED",
    "CA-EXCHANGE-TWICE", "CA-EXCHANGE-LATE", "CA-DRAW-ORDER", "CA-DRAW-MISSING", "CA-DRAW-LATE", "CA-DRAW-LAST-ROUND",
    "CA-DRAW-UNDUE", "CA-PLAYED-TWICE", "CA-TARGET-GENERAL", "CA-TARGET-SELF", "CA-NO-TARGET",
    "CA-TARGET-NEIGHBOUR", "CA-SIX-TARGETS", "CA-BID-TURN", "CA-BID-SUIT", "CA-BID-STOP",
    "CA-HAND-SIZE", "CA-DUEL-WRONG", "CA-DOUBLE-PAST-8", "CA-VOTE-WRONG", "CA-DARE-WRONG",
    "CA-CATCH-NO-RULE", "CA-BOUT-TAKE", "CA-UNSETTLED", "CA-ROUND-NUMBER", "CA-DRINK-WRONG",
    "CA-DRINK-UNDUE", "CA-DRINK-MISSING",
)
"""The codes the simulator's mistakes reach. CA-BID-LOW is offered too, but random play
seldom gives a bidder a lower card of the suit (2 chances in 445 biddings over the
mistakes test's 250 records): tests/test_caroleto.py checks its marks on every state of
simulated games instead."""


def mistakes(rules: CaroletoState, hidden: bool) -> list[Mistake]:
    """The mistakes of the moment: at the start, the announcement's; during a bidding,
    the bidding's; else those of the exchange, the draw and the cards laid, and once
    the cards' effects are set out those of step 4, the drinks and the round's end."""
    if rules._finished():
        return []
    r = rules.round
    if r is not None and any(isinstance(v, Card) for v in r.bouts.values()):
        return []  # a bout's card is used at once
    if rules.announced is None and (r is None or (r.number == 1 and r.step == 0)):
        return [*_announcing(rules, r, hidden), *_ending(rules, r, hidden)]
    if r is not None and r.closed and r.bidding() is not None:
        return list(_bidding(rules, r, hidden))
    found = [*_exchanging(rules, r, hidden), *_drawing(rules, r, hidden), *_laying(rules, r, hidden)]
    if r is not None and r.closed:
        found += [*_settling(rules, r, hidden), *_drinking(rules, r, hidden)]
    return found + list(_ending(rules, r, hidden))


def _event(name: str, verb: str, *cards: Card, target: str | None = None, word: str | None = None) -> Event:
    return Event(name, verb, 0, 0, cards, " ".join(map(str, cards)), 0, target, word)


def _announcing(rules: CaroletoState, r: Round | None, hidden: bool) -> Iterator[Mistake]:
    """Before the first round: nobody announces (the holder just draws first), or
    someone else than the holder announces (only the deal shows it)."""
    names = rules.players
    holder = rules.dealt_cards.get(RS)
    if holder is None:
        return
    source = (holder - rules.seating.direction) % rules.n
    for card in _hand(rules, source)[:1]:
        yield Mistake(_event(names[holder], "takes", card, target=names[source]), ("CA-ROI-UNANNOUNCED",))
    if not hidden:
        yield from (Mistake(_event(names[s], "says", word="roi"), ("CA-ROI-FALSE",)) for s in range(rules.n) if s != holder)


def _opening(rules: CaroletoState, r: Round | None) -> Round | None:
    """The round the next exchange or draw belongs to: the current one while its draw
    may still come, else the next one once the current one is over and settled."""
    if rules.announced is None and (r is None or (r.number == 1 and r.step == 0)):
        return None
    if r is not None and not r.complete(rules.counts):
        return r
    if r is not None and (not r.closed or rules._pending(r) or rules._owed_drinks(r) or not any(rules.counts)):
        return None
    return next_round(rules)


def _exchanging(rules: CaroletoState, r: Round | None, hidden: bool) -> Iterator[Mistake]:
    """The Roi de pique discarded; a second exchange; an exchange once the draw began."""
    now = _opening(rules, r)
    if now is None or r is not None and r.exchange_owed or not rules._can_draw():
        return
    for seat, name in enumerate(rules.players):
        if not rules.counts[seat]:
            continue
        hand = _hand(rules, seat)
        late = ("CA-EXCHANGE-LATE",) if now.step > 1 else ()
        twice = ("CA-EXCHANGE-TWICE",) if seat in now.exchanged else ()
        if RS in hand:
            yield Mistake(_event(name, "discards", RS), late + twice + ("CA-ROI-EXCHANGED",))
        others = [c for c in hand if c != RS][:1]
        if others and (late or twice):
            yield Mistake(_event(name, "discards", others[0]), late + twice)


def _drawing(rules: CaroletoState, r: Round | None, hidden: bool) -> Iterator[Mistake]:
    """A take out of turn or from the wrong neighbour; a take once the cards are being
    laid, or in the last round; a card drawn from the stock that nothing calls for."""
    names, n = rules.players, rules.n
    now = _opening(rules, r)
    if now is not None and (r is None or not r.exchange_owed):
        undrawn = rules._undrawn(now)
        expected = rules._next_drawer(now)
        for seat in range(n):
            behind, ahead = (seat - now.direction) % n, (seat + now.direction) % n
            if now.last and now.step <= 2 and rules.counts[behind]:
                yield Mistake(_event(names[seat], "takes", _hand(rules, behind)[0], target=names[behind]),
                              ("CA-DRAW-LAST-ROUND",))
            if not undrawn or expected is None or seat in now.drawn:
                continue
            if seat != expected and rules.counts[behind]:
                yield Mistake(_event(names[seat], "takes", _hand(rules, behind)[0], target=names[behind]), ("CA-DRAW-ORDER",))
            elif seat == expected and ahead != behind and rules.counts[ahead]:
                yield Mistake(_event(names[seat], "takes", _hand(rules, ahead)[0], target=names[ahead]), ("CA-DRAW-ORDER",))
    if r is not None and r.step == 3 and not r.complete(rules.counts) and not r.exchange_owed:
        for seat in range(n):
            behind = (seat - r.direction) % n
            if rules.counts[behind]:
                yield Mistake(_event(names[seat], "takes", _hand(rules, behind)[0], target=names[behind]), ("CA-DRAW-LATE",))
    if r is not None and r.closed and rules.stock:
        card = _stock(rules)[0]
        for seat in range(n):
            if rules._draw_kind(r, seat) is None and seat in r.played:
                code = "CA-HAND-SIZE" if any(seat in b.bids for b in r.biddings) else "CA-DRAW-UNDUE"
                yield Mistake(_event(names[seat], "draws", card), (code,))


def _laying(rules: CaroletoState, r: Round | None, hidden: bool) -> Iterator[Mistake]:
    """Cards laid wrongly: before the draw is over, a second card, the Roi de pique
    early, a target the card does not allow, 6s that disagree, a trump redirecting a 6."""
    names, n = rules.players, rules.n
    if r is None or r.exchange_owed or r.complete(rules.counts) or any(isinstance(v, Card) for v in r.bouts.values()):
        return
    if r.step < 2 and rules.announced is None and r.number == 1:
        return
    if rules._undrawn(r):  # the cards laid before the draw is over
        for seat in range(n):
            if seat not in r.played and rules.counts[seat]:
                for event in _plays(rules, r, seat, [c for c in _hand(rules, seat) if c != RS])[:1]:
                    yield Mistake(event, ("CA-DRAW-MISSING",) + _closes(rules, r, seat, event.cards[0]))
        return
    early = ()
    agreed = next((p for p in r.plays if p.kind == "six" and p.target is not None), None)
    for seat, name in enumerate(names):
        hand = [c for c in _hand(rules, seat) if c != RS]
        if seat in r.played:
            if hand and not early:
                yield Mistake(_event(name, "plays", hand[0]), ("CA-PLAYED-TWICE",))
            continue
        if not rules.counts[seat]:
            continue
        if RS in _hand(rules, seat) and rules.counts[seat] > 1:
            yield Mistake(_event(name, "plays", RS), early + ("CA-ROI-EARLY",))
        others = [s for s in range(n) if s != seat]
        for card in hand:
            sort, last = KIND[card], _closes(rules, r, seat, card)
            if sort in TARGETED:
                yield Mistake(_event(name, "plays", card), early + ("CA-NO-TARGET",) + last)
                yield Mistake(_event(name, "plays", card, target=name), early + ("CA-TARGET-SELF",) + last)
                far = [s for s in others if s not in rules.seating.neighbours(seat)]
                if sort == "sips" and card.suit in RED and far:
                    yield Mistake(_event(name, "plays", card, target=names[far[0]]), early + ("CA-TARGET-NEIGHBOUR",) + last)
            elif sort == "six" and agreed is not None:
                other = next(s for s in range(n) if s != agreed.target)
                yield Mistake(_event(name, "plays", card, target=names[other]), early + ("CA-SIX-TARGETS",) + last)
            elif sort == "redirect":
                yield Mistake(_event(name, "plays", card, target=name), early + ("CA-TARGET-SELF",) + last)
                if not early and _redirects_a_six(rules, r, seat, card):
                    yield Mistake(_event(name, "plays", card, target=names[others[0]]), ("CA-TRUMP-ON-SIX",) + last)
            elif sort not in ("six",):
                yield Mistake(_event(name, "plays", card, target=names[others[0]]), early + ("CA-TARGET-GENERAL",) + last)


def _redirects_a_six(rules: CaroletoState, r: Round, seat: int, card: Card) -> bool:
    """The seat's trump 10-20, laid last and naming someone, would have nothing to
    redirect but the 6s that designate it: flagged as the round's effects are set out."""
    if any(s != seat and s not in r.played and rules.counts[s] for s in range(rules.n)):
        return False
    if (rules.discard or rules.discard_unseen) and any(v == "take" for v in r.bouts.values()):
        return False
    sixes = [p for p in r.plays if p.kind == "six"]
    named = next((p.target for p in sixes if p.target is not None), None)
    designated = len(sixes) >= 4 or named == seat
    aimed = any(p.target == seat for p in r.plays if p.kind in TARGETED) or any(
        p.kind == "nine" and p.seat != seat for p in r.plays)
    return bool(sixes) and designated and not aimed


def _closes(rules: CaroletoState, r: Round, seat: int, card: Card) -> tuple[str, ...]:
    """What the last card of a round adds on its line: the round's effects are set out
    there (unless a bout may still take a card), and the end shows a missing Roi de pique."""
    if any(s != seat and s not in r.played and rules.counts[s] for s in range(rules.n)):
        return ()
    if rules.discard or rules.discard_unseen:
        if KIND[card] == "bout" or any(v == "take" for v in r.bouts.values()):
            return ()
    cheat = sum(rules.counts) == 1 and not rules.roi_played and not rules.roi_flagged
    return ("CA-ROI-CHEAT",) if cheat else ()


def _bidding(rules: CaroletoState, r: Round, hidden: bool) -> Iterator[Mistake]:
    """A bid or a pass out of turn; the bidder's card off suit, too low, or the Roi de
    pique; a pass with a higher card of the suit in hand (only the deal shows it)."""
    b = r.bidding()
    assert b is not None  # asked during a bidding only
    suit = b.play.card.suit
    for seat, name in enumerate(rules.players):
        hand = _hand(rules, seat)
        if seat != b.bidder:
            if hand:
                yield Mistake(_event(name, "bids", hand[0]), ("CA-BID-TURN",))
            yield Mistake(_event(name, "passes"), ("CA-BID-TURN",))
            continue
        for card in hand:
            if card == RS:
                yield Mistake(_event(name, "bids", card), ("CA-ROI-EARLY",) + (() if suit == "S" else ("CA-BID-SUIT",)))
            elif not is_trump(card) and card.suit != suit:
                yield Mistake(_event(name, "bids", card), ("CA-BID-SUIT",))
            elif card.suit == suit and card.rank <= b.bar:
                yield Mistake(_event(name, "bids", card), ("CA-BID-LOW",))
        higher = [c for c in rules.places.sure(Places.seat(seat)) if c.suit == suit and c.rank > b.bar and c != RS]
        if higher and not hidden:
            yield Mistake(_event(name, "passes"), ("CA-BID-STOP",))


def _settling(rules: CaroletoState, r: Round, hidden: bool) -> Iterator[Mistake]:
    """Step 4 gone wrong: a bid with no bidding going on; a duel round or a « double »
    nobody owes; a vote by the teller or twice; a dare's answer from someone with no
    dare; a catch with no standing rule; a take from the discard without a bout."""
    names, n = rules.players, rules.n
    for seat, name in enumerate(names):
        yield Mistake(_event(name, "passes"), ("CA-BID-TURN",))
    for a in range(n) if r.duels else ():  # a duel's round between the wrong players
        for c in range(n):
            if a != c and not any(d.waiting and d.players == {a, c} for d in r.duels):
                yield Mistake(_event(names[a], "beats", target=names[c]), ("CA-DUEL-WRONG",))
                break
    for seat, name in enumerate(names):
        lost = [d for d in r.duels if not d.waiting and d.loser == seat and not d.drank]
        if r.duels and not lost:
            yield Mistake(_event(name, "says", word="double"), ("CA-DUEL-WRONG",))
        elif lost and max(lost, key=lambda d: d.lost_at).stake >= 8:  # « double » of the last round lost
            yield Mistake(_event(name, "says", word="double"), ("CA-DOUBLE-PAST-8",))
        if r.dossiers and not any(seat in d.voters and seat not in d.votes for d in r.dossiers if not d.complete):
            yield Mistake(_event(name, "votes", word="pourri"), ("CA-VOTE-WRONG",))
        if r.dares and not any(d.player == seat and not d.refused for d in r.dares):
            yield Mistake(_event(name, "refuses"), ("CA-DARE-WRONG",))
        if r.dares and not any(d.player == seat and not d.refused and d.choice is None for d in r.dares):
            yield Mistake(_event(name, "says", word="action"), ("CA-DARE-WRONG",))
        if not rules.standing:
            yield Mistake(_event(name, "catches", target=names[(seat + 1) % n]), ("CA-CATCH-NO-RULE",))
        if rules.discard:
            yield Mistake(_event(name, "takes", rules.discard[-1]), ("CA-BOUT-TAKE",))


def _drinking(rules: CaroletoState, r: Round, hidden: bool) -> Iterator[Mistake]:
    """A drink nobody owes, more than is owed, or in the wrong unit."""
    owing = r.owing()
    for seat, name in enumerate(rules.players):
        mine = {u: a for (s, u), a in owing.items() if s == seat}
        if not mine:
            yield Mistake(_event(name, "drinks", word="1"), ("CA-DRINK-UNDUE",))
            continue
        if "sips" in mine:
            yield Mistake(_event(name, "drinks", word=str(int(round(mine["sips"])) + 1)), ("CA-DRINK-WRONG",))
        other = next((u for u in ("glass", "half", "sips") if u not in mine), None)
        if other is not None:
            yield Mistake(_event(name, "drinks", word="1" if other == "sips" else other), ("CA-DRINK-WRONG",))


def _ending(rules: CaroletoState, r: Round | None, hidden: bool) -> Iterator[Mistake]:
    """The next round begun with the current one unsettled (its codes on the marker), or
    a marker with the wrong number."""
    if r is None or not r.closed or not any(rules.counts):
        if r is None and rules.announced is not None:
            yield Mistake(Event("", "round", 0, 0, word=str(len(rules.done) + 2)), ("CA-ROUND-NUMBER",))
        return
    codes = [code for code, _, _ in rules._pending(r)]
    if r.writes or rules.every_round:
        codes += [code for code, _ in rules._missing_drink_codes(r)]
    if codes:
        yield Mistake(Event("", "round", 0, 0), tuple(codes))
    elif r.complete(rules.counts):
        yield Mistake(Event("", "round", 0, 0, word=str(r.number + 2)), ("CA-ROUND-NUMBER",))
