"""The one escaping layer of the HTML report: text is escaped unless it is ``Html``.

``h(template, ...)`` fills a template written in the code with values that are escaped
(``html.escape``, quotes included, after safe_text.visible) unless they are already
``Html``: as a template engine's autoescape does, so that nothing a record brings (a
name, a comment, a header value) can be read as markup. ``json_script`` embeds data in a
``<script type="application/json">`` that no ``</script>`` or comment in it can end."""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape

from ..text.safe_text import visible


class Html(str):
    """Markup that is safe as it is (built by ``h`` or by the code itself)."""

    __slots__ = ()


def esc(value: object) -> Html:
    """A value as HTML: markup kept, anything else escaped as text."""
    if isinstance(value, Html):
        return value
    return Html(escape(visible(str(value)), quote=True))


def h(template: str, *args: object, **fields: object) -> Html:
    """A template of the code filled with escaped values (``str.format`` fields)."""
    return Html(template.format(*(esc(a) for a in args), **{k: esc(v) for k, v in fields.items()}))


def concat(parts: Iterable[object]) -> Html:
    """Pieces put together, each escaped unless markup."""
    return Html("".join(esc(p) for p in parts))


_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def json_text(data: object) -> str:
    """Data as compact JSON safe inside a ``<script>`` element, its keys sorted (the same
    data gives the same bytes)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).translate(_JSON_ESCAPES)


def json_script(element_id: str, data: object) -> Html:
    """Data embedded for the page's script: ``<script type="application/json">``."""
    return Html(f'<script type="application/json" id="{esc(element_id)}">{json_text(data)}</script>')
