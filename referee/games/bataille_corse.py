"""La Bataille corse: Beggar-my-neighbour with slaps, 2 to 5 players, 52 cards.

The conventions this module follows where the text is silent are in
docs/games/bataille-corse.md, rule by rule."""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Iterator

# mypyc_attr(serializable=True, allow_interpreted_subclasses=True): a class the rules' copies and
# pickles hold, which Python code may also build (docs/performance.md, the fast path)
from mypy_extensions import mypyc_attr

from ..cards import ACE, JACK, KING, QUEEN, STANDARD_52, UNSEEN_CARD, Card
from ..messages import Said, clauses, in_clauses, join, listed, said, say
from ..record import Event
from .base import Hand, Legal, Mistake, Option, Result, Rules, Setup, Table, option_value

PAYING = {JACK: 1, QUEEN: 2, KING: 3, ACE: 4}
"""Paying cards and how many cards the next player owes for each."""

PATTERNS = ("pair", "addition", "sandwich", "big-mac")
PATTERN_DEPTH = {"pair": 2, "addition": 2, "sandwich": 3, "big-mac": 4}
"""How many cards from the top of the pile each slap pattern spans."""
PENALTIES = ("burn-3", "give-1", "no-slap-30")
BURN = 3
"""Cards slid under the pile by the burn-3 penalty."""
BAN_SECONDS = 30
DAY = 24 * 3600
"""Timestamps are times of day: a ban that began before midnight is counted across it."""
PILE = -1
"""Where a card lies when it is on the pile (else: the seat whose pack holds it)."""

RULES = {
    "deal": "Toutes les cartes sont distribuées équitablement, une différence d’une carte étant possible entre les joueurs",
    "turn": "À tour de rôle, chacun retourne la carte du haut de son paquet et la pose au centre, sur une pile croissante, jusqu’à ce qu’une carte payante apparaisse : Valet, Dame, Roi ou As.",
    "pay": "lorsqu’un joueur retourne une carte payante, son voisin de gauche doit payer une pénalité, c’est-à-dire jouer plusieurs cartes à la suite : 4 pour un As, 3 pour un Roi, 2 pour une Dame et une pour un Valet.",
    "collect": "Le joueur de la carte payante ramasse ensuite toute la pile, qu’il glisse sous son paquet, puis relance avec une nouvelle carte.",
    "slap": "n’importe quel joueur peut gifler la pile lorsque deux cartes de même valeur se succèdent – par exemple ♠6 et 6 –, et ainsi remporter l’ensemble des cartes.",
    "error": "un joueur qui commet une erreur (comme jouer ou gifler au mauvais moment) reçoit une pénalité, préalablement décidée : glisser trois cartes de son paquet sous la pile centrale, donner une carte à chacun des autres joueurs ou encore ne plus pouvoir gifler pendant 30 secondes.",
    "out": "Quand un joueur n’a plus de cartes, il doit attendre son prochain tour avant d’être éliminé ; entre-temps, il peut encore gifler la pile de cartes et revenir dans le jeu.",
    "end": "Le gagnant est le premier joueur à ramasser toutes les cartes.",
    "cards": "Un jeu de 52 cartes (sans Joker)",
}

CODES = {
    "BC-OUT-OF-TURN": "turn",
    "BC-OVERPAID": "pay",
    "BC-UNDERPAID": "pay",
    "BC-WRONG-COLLECTOR": "collect",
    "BC-NOT-WON": "collect",
    "BC-FALSE-SLAP": "error",
    "BC-SLAP-WHILE-OUT": "out",
    "BC-SLAP-BANNED": "error",
    "BC-PENALTY-UNPAID": "error",
    "BC-PENALTY-WRONG": "error",
    "BC-GIVE-TO-OUT": "error",
    "BC-DEAL-MISMATCH": "turn",
    "BC-EMPTY-PACK": "out",
    "BC-CARD-COUNT": "deal",
    "REC-DUPLICATE-CARD": "cards",
    "REC-NOT-IN-DECK": "cards",
    "REC-BAD-DEAL": "deal",
    "REC-LATE-DEAL": "deal",
    "REC-AFTER-END": "end",
    "REC-RESULT-MISMATCH": "end",
}

_TWO = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n'
_THREE = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n'
_NO_SLAP_30 = _TWO.replace("\n[Players", '\n[Penalty "no-slap-30"]\n[Players')
_GIVE_1 = _THREE.replace("\n[Players", '\n[Penalty "give-1"]\n[Players')
EXAMPLES = {
    "BC-OUT-OF-TURN": _THREE + "Alice plays 5H\nChloe plays 9C           ; expect BC-OUT-OF-TURN\n",
    "BC-OVERPAID": _TWO + "Alice plays JD           ; a jack: Bob pays one card\nBob plays 4C\n"
                          "Bob plays 8S             ; expect BC-OVERPAID\n",
    "BC-UNDERPAID": _TWO + "Alice plays QD           ; a queen: Bob pays two cards\nBob plays 4C\n"
                           "Alice collects           ; expect BC-UNDERPAID\n",
    "BC-WRONG-COLLECTOR": _TWO + "Alice plays JD\nBob plays 4C\nBob collects             ; expect BC-WRONG-COLLECTOR\n",
    "BC-NOT-WON": _TWO + "Alice plays 5H\nBob plays 9C\nAlice collects           ; expect BC-NOT-WON\n",
    "BC-FALSE-SLAP": _TWO + "Alice plays 5H\nBob plays 6C\nAlice slaps              ; expect BC-FALSE-SLAP\n",
    "BC-SLAP-WHILE-OUT": _THREE + "Bob holds 5H             ; accepted REC-BAD-DEAL (one card, for a short example)\n"
                                  "Alice plays AS           ; Bob owes four cards and has one\n"
                                  "Bob plays 5H             ; out at once: Chloe pays the rest\nChloe plays 5C\n"
                                  "Bob slaps                ; expect BC-SLAP-WHILE-OUT\n",
    "BC-SLAP-BANNED": _NO_SLAP_30 + "21:00:00 Alice plays 5H\n21:00:02 Bob plays 6C\n"
                                    "21:00:04 Alice slaps     ; expect BC-FALSE-SLAP\n"
                                    "21:00:06 Alice plays 7D\n21:00:08 Bob plays 7C\n"
                                    "21:00:10 Alice slaps     ; expect BC-SLAP-BANNED\n",
    "BC-PENALTY-UNPAID": _TWO + "Alice plays 5H\nBob plays 6C\nAlice slaps              ; expect BC-FALSE-SLAP\n"
                                "Alice plays 7D           ; expect BC-PENALTY-UNPAID\n",
    "BC-PENALTY-WRONG": _TWO + "Alice plays 5H\nBob burns 3              ; expect BC-PENALTY-WRONG\n",
    "BC-GIVE-TO-OUT": _GIVE_1 + "Bob holds 5H             ; accepted REC-BAD-DEAL (one card, for a short example)\n"
                                "Alice plays AS           ; Bob owes four cards and has one\n"
                                "Bob plays 5H             ; out at once: Chloe pays the rest\n"
                                "Alice slaps              ; expect BC-FALSE-SLAP\n"
                                "Alice gives ?? to Bob    ; expect BC-GIVE-TO-OUT\n",
    "BC-DEAL-MISMATCH": _TWO + "Alice holds 5H 9C 24\nAlice plays 9C           ; expect BC-DEAL-MISMATCH\n",
    "BC-EMPTY-PACK": _THREE + "Bob holds 5H             ; accepted REC-BAD-DEAL (one card, for a short example)\n"
                              "Alice plays 3C\nBob plays 5H\nChloe plays 4D\n"
                              "Alice plays 6S           ; Bob's turn comes with an empty pack: he is out\n"
                              "Bob plays 7H             ; expect BC-OUT-OF-TURN BC-EMPTY-PACK\n",
    "BC-CARD-COUNT": _TWO + "Alice holds 5H 9C        ; expect BC-CARD-COUNT\nBob holds 2D 3D\nAlice plays 5H\n",
}
"""For ``referee explain``: a short record per code, the fault marked where referee
reports it. The shared ``REC-*`` codes have theirs in referee/games/shared_examples.py."""


def slap_patterns(run: list[Card], allowed: frozenset[str], ace_counts: bool) -> list[str]:
    """The slap patterns the top of the face-up run shows, among those allowed. A card
    nobody saw (rank 0) makes no pattern."""
    if len(run) < 2 or not (top := run[-1].rank):
        return []
    below = run[-2].rank
    low = 1 if ace_counts else 2
    found = [name for name, shown in (
        ("pair", below == top),
        ("addition", low <= below <= 10 and low <= top <= 10 and below + top == 10),
        ("sandwich", len(run) >= 3 and run[-3].rank == top),
        ("big-mac", len(run) >= 4 and run[-4].rank == top),
    ) if shown]
    return [p for p in found if p in allowed]


def _clock_text(seconds: int) -> str:
    """A time of day, as records write it: 21:04:12."""
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Penalty:
    """A penalty owed: cards to burn, or players still to be given a card."""

    kind: str
    burn: int
    give_to: list[int]

    def __init__(self, kind: str, burn: int = 0, give_to: list[int] | None = None) -> None:
        self.kind = kind
        self.burn = burn
        self.give_to = [] if give_to is None else give_to


@mypyc_attr(allow_interpreted_subclasses=True)  # so that a call from Python code runs __init__
class BatailleCorse(Rules):
    name = "bataille-corse"
    title = "Bataille corse"
    min_players = 2
    max_players = 5
    deck = frozenset(STANDARD_52)
    verbs = frozenset({"holds", "plays", "slaps", "collects", "burns", "gives"})
    anyone = {"slaps": "Penalty"}
    targets = frozenset({"gives"})
    options = (
        Option("Slaps", PATTERNS, frozenset({"pair"}), "what may be slapped besides the pair", many=True,
               aliases=(("bigmac", "big-mac"), ("paire", "pair"))),
        Option("Penalty", PENALTIES, "burn-3", "the penalty for a false slap or a card played at the wrong time",
               aliases=(("burn3", "burn-3"), ("give1", "give-1"), ("noslap30", "no-slap-30"), ("no-slap", "no-slap-30"))),
        Option("AdditionAce", ("no", "yes"), "no", "whether an ace counts 1 in l'addition"),
        Option("SlapDuringPayment", ("yes", "no"), "yes", "whether a slap during an unfinished payment wins the pile"),
        Option("SlapLeads", ("slapper", "turn"), "slapper", "who turns the next card after a winning slap"),
    )
    chart = "cards"
    RULES = RULES
    CODES = CODES
    EXAMPLES = EXAMPLES
    mistake_codes = (
        "REC-NOT-IN-DECK",
        "BC-OUT-OF-TURN", "BC-OVERPAID", "BC-UNDERPAID", "BC-WRONG-COLLECTOR", "BC-NOT-WON", "BC-FALSE-SLAP",
        "BC-SLAP-WHILE-OUT", "BC-SLAP-BANNED", "BC-PENALTY-UNPAID", "BC-PENALTY-WRONG", "BC-GIVE-TO-OUT",
        "BC-EMPTY-PACK", "BC-DEAL-MISMATCH",
    )

    def __init__(self, setup: Setup):
        super().__init__(setup)
        o = setup.options
        slaps = o["Slaps"]
        assert isinstance(slaps, frozenset)  # the choices of a many-valued option
        self.patterns: frozenset[str] = frozenset(slaps) | {"pair"}
        self.penalty_kind = str(o["Penalty"])  # one of the option's choices
        self.ace_counts = o["AdditionAce"] == "yes"
        self.slap_in_payment = o["SlapDuringPayment"] == "yes"
        self.slapper_leads = o["SlapLeads"] == "slapper"
        n = len(self.players)
        self.packs: list[deque[Card]] = [deque([UNSEEN_CARD] * self._dealt(seat)) for seat in range(n)]
        self.deal_lines: dict[int, Event] = {}
        self.deal_faults: set[tuple[str, int]] = set()
        """The deal's faults reported, by code and line (each once)."""
        self.where: dict[Card, int] = {}
        self.pile: list[Card] = []
        self.run: list[Card] = []
        """The cards turned face up in turn since the pile was last taken."""
        self._showing: list[str] | None = []
        """The slap patterns the top of the run shows (None: not worked out yet)."""
        self.turn = setup.first
        self.debt = 0
        self.creditor: int | None = None
        self.paying: Card | None = None
        """The paying card of the payment under way."""
        self.leader: int | None = None
        """Who took the last pile, and so leads with a new card."""
        self.payer: int | None = None
        self.owner: int | None = None
        self.out = [False] * n
        self.order_out: list[int] = []
        self.winner: int | None = None
        self.penalty: dict[int, Penalty] = {}
        self.banned_at: dict[int, int] = {}
        """When each player's no-slap-30 ban began, in seconds after midnight."""
        self.slapper: int | None = None
        """Who won the pile by the last slap, while no card has been turned since."""
        self.handed: int | None = None
        """The winner, when the end handed them a pile they have not taken yet."""
        self.clock: int | None = None
        """The last time of day the record gave, in seconds after midnight."""
        self.started = False
        self.cards_played = 0
        self.piles_collected = 0
        self.never: dict[str, int] | None = None

    def _dealt(self, seat: int, total: int = 52, among: list[int] | None = None) -> int:
        """Cards dealt to a seat, one at a time from the first player."""
        among = among if among is not None else list(range(len(self.players)))
        k = len(among)
        order = sorted(among, key=lambda s: (s - self.setup.first) % len(self.players))
        return total // k + (1 if order.index(seat) < total % k else 0)

    # --- Events -----------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        seat = self.seat(event.player)
        if event.verb == "holds":
            self._holds(seat, event)
            return
        if not self.started:
            self._begin()
        if event.time is not None:
            self.clock = event.seconds
        owed = self.penalty.get(seat)
        if owed and event.verb in ("plays", "slaps"):
            self.flag("BC-PENALTY-UNPAID", event, penalty=self._penalty_text(owed))
            del self.penalty[seat]
        if event.verb != "slaps":
            self._settle()
        if event.verb not in ("slaps", "collects"):
            self.slapper = None
        verb = event.verb  # the commonest first
        if verb == "plays":
            self._plays(seat, event)
        elif verb == "slaps":
            self._slaps(seat, event)
        elif verb == "collects":
            self._collects(seat, event)
        elif verb == "burns":
            self._burns(seat, event)
        elif verb == "gives":
            self._gives(seat, event)
        else:
            raise KeyError(verb)  # the engine passes only the game's verbs

    def _holds(self, seat: int, event: Event) -> None:
        if self.started:
            self.flag("REC-LATE-DEAL", event)
            return
        for i, card in enumerate(event.cards):
            if card.seen and card in self.where and self.where[card] != seat:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=self._where(card))
            elif card.seen and card in event.cards[:i]:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=said("where.hand", player=event.player))
        for card, place in list(self.where.items()):
            if place == seat:
                del self.where[card]
        self.packs[seat] = deque(event.cards)
        self.where.update((c, seat) for c in event.cards if c.seen)
        self.deal_lines.setdefault(seat, event)
        if len(self.deal_lines) == len(self.players):  # the deal is written in full: check it now
            self._check_deal()

    def _begin(self) -> None:
        """At the first card: give unknown packs what the deal leaves them and check it."""
        if self.started:
            return
        self.started = True
        if not self.deal_lines:
            return
        known = sum(len(self.packs[s]) for s in self.deal_lines)
        rest = [s for s in range(len(self.players)) if s not in self.deal_lines]
        for seat in rest:
            self.packs[seat] = deque([UNSEEN_CARD] * self._dealt(seat, max(0, 52 - known), rest))
        if rest:  # a deal written in full was checked at its last line
            self._check_deal()

    def _check_deal(self) -> None:
        """The deal's size and fairness, each fault reported once: at the line that
        completes a deal written in full (so a record that is only the deal is checked),
        else at the first card."""
        sizes = [len(p) for p in self.packs]
        first = min(self.deal_lines.values(), key=lambda e: e.line)
        if sum(sizes) != 52:
            self._flag_deal("BC-CARD-COUNT", first, count=sum(sizes))
        elif max(sizes) - min(sizes) > 1:
            odd = max(self.deal_lines, key=lambda s: abs(sizes[s] - 52 / len(sizes)))
            low, high = 52 // len(sizes), -(-52 // len(sizes))
            self._flag_deal("REC-BAD-DEAL", self.deal_lines[odd], count=sizes[odd],
                            expected=str(low) if low == high else f"{low} or {high}")

    def _flag_deal(self, code: str, event: Event, count: int, expected: str = "") -> None:
        """A fault of the deal, unless already reported there (a pack written again)."""
        if (code, event.line) not in self.deal_faults:
            self.deal_faults.add((code, event.line))
            self.flag(code, event, count=count, expected=expected)

    def _plays(self, seat: int, event: Event) -> None:
        slid = 0
        for i, card in enumerate(event.cards):
            slid = self._turn_card(seat, card, event, event.card_column(i), slid)

    def _turn_card(self, seat: int, card: Card, event: Event, column: int, slid: int) -> int:
        """Turn one card of a line; ``slid``: how many of the line's cards went under the
        pile before it (they go as one block, in the order written). Returns that count."""
        if self.winner is not None:
            self.flag("REC-AFTER-END", event, column, result=said("report.winner", player=self.players[self.winner]))
            return slid
        if self.owner is not None and seat == self.owner:
            self._collect(seat)
        expected = self._due()
        if seat != expected:
            if self.owner is not None and seat == self.payer:
                stands = self.flag("BC-OVERPAID", event, column, card=card, creditor=self.players[self.owner])
            else:
                why, rule = self._turn_why(expected)
                stands = self.flag("BC-OUT-OF-TURN", event, column, rule=rule, card=card, expected=self.players[expected], why=why)
            placed = self._from_pack(seat, card, event, column)
            if placed is None:
                return slid
            self.pile.insert(slid, placed)
            self.where[placed] = PILE
            if stands:
                self._owe_penalty(seat, event)
            return slid + 1
        placed = self._from_pack(seat, card, event, column)
        if placed is not None:
            self._lay(placed)
            self._after_card(seat, placed)
        return slid

    def lay_stray(self, event: Event, index: int) -> None:
        """A card outside the deck turned in turn and let stand: the card that left the
        top of the pack (whatever the record calls it) lies on the pile, and counts as no
        card of the game: it asks for no payment and makes no slap pattern."""
        seat = self.seats[event.player]
        if not self.started:
            self._begin()
        self._settle()  # an event other than a slap: a player whose turn came with an empty pack is out
        if self.winner is not None or self.owner is not None or seat != self.turn or not self.packs[seat]:
            return
        top = self.packs[seat].popleft()
        self.pile.append(top)
        if top.seen:
            self.where[top] = PILE
        self.run.append(UNSEEN_CARD)
        self.cards_played += 1
        self._showing = None
        self._after_card(seat, UNSEEN_CARD)

    def _turn_why(self, expected: int) -> tuple[Said, str]:
        """What makes it ``expected``'s turn, in words, and the rule that decides it: a
        pile won and not taken yet, a payment under way, the last pile taken, or the turn
        going round."""
        name = self.players[expected]
        if self.owner is not None:
            return said("bc.turn.owner", player=name), "collect"
        if self.debt and self.creditor is not None:
            return said("bc.turn.pays", player=name, creditor=self.players[self.creditor], card=self.paying, count=self.debt), "pay"
        if not self.pile and self.leader == expected:
            return said("bc.turn.leads", player=name), "collect"
        if not self.cards_played:
            return said("bc.turn.first", player=name), "turn"
        return said("bc.turn.next", player=name), "turn"

    def _lay(self, card: Card) -> None:
        """A card turned face up on the pile, in turn."""
        self.pile.append(card)
        self.run.append(card)
        self.where[card] = PILE
        self.cards_played += 1
        self._showing = None

    def _after_card(self, seat: int, card: Card) -> None:
        """Debts and turns after a card turned in turn (shared with the play-out)."""
        if card.rank in PAYING and card.seen:
            self.creditor, self.debt, self.paying = seat, PAYING[card.rank], card
            self._pass_turn(seat)
        elif self.debt:
            self.debt -= 1
            self.payer = seat
            if self.debt == 0:
                self.owner = self.creditor
            elif not self.packs[seat]:
                self._eliminate(seat)
                if self.winner is None:
                    self._pass_turn(seat)
        else:
            self._pass_turn(seat)

    def _from_pack(self, seat: int, card: Card, event: Event, column: int) -> Card | None:
        """Take the top card of a pack, checking it against what is known of it."""
        pack = self.packs[seat]
        if not pack:
            self.flag("BC-EMPTY-PACK", event, column)
            return None
        top = pack.popleft()
        if not card.seen or card == top:
            return top
        if top.seen:
            self.flag("BC-DEAL-MISMATCH", event, column, card=card, expected=top)
        elif card in self.where:
            self.flag("REC-DUPLICATE-CARD", event, column, card=card, where=self._where(card))
        self._forget(card, replacement=top if top.seen else UNSEEN_CARD)
        return card

    def _forget(self, card: Card, replacement: Card) -> None:
        """The record shows ``card`` here: where it was thought to be, put ``replacement``."""
        place = self.where.pop(card, None)
        if place is not None and place != PILE:
            pack = self.packs[place]
            pack[pack.index(card)] = replacement
            if replacement.seen:
                self.where[replacement] = place
        elif replacement.seen:
            self.where.pop(replacement, None)

    def _where(self, card: Card) -> Said:
        place = self.where[card]
        return said("where.pile") if place == PILE else said("where.hand", player=self.players[place])

    def _collects(self, seat: int, event: Event) -> None:
        if self.winner is not None:  # the last pile, already theirs
            self.handed = None
            return
        if self.owner is None:
            if self.debt and self.creditor == seat:
                payer = self.payer if self.payer is not None else self._due()
                self.flag("BC-UNDERPAID", event, player=self.players[payer], creditor=event.player, count=self.debt)
            elif self.slapper is None:
                self.flag("BC-NOT-WON", event)
            elif self.slapper != seat:
                self.flag("BC-WRONG-COLLECTOR", event, owner=self.players[self.slapper])
        elif self.owner != seat:
            self.flag("BC-WRONG-COLLECTOR", event, owner=self.players[self.owner])
        if self.pile:
            self._collect(seat)

    def _slaps(self, seat: int, event: Event) -> None:
        if self.out[seat]:
            self.flag("BC-SLAP-WHILE-OUT", event)
            return
        if self.slapper is not None:
            return
        if (elapsed := self._ban_elapsed(seat)) is not None:  # the clock: this line's time, else the last one given
            if elapsed < BAN_SECONDS and event.seconds is None:
                self.notes.append(said("note.slap-untimed", player=event.player, line=event.line))
            elif elapsed < BAN_SECONDS:
                self.flag("BC-SLAP-BANNED", event, count=elapsed)
                return
        if not self._slap_open():
            if self.flag("BC-FALSE-SLAP", event, why=self._why_no_slap()):
                self._owe_penalty(seat, event)
            return
        due = self._due()
        self._collect(seat)
        self.slapper = seat
        if not self.slapper_leads and not self.out[due]:
            self.turn = due

    def _ban_elapsed(self, seat: int) -> int | None:
        """Seconds since the player's no-slap-30 ban began, by the clock; None: no ban."""
        if seat not in self.banned_at:
            return None
        assert self.clock is not None  # a ban begins at a time given, and the clock keeps the last
        return (self.clock - self.banned_at[seat]) % DAY

    def _banned(self, seat: int) -> bool:
        """Whether a slap at the clock's time falls within the player's ban."""
        elapsed = self._ban_elapsed(seat)
        return elapsed is not None and elapsed < BAN_SECONDS

    def _why_no_slap(self) -> Said:
        if self.debt and not self.slap_in_payment and self._shown():
            return said("bc.paying")
        top = said("bc.top", cards=tuple(self.run[-4:])) if self.run else said("bc.empty-pile")
        patterns = listed((said(f"bc.pattern.{p}") for p in sorted(self.patterns, key=PATTERNS.index)), "or")
        return said("bc.no-pattern", patterns=patterns, top=top)

    def _wrong_penalty(self, event: Event, owed: Penalty | None) -> None:
        detail = (said("bc.penalty-owed", player=event.player, penalty=self._penalty_text(owed)) if owed
                  else said("bc.no-penalty-due", player=event.player))
        self.flag("BC-PENALTY-WRONG", event, detail=detail)

    def _penalty_text(self, owed: Penalty) -> Said:
        """What a penalty still asks, in words."""
        if owed.kind == "burn-3":
            return said("bc.penalty.burn-3" if owed.burn == BURN else "bc.penalty.burn-fewer", count=owed.burn)
        key = "bc.penalty.give-1" if len(owed.give_to) == 1 else "bc.penalty.give-each"
        return said(key, players=listed(self.players[s] for s in owed.give_to))

    def _burns(self, seat: int, event: Event) -> None:
        owed = self.penalty.get(seat)
        if owed is None or owed.kind != "burn-3":
            return self._wrong_penalty(event, owed)
        del self.penalty[seat]
        cards = event.cards or (UNSEEN_CARD,) * owed.burn
        if len(cards) not in (owed.burn, BURN):
            self._wrong_penalty(event, owed)
        burned = [c for i, card in enumerate(cards[: len(self.packs[seat])])
                  if (c := self._from_pack(seat, card, event, event.card_column(i))) is not None]
        self.pile[:0] = burned
        self.where.update((c, PILE) for c in burned if c.seen)
        self._payer_emptied(seat)

    def _gives(self, seat: int, event: Event) -> None:
        owed = self.penalty.get(seat)
        assert event.target is not None  # the grammar reads ``gives`` with ``to`` and a player
        target = self.seat(event.target)
        if self.out[target]:  # owed nothing: the card stays on top of the giver's pack
            self.flag("BC-GIVE-TO-OUT", event, target=event.target)
            return
        if owed is None or owed.kind != "give-1" or target not in owed.give_to or len(event.cards) != 1:
            return self._wrong_penalty(event, owed)
        owed.give_to.remove(target)
        if not owed.give_to:
            del self.penalty[seat]
        card = self._from_pack(seat, event.cards[0], event, event.cards_column)
        if card is not None:
            self.packs[target].append(card)
            if card.seen:
                self.where[card] = target
        self._payer_emptied(seat)

    # --- Moving the game along --------------------------------------------------------
    def _payer_emptied(self, seat: int) -> None:
        """A payer whose penalty took their last cards while they still owe is out at once
        (« à court de cartes pendant qu'il paye »), and the next player pays."""
        if self.debt and self.owner is None and self.turn == seat and not self.packs[seat]:
            self._eliminate(seat)
            if self.winner is None:
                self._pass_turn(seat)

    def _owe_penalty(self, seat: int, event: Event) -> None:
        if self.penalty_kind == "no-slap-30":
            # A fault on a line without a time is dated by the last time given before it:
            # a slap flagged as banned is then surely within the 30 seconds.
            if self.clock is None:
                self.notes.append(said("note.no-slap-30", player=event.player))
            else:
                self.banned_at[seat] = self.clock
            return
        size = len(self.packs[seat])
        if size == 0:
            return
        if self.penalty_kind == "burn-3":
            self.penalty[seat] = Penalty("burn-3", burn=min(BURN, size))
        else:
            n = len(self.players)
            others = [s for s in ((seat + k) % n for k in range(1, n)) if not self.out[s]][:size]
            self.penalty[seat] = Penalty("give-1", give_to=others)

    def _due(self) -> int:
        """Who must act next: the winner of the pile, else whose turn it is."""
        return self.owner if self.owner is not None else self.turn

    def _pass_turn(self, seat: int) -> None:
        """Hand the turn to the next player still in. One who must pay with an empty pack
        is out at once, and the next one pays; if the debt would come back to its
        creditor, the payment ends there."""
        n = len(self.players)
        nxt = seat
        for _ in range(n):
            nxt = (nxt + 1) % n
            if self.out[nxt]:
                continue
            if self.debt and nxt == self.creditor:
                self.debt, self.owner, self.turn = 0, nxt, nxt
                return
            if self.debt and not self.packs[nxt]:
                self._eliminate(nxt)
                if self.winner is not None:
                    return
                continue
            self.turn = nxt
            return

    def _settle(self) -> None:
        """A player whose turn has come with an empty pack is out (until then they may
        still slap their way back in)."""
        while self.winner is None and self.owner is None and self.started and not self.packs[self.turn]:
            seat = self.turn
            self._eliminate(seat)
            if not self._won():
                self._pass_turn(seat)

    def _won(self) -> bool:
        """Whether the game has a winner: asked after a call that may have ended it, where
        mypy takes ``self.winner`` for still None (compiled, a read would check that)."""
        return self.winner is not None

    def _eliminate(self, seat: int) -> None:
        if not self.out[seat]:
            self.out[seat] = True
            self.order_out.append(seat)
            self._owed_no_more(seat)
        self._check_end()

    def _owed_no_more(self, seat: int) -> None:
        """A player who goes out is owed no card of a give-1 penalty not paid yet (« à
        chacun des autres joueurs »: those still in when it is paid)."""
        for payer, owed in list(self.penalty.items()):
            if seat in owed.give_to:
                owed.give_to.remove(seat)
                if not owed.give_to:
                    del self.penalty[payer]

    def _check_end(self) -> None:
        alive = [s for s in range(len(self.players)) if not self.out[s]]
        if len(alive) == 1 and self.winner is None:
            self.winner = alive[0]
            if self.pile:
                self._collect(alive[0])
                self.handed = alive[0]

    def _collect(self, seat: int) -> None:
        """The pile, turned over, goes under the pack; that player leads."""
        pack = self.packs[seat]
        pack.extend(self.pile)
        self.where.update((c, seat) for c in self.pile if c.seen)
        self.pile, self.run, self._showing = [], [], []
        self.debt, self.creditor, self.owner, self.payer = 0, None, None, None
        self.turn = self.leader = seat
        self.piles_collected += 1
        if len(pack) == 52 and self.winner is None:
            n = len(self.players)  # the others go out in turn order from the winner
            for other in ((seat + k) % n for k in range(1, n)):
                self._eliminate(other)

    # --- Playing out a known deal -----------------------------------------------------
    def play_out(self) -> None:
        """Play the game on from the known packs to its end, or to a repeated position."""
        self._begin()
        if self.winner is not None:
            return
        for seat, pack in enumerate(self.packs):
            hidden = sum(not c.seen for c in pack)
            if hidden:
                self.notes.append(said("note.play-out-unknown", player=self.players[seat], count=hidden))
                return
        if self.penalty or any(not c.seen for c in self.pile):
            self.notes.append(said("note.play-out-pending", todo=clauses(self.todo())))
            return
        before = self.cards_played
        seen: dict[tuple[tuple[bytes, ...], int, tuple[bool, ...]], int] = {}
        # With no slaps, only the paying cards decide the play: positions are compared on them.
        while not self._won():
            self._settle()
            if self._won():
                break
            if self.owner is not None:
                self._collect(self.owner)
                key = (tuple(bytes(PAYING.get(c.rank, 0) for c in p) for p in self.packs), self.turn, tuple(self.out))
                if key in seen:
                    self.never = {"start": seen[key] + 1, "length": self.cards_played - seen[key]}
                    self.notes.append(said("never-ends", **self.never))
                    return
                seen[key] = self.cards_played
                continue
            seat = self.turn
            card = self.packs[seat].popleft()
            self._lay(card)
            self._after_card(seat, card)
        self.notes.append(said("note.play-out", count=self.cards_played - before))

    def _settled(self) -> BatailleCorse:
        """The replay as the next event other than a slap will find it: a player whose
        turn came with an empty pack put out. Itself when nobody is; else a copy, so that
        asking what may happen (``legal``, ``mistakes``) leaves a slap still judged
        before that player goes out, as the replay judges it."""
        if self.winner is None and self.owner is None and self.started and not self.packs[self.turn]:
            view = copy.deepcopy(self)
            view._settle()
            return view
        return self

    def legal(self) -> list[Legal]:
        if not self._slap_open() and (settled := self._settled()) is not self:
            return settled.legal()
        if self.winner is not None:
            return []
        due = self._due()
        name = self.players[due]
        events: list[Legal] = [payment for seat, owed in self.penalty.items() for payment in self._payments(seat, owed)]
        if self.owner is not None:
            events.append(Event(name, "collects", 0, 0))
        if self.packs[due] and due not in self.penalty:  # a penalty is paid before one's next card
            events += [Event(name, "plays", 0, 0, (card,), str(card)) for card in self._may_be_top(due)]
        if self._slap_open():
            events += [Event(p, "slaps", 0, 0) for s, p in enumerate(self.players)
                       if not self.out[s] and s not in self.penalty and not self._banned(s)]
        elif self.slapper is not None:  # a late hand on a pile already won: harmless
            events += [Event(p, "slaps", 0, 0) for s, p in enumerate(self.players) if not self.out[s] and s not in self.penalty]
        return events

    def _payments(self, seat: int, owed: Penalty) -> list[Event]:
        """The events that pay a penalty owed (a give-1 penalty: one card to each player owed)."""
        name, pack = self.players[seat], self.packs[seat]
        if owed.kind == "burn-3":
            cards = tuple(pack)[: owed.burn]
            return [Event(name, "burns", 0, 0, cards, " ".join(map(str, cards)))]
        return [Event(name, "gives", 0, 0, (card,), str(card), 0, self.players[s])
                for s in owed.give_to for card in self._may_be_top(seat)]

    def _may_be_top(self, seat: int) -> list[Card]:
        """The cards that may be on top of a pack: the top card when it is known; else
        ``??`` and every card whose place nobody knows."""
        top = self.packs[seat][0]
        return [top] if top.seen else [top, *(c for c in STANDARD_52 if c not in self.where)]

    # --- A table's mistakes, for simulate --mistakes ------------------------------------
    def mistakes(self, hidden: bool = False) -> list[Mistake]:
        """Slaps at the wrong time, by a player out or banned; cards turned out of turn,
        after the debt is paid, from an empty pack, or other than the one on top of the
        pack; the pile taken by the wrong player, before it is won or before the debt
        is paid; penalties paid wrongly; and penalties left unpaid: the offender's own
        next card or slap, which also carries the codes it draws itself."""
        found = list(self._slap_mistakes()) if self.winner is None else []
        settled = self._settled()  # any other event first puts out a player whose turn found an empty pack
        if settled.winner is None:
            found += [*settled._card_mistakes(hidden), *settled._collect_mistakes(), *settled._payment_mistakes(hidden)]
        return found

    def _unpaid(self, seat: int) -> tuple[str, ...]:
        """A card or a slap by a player who owes a penalty leaves it unpaid."""
        return ("BC-PENALTY-UNPAID",) if seat in self.penalty else ()

    def _slap_mistakes(self) -> Iterator[Mistake]:
        for seat, name in enumerate(self.players):
            codes, time = self._unpaid(seat), None
            if self.out[seat]:
                codes += ("BC-SLAP-WHILE-OUT",)
            elif self.slapper is None:  # else a late hand on a pile already won: harmless
                if self._banned(seat) and self.clock is not None:  # written at the clock's time, so surely within the ban
                    codes, time = codes + ("BC-SLAP-BANNED",), "{:02d}:{:02d}:{:02d}".format(
                        self.clock // 3600, self.clock // 60 % 60, self.clock % 60)
                elif not self._slap_open():
                    codes += ("BC-FALSE-SLAP",)
            if codes:
                yield Mistake(Event(name, "slaps", 0, 0, time=time), codes)

    def _card_mistakes(self, hidden: bool) -> Iterator[Mistake]:
        due = self._due()
        for seat, name in enumerate(self.players):
            unpaid = self._unpaid(seat)
            if seat == due:  # the owner takes the pile before turning a card
                cards = [*self.packs[seat], *(self.pile if seat == self.owner else ())]
                if unpaid:  # the table lets the penalty go
                    yield Mistake(_event(name, "plays", cards[0]), unpaid, follow_on=True)
                if not hidden and len(cards) > 1 and cards[0].seen and cards[1].seen:
                    yield Mistake(_event(name, "plays", cards[1]), unpaid + ("BC-DEAL-MISMATCH",))
                if self.debt == 1 and self.owner is None and len(cards) > 1 and cards[0].rank not in PAYING:
                    yield Mistake(_event(name, "plays", *cards[:2]), unpaid + ("BC-OVERPAID",))  # one card too many
                continue
            codes = unpaid + ("BC-OVERPAID" if self.owner is not None and seat == self.payer else "BC-OUT-OF-TURN",)
            if self.packs[seat]:
                yield Mistake(_event(name, "plays", self.packs[seat][0]), codes)
            else:  # the writer put down the wrong name
                card = self.packs[due][0] if self.packs[due] else UNSEEN_CARD
                yield Mistake(_event(name, "plays", card), codes + ("BC-EMPTY-PACK",))

    def _collect_mistakes(self) -> Iterator[Mistake]:
        if not self.pile:
            return
        for seat, name in enumerate(self.players):
            if self.out[seat]:
                continue
            if self.owner is not None:
                code = "BC-WRONG-COLLECTOR" if seat != self.owner else None
            elif self.debt and seat == self.creditor:
                code = "BC-UNDERPAID"
            elif self.slapper is None:
                code = "BC-NOT-WON"
            else:
                code = "BC-WRONG-COLLECTOR" if seat != self.slapper else None
            if code:
                yield Mistake(Event(name, "collects", 0, 0), (code,))

    def _payment_mistakes(self, hidden: bool) -> Iterator[Mistake]:
        """A penalty paid when none is owed, in the wrong number of cards, or to the wrong
        player; or paid with cards other than those on top of the pack."""
        wrong = ("BC-PENALTY-WRONG",)
        n = len(self.players)
        for seat, name in enumerate(self.players):
            pack, owed = self.packs[seat], self.penalty.get(seat)
            if self.out[seat] or not pack:
                continue
            kind = owed.kind if owed else self.penalty_kind
            seen = not hidden and all(c.seen for c in tuple(pack)[:BURN])
            if kind != "give-1":
                counts = [BURN] if owed is None else [k for k in (1, 2, BURN + 1) if k <= len(pack) and k not in (owed.burn, BURN)]
                for count in counts:
                    yield Mistake(_event(name, "burns", *tuple(pack)[:count]), wrong)
                if owed and owed.burn > 1 and seen:
                    # The right cards in the wrong order: each written card not on top takes the
                    # place of the one expected there, which is then on top: all but the last differ.
                    top, *rest = tuple(pack)[: owed.burn]
                    yield Mistake(_event(name, "burns", *rest, top), ("BC-DEAL-MISMATCH",) * (owed.burn - 1))
            else:
                others = [s for s in ((seat + k) % n for k in range(1, n)) if not self.out[s]]
                targets = others[:1] if owed is None else [s for s in range(n) if s != seat and s not in owed.give_to]
                for target in targets:  # a card given to a player who is out is owed to nobody
                    codes = ("BC-GIVE-TO-OUT",) if self.out[target] else wrong
                    yield Mistake(_event(name, "gives", pack[0], target=self.players[target]), codes)
                if owed and len(pack) > 1 and seen:  # the second card given instead of the top one
                    yield Mistake(_event(name, "gives", pack[1], target=self.players[owed.give_to[0]]), ("BC-DEAL-MISMATCH",))

    def _slap_open(self) -> list[str]:
        """The patterns a slap would win now (none while a payment forbids slapping)."""
        return [] if self.debt and not self.slap_in_payment else self._shown()

    def _shown(self) -> list[str]:
        """The slap patterns the top of the run shows, worked out once per card."""
        if self._showing is None:
            self._showing = slap_patterns(self.run, self.patterns, self.ace_counts)
        return self._showing

    # --- Reporting ----------------------------------------------------------------------
    def todo(self) -> list[Said]:
        if self.winner is not None:
            return []
        things = [said("todo.penalty", player=self.players[s], penalty=self._penalty_text(p)) for s, p in self.penalty.items()]
        if self.owner is not None:
            things.append(said("todo.collect", player=self.players[self.owner]))
        elif not self.packs[self.turn] and self.started:
            things.append(said("todo.empty-pack", player=self.players[self.turn]))
        elif self.debt:
            assert self.creditor is not None  # a debt is owed to the player of the paying card
            things.append(said("todo.pay", player=self.players[self.turn], count=self.debt, creditor=self.players[self.creditor]))
        else:
            things.append(said("todo.turn", player=self.players[self.turn]))
        if found := self._slap_open():
            slappers = [p for s, p in enumerate(self.players) if not self.out[s]]
            things.append(said("todo.slap", players=listed(slappers), patterns=listed(said(f"bc.pattern.{p}") for p in found)))
        return things

    def conclude(self) -> None:
        self._begin()
        self._settle()

    def over(self, event: Event | None = None) -> bool:
        if self.winner is None and not self.packs[self.turn] and not self._slap_open() and (event is None or event.verb != "slaps"):
            self._settle()
        if self.handed is not None and event is not None and event.verb == "collects":
            return event.player != self.players[self.handed]
        return self.winner is not None

    def result(self) -> Result:
        self.over()
        order = [self.players[self.winner]] if self.winner is not None else []
        order += [self.players[s] for s in reversed(self.order_out)]
        return Result(self.winner is not None, self.players[self.winner] if self.winner is not None else None,
                      order, {}, self.never)

    def stats(self) -> dict[str, int]:
        unseen = sum(not c.seen for pack in (*self.packs, self.pile) for c in pack)
        return {"cards_played": self.cards_played, "piles_collected": self.piles_collected, "cards_unseen": unseen}

    # --- At the table: referee state and referee explain --------------------------------
    def table(self) -> Table:
        sizes = self._pack_sizes()
        hands = {p: Hand(sizes[s], [c for c in self.packs[s] if c.seen]) for s, p in enumerate(self.players)}
        owed = [say("todo.penalty", player=self.players[s], penalty=self._penalty_text(p)) for s, p in self.penalty.items()]
        if self.debt and self.owner is None and self.creditor is not None:
            owed.insert(0, say("todo.pay", player=self.players[self.turn], count=self.debt, creditor=self.players[self.creditor]))
        extra = {say("bc.state.slaps"): join(say(f"bc.pattern.{p}") for p in PATTERNS if p in self.patterns),
                 say("bc.state.penalty"): option_value(self.penalty_kind)}
        if self._shown():
            top = max(PATTERN_DEPTH[p] for p in self._shown())
            extra[say("bc.state.shows")] = f"{' '.join(map(str, self.run[-top:]))}, {join(say(f'bc.a-pattern.{p}') for p in self._shown())}"
        if self.banned_at:
            extra[say("bc.state.ban")] = join(say("bc.state.banned", player=self.players[s], time=_clock_text(t))
                                              for s, t in self.banned_at.items())
        if self.order_out:
            extra[say("bc.state.out")] = join(self.players[s] for s in self.order_out)
        turn = None if self.winner is not None else self.players[self._due()]
        return Table(turn, 1, hands, {say("bc.state.pile"): list(self.pile)}, None, owed, {}, extra)

    def _pack_sizes(self) -> list[int]:
        """Each pack's size; before the first card, a pack the deal lines leave out holds
        what the deal leaves it (as play will find it)."""
        if self.started or not self.deal_lines:
            return [len(p) for p in self.packs]
        known = sum(len(self.packs[s]) for s in self.deal_lines)
        rest = [s for s in range(len(self.players)) if s not in self.deal_lines]
        return [len(self.packs[s]) if s in self.deal_lines else self._dealt(s, max(0, 52 - known), rest)
                for s in range(len(self.players))]

    def ruling(self, event: Event) -> str | None:
        name, seat = event.player, self.seat(event.player)
        if event.verb == "holds":
            return say("bc.ruling.holds", player=name, count=len(event.cards))
        if event.verb == "slaps":
            if self.slapper is not None:
                return say("bc.ruling.late-slap", player=name, slapper=self.players[self.slapper])
            found = self._slap_open()
            if not found:
                return None
            cards = " ".join(map(str, self.run[-max(PATTERN_DEPTH[p] for p in found):]))
            return say("bc.ruling.slap", player=name, cards=cards, patterns=join(say(f"bc.a-pattern.{p}") for p in found))
        if event.verb == "collects":
            if self.winner is not None:
                return say("bc.ruling.collect-last", player=name)
            if self.slapper == seat:
                return say("bc.ruling.collect-slapped", player=name)
            return say("bc.ruling.collect", player=name) if self.owner == seat else None
        if event.verb == "burns":
            owed = self.penalty.get(seat)
            return say("bc.ruling.burns", player=name, count=len(event.cards) or (owed.burn if owed else BURN))
        if event.verb == "gives":
            return say("bc.ruling.gives", player=name, target=event.target)
        return self._play_ruling(seat, event.cards)

    def _play_ruling(self, seat: int, cards: tuple[Card, ...]) -> str:
        """What each card of a ``plays`` line does: a card in turn, a paying card, a payment."""
        name, said = self.players[seat], []
        debt, creditor = self.debt, self.creditor
        if self.owner == seat:
            said.append(say("bc.ruling.takes-first", player=name))
            debt, creditor = 0, None
        for card in cards:
            if card.rank in PAYING and card.seen:
                debt, creditor = PAYING[card.rank], seat
                payer = next((s for s in ((seat + k) % len(self.players) for k in range(1, len(self.players)))
                              if not self.out[s]), seat)
                said.append(say("bc.ruling.paying", card=card, payer=self.players[payer], count=debt))
            elif debt and creditor is not None:
                debt -= 1
                key = "bc.ruling.pays" if debt else "bc.ruling.paid"
                said.append(say(key, player=name, card=card, creditor=self.players[creditor], owed=debt))
            else:
                said.append(say("bc.ruling.turn", player=name, card=card))
        return in_clauses(said)


def _event(name: str, verb: str, *cards: Card, target: str | None = None) -> Event:
    return Event(name, verb, 0, 0, cards, " ".join(map(str, cards)), 0, target)


RULES_CLASS = BatailleCorse
