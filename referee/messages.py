"""Every sentence referee says, in one place, so that a translation can follow.

Keys are stable: violation codes (``BC-FALSE-SLAP``), syntax error kinds
(``syntax.bad-card``) and report phrases (``report.to-move``). Templates use
``str.format`` fields. The games' own French words (carte, plouc, gorgée, pli) stay.
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # Reading a file.
    "file.unreadable": "cannot read the file: {reason}",
    "file.not-utf8": "this file is not UTF-8 text (byte {byte:#04x} cannot be read); save it as UTF-8",
    "file.utf16": "this file is UTF-16 text (what Windows Notepad calls Unicode); save it as UTF-8",
    "file.binary": "this file holds binary data (a NUL byte), not a record",
    "file.empty": "no game here: a record starts with headers such as [Game \"bataille-corse\"]",
    # Syntax.
    "syntax.bad-card": "expected a card such as 7H or 10♥, got {got!r}",
    "syntax.glued-cards": "put a space between cards: {fixed!r}, not {got!r}",
    "syntax.no-card": "expected a card after {verb!r}, such as 7H or 10♥",
    "syntax.unknown-verb": "unknown action {got!r}{hint}; an event reads: Alice plays 7H",
    "syntax.did-you-mean": " (did you mean {suggestion!r}?)",
    "hint.player": " (did you mean {player}?)",
    "syntax.no-player": "who {got}? start the line with the player's name: Alice {got} ...",
    "syntax.header-quotes": "a header value goes in double quotes: [{tag} \"{value}\"]",
    "syntax.header-unclosed": "this header is not closed: end it with ]",
    "syntax.no-headers": "a game starts with its headers, such as [Game \"bataille-corse\"], before the first event",
    "syntax.bad-time": "expected a time such as 21:04 or 21:04:30 (two digits for minutes and seconds), got {got!r}",
    "syntax.bad-move": "a move number ends with a dot: '{got}.', not {got!r}",
    "syntax.expected": "expected {expected}, got {got!r}",
    "syntax.unexpected-char": "unexpected {got!r} here; expected {expected}",
    "syntax.number-not-card": "{got!r} is not a card in this game: a card has a suit, such as {got}H or {got}♥",
    "syntax.number-too-high": "{got!r} is not a card in this game: a card has a rank and a suit, such as 7H or 10♥",
    "syntax.count-too-large": "{got!r} cards is more than any deck holds (at most {limit})",
    "syntax.not-a-number-card": "{got!r} is not a Flaschenteufel card: they are numbered 1 to 37, without 19",
    "syntax.line-too-long": "this line is {length} characters long; a record line holds at most {limit}",
    "syntax.round-number": "a round is numbered from 1: -- round 2, not {got!r}",
    "syntax.round-marker": "a round marker reads: -- round, or -- round 2 (its number, in digits); got {got!r}",
    "syntax.no-suit": "expected the suit announced after 'for': a letter (S H D C), a symbol (♠ ♥ ♦ ♣) or its name (pique, cœur, carreau, trèfle){got}",
    "syntax.bad-amount": "{got!r} is not a drink: write a number of gorgées (drinks 3), half, glass, up (finish one's glass) or central (the central glass)",
    "syntax.bad-score": "expected a score in digits after 'scores', such as 28 or -5, got {got!r}",
    "syntax.call-word": "expected a word after {verb!r}, such as {examples}, got {got!r}",
    "expect.card": "a card such as 7H or 10♥",
    "expect.name": "a player's name",
    "expect.eol": "the end of the line",
    "expect.string": "a value in double quotes",
    "expect.amount": "a number of gorgées, or half, glass, up, central",
    "expect.suit": "a suit such as C, ♣ or trèfle",
    "expect.number": "a number such as 28",
    "expect.round": "'round'",
    "expect.header": "a header such as [Game \"bataille-corse\"]",
    "expect.event": "an event such as: Alice plays 7H",
    "expect.move": "a move number such as 12.",
    "expect.time": "a time such as 21:04",
    # Setting a game up from its headers.
    "setup.no-game": "this game has no [Game \"...\"] header; say which game it is: {games}",
    "setup.unknown-game": "unknown game {game!r}; referee knows {games}",
    "setup.not-refereed": "{title} is not refereed yet (the record's notation was read without error); referee referees {games}",
    "setup.no-players": "this game has no [Players \"...\"] header: name the players in seating order",
    "setup.player-count": "{title} is for {low} to {high} players, not {count}",
    "setup.duplicate-player": "{player} is named twice in [Players]",
    "setup.bad-name": "{player!r} cannot be a player's name: a name starts with a letter, then letters, digits, ' or -",
    "setup.reserved-name": "{player!r} is an action word and cannot be a player's name",
    "setup.unknown-seat": "[{tag} \"{player}\"] names nobody in [Players]",
    "setup.bad-option": "[{tag} \"{value}\"]: {title} accepts {choices}",
    "setup.tag-twice": "[{tag}] is given twice, as {first!r} (line {line}) and as {second!r}: say which holds",
    "setup.bad-number": "[{tag} \"{value}\"]: expected a whole number from 1",
    "option.one-of": "one of {choices}",
    "option.any-of": "any of {choices}",
    "option.number": "a whole number from {low} to {high}",
    # Violations common to every game.
    "REC-UNKNOWN-PLAYER": "{player} is not one of the players ({players}){hint}",
    "REC-UNSUPPORTED-EVENT": "{title} has no {verb!r} event; this line is not replayed",
    "REC-NOT-IN-DECK": "{card} is not a card of the {title} deck",
    "REC-DUPLICATE-CARD": "{card} appears twice: it is already {where}",
    "REC-BAD-DEAL": "{player} is dealt {count} cards; the deal gives {expected}",
    "REC-LATE-DEAL": "a deal line ('holds') belongs before the first card is played",
    "REC-AFTER-END": "the game is already over ({result}); this event is not replayed",
    "REC-RESULT-MISMATCH": "[Result \"{written}\"] disagrees with the replay: {actual}",
    "REC-AFTER-MATCH": "match {match!r} was already over after {hands} hand(s); this hand does not count",
    "REC-ROUND-ORDER": "[Round \"{written}\"]: this is hand {expected} of match {match!r}",
    "REC-DEALER-ROTATION": "{written} deals, but the deal passes to the left: after {previous}, {expected} deals",
    "REC-TOTALS-MISMATCH": "[Totals \"{written}\"] disagrees with the match: {actual}",
    "REC-STALE-ACCEPTED": "the line says the table accepted {mark}, but referee finds no {mark} here: remove the mark",
    "REC-SCORE-MISMATCH": "{player} scores {written}, but the replay counts {actual}",
    # Why referee rules so (referee explain CODE): the convention, in plain words.
    "why.REC-UNKNOWN-PLAYER": "Every event starts with a player named in [Players], written as there. A line by anyone else is reported and not replayed.",
    "why.REC-UNSUPPORTED-EVENT": "Each game uses some of the notation's verbs; a line with another verb, or naming a player where the game names none, is reported and not replayed.",
    "why.REC-NOT-IN-DECK": "A card outside the game's deck (a tarot trump in a 52-card game) is reported, and its line is not replayed.",
    "why.REC-DUPLICATE-CARD": "A card is in one place at a time. When a card turns up where it cannot be, referee reports it once, then follows the record as written.",
    "why.REC-LATE-DEAL": "Deal lines ('holds') come before the first card is played; one written after that is reported and not replayed.",
    "why.REC-BAD-DEAL": "A written deal gives each player as many cards as the game deals. An uneven deal is reported on the deal line furthest off, once play starts.",
    "why.REC-AFTER-END": "Once the game has its winner, the events after it are reported and not replayed.",
    "why.REC-RESULT-MISMATCH": "A [Result] header is checked against the replay: the winner, or the finishing order from the winner on. '*' or an empty value says nothing.",
    "why.REC-SCORE-MISMATCH": "A 'scores' line is the table's count for the game: referee counts the score itself and reports a line that differs.",
    "why.REC-STALE-ACCEPTED": "'; accepted CODE' says the table let that fault pass on that line; a mark with no such fault there is reported, so that marks stay true.",
    "why.REC-AFTER-MATCH": "Once a match has its winner ([Target] reached or [Hands] played), a further hand of it is reported and does not count.",
    "why.REC-ROUND-ORDER": "[Round] on a hand of a match is its number in the match, counted from 1 in file order.",
    "why.REC-DEALER-ROTATION": "In a match the deal passes to the left: each hand's [Dealer] is the player after the previous hand's dealer.",
    "why.REC-TOTALS-MISMATCH": "[Totals] gives the match's running totals after a hand as the table counted them; referee adds the hands up itself and reports a difference.",
    "where.pile": "on the pile",
    "where.played": "played",
    "where.hand": "in {player}'s cards",
    # Bataille corse.
    "BC-OUT-OF-TURN": "{player} turned {card}, but it is {expected}'s turn",
    "BC-OVERPAID": "{player} paid {card} after the debt to {creditor} was settled: {creditor} should take the pile",
    "BC-UNDERPAID": "{player} stopped paying {creditor} with {owed} card(s) still owed",
    "BC-WRONG-COLLECTOR": "{player} took the pile, but it belongs to {owner}",
    "BC-NOT-WON": "{player} took the pile, but nobody has won it yet",
    "BC-FALSE-SLAP": "{player} slapped, but {why}",
    "BC-SLAP-WHILE-OUT": "{player} is out of the game and cannot slap",
    "BC-SLAP-BANNED": "{player} slapped {elapsed}s after a penalty that bans slapping for 30 seconds",
    "BC-PENALTY-UNPAID": "{player} owes a penalty ({penalty}) that was not paid before this line",
    "BC-PENALTY-WRONG": "{detail}",
    "BC-DEAL-MISMATCH": "{player} turned {card}, but the deal puts {expected} on top of their pack",
    "BC-EMPTY-PACK": "{player} has no cards left to play",
    "BC-CARD-COUNT": "the deal holds {count} cards; Bataille corse deals the whole 52-card deck",
    "why.BC-OUT-OF-TURN": "Only the player whose turn it is turns a card. A card turned out of turn goes under the pile and counts for nothing (no debt, no slap), and its player owes the penalty.",
    "why.BC-OVERPAID": "A payer stops once the debt is paid: the pile is then the paying card's player's. A card turned after that goes under the pile like a card out of turn, and the penalty is owed.",
    "why.BC-UNDERPAID": "The pile is taken only once every card owed is paid. The fault is the payer's; the table plays on and the creditor has the pile.",
    "why.BC-WRONG-COLLECTOR": "Only the player who won the pile (by the paying card, or by a slap) takes it. The record wins: whoever took it holds it and leads.",
    "why.BC-NOT-WON": "A pile is taken once it is won: by a debt paid, or by a winning slap. The record wins: whoever took it holds it and leads.",
    "why.BC-FALSE-SLAP": "A slap wins the pile when the top of the pile shows a pattern the table plays (the pair always, the others as [Slaps] says), unless [SlapDuringPayment \"no\"] and a payment is under way. Any other slap is a fault, and the slapper owes the penalty.",
    "why.BC-SLAP-WHILE-OUT": "A player who is out cannot slap. Only a player whose pack ran out and whose turn has not come yet may still slap their way back in.",
    "why.BC-SLAP-BANNED": "With [Penalty \"no-slap-30\"], a player at fault may not slap for 30 seconds, counted from the fault's time (or the last time written before it). Without timestamps the ban cannot be checked, and the report says so.",
    "why.BC-PENALTY-UNPAID": "A penalty is paid before the offender's own next card or slap. One not paid by then is reported on that line and dropped.",
    "why.BC-PENALTY-WRONG": "A penalty is paid the way [Penalty] says: three cards slid under the pile ('burns'), or a card to each other player in turn ('gives ... to'). Paying when nothing is owed, or another way, is reported.",
    "why.BC-DEAL-MISMATCH": "With the deal written, each card turned is the top of that pack. The record wins: referee follows the card as written, and puts the expected card where the written one was thought to be.",
    "why.BC-EMPTY-PACK": "A player with no card left cannot turn one: once their turn comes with an empty pack, they are out (a slap may still save them before).",
    "why.BC-CARD-COUNT": "A deal written in full holds the whole 52-card deck. It is reported once, on the first deal line, when play starts.",
    # Carte et Plouc (CP-...): its violations, then its phrases (cp.*).

    # Tricks, shared by Pierre qui Roule and Flaschenteufel (tricks.*).

    # Pierre qui Roule (PQ-...), then its phrases (pq.*).

    # Flaschenteufel (FT-...), then its phrases (ft.*).

    # Caroleto (CA-...), then its phrases (ca.*).

    # Bataille corse: explaining the penalties and patterns.
    "bc.penalty.burn-3": "slide three cards under the pile",
    "bc.penalty.burn-fewer": "slide their last {count} card(s) under the pile",
    "bc.penalty.give-1": "give a card to {players}",
    "bc.penalty.give-each": "give one card each to {players}",
    "bc.pattern.pair": "pair",
    "bc.pattern.addition": "addition",
    "bc.pattern.sandwich": "sandwich",
    "bc.pattern.big-mac": "Big-Mac",
    "bc.no-pattern": "the pile shows no {patterns} ({top})",
    "bc.paying": "no slap wins the pile during a payment at this table ([SlapDuringPayment \"no\"])",
    "bc.top": "top: {cards}",
    "bc.empty-pile": "the pile is empty",
    "bc.no-penalty-due": "{player} pays a penalty, but owes none",
    "bc.penalty-owed": "{player}'s penalty is to {penalty}, not this",
    # Bataille corse at the table (referee state) and its rulings (referee explain FILE:LINE).
    "bc.state.pile": "pile",
    "bc.state.out": "out",
    "bc.state.shows": "the pile shows",
    "bc.state.slaps": "slaps played",
    "bc.state.penalty": "penalty",
    "bc.state.ban": "slap ban",
    "bc.state.banned": "{player} since {time}",
    "bc.state.winner": "winner",
    "bc.a-pattern.pair": "a pair",
    "bc.a-pattern.addition": "an addition",
    "bc.a-pattern.sandwich": "a sandwich",
    "bc.a-pattern.big-mac": "a Big-Mac",
    "bc.ruling.turn": "{player} turns {card} in turn",
    "bc.ruling.paying": "{card} is a paying card: {payer} owes {owed}",
    "bc.ruling.pays": "{player} pays {card} to {creditor} ({owed} still owed)",
    "bc.ruling.paid": "{player} pays {card}, the last card owed: the pile is {creditor}'s",
    "bc.ruling.takes-first": "{player} takes the pile they won, then leads",
    "bc.ruling.slap": "{player}'s slap wins: the pile shows {cards}, {patterns}",
    "bc.ruling.late-slap": "{player} slaps a pile {slapper} already won by a slap, with no card between: a late hand, not a fault",
    "bc.ruling.collect": "{player} takes the pile: the debt to {player} is paid",
    "bc.ruling.collect-slapped": "{player} already took the pile by the slap: writing it down is harmless",
    "bc.ruling.collect-last": "{player} has won: the last pile is theirs",
    "bc.ruling.burns": "{player} pays the penalty: {count} card(s) slid under the pile",
    "bc.ruling.gives": "{player} pays the penalty: a card to {target}",
    "bc.ruling.holds": "{player}'s pack as dealt: {count} card(s), top card first",
    # What a player must do now (in-progress records).
    "todo.turn": "{player} turns the next card",
    "todo.pay": "{player} pays {owed} more card(s) to {creditor}",
    "todo.collect": "{player} takes the pile",
    "todo.empty-pack": "{player} has no cards left: out unless a slap wins them the pile",
    "todo.penalty": "{player} pays the penalty: {penalty}",
    "todo.slap": "{players} may slap ({patterns})",
    # Notes: what could not be checked.
    "note.tag-twice": "[{tag}] on line {line} repeats an earlier header with the same value",
    "note.tag-again": "[{tag}] on line {line} is given again; the first one holds",
    "note.tag-misspelled": "[{tag}] on line {line} is not a header referee reads: did you mean [{known}]?",
    "note.score-unfinished": "{player}'s score on line {line} could not be checked: the game is not over",
    "note.unseen": "{count} card(s) were never seen; they could not be checked against the deal",
    "note.no-slap-30": "{player}'s 30-second slap ban could not be checked: the record has no timestamps",
    "note.slap-untimed": "{player}'s slap on line {line} could not be checked against their 30-second slap ban: the line has no timestamp",
    "note.play-out": "played out from the deal: {cards} more card(s) turned after the last line",
    "note.play-out-unknown": "cannot play out: {player}'s pack holds {count} card(s) nobody saw",
    "note.play-out-pending": "cannot play out: {todo}",
    "never-ends": "this deal never ends: from card {start} on, the game repeats every {length} cards",
    # Lists.
    "join.and": " and ",
    "join.or": " or ",
    # Report.
    "report.valid": "valid",
    "report.violations": "{count} violation(s)",
    "report.in-progress": "in progress",
    "report.never-ends": "never ends",
    "report.error": "cannot be checked",
    "report.winner": "winner: {player}",
    "report.order": "finishing order: {players}",
    "report.to-move": "now: {todo}",
    "match.standing": "match {name!r} after hand {hand}: {totals} ({unit})",
    "match.won": "match {name!r} won by {winners} after hand {hand}: {totals} ({unit})",
    "match.no-score": "no hand finished yet",
    "match.unit.wins": "hands won",
    "match.unit.points": "points",
    "match.unit.penalties": "penalty points",
    "report.summary": "{games} game(s) in {files} file(s): {valid} valid, {violations} with violations, {progress} in progress, {errors} that could not be checked",
}

CATALOGS = {"en": ENGLISH}
_current = ENGLISH


def say(key: str, **fields: object) -> str:
    """The sentence for ``key`` with its fields filled in."""
    return _current[key].format(**fields)


def join(items, last: str = "and") -> str:
    """A list in words: 'a', 'a and b', 'a, b and c' (or 'a, b or c' with ``last="or"``)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + _current[f"join.{last}"] + items[-1]
