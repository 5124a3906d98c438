"""``referee standings --format html``: the standings as one page in the HTML report's
style (its CSS, its escaping layer, its charts): a leaderboard per game kind, each
player's faults and drinks, the running scores, and every game read. No script at all."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping

from ..games import find_game
from ..messages import join, language, say
from ..standings import Standings, score_kind
from ..games.base import UNITS, amount_text
from . import charts
from .assets import STYLE
from .game import amounts_words
from .markup import Html, concat, h


def id_of(file: str, line: object) -> str:
    """A game's id, as the HTML report gives it (referee/html/__init__.py)."""
    from . import id_of as report_id

    return report_id(file, int(str(line)))

PAGE_STYLE = STYLE + """
.board{width:100%;font-size:.9rem;margin:.4rem 0}.board caption{text-align:left;font-weight:700}
.board th,.board td{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top}
.board td.n,.board th.n{text-align:right;font-variant-numeric:tabular-nums}
.board td.name{overflow-wrap:break-word;max-width:10rem}
.nw{white-space:nowrap}
.sources{font-size:.85rem;color:var(--muted);margin:.2rem 0 .8rem}.sources ol{margin:.2rem 0;padding-left:2.2rem;overflow-wrap:anywhere}
.warning{margin:.4rem 0;border-left:4px solid var(--warn);background:var(--panel);padding:.35rem .6rem;border-radius:0 6px 6px 0}
"""


def _title(kind: str) -> str:
    entry = find_game(kind)
    return entry.title if entry is not None else kind


def _amounts(units: dict[str, int | float]) -> str:
    return join(amount_text(amount, unit) for unit, amount in sorted(units.items()) if amount)


def _board(standings: Standings, kind: str) -> Html:
    scores = score_kind(kind)
    heads = ["#", say("standings.html.player"), say("standings.html.played"), say("standings.html.wins"),
             say("standings.html.places")] + ([say(f"standings.html.score.{scores}")] if scores != "wins" else [])
    rows = []
    for place, name in enumerate(standings.leaderboard(kind), 1):
        t = standings.players[name]
        places = Html(", ".join(h('<span class="nw">{}</span>', say("standings.place", place=p, count=n))
                                for p, n in sorted(t.places.get(kind, {}).items())))
        cells = [h('<td class="n">{}</td><td class="name">{}</td><td class="n">{}</td><td class="n">{}</td><td>{}</td>',
                   place, name, t.played[kind], t.wins.get(kind, 0), places)]
        if scores != "wins":
            cells.append(h('<td class="n">{}</td>', t.scores.get(kind, 0)))
        rows.append(h("<tr>{}</tr>", concat(cells)))
    header = concat(h('<th scope="col"{}>{}</th>', Html(' class="n"' if k in (0, 2, 3, 5) else ""), t) for k, t in enumerate(heads))
    table = h('<div class="scroll"><table class="board"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>',
              say("standings.html.leaderboard"), header, concat(rows))
    chart = Html("")
    counted = standings.kind_games.get(kind, [])
    charted = standings.history_games.get(kind, [])
    history = standings.history.get(kind, [])
    shared = len(history) > 1 and charted == counted  # one list of games for the board and its chart
    if len(history) > 1:
        players = standings.leaderboard(kind)
        running = {p: [0.0] for p in players}
        for game in history:
            for p in players:
                running[p].append(running[p][-1] + game.get(p, 0))
        chart = concat([charts.lines(say(f"standings.html.score.{scores}"), running, say("standings.html.game")),
                        "" if shared else _sources(charted)])
    games = _sources(counted, "standings.html.board-chart-sources" if shared else "standings.html.board-sources")
    return h('<section class="kind"><h2>{}</h2>{}{}{}{}</section>',
             say("standings.kind", title=_title(kind), count=standings.kinds[kind]), table, games, _rating(standings, kind), chart)


def _rating(standings: Standings, kind: str) -> Html:
    """The kind's ratings (--rating), best first; nothing when not asked for."""
    ratings = (standings.ratings or {}).get(kind)
    if not ratings:
        return Html("")
    best = sorted(ratings, key=lambda p: (-ratings[p]["ordinal"], p))
    rows = concat(h('<tr><td class="name">{}</td><td class="n">{}</td><td class="n">{} ± {}</td></tr>', p,
                    f"{ratings[p]['ordinal']:.1f}", f"{ratings[p]['mu']:.1f}", f"{ratings[p]['sigma']:.1f}") for p in best)
    return h('<div class="scroll"><table class="board"><caption>{}</caption><thead><tr><th scope="col">{}</th>'
             '<th scope="col" class="n">{}</th><th scope="col" class="n">mu ± sigma</th></tr></thead><tbody>{}</tbody></table></div>',
             say("standings.html.rating"), say("standings.html.player"), say("standings.html.ordinal"), rows)


def _sources(games: list[tuple[str, int]], key: str = "standings.html.sources") -> Html:
    """The games a chart or a leaderboard comes from, numbered as on the chart's x axis
    (in the order read), each linked to its row."""
    return h('<details class="sources"><summary>{}</summary><ol>{}</ol></details>', say(key, count=len(games)),
             concat(h('<li><a href="#{}">{}:{}</a></li>', id_of(file, line), file, line) for file, line in games))


def _drinks(standings: Standings) -> Html:
    """The drinks of the evening, game after game, a row per player: what the rules gave
    and what the records wrote, side by side (the single game's chart, a game a slot)."""
    games = standings.drink_games
    if not games:
        return Html("")
    players = sorted({p for g in games for p in g.given} | {p for g in games for p in (g.drunk or {})})
    owed = {(k, p, u): float(a) for k, g in enumerate(games, 1) for p, units in g.given.items() for u, a in units.items()}
    drunk = {k: g.drunk for k, g in enumerate(games, 1) if g.drunk is not None}
    due = {(k, p, u): float(a) for k, g in enumerate(games, 1) for p, units in g.due.items() for u, a in units.items()}
    units = [u for u in UNITS if any(k[2] == u for k in owed) or any(u in a for d in drunk.values() for a in d.values())]
    words = {u: say(f"html.unit.{u}") for u in units}
    words.update(owed=say("html.drinks.owed"), drunk=say("html.drinks.drunk"), differs=say("html.drinks.differs"))

    def bar_title(number: int, player: str, owes: Mapping[str, float] | None, drank: Mapping[str, float] | None) -> str:
        game = games[number - 1]
        fields = {"round": say("standings.html.game-at", number=number, place=f"{game.file}:{game.line}"), "player": player}
        if owes is not None and drank is not None:
            return say("html.chart.differs", owed=amounts_words(owes), drank=amounts_words(drank), **fields)
        if drank is not None:
            return say("html.chart.drank", amounts=amounts_words(drank), **fields)
        return say("html.chart.owes", amounts=amounts_words(owes or {}), **fields)

    chart = charts.drink_rows(say("standings.html.chart.drinks"), list(range(1, len(games) + 1)), players, owed, drunk, units,
                              words, bar_title, [f"#{id_of(g.file, g.line)}" for g in games], due)
    return h('<section class="evening-drinks"><h2>{}</h2>{}{}</section>', say("standings.html.drinks"), chart,
             _sources([(g.file, g.line) for g in games]))


def _players(standings: Standings) -> Html:
    heads = [say("standings.html.player"), say("standings.html.faults"), say("standings.html.accepted"),
             say("standings.html.given"), say("standings.html.drunk")]
    rows = []
    causes = []
    for name in sorted(standings.players):
        t = standings.players[name]
        rows.append(h('<tr><td class="name">{}</td><td class="n">{}</td><td class="n">{}</td><td>{}</td><td>{}</td></tr>',
                      name, t.faults, t.accepted, _amounts(t.drinks), _amounts(t.drunk)))
        if t.causes:
            items = concat(h('<li>{} — {} <a class="place" href="#{}">{}:{}</a></li>', amount_text(c["amount"], str(c["unit"])),  # type: ignore[arg-type]
                             c["cause"], id_of(str(c["file"]), c["game_line"]), c["file"], c["line"]) for c in t.causes)
            causes.append(h("<details><summary>{}</summary><ul>{}</ul></details>", name, items))
    header = concat(h('<th scope="col">{}</th>', t) for t in heads)
    return h('<section class="players"><h2>{}</h2><div class="scroll"><table class="board"><thead><tr>{}</tr></thead>'
             '<tbody>{}</tbody></table></div>{}</section>', say("standings.players"), header, concat(rows),
             h("<h3>{}</h3>{}", say("standings.html.causes"), concat(causes)) if causes else Html(""))


def _games(standings: Standings) -> Html:
    heads = [say("standings.html.game"), say("standings.html.status"), say("standings.html.file")]
    rows = concat(h('<tr class="s-{}" id="{}"><td>{}</td><td class="status">{}</td><td class="place">{}:{}</td></tr>',
                    g["status"], id_of(str(g["file"]), g["line"]), _title(str(g["game"])) if g["game"] else "?",
                    say("standings.html.counted" if g["counted"] else "standings.html.not-counted"), g["file"], g["line"])
                  for g in standings.games)
    header = concat(h('<th scope="col">{}</th>', t) for t in heads)
    return h('<section class="games"><h2>{}</h2><div class="scroll"><table class="board"><thead><tr>{}</tr></thead>'
             '<tbody>{}</tbody></table></div></section>', say("standings.html.games"), header, rows)


def page(standings: Standings) -> str:
    """The whole page (UTF-8 text)."""
    style_hash = base64.b64encode(hashlib.sha256(PAGE_STYLE.encode("utf-8")).digest()).decode("ascii")
    policy = f"default-src 'none'; style-src 'sha256-{style_hash}'; script-src 'none'; img-src data:; base-uri 'none'; form-action 'none'"
    summary = ", ".join([say("standings.read", count=len(standings.games)),
                         say("standings.counted", count=sum(standings.kinds.values()))])
    warnings = concat(h('<p class="warning">{}</p>', say("standings.alike", one=a, other=b)) for a, b in standings.alike())
    apart = concat(h('<details class="warning"><summary>{}</summary><ul class="place">{}</ul></details>', say(key, count=len(games)),
                     concat(h('<li><a href="#{}">{}:{}</a></li>', id_of(str(g["file"]), g["line"]), g["file"], g["line"])
                            for g in games))
                   for key, games in (("standings.unfinished", standings.unfinished), ("standings.unreadable", standings.unreadable))
                   if games)
    kinds = concat(_board(standings, kind) for kind in sorted(standings.kinds))
    body = h('<!DOCTYPE html>\n<html lang="{}"><head><meta charset="utf-8">'
             '<meta http-equiv="Content-Security-Policy" content="{}">'
             '<meta name="viewport" content="width=device-width, initial-scale=1">'
             '<meta name="color-scheme" content="light dark"><title>{}</title><style>{}</style></head>'
             '<body><header><h1>{}</h1><p class="summary">{}</p>{}{}</header><main>{}{}{}{}</main></body></html>\n',
             language(), policy, say("standings.title"), Html(PAGE_STYLE), say("standings.title"), summary, warnings, apart,
             kinds or h("<p>{}</p>", say("standings.nothing")), _drinks(standings), _players(standings), _games(standings))
    return str(body)
