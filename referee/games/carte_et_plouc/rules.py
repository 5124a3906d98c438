"""Le Carte et Plouc de Charlotte: a shedding game of the Crazy Eights family.

The conventions this module follows where the rule text is silent are in
docs/games/carte-et-plouc.md, rule by rule. Here: the deal, the turn, the powers, the
draws and passes, the end. The table's state and what fits now live in state.py, what
the table knows of the cards (hands, discard, stock) in cards.py; the calls and the
additional rules in calls.py; the simulator's side (legal events, the deal, the hidden
view, the mistakes) in play.py; the rulings and the examples for ``referee explain`` in
ruling.py and examples.py."""

from __future__ import annotations

import copy

from mypy_extensions import mypyc_attr

from ...cards import ACE, QUEEN, STANDARD_52, SUITS, UNSEEN, UNSEEN_CARD, Card, read_card
from ...messages import Listed, Said, Tag, clauses, join, listed, said, say, together
from ...record import Event
from ...spelling import in_force
from ..base import Deal, Hand, Legal, Mistake, Option, Result, Setup, SetupError, Table, accepted_codes, option_value
from . import play
from .calls import Calls, plain
from .cards import CARRE_SEVENS, KING_DRAW, KING_OF_SPADES, SEVEN, SEVEN_DRAW, SEVEN_OF_SPADES, SIX, STOCK, TEN, TWO
from .examples import EXAMPLES
from .ruling import ruling
from .state import Pass, Unverified

SANCTIONS = ("none", "zouzou", "mega-one")
VARIANTS = ("david-le-fou", "zero", "3-de-trefle", "mot-doux", "six", "maitresse")

RULES = {
    "cards": "On joue avec un jeu de 52 cartes (sans les jokers).",
    "deal": "Jusqu’à 6 joueurs, on distribue 7 cartes à chacun. De 7 à 9 joueurs, on distribue 5 cartes.",
    "turn": "A son tour chaque joueur doit faire une action : - soit s’il ne peut pas jouer, il pioche une carte et passe son tour, - soit il pose une carte.",
    "match": "Quand il pose une carte, soit il pose la même couleur, soit la même valeur que la carte précédente.",
    "draw-more": "Si un joueur pioche plus d’une carte, il doit jouer imédiatement.",
    "ace": "La carte de valeur 1 (ou l’as) : On doit changer de couleur. On ne peut mettre un as que de la couleur de la carte précédente.",
    "queen": "La Dame : On doit rejouer immédiatement.",
    "ten": "La carte de valeur 10 : On doit rejouer immédiatement et le tour de jeu change de sens.",
    "ten-pair": "jouer 2 cartes de valeur 10 revient à rejouer et à 2 changements de sens à la suite, donc on joue dans le sens normal.",
    "seven": "La carte de valeur 7 : On doit faire piocher 2 cartes au joueur suivant. On peut cumuler plusieurs cartes de valeur 7 et donc faire piocher 2, 4, 6 ou 8 cartes.",
    "king": "Le roi de Pique : On doit faire piocher 5 cartes au joueur suivant, sauf si le joueur suivant met le 7 de pique, c’est le joueur suivant qui pioche 7 cartes.",
    "same-value": "On peut poser plusieurs cartes de même valeur. Cela permet de se défausser de 2, 3, 4 voir même 8 cartes en une seule fois.",
    "carre": "La règle du carré : si sur la défausse il y a 4 cartes identiques, le joueur qui a déposé la dernière carte pour faire le carré rejoue immédiatement.",
    "carre-7": "si l’on pose les 4 cartes 7, cela donne pour le dernier joueur le droit de rejouer, mais le joueur suivant doit piocher 8 cartes et joue ensuite.",
    "carte": "A son tour de jeu, si un joueur n’a plus qu’une seule carte en main, il doit dire « carte ».",
    "plouc": "Quand il joue sa dernière carte et qu’elle est posée, il doit dire « plouc ».",
    "zouzou": "La Zouzou : quand on oublie de dire « carte », un autre joueur dit « contre ». Le joueur qui a oublié de dire carte prend une carte dans la pioche. Pareil pour l’oubli du « plouc » : sanction une carte piochée dans la pioche !",
    "mega-one": "La Méga One : identique à La Zouzou mais c’est le joueur qui à dit contre qui donne une de ses cartes.",
    "david": "dès qu’un joueur fait une erreur (et ça arrive vite même à des professionnels comme nous !) le joueur qui voit l’erreur la signale à tout le monde. Le jeu s’arrête et là c’est le drame : - Soit le joueur qui a vu l’erreur a raison, donc le joueur qui s’est trompé est sanctionné. Il pioche une carte dans la pioche (la Zouzou) soit le joueur qui a vu l’erreur donne une carte de sa main (La Méga one). Il faut définir la sanction avant de commencer à jouer.",
    "david-wrong": "Soit le joueur qui a vu l’erreur s’est lui-même trompé, il pioche une carte de la pioche (La Zouzou), puis le jeu reprend.",
    "zero": "Le zéro : quand une carte de valeur 2 apparait sur la défausse, le premier joueur qui tape sur le tas de défausse doit obligatoirement échanger son tas de carte avec un autre joueur.",
    "trefle": "Le 3 de trèfle : il est interdit de finir son plouc avec le 3 de trèfle.",
    "mot-doux": "La règle du mot doux : interdiction de dire des gros mots sous peine de piocher 2 cartes de la pioche (double La Zouzou) mais sans jouer.",
    "six": "Le 6 : le joueur suivant passe son tour. Si plusieurs cartes de valeur 6 sont jouées, on « saute » autant de joueurs que de cartes posées.",
    "maitresse": "La maitresse : interdiction de terminer par une carte spéciale pour faire le « plouc ».",
    "goal": "But : Etre le premier à se défausser de toutes ses cartes",
}

CODES = {
    "CP-NO-MATCH": "match",
    "CP-ACE-SUIT": "ace",
    "CP-ACE-ANNOUNCE": "ace",
    "CP-MUST-DRAW": "seven",
    "CP-DRAW-COUNT": "turn",
    "CP-NO-REPLAY": "queen",
    "CP-OUT-OF-TURN": "turn",
    "CP-DRAW-WITH-PLAYABLE": "turn",
    "CP-PASS": "turn",
    "CP-NOT-IN-HAND": "turn",
    "CP-STOCK-MISMATCH": "turn",
    "CP-MISSED-CARTE": "carte",
    "CP-MISSED-PLOUC": "plouc",
    "CP-CALL-NOT-DUE": "carte",
    "CP-FALSE-CONTRE": "zouzou",
    "CP-SANCTION-WRONG": "zouzou",
    "CP-SANCTION-UNPAID": "zouzou",
    "CP-WRONG-ACCUSATION": "david-wrong",
    "CP-FALSE-SLAP": "zero",
    "CP-WRONG-SWAP": "zero",
    "CP-SWAP-MISSING": "zero",
    "CP-THREE-OF-CLUBS": "trefle",
    "CP-MAITRESSE": "maitresse",
    "CP-SWEAR": "mot-doux",
    "REC-DUPLICATE-CARD": "cards",
    "REC-NOT-IN-DECK": "cards",
    "REC-BAD-DEAL": "deal",
    "REC-LATE-DEAL": "deal",
    "REC-AFTER-END": "goal",
    "REC-RESULT-MISMATCH": "goal",
}

ACCUSABLE = frozenset({
    "CP-NO-MATCH", "CP-ACE-SUIT", "CP-ACE-ANNOUNCE", "CP-MUST-DRAW", "CP-DRAW-COUNT", "CP-NO-REPLAY",
    "CP-OUT-OF-TURN", "CP-DRAW-WITH-PLAYABLE", "CP-PASS", "CP-MISSED-CARTE", "CP-MISSED-PLOUC",
    "CP-CALL-NOT-DUE", "CP-FALSE-CONTRE", "CP-SANCTION-WRONG", "CP-SANCTION-UNPAID", "CP-FALSE-SLAP",
    "CP-WRONG-SWAP", "CP-SWAP-MISSING", "CP-THREE-OF-CLUBS", "CP-MAITRESSE",
})
"""The errors of play that le David le fou lets another player call out. Left out: what
only the record shows (a card not in the hand, the stock's order), and errors that carry
their own sanction already (a gros mot, a wrong accusation)."""

SHOWN = 5
"""Lines a note names before « and later »."""

AGAIN_RULES = {"queen": "queen", "ten": "ten", "carre": "carre", "draw": "draw-more", "carre-7": "carre-7"}
"""Why a player plays again, and the rule that says so."""


@mypyc_attr(allow_interpreted_subclasses=True)  # so that a call from Python code runs __init__
class CarteEtPlouc(Calls):
    name = "carte-et-plouc"
    title = "Carte et Plouc de Charlotte"
    min_players = 2
    max_players = 9
    deck = frozenset(STANDARD_52)
    verbs = frozenset({"holds", "plays", "draws", "passes", "says", "slaps", "swaps", "gives", "accuses", "swears"})
    targets = frozenset({"swaps", "gives", "accuses"})
    options = (
        Option("Sanction", SANCTIONS, "none", "the sanction for a missed « carte » or « plouc » after a « contre », and for le David le fou",
               aliases=(("la-zouzou", "zouzou"), ("megaone", "mega-one"), ("la-mega-one", "mega-one"), ("mega", "mega-one"))),
        Option("Variants", VARIANTS, frozenset(), "the additional rules in play (david-le-fou with a [Sanction])", many=True,
               aliases=(("david", "david-le-fou"), ("le-david-le-fou", "david-le-fou"), ("le-zero", "zero"),
                        ("trefle-3", "3-de-trefle"), ("3-trefle", "3-de-trefle"), ("le-3-de-trefle", "3-de-trefle"),
                        ("mot-doux", "mot-doux"), ("motdoux", "mot-doux"), ("6", "six"), ("le-6", "six"),
                        ("la-maitresse", "maitresse")),
               needs=(("david-le-fou", "Sanction", ("zouzou", "mega-one")),)),
        Option("PlayOn", ("no", "yes"), "no", "whether play goes on after the first player is out, for a finishing order"),
        Option("Reshuffle", ("yes", "no"), "yes", "whether the discard under its top card becomes a new stock when the stock runs out"),
        Option("TwoPlayerReverse", ("none", "skip"), "none", "with two players, what a change of direction does besides the 10's replay"),
    )
    RULES = RULES
    CODES = CODES
    EXAMPLES = EXAMPLES
    extra_tags = ("Starter", "Stock")
    aces_announce = True
    calls = ("carte", "plouc", "contre")
    chart = "cards"
    turned_up = "Starter"

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self._deal_headers(setup)


    # --- The deal -------------------------------------------------------------------------
    def _deal_headers(self, setup: Setup) -> None:
        """[Starter] and [Stock]: the card turned up, and the stock in order, top card first."""
        record = setup.record
        starter = UNSEEN_CARD
        header = record.header("Starter")
        if header is not None and header.value.strip():
            read = read_card(header.value.strip(), record.french)
            if read is None or (read.seen and read not in self.deck):
                raise SetupError(say("cp.bad-starter", tag=Tag("Starter"), value=header.value), header)
            starter = read
        self.starter = starter
        stock: list[Card] = []
        header = record.header("Stock")
        if header is not None:
            placed = {starter}
            for word in header.value.replace(",", " ").split():
                card = read_card(word, record.french)
                if card is None or (card.suit != UNSEEN and card not in self.deck):
                    raise SetupError(say("cp.bad-stock", tag=Tag("Stock"), value=word), header)
                if card.suit != UNSEEN:
                    if card in placed:
                        raise SetupError(say("cp.stock-twice", tag=Tag("Stock"), card=card), header)
                    placed.add(card)
                stock.append(card)
        size = len(self.deck) - self.size * len(self.players) - 1
        if len(stock) > size:
            raise SetupError(say("cp.stock-size", tag=Tag("Stock"), count=len(stock), size=size, players=len(self.players)), header)
        cards = self.cards
        cards.stock = [UNSEEN_CARD] * (size - len(stock)) + stock[::-1]
        cards.where.update((c, STOCK) for c in stock if c.suit != UNSEEN)
        cards.lay(starter)
        self.suit, self.rank = (starter.suit, starter.rank) if starter.seen else (None, 0)

    def _holds(self, seat: int, event: Event) -> None:
        if self.started:
            self.flag("REC-LATE-DEAL", event)
            return
        cards = self.cards
        for i, card in enumerate(event.cards):
            if card.seen and card in cards.where and cards.where[card] != seat:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=cards.place(card))
            elif card.seen and card in event.cards[:i]:
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=said("where.hand", player=event.player))
        fresh: list[Card] = []  # a card placed elsewhere, or twice on the line, counts as one nobody saw
        for card in event.cards:
            placed = card.seen and (cards.where.get(card, seat) != seat or card in fresh)
            fresh.append(UNSEEN_CARD if placed else card)
        cards.deal(seat, tuple(fresh))
        if len(event.cards) != self.size:
            self.flag("REC-BAD-DEAL", event, count=len(event.cards), expected=self.size)
        self._recount(seat)

    def _begin(self) -> None:
        self.started = True
        if not self.starter.seen:
            self.notes.append(said("cp.note.no-starter", tag=Tag("Starter")))

    # --- Events -----------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        seat = self.seats[event.player]
        verb = event.verb
        if verb == "holds":
            return self._holds(seat, event)
        if not self.started:
            self._begin()
        self.event = event
        self.seq += 1
        self.cards.clock = self.seq
        written, self.last_pass = self.last_pass == seat and self.turn != seat, None
        if verb == "passes" and written:  # the pass after one's draw, written out
            return
        if self.taken_back is not None and (seat != self.taken_back or verb != "says" or plain(event.word) != "plouc"):
            self.taken_back = None
        elif self.taken_back is not None:
            return  # the « plouc » said with the forbidden last card: part of that play
        count = (len(event.cards) if event.cards_text else 1) if verb == "draws" else 0
        turn = verb == "plays" or verb == "passes" or (verb == "draws" and not ((self.sanctions or self.gifts) and self._sanction_draw(seat, count)))
        if self.plouc is not None and self._plouc_window(seat, event, turn):
            return
        if turn:
            if self.errors or self.settled or self.carte_due or self.swapper is not None:
                self._close_windows(seat, event)
            self._void_debt()
        if verb == "plays":
            self._plays(seat, event)
        elif verb == "draws":
            self._draws(seat, event, count, turn)
        else:
            getattr(self, "_" + verb)(seat, event)

    def flag(self, code: str, event: Event, column: int | None = None, player: str | None = None,
             rule: str | None = None, **fields: object) -> bool:
        """A violation; an error of play the table did not accept stays open to le David le
        fou's accusation until the next turn."""
        if self.muted:
            return True  # a group replayed without its last card: flagged once, on the first pass
        counted = super().flag(code, event, column, player, rule, **fields)
        if code in ACCUSABLE:
            name = player if player is not None else event.player
            if counted:
                self.errors[name] = self.seq
            else:
                self.settled[name] = (event.line, "cp.accuse.accepted")
        return counted

    def _close_windows(self, seat: int, event: Event) -> None:
        """A turn begins: what had to come before it is missed now."""
        self.errors.clear()
        self.settled.clear()
        if self.swapper is not None:
            self.flag("CP-SWAP-MISSING", event, player=self.players[self.swapper])
            self.swapper = None
        if self.carte_due:
            for other in sorted(self.carte_due):
                if other != seat:
                    if not self.flag("CP-MISSED-CARTE", event, player=self.players[other], how=self._one_how(other)):
                        self.waived[other] = event.line
                    self.missed[other] = True
                    self.carte_due.discard(other)

    def _turn_of(self, seat: int, event: Event, did: str) -> None:
        """Check that it is this player's turn; the record wins: it is, from now on. ``did``
        is what they did, in words (a key of the messages; a card played fills it)."""
        if self.again and seat != self.turn:
            self.flag("CP-NO-REPLAY", event, player=self.players[self.turn], rule=AGAIN_RULES[self.again],
                      why=said(f"cp.again.{self.again}"), actor=event.player)
            self._pass_turn()
        if seat != self.turn:
            self._out_of_turn(event, said(did, card=event.cards[0] if event.cards else ""))
            self._take_turn(seat)

    def _out_of_turn(self, event: Event, did: Said, column: int | None = None) -> None:
        """CP-OUT-OF-TURN, saying what made it the other player's turn, with that rule."""
        key, fields, rule = self.because
        why = Said(key, {"player": self.players[self.turn], **fields})
        self.flag("CP-OUT-OF-TURN", event, column, rule=rule, did=did, expected=self.players[self.turn], why=why)

    def _void_debt(self) -> None:
        """Cards owed when nothing is left to draw are not owed: the player just plays."""
        if self.owed and not self.again and not self.cards.available(self.reshuffle):
            self.owed, self.stack = 0, None

    def _take_turn(self, seat: int) -> None:
        """Play goes on from this player; what the skipped player owed lapses."""
        self.turn, self.again, self.owed, self.stack, self.skip = seat, None, 0, None, 0
        self.skipper = None

    def _pass_turn(self) -> None:
        self.again = None
        steps, self.skip = 1 + self.skip, 0
        previous = self.turn
        if steps > 1:  # round the table from the next player, the skipping player too
            self.skipped = (self.seq, [self.seating.after(self.turn, k) for k in range(1, steps)])
        self.turn = self.seating.after(self.turn, steps)
        self.because = self._turn_cause(previous, steps)
        self.skipper = None

    def _turn_cause(self, previous: int, steps: int) -> tuple[str, dict[str, object], str]:
        """What makes it the next player's turn: the 6s that skipped players, or play
        going on in the direction in force (and the 10s that set it)."""
        name = self.players[previous]
        if steps > 1:
            skipped = listed(self.players[s] for s in self.skipped[1])
            if self.skipper is not None:
                return "cp.turn.skip", {"previous": self.players[self.skipper[0]], "count": self.skipper[1], "skipped": skipped}, "six"
            return "cp.turn.reverse-skip", {"previous": name, "skipped": skipped}, "ten"
        side = said("ca.side.left" if self.seating.direction == 1 else "ca.side.right")
        if self.tens is None:
            return "cp.turn.next", {"previous": name, "side": side}, "turn"
        line, count, card = self.tens
        if count % 2:
            return "cp.turn.next-ten", {"previous": name, "side": side, "card": card, "line": line}, "ten"
        return "cp.turn.next-tens", {"previous": name, "side": side, "count": count, "line": line}, "ten-pair"

    def _unpaid(self, seat: int, event: Event) -> None:
        """A sanction is paid before the offender's own next play or pass."""
        if seat in self.sanctions:
            owed = self.sanctions.pop(seat)
            if self.cards.available(self.reshuffle):  # else: nothing left to draw it from
                self.flag("CP-SANCTION-UNPAID", event, rule=self.sanction_rule.get(seat),
                          sanction=said("cp.sanction.draw", count=owed))
        for gift in [g for g in self.gifts if g[0] == seat]:
            self.gifts.remove(gift)
            self.flag("CP-SANCTION-UNPAID", event, rule="mega-one", sanction=said("cp.sanction.give", player=self.players[gift[1]]))

    # --- Playing cards ------------------------------------------------------------------------
    def _plays(self, seat: int, event: Event) -> None:
        cards = event.cards
        if seat != self.turn:
            self._turn_of(seat, event, "cp.did.play")
        if self.sanctions or self.gifts:
            self._unpaid(seat, event)
        self.passes = 0
        if len(cards) == 1 and event.suit is None:  # the usual line: one card
            if self._play_group(seat, event, 0, 1) and not self.again and seat not in self.seating.out:
                self._pass_turn()
            return
        start = 0
        while start < len(cards):
            end = start + 1
            while end < len(cards) and cards[end].rank == cards[start].rank:
                end += 1
            laid = self._play_group(seat, event, start, end)
            if not laid:  # a forbidden last card taken back: the player still has to draw
                break
            if seat in self.seating.out:
                if end < len(cards):
                    self.flag("CP-NOT-IN-HAND", event, event.card_column(end), card=cards[end], did=said("cp.hand.played"),
                              why=said("cp.hand.empty"))
                break
            if end < len(cards) and not self.again:
                self._pass_turn()
                self._out_of_turn(event, said("cp.did.more", card=cards[end], last=cards[end - 1]), event.card_column(end))
                self._take_turn(seat)
            elif end == len(cards) and not self.again:
                self._pass_turn()
            start = end
        if event.suit is not None and cards[-1].rank != ACE:
            self.flag("CP-ACE-ANNOUNCE", event, detail=said("cp.ace.not-ace", player=event.player))

    def lay_stray(self, event: Event, index: int) -> None:
        """A card outside the deck laid in turn and let stand: it leaves the hand for the
        discard, as no card of the game: it answers no cards owed (they lapse, as after
        any other card), has no power, and the next card may be any."""
        seat = self.seats[event.player]
        if not self.started:
            self._begin()
        if self.ended or seat != self.turn or not self.cards.count(seat):
            return
        self.event = event  # the line that brings the hand down to one card, or to none
        self.cards.take(seat, UNSEEN_CARD)
        self.cards.lay(UNSEEN_CARD)  # the card that left the hand is not known
        self.owed, self.stack, self.again = 0, None, None
        self.suit, self.rank = None, 0
        self.played += 1
        self._recount(seat)
        if not self.cards.count(seat):
            self._goes_out(seat)
        else:
            self._pass_turn()

    def _play_group(self, seat: int, event: Event, start: int, end: int) -> bool:
        """Cards of one value laid together, as one play; False when nothing stays laid.

        A group that would empty the hand on a card that may not end a plouc (le 3 de
        trèfle, la maîtresse) is flagged as laid; unless the table accepted the fault, the
        last card then goes back to the hand, and what the other cards of the group did
        stands: a fault the table did not accept never wins the game for its author."""
        last = event.cards[end - 1]
        if end < len(event.cards) or not last.seen or self.cards.count(seat) != end - start or not self.forbidden_last(last):
            self._lay_group(seat, event, start, end)
            return True
        keep = ("setup", "violations", "notes", "accepted_marks", "claims", "errors", "settled", "proofs", "unverified",
                "blind_noted", "event")
        saved = {k: copy.deepcopy(v) for k, v in self.__getstate__().items() if k not in keep}  # compiled: no __dict__
        self._lay_group(seat, event, start, end)
        if self.finish_counted:
            self.__setstate__(saved)
            self.muted = True
            try:
                if end - 1 > start:
                    self._lay_group(seat, event, start, end - 1)
                if last not in self.cards.known[seat]:  # the card is seen now: it is known to be there
                    self.cards.take(seat, last)  # (one card out, one in: the hand counted as before)
                    self.cards.add(seat, last)
            finally:
                self.muted = False
            self.taken_back = seat
            return end - 1 > start
        return True

    def _lay_group(self, seat: int, event: Event, start: int, end: int) -> None:
        """Cards of one value laid together, as one play."""
        cards = event.cards if end - start == len(event.cards) else event.cards[start:end]
        first = cards[0]
        seen = first.suit != UNSEEN
        facing = self.owed > 0 and not self.again
        self.again, self.misfit = None, False
        before = self.suit
        if seen and facing and not self.answers(first):
            self.flag("CP-MUST-DRAW", event, event.card_column(start), rule=self._debt_rule(),
                      card=first, count=self.owed, answer=said(self._answer_key()))
            self.owed, self.stack, facing = 0, None, False
        elif seen and not facing and before is not None and not (
                first.suit == before if first.rank == ACE else first.suit == before or first.rank == self.rank):
            code = "CP-ACE-SUIT" if first.rank == ACE else "CP-NO-MATCH"
            # an ace off suit that also announces the suit in play: one fault, one report
            same = code == "CP-ACE-SUIT" and end == len(event.cards) and event.suit == before
            also = said("cp.ace.also-same", suit=said(f"cp.suits.{before}")) if same else ""
            self.flag(code, event, event.card_column(start), card=first, top=self.top_text(), suit=self.suit, also=also)
            self.misfit = same
        self.zero_open = False
        hand = self.cards
        for k, card in enumerate(cards, start):
            problem = hand.take(seat, card)
            if problem:
                code, fields = problem
                self.flag(code, event, event.card_column(k), card=card, did=said("cp.hand.played"), **fields)
            elif self.proofs[seat]:  # only a card that was in the hand proves anything about it
                self._prove(seat, card, event, event.card_column(k))
            hand.lay(card)
            if card.rank == SEVEN or card == KING_OF_SPADES:
                facing = self._debt(card, facing)
        self.played += len(cards)
        self._recount(seat)
        if not seen:
            self.suit, self.rank = None, 0
            if not self.blind_noted:
                self.blind_noted = True
                self.notes.append(said("cp.note.unseen-play", player=event.player, line=event.line))
            return
        self._powers(seat, event, cards, end, before)
        if not hand.known[seat] and not hand.unknown[seat] and seat not in self.seating.out:
            forbidden = self.forbidden_last(cards[-1])
            if forbidden:
                accepted = event.comment is not None and forbidden in accepted_codes(event.comment)
                then = said("cp.last.accepted" if accepted else "cp.last.back", player=event.player)
                self.finish_counted = self.flag(forbidden, event, event.card_column(end - 1), card=cards[-1],
                                                specials=self._specials_text(), then=then)
                if self.finish_counted:
                    return
            self._goes_out(seat)

    def _debt(self, card: Card, facing: bool) -> bool:
        """A 7 or the Roi de pique laid: cards to draw for
        the next player. Returns whether the rest of the play still faces cards owed: the
        7 of spades answering the Roi de pique settles them (the 7s laid with it add their
        2 each, and the player after draws them all: "KS7" adds nothing more)."""
        if not self.owed or self.debt is None:
            self.debt = []
        self.debt.append(card)
        if card == KING_OF_SPADES:
            self.owed += KING_DRAW
            self.stack = "KS" if self.owed == KING_DRAW else None
        elif facing and self.stack == "KS" and card == SEVEN_OF_SPADES:
            self.owed, self.stack = KING_DRAW + SEVEN_DRAW, "KS7"
            return False
        else:  # (still facing here only for 7s on 7s: the group's first card answered them)
            self.owed += SEVEN_DRAW
            if self.stack != "KS7":
                self.stack = "7"
        return facing

    def _powers(self, seat: int, event: Event, cards: tuple[Card, ...], end: int, before: str | None) -> None:
        """What a play does once its cards are down."""
        top = cards[-1]
        rank, k = top.rank, len(cards)
        self.rank, self.suit = rank, top.suit
        discard = self.cards.discard
        carre = len(discard) >= 4 and discard[-2].rank == discard[-3].rank == discard[-4].rank == rank
        if rank == TEN:
            self.tens = (event.line, k, top)
            for _ in range(k):
                self.seating.reverse()
            self.reversals += k
            self.again = "ten"
            if k % 2 and self.reverse_skips and len(self.players) - len(self.seating.out) == 2:
                self.skip += 1
        elif rank == QUEEN:
            self.again = "queen"
        elif rank == SIX and self.six:
            self.skip += k
            self.skipper = (seat, k)
        elif rank == TWO and self.zero:
            self.zero_open = True
            self.slapped = False
        elif rank == ACE:
            self._announce(event, cards, end, before)
        if carre:
            self.again = "carre-7" if rank == SEVEN else "carre"
            if rank == SEVEN:
                self.owed, self.stack, self.debt = CARRE_SEVENS, None, None

    def _announce(self, event: Event, cards: tuple[Card, ...], end: int, before: str | None) -> None:
        """The suit an ace announces: written after ``for`` when the ace ends the line, else
        shown by the next card its player lays (after a carré of aces)."""
        if end < len(event.cards):
            following = event.cards[end]
            self.suit = following.suit if following.seen else None
            return
        if not self.cards.count(self.seats[event.player]) and self.last_out_ends():
            self.suit = event.suit or cards[-1].suit  # going out, the game over: no suit to announce
            return
        in_play = before or cards[0].suit
        if event.suit is None:
            hint = next(s for s in SUITS if s != in_play)  # a suit the ace may announce
            self.flag("CP-ACE-ANNOUNCE", event, event.card_column(end - 1),
                      detail=said("cp.ace.no-suit", player=event.player, card=cards[-1],
                                 line=in_force().move(Event(event.player, "plays", 0, 0, (cards[-1],), suit=hint))))
            return
        if event.suit == in_play and not self.misfit:
            self.flag("CP-ACE-ANNOUNCE", event, detail=said("cp.ace.same-suit", player=event.player, suit=said(f"cp.suits.{event.suit}")))
        self.suit = event.suit

    def _goes_out(self, seat: int) -> None:
        """The last card laid: « plouc » is due, and the game ends, or goes on without them."""
        self.closing = self.last_out_ends()
        self.out_order.append(seat)
        self.seating.out.add(seat)
        self.plouc = seat
        if self.event is not None:
            self.last_card = (self.event.cards[-1], self.event.line)
        self._pass_turn()  # (which clears a replay owed)

    def _answer_key(self) -> str:
        return {"7": "cp.answer.seven", "KS": "cp.answer.king"}.get(self.stack or "", "cp.answer.closed")

    def _debt_text(self) -> Said | Listed:
        """Where the cards owed come from, in words: « 7H and 7D, 2 each »."""
        if self.debt is None:
            return said("cp.debt.carre", count=CARRE_SEVENS)
        sevens = [c for c in self.debt if c.rank == SEVEN]
        parts: list[object] = [said("cp.debt.king", count=KING_DRAW)] if KING_OF_SPADES in self.debt else []
        if sevens:
            parts.append(said("cp.debt.sevens", cards=listed(sevens), count=len(sevens), each=SEVEN_DRAW))
        return clauses(parts)

    def _debt_rule(self) -> str:
        return "king" if self.stack in ("KS", "KS7") else "seven"

    def _specials_text(self) -> Listed:
        names = ["A", "7", "10", "Q", "KS"] + (["2"] if self.zero else []) + (["6"] if self.six else [])
        return listed(names)

    # --- Drawing and passing --------------------------------------------------------------------
    def _sanction_draw(self, seat: int, count: int) -> bool:
        """Whether a draw is meant for a sanction, not a turn: any draw out of turn while
        one is owed, or the offender's draw of exactly the cards the sanction asks (all
        of them, or what the stock has left of them)."""
        owed = self.sanctions.get(seat, 0)
        return seat != self.turn or (bool(owed) and count in (owed, min(owed, self.cards.available(self.reshuffle))))

    def _draws(self, seat: int, event: Event, count: int, turn: bool) -> None:
        if not turn:
            if seat in self.sanctions:
                return self._pay_sanction(seat, event, count)
            return self._wrong_draw(seat, event, count)
        if seat != self.turn:
            self._turn_of(seat, event, "cp.did.draw")
        self.passes = 0
        available = self.cards.available(self.reshuffle)
        if self.owed and not self.again:
            expected = min(self.owed, available)
            rule = self._debt_rule()
            drawn = self._take_cards(seat, event, count)
            if drawn != expected or count != expected:
                self.flag("CP-DRAW-COUNT", event, rule=rule, count=count,
                          expected=together(said("cp.expect.debt", count=self.owed, causes=self._debt_text()),
                                            self._short(expected, self.owed)))
            self.owed, self.stack, self.again = 0, None, "draw"
            return
        if not available:
            self.flag("CP-DRAW-COUNT", event, count=count, expected=said("cp.expect.empty"))
        elif count != 1:
            self.flag("CP-DRAW-COUNT", event, count=count, expected=said("cp.expect.turn"))
        self._could_play(seat, event, "draws")
        self._take_cards(seat, event, count)
        self._pass_turn()
        self.last_pass = seat

    def _wrong_draw(self, seat: int, event: Event, count: int) -> None:
        """A sanction drawn by a player who owes none: a fault of its own, the cards are
        theirs, and the sanction stays owed by its offender (or giver)."""
        owed = next(iter(self.sanctions), None)
        if owed is not None:
            detail: tuple[Said, ...] = (said("cp.sanction.not-yours", player=event.player, offender=self.players[owed]),)
        else:
            giver, receiver = self.gifts[0]
            detail = (said("cp.sanction.drew", player=event.player),
                      said("cp.sanction.gift-owed", giver=self.players[giver], receiver=self.players[receiver]))
        self.flag("CP-SANCTION-WRONG", event, rule=self.sanction_rule.get(owed) if owed is not None else "mega-one",
                  detail=together(*detail, said("cp.sanction.still-owed")))
        self._take_cards(seat, event, count)

    def _pay_sanction(self, seat: int, event: Event, count: int) -> None:
        owed = self.sanctions.pop(seat)
        expected = min(owed, self.cards.available(self.reshuffle))
        drawn = self._take_cards(seat, event, count)
        if drawn != expected or count != expected:
            self.flag("CP-DRAW-COUNT", event, rule=self.sanction_rule.get(seat), count=count,
                      expected=together(said("cp.expect.sanction", count=owed), self._short(expected, owed)))

    @staticmethod
    def _short(left: int, owed: int) -> Said | str:
        """What a draw owed comes to when the stock cannot cover it, in words."""
        if left >= owed:
            return ""
        return said("cp.expect.short", count=left) if left else said("cp.expect.none-left")

    def _take_cards(self, seat: int, event: Event, count: int) -> int:
        """Cards from the stock into a hand, as the record names them."""
        wanted = list(event.cards) if event.cards_text else [UNSEEN_CARD]
        drawn, problems = self.cards.draw(seat, wanted, self.reshuffle)
        for index, code, fields in problems:
            self.flag(code, event, event.card_column(index), **fields)
        self.drawn[seat] += drawn
        if drawn > self.longest:
            self.longest = drawn
        self._recount(seat)
        return drawn

    def _passes(self, seat: int, event: Event) -> None:
        if seat != self.turn:
            self._turn_of(seat, event, "cp.did.pass")
        if self.sanctions or self.gifts:
            self._unpaid(seat, event)
        if self.cards.available(self.reshuffle):
            self.flag("CP-PASS", event, why=said("cp.pass.owed" if self.owed and not self.again else "cp.pass.stock"))
            # (self.passes counts the passes in a row for want of a stock: a draw or a play, each
            # setting it to 0, comes before the next such pass)
            if not self.again:
                self.owed, self.stack = 0, None
        else:
            self._could_play(seat, event, "passes")
            self.passes += 1
        self._pass_turn()
        if self.passes >= len(self.players) - len(self.seating.out):
            self.blocked = self.ended = True

    def _could_play(self, seat: int, event: Event, verb: str) -> None:
        """A draw or a pass instead of a play: wrong if the hand held a card to play. With
        cards nobody saw, it is kept for a later proof and noted as not verified."""
        cards = self.cards
        known, suit = cards.known[seat], self.suit
        if verb == "passes":
            self.passed_at[seat] = self.seq
        if known:
            count, rank = cards.count(seat), self.rank
            card = next((c for c in known if (c.suit == suit if c.rank == ACE else c.suit == suit or c.rank == rank)
                         and (count > 1 or not self.forbidden_last(c))), None)
            if card is not None:
                self.flag("CP-DRAW-WITH-PLAYABLE", event, did=said(f"cp.did.{verb}"), card=card, when="")
                return
        if cards.unknown[seat] and suit is not None:
            drawn, stock = event.cards, cards.stock
            if verb == "passes" or (drawn and drawn[0].suit != UNSEEN) or (stock and stock[-1].suit != UNSEEN):
                # (else the card drawn now is one nobody saw: the proof would die at once, for
                # it may be the card played later)
                self.proofs[seat].append(Pass(self.seq, event.line, self.rank, suit, cards.count(seat), verb))
            self._note_unverified(seat, event.line)

    def _prove(self, seat: int, card: Card, event: Event, column: int) -> None:
        """A card played now that was surely in the hand at an earlier draw or pass, and
        playable then, proves that draw or pass wrong."""
        if not self.proofs[seat]:
            return
        self.proofs[seat] = [p for p in self.proofs[seat] if p.seq > self.cards.since[seat]]
        proof = self.proof(seat, card)
        if proof is not None:
            self.proofs[seat].remove(proof)
            self._verified(seat, proof.line)
            self.flag("CP-DRAW-WITH-PLAYABLE", event, column, did=said(f"cp.did.{proof.verb}"), card=card,
                      when=said("cp.when", line=proof.line))

    def _note_unverified(self, seat: int, line: int) -> None:
        """One note per player, naming the first lines (then: « and later »)."""
        entry = self.unverified.get(seat)
        if entry is None:
            entry = self.unverified[seat] = Unverified(len(self.notes))
            self.notes.append("")
        entry.count += 1
        if len(entry.lines) > SHOWN:
            return
        entry.lines.append(line)
        self._write_note(seat, entry)

    def _verified(self, seat: int, line: int) -> None:
        """A draw the note listed is proved wrong (CP-DRAW-WITH-PLAYABLE): the note no
        longer names it, and goes when it names nothing."""
        entry = self.unverified[seat]
        entry.count -= 1
        if line in entry.lines:
            entry.lines.remove(line)
        if entry.count:
            return self._write_note(seat, entry)
        del self.unverified[seat]
        if entry.index >= len(self.notes):  # a note that was counted, not kept
            self.notes.more -= 1
            return
        del self.notes[entry.index]
        for other in self.unverified.values():
            if other.index > entry.index:
                other.index -= 1

    def _write_note(self, seat: int, entry: Unverified) -> None:
        lines = entry.lines
        shown = listed(lines) if entry.count <= SHOWN else together(", ".join(map(str, lines[:SHOWN])), said("cp.note.more"))
        self.notes[entry.index] = said("cp.note.unverified", player=self.players[seat],
                                       lines=said("cp.note.line" if entry.count == 1 else "cp.note.lines", lines=shown))

    # --- Reporting ------------------------------------------------------------------------------
    def over(self, event: Event | None = None) -> bool:
        return self.ended

    def conclude(self) -> None:
        """A [Result] header: the game is over; a « plouc » not written could not be checked."""
        if self.plouc is not None:
            self.notes.append(said("cp.note.no-plouc", player=self.players[self.plouc]))
            self.plouc = None
            self.ended = self.ended or self.closing

    def result(self) -> Result:
        if not self.ended:
            return Result(False)
        order = [self.players[s] for s in self.out_order]
        if self.blocked or self.play_on:
            left = [s for s in range(len(self.players)) if s not in self.seating.out]
            start = self.turn
            step = self.seating.direction  # ties: in turn order, in the direction of play
            left.sort(key=lambda s: (self.cards.count(s), ((s - start) * step) % len(self.players)))
            order += [self.players[s] for s in left]
        return Result(True, order[0], order)

    def stats(self) -> dict[str, int]:
        stats = {"cards_played": self.played, "direction_changes": self.reversals, "longest_draw": self.longest}
        stats.update((f"drawn_by_{p}", self.drawn[s]) for s, p in enumerate(self.players))
        stats.update((f"cards_left_{p}", self.cards.count(s)) for s, p in enumerate(self.players))
        return stats

    def todo(self) -> list[Said]:
        if self.ended:
            return []
        name = self.players
        things = []
        if self.plouc is not None:
            things.append(said("cp.todo.plouc", player=name[self.plouc]))
        things += [said("cp.todo.carte", player=name[s]) for s in sorted(self.carte_due)]
        if self.swapper is not None:
            things.append(said("cp.todo.swap", player=name[self.swapper]))
        things += self._sanctions_text()
        things += [said("cp.todo.gift", player=name[g], target=name[r]) for g, r in self.gifts]
        if self.zero_open:
            things.append(said("cp.todo.slap"))
        if self.plouc is None or not self.closing:
            things.append(self._turn_text())
        return things

    def _sanctions_text(self) -> list[Said]:
        """The sanctions owed, as far as the stock can cover them (with nothing left to
        draw, a sanction is void)."""
        available = self.cards.available(self.reshuffle)
        return [said("cp.todo.sanction", player=self.players[s], count=min(k, available))
                for s, k in self.sanctions.items() if available]

    def _turn_text(self) -> Said:
        player = self.players[self.turn]
        available = self.cards.available(self.reshuffle)
        if self.facing():
            answer = said(self._answer_key().replace("cp.answer", "cp.todo.answer"))
            return said("cp.todo.owed", player=player, count=min(self.owed, available), answer=answer)
        again: Said | str = said("cp.todo.again") if self.again else ""
        other = said("cp.todo.draws" if available else "cp.todo.passes")
        known = self.cards.known[self.turn]
        if self.cards.count(self.turn) == 1 and known and self.forbidden_last(known[0]):
            return said("cp.todo.stuck", player=player, card=known[0], other=other)
        if self.suit is None:
            return said("cp.todo.any", player=player, again=again, other=other)
        suit = said(f"cp.suit.{self.suit}")
        if self.rank == ACE:
            return said("cp.todo.suit", player=player, again=again, suit=suit, other=other)
        return said("cp.todo.play", player=player, again=again, suit=suit, rank=said(f"cp.rank.{self.rank}"), other=other)

    def table(self) -> Table:
        cards = self.cards
        hands = {p: Hand(cards.count(s), list(cards.known[s])) for s, p in enumerate(self.players)}
        extra = {say("cp.state.suit"): say(f"cp.suit.{self.suit}") if self.suit else "?", say("cp.state.variants"): " ".join(sorted(self.variants)) or "-",
                 say("cp.state.sanction"): option_value(self.sanction_kind)}
        owed = [str(sanction) for sanction in self._sanctions_text()]
        owed += [say("cp.todo.gift", player=self.players[g], target=self.players[r]) for g, r in self.gifts]
        if self.owed:
            owed.append(say("cp.owed", count=self.owed))
        return Table(None if self.ended else self.players[self.turn], self.seating.direction, hands,
                     {say("cp.state.discard"): list(cards.discard)}, len(cards.stock), owed, {}, extra)

    def ruling(self, event: Event) -> str | None:
        return ruling(self, event)

    # --- The simulator's side (play.py) --------------------------------------------------------
    def legal(self) -> list[Legal]:
        return play.legal(self)

    @classmethod
    def public(cls, event: Event) -> Event | None:
        return play.public(event)

    @classmethod
    def deal(cls, deck: list[Card], setup: Setup) -> Deal:
        return play.deal(deck, setup)

    mistake_codes = play.MISTAKE_CODES

    def mistakes(self, hidden: bool = False) -> list[Mistake]:
        return play.mistakes(self, hidden)


RULES_CLASS = CarteEtPlouc
