"""A check's report: as JSON (schemas/report.schema.json) and as text for a terminal."""

from __future__ import annotations

from .engine import GameReport
from .games.base import UNITS, Violation, amount_text
from .messages import join, say
from .safe_text import excerpt, visible


def violation_json(v: Violation) -> dict:
    return {"code": v.code, "line": v.line, "column": v.column, "player": v.player, "message": v.message, "rule": v.rule,
            "accepted": v.accepted}


def to_json(report: GameReport) -> dict:
    """The report of one game as plain data, valid against report.schema.json."""
    data: dict = {
        "file": report.file,
        "line": report.line,
        "game": report.game,
        "players": report.players,
        "status": report.status,
        "violations": [violation_json(v) for v in report.violations],
        "result": None,
        "tallies": report.tallies,
        "drinks": [{"player": d.player, "amount": d.amount, "unit": d.unit, "cause": d.cause, "line": d.line,
                    "round": d.round} for d in report.drinks],
        "stats": report.stats,
        "todo": report.todo,
        "notes": report.notes,
        "headers": report.headers,
    }
    if report.result is not None:
        r = report.result
        data["result"] = {"finished": r.finished, "winner": r.winner, "order": r.order, "scores": r.scores,
                          "never_ends": r.never_ends}
    if report.match is not None:
        m = report.match
        data["match"] = {"name": m.name, "hand": m.hand, "totals": m.totals, "counts": m.kind, "over": m.over,
                         "winners": m.winners, "target": m.target, "hands": m.hands}
    if report.error is not None:
        e = report.error
        data["error"] = {"line": e.line, "column": e.column, "message": e.message}
    return data


SHOWN_PER_KIND = 10
"""The most violations of one code a text report lists for a game; the others are counted."""


def _counts(game: str) -> str:
    """What a game's scores count: points or penalty points."""
    from .games import find_game, load_rules

    return load_rules(find_game(game)).match_points


STATUS_STYLE = {"valid": "green", "violations": "red", "in-progress": "yellow", "never-ends": "magenta", "error": "red"}

Piece = tuple[str, str]
"""Some text and its rich style ("" for none)."""


def render(report: GameReport, sources: dict[int, str] | None = None) -> list[list[Piece]]:
    """One game's report as lines of styled pieces: status, each violation with its
    source line, the result. Plain text is the pieces joined; a terminal shows styles.
    What a record or a file name brings is made visible (safe_text); a long source line
    is shown around the caret; violations left out of the report are counted by code."""
    where = (visible(f"{report.file}:{report.line}" if report.line else report.file), "bold")
    if report.status == "error":
        return [[where, (" ", ""), (say("report.error"), "red")]] + [[(line, "")] for line in str(report.error).split("\n")]
    count = len(report.violations) + sum(report.omitted.values())
    status = say("report.violations", count=count) if count else say(f"report.{report.status}")
    title = visible(report.headers.get("Game", report.game) or "?")
    lines = [[where, (f" {title} ({visible(join(report.players))}): ", ""), (status, STATUS_STYLE[report.status])]]
    for v in report.violations:
        lines.append([("  ", ""), (f"{v.line}:{v.column}", "red"), (" ", ""), (v.code, "bold"), (f" {visible(v.message)}", "")])
        source = (sources or {}).get(v.line)
        if source is not None:
            shown, caret = excerpt(source, v.column)
            lines.append([(f"      {shown}", "")])
            lines.append([("      " + " " * (caret - 1) + "^", "")])
        if v.rule:
            lines.append([(f"      « {v.rule} »", "dim")])
    lines += [[("  " + say("report.more", count=n, code=code, keep=SHOWN_PER_KIND), "red")] for code, n in report.omitted.items()]
    if report.violations:
        codes = " ".join(dict.fromkeys(v.code for v in report.violations))
        commands = f"referee explain {codes}, referee explain {visible(report.file)}:{report.violations[0].line}"
        lines.append([("  " + say("report.explain", commands=commands), "dim")])
    result = report.result
    if result is not None and result.winner:
        lines.append([("  " + visible(say("report.winner", player=result.winner)), "")])
    if result is not None and len(result.order) > 1:
        lines.append([("  " + visible(say("report.order", players=join(result.order))), "")])
    if result is not None and result.scores:
        scores = ", ".join(f"{p} {v}" for p, v in result.scores.items())
        lines.append([("  " + say("report.scores", scores=scores, unit=say(f"match.unit.{_counts(report.game)}")), "")])
    if report.match is not None:
        from .match import describe

        lines.append([("  " + describe(report.match), "")])
    lines += _drinks(report)
    lines += [[("  " + visible(say("report.to-move", todo=todo)), "")] for todo in report.todo]
    lines += [[(f"  {visible(note)}", "dim")] for note in report.notes]
    if report.stats:
        lines.append([("  " + ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in report.stats.items()), "dim")])
    return lines


def _drinks(report: GameReport) -> list[list[Piece]]:
    """Each player's drinks by unit, then each drink with its cause."""
    lines = []
    for player in report.players:
        units = report.tallies.get(player, {})
        amounts = ", ".join(amount_text(units[u], u) for u in UNITS if u in units) or say("report.no-drink")
        if report.tallies:
            lines.append([("  " + say("report.drinks", player=player, amounts=amounts), "")])
    for d in report.drinks:
        lines.append([("  " + say("report.drink", round=d.round, line=d.line, player=d.player, amount=d.text(),
                                  cause=d.cause), "dim")])
    return lines
