"""A check's report: as JSON (schemas/report.schema.json) and as text for a terminal."""

from __future__ import annotations

from .engine import GameReport
from .games.base import UNITS, amount_text
from .messages import join, say


def to_json(report: GameReport) -> dict:
    """The report of one game as plain data, valid against report.schema.json."""
    data: dict = {
        "file": report.file,
        "line": report.line,
        "game": report.game,
        "players": report.players,
        "status": report.status,
        "violations": [
            {"code": v.code, "line": v.line, "column": v.column, "player": v.player, "message": v.message, "rule": v.rule,
             "accepted": v.accepted}
            for v in report.violations
        ],
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


def _counts(game: str) -> str:
    """What a game's scores count: points or penalty points."""
    from .games import find_game, load_rules

    return load_rules(find_game(game)).match_points


STATUS_STYLE = {"valid": "green", "violations": "red", "in-progress": "yellow", "never-ends": "magenta", "error": "red"}

Piece = tuple[str, str]
"""Some text and its rich style ("" for none)."""


def render(report: GameReport, sources: dict[int, str] | None = None) -> list[list[Piece]]:
    """One game's report as lines of styled pieces: status, each violation with its
    source line, the result. Plain text is the pieces joined; a terminal shows styles."""
    where = (f"{report.file}:{report.line}" if report.line else report.file, "bold")
    if report.status == "error":
        return [[where, (" ", ""), (say("report.error"), "red")], [(str(report.error), "")]]
    count = len(report.violations)
    status = say("report.violations", count=count) if count else say(f"report.{report.status}")
    title = report.headers.get("Game", report.game) or "?"
    lines = [[where, (f" {title} ({join(report.players)}): ", ""), (status, STATUS_STYLE[report.status])]]
    for v in report.violations:
        lines.append([("  ", ""), (f"{v.line}:{v.column}", "red"), (" ", ""), (v.code, "bold"), (f" {v.message}", "")])
        source = (sources or {}).get(v.line)
        if source is not None:
            lines.append([(f"      {source.rstrip().expandtabs(1)}", "")])
            lines.append([("      " + " " * (v.column - 1) + "^", "")])
        if v.rule:
            lines.append([(f"      « {v.rule} »", "dim")])
    if report.violations:
        codes = " ".join(dict.fromkeys(v.code for v in report.violations))
        commands = f"referee explain {codes}, referee explain {report.file}:{report.violations[0].line}"
        lines.append([("  " + say("report.explain", commands=commands), "dim")])
    result = report.result
    if result is not None and result.winner:
        lines.append([("  " + say("report.winner", player=result.winner), "")])
    if result is not None and len(result.order) > 1:
        lines.append([("  " + say("report.order", players=join(result.order)), "")])
    if result is not None and result.scores:
        scores = ", ".join(f"{p} {v}" for p, v in result.scores.items())
        lines.append([("  " + say("report.scores", scores=scores, unit=say(f"match.unit.{_counts(report.game)}")), "")])
    if report.match is not None:
        from .match import describe

        lines.append([("  " + describe(report.match), "")])
    lines += _drinks(report)
    lines += [[("  " + say("report.to-move", todo=todo), "")] for todo in report.todo]
    lines += [[(f"  {note}", "dim")] for note in report.notes]
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
