"""Pierre qui Roule (Rolling Stone), on the shared trick machinery (tricks.py).

The conventions this module follows where the text is silent are in
docs/games/pierre-qui-roule.md, rule by rule."""

from __future__ import annotations

from functools import lru_cache

from mypy_extensions import mypyc_attr

from ..cards import ACE, JACK, KING, QUEEN, STANDARD_52, SUITS, UNSEEN_CARD, Card
from ..messages import Said, listed, said, say
from ..record import Event
from .base import Deal, Mistake, Option, Result, Setup, Table, option_value
from .tricks import CODES as TRICK_CODES
from .tricks import Play, Trick, TrickRules, Void, did_words, play_event

HAND = 8
"""Cards dealt to each player, whatever their number (« chaque joueur reçoive 8 cartes »)."""
HIGH_TO_LOW = (ACE, KING, QUEEN, JACK, 10, 9, 8, 7, 6, 5, 4, 3, 2)
"""The ranks, aces high; the short deck keeps the highest ones."""
SCORINGS = ("first-out", "play-on", "penalties")

RULES = {
    "deck": "Pour 4 joueurs, utilisez 32 cartes (du 7 à l'As) ; pour 5 joueurs, 40 cartes (du 5 à l'As) ; pour 6 joueurs, le jeu complet de 52 cartes. Chaque joueur doit recevoir 8 cartes.",
    "deal": "Distribuez 8 cartes à chaque joueur. Il ne reste aucune carte en talon.",
    "turn": "Le joueur à gauche du donneur entame n'importe quelle carte pour débiter la première levée. … Chaque joueur suivant doit jouer une carte de la couleur demandée s'il en possède une. … "
            "Ce joueur entame ensuite la levée suivante. … Le vainqueur de la levée entame la suivante.",
    "turn-first": "Le joueur à gauche du donneur entame n'importe quelle carte pour débiter la première levée.",
    "turn-next": "Chaque joueur suivant doit jouer une carte de la couleur demandée s'il en possède une.",
    "turn-lead": "Le vainqueur de la levée entame la suivante.",
    "follow": "Chaque joueur suivant doit jouer une carte de la couleur demandée s'il en possède une.",
    "pickup": "Si un joueur ne peut pas fournir la couleur, il doit ramasser toutes les cartes jouées jusqu'à présent dans cette levée et les ajouter à sa main. Ce joueur entame ensuite la levée suivante.",
    "trick": "Si tous les joueurs fournissent la couleur, la carte la plus haute de la couleur demandée remporte la levée. Le vainqueur de la levée entame la suivante.",
    "cards": "Distribuez 8 cartes à chaque joueur ; pas de talon.",
    "win": "Le premier joueur à jouer sa dernière carte et à se retrouver sans cartes gagne la partie.",
    "play-on": "Jeu prolongé : Les autres joueurs peuvent continuer pour déterminer l'ordre d'arrivée.",
    "penalties": "Points de pénalité : Au lieu du premier sorti, attribuez des points de pénalité pour les cartes restant en main à la fin et jouez plusieurs manches.",
}

CODES = {code: rule for code, rule in TRICK_CODES.items() if code != "TR-NOT-COMPLETE"} | {
    "PQ-MUST-PICK-UP": "pickup",
    "PQ-WRONG-PICKUP": "pickup",
    "PQ-PLAYED-ON": "pickup",
    "REC-NOT-IN-DECK": "deck",
    "REC-BAD-DEAL": "deal",
    "REC-DUPLICATE-CARD": "cards",
    "REC-LATE-DEAL": "deal",
    "REC-AFTER-END": "win",
    "REC-RESULT-MISMATCH": "play-on",
    "REC-SCORE-MISMATCH": "penalties",
    "REC-TOTALS-MISMATCH": "penalties",
    "REC-AFTER-MATCH": "penalties",
    "REC-ROUND-ORDER": "penalties",
    "REC-DEALER-ROTATION": "turn",
}

_HEAD = '[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n'
_DEAL = ("Ann holds 7H 8H 9H 10S JS QS KD AD\nBen holds JH QH KH AH 7S 8S 9S 10C\n"
         "Cas holds 10H AS 7D 8D 9D 10D JD QD\nDom holds KS 7C 8C 9C JC QC KC AC\n")
EXAMPLES = {
    "TR-OUT-OF-TURN": _HEAD + "Ann plays 9H\nCas plays 10H\n",
    "TR-REVOKE": _HEAD + _DEAL + "Ann plays 9H\nBen plays KH\nCas collects\n",
    "TR-REVOKE-PROVEN": _HEAD + "Ann plays 9H\nBen collects\nBen plays 8S\nCas plays 9S\nDom plays 10S\nAnn plays JS\nAnn plays 8H\nBen plays KH\n",
    "TR-NOT-IN-HAND": _HEAD + "Ben holds JH QH KH AH 7S 8S 9S 10C\nAnn plays 9H\nBen plays 10H\n",
    "TR-UNSEEN-CARD": _HEAD + "Ann plays ??\n",
    "TR-WRONG-WINNER": _HEAD + "Ann plays 9H\nBen plays KH\nCas plays 7H\nDom plays AH\nBen collects\n",
    "TR-NOTHING-TO-COLLECT": _HEAD + "Ann collects\n",
    "PQ-MUST-PICK-UP": _HEAD + "Ann plays 9H\nBen plays 9S\n",
    "PQ-WRONG-PICKUP": _HEAD + "Ann plays 9H\nBen plays KH\nDom collects\n",
    "PQ-PLAYED-ON": _HEAD + "Ann plays 9H\nBen collects\nCas plays 10H\n",
    "REC-NOT-IN-DECK": _HEAD + "Ann plays 2H\n",
    "REC-BAD-DEAL": _HEAD + "Ann holds 7H 8H 9H 10S JS QS KD\n",
    "REC-DUPLICATE-CARD": _HEAD + "Ann plays 9H\nBen plays 9H\n",
    "REC-LATE-DEAL": _HEAD + "Ann plays 9H\nBen holds JH QH KH AH 7S 8S 9S 10C\n",
    "REC-AFTER-END": _HEAD + "Ann holds 9H\nBen holds 10H\nCas holds JH\nDom holds QH\nAnn plays 9H\nBen plays 10H\n",
    "REC-RESULT-MISMATCH": '[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n[Result "Ben"]\n'
                           "Ann holds 9H\nBen holds 10H\nCas holds JH\nDom holds QH\nAnn plays 9H\n",
    "REC-SCORE-MISMATCH": '[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n[Scoring "penalties"]\n'
                          "Ann holds 9H\nBen holds 10H 7S\nCas holds JH\nDom holds QH\nAnn plays 9H\nBen scores 1\n",
}
"""A short record per code whose last event line breaks the rule (the Result header,
for REC-RESULT-MISMATCH). The hands of one card are not a deal: REC-BAD-DEAL as well."""


@lru_cache(maxsize=8)
def deck_for(players: int, kind: str) -> frozenset[Card]:
    """The deck: ``short``, the highest ranks, 8 cards a player (7–A for 4, 5–A for 5,
    3–A for 6); ``full``, the 52 cards."""
    if kind == "full":
        return frozenset(STANDARD_52)
    ranks = HIGH_TO_LOW[: 2 * players]
    return frozenset(c for c in STANDARD_52 if c.rank in ranks)


def high(card: Card) -> int:
    """A card's rank, aces high."""
    return 15 if card.rank == ACE else card.rank


@mypyc_attr(allow_interpreted_subclasses=True)  # so that a call from Python code runs __init__
class PierreQuiRoule(TrickRules):
    name = "pierre-qui-roule"
    title = "Pierre qui Roule"
    min_players = 4
    max_players = 6
    deck = frozenset(STANDARD_52)
    """Every card that may be in play; a game's own deck depends on its players and [Deck]."""
    options = (
        Option("Deck", ("short", "full"), "short",
               "the deck: short (8 cards a player, the ace down to the 7, 5 or 3) or full (52 cards, 8 dealt each, the rest set aside)",
               aliases=(("52", "full"), ("complet", "full"), ("allege", "short"), ("jeu-allege", "short"))),
        Option("Scoring", SCORINGS, "first-out",
               "first-out (the first out wins), play-on (« jeu prolongé »: the others play on for the finishing order) or "
               "penalties (« points de pénalité »: a point per card left when the first player goes out; the default in a [Match])",
               aliases=(("jeu-prolonge", "play-on"), ("prolonge", "play-on"), ("points-de-penalite", "penalties"),
                        ("penalty", "penalties"), ("premier-sorti", "first-out"))),
    )
    match_points = "penalties"
    chart = "cards"
    RULES = RULES
    CODES = CODES
    EXAMPLES = EXAMPLES
    mistake_codes = ("REC-NOT-IN-DECK", "TR-OUT-OF-TURN", "TR-REVOKE", "TR-UNSEEN-CARD", "TR-NOT-IN-HAND", "TR-WRONG-WINNER", "TR-NOTHING-TO-COLLECT",
                     "PQ-MUST-PICK-UP", "PQ-WRONG-PICKUP", "PQ-PLAYED-ON")

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self.scoring = str(setup.options["Scoring"])  # one of the option's choices
        self.picker: int | None = None
        """Who picked up the last trick, until they lead the next."""
        self.order_out: list[int] = []
        self.pick_ups = 0

    @classmethod
    def cards_for(cls, setup: Setup) -> frozenset[Card]:
        return deck_for(len(setup.players), str(setup.options["Deck"]))

    @classmethod
    def adjusted_setup(cls, setup: Setup) -> Setup:
        """In a match, hands count penalty points: « points de pénalité » is the default."""
        record = setup.record
        if record.header("Match") is not None and record.header("Scoring") is None:
            setup.options["Scoring"] = "penalties"
        return setup

    @classmethod
    def hand_size(cls, players: int, options: dict[str, object]) -> int:
        return HAND

    @classmethod
    def suit(cls, card: Card) -> str:
        return card.suit

    @classmethod
    def card_order(cls, card: Card) -> tuple[int | str, ...]:
        """Spades, hearts, diamonds, clubs; each from the ace down."""
        return SUITS.index(card.suit), -high(card)

    def suit_words(self, suit: str) -> Said:
        return said(f"pq.suit.{suit}")

    def winner_of(self, plays: list[Play]) -> Play:
        led = plays[0].card.suit
        return max((p for p in plays if p.card.suit == led), key=lambda p: high(p.card))

    def why_won(self, trick: Trick) -> Said:
        card = trick.best.card
        key = "pq.won-ace" if card.rank == ACE else "pq.won"
        return said(key, card=card, suit=self.suit_words(card.suit))

    # --- Events -----------------------------------------------------------------------
    def _play(self, seat: int, card: Card, event: Event, column: int) -> None:
        if self.picker is not None and seat != self.picker and card.seen:
            return self._played_on(seat, card, event, column)
        if seat == self.picker:
            self.picker = None
        super()._play(seat, card, event, column)

    def _played_on(self, seat: int, card: Card, event: Event, column: int) -> None:
        """A card laid on a trick already picked up: the picker takes it with the rest."""
        picker = self.picker
        assert picker is not None  # called while a trick is picked up
        self.flag("PQ-PLAYED-ON", event, column, card=card, picker=self.players[picker])
        since = self._take(seat, card, event, column)
        if since is not None and self.voids[seat]:
            self._prove(seat, card, since, event)
        self.hands[picker].add(card, self.time)
        self.place[card] = picker
        self.cards_played += 1
        if not self.hands[seat].count:
            self._out(seat)

    def lay_stray(self, event: Event, index: int) -> None:
        """After a pick-up only the picker lays a card."""
        if self.picker is not None and self.seats[event.player] != self.picker:
            return
        super().lay_stray(event, index)
        if self.seats[event.player] == self.picker and self.trick:
            self.picker = None

    def _not_followed(self, seat: int, play: Play) -> None:
        """A player who cannot follow picks the trick up: another card is a revoke when
        the suit led is known to be in the hand, else a card that should have been a
        pick-up."""
        suit = self.led
        held = self._held(seat, suit)
        if held:
            self.flag("TR-REVOKE", play.event, play.column, held=tuple(self._sorted(held)),
                      did=did_words(play.card, self.trick[0].card))
        else:
            self.flag("PQ-MUST-PICK-UP", play.event, play.column, card=play.card, suit=self.suit_words(suit))

    def _collect_unfinished(self, seat: int, event: Event) -> None:
        """The pick-up: the player who cannot follow takes the trick's cards into their
        hand, plays none, and leads the next trick."""
        due = self.due()
        if seat != due:
            self.flag("PQ-WRONG-PICKUP", event, expected=self.players[due], why=self.turn_why(due)[0])
        elif not self._revoked(seat, event, event.column, None):
            self.pick_ups += 1  # the stat counts the pick-ups of players who could not follow
        hand = self.hands[seat]
        for play in self._clear():
            hand.add(play.card, self.time)
            self.place[play.card] = seat
        self.leader = self.picker = seat

    def _void_proven(self, void: Void) -> None:
        """A pick-up proven to be a revoke no longer counts as one by a player who could
        not follow."""
        if void.card is None:
            self.pick_ups -= 1

    def _out(self, seat: int) -> None:
        if seat in self.seating.out:
            return
        super()._out(seat)
        self.order_out.append(seat)
        still = len(self.players) - len(self.seating.out)
        if self.scoring != "play-on" or still <= 1:
            self.finished = True

    def conclude(self) -> None:
        """A [Result] says the table stopped: under « jeu prolongé », the players still in
        are not ranked."""
        if self.order_out:
            self.finished = True

    # --- The simulator and the table --------------------------------------------------
    def _choices(self, seat: int, cards: list[Card], follow: list[Card], must: bool) -> list[Event]:
        """A card of the suit led, or the trick picked up by one who has none."""
        if not self.led:
            return self._play_events(seat, cards)
        events = self._play_events(seat, follow)
        if not must:
            events.append(Event(self.players[seat], "collects", 0, 0))
        return events

    def _card_mistakes(self, hidden: bool) -> list[Mistake]:
        """After a pick-up, a card laid by another player goes to the picker. With the
        deal written and the full deck, a card set aside laid by the player due: it is
        not in their hand."""
        if self.picker is None:
            return super()._card_mistakes(hidden) + self._aside_mistakes(hidden)
        found = [Mistake(play_event(self.players[self.picker], UNSEEN_CARD), ("TR-UNSEEN-CARD",))]
        for seat, name in enumerate(self.players):
            if seat != self.picker:
                found += [Mistake(play_event(name, c), ("PQ-PLAYED-ON",)) for c in self._sorted(self.hands[seat].known)]
        return found

    def _aside_mistakes(self, hidden: bool) -> list[Mistake]:
        """A card of the full deck that was set aside, played by the player due whose hand
        the deal shows: TR-NOT-IN-HAND (the replay then forgets what the hand held)."""
        seat = self.due()
        hand = self.hands[seat]
        if hidden or hand.unseen or not hand.known or len(self.in_play) == HAND * len(self.players):
            return []
        aside = [c for c in self.deck_order if c not in self.place][:3]
        return [Mistake(play_event(self.players[seat], c), ("TR-NOT-IN-HAND",)) for c in aside]

    def _revoke_codes(self, seat: int, held: list[Card], hidden: bool) -> tuple[str, ...]:
        """With the deal hidden, the table knows only the cards picked up."""
        if not hidden or any(self.hands[seat].known[c] > 0 for c in held):
            return ("TR-REVOKE",)
        return ()

    def _void_codes(self) -> tuple[str, ...]:
        return ("PQ-MUST-PICK-UP",)

    def _unfinished_collect_mistakes(self, hidden: bool) -> list[Mistake]:
        """A pick-up by a player whose turn it is not, or by the player due while they
        hold the suit led."""
        due = self.due()
        found = [Mistake(Event(p, "collects", 0, 0), ("PQ-WRONG-PICKUP",))
                 for s, p in enumerate(self.players) if s != due and s not in self.seating.out]
        held = self._held(due, self.led)
        if held and self._revoke_codes(due, held, hidden):
            found.append(Mistake(Event(self.players[due], "collects", 0, 0), ("TR-REVOKE",)))
        return found

    @classmethod
    def deal(cls, deck: list[Card], setup: Setup) -> Deal:
        """8 cards each, one at a time from the first player, from the game's deck in
        the shuffled order; the cards left over (with the full deck) are set aside."""
        n = len(setup.players)
        own = deck_for(n, setup.options["Deck"])
        cards = [c for c in deck if c in own][: HAND * n]
        return Deal([cards[(seat - setup.first) % n::n] for seat in range(n)])

    # --- Reporting ----------------------------------------------------------------------
    def todo(self) -> list[Said]:
        if self.finished:
            return []
        seat = self.due()
        name = self.players[seat]
        if not self.led:
            return [said("pq.todo.lead-picked" if seat == self.picker else "tricks.todo.lead", player=name)]
        suit = self.led
        words = self.suit_words(suit)
        if self._held(seat, suit):
            return [said("tricks.todo.follow", player=name, suit=words)]
        if not self.hands[seat].unseen:
            return [said("pq.todo.pick-up", player=name, suit=words)]
        return [said("pq.todo.follow-or-pick-up", player=name, suit=words)]

    def result(self) -> Result:
        order = [self.players[s] for s in self.order_out]
        if self.finished and self.scoring == "play-on" and len(self.seating.out) == len(self.players) - 1:
            order += [p for s, p in enumerate(self.players) if s not in self.seating.out]
        scores = {p: h.count for p, h in zip(self.players, self.hands)} if self.finished and self.scoring == "penalties" else {}
        return Result(self.finished, order[0] if order else None, order if self.scoring == "play-on" else order[:1], scores)

    def table(self) -> Table:
        table = super().table()
        table.extra[say("pq.scoring")] = option_value(self.scoring)
        if self.picker is not None and not self.finished:  # the hand may end before the picker leads
            table.owed.append(say("pq.todo.lead-picked", player=self.players[self.picker]))
        return table

    def stats(self) -> dict[str, int]:
        return {"tricks_won": self.tricks_won, "pick_ups": self.pick_ups}


RULES_CLASS = PierreQuiRoule
