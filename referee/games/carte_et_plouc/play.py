"""Carte et Plouc for the simulator and the live table: the events that break no rule
now (``legal``), a random deal, and an event as a table that sees no hand writes it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...cards import ACE, SUITS, UNSEEN_CARD, Card
from ...record import Event
from ..base import Deal, Group, Legal, Mistake, Setup
from .cards import DISCARD, POOL, STOCK, THREE_OF_CLUBS, TWO
from .state import PloucState, hand_size


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
        return event.replace(cards=(UNSEEN_CARD,) * count, cards_text=str(count))
    if event.verb == "gives":
        return event.replace(cards=(UNSEEN_CARD,) * len(event.cards), cards_text=" ".join(["??"] * len(event.cards)))
    return event


def _event(rules: PloucState, seat: int, verb: str, cards: Sequence[Card] = (), target: int | None = None,
           word: str | None = None, suit: str | None = None) -> Event:
    laid = tuple(cards)
    return Event(rules.players[seat], verb, 0, 0, laid, " ".join(map(str, laid)), 0,
                 rules.players[target] if target is not None else None, word, None, None, None, suit)


def _draws(rules: PloucState, seat: int, count: int) -> list[Event]:
    """Drawing ``count`` cards: named where they are known (or may be chosen), else a count."""
    events = []
    for way in rules.cards.peek(count, rules.reshuffle):
        if way:
            events.append(_event(rules, seat, "draws", way))
        else:
            events.append(Event(rules.players[seat], "draws", 0, 0, (UNSEEN_CARD,) * count, str(count)))
    return events


def legal(rules: PloucState) -> list[Legal]:
    """Every event that breaks no rule now. What is owed outside the turn may come in any
    order: the « plouc » of the player who just went out (alone when it ends the game),
    the « carte » of each player down to one card, the swap of le zéro, the sanctions to
    draw or give; with them the slaps while a 2 is on top (the first one, and the later
    ones on the same 2, which are late hands), a « contre » on a « carte » missed, an
    accusation of an error still open (le David le fou). A line that changes nothing (a
    pass written after one's draw) is no move, and is not listed.
    The turn comes only when what is owed before it is done: the others' « carte », the
    swap, and the sanctions of the player whose turn it is (the player's own « carte »
    may wait: « carte » is due before another player acts). A gros mot without la règle
    du mot doux is no event of the game, and is not listed."""
    if rules.ended:
        return []
    if rules.plouc is not None:
        call: list[Legal] = [_event(rules, rules.plouc, "says", word="plouc")]
        return call if rules.closing else call + _outside_turn(rules)  # the turn would miss the « plouc »
    events = _outside_turn(rules)
    available = rules.cards.available(rules.reshuffle)
    turn = rules.turn
    owes = (turn in rules.sanctions and available) or any(g[0] == turn for g in rules.gifts)
    if rules.carte_due - {turn} or rules.swapper is not None or owes:
        return events
    return events + _turn(rules, available)


def _outside_turn(rules: PloucState) -> list[Legal]:
    """What may come outside the turn (see ``legal``)."""
    n = len(rules.players)
    cards = rules.cards
    available = cards.available(rules.reshuffle)
    active = [s for s in range(n) if s not in rules.seating.out]
    events: list[Legal] = [_event(rules, s, "says", word="carte") for s in active if rules.one[s] and not rules.called[s]]
    if rules.swapper is not None:
        events += [_event(rules, rules.swapper, "swaps", target=s) for s in active if s != rules.swapper]
    if available:
        for seat, count in rules.sanctions.items():
            events += _draws(rules, seat, min(count, available))
    for giver, receiver in dict.fromkeys(rules.gifts):
        held = cards.known[giver] + ([UNSEEN_CARD] if cards.unknown[giver] else [])
        events += [_event(rules, giver, "gives", (c,), target=receiver) for c in held]
    if rules.zero and (rules.zero_open or (rules.rank == TWO and rules.slapped)):
        events += [_event(rules, s, "slaps") for s in active]
    for seat in range(n):
        missed = [s for s in range(n) if s != seat and rules.one[s] and not rules.called[s] and not rules.waived[s]]
        if missed and rules.missed[max(missed, key=lambda s: rules.due_at[s])] and rules.plouc is None:  # (else it catches the « plouc »)
            events.append(_event(rules, seat, "says", word="contre"))
        events += [_event(rules, seat, "accuses", target=rules.seats[name]) for name in rules.errors if name != rules.players[seat]]
    return events


def _turn(rules: PloucState, available: int) -> list[Legal]:
    """The turn: the cards owed drawn or answered; else a card that fits (alone, or
    opening a group of its value), or a draw (a pass) where no card known to be in the
    hand fits."""
    seat = rules.turn
    cards = rules.cards
    held = cards.candidates(seat)
    count = cards.count(seat)
    facing = rules.facing()
    events: list[Legal] = []
    if facing:
        events += _draws(rules, seat, min(rules.owed, available))
    known = False
    for card in held:
        if not rules.playable(card, count) or rules.proof(seat, card) is not None:
            continue
        known = known or card in cards.known[seat]
        suits = _suits(rules, card)
        events += [_event(rules, seat, "plays", (card,), suit=s) for s in (suits[1] if count == 1 else suits[0])]
        group = _group(rules, seat, card, held, count, suits)
        if group is not None:
            events.append(group)
    if not facing and not known:  # no card the table knows of could be played: a draw (or a pass) may be right
        events += _draws(rules, seat, 1) if available else [_event(rules, seat, "passes")]
    return events


def _suits(rules: PloucState, card: Card) -> tuple[tuple[str | None, ...], tuple[str | None, ...]]:
    """What a play ending on this card announces, the hand kept and going out: an ace
    changes the suit (« On doit changer de couleur »), unless going out ends the game."""
    if card.rank != ACE:
        return (None,), (None,)
    suits = tuple(s for s in SUITS if s != (rules.suit or card.suit))
    return suits, ((None, *SUITS) if rules.last_out_ends() else suits)


def _group(rules: PloucState, seat: int, card: Card, held: list[Card], count: int,
           suits: tuple[tuple[str | None, ...], tuple[str | None, ...]]) -> Group | None:
    """The cards of the same value that may follow this one (« plusieurs cartes de même
    valeur »), as a choice; None when there are none."""
    cards = rules.cards
    more = tuple(c for c in held if c.rank == card.rank and c != card and rules.proof(seat, c) is None)
    if not more or count < 2:
        return None
    known = tuple(c for c in (card, *more) if c in cards.known[seat])
    not_last = tuple(c for c in (card, *more) if rules.forbidden_last(c))
    return Group(rules.players[seat], card, more, count, known, cards.unknown[seat], suits[0], suits[1], not_last)


# --- Mistakes a table makes (simulate --mistakes) ------------------------------------------------

MISTAKE_CODES = (
    "REC-NOT-IN-DECK", "CP-NO-MATCH", "CP-ACE-SUIT", "CP-ACE-ANNOUNCE", "CP-MUST-DRAW", "CP-DRAW-COUNT", "CP-NO-REPLAY",
    "CP-OUT-OF-TURN", "CP-DRAW-WITH-PLAYABLE", "CP-PASS", "CP-NOT-IN-HAND", "CP-STOCK-MISMATCH",
    "CP-MISSED-CARTE", "CP-MISSED-PLOUC", "CP-CALL-NOT-DUE", "CP-FALSE-CONTRE", "CP-SANCTION-WRONG",
    "CP-SANCTION-UNPAID", "CP-WRONG-ACCUSATION", "CP-FALSE-SLAP", "CP-WRONG-SWAP", "CP-SWAP-MISSING",
    "CP-THREE-OF-CLUBS", "CP-MAITRESSE", "CP-SWEAR",
)


def mistakes(rules: PloucState, hidden: bool) -> list[Mistake]:
    """Real table mistakes, each with every code the referee reports on its line, worked
    out from the situation: calls said wrong or not at all, slaps, swaps, accusations
    and gros mots; a card that does not fit, out of turn, or instead of the cards owed;
    wrong draws and passes; sanctions paid wrong or not at all. With ``hidden``, none
    that only the hands or the stock would show."""
    if rules.ended:
        return []
    found = [] if rules.plouc is not None else list(_free(rules))
    if rules.plouc is not None:
        found += _after_last_card(rules)
    elif _quiet(rules):
        found += _turn_mistakes(rules, hidden)
    else:
        found += _left_undone(rules)
    return found


def _quiet(rules: PloucState) -> bool:
    """Nothing owed but the turn: no call, swap, sanction or replay pending."""
    return not (rules.carte_due or rules.swapper is not None or rules.sanctions or rules.gifts or rules.again)


def _active(rules: PloucState) -> list[int]:
    return [s for s in range(len(rules.players)) if s not in rules.seating.out]


def _last_codes(rules: PloucState, seat: int, card: Card) -> tuple[str, ...]:
    """Going out on a forbidden card (le 3 de trèfle, la maîtresse)."""
    code = rules.forbidden_last(card) if rules.cards.count(seat) == 1 else None
    return (code,) if code else ()


def _free(rules: PloucState) -> Iterator[Mistake]:
    """Events out of the turn: slaps, calls, accusations, gros mots, swaps and sanctions."""
    n = len(rules.players)
    active = _active(rules)
    slap_open = rules.zero and (rules.zero_open or (rules.rank == TWO and rules.slapped))
    for seat in range(n):
        if seat in rules.seating.out or not slap_open:
            yield Mistake(_event(rules, seat, "slaps"), ("CP-FALSE-SLAP",))
    for seat in active:
        if not rules.one[seat]:
            yield Mistake(_event(rules, seat, "says", word="carte"), ("CP-CALL-NOT-DUE",))
        if not any(s != seat and rules.one[s] and not rules.called[s] for s in range(n)):
            yield Mistake(_event(rules, seat, "says", word="contre"), ("CP-FALSE-CONTRE",))
        innocent = next((s for s in range(n) if s != seat and rules.players[s] not in rules.errors), None)
        if innocent is not None:
            yield Mistake(_event(rules, seat, "accuses", target=innocent), ("CP-WRONG-ACCUSATION",))
        if "mot-doux" in rules.variants:
            yield Mistake(_event(rules, seat, "swears"), ("CP-SWEAR",))
        partner = next((s for s in active if s != seat), None)
        if rules.swapper == seat:
            yield Mistake(_event(rules, seat, "swaps", target=seat), ("CP-WRONG-SWAP",))
        elif partner is not None:
            yield Mistake(_event(rules, seat, "swaps", target=partner), ("CP-WRONG-SWAP",))
    sayer = next(s for s in active if s != rules.taken_back)  # theirs is part of the forbidden last card
    yield Mistake(_event(rules, sayer, "says", word="plouc"), ("CP-CALL-NOT-DUE",))
    yield from _sanction_mistakes(rules)


def _sanction_mistakes(rules: PloucState) -> Iterator[Mistake]:
    """A sanction drawn in the wrong number or by another player; a card given by the wrong
    player (not one owed the other way too: two « contre » may cross), two cards given, a
    card given that nobody owes."""
    cards = rules.cards
    available = cards.available(rules.reshuffle)
    for offender, count in rules.sanctions.items():
        if offender != rules.turn and available > count:
            yield Mistake(_draw(rules, offender, count + 1), ("CP-DRAW-COUNT",))
        other = next((s for s in _active(rules) if s not in (offender, rules.turn)), None)
        if other is not None and available and not rules.carte_due and rules.swapper is None and other not in rules.sanctions:
            yield Mistake(_draw(rules, other, 1), ("CP-SANCTION-WRONG",))
    for giver, receiver in rules.gifts:
        if cards.count(receiver) and (receiver, giver) not in rules.gifts:  # (else: a gift owed the other way)
            yield Mistake(_gift(rules, receiver, giver, 1), ("CP-SANCTION-WRONG",))
        if cards.count(giver) > 2:
            yield Mistake(_gift(rules, giver, receiver, 2), ("CP-SANCTION-WRONG",))
    if not rules.gifts:
        holder = next((s for s in _active(rules) if cards.count(s) > 1), None)
        if holder is not None:
            target = next(s for s in _active(rules) if s != holder)
            yield Mistake(_gift(rules, holder, target, 1), ("CP-SANCTION-WRONG",))


def _gift(rules: PloucState, giver: int, receiver: int, count: int) -> Event:
    known = rules.cards.known[giver]
    cards = known[:count] if len(known) >= count else [UNSEEN_CARD] * count
    return _event(rules, giver, "gives", cards, target=receiver)


def _draw(rules: PloucState, seat: int, count: int) -> Event:
    """Drawing ``count`` cards from the stock as they come."""
    return _draws(rules, seat, count)[0]


def _turn_mistakes(rules: PloucState, hidden: bool) -> Iterator[Mistake]:
    """The turn goes wrong: a card that does not fit, one played out of turn or instead of
    the cards owed, a wrong draw or pass."""
    seat, cards = rules.turn, rules.cards
    count = cards.count(seat)
    held = cards.known[seat]
    available = cards.available(rules.reshuffle)
    if available:
        yield Mistake(_event(rules, seat, "passes"), ("CP-PASS",))
    if rules.facing():
        owed = min(rules.owed, available)
        for card in held:
            if card.rank != ACE and not rules.answers(card):
                yield Mistake(_event(rules, seat, "plays", (card,)), ("CP-MUST-DRAW",) + _last_codes(rules, seat, card))
                break
        wrong = owed + 1 if available > owed else owed - 1
        if wrong:
            yield Mistake(_draw(rules, seat, wrong), ("CP-DRAW-COUNT",))
        return
    playable = [c for c in held if rules.playable(c, count)] if rules.suit is not None else []
    if rules.suit is not None:
        for card in held:
            if card.rank == ACE:
                if card.suit != rules.suit:
                    suit = next(s for s in SUITS if s != rules.suit)
                    yield Mistake(_event(rules, seat, "plays", (card,), suit=suit), ("CP-ACE-SUIT",) + _last_codes(rules, seat, card))
                elif count == 1 and rules.last_out_ends():  # going out, the game over: no suit is due
                    last = _last_codes(rules, seat, card)
                    if last:
                        yield Mistake(_event(rules, seat, "plays", (card,)), last)
                else:
                    last = _last_codes(rules, seat, card)
                    yield Mistake(_event(rules, seat, "plays", (card,)), ("CP-ACE-ANNOUNCE",) + last)
                    yield Mistake(_event(rules, seat, "plays", (card,), suit=rules.suit), ("CP-ACE-ANNOUNCE",) + last)
            elif not rules.matches(card):
                yield Mistake(_event(rules, seat, "plays", (card,)), ("CP-NO-MATCH",) + _last_codes(rules, seat, card))
            elif count == 1 and rules.forbidden_last(card):
                yield Mistake(_event(rules, seat, "plays", (card,)), _last_codes(rules, seat, card))
            else:
                yield Mistake(_event(rules, seat, "plays", (card,), suit="S" if card.suit != "S" else "H"), ("CP-ACE-ANNOUNCE",))
        yield from _out_of_turn(rules)
        yield from _going_out_on_three(rules, hidden)
    if available > 1 and not (playable and _revealed(rules, hidden)):
        yield Mistake(_draw(rules, seat, 2), ("CP-DRAW-COUNT",) + (() if hidden or not playable else ("CP-DRAW-WITH-PLAYABLE",)))
    if hidden or cards.unknown[seat] or not available:
        return
    if playable:
        yield Mistake(_draw(rules, seat, 1), ("CP-DRAW-WITH-PLAYABLE",))
    stock = cards.stock
    if len(stock) > 1 and stock[-1].seen and stock[-2].seen:
        codes = ("CP-STOCK-MISMATCH",) + (("CP-DRAW-WITH-PLAYABLE",) if playable else ())
        yield Mistake(_event(rules, seat, "draws", (stock[-2],)), codes)
    if count > 1 and rules.suit is not None:
        elsewhere = next((c for c, spot in cards.where.items() if spot != seat and spot not in (-1, -3)
                          and c.rank != ACE and rules.matches(c)), None)
        if elsewhere is not None:
            yield Mistake(_event(rules, seat, "plays", (elsewhere,)), ("CP-NOT-IN-HAND",))


def _revealed(rules: PloucState, hidden: bool) -> bool:
    """Whether a table that sees no hand has seen a card in one: a forbidden last card
    taken back (it stays known, and goes with its hand in a swap). Then which cards the
    referee knows a hand holds is more than the simulator tells: the mistakes that depend
    on it are left out."""
    return hidden and any(v.code in ("CP-THREE-OF-CLUBS", "CP-MAITRESSE") for v in rules.violations)


def _going_out_on_three(rules: PloucState, hidden: bool) -> Iterator[Mistake]:
    """The last card written is the 3 of clubs (le 3 de trèfle), in turn or not, held or
    not (only a known hand shows that it was not there; not where it was seen elsewhere).
    Asked only when nothing is owed but the turn (``_quiet``): no sanction or gift is due."""
    cards = rules.cards
    if "3-de-trefle" not in rules.variants or cards.where.get(THREE_OF_CLUBS) in (DISCARD, POOL) or _revealed(rules, hidden):
        return
    for seat in _active(rules):
        if cards.count(seat) != 1 or THREE_OF_CLUBS in cards.known[seat] or (cards.unknown[seat] and not hidden):
            continue
        if cards.where.get(THREE_OF_CLUBS, seat) not in (seat, STOCK):  # known in another hand (sent back there)
            continue
        if hidden and rules.passed_at[seat] > cards.last_in[seat]:
            continue  # a hand nobody saw, that passed since: the card may prove that pass wrong
        codes: tuple[str, ...] = () if seat == rules.turn else ("CP-OUT-OF-TURN",)
        codes += () if rules.matches(THREE_OF_CLUBS) else ("CP-NO-MATCH",)
        codes += () if hidden else ("CP-NOT-IN-HAND",)
        yield Mistake(_event(rules, seat, "plays", (THREE_OF_CLUBS,)), codes + ("CP-THREE-OF-CLUBS",))


def _out_of_turn(rules: PloucState) -> Iterator[Mistake]:
    """Another player lays a card that fits, as if it were their turn (asked only when
    nothing is owed but the turn, as ``_going_out_on_three``)."""
    for seat in _active(rules):
        if seat == rules.turn:
            continue
        card = next((c for c in rules.cards.known[seat] if c.rank != ACE and rules.matches(c)), None)
        if card is not None:
            yield Mistake(_event(rules, seat, "plays", (card,)), ("CP-OUT-OF-TURN",) + _last_codes(rules, seat, card))
            return


def _left_undone(rules: PloucState) -> Iterator[Mistake]:
    """Play goes on over what was owed first: a replay, a « carte », a swap, a sanction."""
    seat = rules.turn
    if rules.again and not (rules.carte_due or rules.swapper is not None or rules.sanctions or rules.gifts) and not rules.owed:
        following = rules.seating.after(seat, 1 + rules.skip)
        card = next((c for c in rules.cards.known[following] if c.rank != ACE and rules.matches(c)), None)
        if following != seat and card is not None and following not in rules.sanctions:
            yield Mistake(_event(rules, following, "plays", (card,)), ("CP-NO-REPLAY",) + _last_codes(rules, following, card))
        return
    codes = _window_codes(rules, seat)
    owes = _unpaid_codes(rules, seat)
    for event in _turn(rules, rules.cards.available(rules.reshuffle)):
        if not isinstance(event, Event) or event.verb != "plays":
            continue
        if codes or owes:
            yield Mistake(event, codes + owes + _last_codes(rules, seat, event.cards[0]), follow_on=not codes)
        break
    if rules.carte_due:
        target = max(rules.carte_due, key=lambda s: rules.due_at[s])
        caller = next((s for s in _active(rules) if s != target and not (rules.one[s] and not rules.called[s])), None)
        if caller is not None:
            yield Mistake(_event(rules, caller, "says", word="contre"), ("CP-MISSED-CARTE",))


def _window_codes(rules: PloucState, seat: int) -> tuple[str, ...]:
    """What a turn by ``seat`` finds missed: the swap of le zéro, the others' « carte »."""
    codes = ("CP-SWAP-MISSING",) if rules.swapper is not None else ()
    return codes + ("CP-MISSED-CARTE",) * len(rules.carte_due - {seat})


def _unpaid_codes(rules: PloucState, seat: int) -> tuple[str, ...]:
    codes = ("CP-SANCTION-UNPAID",) if seat in rules.sanctions and rules.cards.available(rules.reshuffle) else ()
    return codes + ("CP-SANCTION-UNPAID",) * sum(g[0] == seat for g in rules.gifts)


def _after_last_card(rules: PloucState) -> Iterator[Mistake]:
    """No « plouc »: the next turn, or a « contre »."""
    out = rules.plouc
    caller = next((s for s in _active(rules) if s != out), None)
    if caller is not None:
        yield Mistake(_event(rules, caller, "says", word="contre"), ("CP-MISSED-PLOUC",))
    if rules.closing:
        seat = rules.turn if rules.turn != out else caller
        if seat is not None:
            yield Mistake(_event(rules, seat, "passes"), ("CP-MISSED-PLOUC", "REC-AFTER-END"))
        return
    if rules.again or rules.swapper is not None:
        return
    seat = rules.turn
    for event in _turn(rules, rules.cards.available(rules.reshuffle)):
        if isinstance(event, Event) and event.verb == "plays":
            codes = ("CP-MISSED-PLOUC",) + _window_codes(rules, seat) + _unpaid_codes(rules, seat)
            yield Mistake(event, codes + _last_codes(rules, seat, event.cards[0]))
            break
