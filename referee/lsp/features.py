"""What the editor asks of a record, answered as plain data from its Document: completion,
hover, code actions, the outline and formatting. Places are (line, column) from 1, in
characters, as the rest of referee counts them; server.py turns them into the protocol's.

Every answer comes from the engine and the game's contract: ``legal()`` for what may be
written now, ``referee state`` for the table, ``referee explain`` for a code, ``fmt``
for the canonical text."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..cards import SUITS, UNSEEN_CARD, Card
from ..convert.formatter import Style, card_text, known_tags
from ..games import GAMES, find_game, load_rules
from ..games.base import Rules, Violation, legal_events
from ..messages import join, say
from ..notation import VERBS, WORD_VERBS, RecordError
from ..text.french import tag_key
from ..record import TARGET_VERBS, Event, Record
from ..spelling import ENGLISH, Spelling, spelling_of
from .model import Document, Problem, fork_of

MISSING_TRIED = 5
"""The faults of a request (its first few) for which the missing event is looked for."""
MARKS_TRIED = 30
"""The faults of a request (its first ones) offered a mark: each is replayed to its game's
end to see what the mark brings (an editor asks for the lines around the cursor)."""
CANDIDATES_TRIED = 200
"""The legal events tried, at most, when looking for the one event a line is missing."""
_LEADING = re.compile(r"[^\S\n]*+(?:\d+\.[^\S\n]*+)?(?:\d+:\d+(?::\d+)?[^\S\n]++)?")
"""A line's move number and time, before its player."""
_TAG_START = re.compile(r'\s*\[\s*([^\s"\]]*)$')
_VALUE_START = re.compile(r'\s*\[\s*([^\s"\]]+)\s+"([^"]*)$')
_HEADER = re.compile(r'\s*\[\s*([^\s"\]]+)')


@dataclass
class Item:
    """A completion: the text, what it is, and whether it is legal now (offered first)."""

    label: str
    kind: str
    """``player``, ``verb``, ``card``, ``word``, ``tag`` or ``value``."""
    detail: str = ""
    first: bool = False
    snippet: str = ""
    """The whole rest of a legal move, as an LSP snippet (``AS for ${1|S,H,D,C|}``), when
    the card needs a suit announced or a player named after it."""
    plain: list[str] = field(default_factory=list)
    """The same moves written out, one for each choice (``AS for S``, ``AS for H``): what a
    client without snippets is offered instead of the card alone, which ``check`` flags."""


@dataclass
class Completion:
    items: list[Item]
    column: int
    """Where the word being typed starts (replaced by the item)."""


@dataclass
class Edit:
    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass
class Action:
    title: str
    kind: str
    """``quickfix`` or ``source``."""
    edits: list[Edit]
    problem: Problem | None = None
    preferred: bool = False
    safe: bool = False
    """A fix referee is sure of (a name whose case differs from a player's, cards written
    together, a card of the other notation): fix-all applies it."""


@dataclass
class Symbol:
    name: str
    kind: str
    """``game``, ``hand`` or ``round``."""
    line: int
    end: int
    detail: str = ""
    children: list[Symbol] = field(default_factory=list)


def style(document: Document) -> Style:
    return Style(document.settings.suits, document.settings.ranks, document.settings.notation)


def shown_in(document: Document, written: Spelling) -> Style:
    """The style cards are offered in: the configuration's, in the record's notation."""
    found = style(document)
    return Style(found.suits, found.ranks if not written.french else None, written.code)


def word_at(text: str, column: int) -> tuple[int, int]:
    """The word (a run of non-blanks, up to a comment) at a column: its first column and
    the column after it."""
    index = max(0, min(column - 1, len(text)))
    begin = index
    while begin > 0 and not text[begin - 1].isspace() and text[begin - 1] != ";":
        begin -= 1
    end = index
    while end < len(text) and not text[end].isspace() and text[end] != ";":
        end += 1
    return begin + 1, end + 1


# --- Completion --------------------------------------------------------------------------

def complete(document: Document, line: int, column: int) -> Completion:
    """What may be written at a place: in a header, the tags and their values; on an
    event line, the players, the verbs, then the cards (or words, or players) that are
    legal now for the player written, first, then the others."""
    text = document.line(line)[: column - 1]
    if ";" in text:
        return Completion([], column)
    if text.lstrip().startswith("["):
        return _complete_header(document, line, text, column)
    lead = _LEADING.match(text)
    rest = text[lead.end() if lead else 0:]
    words = rest.split()
    partial = words.pop() if words and not rest[-1:].isspace() else ""
    start = column - len(partial)
    record = document.record_at(line)
    written = spelling_of(record)  # what is offered is in the record's notation
    rules = document.rules_before(line) if record is not None else None
    legal = _legal(rules)
    if not words:
        return Completion(_calls(legal, written) + _players(rules, record, legal) + [Item("-- round", "word")], start)
    player = words[0]
    mine = [e for e in legal if e.player == player]
    if len(words) == 1:
        verbs = sorted(rules.verbs) if rules is not None else list(VERBS)
        return Completion(_ranked([written.verb(e.verb) for e in mine],
                                  [written.verb(v) for v in verbs if v != "round"], "verb"), start)
    verb = written.verb_read(words[1]) or words[1]
    mine = [e for e in mine if e.verb == verb]
    if verb in WORD_VERBS:
        return Completion(_ranked([written.amount(verb, e.word) for e in mine if e.word], [], "word"), start)
    if words[-1] == written.for_word:  # the suit announced with an ace
        return Completion(_ranked([written.suit(e.suit) for e in mine if e.suit], [written.suit(s) for s in SUITS], "word"),
                          start)
    if verb in TARGET_VERBS or words[-1] in written.targets:
        others = list(rules.players) if rules is not None else _written_players(record)
        return Completion(_ranked([e.target for e in mine if e.target], others, "player"), start)
    return Completion(_cards(document, rules, mine, words[2:], written, line), start)


def _legal(rules: Rules | None) -> list[Event]:
    if rules is None:
        return []
    result = rules.result()
    return [] if result.finished or result.never_ends else legal_events(rules.legal())  # a group: each play it allows


def _ranked(legal: list[str], others: list[str], kind: str) -> list[Item]:
    """The legal choices first (each once), then the others."""
    now = list(dict.fromkeys(legal))
    items = [Item(label, kind, say("lsp.complete.legal"), True) for label in now]
    return items + [Item(label, kind) for label in dict.fromkeys(others) if label not in now]


def _written_players(record: Record | None) -> list[str]:
    return (record.tag("Players", "") or "").replace(",", " ").split() if record is not None else []


def _calls(legal: list[Event], written: Spelling) -> list[Item]:
    """The calls legal now as whole lines (``Ben says carte``), before anything else: a
    call due is said before the next play, or it is a fault."""
    lines = [written.move(e.replace(comment=None), comment=False) for e in legal if e.verb == "says" and e.player]
    return [Item(line, "word", say("lsp.complete.legal"), True) for line in dict.fromkeys(lines)]


def _players(rules: Rules | None, record: Record | None, legal: list[Event]) -> list[Item]:
    """Who may act now first: those who may make a call, then the player whose turn it
    is, then the others."""
    turn = rules.table().turn if rules is not None else None
    calling = {e.player for e in legal if e.verb == "says"}
    acting = sorted(dict.fromkeys(e.player for e in legal if e.player), key=lambda p: (p not in calling, p != turn))
    everyone = list(rules.players) if rules is not None else _written_players(record)
    return _ranked(acting, everyone, "player")


def _cards(document: Document, rules: Rules | None, legal: list[Event], typed: list[str],
           notation: Spelling = ENGLISH, line: int = 0) -> list[Item]:
    """The next card of an event legal now (``??`` too where the game takes a hidden card
    there), then every other card of the deck, in the record's notation."""
    shown = shown_in(document, notation)
    written = [notation.read(word) for word in typed]
    hidden = hidden_moves(document, rules, line, legal, written)
    usual = [move for move, unseen in hidden if unseen]  # first: what a record of hidden hands writes there
    legal = usual + legal + [move for move, unseen in hidden if not unseen]
    offered = []
    for event in legal:
        if list(event.cards[: len(written)]) == written and len(event.cards) > len(written):
            offered.append(card_text(event.cards[len(written)], shown))
    deck: list[Card] = sorted(rules.in_play, key=lambda c: (str(c.suit), c.rank)) if rules is not None else []
    items = _ranked(offered, [card_text(c, shown) for c in deck], "card")
    rests = _rests(legal, written, shown, notation)
    for item in items:
        item.snippet, item.plain = rests.get(item.label, ("", []))
    return items


HIDDEN_TRIED = 12
"""The kinds of move (player, verb, target, suit) tried, at most, with a hidden card."""


def hidden_moves(document: Document, rules: Rules | None, line: int, legal: list[Event],
                 written: list[Card | None]) -> list[tuple[Event, bool]]:
    """The legal moves whose next card may be written ``??`` (a card the table did not
    see): for each kind of move legal now, the move with ``??`` in that place, kept when
    the game's rules, replaying it on a copy of the table, find no fault in it (Caroleto's
    « takes ?? from Ann »; never in Flaschenteufel, where every card is seen). Each with
    whether a table that sees no hand writes ``??`` there (``Rules.public``): a card
    taken from a hand is, a card laid face up is not."""
    from ..engine import replay

    record = document.record_at(line)
    if rules is None or record is None or not legal:
        return []
    kinds: dict[tuple[object, ...], Event] = {}
    for event in legal:
        if list(event.cards[: len(written)]) != written or len(event.cards) <= len(written):
            continue
        if not event.cards[len(written)].seen:  # the game offers it already
            return []
        kinds.setdefault((event.player, event.verb, event.target, event.suit), event)
    if not kinds or len(kinds) > HIDDEN_TRIED:
        return []
    fork = fork_of(rules)
    if fork is None:
        return []
    found = []
    for event in kinds.values():
        cards = (*event.cards[: len(written)], UNSEEN_CARD)
        move = event.replace(cards=cards, cards_text=" ".join(str(c) for c in cards), line=line, column=1)
        after = fork()
        before = len(after.violations)
        replay(after, record.replace(events=[move]))
        if len(after.violations) == before:
            public = rules.public(event)
            unseen = public is not None and len(public.cards) > len(written) and not public.cards[len(written)].seen
            found.append((move, unseen))
    return found


def _rests(legal: list[Event], written: list[Card | None], shown: Style,
           notation: Spelling) -> dict[str, tuple[str, list[str]]]:
    """For each last card of a legal move that goes on with a suit announced or a player
    named, the snippet that writes the move to its end, its choices the legal ones, and
    the same moves written out one by one (for a client without snippets)."""
    suits: dict[str, dict[str, None]] = {}
    targets: dict[str, dict[str, None]] = {}
    before: dict[str, str] = {}
    bare: set[str] = set()
    for event in legal:
        if list(event.cards[: len(written)]) != written or len(event.cards) != len(written) + 1:
            continue
        label = card_text(event.cards[-1], shown)
        if event.suit is None and event.target is None:  # legal alone too: no snippet forces more
            bare.add(label)
        if event.suit is not None:
            suits.setdefault(label, {})[notation.suit(event.suit)] = None
        if event.target is not None:
            targets.setdefault(label, {})[event.target] = None
            before[label] = notation.before(event.verb)
    found = {}
    for label in dict.fromkeys([*suits, *targets]):
        if label in bare:
            continue
        parts, n = [_escape(label)], 1
        plain = [label]
        if label in suits:
            parts.append(f"{_escape(notation.for_word)} {_choice(n, list(suits[label]))}")
            plain = [f"{p} {notation.for_word} {s}" for p in plain for s in suits[label]]
            n += 1
        if label in targets:
            word = f"{_escape(before[label])} " if before[label] else ""
            parts.append(word + _choice(n, list(targets[label])))
            plain = [" ".join(filter(None, [p, before[label], t])) for p in plain for t in targets[label]]
        found[label] = (" ".join(parts), plain)
    return found


def _escape(text: str) -> str:
    return re.sub(r"([\\$}])", r"\\\1", text)


def _choice(number: int, choices: list[str]) -> str:
    """A snippet's choice placeholder (``${1|S,H|}``), or a plain one for a single choice."""
    escaped = [re.sub(r"([\\$}|,])", r"\\\1", c) for c in choices]
    return "${%d|%s|}" % (number, ",".join(escaped)) if len(escaped) > 1 else "${%d:%s}" % (number, escaped[0])


def _complete_header(document: Document, line: int, text: str, column: int) -> Completion:
    game = _game_name(document, line)
    tag = _TAG_START.match(text)
    if tag is not None:  # in the record's notation: [Joueurs] in a French record
        spelt = spelling_of(document.record_at(line))
        return Completion([Item(spelt.tag(t), "tag") for t in known_tags(game)], column - len(tag.group(1)))
    value = _VALUE_START.match(text)
    if value is None:
        return Completion([], column)
    name, written = tag_key(value.group(1)), value.group(2)  # [Donneur "…"] is [Dealer "…"]
    partial = re.split(r"[\s,]", written)[-1]
    start = column - len(partial)
    if name == "game":
        return Completion([Item(g.name, "value", g.title) for g in GAMES if g.module], column - len(written))
    record = document.record_at(line)
    if name in ("dealer", "first", "result"):
        return Completion([Item(p, "player") for p in _written_players(record)], start)
    records = [item for _, item, _ in document.reports if isinstance(item, Record)]
    if name == "players":  # the names of the file's other games, but those written already
        typed = set(re.split(r"[\s,]+", written))
        names = dict.fromkeys(p for r in records for p in _written_players(r) if p not in typed)
        return Completion([Item(p, "player") for p in names], start)
    if name == "match":
        matches = dict.fromkeys(m for r in records if (m := r.tag("Match")))
        return Completion([Item(m, "value") for m in matches], column - len(written))
    entry = find_game(game) if game else None
    if entry is None or entry.module is None:
        return Completion([], start)
    option = next((o for o in load_rules(entry).options if o.tag.lower() == name), None)
    if option is None:
        return Completion([], start)
    return Completion([Item(choice, "value", option.help) for choice in option.choices], start)


def _game_name(document: Document, line: int) -> str | None:
    """The game named in the headers of the game that holds a line (or inherited)."""
    found = document.game_at(line)
    if found is None:
        return None
    game, item, _ = found
    if isinstance(item, Record):
        return item.tag("Game")
    written = re.search(r'\[\s*game\s+"([^"]*)"', game.text, re.IGNORECASE)
    return written.group(1) if written else None


# --- Hover -------------------------------------------------------------------------------

def hover(document: Document, line: int, column: int) -> str | None:
    """On a code, its ``referee explain`` text; elsewhere in a game, the table after the
    line as ``referee state --at LINE`` shows it, after what ``referee explain FILE:LINE``
    says of an event's line (its faults and why, or the ruling that let it stand)."""
    from ..cli.explain import CODE, explanation, render_code  # here, not at the server's start
    from ..text.safe_text import visible_lines

    text = document.line(line)
    begin, end = word_at(text, column)
    word = text[begin - 1:end - 1].strip(",.;:()«»'\"")
    if CODE.fullmatch(word):
        explained = explanation(word)
        if explained is not None:
            return _block(visible_lines("\n".join(render_code(explained))))
    record = document.record_at(line)
    if record is None:
        return None
    from ..state import render, state_of

    try:
        state = state_of(record, line)
    except RecordError as error:
        return _block(visible_lines(error.message))
    table = _block(visible_lines("\n".join(render(state))))
    game = document.game_at(line)
    if game is None or not any(e.line == line for e in record.events):
        return table
    from ..cli.explain import explain_line

    try:
        ruled = explain_line(document.path, line, record, game[2])
    except RecordError:
        return table
    return _block(visible_lines("\n".join(ruled))) + "\n\n" + table


def _block(text: str) -> str:
    """Text as a Markdown code block: its fence longer than any run of backticks in it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


# --- Code actions ------------------------------------------------------------------------

def actions(document: Document, first: int, last: int) -> list[Action]:
    """The fixes for the problems on some lines: "did you mean", marking a fault as
    accepted by the table, the one event a line is missing; and formatting the record."""
    found: list[Action] = []
    tried = 0
    for problem in document.problems():
        if not first <= problem.line <= last or problem.severity != "error":
            continue
        found += _did_you_mean(document, problem)
        if problem.code is not None:
            tried += 1
            missing = _missing_event(document, problem) if tried <= MISSING_TRIED else None
            if missing is not None:
                found.append(missing)
            if tried <= MARKS_TRIED and _markable(document, problem):
                accepted = _accept(document, problem)
                if accepted is not None:
                    found.append(accepted)
    for line in range(first, last + 1):
        found += _tag_fixes(document, line)
    formatted = format_edits(document)
    if formatted:
        found.append(Action(say("lsp.action.format"), "source", formatted))
    return found


UNMARKABLE = frozenset({"REC-RESULT-MISMATCH", "REC-SCORE-MISMATCH", "REC-STALE-ACCEPTED"})
"""Faults found once the replay is over, which a mark on their line does not excuse."""


def _markable(document: Document, problem: Problem) -> bool:
    """Whether ``; accepted CODE`` on the line excuses the fault: one an event made (the
    faults of headers, and of the game as a whole, are not excused so)."""
    record = document.record_at(problem.line)
    return problem.code not in UNMARKABLE and record is not None and any(e.line == problem.line for e in record.events)


def _accept(document: Document, problem: Problem) -> Action | None:
    """``; accepted CODE`` at the end of the line (after its comment, if any), where it
    ends the matter: the game replayed with the mark, the fault is gone and no other
    comes. A mark that brings other faults (a « carte » missed and accepted: the card
    drawn for it later is then owed by nobody) says them in its title; a mark that does
    not take the fault away is not offered."""
    follows = after_mark(document, problem)
    if follows is None:
        return None
    text = document.line(problem.line)
    end = len(text.rstrip())
    mark = f"; accepted {problem.code}" if ";" in text else f"  ; accepted {problem.code}"
    edit = Edit(problem.line, end + 1, problem.line, len(text) + 1, mark)
    if not follows:
        return Action(say("lsp.action.accept", code=problem.code), "quickfix", [edit], problem)
    first, *more = follows
    said = say("lsp.action.follows", line=first.line, code=first.code, message=first.message)
    if more:
        codes = join([say("lsp.action.follows-at", code=p.code, line=p.line) for p in more])
        said = say("lsp.action.follows-more", first=said, codes=codes)
    title = say("lsp.action.accept-then", mark=mark.strip(), faults=said)
    return Action(title, "quickfix", [edit], problem)


def after_mark(document: Document, problem: Problem) -> list[Problem] | None:
    """What ``; accepted CODE`` on a fault's line brings: the game replayed from that line
    with the mark (from the copy of its rules kept before it) and ended as ``check`` ends
    it. None when the fault is still there; else the faults shown that were not there
    before (none: the mark ends the matter)."""
    from ..cards import cards_named_in
    from ..engine import finish, replay

    found = document.game_at(problem.line)
    record = document.record_at(problem.line)
    if found is None or record is None or problem.code is None:
        return None
    chosen = document.settings.chosen

    def shown(violations: list[Violation]) -> dict[tuple[int, str], Violation]:
        return {(v.line, v.code): v for v in violations if not v.accepted and chosen(v.code)}

    before = shown(found[2].violations)
    events = [e.replace(comment=f"{e.comment or ''} ; accepted {problem.code}") if e.line == problem.line else e
              for e in record.events]
    marked = record.replace(events=events)
    with cards_named_in(record.french):
        rules = document.rules_before(problem.line, record)
        if rules is None:
            return None
        replay(rules, marked.replace(events=[e for e in events if e.line >= problem.line]))
        after = shown(finish(rules, marked).violations)
    if (problem.line, problem.code) in after:
        return None
    return [Problem(v.line, v.column, v.message, "error", v.code, v.rule, v.player)
            for key, v in after.items() if key not in before]


def _replace(problem: Problem, line: int, begin: int, end: int, choices: list[str], preferred: bool,
             safe: bool = False) -> list[Action]:
    return [Action(say("lsp.action.did-you-mean", suggestion=choice), "quickfix", [Edit(line, begin, line, end, choice)],
                   problem, preferred and n == 0, safe and n == 0) for n, choice in enumerate(choices)]


def _did_you_mean(document: Document, problem: Problem) -> list[Action]:
    """Names, verbs and cards close to the word a problem points at."""
    from ..cards import FRENCH_SPELLINGS, SPELLINGS
    from ..notation import split_cards

    text = document.line(problem.line)
    if text.lstrip().startswith("[") or not text.strip():
        return []
    begin, end = word_at(text, problem.column)
    word = text[begin - 1:end - 1]
    if not word:
        return []
    lead = _LEADING.match(text)
    index = len(text[lead.end() if lead else 0:begin - 1].split())
    record = document.record_at(problem.line)
    players = _written_players(record)
    if problem.code == "REC-UNKNOWN-PLAYER" and word in players:  # the player is known: the one named after the verb is not
        body = text.split(";")[0].rstrip()
        word = body.split()[-1] if body.split() else ""
        begin, end = len(body) - len(word) + 1, len(body) + 1
    if problem.code == "REC-UNKNOWN-PLAYER" or (problem.code is None and index == 0):
        same = [p for p in players if p.lower() == word.lower() and p != word]
        close = [p for p in difflib.get_close_matches(word, players, n=3, cutoff=0.6) if p != word]
        return _replace(problem, problem.line, begin, end, same or close, True, bool(same) and len(same) == 1)
    if problem.code is not None:
        return []
    written = spelling_of(record)  # what is offered is in the record's notation
    if index == 1:
        verbs = list(dict.fromkeys(written.verbs.values()))
        return _replace(problem, problem.line, begin, end, difflib.get_close_matches(word.lower(), verbs, n=3), True)
    glued = split_cards(word, FRENCH_SPELLINGS if written.french else SPELLINGS)
    if glued:
        return _replace(problem, problem.line, begin, end, [" ".join(glued)], True, True)
    rules = document.rules_before(problem.line)
    shown = shown_in(document, written)
    spellings = sorted({card_text(c, shown) for c in rules.in_play}) if rules is not None else sorted(written.spellings)
    other = SPELLINGS.get(word.upper()) if written.french else FRENCH_SPELLINGS.get(word.upper())
    exact = [card_text(other, shown)] if other is not None and other.seen else []  # a card of the other notation: its own letters
    close = [c for c in dict.fromkeys(exact + difflib.get_close_matches(word.upper(), spellings, n=3, cutoff=0.5))
             if c.upper() != word.upper()][:3]  # a fix changes the line
    return _replace(problem, problem.line, begin, end, close, bool(exact), bool(exact) and close[:1] == exact)


def _tag_fixes(document: Document, line: int) -> list[Action]:
    """A header whose tag referee does not read, close to one it reads."""
    text = document.line(line)
    tag = _HEADER.match(text)
    if tag is None:
        return []
    known = known_tags(_game_name(document, line))
    if tag.group(1).lower() in (t.lower() for t in known):
        return []
    close = difflib.get_close_matches(tag.group(1).capitalize(), known, n=2, cutoff=0.7)
    return _replace(Problem(line, tag.start(1) + 1, "", "information"), line, tag.start(1) + 1, tag.end(1) + 1, close, True)


def _missing_event(document: Document, problem: Problem) -> Action | None:
    """The event the table missed just before the faulty line, when exactly one of the
    events legal there (of the player at fault, when the fault names one) takes the fault
    away and brings no other: a missed « carte » call."""
    from ..engine import replay

    record = document.record_at(problem.line)
    event = next((e for e in record.events if e.line == problem.line), None) if record else None
    rules = document.rules_before(problem.line) if event is not None else None
    if rules is None or record is None or event is None or rules.result().finished:
        return None
    candidates = [e for e in legal_events(rules.legal()) if (problem.player is None or e.player == problem.player)
                  and (e.player, e.verb) != (event.player, event.verb)]  # the same again: the line is wrong, not short
    if not candidates or len(candidates) > CANDIDATES_TRIED:
        return None
    fork = fork_of(rules)
    if fork is None:
        return None
    found = document.game_at(problem.line)
    others = {v.code for v in found[2].violations if v.line == problem.line} - {problem.code} if found else set()
    fixes = []
    for candidate in candidates:
        after = fork()
        before = len(after.violations)
        inserted = candidate.replace(line=problem.line, column=1)
        moved = event.replace(line=problem.line + 1)
        replay(after, record.replace(events=[inserted, moved]))
        if {v.code for v in list(after.violations)[before:]} <= others:  # this fault gone, and no new one
            fixes.append(inserted)
            if len(fixes) > 1:
                return None
    if len(fixes) != 1:
        return None
    indent = document.line(problem.line)[: len(document.line(problem.line)) - len(document.line(problem.line).lstrip())]
    written = spelling_of(record).move(fixes[0])
    edit = Edit(problem.line, 1, problem.line, 1, indent + written + "\n")
    return Action(say("lsp.action.insert", event=written), "quickfix", [edit], problem, fixes[0].verb == "says")


def fix_all(document: Document) -> list[Edit]:
    """Every fix referee is sure of (``Action.safe``), at most one a line, as one edit of
    the record (``source.fixAll``): what it changes is how a line is written, never what
    happened at the table (no event inserted, no fault marked as accepted)."""
    edits: dict[int, Edit] = {}
    for problem in document.problems():
        if problem.severity != "error" or problem.line in edits:
            continue
        sure = next((a for a in _did_you_mean(document, problem) if a.safe), None)
        if sure is not None and len(sure.edits) == 1:
            edits[problem.line] = sure.edits[0]
    return list(edits.values())


# --- Formatting and the outline ----------------------------------------------------------

def format_edits(document: Document) -> list[Edit]:
    """The record in canonical form (``referee fmt``), as one edit of the whole text; none
    when it is already, when the configuration's ``exclude`` or ``[fmt] exclude`` protects
    it, or when a game cannot be read (fmt leaves such a file as it is:
    the error is then ``document.memo["format refused"]``)."""
    if document.settings.fmt_excluded:  # as fmt leaves it: a record kept as written on purpose
        return []
    if "format" not in document.memo:  # asked with every code action: worked out once per text
        from ..cli.fmt import canonical  # here, not at the server's start
        text = "".join(line + "\n" for line in document.lines)
        try:
            formatted = canonical(document.path, text.encode("utf-8", "surrogatepass"), style(document))
        except RecordError as error:
            formatted = text
            document.memo["format refused"] = error
        document.memo["format"] = [] if formatted == text else [Edit(1, 1, len(document.lines) + 1, 1, formatted)]
    edits: list[Edit] = document.memo["format"]  # type: ignore[assignment]
    return edits


def format_range(document: Document, first: int, last: int) -> list[Edit]:
    """``referee fmt``'s changes to the lines ``first`` to ``last``: the whole record is
    formatted, and the changes that touch those lines kept (each a run of lines replaced)."""
    whole = format_edits(document)
    if not whole:
        return []
    formatted = whole[0].text.split("\n")[:-1]
    edits = []
    matcher = difflib.SequenceMatcher(None, document.lines, formatted, autojunk=False)
    hunks: list[tuple[int, int, int, int]] = []
    for tag, a, b, c, d in matcher.get_opcodes():
        if tag == "replace" and b - a == d - c:  # line for line: each line its own change
            hunks += [(a + n, a + n + 1, c + n, c + n + 1) for n in range(b - a)]
        elif tag != "equal":
            hunks.append((a, b, c, d))
    for a, b, c, d in hunks:
        inside = first - 1 <= a <= last - 1 if a == b else a <= last - 1 and b > first - 1
        if not inside:
            continue
        text = "".join(line + "\n" for line in formatted[c:d])
        edits.append(Edit(a + 1, 1, b + 1, 1, text))
    return edits


def symbols(document: Document) -> list[Symbol]:
    """The games (or hands of a match) of the record, and the rounds of each."""
    found = []
    for game, item, report in document.reports:
        if not isinstance(item, Record):
            continue
        entry = find_game(item.tag("Game", "") or "")
        title = entry.title if entry is not None else item.tag("Game", "") or "?"
        players = join(report.players or _written_players(item))
        match = item.tag("Match")
        standing = report.match
        if match is not None and standing is not None:
            name, kind = say("lsp.symbol.hand", game=title, match=match, hand=getattr(standing, "hand", "?")), "hand"
        else:
            name, kind = say("lsp.symbol.game", game=title), "game"
        last = max([game.start, *(e.line for e in item.events), *(h.line for h in item.headers)])
        symbol = Symbol(name, kind, item.line, last, players)
        markers = [e for e in item.events if e.verb == "round"]
        for n, marker in enumerate(markers):
            end = markers[n + 1].line - 1 if n + 1 < len(markers) else last
            number = marker.word or str(n + 1)
            symbol.children.append(Symbol(say("lsp.symbol.round", number=number), "round", marker.line, max(end, marker.line)))
        found.append(symbol)
    return found
