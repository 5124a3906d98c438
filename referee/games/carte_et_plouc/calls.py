"""Carte et Plouc's calls and additional rules, as a part of its rules class
(rules.py): « carte », « plouc » and « contre » with their sanctions (la Zouzou,
la Méga One), le David le fou's accusations, le zéro's slaps and swaps, and la règle du
mot doux. The conventions are in docs/games/carte-et-plouc.md."""

from __future__ import annotations

import unicodedata

from mypy_extensions import mypyc_attr

from ...messages import Said, said, together
from ...record import Event
from .cards import TWO
from .state import PloucState


def plain(word: str | None) -> str:
    """A call as written, without case or accents: « Contre » is contre."""
    return unicodedata.normalize("NFKD", word or "").encode("ascii", "ignore").decode().lower()


@mypyc_attr(allow_interpreted_subclasses=True)
class Calls(PloucState):
    """The calls and the additional rules, on the table's state."""

    def _recount(self, seat: int) -> None:
        """A hand changed: « carte » is due when it comes down to one card."""
        cards = self.cards
        one = len(cards.known[seat]) + cards.unknown[seat] == 1
        if one and not self.one[seat]:
            self.one[seat], self.called[seat], self.missed[seat], self.waived[seat] = True, False, False, 0
            self.due_at[seat] = self.seq
            if self.event is not None:
                self.one_how[seat] = (self.event.line, self.event.verb)
            self.carte_due.add(seat)
        elif not one and self.one[seat]:
            self.one[seat] = False
            self.carte_due.discard(seat)

    def _says(self, seat: int, event: Event) -> None:
        word = plain(event.word)
        if word == "carte":
            if self.one[seat]:
                self.called[seat] = True
                self.carte_due.discard(seat)
            else:
                self.flag("CP-CALL-NOT-DUE", event, call="carte", why=said("cp.call.carte", player=event.player, count=self.cards.count(seat)))
        elif word == "contre":
            self._contre(seat, event)
        elif word == "plouc":
            self.flag("CP-CALL-NOT-DUE", event, rule="plouc", call="plouc", why=said("cp.call.plouc"))
        else:
            self.flag("CP-CALL-NOT-DUE", event, call=event.word, why=said("cp.call.unknown"))

    def _contre(self, seat: int, event: Event) -> None:
        """« contre »: a player holding one card has not said « carte »."""
        targets = [s for s in range(len(self.players)) if s != seat and self.one[s] and not self.called[s]]
        waived = [s for s in targets if self.waived[s]]
        targets = [s for s in targets if not self.waived[s]]
        if not targets:
            # nothing to catch; a missed « carte » the table accepted is waived, not caught later
            why = said("cp.contre.waived", target=self.players[waived[0]], line=self.waived[waived[0]]) if waived \
                else said("cp.contre.none")
            self.flag("CP-FALSE-CONTRE", event, rule=self._sanction_key(), why=why)
            return
        target = max(targets, key=lambda s: self.due_at[s])
        counted = self.flag("CP-MISSED-CARTE", event, player=self.players[target], how=self._one_how(target)) \
            if not self.missed[target] else True
        self._called_out(self.players[target], event.line)
        self.called[target], self.missed[target] = True, False
        self.carte_due.discard(target)
        if counted:
            self._sanction(target, seat, self._sanction_key())

    def _called_out(self, name: str, line: int) -> None:
        """An error called out (« contre », an accusation): it is not called out twice."""
        self.errors.pop(name, None)
        self.settled[name] = (line, "cp.accuse.settled")

    def _one_how(self, seat: int) -> Said:
        """What brought a player to one card, in words: « their play on line 12 »."""
        line, verb = self.one_how[seat]
        key = f"cp.one.{verb}" if verb in ("plays", "gives", "swaps", "holds") else "cp.one.other"
        return said(key, line=line)

    def _plouc_missed(self, event: Event, out: int) -> bool:
        card, line = self.last_card if self.last_card is not None else ("?", event.line)
        return self.flag("CP-MISSED-PLOUC", event, player=self.players[out], card=card, line=line)

    def _sanction_key(self) -> str:
        return "mega-one" if self.sanction_kind == "mega-one" else "zouzou"

    def _sanction(self, offender: int, caller: int, rule: str) -> bool:
        """The sanction chosen beforehand: the offender draws a card (la Zouzou), or the
        caller gives one of theirs (la Méga One; not their last). Whether a card is owed."""
        if self.sanction_kind == "zouzou":
            self.sanctions[offender] = self.sanctions.get(offender, 0) + 1
            self.sanction_rule[offender] = rule
            return True
        if self.sanction_kind == "mega-one" and self.cards.count(caller) > 1:
            self.gifts.append((caller, offender))
            return True
        return False

    def _plouc_window(self, seat: int, event: Event, turn: bool) -> bool:
        """The events right after a last card: « plouc », a « contre », or play going on
        without the call. True when the event is dealt with here."""
        out = self.plouc
        if out is None:
            return False
        word = plain(event.word) if event.verb == "says" else ""
        if word == "plouc" and seat == out:
            self.plouc = None
            self.ended = self.closing
            return True
        if word == "contre" and seat != out:
            counted = self._plouc_missed(event, out)
            self.plouc = None
            self._called_out(self.players[out], event.line)
            if counted and self._sanction(out, seat, self._sanction_key()):
                self.seating.out.discard(out)
                self.out_order.remove(out)
                self.closing = False
            self.ended = self.closing
            return True
        if self.closing or (turn and seat != out):
            self._plouc_missed(event, out)
            self.plouc = None
            if self.closing:
                self.ended = True
                self.flag("REC-AFTER-END", event, result=said("report.winner", player=self.result().winner))
                return True
        return False

    def _accuses(self, seat: int, event: Event) -> None:
        """Le David le fou: an error called out; the wrong accusation costs its author a card."""
        accused = self._target(event)
        if accused in self.errors and accused != event.player:
            self._called_out(accused, event.line)
            if self.david:
                self._sanction(self.seats[accused], seat, "david")
            return
        if accused == event.player:
            why = said("cp.accuse.self")
        elif accused in self.settled:
            line, key = self.settled[accused]
            why = said(key, line=line)
        else:
            why = said("cp.accuse.none")
        if self.flag("CP-WRONG-ACCUSATION", event, accused=accused, why=why) and self.david:
            self.sanctions[seat] = self.sanctions.get(seat, 0) + 1
            self.sanction_rule[seat] = "david-wrong"

    def _target(self, event: Event) -> str:
        """The player an accusation, a gift or a swap names: the notation requires one."""
        target = event.target
        assert target is not None, event
        return target

    def _gives(self, seat: int, event: Event) -> None:
        """La Méga One: the caller gives a card to the player who missed the call."""
        target = self.seats[self._target(event)]
        paid = (seat, target) in self.gifts
        if paid:
            self.gifts.remove((seat, target))
        if not paid or len(event.cards) != 1:
            # the right giver and receiver pay the gift, one card too many or not; any other
            # gift is a fault of its own, and the card owed stays owed
            owed = (seat, target) if paid else next((g for g in self.gifts if seat in g or target in g), None)
            if owed is not None:
                detail: tuple[Said, ...] = (said("cp.sanction.gift-owed", giver=self.players[owed[0]],
                                                 receiver=self.players[owed[1]]),)
                detail += () if paid else (said("cp.sanction.still-owed"),)
            else:
                detail = (said("cp.sanction.no-gift"),)
            self.flag("CP-SANCTION-WRONG", event, rule="mega-one",
                      detail=together(said("cp.sanction.gave", player=event.player, count=len(event.cards),
                                           target=event.target), *detail))
        for i, card in enumerate(event.cards):
            problem = self.cards.take(seat, card, given=True)
            if problem:
                code, fields = problem
                self.flag(code, event, event.card_column(i), card=card, did=said("cp.hand.gave"), **fields)
            self.cards.add(target, card)
        self._recount(seat)
        self._recount(target)

    def _slaps(self, seat: int, event: Event) -> None:
        """Le zéro: the first slap on a 2 just laid; that player swaps hands."""
        if not self.zero:
            self.flag("CP-FALSE-SLAP", event, why=said("cp.slap.off"))
            return
        if seat in self.seating.out:
            self.flag("CP-FALSE-SLAP", event, why=said("cp.slap.out"))
            return
        if self.zero_open:
            self.zero_open, self.slapped = False, True
            self.swapper = seat
        elif not (self.rank == TWO and self.slapped):
            self.flag("CP-FALSE-SLAP", event, why=said("cp.slap.no-two", top=self.cards.discard[-1]))

    def _swaps(self, seat: int, event: Event) -> None:
        target = self.seats[self._target(event)]
        if target == seat or target in self.seating.out:
            if self.swapper == seat:
                self.swapper = None
            why = "cp.swap.self" if target == seat else "cp.swap.out"
            self.flag("CP-WRONG-SWAP", event, detail=said(why, player=event.player, target=event.target))
            return
        if self.swapper != seat:
            slapper = self.players[self.swapper] if self.swapper is not None else None
            self.flag("CP-WRONG-SWAP", event, detail=said("cp.swap.not-owed" if slapper is None else "cp.swap.other",
                                                           player=event.player, slapper=slapper))
        else:
            self.swapper = None
        self.cards.swap(seat, target)
        for s in (seat, target):
            self.proofs[s].clear()
            self._recount(s)

    def _swears(self, seat: int, event: Event) -> None:
        if "mot-doux" in self.variants and self.flag("CP-SWEAR", event):
            self.sanctions[seat] = self.sanctions.get(seat, 0) + 2
            self.sanction_rule[seat] = "mot-doux"
