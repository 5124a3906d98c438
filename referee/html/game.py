"""One game of the HTML report: its timeline and the table after each event (replayed
from its events), and its section of the page.

A game is drawn *whole* (its timeline, the table at the end of each round, trick or pile
in ``<details>``, its charts, all in the HTML: readable with scripts off; the table after
any event as compact data for the page's script) or *light* (a large archive: its title,
result and violations in the HTML, its timeline as compact data that the script draws
when the game is opened). See docs/html-report.md."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from .card_svg import symbol_id, use
from ..cards import NUMBERED, UNSEEN_CARD, Card, cards_named_in, read_card
from ..engine import GameReport, replay, start
from ..games import find_game, load_rules
from ..games.base import UNITS, Rules, SetupError, Violation, amount_text
from ..match import Standing, describe
from ..messages import join, say
from ..text.numbers import whole
from ..record import Comment, Event, Record
from ..spelling import ENGLISH, Spelling, spelling_of
from . import charts
from .markup import Html, concat, esc, h, json_script

SHOWN_PER_CODE = 100
"""The most violations of one code a game's section lists; the others are counted."""
CARD_WIDTH = 34
"""Cards in the timeline and the table, in CSS pixels: readable on a phone, 9 in a row."""
CHECKPOINTS_KEPT = 24
"""The tables at the end of a round, trick or pile shown with scripts off, per game."""
SPLICE_FROM = 12
"""A changed value at least this long is sent as a splice of the previous one."""


@lru_cache(maxsize=512)
def code(card: Card) -> str:
    """A card in the page's data: its symbol's id without ``card-``."""
    return symbol_id(card)[5:]


def why(code_: str, game: str) -> str:
    """The convention referee follows for a code, in words, when the catalogue has it."""
    for key in (f"why.{game}.{code_}", f"why.{code_}"):
        try:
            return say(key)
        except KeyError:
            continue
    return ""


# --- Replaying a game for its states ----------------------------------------------------------

@dataclass
class Replayed:
    """What the page shows of a game's play: each event's table (flat), and what the
    charts need."""

    states: list[dict[str, str]] = field(default_factory=list)
    counts: dict[str, list[int]] = field(default_factory=dict)
    prices: list[int] = field(default_factory=list)
    owners: list[str] = field(default_factory=list)


def flat(rules: Rules, players: list[str]) -> dict[str, str]:
    """The table after an event as flat text values: ``t`` whose turn, ``h<seat>`` a hand
    (``count|known cards``), ``p:<name>`` a pile, ``k`` the stock, ``o`` what is owed,
    ``c`` scores, ``x:<label>`` the rest, ``d`` what is to do."""
    table = rules.table()
    state: dict[str, str] = {}
    if table.turn:
        state["t"] = table.turn
    for seat, player in enumerate(players):
        hand = table.hands.get(player)
        if hand is not None:
            state[f"h{seat}"] = f"{hand.count}|" + " ".join(code(c) for c in hand.known)
    for name, cards in table.piles.items():
        state["p:" + name] = " ".join(code(c) for c in cards)
    if table.stock is not None:
        state["k"] = str(table.stock)
    if table.owed:
        state["o"] = "\n".join(table.owed)
    if table.scores:
        state["c"] = "\n".join(f"{p}: {v}" for p, v in table.scores.items())
    for label, value in table.extra.items():
        state["x:" + label] = value
    if not rules.result().finished:
        todo = rules.todo()
        if todo:
            state["d"] = "\n".join(map(str, todo))
    return state


def replayed(record: Record, events: list[Event], players: list[str]) -> Replayed:
    """Replay a game event by event, taking the table after each (what it says of a
    French record names its cards in French letters, as check does)."""
    with cards_named_in(record.french):
        return _replayed(record, events, players)


def _replayed(record: Record, events: list[Event], players: list[str]) -> Replayed:
    found = Replayed()
    try:
        rules = start(record)
    except SetupError:
        return found
    shell = Record(record.path, record.line)
    found.counts = {p: [] for p in players}
    for event in events:
        shell.events = [event]
        replay(rules, shell)
        state = flat(rules, players)
        found.states.append(state)
        for seat, player in enumerate(players):
            hand = state.get(f"h{seat}", "0|")
            found.counts[player].append(int(hand.split("|", 1)[0]))
        point = rules.chart_point()
        if point is not None:
            price, owner = point
            found.prices.append(price)
            found.owners.append(players[owner] if owner is not None else "")
    return found


def delta(old: dict[str, str], new: dict[str, str]) -> dict[str, object]:
    """What changed from one table to the next: a value, a splice ``[kept at the start,
    kept at the end, new middle]`` of a long one, or None for a part gone."""
    changes: dict[str, object] = {}
    for key, value in new.items():
        before = old.get(key)
        if before == value:
            continue
        if before is not None and len(value) >= SPLICE_FROM:
            start_ = 0
            limit = min(len(before), len(value))
            while start_ < limit and before[start_] == value[start_]:
                start_ += 1
            end = 0
            while end < limit - start_ and before[-1 - end] == value[-1 - end]:
                end += 1
            changes[key] = [start_, end, value[start_:len(value) - end]]
        else:
            changes[key] = value
    for key in old.keys() - new.keys():
        changes[key] = None
    return changes


def checkpoints(states: list[dict[str, str]], events: list[Event]) -> list[int]:
    """The events after which a round, a trick or a pile ends: the next event takes cards
    from the piles or starts a round; and the last event."""
    def on_piles(state: dict[str, str]) -> int:
        return sum(len(v.split()) for k, v in state.items() if k.startswith("p:"))

    found = []
    for i in range(len(states) - 1):
        nxt = events[i + 1]
        if nxt.verb == "round" or on_piles(states[i + 1]) < on_piles(states[i]) or \
                states[i].get("x:round") != states[i + 1].get("x:round"):
            found.append(i)
    if states:
        found.append(len(states) - 1)
    if len(found) > CHECKPOINTS_KEPT:
        step = -(-len(found) // CHECKPOINTS_KEPT)
        found = found[::step] + ([found[-1]] if found[-1] not in found[::step] else [])
    return found


# --- Drawing -------------------------------------------------------------------------------------

def cards_html(codes: str, lang: str, limit: int = 0) -> Html:
    """Cards given by their codes; past ``limit`` (when given) counted in words."""
    shown = codes.split()
    more = len(shown) - limit if limit and len(shown) > limit else 0
    if more:
        shown = shown[:limit]
    parts = [Html(use(_card(c, read_card), width=CARD_WIDTH, lang=lang)) for c in shown]
    if more:
        parts.append(h('<span class="more">{}</span>', say("html.more-cards", count=more)))
    return h('<span class="cards">{}</span>', concat(parts))


def _card(text: str, read: Callable[[str], Card | None]) -> Card:
    if text == "back":
        return UNSEEN_CARD
    if text.startswith("N") and text[1:].isdigit():
        return Card(int(text[1:]), NUMBERED)
    return read(text) or UNSEEN_CARD


def state_html(state: dict[str, str], players: list[str], lang: str) -> Html:
    """A table after an event, as a definition list (the script draws the same)."""
    rows: list[tuple[str, Html]] = []
    if "t" in state:
        rows.append((say("html.turn"), esc(state["t"])))
    for seat, player in enumerate(players):
        hand = state.get(f"h{seat}")
        if hand is None:
            continue
        count, known = hand.split("|", 1)
        unseen = max(0, int(count) - len(known.split()))
        codes = known + " back" * min(unseen, 3)
        words = say("html.hand", count=int(count))
        rows.append((player, h("{} {}", words, cards_html(codes, lang, 12) if codes.strip() else "")))
    for key, value in state.items():
        if key.startswith("p:"):
            rows.append((key[2:], cards_html(value, lang, 12) if value else esc(say("html.empty"))))
    if "k" in state:
        rows.append((say("html.stock"), esc(say("html.hand", count=int(state["k"])))))
    for key, label in (("o", "html.owed"), ("c", "html.scores"), ("d", "html.todo")):
        if key in state:
            rows.append((say(label), concat(h("<span class=\"line\">{}</span>", line) for line in state[key].split("\n"))))
    rows += [(key[2:], esc(value)) for key, value in state.items() if key.startswith("x:")]
    return h('<dl class="state">{}</dl>', concat(h("<dt>{}</dt><dd>{}</dd>", k, v) for k, v in rows))


def event_html(event: Event, lang: str, written: Spelling = ENGLISH) -> Html:
    """An event as written (in the record's notation, ``written``), its cards drawn."""
    words = written.move(event)
    if not event.cards:
        return h('<span class="text">{}</span>', words)
    cards = written.written_cards(event)
    at = words.find(cards) if cards else -1
    if at < 0:
        return h('<span class="text">{}</span> {}', words, cards_html(" ".join(code(c) for c in event.cards), lang))
    return h('<span class="text">{}</span>{}<span class="text">{}</span>', words[:at],
             cards_html(" ".join(code(c) for c in event.cards), lang), words[at + len(cards):])


def violation_html(v: Violation, game: str, anchor: str) -> Html:
    """A violation: code, place, message, the rule quoted and why; accepted ones marked."""
    accepted = h('<span class="badge accepted">{}</span> ', say("html.accepted")) if v.accepted else Html("")
    rule = h('<blockquote lang="fr">« {} »</blockquote>', v.rule) if v.rule else Html("")
    reason = why(v.code, game)
    because = h('<p class="why"><b>{}</b> {}</p>', say("html.why"), reason) if reason else Html("")
    return h('<div class="violation{}" id="{}"><p><span class="code">{}</span> <a class="where" href="#{}">{}</a> {}{}</p>{}{}</div>',
             " is-accepted" if v.accepted else "", anchor, v.code, anchor, say("html.at", line=v.line, column=v.column),
             accepted, v.message, rule, because)


def title_html(report: GameReport, number: Html) -> Html:
    entry = find_game(report.game) if report.game else None
    name = entry.title if entry is not None else (report.headers.get("Game") or report.game or "?")
    info = [say("report.round", number=report.headers[tag]) if tag == "Round" else report.headers[tag]
            for tag in ("Event", "Round", "Date", "Place") if report.headers.get(tag, "").strip()]
    return h('<span class="num">{}</span> <span class="name">{}</span> <span class="players">{}</span> '
             '<span class="info">{}</span> <span class="status s-{}">{}</span>',
             number, name, join(report.players), " · ".join(info), report.status, status_text(report))


def status_text(report: GameReport) -> str:
    open_ = sum(not v.accepted for v in report.violations) + sum(report.omitted.values())
    if report.status == "error":
        return say("report.unreadable", count=max(report.error_count, 1)) if report.error_count else say("report.error")
    if open_:
        return say("html.violations", count=open_)
    return say(f"report.{report.status}")


def result_html(report: GameReport) -> Html:
    """Winner, finishing order, scores, the match, drinks by unit, what is to do, notes."""
    items: list[Html] = [h("<li>{}</li>", sentence.words()) for sentence in report.result_said()]
    if isinstance(report.match, Standing):  # the only standing a report holds (referee/match.py)
        items.append(h("<li>{}</li>", describe(report.match)))
    items += [h("<li>{}</li>", say("report.to-move", todo=t)) for t in report.todo_words()]
    parts = [h('<ul class="result">{}</ul>', concat(items))] if items else []
    if report.omitted:
        parts.append(h('<ul class="omitted">{}</ul>', concat(
            h("<li>{}</li>", say("report.more", count=n, code=code_, keep=SHOWN_PER_CODE)) for code_, n in report.omitted.items())))
    if report.tallies or report.drunk:
        parts.append(drinks_table(report))
    errors = report.errors or ([report.error] if report.error is not None else [])
    if errors:
        parts.append(h('<ul class="errors">{}</ul>', concat(
            h("<li><pre>{}</pre></li>", Html("\n".join(esc(line) for line in str(e).split("\n")))) for e in errors)))
    if report.notes:
        parts.append(h('<div class="notes"><h4>{}</h4><ul>{}</ul></div>', say("html.notes"),
                       concat(h("<li>{}</li>", n) for n in dict.fromkeys(report.notes))))
    return concat(parts)


def drinks_table(report: GameReport) -> Html:
    """Each player's drinks by unit: what the rules give and, when the record writes
    drinks, what it wrote beside it; a row where they differ is marked ≠ and the units
    that differ stand out. Where the record writes the drinks of some rounds only, what
    was drunk is compared with what those rounds gave (the others are said in a note)."""
    wrote = bool(report.drunk or report.drunk_rounds)  # a record that writes every round's drinks, and none
    written = set(report.drunk_rounds)
    unwritten = sorted({d.round for d in report.drinks if d.round is not None and d.round not in written}) if written else []
    compared: dict[str, dict[str, float]] = {}
    for d in report.drinks:
        if not written or d.round in written:
            units = compared.setdefault(d.player, {})
            units[d.unit] = units.get(d.unit, 0) + d.amount
    head = concat(h('<th scope="col">{}</th>', say(key)) for key in ("html.drinks.owed", "html.drinks.drunk")[: 2 if wrote else 1])
    rows = []
    for player in report.players:
        owes = report.tallies.get(player, {})
        cells = [h("<td>{}</td>", amounts_words(owes))]
        differs = False
        if wrote:
            drank = report.drunk.get(player, {})
            due = compared.get(player, {}) if report.drinks else owes
            off = {u for u in UNITS if abs(due.get(u, 0) - drank.get(u, 0)) > 1e-9}
            differs = bool(off)
            pieces = [h('<span class="{}">{}</span>', "off" if u in off else "same",
                        amount_text(drank[u], u) if drank.get(u) else say(f"html.drinks.none.{u}"))
                      for u in UNITS if drank.get(u) or u in off]
            mark = h('<span class="mark" title="{}">\u2260</span> <span class="sr">{}</span> ', say("html.drinks.differs"),
                     say("html.drinks.differs")) if differs else Html("")
            cells.append(h("<td>{}{}</td>", mark, concat(piece for k, p in enumerate(pieces) for piece in ((", ", p) if k else (p,)))
                           if pieces else say("html.drinks.nothing")))
        rows.append(h('<tr{}><th scope="row">{}</th>{}</tr>', Html(' class="differs"' if differs else ""), player, concat(cells)))
    caption = say("html.drinks.both") if wrote else say("html.drinks")
    note = h('<p class="note">{}</p>', say("html.drinks.unwritten", count=len(unwritten), rounds=join(str(r) for r in unwritten))
             ) if wrote and unwritten else Html("")
    return h('<div class="scroll"><table class="drinks"><caption>{}</caption><thead><tr><td></td>{}</tr></thead><tbody>{}</tbody>'
             '</table></div>{}', caption, head, concat(rows), note)


def game_charts(report: GameReport, events: list[Event], found: Replayed) -> Html:
    """The chart of a game, the one its rules name (``Rules.chart``): drinks by round
    (Caroleto), cards held (Bataille corse, Carte et Plouc, Pierre qui Roule), the bottle
    (Flaschenteufel)."""
    entry = find_game(report.game) if report.game else None
    draw = CHARTS.get(load_rules(entry).chart) if entry is not None and entry.module is not None else None
    return draw(report, found) if draw is not None else Html("")


def _drinks_chart(report: GameReport, found: Replayed) -> Html:
    """Each player's drinks round by round, by unit: what each round gave and, for the
    rounds whose drinks the record writes, what it wrote, side by side."""
    if not report.drinks and not report.drunk_rounds:
        return Html("")
    owed: dict[tuple[int, str, str], float] = {}
    for d in report.drinks:
        key = (d.round or 0, d.player, d.unit)
        owed[key] = owed.get(key, 0) + d.amount
    drunk = report.drunk_rounds
    rounds = sorted({k[0] for k in owed} | set(drunk))
    units = [u for u in UNITS if any(k[2] == u for k in owed) or any(u in a for r in drunk.values() for a in r.values())]
    words = {u: say(f"html.unit.{u}") for u in units}
    words.update(owed=say("html.drinks.owed"), drunk=say("html.drinks.drunk"), differs=say("html.drinks.differs"))

    def bar_title(number: int, player: str, owes: Mapping[str, float] | None, drank: Mapping[str, float] | None) -> str:
        fields = {"round": say("html.round", number=number), "player": player}
        if owes is not None and drank is not None:
            return say("html.chart.differs", owed=amounts_words(owes), drank=amounts_words(drank), **fields)
        if drank is not None:
            return say("html.chart.drank", amounts=amounts_words(drank), **fields)
        return say("html.chart.owes", amounts=amounts_words(owes or {}), **fields)

    return charts.drink_rows(say("html.chart.drinks"), rounds, report.players, owed, drunk, units, words, bar_title)


def amounts_words(units: Mapping[str, float]) -> str:
    """Amounts by unit in words (« 3 gorgées, 1 half glass »), never added together."""
    return ", ".join(amount_text(units[u], u) for u in UNITS if units.get(u)) or say("html.drinks.nothing")


def _cards_chart(report: GameReport, found: Replayed) -> Html:
    """The cards each player holds, event by event."""
    return charts.lines(say("html.chart.cards"), found.counts, say("html.events")) if found.states else Html("")


def _bottle_chart(report: GameReport, found: Replayed) -> Html:
    """The price of the bottle and who owns it, event by event (``Rules.chart_point``)."""
    if not found.prices:
        return Html("")
    return charts.owned_steps(say("html.chart.bottle"), found.prices, found.owners, report.players, say("html.nobody"))


CHARTS: dict[str, Callable[[GameReport, Replayed], Html]] = {"drinks": _drinks_chart, "cards": _cards_chart,
                                                             "bottle": _bottle_chart}
"""Each chart a game may name (``Rules.chart``) and what draws it."""


def _merged(events: list[Event], comments: list[Comment]) -> Iterator[tuple[int, Event | Comment]]:
    """Events (with their index) and comment lines in line order."""
    e = c = 0
    while e < len(events) or c < len(comments):
        if c < len(comments) and (e >= len(events) or comments[c].line < events[e].line):
            yield -1, comments[c]
            c += 1
        else:
            yield e, events[e]
            e += 1


def whole_html(prefix: str, report: GameReport, record: Record, events: list[Event], comments: list[Comment],
               lang: str, dropped: int) -> tuple[Html, Html]:
    """A game drawn whole: (its body, its compact data for the script)."""
    found = replayed(record, events, report.players)
    written = spelling_of(record)
    at_event: dict[int, list[int]] = {}
    lines = {e.line: i for i, e in enumerate(events)}
    loose: list[int] = []
    for k, v in enumerate(report.violations):
        (at_event.setdefault(lines[v.line], []) if v.line in lines else loose).append(k)
    marks = set(checkpoints(found.states, events)) if found.states else set()
    items = []
    for i, item in _merged(events, comments):
        if isinstance(item, Comment):
            items.append(h('<li class="comment"><span class="ln">{}</span> <span class="text">{}</span></li>', item.line, item.text))
            continue
        faults = concat(violation_html(report.violations[k], report.game, f"{prefix}-v{k}") for k in at_event.get(i, []))
        flagged = " flagged" if i in at_event else ""
        state = Html("")
        if i in marks:
            state = h('<details class="checkpoint"><summary>{}</summary>{}</details>',
                      say("html.table-after", line=item.line), state_html(found.states[i], report.players, lang))
        items.append(h('<li class="event{}" data-i="{}" id="{}-e{}"><span class="ln">{}</span> {}{}{}</li>',
                       flagged, i, prefix, i, item.line, event_html(item, lang, written), faults, state))
    more = h('<p class="note">{}</p>', say("html.events-dropped", count=dropped)) if dropped else Html("")
    body = concat([
        h('<div class="loose">{}</div>', concat(violation_html(report.violations[k], report.game, f"{prefix}-v{k}") for k in loose))
        if loose else "",
        game_charts(report, events, found),
        h('<h4>{}</h4><p class="hint">{}</p><ol class="timeline">{}</ol>{}', say("html.timeline"), say("html.click-hint"),
          concat(items), more) if items else "",
    ])
    deltas = []
    previous: dict[str, str] = {}
    for table in found.states:
        deltas.append(delta(previous, table))
        previous = table
    return body, json_script(f"{prefix}-data", {"p": report.players, "s": deltas})


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The one-character indexes of players and verbs in a light game's data."""


def light_html(prefix: str, report: GameReport, events: list[Event], comments: list[Comment], dropped: int,
               written: Spelling = ENGLISH) -> tuple[Html, Html]:
    """A game of a large archive: its violations in the HTML, its timeline as compact
    data for the script (a few bytes an event; docs/html-report.md): ``e`` the events
    separated by spaces, each its player's and its verb's index (one character each, in
    ``p`` and ``v``) then its cards, comma-separated, then ``~m`` when its move number
    follows the previous one and ``~t`` (or ``~mt``) when its time is the previous one;
    ``m`` and ``t`` the other move numbers and times; ``x`` the text after the cards (a
    target, a comment), or for an event of another shape (``__`` in ``e``) the text
    before and after its cards;
    ``g`` the line of an event that does not follow the previous one; ``c`` the comment
    lines; ``w`` the violations at each event."""
    players = list(report.players)[: len(DIGITS)]
    verbs: list[str] = []
    tokens: list[str] = []
    extra: dict[int, object] = {}
    gaps: dict[int, int] = {}
    moves: dict[int, str] = {}
    times: dict[int, str] = {}
    lines = {e.line: i for i, e in enumerate(events)}
    previous = last_move = last_time = None
    for i, event in enumerate(events):
        if previous is None or event.line != previous + 1:
            gaps[i] = event.line
        previous = event.line
        cards = ",".join(code(c) for c in event.cards)
        words = written.move(event)
        spelt = written.written_cards(event) if event.cards else ""
        at = words.find(spelt) if event.cards else -1
        if event.verb not in verbs and len(verbs) < len(DIGITS):
            verbs.append(event.verb)
        head = f"{event.player} {written.verb(event.verb)}"
        start_ = words.find(head)
        if event.player in players and event.verb != "round" and event.verb in verbs and start_ >= 0 \
                and (at < 0 or at == start_ + len(head) + 1):
            flags = ""
            if event.move is not None:
                if last_move is not None and event.move == f"{last_move + 1}.":
                    flags += "m"
                else:
                    moves[i] = event.move
                last_move = whole(event.move[:-1])
            if event.time is not None:
                if event.time == last_time:
                    flags += "t"
                else:
                    times[i] = event.time
                last_time = event.time
            tokens.append(DIGITS[players.index(event.player)] + DIGITS[verbs.index(event.verb)] + (cards if at >= 0 else "")
                          + ("~" + flags if flags else ""))
            post = words[at + len(spelt):] if at >= 0 else words[start_ + len(head):]
            if post:
                extra[i] = post
            continue
        extra[i] = [words[:at], words[at + len(spelt):]] if at >= 0 else [words, ""]
        tokens.append("__" + (cards if at >= 0 else ""))
    at_event: dict[int, list[int]] = {}
    for k, v in enumerate(report.violations):
        if v.line in lines:
            at_event.setdefault(lines[v.line], []).append(k)
    body = concat([
        h('<div class="loose">{}</div>', concat(violation_html(v, report.game, f"{prefix}-v{k}") for k, v in enumerate(report.violations)))
        if report.violations else "",
        h('<h4>{}</h4><ol class="timeline" data-light="1"></ol>', say("html.timeline")),
        h('<p class="note">{}</p>', say("html.events-dropped", count=dropped)) if dropped else "",
    ])
    data = {"p": players, "v": [written.verb(v) for v in verbs], "e": " ".join(tokens), "x": extra, "g": gaps, "m": moves, "t": times,
            "c": [[c.line, c.text] for c in comments], "w": at_event}
    return body, json_script(f"{prefix}-data", data)


def section_html(prefix: str, number: Html, report: GameReport, record: Record | None, events: list[Event],
                 comments: list[Comment], lang: str, whole: bool, dropped: int) -> Html:
    """A game's section: a ``<details>`` whose summary is its title line (``number``: the
    game's number in the page); ``prefix`` starts the ids of its parts."""
    place = f"{report.file}:{report.line}" if report.line else report.file
    if record is None:
        body, data = Html(""), Html("")
    elif whole:
        body, data = whole_html(prefix, report, record, events, comments, lang, dropped)
    else:
        body, data = light_html(prefix, report, events, comments, dropped, spelling_of(record))
    return h('<details class="game{}" id="{}"><summary>{}</summary><div class="body"><p class="place">{}</p>{}{}{}</div></details>',
             "" if whole else " light", prefix, title_html(report, number), place,
             result_html(report), body, data)
