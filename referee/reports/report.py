"""A check's report: as JSON (schemas/report.schema.json) and as text for a terminal."""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from ..engine import GameReport
from ..text.fit import fit_pieces
from ..games.base import UNITS, Violation, amount_text
from ..match import Standing, describe
from ..cards import Card
from ..messages import ENGLISH, Listed, Said, Tag, join, say
from ..spelling import ENGLISH as ENGLISH_NOTATION
from ..text.safe_text import WINDOW, excerpt, visible


def violation_json(v: Violation) -> dict[str, Any]:
    """A violation as plain data: its message worded, and beside it its sentence's key
    and fields (``field_json``), for tools that word it themselves."""
    return {"code": v.code, "line": v.line, "column": v.column, "player": v.player, "message": v.message,
            "key": v.key, "fields": {name: field_json(value) for name, value in v.fields.items()}, "rule": v.rule,
            "accepted": v.accepted}


def field_json(value: object) -> Any:
    """A sentence's field as plain data (schemas/report.schema.json, ``field``): a card as
    ``{"card": "QS"}`` in canonical (English) letters, a group of cards as ``{"cards":
    [...]}``, a sentence within the sentence as ``{"key": ..., "fields": {...}}``, a list
    as ``{"list": [...], "last": "and"}`` (``or``; empty: its parts one after the other);
    a header's tag by its English name (``Result``); a name, a word or a number as it is (a
    fraction of a glass as text, ``2/3``)."""
    if isinstance(value, Card):
        return {"card": ENGLISH_NOTATION.card(value)}
    if isinstance(value, Said):
        return {"key": value.key, "fields": {name: field_json(item) for name, item in value.fields.items()}}
    if isinstance(value, Listed):
        return {"list": [field_json(item) for item in value.items], "last": value.last}
    if isinstance(value, tuple):
        return {"cards": [ENGLISH_NOTATION.card(card) for card in value if isinstance(card, Card)]}
    if isinstance(value, Tag):
        return value.name
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def sentence_json(sentence: Said) -> dict[str, Any]:
    """A sentence as plain data: its key and its fields (``field_json``)."""
    return {"key": sentence.key, "fields": {name: field_json(value) for name, value in sentence.fields.items()}}


def _causes(report: GameReport) -> list[str]:
    """Each drink's cause in the language in use, its cards in the record's notation; a
    cause several drinks share (a 7's, the 6s') worded once."""
    worded: dict[int, str] = {}
    causes = []
    for drink in report.drinks:
        cause = worded.get(id(drink.cause))
        if cause is None:
            cause = worded[id(drink.cause)] = drink.cause_words(report.notation)
        causes.append(cause)
    return causes


def to_json(report: GameReport) -> dict[str, Any]:
    """The report of one game as plain data, valid against report.schema.json."""
    data: dict[str, Any] = {
        "file": report.file,
        "line": report.line,
        "game": report.game,
        "players": report.players,
        "status": report.status,
        "violations": [violation_json(v) for v in report.violations],
        "result": None,
        "tallies": report.tallies,
        "drinks": [{"player": d.player, "amount": d.amount, "unit": d.unit, "cause": cause, "line": d.line,
                    "round": d.round}
                   for d, cause in zip(report.drinks, _causes(report))],
        "drunk": report.drunk,
        "stats": report.stats,
        "todo": report.todo_words(),
        "todo_sentences": [sentence_json(todo) for todo in report.todo],
        "notes": report.notes,
        "headers": report.headers,
    }
    if report.result is not None:
        r = report.result
        data["result"] = {"finished": r.finished, "winner": r.winner, "order": r.order, "scores": r.scores,
                          "never_ends": r.never_ends,
                          "sentences": [{"message": sentence.words(), **sentence_json(sentence)}
                                        for sentence in report.result_said()]}
    if isinstance(report.match, Standing):  # the only standing a report holds (referee/match.py)
        m = report.match
        data["match"] = {"name": m.name, "hand": m.hand, "totals": m.totals, "counts": m.kind, "over": m.over,
                         "winners": m.winners, "target": m.target, "hands": m.hands}
    if report.error is not None:
        e = report.error
        data["error"] = {"line": e.line, "column": e.column, "message": e.message}
    if report.errors:
        after = report.errors[0].line
        data["unreadable"] = {"count": report.error_count,
                              "lines": [{"line": e.line, "column": e.column, "message": e.message} for e in report.errors]}
        for v, shown in zip(report.violations, data["violations"]):
            shown["after_unreadable"] = v.line > after
    return data


SHOWN_PER_KIND = 10
"""The most violations of one code a text report lists for a game; the others are counted."""


STATUS_STYLE = {"valid": "green", "violations": "red", "in-progress": "yellow", "never-ends": "magenta", "error": "red"}

Piece = tuple[str, str]
"""Some text and its rich style ("" for none)."""


INFO_TAGS = ("Event", "Round", "Date", "Place")
"""Headers shown in a game's title line, when given."""


def render(report: GameReport, sources: dict[int, str] | None = None, width: int | None = None) -> list[list[Piece]]:
    """One game's report as lines of styled pieces: the title and status, the lines that
    could not be read, each violation with its source line, the result, what comes next,
    the notes, the statistics. Plain text is the pieces joined; a terminal shows styles.
    What a record or a file name brings is made visible (safe_text); a long source line
    is shown around the caret; violations left out of the report are counted by code;
    each rule is quoted in full once, then referred to. With ``width``, every line fits
    it (a narrow terminal: a phone's), cut between words; a source line is shown
    around its caret, as much of it as fits."""
    lines = _render(report, sources, width)
    if width is None:
        return lines
    return [cut for line in lines for cut in fit_pieces(line, width)]


def _render(report: GameReport, sources: dict[int, str] | None, width: int | None) -> list[list[Piece]]:
    wrap = _wrapper(width)
    where = (visible(f"{report.file}:{report.line}" if report.line else report.file), "bold")
    if report.status == "error" and not report.players:
        return [[where, (" ", ""), (say("report.error"), "red")]] + [[(line, "")] for line in str(report.error).split("\n")]
    lines = [_title(report, where)]
    for error in report.errors:
        lines += [[(line, "red" if i == 0 else "")] for i, line in enumerate(_indent(str(error), "  "))]
    if report.error_count > len(report.errors):
        lines.append([("  " + say("report.more-unreadable", count=report.error_count - len(report.errors)), "red")])
    after = report.errors[0].line if report.errors else None
    quoted: dict[str, str] = {}
    for v in report.violations:
        if after is not None and v.line > after:
            lines.append([("  " + say("report.after-unreadable", line=after), "bold")])
            after = None
        style = "dim" if v.accepted else "red"
        label = f" {say('report.accepted-label')}" if v.accepted else ""
        head = f"  {v.line}:{v.column} {v.code}{label} "
        for i, text in enumerate(wrap(visible(v.message), len(head), 6)):
            lines.append([("  ", ""), (f"{v.line}:{v.column}", style), (" ", ""), (v.code + label, "bold"), (" " + text, "")]
                         if i == 0 else [(text, "")])
        source = (sources or {}).get(v.line)
        if source is not None:
            shown, caret = excerpt(source, v.column) if width is None else excerpt(source, v.column, min(WINDOW, max(10, width - 8)))
            lines.append([(f"      {shown}", "")])
            lines.append([("      " + " " * (caret - 1) + "^", "")])
        if v.rule and v.rule in quoted:
            lines.append([("      " + say("report.rule-above", place=quoted[v.rule]), "dim")])
        elif v.rule:
            quoted[v.rule] = f"{v.line}:{v.column}"
            lines += [[(text, "dim")] for text in wrap(f"« {v.rule} »", 6, 8, first="      ")]
    lines += [[("  " + say("report.more", count=n, code=code, keep=SHOWN_PER_KIND), "red")] for code, n in report.omitted.items()]
    if report.violations:
        codes = " ".join(dict.fromkeys(v.code for v in report.violations))
        commands = f"referee explain {codes}, referee explain {visible(report.file)}:{report.violations[0].line}"
        lines.append([("  " + say("report.explain", commands=commands), "dim")])
    lines += [[("  " + visible(sentence.words()), "")] for sentence in report.result_said()]
    if isinstance(report.match, Standing):
        lines.append([("  " + describe(report.match), "")])
    lines += _drinks(report)
    for todo in report.todo_words():
        lines += [[(text, "")] for text in wrap(visible(say("report.to-move", todo=todo)), 2, 4, first="  ")]
    if report.notes:
        lines.append([("  " + say("report.notes"), "dim")])
        times = Counter(report.notes)
        for note in dict.fromkeys(report.notes):  # a note the game gave again is shown once, counted
            shown = note if times[note] == 1 else say("report.note-times", note=note, times=times[note])
            lines += [[(text, "dim")] for text in wrap(visible(shown), 4, 6, first="    ")]
    if report.stats:
        stats = [say("report.stat", name=stat_name(k), value=v) for k, v in report.stats.items()]
        lines += [[(line, "dim")] for line in _items(stats, width, "  ", "    ")]
    return lines


def _items(items: list[str], width: int | None, first: str, rest: str) -> list[str]:
    """Items joined by commas, on as many lines as the width asks, each item whole."""
    if width is None:
        return [first + ", ".join(items)]
    lines = [first]
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if lines[-1].strip() and len(lines[-1]) + 1 + len(text) > width:
            lines.append(rest)
        lines[-1] += ("" if not lines[-1].strip() else " ") + text
    return lines


def stat_name(key: str) -> str:
    """A statistic's name in words: ``cards_played``, or ``drawn_by_Ana`` (by player)."""
    if f"stat.{key}" in ENGLISH:
        return say(f"stat.{key}")
    for prefix in PLAYER_STATS:
        if key.startswith(prefix + "_"):
            return say(f"stat.{prefix}", player=key[len(prefix) + 1:])
    return key.replace("_", " ")


PLAYER_STATS = ("drawn_by", "cards_left")
"""Statistics kept for each player, named ``<prefix>_<player>``."""


def _title(report: GameReport, where: Piece) -> list[Piece]:
    """The game's first line: where, the game, the players, what the headers say of the
    occasion, and the verdict."""
    accepted = sum(v.accepted for v in report.violations)
    count = len(report.violations) + sum(report.omitted.values()) - accepted
    if report.status == "error":
        status = say("report.unreadable", count=report.error_count)
    elif count:
        status = say("report.violations", count=count)
    else:
        status = say(f"report.{report.status}")
    if accepted:
        status += say("report.and-accepted", count=accepted)
    title = visible(report.headers.get("Game", report.game) or "?")
    info = [visible(say("report.round", number=report.headers[tag]) if tag == "Round" else report.headers[tag])
            for tag in INFO_TAGS if report.headers.get(tag, "").strip()]
    occasion = f", {', '.join(info)}" if info else ""
    heading = say("report.game", title=title, players=visible(join(report.players)), occasion=occasion)
    return [where, (f" {heading} ", ""), (status, STATUS_STYLE[report.status])]


def _indent(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.split("\n")]


class Wrap(Protocol):
    """Cuts a sentence into lines (see ``_wrapper``)."""

    def __call__(self, text: str, start: int, rest: int, first: str = "") -> list[str]: ...


def _wrapper(width: int | None) -> Wrap:
    """A function that cuts a sentence into lines of at most ``width`` characters once
    indented: the first after ``start`` characters (or ``first``), the others indented
    by ``rest``. No cut without a width."""
    import textwrap

    def wrap(text: str, start: int, rest: int, first: str = "") -> list[str]:
        if width is None or start + len(text) <= width:
            return [first + text]
        head = textwrap.wrap(text, width=max(10, width - start), break_long_words=False, break_on_hyphens=False)[0]
        tail = text[len(head):].strip()
        lines = textwrap.wrap(tail, width=max(10, width - rest), break_long_words=False, break_on_hyphens=False)
        return [first + head] + [" " * rest + line for line in lines]

    return wrap


def _amounts(units: dict[str, float]) -> str:
    return ", ".join(amount_text(units[u], u) for u in UNITS if u in units) or say("state.nothing")


def _drinks(report: GameReport) -> list[list[Piece]]:
    """Each player's drinks by unit, then each drink with its cause."""
    lines = []
    for player in report.players:
        units = report.tallies.get(player, {})
        amounts = _amounts(units)
        drank = report.drunk.get(player, {})
        if report.drunk and any(abs(units.get(u, 0) - drank.get(u, 0)) > 1e-9 for u in UNITS):
            lines.append([("  " + say("report.drinks-drank", player=player, amounts=amounts, drank=_amounts(drank)), "")])
        elif report.tallies:
            said = say("report.drinks", player=player, amounts=amounts) if units else say("report.no-drink", player=player)
            lines.append([("  " + said, "")])
    for d, cause in zip(report.drinks, _causes(report)):
        lines.append([("  " + say("report.drink", round=d.round, line=d.line, player=d.player, amount=d.text(),
                                  cause=cause), "dim")])
    return lines
