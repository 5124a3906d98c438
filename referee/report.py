"""A check's report: as JSON (schemas/report.schema.json) and as text for a terminal."""

from __future__ import annotations

from .engine import GameReport
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
            {"code": v.code, "line": v.line, "column": v.column, "player": v.player, "message": v.message, "rule": v.rule}
            for v in report.violations
        ],
        "result": None,
        "tallies": report.tallies,
        "stats": report.stats,
        "todo": report.todo,
        "notes": report.notes,
        "headers": report.headers,
    }
    if report.result is not None:
        r = report.result
        data["result"] = {"finished": r.finished, "winner": r.winner, "order": r.order, "scores": r.scores,
                          "never_ends": r.never_ends}
    if report.error is not None:
        e = report.error
        data["error"] = {"line": e.line, "column": e.column, "message": e.message}
    return data


STATUS_STYLE = {"valid": "green", "violations": "red", "in-progress": "yellow", "never-ends": "magenta", "error": "red"}


def render(report: GameReport, console, sources: dict[int, str] | None = None) -> None:
    """Print one game's report: status, each violation with its source line, result."""
    from rich.markup import escape

    title = report.headers.get("Game", report.game) or "?"
    where = f"{report.file}:{report.line}"
    if report.status == "error":
        console.print(f"[bold]{escape(where)}[/] [red]{say('report.error')}[/]")
        console.print(escape(str(report.error)), highlight=False)
        return
    count = len(report.violations)
    status = say("report.violations", count=count) if count else say(f"report.{report.status}")
    console.print(f"[bold]{escape(where)}[/] {escape(title)} ({escape(join(report.players))}): "
                  f"[{STATUS_STYLE[report.status]}]{escape(status)}[/]", highlight=False)
    for v in report.violations:
        console.print(f"  [red]{v.line}:{v.column}[/] [bold]{v.code}[/] {escape(v.message)}", highlight=False)
        source = (sources or {}).get(v.line)
        if source is not None:
            console.print(f"      {escape(source.rstrip())}", highlight=False)
            console.print("      " + " " * (v.column - 1) + "^", highlight=False)
        if v.rule:
            console.print(f"      [dim]« {escape(v.rule)} »[/]", highlight=False)
    result = report.result
    if result is not None and result.winner:
        console.print("  " + escape(say("report.winner", player=result.winner)), highlight=False)
    if result is not None and len(result.order) > 1:
        console.print("  " + escape(say("report.order", players=join(result.order))), highlight=False)
    for todo in report.todo:
        console.print("  " + escape(say("report.to-move", todo=todo)), highlight=False)
    for note in report.notes:
        console.print(f"  [dim]{escape(note)}[/]", highlight=False)
    if report.stats:
        console.print("  [dim]" + escape(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in report.stats.items())) + "[/]",
                      highlight=False)
