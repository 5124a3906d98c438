"""Pierre qui Roule: its violations (PQ-...), their titles and conventions, and its phrases (pq.*)."""

ENGLISH: dict[str, str | tuple[str, str]] = {
    # Pierre qui Roule (PQ-...), then its phrases (pq.*).
    "PQ-MUST-PICK-UP": "{player} played {card} without following {suit}: a player who cannot follow picks up the trick and plays no card",
    "PQ-WRONG-PICKUP": "{player} picked up the trick, but it is {expected}'s turn ({why}): only the player who cannot follow picks it up",
    "PQ-PLAYED-ON": "{player} played {card} on a trick {picker} has picked up: {picker} takes it too and leads the next trick",
    "pq.suit.S": "a spade",
    "pq.suit.H": "a heart",
    "pq.suit.D": "a diamond",
    "pq.suit.C": "a club",
    "pq.won": "{card} is the highest card of the suit led",
    "pq.won-ace": "{card} is the highest card of the suit led, aces high",
    "pq.todo.lead-picked": "{player} leads (they picked up the last trick)",
    "pq.todo.pick-up": "{player} has no card to follow with ({suit}): they pick up the trick",
    "pq.todo.follow-or-pick-up": "{player} follows with {suit}, or, without one, picks up the trick",
    "pq.scoring": "scoring",
    "why.PQ-MUST-PICK-UP": "A player who cannot follow does not play another suit: they pick up the trick (Alice collects). Another card is flagged (as a revoke when the hand is known to hold the suit), and stays in the trick without winning.",
    "why.PQ-WRONG-PICKUP": "Only the player whose turn it is, and who cannot follow, picks up. A pick-up by someone else is flagged; the record is followed: they take the cards and lead.",
    "why.PQ-PLAYED-ON": "After a pick-up the trick is over and the picker leads. A card laid on it first is flagged, and the picker takes it with the rest.",
    "title.PQ-MUST-PICK-UP": "another suit played instead of picking up",
    "title.PQ-PLAYED-ON": "a card played on a trick picked up",
    "title.PQ-WRONG-PICKUP": "a trick picked up by the wrong player",
}
