"""Flaschenteufel (The Bottle Imp), on the shared trick machinery (tricks.py).

The conventions this module follows where the text is silent are in
docs/games/flaschenteufel.md, rule by rule."""

from __future__ import annotations


from mypy_extensions import mypyc_attr

from ..cards import UNSEEN_CARD, Card, numbered_deck
from ..messages import Said, join, listed, said, say
from ..record import Event
from .base import Deal, Legal, Mistake, Option, Result, Setup, Table
from .tricks import ASIDE, GIVEN, PLAYED
from .tricks import CODES as TRICK_CODES
from .tricks import Play, Trick, TrickRules, play_event

CARDS = {
    "Y": "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "B": "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6",
    "R": "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6",
}
"""The card table: each colour (yellow centimes, blue cents, red dollars) with its cards,
number:points, as published."""
COLOUR = {int(n): colour for colour, row in CARDS.items() for n, _ in (pair.split(":") for pair in row.split())}
TABLE_POINTS = {int(n): int(p) for row in CARDS.values() for n, p in (pair.split(":") for pair in row.split())}
TEXT_POINTS = TABLE_POINTS | {1: 0, 2: 0, 3: 0}
"""The points as the rule text has them: « (sauf les cartes 1, 2 et 3) »."""
DECK = numbered_deck(sorted(COLOUR))
START = 19
"""The starting card: the bottle's price before anyone owns it."""

RULES = {
    "cards": "36 cartes de 3 couleurs de valeur 1 à 37 (pas de n° 19).",
    "deal": "On mélange les 36 cartes de couleur et on les distribue entre tous les joueurs.",
    "devil": "Pour commencer chaque joueur pose face cachée une carte de son choix sous la carte de départ. Ces cartes forment le pli du diable.",
    "exchange": "De plus, chaque joueur donne une carte face cachée à son voisin de gauche et à son voisin de droite puis prend en main les cartes données en échange par ses deux voisins.",
    "turn": "Le jeu se fait dans le sens horaire. Le joueur à la gauche du donneur commence et pose une carte. … Le joueur qui gagne le pli commence le suivant.",
    "turn-first": "Le joueur à la gauche du donneur commence et pose une carte.",
    "turn-next": "Le jeu se fait dans le sens horaire.",
    "turn-lead": "Le joueur qui gagne le pli commence le suivant.",
    "follow": "Les autres joueurs doivent poser une carte de la même couleur. Si un joueur ne peut pas poser une carte de cette couleur, il joue n'importe quelle carte.",
    "trick": "Si toutes les cartes jouées sont plus grandes que la valeur actuelle de la bouteille du diable, le joueur qui a joué la plus grande carte (quelle que soit sa couleur) gagne le pli.",
    "bottle": "Si un seul joueur pose une carte dont la valeur est plus faible que la valeur actuelle de la bouteille, il devient le propriétaire de la bouteille et remporte le pli. "
              "S'il y a plus d'un joueur à poser une carte inférieure à la valeur actuelle de la bouteille, c'est le joueur le plus proche de cette valeur qui prend le pli et la bouteille.",
    "end": "Quand on a joué toutes les cartes, chaque joueur reçoit la valeur des cartes (chiffres verts) des plis qu'il a ramassés. Le joueur qui a la bouteille du diable marque la totalité du pli du diable en points négatifs et ne marque pas de points positifs.",
    "match": "On joue pour un certain nombre de points ou un certain nombre de parties. Le joueur avec le plus de points au bout de ces plusieurs manches a gagné.",
}

CODES = TRICK_CODES | {
    "TR-NOT-IN-HAND": "deal",
    "FT-DEVIL-MISSING": "devil",
    "FT-DEVIL-EXTRA": "devil",
    "FT-LATE-PREPARATION": "devil",
    "FT-NOT-NEIGHBOUR": "exchange",
    "FT-SAME-NEIGHBOUR": "exchange",
    "FT-EXCHANGE-MISSING": "exchange",
    "FT-WRONG-BOTTLE": "bottle",
    "REC-NOT-IN-DECK": "cards",
    "REC-BAD-DEAL": "deal",
    "REC-DUPLICATE-CARD": "cards",
    "REC-LATE-DEAL": "deal",
    "REC-AFTER-END": "end",
    "REC-RESULT-MISMATCH": "end",
    "REC-SCORE-MISMATCH": "end",
    "REC-TOTALS-MISMATCH": "match",
    "REC-AFTER-MATCH": "match",
    "REC-ROUND-ORDER": "match",
    "REC-DEALER-ROTATION": "turn",
}

_HEAD = '[Game "flaschenteufel"]\n[Players "A B C"]\n[Dealer "C"]\n'
_PREP = "A discards ??\nB discards ??\nC discards ??\nA gives ?? to B\nA gives ?? to C\nB gives ?? to C\nB gives ?? to A\nC gives ?? to A\nC gives ?? to B\n"
_DEAL = "A holds 1 4 7 10 13 16 20 23 26 29 32 35\nB holds 2 5 8 11 14 17 21 24 27 30 33 36\nC holds 3 6 9 12 15 18 22 25 28 31 34 37\n"
_KNOWN_PREP = "A discards 1\nB discards 2\nC discards 3\nA gives 4 to B\nA gives 7 to C\nB gives 5 to C\nB gives 8 to A\nC gives 6 to A\nC gives 9 to B\n"
_SHORT = ("A holds 1 4 7\nB holds 2 5 8\nC holds 3 6 9\nA discards 1\nB discards 2\nC discards 3\n"
          "A gives 4 to B\nA gives 7 to C\nB gives 5 to C\nB gives 8 to A\nC gives 6 to A\nC gives 9 to B\n"
          "A plays 8\nB plays 4\nC plays 7\nA plays 6\nB plays 9\nC plays 5\n")
"""A hand of three cards each (not a deal: REC-BAD-DEAL), played out in two tricks."""
EXAMPLES = {
    "TR-OUT-OF-TURN": _HEAD + _PREP + "B plays 24\n",
    "TR-REVOKE": _HEAD + _DEAL + _KNOWN_PREP + "A plays 10\nB plays 11\n",
    "TR-REVOKE-PROVEN": _HEAD + _PREP + "A plays 24\nB plays 15\nC plays 17\nC plays 30\nA plays 32\nB plays 34\n",
    "TR-NOT-IN-HAND": _HEAD + "A holds 1 4 7 10 13 16 20 23 26 29 32 35\nA discards 1\nB discards ??\nC discards ??\n"
                      "A gives 4 to B\nA gives 7 to C\nB gives ?? to C\nB gives 8 to A\nC gives ?? to B\nC gives 6 to A\nA plays 24\n",
    "TR-UNSEEN-CARD": _HEAD + _PREP + "A plays ??\n",
    "TR-WRONG-WINNER": _HEAD + _PREP + "A plays 24\nB plays 30\nC plays 27\nA collects\n",
    "TR-NOT-COMPLETE": _HEAD + _PREP + "A plays 24\nB plays 30\nB collects\n",
    "TR-NOTHING-TO-COLLECT": _HEAD + _PREP + "A collects\n",
    "FT-DEVIL-MISSING": _HEAD + _PREP.replace("C discards ??\n", "") + "A plays 24\n",
    "FT-DEVIL-EXTRA": _HEAD + "A discards ??\nA discards ??\n",
    "FT-LATE-PREPARATION": _HEAD + _PREP + "A plays 24\nB discards ??\n",
    "FT-NOT-NEIGHBOUR": '[Game "flaschenteufel"]\n[Players "A B C D"]\n[Dealer "D"]\nA gives ?? to C\n',
    "FT-SAME-NEIGHBOUR": _HEAD + "A gives ?? to B\nA gives ?? to B\n",
    "FT-EXCHANGE-MISSING": _HEAD + _PREP.replace("B gives ?? to A\n", "") + "A plays 24\n",
    "FT-WRONG-BOTTLE": _HEAD + _PREP + "A plays 24\nB plays 15\nC plays 17\nB collects\n",
    "REC-NOT-IN-DECK": _HEAD + "A plays 7H\n",
    "REC-BAD-DEAL": _HEAD + "A holds 1 4 7 10 13 16 20 23 26 29 32\n",
    "REC-DUPLICATE-CARD": _HEAD + _PREP + "A plays 24\nB plays 24\n",
    "REC-LATE-DEAL": _HEAD + "A discards ??\nA holds 1 4 7 10 13 16 20 23 26 29 32 35\n",
    "REC-AFTER-END": _HEAD + _SHORT + "A plays 20\n",
    "REC-RESULT-MISMATCH": _HEAD + '[Result "B"]\n' + _SHORT,
    "REC-SCORE-MISMATCH": _HEAD + _SHORT + "B scores 3\n",
}
"""A short record per code whose last event line breaks the rule (the earlier play that
did not follow, for TR-REVOKE-PROVEN). Cards written by number alone: 38 is not one."""


@mypyc_attr(allow_interpreted_subclasses=True)  # so that a call from Python code runs __init__
class Flaschenteufel(TrickRules):
    name = "flaschenteufel"
    title = "Flaschenteufel"
    min_players = 3
    max_players = 4
    deck = frozenset(DECK)
    verbs = TrickRules.verbs | {"discards", "gives"}
    targets = frozenset({"gives"})
    options = (
        Option("CardPoints", ("text", "table"), "text",
               "the points of cards 1, 2 and 3: text (none, as the rule text says) or table (1, 1 and 2, as printed on the cards)",
               aliases=(("texte", "text"), ("cards", "table"))),
    )
    match_points = "points"
    chart = "bottle"
    RULES = RULES
    CODES = CODES
    EXAMPLES = EXAMPLES
    mistake_codes = ("REC-NOT-IN-DECK", "TR-OUT-OF-TURN", "TR-REVOKE", "TR-REVOKE-PROVEN", "TR-UNSEEN-CARD", "TR-WRONG-WINNER",
                     "TR-NOT-COMPLETE", "TR-NOTHING-TO-COLLECT", "FT-DEVIL-MISSING", "FT-DEVIL-EXTRA",
                     "FT-LATE-PREPARATION", "FT-NOT-NEIGHBOUR", "FT-SAME-NEIGHBOUR", "FT-EXCHANGE-MISSING",
                     "FT-WRONG-BOTTLE")

    @classmethod
    def numbered_face(cls, number: int) -> tuple[str, int] | None:
        """A card's colour and its points as printed (the green figure in the flask)."""
        return (COLOUR[number], TABLE_POINTS[number]) if number in COLOUR else None

    def chart_point(self) -> tuple[int, int | None] | None:
        """The bottle's price and its owner's seat."""
        return self.price, self.owner

    def __init__(self, setup: Setup):
        super().__init__(setup)
        n = len(self.players)
        self.points = TABLE_POINTS if setup.options["CardPoints"] == "table" else TEXT_POINTS
        self.discarded: dict[int, Event] = {}
        self.given: list[dict[int, Event]] = [{} for _ in range(n)]
        self.pending: list[list[Card]] = [[] for _ in range(n)]
        self.neighbours = [self.seating.neighbours(seat) for seat in range(n)]
        """Cards given to a player in the exchange, taken into the hand once they have
        given theirs (« puis prend en main les cartes données »)."""
        self.devil: list[Card] = []
        self.unknown_devil = False
        self.price = START
        self.owner: int | None = None
        self.price_card: Card | None = None
        self.before: tuple[int, int | None] | None = None
        """The bottle's price and owner before the last trick, when it took the bottle."""
        self.bottle_changes = 0
        self.end_noted = False

    @classmethod
    def hand_size(cls, players: int, options: dict[str, object]) -> int:
        return len(DECK) // players

    @classmethod
    def suit(cls, card: Card) -> str:
        return COLOUR[card.rank]

    @classmethod
    def card_order(cls, card: Card) -> tuple[int | str, ...]:
        return (card.rank,)

    def suit_words(self, suit: str) -> Said:
        return said(f"ft.colour.{suit}")

    def winner_of(self, plays: list[Play]) -> Play:
        price, best, under = self.price, None, None
        for play in plays:
            rank = play.card.rank
            if rank < price:
                if under is None or rank > under.card.rank:
                    under = play
            elif best is None or rank > best.card.rank:
                best = play
        winner = under or best
        assert winner is not None  # a trick has a card
        return winner

    def why_won(self, trick: Trick) -> Said:
        price = self.before[0] if self.before else self.price
        key = "ft.won-bottle" if self.before else "ft.won-high"
        return said(key, card=trick.best.card, price=price)

    # --- The preparation ----------------------------------------------------------------
    def _discards(self, seat: int, event: Event) -> None:
        if self.playing:
            self.flag("FT-LATE-PREPARATION", event)
        for i, card in enumerate(event.cards):
            column = event.card_column(i)
            if seat in self.discarded or i:
                self.flag("FT-DEVIL-EXTRA", event, column, card=card)
            self._part_with(seat, card, event, column)
            self.devil.append(card)
            if card.seen:
                self.place[card] = ASIDE
        self.discarded.setdefault(seat, event)
        self._prepared(seat)
        if self.playing:
            self._emptied(seat)

    def _gives(self, seat: int, event: Event) -> None:
        assert event.target is not None  # the grammar reads ``gives`` with ``to`` and a player
        target = self.seat(event.target)
        if self.playing:
            self.flag("FT-LATE-PREPARATION", event)
        neighbour = target in self.neighbours[seat]
        if not neighbour:
            self.flag("FT-NOT-NEIGHBOUR", event, target=event.target,
                      neighbours=listed((self.players[s] for s in self.seating.neighbours(seat)), "or"))
        for i, card in enumerate(event.cards):
            column = event.card_column(i)
            if neighbour and (target in self.given[seat] or i):
                self.flag("FT-SAME-NEIGHBOUR", event, column, target=event.target)
            self._part_with(seat, card, event, column)
            if self.playing or self._ready(target):
                self._receive(target, card)
            else:
                self.pending[target].append(card)
                if card.seen:
                    self.place[card] = GIVEN
        self.given[seat].setdefault(target, event)
        self._prepared(seat)
        if self.playing:
            self._emptied(seat)

    def _ready(self, seat: int) -> bool:
        """Whether a player has laid their devil's card and given both of theirs."""
        left, right = self.neighbours[seat]
        given = self.given[seat]
        return seat in self.discarded and left in given and right in given

    def _prepared(self, seat: int) -> None:
        if self._ready(seat):
            self._take_in(seat)

    def _take_in(self, seat: int) -> None:
        for card in self.pending[seat]:
            self._receive(seat, card)
        self.pending[seat] = []

    def _receive(self, seat: int, card: Card) -> None:
        self.hands[seat].add(card, self.time)
        self.seating.out.discard(seat)  # a late gift to a player with no cards brings them back
        self._due = None
        if card.seen:
            self.place[card] = seat

    def _take_other(self, seat: int, card: Card, event: Event, column: int) -> int | None:
        """A card given to this player and not taken in yet is not in their hand."""
        if self.place.get(card) == GIVEN and card in self.pending[seat]:
            self._not_in_hand(event, column, card, said("ft.not-taken-in"), rule="exchange")
            self.pending[seat].remove(card)
            self.place[card] = PLAYED
            return None
        return super()._take_other(seat, card, event, column)

    def _missing(self, seat: int) -> list[Said]:
        """What a player's preparation still lacks, in words."""
        things = [] if seat in self.discarded else [said("ft.todo.devil", player=self.players[seat])]
        owed = [self.players[s] for s in self.seating.neighbours(seat) if s not in self.given[seat]]
        if owed:
            things.append(said("ft.todo.give", player=self.players[seat], players=listed(owed)))
        return things

    def _start(self, event: Event) -> None:
        """The first card: the preparation is over; what it lacks is flagged here, and the
        cards given are taken into the hands."""
        self.playing = True
        for seat, name in enumerate(self.players):
            if seat not in self.discarded:
                self.flag("FT-DEVIL-MISSING", event, player=name)
            for other in self.seating.neighbours(seat):
                if other not in self.given[seat]:
                    self.flag("FT-EXCHANGE-MISSING", event, player=name, target=self.players[other])
            self._take_in(seat)

    # --- The bottle -----------------------------------------------------------------
    def _taken(self, trick: Trick) -> None:
        """A card under the price takes the bottle: it shows the new price, and the card
        that showed the old one goes back to its trick."""
        card = trick.best.card
        self.before = None
        if card.rank < self.price:
            self.before = (self.price, self.owner)
            self.bottle_changes += trick.taker != self.owner
            self.price, self.price_card, self.owner = card.rank, card, trick.taker
        self._check_end()

    def _out(self, seat: int) -> None:
        super()._out(seat)
        if not self.trick:
            self._check_end()

    def _check_end(self) -> None:
        """The hand ends when every card has been played."""
        if len(self.seating.out) == len(self.players):
            self.finished = True

    def _wrong_taker(self, seat: int, event: Event, trick: Trick) -> None:
        if self.before is None:
            return super()._wrong_taker(seat, event, trick)
        self.flag("FT-WRONG-BOTTLE", event, winner=self.players[trick.winner], why=self.why_taken(trick))

    def _retaken(self, trick: Trick, before: int) -> None:
        """The record gave the trick to another player: the bottle it took goes with it."""
        if self.before is not None:
            owner = self.before[1]
            self.bottle_changes += (trick.taker != owner) - (before != owner)
            self.owner = trick.taker

    def ruling(self, event: Event) -> str | None:
        if event.verb == "discards":
            return say("ft.ruling.discards", player=event.player)
        if event.verb == "gives":
            return say("ft.ruling.gives", player=event.player, target=event.target)
        return super().ruling(event)

    # --- The simulator and the table --------------------------------------------------
    def legal(self) -> list[Legal]:
        if self.finished:
            return []
        if not self.playing:
            events: list[Legal] = [e for seat in range(len(self.players)) for e in self._preparations(seat)]
            if events:
                return events
        return super().legal()

    def _preparations(self, seat: int) -> list[Event]:
        """The devil's card and the gifts a player still owes, from the cards they may hold."""
        name, hand = self.players[seat], self.hands[seat]
        cards = [*self._sorted(hand.known), *([UNSEEN_CARD] if hand.unseen else [])]
        events = [] if seat in self.discarded else [Event(name, "discards", 0, 0, (c,), str(c)) for c in cards]
        for other in self.seating.neighbours(seat):
            if other not in self.given[seat]:
                events += [Event(name, "gives", 0, 0, (c,), str(c), 0, self.players[other]) for c in cards]
        return events

    # --- Table mistakes -----------------------------------------------------------------
    def _card_mistakes(self, hidden: bool) -> list[Mistake]:
        """Besides the cards played wrongly: the preparation done twice, across the table,
        late, or left unfinished at the first card."""
        found = self._preparation_mistakes(hidden)
        if self.playing:
            return found + super()._card_mistakes(hidden)
        missing = self._missing_codes()
        if not missing:
            return found + super()._card_mistakes(hidden)
        due = self.due()
        name = self.players[due]
        found.append(Mistake(play_event(name, UNSEEN_CARD), ("TR-UNSEEN-CARD",)))
        return found + [Mistake(play_event(name, c), missing) for c in self._sorted(self.hands[due].known)]

    def _missing_codes(self) -> tuple[str, ...]:
        """What the first card would flag now: each devil's card and gift still missing."""
        codes: list[str] = []
        for seat in range(len(self.players)):
            if seat not in self.discarded:
                codes.append("FT-DEVIL-MISSING")
            codes += ["FT-EXCHANGE-MISSING" for s in self.seating.neighbours(seat) if s not in self.given[seat]]
        return tuple(codes)

    def _preparation_mistakes(self, hidden: bool) -> list[Mistake]:
        """A second devil's card, a second gift to a neighbour, a gift across the table; once
        play has begun, any of them late. With the deal hidden, a revoke waiting for its
        proof rules out a late one (a card given or laid face down might be the proof)."""
        late = ("FT-LATE-PREPARATION",) if self.playing else ()
        if late and hidden and any(v.code == "TR-REVOKE" for v in self.violations):
            return []
        found = []
        for seat, name in enumerate(self.players):
            cards = self._sorted(self.hands[seat].known)
            if not cards:
                continue
            card = cards[0]
            if seat in self.discarded or late:
                extra = ("FT-DEVIL-EXTRA",) if seat in self.discarded else ()
                found.append(Mistake(Event(name, "discards", 0, 0, (card,), str(card)), late + extra))
            for other in range(len(self.players)):
                if other == seat:
                    continue
                if other not in self.seating.neighbours(seat):
                    codes = late + ("FT-NOT-NEIGHBOUR",)
                elif other in self.given[seat] or late:
                    codes = late + (("FT-SAME-NEIGHBOUR",) if other in self.given[seat] else ())
                else:
                    continue
                found.append(Mistake(Event(name, "gives", 0, 0, (card,), str(card), 0, self.players[other]), codes))
        return found

    def _revoke_codes(self, seat: int, held: list[Card], hidden: bool) -> tuple[str, ...]:
        """With the deal hidden, the revoke is flagged once proven, and it will be: every
        card is played before the hand ends, so the player plays one of ``held`` later,
        and held it since before this trick (no card comes into a hand after the
        exchange; a late gift is not offered while a proof waits)."""
        return ("TR-REVOKE-PROVEN",) if hidden else ("TR-REVOKE",)

    def _wrong_taker_code(self) -> str:
        return "FT-WRONG-BOTTLE" if self.before is not None else "TR-WRONG-WINNER"

    @classmethod
    def public(cls, event: Event) -> Event | None:
        """The devil's cards and the gifts are face down: a table that sees no hand writes ??."""
        if event.verb == "holds":
            return None
        if event.verb in ("discards", "gives"):
            return event.replace(cards=(UNSEEN_CARD,) * len(event.cards),
                                 cards_text=" ".join(["??"] * len(event.cards)))
        return event

    @classmethod
    def deal(cls, deck: list[Card], setup: Setup) -> Deal:
        n = len(setup.players)
        size = len(DECK) // n
        return Deal([deck[(seat - setup.first) % n:n * size:n] for seat in range(n)])

    # --- Reporting ----------------------------------------------------------------------
    def todo(self) -> list[Said]:
        if self.finished:
            return []
        if not self.playing:
            missing = [thing for seat in range(len(self.players)) for thing in self._missing(seat)]
            if missing:
                return missing
        seat = self.due()
        name = self.players[seat]
        if not self.led:
            return [said("ft.todo.lead", player=name, bottle=self._bottle())]
        suit = self.led
        words = self.suit_words(suit)
        if self._held(seat, suit):
            return [said("tricks.todo.follow", player=name, suit=words)]
        if not self.hands[seat].unseen:
            return [said("ft.todo.any", player=name, suit=words)]
        return [said("ft.todo.follow-or-any", player=name, suit=words)]

    def _bottle(self) -> Said:
        if self.owner is None:
            return said("ft.bottle-free", price=self.price)
        return said("ft.bottle", price=self.price, player=self.players[self.owner])

    def devils_trick(self) -> list[Card]:
        """The cards of the devil's trick: those seen going there, and for those laid face
        down unseen, the cards never played (once every card is played, they are the
        only ones left), when they are as many."""
        seen = [c for c in self.devil if c.seen]
        hidden = len(self.devil) - len(seen)
        if not hidden:
            return seen
        played = {c for tricks in self.taken for trick in tricks for c in trick.cards}
        rest = [c for c in self.deck_order if c not in played and c not in seen]
        if len(rest) == hidden:
            return seen + rest
        if not self.unknown_devil:
            self.unknown_devil = True
            self.notes.append(said("note.devil-unknown", count=hidden))
        return seen

    def scores(self) -> dict[str, int]:
        """Each player's points for the hand: the cards of their tricks; the bottle's owner
        scores the devil's trick as negative points, and nothing else."""
        devil = sum(self.points[c.rank] for c in self.devils_trick())
        return {name: -devil if seat == self.owner else
                sum(self.points.get(c.rank, 0) for trick in self.taken[seat] for c in trick.cards)
                for seat, name in enumerate(self.players)}

    def score_why(self, player: str) -> Said:
        """The bottle's owner scores minus the devil's trick only; the others, their tricks."""
        seat = self.seats[player]
        devil = self.devils_trick()
        if seat == self.owner:
            return said("ft.score.owner", player=player, cards=listed(sorted(devil)), points=self._points(devil))
        count = len(self.taken[seat])
        if self.owner is None:
            return said("ft.score.free", player=player, count=count)
        return said("ft.score.taker", player=player, count=count, owner=self.players[self.owner])

    def _points(self, cards: list[Card]) -> int:
        return sum(self.points.get(c.rank, 0) for c in cards)

    def result(self) -> Result:
        if not self.finished:
            return Result(False)
        if not self.end_noted:  # the end in words, so that the scores can be traced
            self.end_noted = True
            devil = self.devils_trick()
            fields: dict[str, object] = {"cards": listed(sorted(devil)), "points": self._points(devil), "price": self.price}
            self.notes.append(said("ft.note.end", owner=self.players[self.owner], **fields) if self.owner is not None
                              else said("ft.note.end-free", **fields))
        scores = self.scores()
        order = sorted(self.players, key=lambda p: -scores[p])
        best = [p for p in self.players if scores[p] == scores[order[0]]]
        return Result(True, best[0] if len(best) == 1 else None, order, scores)

    def table(self) -> Table:
        table = super().table()
        table.extra[say("ft.price")] = str(self.price)
        table.extra[say("ft.owner")] = self.players[self.owner] if self.owner is not None else "-"
        table.piles[say("ft.devil")] = list(self.devil)
        table.piles[say("ft.bottle-pile")] = [self.price_card] if self.price_card is not None else []
        table.owed += [str(thing) for seat in range(len(self.players)) for thing in self._missing(seat)] if not self.playing else []
        return table

    def stats(self) -> dict[str, int]:
        return {"tricks_won": self.tricks_won, "bottle_changes": self.bottle_changes}


RULES_CLASS = Flaschenteufel
