"""Caroleto: a drinking game on the French tarot deck.

A round has four steps: the optional exchange, each player's draw from a neighbour, the
cards laid face down and revealed together, then their effects and the count. The module
follows the rounds as written, works out every drink with its cause (``drinks()``), and
checks the drinks the record writes. The conventions where the text is silent are in
docs/games/caroleto.md, rule by rule."""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from mypy_extensions import mypyc_attr

from ...cards import TAROT_78, UNSEEN_CARD, Card
from ...messages import Listed, Said, clauses, join, listed, said, say, together
from ...text.numbers import whole
from ...record import Event
from ..base import UNITS, Deal, Drink, Hand, Legal, Mistake, Option, Result, Setup, SetupError, Table, amount_said, amount_text
from .cards import KIND, RED, ROI_DE_PIQUE, TARGETED, is_seen, is_trump, maximum
from .examples import EXAMPLES
from .legal import legal, simulator_leaves_aside
from .mistakes import MISTAKE_CODES, mistakes
from .places import Places
from .round import Amount, Bidding, Cause, Dare, Dossier, Duel, NineDraw, Once, Play, Round, Words
from .ruling import ruling
from .state import CaroletoState, all_owed, hand_size, next_round, say_players

RS = ROI_DE_PIQUE
SIXES = {1: (1, "sips"), 2: (1, "half"), 3: (1, "glass")}
"""What one, two or three 6s in a round give the player they designate (four: everyone
finishes their glass)."""
EPSILON = 1e-9

RULES = {
    "deck": "Faire deux tas avec un jeu de tarot, un qui sera la pioche, l'autre qui contiendra les cartes que les joueurs auront en main.",
    "deal": "Chacun devra en avoir 10 (si on joue à 4, 8 si on est 5, 12 si on est 3, etc...). Mais attention dans les cartes que les joueurs auront en main il faudra obligatoirement qu'il y ait le roi de pique !",
    "announce": "Celui qui a le Roi de Pique doit s'annoncer au début car il commence.",
    "exchange": "Au tout début, chaque joueur peut s'il le souhaite se défausser d'une carte pour en changer (une seule fois par tour et excepté le roi de pique). Il pioche donc une carte face ouverte et se prend son effet maximum. La deuxième face cachée qu'il rajoute à sa main.",
    "draw": "Chaque joueur prend une carte au hasard dans la main de son voisin de droite (le sens pourra changer plus tard à cause de la Dame). On commence par celui qui a le roi noir au début. Au tour suivant ce sera au voisin de gauche de tirer le premier et ainsi de suite (voisin de droite si le sens a changé évidemment).",
    "draw-last": "Cette phase n'a pas lieu quand il ne reste plus qu'une carte dans la main de chaque joueur (dernier tour de jeu donc).",
    "reveal": "Chacun choisit une de ses cartes et la pose face cachée devant lui. Quand tout le monde a choisi sa carte, chacun la retourne et la dépose selon son effet.",
    "target": "Si la carte sert à cibler quelqu'un (2 à 5, 8, 10, valet), on la place devant la cible. Si elle est générale (As, 6, 7, 9, Cavalier, Dame, Roi) ou que c'est un atout, on la place devant soi.",
    "count": "On applique tous les effets généraux, on règle les effets des cartes cibles (8, 10 ou valet) puis on fait le compte des gorgées. Toutes les cartes jouées sont envoyées dans la défausse et un nouveau tour commence.",
    "ace": "La personne suivante à celle qui pose l'as doit mettre une carte de la couleur de l'as (s'il n'en a pas il boit deux gorgée). Puis la suivante une plus forte que la précédente et ainsi de suite jusqu'à ce qu'une personne soit bloquée (plus de carte de la bonne couleur ou pas assez forte).",
    "ace-cut": "Si vous avez la couleur mais que vous ne voulez pas utiliser vos cartes (ou ne pas augmenter le nombre de gorgées), vous pouvez couper avec un atout et boire comme si vous aviez perdu. Attention : si vous n'avez pas d'atout, vous êtes obligé de continuer à poser vos cartes de bonne couleur.",
    "refill": "Suite à ça, chaque personne pioche autant de carte dans la pile que de cartes utilisées pour ce jeu (chacun doit avoir le même nombre de cartes en main).",
    "black": "2 à 5 noir : carte cible, le joueur peut donner 2 à 5 gorgées à la personne qu'il veut.",
    "six-count": "1 seul durant le tour : la personne désigne quelqu'un qui boira une gorgée. 2 durant le tour : les deux personnes ayant joué se mettent d'accord et désignent une personne qui boira la moitié de son verre. 3 durant le tour : même chose qu'avec deux 6 sauf que la cible doit boire un verre complet. 4 durant le tour : tout le monde finit son verre.",
    "seven": "7 : carte générale. La personne ayant joué boit une gorgée, celle à sa gauche / droite (dépend du sens dans lequel vous tournez) en boit deux, puis 3 jusqu'à un tour complet.",
    "eight-refused": "Si le joueur refuse de répondre ou d'exécuter son action, il sera non seulement traité de tous les noms et maltraité tout le reste de sa vie mais en plus il devra boire un verre plein.",
    "nine": "9 : carte générale. Tout le monde sauf la personne ayant posé la carte pioche une carte dans la pile et se prend pour soi même son effet maximum (pas plus de 8 gorgées si on est 4, 10 si on est 5, etc...).",
    "ace-count": "Le nombre de gorgées prises est multiplié par 2 à chaque personne passée (premier joueur : 2 gorgées, puis 4, puis 8, etc... ).",
    "roi": "Celui qui joue le Roi de pique à la fin boit le verre (même si un seul autre Roi à été joué).",
    "red": "2 à 5 rouge : carte cible, le joueur peut donner 2 à 5 gorgées à son voisin de gauche ou droite (au choix).",
    "six": "1 seul durant le tour : la personne désigne quelqu'un qui boira une gorgée. 2 durant le tour : les deux personnes ayant joué se mettent d'accord et désignent une personne qui boira la moitié de son verre.",
    "six-trump": "Attention, même avec un atout pour se défendre, le 6 reste imparable.",
    "eight": "Action ou vérité pour la personne désignée. La cible choisit, tous les autres joueurs peuvent se concerter pour trouver une idée.",
    "ten": "Duel au pierre feuille ciseaux entre le joueur et la cible. Celui qui perd boit deux gorgée ou dit : \"double\". S'il dit \"double\" on fait une seconde manche dont le perdant boit 4 gorgées ou dit \"double\". S'il dit \"double\" on fait une troisième manche dont le perdant boit 8 gorgées (à partir de 8, pas de double).",
    "valet": "Si les gens autour de la table disent (à la majorité ou l'égalité) que c'est un dossier pourri : demi verre pour celui qui l'a raconté.",
    "cavalier": "Cette carte ajoute une règle qui durera toute la partie. Si un joueur se fait choper sans respecter la règle, il boit une gorgée supplémentaire.",
    "roi-last": "Attention, le Roi de Pique ne peut être joué que si c'est sa dernière carte en main et il ne peut pas être défaussé pour un échange.",
    "roi-cheat": "Et si tout s'est bien passé, un joueur pose le Roi de Pique au dernier tour. Sinon il y a un tricheur et vous avez le droit de lui trouver un gage.",
    "bout": "Bouts (excuse, 1, 21) : permet de choisir une carte dans les cartes défaussées et de l'utiliser directement.",
    "end": "La partie finie quand plus personne n'a de carte.",
}

CODES = {
    "CA-ROI-NOT-DEALT": "deal",
    "CA-ROI-UNANNOUNCED": "announce",
    "CA-ROI-FALSE": "announce",
    "CA-ROI-EARLY": "roi-last",
    "CA-ROI-EXCHANGED": "roi-last",
    "CA-ROI-CHEAT": "roi-cheat",
    "CA-EXCHANGE-TWICE": "exchange",
    "CA-EXCHANGE-LATE": "exchange",
    "CA-DRAW-ORDER": "draw",
    "CA-DRAW-MISSING": "draw",
    "CA-DRAW-LATE": "draw",
    "CA-DRAW-LAST-ROUND": "draw-last",
    "CA-DRAW-UNDUE": "refill",
    "CA-STOCK-EMPTY": "deck",
    "CA-PLAYED-TWICE": "reveal",
    "CA-TARGET-GENERAL": "target",
    "CA-TARGET-SELF": "target",
    "CA-NO-TARGET": "target",
    "CA-TARGET-NEIGHBOUR": "red",
    "CA-SIX-TARGETS": "six",
    "CA-TRUMP-ON-SIX": "six-trump",
    "CA-BID-TURN": "ace",
    "CA-BID-SUIT": "ace",
    "CA-BID-LOW": "ace",
    "CA-BID-STOP": "ace-cut",
    "CA-HAND-SIZE": "refill",
    "CA-DUEL-WRONG": "ten",
    "CA-DOUBLE-PAST-8": "ten",
    "CA-VOTE-WRONG": "valet",
    "CA-DARE-WRONG": "eight",
    "CA-CATCH-NO-RULE": "cavalier",
    "CA-BOUT-TAKE": "bout",
    "CA-UNSETTLED": "count",
    "CA-ROUND-NUMBER": "count",
    "CA-DRINK-WRONG": "count",
    "CA-DRINK-UNDUE": "count",
    "CA-DRINK-MISSING": "count",
    "REC-DUPLICATE-CARD": "deck",
    "REC-BAD-DEAL": "deal",
    "REC-AFTER-END": "end",
    "REC-RESULT-MISMATCH": "end",
}


def default_cards(players: int) -> int:
    """12 cards at 3, 10 at 4, 8 at 5: two fewer for each player more (6 at 6, 4 at 7, 2 at 8)."""
    return max(2, 18 - 2 * players)


def _plain(word: str | None) -> str:
    return unicodedata.normalize("NFKD", word or "").encode("ascii", "ignore").decode().lower()


NOTED_LINES = 10
"""The lines a note lists by number; later ones are « and later »."""


@mypyc_attr(allow_interpreted_subclasses=True)  # so that a call from Python code runs __init__
class Caroleto(CaroletoState):
    name = "caroleto"
    title = "Caroleto"
    min_players = 3
    max_players = 8
    deck = frozenset(TAROT_78)
    verbs = frozenset({"holds", "says", "round", "discards", "draws", "takes", "plays", "bids", "passes", "beats",
                       "votes", "refuses", "catches", "drinks"})
    targets = frozenset({"plays", "takes", "beats", "catches"})
    options = (
        Option("Cards", ("2", "4", "6"), default_cards, "cards dealt to each player", number=(1, 26)),
        Option("Drinks", ("round", "all"), "round",
               "the rounds whose drinks must all be written: those that write one, or all"),
    )
    chart = "drinks"
    names_winner = False
    RULES = RULES
    CODES = CODES
    EXAMPLES = EXAMPLES
    mistake_codes = MISTAKE_CODES

    @classmethod
    def adjusted_setup(cls, setup: Setup) -> Setup:
        """No more cards dealt than the deck holds."""
        cards, count = hand_size(setup), len(setup.players)
        if cards * count > len(TAROT_78):
            raise SetupError(say("ca.too-many-cards", cards=cards, count=count), setup.record.header("Cards"))
        return setup

    # --- Events -----------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        verb = event.verb
        if verb != "drinks":
            self.catchable = None
        if not self.started and verb != "holds":
            self._start(event)
        if verb == "round":
            self._marker(event)
        else:
            self._handle(verb, self.seats[event.player], event)
        self.last_event = event

    def _handle(self, verb: str, seat: int, event: Event) -> None:
        """The event's handler, by verb, the most frequent first: called directly, not from a
        table of methods, so that compiled with mypyc each call stays a native one."""
        if verb == "plays":
            self._plays(seat, event)
        elif verb == "drinks":
            self._drinks(seat, event)
        elif verb == "takes":
            self._takes(seat, event)
        elif verb == "draws":
            self._draws(seat, event)
        elif verb == "discards":
            self._discards(seat, event)
        elif verb == "says":
            self._says(seat, event)
        elif verb == "votes":
            self._votes(seat, event)
        elif verb == "catches":
            self._catches(seat, event)
        elif verb == "holds":
            self._holds(seat, event)
        elif verb == "bids":
            self._bids(seat, event)
        elif verb == "passes":
            self._passes(seat, event)
        elif verb == "beats":
            self._beats(seat, event)
        elif verb == "refuses":
            self._refuses(seat, event)
        else:
            raise KeyError(verb)  # the grammar reads no other verb of the game (Caroleto.verbs)

    # The deal and the announcement.
    def _holds(self, seat: int, event: Event) -> None:
        if not self.started:
            return self._deal_line(seat, event)
        here = Places.seat(seat)
        if len(event.cards) != self.counts[seat]:
            self.flag("CA-HAND-SIZE", event, event.cards_column,
                      detail=said("ca.holds-count", player=event.player, count=len(event.cards), expected=self.counts[seat]))
            self.counts[seat] = len(event.cards)
        for i, card in enumerate(event.cards):
            if is_seen(card) and not self.places.may(card, here):
                self._misplaced(card, event, i)
        seen = [c for c in event.cards if is_seen(c)]
        if len(seen) == len(event.cards):
            self.places.only(here, seen)
        else:
            for card in seen:
                self.places.put(card, here)

    def _deal_line(self, seat: int, event: Event) -> None:
        if len(event.cards) != self.hand_size:
            self.flag("REC-BAD-DEAL", event, event.cards_column, count=len(event.cards), expected=self.hand_size)
        previous = self.dealt.get(seat)
        if previous is not None:
            for card in previous.cards:
                self.dealt_cards.pop(card, None)
        for i, card in enumerate(event.cards):
            if not is_seen(card):
                continue
            if card in event.cards[:i] or self.dealt_cards.get(card, seat) != seat:
                holder = self.players[self.dealt_cards.get(card, seat)]
                self.flag("REC-DUPLICATE-CARD", event, event.card_column(i), card=card, where=said("where.hand", player=holder))
            self.dealt_cards[card] = seat
        self.dealt[seat] = event
        self.counts[seat] = len(event.cards)

    def _start(self, event: Event) -> None:
        """At the first event after the deal lines: what they leave the unknown hands."""
        if self.started:
            return
        self.started = True
        self.stock = len(TAROT_78) - sum(self.counts)
        for seat, line in self.dealt.items():
            cards = [c for c in line.cards if is_seen(c)]
            if len(cards) == len(line.cards):
                self.places.only(Places.seat(seat), cards)
            else:
                for card in cards:
                    self.places.put(card, Places.seat(seat))
        if RS not in self.dealt_cards:
            self.places.limit(RS, self.places.hands)
            if not self.places.mask(RS):
                self.flag("CA-ROI-NOT-DEALT", event)
                self.places.put(RS, self.places.stock)

    def _says(self, seat: int, event: Event) -> None:
        word = _plain(event.word)
        if word == "roi":
            return self._announce(seat, event)
        if word not in ("double", "action", "verite"):
            self.flag("REC-UNSUPPORTED-EVENT", event, verb=f"says {event.word}")
            return
        r = self._effects(event)
        if word == "double":
            return self._double(seat, event, r)
        dare = next((d for d in r.dares if d.player == seat and d.choice is None and not d.refused), None) if r else None
        if dare is None:
            self.flag("CA-DARE-WRONG", event, why=self._no_dare(seat, r))
            return
        dare.choice = word

    def _announce(self, seat: int, event: Event) -> None:
        r = self.round
        if self.announced is not None:
            self.flag("CA-ROI-FALSE", event, why=said("ca.roi.again", holder=self.players[self.announced]))
            return
        if r is not None and (r.number > 1 or r.step > 0):
            return  # too late: the missing announcement was flagged when the round began
        if not self.places.may(RS, Places.seat(seat)):
            # the deal shows it false: not the announcement, which its holder still owes
            self.flag("CA-ROI-FALSE", event, why=said("ca.roi.dealt", where=self._where(RS)))
            return
        self.places.put(RS, Places.seat(seat))
        self.roi_by_announcement = RS not in self.dealt_cards
        if self.roi_by_announcement:
            self._note("ca.note.roi", event.line)
        self.announced = seat
        if r is not None and r.first is None:
            r.first = seat

    # Rounds.
    def _marker(self, event: Event) -> None:
        if self.round is not None:
            self._end(event)
        r = self._begin(event)
        if event.word is not None and whole(event.word) != r.number:
            self.flag("CA-ROUND-NUMBER", event, player=None, written=event.word, number=r.number)

    def _begin(self, event: Event) -> Round:
        number = len(self.done) + 1
        first = self.announced if number == 1 else self.next_first
        self.round = Round(self.players, number, first, self.seating.direction, all(c <= 1 for c in self.counts), event.line)
        self.counter["rounds"] += 1
        return self.round

    def _step(self, event: Event) -> Round:
        """The round an exchange, a draw or a card laid belongs to: the next one once
        every card of the current round is laid."""
        r = self.round
        if r is None or r.complete(self.counts):
            if r is not None:
                self._end(event)
            r = self._begin(event)
        if r.number == 1 and self.announced is None and not self.announce_flagged:
            self.announce_flagged = True
            mask = self.places.mask(RS)
            known = mask & self.places.hands and not mask & (mask - 1)  # a single hand
            why = said("ca.roi.holder", holder=self._where(RS)) if known else said("ca.roi.nobody")
            self.flag("CA-ROI-UNANNOUNCED", event, player=None, why=why)
        return r

    def _effects(self, event: Event) -> Round | None:
        """The current round, its effects set out once every card is laid (step 4)."""
        r = self.round
        if r is not None and not r.closed and r.complete(self.counts):
            self._close(event)
        return r

    def _end(self, event: Event) -> None:
        """The round is over (the next one begins): what it left unsettled, the drinks it
        did not write, then its cards to the discard and the Dames' reversal."""
        r = self.round
        assert r is not None  # called while a round goes on
        if not r.closed and (r.plays or r.complete(self.counts)):
            self._close(event)
        for seat, name in enumerate(self.players):
            if seat not in r.played and self.counts[seat]:
                self.flag("CA-UNSETTLED", event, player=name, number=r.number, what=said("ca.pending.lay", players=name))
        for code, player, what in self._pending(r):
            self.flag(code, event, player=player, number=r.number, what=what,
                      detail=said("ca.unsettled", number=r.number, what=what))
        if r.writes or self.every_round:
            self._missing_drinks(r, event)
        for card in r.table:
            if is_seen(card):
                self.discard.append(card)
            else:
                self.discard_unseen += 1
        self.places.move_all(self.places.table, self.places.discard)
        if sum(p.kind == "dame" for p in r.plays) % 2:
            self.seating.reverse()
            self.turned_in = r.number
        self.next_first = (r.first + self.seating.direction) % self.n if r.first is not None else None
        self.done.append(r)
        self.round = None

    # Step 1: the exchange.
    def _discards(self, seat: int, event: Event) -> None:
        r = self._step(event)
        if r.step > 1:
            self.flag("CA-EXCHANGE-LATE", event, why=said("ca.step.draw" if r.step == 2 else "ca.step.reveal"))
        r.step = max(r.step, 1)
        for i, card in enumerate(event.cards):
            if seat in r.exchanged:
                self.flag("CA-EXCHANGE-TWICE", event, event.card_column(i))
            if card == RS:
                self.flag("CA-ROI-EXCHANGED", event, event.card_column(i))
                self.roi_flagged = True
            if self._from_hand(seat, card, event, i, self.places.discard):
                self._to_discard(card)
            r.exchanged.add(seat)
            r.exchange_owed[seat] = r.exchange_owed.get(seat, 0) + 2
            self.counter["exchanges"] += 1

    # Step 2: the draw from a neighbour; and the bouts' take from the discard.
    def _takes(self, seat: int, event: Event) -> None:
        if event.target is None:
            return self._bout_take(seat, event)
        r = self._step(event)
        source = self.seats[event.target]
        if r.step > 2:
            self.flag("CA-DRAW-LATE", event)
        elif r.last:
            self.flag("CA-DRAW-LAST-ROUND", event)
        else:
            why = self._draw_order(r, seat, source)
            if why:
                self.flag("CA-DRAW-ORDER", event, why=why)
        r.step = max(r.step, 2)
        if r.first is None:
            r.first = seat
        if seat not in r.drawn:
            r.drawn.append(seat)
        for i, card in enumerate(event.cards or (UNSEEN_CARD,)):
            if self._from_hand(source, card, event, i, Places.seat(seat)):
                self.counts[seat] += 1

    def _draw_order(self, r: Round, seat: int, source: int) -> Said | str:
        """Why this take breaks the order of the draw (empty when it does not)."""
        if seat in r.drawn:
            return said("ca.draw.twice", player=self.players[seat])
        expected = self._next_drawer(r)
        if expected is not None and seat != expected:
            side = said("ca.side.left" if r.direction == 1 else "ca.side.right")
            if r.first is None or r.first == expected:
                return said("ca.draw.turn-first", player=self.players[expected], number=r.number)
            return said("ca.draw.turn", player=self.players[expected], side=side, first=self.players[r.first])
        behind = (seat - r.direction) % self.n
        if source != behind:
            side = said("ca.side.right" if r.direction == 1 else "ca.side.left")
            return said("ca.draw.neighbour", player=self.players[seat], source=self.players[source], side=side,
                       neighbour=self.players[behind])
        return ""

    def _bout_take(self, seat: int, event: Event) -> None:
        r = self.round
        state = r.bouts.get(seat) if r is not None else None
        if r is None or state != "take" or r.closed:  # no round: no bout (state None)
            why = "ca.bout.late" if state in ("take", "missed") else "ca.bout.none" if state is None else "ca.bout.again"
            self.flag("CA-BOUT-TAKE", event, why=said(why, player=event.player))
            return
        card = event.cards[0] if event.cards else UNSEEN_CARD
        for i in range(1, len(event.cards)):
            self.flag("CA-BOUT-TAKE", event, event.card_column(i), why=said("ca.bout.one", player=event.player))
        if is_seen(card) and not self.places.may(card, self.places.discard):
            self.flag("CA-BOUT-TAKE", event, event.cards_column, why=said("ca.bout.not-there", card=card, where=self._where(card)))
        elif card in self.discard:
            self.discard.remove(card)
        elif self.discard_unseen:
            self.discard_unseen -= 1
        if is_seen(card):
            self.places.put(card, Places.seat(seat))
        else:
            self.places.spread(self.places.discard, Places.seat(seat))
        self.counts[seat] += 1
        r.bouts[seat] = card

    # Draws from the stock: the exchange's two cards, the 9's, the ace's refill.
    def _draws(self, seat: int, event: Event) -> None:
        r = self.round
        if r is not None and not r.exchange_owed.get(seat):
            self._effects(event)
        for i, card in enumerate(event.cards or (UNSEEN_CARD,)):
            what = self._draw_kind(r, seat)
            if what is None:
                bid = r is not None and any(seat in b.bids for b in r.biddings)
                if bid:
                    self.flag("CA-HAND-SIZE", event, event.card_column(i), detail=said("ca.refill.more", player=event.player))
                else:
                    self.flag("CA-DRAW-UNDUE", event, event.card_column(i))
            self._draw(seat, card, what, r, event, i)

    def _draw(self, seat: int, card: Card, what: str | None, r: Round | None, event: Event, index: int) -> None:
        if not self._refresh_stock(event, index):
            return
        self.stock -= 1
        if is_seen(card) and not self.places.may(card, self.places.stock):
            if card == RS and not self.places.may(RS, self.places.stock) and RS not in self.dealt_cards:
                self.flag("CA-ROI-NOT-DEALT", event, event.card_column(index))
            else:
                self._misplaced(card, event, index)
        if what in ("exchange-up", "nine"):
            if is_seen(card):
                self.places.put(card, self.places.discard)
            else:
                self.places.spread(self.places.stock, self.places.discard)
            self._to_discard(card)
        else:
            self.counts[seat] += 1
            if is_seen(card):
                self.places.put(card, Places.seat(seat))
            else:
                self.places.spread(self.places.stock, Places.seat(seat))
        if what is None:
            return
        assert r is not None  # what the card is for comes from the round
        if what.startswith("exchange"):
            r.exchange_owed[seat] -= 1
            if not r.exchange_owed[seat]:
                del r.exchange_owed[seat]
            if what == "exchange-up":
                self._face_up(seat, card, partial(said, "ca.cause.exchange", card=card), r, event, "exchange")
        elif what == "nine":
            owed = r.nine_draws.pop(next(i for i, d in enumerate(r.nine_draws) if d.drawer == seat))
            self._face_up(seat, card, partial(_nine_cause, self.players, card, owed), r, event, "nine")
        else:
            r.refill[seat] -= 1
            if not r.refill[seat]:
                del r.refill[seat]

    def _face_up(self, seat: int, card: Card, cause: Cause, r: Round, event: Event, rule: str) -> None:
        """A card drawn face up: its maximum effect, on its drawer (``cause`` worded when
        the drinks are told)."""
        if not is_seen(card):
            return self._note("ca.note.unseen-draw", event.line)
        found = maximum(card, self.n)
        if found is not None:
            r.give(seat, found[0], found[1], cause, event.line, rule)

    def _refresh_stock(self, event: Event, index: int) -> bool:
        """A card can be drawn: the stock has one, or the discard is shuffled into a new
        stock; else CA-STOCK-EMPTY."""
        if self.stock > 0:
            return True
        if self.discard or self.discard_unseen:
            self.stock = len(self.discard) + self.discard_unseen
            self.discard, self.discard_unseen = [], 0
            self.places.empty(self.places.stock)  # the new stock is the discard's cards, and no other
            self.places.move_all(self.places.discard, self.places.stock)
            self.counter["reshuffles"] += 1
            return True
        self.flag("CA-STOCK-EMPTY", event, event.card_column(index))
        return False

    # Step 3: the cards laid.
    def _plays(self, seat: int, event: Event) -> None:
        r = self.round
        if r is not None and isinstance(r.bouts.get(seat), Card):
            return self._use(seat, event, r)
        r = self._step(event)
        if seat in r.played:
            for i, card in enumerate(event.cards):
                self.flag("CA-PLAYED-TWICE", event, event.card_column(i), card=card)
                if self._from_hand(seat, card, event, i, self.places.table):
                    r.table.append(card)
            return
        missing = self._undrawn(r)
        if missing:
            self.flag("CA-DRAW-MISSING", event, player=None, players=listed(self.players[s] for s in missing))
        r.step = 3
        self._lay(seat, event, r, used=False)

    def _use(self, seat: int, event: Event, r: Round) -> None:
        """The card a bout took from the discard, used at once."""
        taken = r.bouts[seat]
        assert isinstance(taken, Card)  # _plays calls it for a card taken
        if is_seen(taken) and event.cards[0] != taken:
            self.flag("CA-BOUT-TAKE", event, event.cards_column, why=said("ca.bout.use", player=event.player, card=taken))
        self._lay(seat, event, r, used=True)

    def _lay(self, seat: int, event: Event, r: Round, used: bool) -> None:
        card = event.cards[0]
        target = self.seats[event.target] if event.target is not None else None
        if card == RS and not used and self.counts[seat] > 1:
            self.flag("CA-ROI-EARLY", event, event.cards_column,
                      why=said("ca.roi.early.play", player=event.player, count=self.counts[seat] - 1))
            self.roi_flagged = True
        if self._from_hand(seat, card, event, 0, self.places.table):
            r.table.append(card)
        sort = KIND.get(card, "unseen")
        if not is_seen(card):
            self._note("ca.note.unseen-play", event.line)
        play = Play(seat, card, sort, self._check_target(seat, card, sort, target, event), event.line, used)
        r.plays.append(play)
        r.played.add(seat)
        self.counter["cards_played"] += 1
        if sort == "bout":
            r.bouts[seat] = "take"
        elif used:
            r.bouts[seat] = "done"
        if sort == "roi-de-pique":
            self.roi_played = True
        elif sort == "cavalier":
            self.standing.append(play)
        elif sort == "six" and play.target is not None:
            agreed = next((p for p in r.plays if p.kind == "six" and p.target is not None and p is not play), None)
            if agreed is not None and agreed.target is not None and agreed.target != play.target:
                self.flag("CA-SIX-TARGETS", event, event.cards_column, target=self.players[play.target],
                          other=self.players[agreed.seat], agreed=self.players[agreed.target])
        for i in range(1, len(event.cards)):
            self.flag("CA-PLAYED-TWICE", event, event.card_column(i), card=event.cards[i])
            if self._from_hand(seat, event.cards[i], event, i, self.places.table):
                r.table.append(event.cards[i])
        if not r.closed and r.complete(self.counts) and not self._bouts_open(r):
            self._close(event)

    def _check_target(self, seat: int, card: Card, sort: str, target: int | None, event: Event) -> int | None:
        """The player the card's line may name, checked; the target to follow."""
        column = event.cards_column
        if sort in TARGETED:
            if target is None:
                self.flag("CA-NO-TARGET", event, column, card=card)
            elif target == seat:
                self.flag("CA-TARGET-SELF", event, column, card=card)
            elif sort == "sips" and card.suit in RED and target not in self.seating.neighbours(seat):
                self.flag("CA-TARGET-NEIGHBOUR", event, column, card=card, target=event.target,
                          neighbours=listed((self.players[s] for s in sorted(set(self.seating.neighbours(seat)))), "or"))
            return target
        if sort == "redirect" and target == seat:
            self.flag("CA-TARGET-SELF", event, column, card=card)
            return None
        if sort in ("six", "redirect", "unseen"):
            return target
        if target is not None:
            self.flag("CA-TARGET-GENERAL", event, column, card=card, target=event.target)
        return None

    def _close(self, event: Event | None) -> None:
        """The cards are laid: the general effects, then the targeted ones, in the order
        of docs/games/caroleto.md; what step 4 must settle is set out."""
        r = self.round
        event = event or self.last_event
        assert r is not None and event is not None  # a round whose cards are laid: some event laid them
        r.closed = True
        for seat, state in list(r.bouts.items()):
            if isinstance(state, Card):
                self.flag("CA-BOUT-TAKE", event, player=self.players[seat],
                          why=said("ca.bout.unused", player=self.players[seat], card=state))
            r.bouts[seat] = "missed" if state == "take" else "done"
        trumps: dict[int, Play] = {}
        for p in r.plays:
            if p.kind in ("back", "redirect"):
                trumps.setdefault(p.seat, p)
        for p in r.plays:
            if p.kind == "roi":
                self.central = min(3, self.central + 1)
        for p in r.plays:
            if p.kind == "roi-de-pique" and self.central:
                thirds = self.central
                r.give(p.seat, thirds / 3, "central", partial(_central_cause, self.players, thirds, p), p.line, "roi")
                self.central = 0
        designated = self._sixes(r, event)
        for p in r.plays:
            if p.kind == "seven":
                base = Once(partial(card_cause, self.players, p))
                for k in range(self.n):
                    seat = (p.seat + k * r.direction) % self.n
                    r.give(seat, k + 1, "sips", partial(_seven_cause, self.players, base, k, seat, r.direction, self.turned_in),
                           p.line, "seven")
            elif p.kind == "nine":
                for k in range(1, self.n):
                    other = (p.seat + k * r.direction) % self.n
                    drawer, answer = self._aim(p, other, trumps)
                    r.nine_draws.append(NineDraw(drawer, other, p, answer))
            elif p.kind == "ace":
                r.biddings.append(Bidding(p, (p.seat + r.direction) % self.n))
        aimed = {p.target for p in r.plays if p.kind in TARGETED} | {d.place_of for d in r.nine_draws}
        for p in r.plays:
            if p.kind not in TARGETED or p.target is None:
                continue
            p.final, p.answer = self._aim(p, p.target, trumps)
            cause = partial(card_cause, self.players, p)
            if p.kind == "sips":
                r.give(p.final, p.card.rank, "sips", cause, p.line, "red" if p.card.suit in RED else "black")
            elif p.kind == "eight":
                r.dares.append(Dare(p, p.final))
            elif p.kind == "ten" and p.final == p.seat:
                r.give(p.seat, 2, "sips", partial(_card_in, "ca.cause.no-duel", self.players, p), p.line, "ten")
            elif p.kind == "ten":
                r.duels.append(Duel(p, frozenset({p.seat, p.final}), cause))
                self.counter["duels"] += 1
            else:
                voters = frozenset(range(self.n)) - {p.final}
                r.dossiers.append(Dossier(p, p.final, voters, cause))
                self.counter["dossiers"] += 1
        for seat, trump in trumps.items():
            if trump.kind == "redirect" and trump.target is not None and seat in designated and seat not in aimed:
                self.flag("CA-TRUMP-ON-SIX", event, player=self.players[seat],
                          why=said("ca.six.redirect", player=self.players[seat], trump=trump.card))
        if not self._cards_left() and not self.roi_played and not self.roi_flagged:
            self.roi_flagged = True
            self.flag("CA-ROI-CHEAT", event, player=None)

    def _sixes(self, r: Round, event: Event) -> set[int]:
        """The 6s of the round, counted together: whom they designate (everyone for four)."""
        sixes = [p for p in r.plays if p.kind == "six"]
        if not sixes:
            return set()
        cause = Once(partial(_sixes_cause, self.players, sixes))
        if len(sixes) >= 4:
            for seat in range(self.n):
                r.give(seat, 1, "up", cause, sixes[0].line, "six-count")
                r.six_drinks.add((seat, "up"))
            return set(range(self.n))
        named = next((p.target for p in sixes if p.target is not None), None)
        if named is None:
            self.flag("CA-NO-TARGET", event, player=self.players[sixes[0].seat], card=sixes[0].card)
            return set()
        amount, unit = SIXES[len(sixes)]
        r.give(named, amount, unit, cause, sixes[0].line, "six-count")
        r.six_drinks.add((named, unit))
        return {named}

    @staticmethod
    def _aim(play: Play, target: int, trumps: dict[int, Play]) -> tuple[int, Play | None]:
        """Who an effect aimed at ``target`` falls on once their trump has answered, and
        the trump that answered (None when none did): worded with the cause (``_how``)."""
        trump = trumps.get(target)
        if trump is None or target == play.seat:
            return target, None
        if trump.kind == "back":
            return play.seat, trump
        if trump.target is None:
            return target, None
        return trump.target, trump

    # The ace's bidding.
    def _bids(self, seat: int, event: Event) -> None:
        r = self._effects(event)
        for i, card in enumerate(event.cards):
            b = r.bidding() if r is not None else None
            why = self._bid_turn(b, seat)
            if why:
                self.flag("CA-BID-TURN", event, event.card_column(i), why=why)
                return
            assert r is not None and b is not None  # _bid_turn says why when no bidding goes on
            if card == RS:
                self.flag("CA-ROI-EARLY", event, event.card_column(i), why=said("ca.roi.early.bid", player=event.player))
                self.roi_flagged = True
            if not self._from_hand(seat, card, event, i, self.places.table):
                return
            r.table.append(card)
            b.bids[seat] = b.bids.get(seat, 0) + 1
            self.counter["bids"] += 1
            suit = b.play.card.suit
            if is_seen(card) and is_trump(card):
                self._bid_end(r, b, cut=card)
                continue
            if is_seen(card) and card.suit != suit:
                self.flag("CA-BID-SUIT", event, event.card_column(i), card=card, suit=said(f"ca.suit.{suit}"))
            elif is_seen(card) and card.rank <= b.bar:
                self.flag("CA-BID-LOW", event, event.card_column(i), card=card, bar=self._bar(b))
            if is_seen(card) and card.suit == suit:
                b.bar = max(b.bar, card.rank)
            b.position += 1
            b.bidder = (b.bidder + r.direction) % self.n

    def _passes(self, seat: int, event: Event) -> None:
        r = self._effects(event)
        b = r.bidding() if r is not None else None
        why = self._bid_turn(b, seat)
        if why:
            self.flag("CA-BID-TURN", event, why=why)
            return
        assert r is not None and b is not None  # _bid_turn says why when no bidding goes on
        higher = [c for c in self.places.sure(Places.seat(seat)) if c.suit == b.play.card.suit and c.rank > b.bar and c != RS]
        if higher:
            self.flag("CA-BID-STOP", event, card=higher[0], bar=self._bar(b))
        elif len(self.places.sure(Places.seat(seat))) < self.counts[seat]:
            self._note("ca.note.pass", event.line)
        self._bid_end(r, b, cut=None, held=higher[0] if higher else None)

    def _bid_turn(self, b: Bidding | None, seat: int) -> Said | str:
        if b is None:
            return said("ca.bid.none")
        if seat != b.bidder:
            assert self.round is not None  # a bidding belongs to the round
            side = said("ca.side.left" if self.round.direction == 1 else "ca.side.right")
            return said("ca.bid.turn", player=self.players[b.bidder], side=side, card=b.play.card,
                       ace=self.players[b.play.seat])
        return ""

    def _bid_end(self, r: Round, b: Bidding, cut: Card | None, held: Card | None = None) -> None:
        """The bidding ends with this bidder: cut with a trump, blocked, or (``held``) a
        pass while holding a higher card, which drinks as blocked."""
        b.over = True
        key = "ca.cause.cut" if cut is not None else "ca.cause.passed" if held is not None else "ca.cause.blocked"
        position = b.position
        r.give(b.bidder, 2 ** position, "sips", partial(_bid_cause, self.players, key, b.play, position, cut, held),
               b.play.line, "ace-cut" if cut is not None else "ace-count")
        for seat, count in b.bids.items():
            r.refill[seat] = r.refill.get(seat, 0) + count
        self.counter["biddings"] += 1

    # The duel, the dare, the dossier, the standing rules.
    def _beats(self, seat: int, event: Event) -> None:
        r = self._effects(event)
        assert event.target is not None  # the grammar gives « beats » its player
        other = self.seats[event.target]
        duel = next((d for d in r.duels if d.waiting and d.players == {seat, other}), None) if r else None
        if duel is None:
            self.flag("CA-DUEL-WRONG", event, why=said("ca.duel.none", player=event.player, other=event.target))
            return
        self.duel_rounds += 1
        duel.loser, duel.waiting, duel.lost_at = other, False, self.duel_rounds

    def _double(self, seat: int, event: Event, r: Round | None) -> None:
        lost = [d for d in r.duels if not d.waiting and d.loser == seat] if r else []
        open_ = [d for d in lost if not d.drank]
        duel = max(open_, key=lambda d: d.lost_at) if open_ else None  # the last round lost
        if duel is None:
            why = "ca.duel.drank" if lost else "ca.duel.not-lost"
            self.flag("CA-DUEL-WRONG", event, why=said(why, player=event.player))
            return
        if duel.stake >= 8:
            self.flag("CA-DOUBLE-PAST-8", event)
            return
        duel.stake *= 2
        duel.loser, duel.waiting = None, True

    def _refuses(self, seat: int, event: Event) -> None:
        r = self._effects(event)
        dare = next((d for d in r.dares if d.player == seat and not d.refused), None) if r else None
        if dare is None:
            self.flag("CA-DARE-WRONG", event, why=self._no_dare(seat, r))
            return
        assert r is not None  # a dare belongs to the round
        dare.refused = True
        r.give(seat, 1, "glass", partial(_card_in, "ca.cause.refused", self.players, dare.play), dare.play.line, "eight-refused")

    def _no_dare(self, seat: int, r: Round | None) -> Said:
        return said("ca.dare.none", player=self.players[seat])

    def _votes(self, seat: int, event: Event) -> None:
        word = _plain(event.word)
        if word not in ("pourri", "bon"):
            self.flag("REC-UNSUPPORTED-EVENT", event, verb=f"votes {event.word}")
            return
        r = self._effects(event)
        open_ = [d for d in r.dossiers if not d.complete] if r else []
        dossier = next((d for d in open_ if seat in d.voters and seat not in d.votes), None)
        if dossier is None:
            told = [d for d in r.dossiers if d.teller == seat] if r else []
            voted = any(seat in d.votes for d in r.dossiers) if r else False
            why = "ca.vote.teller" if told and not voted else "ca.vote.again" if voted else "ca.vote.none"
            self.flag("CA-VOTE-WRONG", event, why=said(why, player=event.player))
            return
        dossier.votes[seat] = word == "pourri"

    def _catches(self, seat: int, event: Event) -> None:
        r = self.round
        if not self.standing or r is None:
            self.flag("CA-CATCH-NO-RULE", event)
            return
        assert event.target is not None  # the grammar gives « catches » its player
        caught = self.seats[event.target]
        rules = listed(p.card for p in self.standing)
        r.give(caught, 1, "sips", said("ca.cause.catch", player=event.player, rules=rules), event.line, "cavalier")
        r.caught.add(caught)
        self.counter["catches"] += 1

    # The drinks written.
    def _drinks(self, seat: int, event: Event) -> None:
        r = self._effects(event)
        word = event.word
        assert word is not None  # the grammar gives « drinks » its amount
        amount: Amount
        sips = whole(word)  # the reader let through a number of gorgées of at most MAX_SIPS
        unit, amount = ("sips", sips) if sips is not None else (word, 1)
        # the drink as written, in words (self._written(event)), is worded only for a flag
        if r is None:
            self.flag("CA-DRINK-UNDUE", event, why=said("ca.drink.no-round", player=event.player, written=self._written(event)))
            return
        r.writes = True
        owed = r.owed(seat, unit)
        if unit == "central":
            amount = max(owed, 0)
        if owed > EPSILON and not 0 < amount <= owed + EPSILON:  # too much, or nothing (« drinks 0 ») where some is owed
            self.flag("CA-DRINK-WRONG", event, rule=r.rule_of(seat, unit),
                      why=said("ca.drink.more", player=event.player, written=self._written(event), owed=self._amount(owed, unit),
                              causes=self._causes(r, seat, [unit])))
        elif owed <= EPSILON:
            others = [u for u in UNITS if u != unit and r.owed(seat, u) > EPSILON]
            if others:
                self.flag("CA-DRINK-WRONG", event, rule=r.rule_of(seat, others[0]),
                          why=said("ca.drink.more", player=event.player, written=self._written(event),
                                  owed=listed(self._amount(r.owed(seat, u), u) for u in others), causes=self._causes(r, seat, others)))
            else:
                self.flag("CA-DRINK-UNDUE", event, rule=r.rule_of(seat, unit),
                          why=self._nothing_owed(r, seat, unit, self._written(event)))
        r.written[(seat, unit)] = r.written.get((seat, unit), 0) + amount
        if unit == "sips" and r.duels:
            self._duels_drunk(r, seat)
        self.catchable = seat

    def _causes(self, r: Round, seat: int, units: list[str]) -> Listed:
        """Why the round gives a player drinks of these units, in words."""
        return clauses([cause for s, _, unit, cause, _ in r.causes() if s == seat and unit in units])

    def _nothing_owed(self, r: Round, seat: int, unit: str, written: Said | str) -> Said:
        """A drink written when nothing is owed: what the round gave and was drunk
        already, or that it gave nothing."""
        name = self.players[seat]
        if not r.closed:
            return said("ca.drink.early", player=name, written=written, number=r.number)
        given = r.totals().get((seat, unit), 0)
        if given <= EPSILON:
            return said("ca.drink.nothing", player=name, written=written, number=r.number, none=said(f"ca.drink.none.{unit}"))
        return said("ca.drink.drunk", player=name, written=written, number=r.number, given=self._amount(given, unit),
                   causes=self._causes(r, seat, [unit]))

    @staticmethod
    def _duels_drunk(r: Round, seat: int) -> None:
        """The duels the seat lost and has now drunk for: only the gorgées written past
        what the seat owes for everything else (so a « double » may follow a drink for
        another card)."""
        lost = [d for d in r.duels if d.loser == seat and not d.waiting]
        other = r.given.get((seat, "sips"), 0) + sum(d.stake for d in lost if d.drank)
        for duel in lost:
            if not duel.drank and r.written.get((seat, "sips"), 0) > other + EPSILON:
                duel.drank = True
                other += duel.stake

    def _missing_drinks(self, r: Round, event: Event) -> None:
        """At the round's end: each drink the round gave and the record did not write."""
        for code, fields in self._missing_drink_codes(r):
            self.flag(code, event, **fields)

    def _written(self, event: Event) -> Said:
        word = event.word
        assert word is not None  # the grammar gives « drinks » its amount
        sips = whole(word)
        return self._amount(sips, "sips") if sips is not None else self._amount(1, word) if word != "central" else said("ca.drink.central")

    # --- Cards moving -------------------------------------------------------------------
    def _from_hand(self, seat: int, card: Card, event: Event, index: int, destination: int) -> bool:
        """A card leaves a hand for the destination, checked against what is known of the
        hand; False when the hand has no card left."""
        if self.counts[seat] <= 0:
            self.flag("CA-HAND-SIZE", event, event.card_column(index), player=self.players[seat],
                      detail=said("ca.no-card", player=self.players[seat]))
            return False
        places = self.places
        if is_seen(card):
            at = places.index[card]
            if not places.masks[at] & (1 << seat):
                self._misplaced(card, event, index)
            places.masks[at] = destination
        else:
            places.spread(1 << seat, destination)
        self.counts[seat] -= 1
        return True

    def _to_discard(self, card: Card) -> None:
        if is_seen(card):
            self.discard.append(card)
        else:
            self.discard_unseen += 1

    def _misplaced(self, card: Card, event: Event, index: int) -> None:
        if card == RS and self.roi_by_announcement and self.announced is not None:
            self.flag("CA-ROI-FALSE", event, event.card_column(index),
                      why=said("ca.roi.moved", holder=self.players[self.announced], player=event.player))
            self.roi_by_announcement = False
        else:
            self.flag("REC-DUPLICATE-CARD", event, event.card_column(index), card=card, where=self._where(card))

    def _where(self, card: Card) -> Said | Listed:
        """Where a card may be, in words."""
        mask = self.places.mask(card)
        if mask == self.places.table:
            return said("where.played")
        seats = [self.players[s] for s in range(self.n) if mask & Places.seat(s)]
        parts = [said("where.hand", player=listed(seats, "or"))] if seats else []
        parts += [said(key) for bit, key in ((self.places.stock, "ca.where.stock"), (self.places.discard, "ca.where.discard"))
                  if mask & bit]
        return listed(parts, "or") if parts else said("ca.where.nowhere")

    def _note(self, key: str, line: int) -> None:
        """A note on what could not be checked, one per kind, listing its lines."""
        at, lines = self._noted.get(key, (len(self.notes), []))
        if len(lines) > NOTED_LINES:
            return
        lines.append(line)
        shown = listed(lines) if len(lines) <= NOTED_LINES else together(", ".join(map(str, lines[:NOTED_LINES])), said("ca.note.more"))
        text = said(key, lines=shown, count=len(lines))
        if key in self._noted:
            self.notes[at] = text
        else:
            self.notes.append(text)
            self._noted[key] = (at, lines)

    # --- What is settled once the record is over --------------------------------------
    def _close_due(self) -> bool:
        """A round's cards are all laid and its close is still to come (no bout's use awaited)."""
        r = self.round
        return r is not None and not r.closed and r.complete(self.counts) and self.started and not self._use_awaited(r)

    def _settle_view(self) -> None:
        """Once the record is over: the effects of a round whose cards are all laid."""
        if self._close_due():
            self._close(None)

    @staticmethod
    def _use_awaited(r: Round) -> bool:
        """A bout has just taken a card from the discard: its use is still to come."""
        return any(isinstance(state, Card) for state in r.bouts.values())

    # --- Reporting ----------------------------------------------------------------------
    def over(self, event: Event | None = None) -> bool:
        r = self.round
        if r is None or self._cards_left() or not r.complete(self.counts):
            return False
        if event is None:
            return self._finished()
        starts = event.verb in ("round", "discards") or (event.verb == "takes" and event.target is not None)
        if event.verb == "plays":
            starts = not isinstance(r.bouts.get(self.seats[event.player]), Card)
        if starts and not r.closed:
            self._close(event)
        return starts

    def _view(self) -> Caroleto:
        """What a view reads (the table, the to-do, the result, the drinks): the game, or,
        when a round's cards are all laid and its close is still to come, a copy of it
        with that round closed as the record's end closes it (``settle``). Looking never
        changes the game: the next event may still close the round its own way (a bout
        taking a card from the discard)."""
        if not self._close_due():
            return self
        view = copy.deepcopy(self, {id(self.setup): self.setup})
        view._close(None)
        return view

    def result(self) -> Result:
        return Result(self._view()._finished())

    def conclude(self) -> None:
        self._settle_view()

    def settle(self) -> None:
        self._settle_view()

    def todo(self) -> list[Said]:
        view = self._view()
        if view is not self:
            return view.todo()
        if self._finished():
            return []
        r = self.round
        if self.announced is None and (r is None or (r.number == 1 and r.step == 0)):
            return [said("ca.todo.announce")]
        if r is None:
            return [self._next_todo()]
        things = [what for _, _, what in self._pending(r) if r.exchange_owed]
        if not r.complete(self.counts):
            expected = self._next_drawer(r)
            if self._undrawn(r):
                source = self.players[(expected - r.direction) % self.n] if expected is not None else ""
                things.append(said("ca.todo.draw", player=self.players[expected], source=source) if expected is not None
                              else said("ca.todo.draw-any"))
            else:
                waiting = [p for s, p in enumerate(self.players) if s not in r.played and self.counts[s]]
                things.append(say_players("ca.todo.lay", waiting))
        for seat, state in r.bouts.items():
            if state == "take" and not r.closed and self._bouts_open(r):
                things.append(said("ca.todo.bout", player=self.players[seat]))
            elif isinstance(state, Card):
                things.append(said("ca.todo.use", player=self.players[seat], card=state))
        things += [what for _, _, what in self._pending(r) if what not in things]
        things += [said("ca.todo.drink", player=self.players[s], amount=self._amount(a, u)) for s, u, a in self._owed_drinks(r)]
        if not things:
            things.append(self._next_todo())
        return things

    def _next_todo(self) -> Said:
        """What begins the next round: its first draw, or in the last round the cards."""
        nr = next_round(self)
        if nr.last:
            waiting = [p for s, p in enumerate(self.players) if self.counts[s]]
            return say_players("ca.todo.round-lay", waiting, number=nr.number)
        drawer = self._next_drawer(nr)
        if drawer is None:
            return said("ca.todo.round-any", number=nr.number)
        source = self.players[(drawer - nr.direction) % self.n]
        return said("ca.todo.round-draw", number=nr.number, player=self.players[drawer], source=source)

    def stats(self) -> dict[str, int]:
        return dict(self.counter)

    def tallies(self) -> dict[str, dict[str, Amount]]:
        """Drinks by player and unit, added up without wording their causes."""
        view = self._view()
        if view is not self:
            return view.tallies()
        totals: dict[str, dict[str, Amount]] = {}
        for r in self.done + ([self.round] if self.round is not None else []):
            for (seat, unit), amount in r.totals().items():
                units = totals.setdefault(self.players[seat], {})
                units[unit] = units.get(unit, 0) + amount
        return totals

    def drunk(self) -> dict[str, dict[str, Amount]]:
        """The drinks the record wrote, by player and unit (the central glass as written
        against what it held)."""
        totals: dict[str, dict[str, Amount]] = {}
        for r in [*self.done, *([self.round] if self.round is not None else [])]:
            for (seat, unit), amount in r.written.items():
                units = totals.setdefault(self.players[seat], {})
                units[unit] = units.get(unit, 0) + amount
        return totals

    def drunk_rounds(self) -> dict[int, dict[str, dict[str, Amount]]]:
        """The drinks the record wrote in each round whose drinks it writes (one that wrote
        any, or every round past with [Drinks "all"]), by round number, player and unit."""
        found: dict[int, dict[str, dict[str, Amount]]] = {}
        for r in [*self.done, *([self.round] if self.round is not None else [])]:
            if not (r.writes or (self.every_round and r is not self.round)):
                continue
            drank = found.setdefault(r.number, {})
            for (seat, unit), amount in r.written.items():
                units = drank.setdefault(self.players[seat], {})
                units[unit] = units.get(unit, 0) + amount
        return found

    def drinks(self) -> list[Drink]:
        view = self._view()
        if view is not self:
            return view.drinks()
        rounds = self.done + ([self.round] if self.round is not None else [])
        return [d for r in rounds for d in r.drinks()]

    def table(self) -> Table:
        view = self._view()
        if view is not self:
            return view.table()
        r = self.round
        hands = {p: Hand(self.counts[s], self.places.sure(Places.seat(s))) for s, p in enumerate(self.players)}
        extra = {say("ca.state.round"): str(r.number if r else len(self.done)), say("ca.state.central"): f"{self.central}/3"}
        if self.standing:
            extra[say("ca.state.standing")] = join(str(p.card) for p in self.standing)
        owing = all_owed(r) if r and r.closed else []  # the table shows what is owed, written or not
        owed = [say("ca.todo.drink", player=self.players[s], amount=self._amount(a, u)) for s, u, a in owing]
        direction = self.seating.direction
        if r is not None and r.closed and not self._finished() and self.todo() == [self._next_todo()]:
            direction = next_round(self).direction  # the round is over: its Dames have turned the table
        return Table(None, direction, hands, {say("ca.state.discard"): list(self.discard), say("ca.state.table"): list(r.table) if r else []},
                     self.stock, owed, {}, extra)

    def ruling(self, event: Event) -> str | None:
        return ruling(self, event)

    # --- The simulator ------------------------------------------------------------------
    @classmethod
    def deal(cls, deck: list[Card], setup: Setup) -> Deal:
        """« vous le mettez de côté, comptez le nombre de cartes nécessaires - 1 et vous
        rajoutez le roi de pique »: the Roi de pique always among the hands."""
        n, size = len(setup.players), hand_size(setup)
        cards = [c for c in deck if c != RS][: n * size - 1]
        cards.insert(deck.index(RS) % (n * size), RS)
        return Deal([cards[(seat - setup.first) % n::n] for seat in range(n)])

    # Rules.public is a classmethod: the other games write an event hidden from the event
    # alone; Caroleto needs the table (is this draw face up?), so its public is the
    # instance's, which simulate calls. An override the base class's signature cannot say.
    def public(self, event: Event) -> Event | None:  # type: ignore[override]
        """As a table that sees no hand writes it: no deal, a card taken from a neighbour
        or drawn face down is ??. Asked before the event is applied."""
        if event.verb == "holds":
            return None
        hidden = 0
        if event.verb == "takes" and event.target is not None:
            hidden = len(event.cards) or 1
        elif event.verb == "draws" and self._draw_kind(self.round, self.seats[event.player]) not in ("exchange-up", "nine"):
            hidden = len(event.cards) or 1
        if not hidden:
            return event
        return event.replace(cards=(UNSEEN_CARD,) * hidden, cards_text=" ".join(["??"] * hidden))

    def legal(self) -> list[Legal]:
        return list(legal(self))  # a list of events is no list[Legal] to mypy (lists are invariant): a copy

    def choices(self) -> list[Legal]:
        return [e for e in legal(self) if not simulator_leaves_aside(self, e)]

    def mistakes(self, hidden: bool = False) -> list[Mistake]:
        return mistakes(self, hidden)


RULES_CLASS = Caroleto


# The causes of drinks, worded only when asked for: ``partial``s of these functions, not
# closures, so that the rules' copies and pickles can hold them (compiled with mypyc, a
# closure cannot be copied).
def card_cause(players: tuple[str, ...], play: Play) -> Said | Listed:
    """A card as a drink's cause: « 4S played by Léa on Noé, sent back by Noé's T7 »."""
    key = "ca.cause.used" if play.used else "ca.cause.card"
    cause = said(key, card=play.card, player=players[play.seat])
    if play.target is None or play.kind not in TARGETED:
        return cause
    parts: list[object] = [cause, said("ca.cause.on", target=players[play.target])]
    if play.answer is not None:
        parts += [", ", _how(players, play.answer, play.target)]
    return together(*parts)


def _how(players: tuple[str, ...], trump: Play, target: int) -> Said:
    """How a trump laid by the player an effect aimed at answered it: « sent back by
    Noé's T7 », or redirected to its player's choice."""
    if trump.kind == "back":
        return said("ca.how.back", trump=trump.card, player=players[target])
    assert trump.target is not None  # a trump 10-20 that named nobody answers nothing (Caroleto._aim)
    return said("ca.how.redirect", trump=trump.card, player=players[target], final=players[trump.target])


def _nine_cause(players: tuple[str, ...], card: Card, owed: NineDraw) -> Said | Listed:
    """The card drawn for a 9, as a drink's cause."""
    words = said("ca.cause.nine", card=card, nine=owed.play.card, player=players[owed.play.seat])
    return together(words, ", ", _how(players, owed.answer, owed.place_of)) if owed.answer is not None else words


def _central_cause(players: tuple[str, ...], thirds: int, play: Play) -> Said | Listed:
    return said("ca.cause.central", thirds=thirds, cause=card_cause(players, play))


def _seven_cause(players: tuple[str, ...], base: Callable[[], Words], k: int, seat: int, direction: int,
                 turned_in: int | None) -> Said:
    """A 7's drink: the card, and the place of the drinker in its count, which goes
    round in the table's direction (turned by the Dame of an earlier round: ``turned_in``,
    as it stood when the 7's round was laid). It holds neither the rules nor the round,
    so that a game's rules are freed with their last reference, not left to the garbage
    collector's cycles."""
    cause = base()
    if not k:
        return said("ca.cause.seven-own", cause=cause)
    side = said("ca.side.left" if direction == 1 else "ca.side.right")
    since = said("ca.since.dame", number=turned_in) if turned_in is not None and direction != 1 else ""
    return said("ca.cause.seven", cause=cause, player=players[seat], place=k + 1, side=side, since=since)


def _card_in(key: str, players: tuple[str, ...], play: Play) -> Said | Listed:
    """A card's cause within a sentence (a 10 with no duel, an 8's dare refused)."""
    return said(key, cause=card_cause(players, play))


def _sixes_cause(players: tuple[str, ...], sixes: list[Play]) -> Said | Listed:
    if len(sixes) == 1:
        return card_cause(players, replace(sixes[0], target=None))
    return said("ca.cause.sixes", count=len(sixes), cards=listed(together(p.card, f" ({players[p.seat]})") for p in sixes))


def _bid_cause(players: tuple[str, ...], key: str, play: Play, position: int, cut: Card | None, held: Card | None) -> Said:
    return said(key, cause=card_cause(players, play), position=position, trump=cut, card=held)
