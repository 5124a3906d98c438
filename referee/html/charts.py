"""The report's charts, drawn as inline SVG by the project (no plotting library: a few
lines and bars need none, and the page stays small and self-contained).

Every chart is a ``<figure>`` with its title as caption, a legend in text, and a
``role="img"`` SVG labelled by the caption. Colours come from PALETTE in players' seat order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .markup import Html, concat, h

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
UNIT_COLOURS = {"sips": "#4e79a7", "half": "#f28e2b", "glass": "#e15759", "up": "#76b7b2", "central": "#59a14f"}
W, H, LEFT, BOTTOM, TOP, RIGHT = 640, 240, 36, 22, 10, 10
MARKED = 30
"""A series this short has a dot at each point (a match of a few hands, of one)."""
MAX_POINTS = 240
"""A series longer than this is thinned to it (every n-th point, the last kept)."""


def _thin(values: Sequence[float]) -> list[tuple[int, float]]:
    step = max(1, -(-len(values) // MAX_POINTS))
    points = [(i, values[i]) for i in range(0, len(values), step)]
    if points and points[-1][0] != len(values) - 1:
        points.append((len(values) - 1, values[-1]))
    return points


def _figure(kind: str, caption: str, svg: str, legend: Html) -> Html:
    return h('<figure class="chart {}"><figcaption>{}</figcaption>'
             '<svg viewBox="0 0 {} {}" role="img" aria-label="{}" preserveAspectRatio="xMidYMid meet">{}</svg>{}</figure>',
             kind, caption, W, H, caption, Html(svg), legend)


def _legend(entries: Sequence[tuple[str, str]]) -> Html:
    return h('<ul class="legend">{}</ul>', concat(
        h('<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="{}"/></svg>{}</li>', colour, name)
        for name, colour in entries))


def _axes(top: float, bottom: float, last_x: int, x_label: str) -> str:
    """The frame, the lowest and highest values and the x axis' extent."""
    y0, y1 = H - BOTTOM, TOP
    return (f'<g class="axes"><line x1="{LEFT}" y1="{y0}" x2="{W - RIGHT}" y2="{y0}"/><line x1="{LEFT}" y1="{y0}" x2="{LEFT}" y2="{y1}"/>'
            + h('<text x="{}" y="{}" text-anchor="end">{}</text>', LEFT - 4, y0, _num(bottom))
            + h('<text x="{}" y="{}" text-anchor="end">{}</text>', LEFT - 4, y1 + 8, _num(top))
            + (h('<text x="{}" y="{}" text-anchor="end">{}</text>', W - RIGHT, H - 6, f"{x_label} {last_x}") if x_label else "")
            + "</g>")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def lines(caption: str, series: Mapping[str, Sequence[float]], x_label: str, steps: bool = True) -> Html:
    """One line per series over the same x (events, hands), thinned to MAX_POINTS."""
    values = [v for s in series.values() for v in s]
    length = max((len(s) for s in series.values()), default=0)
    if not values or length == 0:
        return Html("")
    low, high = min(0.0, min(values)), max(1.0, max(values))
    sx = (W - LEFT - RIGHT) / max(1, length - 1)
    sy = (H - TOP - BOTTOM) / (high - low)
    paths = []
    for k, (name, points) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        coords = [(LEFT + i * sx, H - BOTTOM - (v - low) * sy) for i, v in _thin(points)]
        d = ""
        for n, (x, y) in enumerate(coords):
            if n == 0:
                d = f"M{x:.1f} {y:.1f}"
            elif steps:
                d += f"H{x:.1f}V{y:.1f}"
            else:
                d += f"L{x:.1f} {y:.1f}"
        paths.append(h('<path d="{}" fill="none" stroke="{}" stroke-width="2"><title>{}</title></path>', d, colour, name))
        if length <= MARKED:
            paths += [h('<circle cx="{}" cy="{}" r="3.5" fill="{}"><title>{}: {}</title></circle>', round(x, 1), round(y, 1), colour,
                        name, _num(v)) for (x, y), (_, v) in zip(coords, _thin(points))]
    svg = _axes(high, low, length - 1 if steps else length, x_label) + "".join(paths)
    return _figure("lines", caption, svg, _legend([(n, PALETTE[k % len(PALETTE)]) for k, n in enumerate(series)]))


def stacked_bars(caption: str, groups: list[str], players: list[str], amounts: dict[tuple[int, str, str], float],
                 units: Sequence[str], unit_names: dict[str, str]) -> Html:
    """For each group (a round), a bar per player stacked by unit: ``amounts[(group index,
    player, unit)]``."""
    if not amounts or not groups:
        return Html("")
    totals = [sum(amounts.get((g, p, u), 0) for u in units) for g in range(len(groups)) for p in players]
    high = max(1.0, max(totals))
    slot = (W - LEFT - RIGHT) / len(groups)
    bar = max(2.0, min(24.0, slot * 0.8 / len(players)))
    sy = (H - TOP - BOTTOM) / high
    parts = []
    for g, group in enumerate(groups):
        x0 = LEFT + g * slot + (slot - bar * len(players)) / 2
        parts.append(h('<text x="{}" y="{}" text-anchor="middle">{}</text>', round(LEFT + (g + 0.5) * slot, 1), H - 6, group))
        for k, player in enumerate(players):
            y: float = H - BOTTOM
            for unit in units:
                amount = amounts.get((g, player, unit), 0)
                if amount:
                    height = amount * sy
                    y -= height
                    parts.append(h('<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>',
                                   round(x0 + k * bar, 1), round(y, 1), round(bar - 1, 1), round(height, 1), UNIT_COLOURS[unit],
                                   f"{group}, {player}: {_num(amount)} {unit_names[unit]}"))
            parts.append(h('<text class="who" x="{}" y="{}" text-anchor="middle">{}</text>',
                           round(x0 + (k + 0.5) * bar, 1), round(y - 2, 1), player[:1]))
    svg = _axes(high, 0, len(groups), "") + "".join(parts)
    return _figure("bars", caption, svg, _legend([(unit_names[u], UNIT_COLOURS[u]) for u in units]))


def owned_steps(caption: str, prices: Sequence[int], owners: Sequence[str], players: list[str], nobody: str) -> Html:
    """A price over the events, each step coloured by who owns it then."""
    if not prices:
        return Html("")
    colour = {p: PALETTE[k % len(PALETTE)] for k, p in enumerate(players)}
    high = max(prices)
    sx = (W - LEFT - RIGHT) / max(1, len(prices) - 1)
    sy = (H - TOP - BOTTOM) / max(1, high)
    parts = []
    start = 0
    for i in range(1, len(prices) + 1):
        if i == len(prices) or prices[i] != prices[start] or owners[i] != owners[start]:
            x1, x2 = LEFT + start * sx, LEFT + max(i - 1, start) * sx + (sx if i < len(prices) else 0)
            y = H - BOTTOM - prices[start] * sy
            who = owners[start] or nobody
            parts.append(h('<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="4"><title>{}</title></line>',
                           round(x1, 1), round(y, 1), round(max(x2, x1 + 2), 1), round(y, 1), colour.get(who, "#888888"),
                           f"{prices[start]}: {who}"))
            start = i
    svg = _axes(high, 0, len(prices), "") + "".join(parts)
    return _figure("steps", caption, svg, _legend([(nobody, "#888888")] + [(p, colour[p]) for p in players]))
