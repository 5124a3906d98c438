"""A live session at the table (``referee play``): short, to fit a phone's terminal."""

ENGLISH: dict[str, str | tuple[str, str]] = {
    # A live session at the table (referee play): short, to fit a phone's terminal.
    "live.json-record": "{path} is a JSON record: play writes its lines at the end of a text record; "
                        "referee import {path} > game.txt makes one of it",
    "live.ask-game": "game [{default}]? ",
    "live.refereed": "referee referees {games}",
    "live.which-game": "{typed!r} may be {games}: type more of its name",
    "live.players-not-game": "{typed!r} is a game's name: type the players' names, in seating order",
    "live.none": "Enter: none",
    "live.ask-headers": "write these headers? y: yes, n: ask again [y] ",
    "live.again": "again, from the game",
    "live.answer-expected": "answer y (write it as played), a (accepted by the table) or n (do not write it)",
    "live.line-not-answer": "{line!r} is not an answer: first say whether to write the line above "
                            "(y, a or n); then type {line!r} again",
    "live.line-not-answer-piped": "{line!r} is not an answer: the line above is written as played (a pipe cannot "
                                  "type a line again), and {line!r} is read next",
    "live.ask-players": "players, in seating order ({low} to {high})? ",
    "live.ask-dealer": "dealer (Enter: none)? ",
    "live.ask-option": "{tag}, {help}: {choices} [{default}]? ",
    "live.start": "{title}: {players}; {events}, {violations} so far",
    "live.events": ("{count} event", "{count} events"),
    "live.written": "ok: {line}; now: {now}",
    "live.over": "the game is over",
    "live.end-prompt": "end",
    "live.table-prompt": "table",
    "live.ask-flagged": "write it? y: as played, a: accepted by the table, n: no [n] ",
    "live.not-written": "not written",
    "live.refused": "not written: the replay cannot use this line",
    "live.not-an-event": "not an event: an event reads like 'Alice plays 7H'",
    "live.no-header": "headers go at the top of a record; type events here",
    "live.undone": "undone: {line}",
    "live.nothing-to-undo": "nothing to undo: lines written before this session stay",
    "live.read-again": "the record changed outside this session (an editor?): it was read again, and nothing was written; type the line again if it still holds",
    "live.changed": "the file changed outside this session: undo refused",
    "live.help": "type events as in the record ('Bob plays 7H', or 'plays 7H' for the next player); undo, state, legal, end",
}
