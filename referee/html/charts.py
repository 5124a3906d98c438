"""The report's charts, drawn as inline SVG by the project (no plotting library: a few
lines and bars need none, and the page stays small and self-contained).

Every chart is a ``<figure>`` with its title as caption, a legend in text, and a
``role="img"`` SVG labelled by the caption. Colours come from PALETTE in players' seat order."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .markup import Html, concat, h

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
UNIT_COLOURS = {"sips": "#4e79a7", "half": "#f28e2b", "glass": "#e15759", "up": "#76b7b2", "central": "#59a14f"}
W, H, LEFT, BOTTOM, TOP, RIGHT = 640, 240, 44, 26, 10, 10
DIGIT = 13.5
"""The width of a digit at the largest size of a chart's text, in the drawing's units."""
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
        h('<li title="{}"><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="{}"/></svg>{}</li>', name, colour,
          name)
        for name, colour in entries))


def _axes(top: float, bottom: float, last_x: int, x_label: str, left: float = LEFT) -> str:
    """The frame, the lowest and highest values and the x axis' extent."""
    y0, y1 = H - BOTTOM, TOP
    return (f'<g class="axes"><line x1="{left}" y1="{y0}" x2="{W - RIGHT}" y2="{y0}"/><line x1="{left}" y1="{y0}" x2="{left}" y2="{y1}"/>'
            + h('<text x="{}" y="{}" text-anchor="end">{}</text>', left - 4, y0, _num(bottom))
            + h('<text x="{}" y="{}" text-anchor="end">{}</text>', left - 4, y1 + 12, _num(top))
            + (h('<text x="{}" y="{}" text-anchor="end">{}</text>', W - RIGHT, H - 6, f"{x_label} {last_x}") if x_label else "")
            + "</g>")


def _left(*labels: str) -> float:
    """The room left of a chart for its value labels: the longest drawn at the largest
    size the page gives a chart's text (22 units a character on a phone, see assets.py)."""
    return max(LEFT, 8 + DIGIT * max(len(label) for label in labels))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def lines(caption: str, series: Mapping[str, Sequence[float]], x_label: str, steps: bool = True) -> Html:
    """One line per series over the same x (events, hands), thinned to MAX_POINTS."""
    values = [v for s in series.values() for v in s]
    length = max((len(s) for s in series.values()), default=0)
    if not values or length == 0:
        return Html("")
    low, high = min(0.0, min(values)), max(1.0, max(values))
    left = _left(_num(high), _num(low))
    sx = (W - left - RIGHT) / max(1, length - 1)
    sy = (H - TOP - BOTTOM) / (high - low)
    paths = []
    for k, (name, points) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        coords = [(left + i * sx, H - BOTTOM - (v - low) * sy) for i, v in _thin(points)]
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
    svg = _axes(high, low, length - 1 if steps else length, x_label, left) + "".join(paths)
    return _figure("lines", caption, svg, _legend([(n, PALETTE[k % len(PALETTE)]) for k, n in enumerate(series)]))


NAME_ROW, BAR_ROW, ROW_GAP, NAME_CHARS = 28, 70, 8, 40
"""The drinks chart's rows: a player's name (cut past NAME_CHARS with an ellipsis, whole
in its tooltip), then their bars; text is laid out for the largest size the page gives it
(22 units on a phone, see assets.py)."""


def clip(name: str, limit: int = NAME_CHARS) -> str:
    """A name cut to ``limit`` characters with an ellipsis (the whole name goes in a tooltip)."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "\u2026"


def drink_rows(caption: str, rounds: Sequence[int], players: Sequence[str], owed: Mapping[tuple[int, str, str], float],
               drunk: Mapping[int, Mapping[str, Mapping[str, float]]], units: Sequence[str], words: Mapping[str, str],
               bar_title: Callable[[int, str, Mapping[str, float] | None, Mapping[str, float] | None], str],
               links: Sequence[str] | None = None, due: Mapping[tuple[int, str, str], float] | None = None) -> Html:
    """A row per player (their name above it), a slot per round: what the round gave
    (``owed[(round, player, unit)]``) as a bar stacked by unit and, for the rounds whose
    drinks the record writes (``drunk[round][player][unit]``), what it wrote beside it,
    lighter; a drunk bar that differs from the owed one is outlined and marked ≠.
    ``words`` names the units and says "owed", "drunk", "differs"; ``bar_title(round,
    player, owed, drunk)`` says a bar (one of the two given) or a difference (both);
    ``links``, when given, the address of each slot's number (the game it comes from);
    ``due``, when given, what the drunk bar is compared with (else ``owed``)."""
    if not rounds or not players:
        return Html("")
    def total(amounts: Mapping[str, float]) -> float:
        return sum(amounts.get(u, 0) for u in units)

    given = {(r, p): {u: owed[r, p, u] for u in units if (r, p, u) in owed} for r in rounds for p in players}
    high = max([1.0] + [total(a) for a in given.values()] + [total(drunk[r].get(p, {})) for r in drunk for p in players])
    left = _left(_num(high))
    slot = (W - left - RIGHT) / len(rounds)
    pair = bool(drunk)
    bar = min(28.0, slot * 0.42) if pair else min(36.0, slot * 0.6)
    sy = (BAR_ROW - 4) / high
    every = max(1, -(-36 // max(1, int(slot))))  # a round's number every so many slots, 36 units apart at least
    height = TOP + len(players) * (NAME_ROW + BAR_ROW + ROW_GAP) + 26
    parts: list[str] = []
    for k, player in enumerate(players):
        top = TOP + k * (NAME_ROW + BAR_ROW + ROW_GAP)
        base = top + NAME_ROW + BAR_ROW
        parts.append(h('<g><title>{}</title><text class="who" x="{}" y="{}">{}</text></g>', player, left, top + 21, clip(player)))
        parts.append(f'<line class="base" x1="{left}" y1="{base}" x2="{W - RIGHT}" y2="{base}"/>')
        parts.append(h('<text class="scale" x="{}" y="{}" text-anchor="end">{}</text>', left - 4, top + NAME_ROW + 14, _num(high)))
        for g, r in enumerate(rounds):
            middle = left + (g + 0.5) * slot
            amounts = given[r, player]
            x = middle - bar - 1 if pair else middle - bar / 2
            parts.append(_stack(x, base, bar, sy, amounts, units, "", bar_title(r, player, amounts, None)))
            if r not in drunk:
                continue
            wrote = drunk[r].get(player, {})
            parts.append(_stack(middle + 1, base, bar, sy, wrote, units, "drunk", bar_title(r, player, None, wrote)))
            compared = amounts if due is None else {u: due[r, player, u] for u in units if (r, player, u) in due}
            if any(abs(compared.get(u, 0) - wrote.get(u, 0)) > 1e-9 for u in units):
                rise = max(3.0, total(wrote) * sy)
                parts.append(h('<rect class="differs" x="{}" y="{}" width="{}" height="{}"/>', round(middle + 1, 1), round(base - rise, 1),
                               round(bar, 1), round(rise, 1)))
                parts.append(h('<g><title>{}</title><text class="mark" x="{}" y="{}" text-anchor="middle">\u2260</text></g>',
                               bar_title(r, player, compared, wrote), round(middle + 1 + bar / 2, 1), round(base - rise - 3, 1)))
    last = TOP + len(players) * (NAME_ROW + BAR_ROW + ROW_GAP) - ROW_GAP
    for g, r in enumerate(rounds):
        if g % every == 0:
            label = h('<text x="{}" y="{}" text-anchor="middle">{}</text>', round(left + (g + 0.5) * slot, 1), last + 20, r)
            parts.append(h('<a href="{}">{}</a>', links[g], label) if links else label)
    svg = "".join(parts)
    legend = [(words[u], UNIT_COLOURS[u], "") for u in units]
    if pair:
        legend += [(words["owed"], "#888888", ""), (words["drunk"], "#888888", "drunk")]
    if 'class="mark"' in svg:
        legend.append((words["differs"], "", "mark"))
    return h('<figure class="chart drinks-chart"><figcaption>{}</figcaption>'
             '<svg viewBox="0 0 {} {}" role="img" aria-label="{}" preserveAspectRatio="xMidYMid meet">{}</svg>{}</figure>',
             caption, W, height, caption, Html(svg), _legend_kinds(legend))


def _stack(x: float, base: float, bar: float, sy: float, amounts: Mapping[str, float], units: Sequence[str], kind: str,
           title: str) -> str:
    """A bar stacked by unit from ``base`` up, with its tooltip."""
    rects = []
    y = base
    for unit in units:
        amount = amounts.get(unit, 0)
        if amount:
            y -= amount * sy
            rects.append(h('<rect x="{}" y="{}" width="{}" height="{}" fill="{}"{}/>', round(x, 1), round(y, 1), round(bar, 1),
                           round(amount * sy, 1), UNIT_COLOURS[unit], Html(f' stroke="{UNIT_COLOURS[unit]}"' if kind else "")))
    if not rects:
        return ""
    return h('<g{}><title>{}</title>{}</g>', Html(f' class="{kind}"' if kind else ""), title, Html("".join(rects)))


def _legend_kinds(entries: Sequence[tuple[str, str, str]]) -> Html:
    """A legend whose swatches are plain, ``drunk`` (lighter, outlined) or the ``mark`` ≠."""
    def swatch(colour: str, kind: str) -> Html:
        if kind == "mark":
            return Html('<svg width="12" height="12" aria-hidden="true"><text class="mark" x="6" y="11" text-anchor="middle">\u2260</text></svg>')
        inner = h('<rect width="12" height="12" fill="{}"/>', colour) if kind != "drunk" else \
            h('<g class="drunk"><rect x="1" y="1" width="10" height="10" fill="{}" stroke="{}"/></g>', colour, colour)
        return h('<svg width="12" height="12" aria-hidden="true">{}</svg>', inner)

    return h('<ul class="legend">{}</ul>', concat(h('<li title="{}">{}{}</li>', name, swatch(colour, kind), name)
                                                 for name, colour, kind in entries))


def owned_steps(caption: str, prices: Sequence[int], owners: Sequence[str], players: list[str], nobody: str) -> Html:
    """A price over the events, each step coloured by who owns it then."""
    if not prices:
        return Html("")
    colour = {p: PALETTE[k % len(PALETTE)] for k, p in enumerate(players)}
    high = max(prices)
    left = _left(_num(high))
    sx = (W - left - RIGHT) / max(1, len(prices) - 1)
    sy = (H - TOP - BOTTOM) / max(1, high)
    parts = []
    start = 0
    for i in range(1, len(prices) + 1):
        if i == len(prices) or prices[i] != prices[start] or owners[i] != owners[start]:
            x1, x2 = left + start * sx, left + max(i - 1, start) * sx + (sx if i < len(prices) else 0)
            y = H - BOTTOM - prices[start] * sy
            who = owners[start] or nobody
            parts.append(h('<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="4"><title>{}</title></line>',
                           round(x1, 1), round(y, 1), round(max(x2, x1 + 2), 1), round(y, 1), colour.get(who, "#888888"),
                           f"{prices[start]}: {who}"))
            start = i
    svg = _axes(high, 0, len(prices), "", left) + "".join(parts)
    return _figure("steps", caption, svg, _legend([(nobody, "#888888")] + [(p, colour[p]) for p in players]))
