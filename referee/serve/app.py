"""The web application of ``referee serve``: one page for one record file.

Starlette routes, rendered on the server by Jinja2 (autoescape on: every value a record
brings is escaped by the template engine), one same-origin script and style sheet, and
server-sent events that give every connected page the table anew after each change.
Lines are ruled one after the other under one lock, each on the table the previous one
left. The guard in front of it all: the token (when the server listens beyond this
machine), the Host and Origin headers, the size of a request and the rate of writes."""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
import secrets
import time
import zlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlencode

from jinja2 import Environment, PackageLoader
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..html import card_svg
from ..cards import EXCUSE, TRUMP, UNSEEN_CARD, Card
from ..games import GAMES, find_game, load_rules
from ..games.base import Option, Rules, option_value
from ..messages import help_text, say
from ..spelling import ENGLISH, NOTATIONS
from ..text.numbers import whole
from ..live import accepted_line
from .table import PROBLEMS, Ruling, Served, languages, read_error, speaking
from .view import NO_PLAYER, SUIT_SIGNS, face_name, hint, view_of
from . import watch

STATUS = {"written": 200, "flagged": 200, "already": 200, "changed": 409}
"""The HTTP status of the answer to a line, by what became of it (422 for the rest)."""
BODY_LIMIT = 64 * 1024
"""The most a request may hold, in bytes."""
WRITES_PER_SECOND = 20
"""The most writes (lines, undos, new games) one client may send in a second."""
KEEPALIVE = 15.0
"""Seconds between two comments on an idle event stream, so that proxies keep it open."""
TOKEN_COOKIE, LANG_COOKIE = "referee_token", "referee_lang"
PARTS = ("live", "words", "bar", "piles", "legal", "more")
"""The parts of the page that show the game, each a template of templates/parts/: a live
update sends those that changed (``Pages.changes``), not the page."""
EXPANDED = ("legal",)
"""The parts whose buttons a live update may send as lists (the page's script makes them):
the cards picked by suit and value, the faces alike but for their card, the cards laid
together."""
KEPT = "public, max-age=31536000, immutable"
"""How long a browser keeps a deck's faces: for good (their address changes with them)."""
STATIC = {"serve.js": "text/javascript; charset=utf-8", "serve.css": "text/css; charset=utf-8"}
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SHIELD = [(b"content-security-policy", POLICY.encode()), (b"x-content-type-options", b"nosniff"),
          (b"referrer-policy", b"same-origin"), (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]


class Guard:
    """ASGI middleware in front of every request: the Host header (on this machine), the
    token (beyond it), the Origin of a write, the size of a body, the rate of writes; and
    the security headers on every answer."""

    def __init__(self, app: ASGIApp, token: str | None, hosts: set[str] | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app, self.token, self.hosts, self.clock = app, token, hosts, clock
        self.writes: dict[str, deque[float]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def shielded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                kept = any(k.lower() == b"cache-control" for k, _ in headers)  # a deck's faces: kept
                message = {**message, "headers": [*headers, *(h for h in SHIELD if not kept or h[0] != b"cache-control")]}
            await send(message)

        headers = Headers(scope=scope)
        lang = _lang(headers)
        with speaking(lang):
            refusal = self._refusal(scope, headers)
        if refusal is not None:
            return await refusal(scope, receive, shielded)
        if self.token and scope["method"] in ("GET", "HEAD") and "token" in (query := parse_qs(scope.get("query_string", b"").decode("latin-1"))):
            rest = urlencode({k: v for k, v in query.items() if k != "token"}, doseq=True)
            entry = RedirectResponse(scope["path"] + ("?" + rest if rest else ""), 303)
            entry.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
            return await entry(scope, receive, shielded)
        if scope["method"] == "POST":
            body = b""
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body += message.get("body", b"")
                if len(body) > BODY_LIMIT:
                    with speaking(lang):
                        answer = PlainTextResponse(say("serve.too-large", limit=BODY_LIMIT // 1024), 413)
                    return await answer(scope, receive, shielded)
                if not message.get("more_body"):
                    break
            sent = False

            async def replay() -> Message:
                nonlocal sent
                if sent:
                    return await receive()
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}

            return await self.app(scope, replay, shielded)
        return await self.app(scope, receive, shielded)

    def _refusal(self, scope: Scope, headers: Headers) -> Response | None:
        """The answer to a request that may not go further, or None."""
        if self.hosts is not None and headers.get("host", "") not in self.hosts:
            return PlainTextResponse(say("serve.bad-host"), 421)
        if self.token:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = (query.get("token") or [_cookie(headers, TOKEN_COOKIE)])[0]
            if not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
                return PlainTextResponse(say("serve.forbidden"), 403)
        if scope["method"] not in ("GET", "HEAD", "POST"):
            return PlainTextResponse("", 405)
        if scope["method"] == "POST":
            host = headers.get("host", "")
            if headers.get("origin") != f"{scope.get('scheme', 'http')}://{host}":
                return PlainTextResponse(say("serve.bad-origin"), 403)
            length = whole(headers.get("content-length", "0"))
            if length is None or length > BODY_LIMIT:
                return PlainTextResponse(say("serve.too-large", limit=BODY_LIMIT // 1024), 413)
            if not self._may_write(_client(scope)):
                return PlainTextResponse(say("serve.too-many", limit=WRITES_PER_SECOND), 429)
        return None

    def _may_write(self, client: str) -> bool:
        now = self.clock()
        recent = self.writes.setdefault(client, deque())
        while recent and now - recent[0] >= 1.0:
            recent.popleft()
        if len(recent) >= WRITES_PER_SECOND:
            return False
        recent.append(now)
        if len(self.writes) > 1000:  # bounded: forget the clients that wrote nothing lately
            for key in [k for k, v in self.writes.items() if not v or now - v[-1] >= 1.0]:
                del self.writes[key]
        return True


async def _form(request: Request) -> dict[str, str]:
    """The fields of a form sent as application/x-www-form-urlencoded (the one way the
    page sends them); the last value of a field given twice."""
    body = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(body, keep_blank_values=True))


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else ""


def _cookie(headers: Headers, name: str) -> str:
    for part in headers.get("cookie", "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return ""


def _lang(headers: Headers) -> str:
    chosen = _cookie(headers, LANG_COOKIE)
    spoken = languages()
    if chosen in spoken:
        return chosen
    for part in headers.get("accept-language", "").split(","):  # in the browser's order of preference
        lang = part.split(";")[0].strip().lower().split("-")[0]
        if lang in spoken:
            return lang
    return "en"


class Hub:
    """The pages listening for changes: each has a queue that holds at most one wake-up."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[None]] = set()
        self.closing = asyncio.Event()

    def publish(self) -> None:
        for queue in self.queues:
            if queue.empty():
                queue.put_nowait(None)

    def close(self) -> None:
        self.closing.set()
        self.publish()


class Pages:
    """The routes of one served record."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.writing = asyncio.Lock()
        self.hub = Hub()
        self.env = Environment(loader=PackageLoader("referee.serve", "templates"), autoescape=True,
                               trim_blocks=True, lstrip_blocks=True, auto_reload=False)  # no stat of each template a move
        self.env.globals.update(say=say, languages=languages())
        # JSON in an attribute between single quotes: tojson escapes ' < > & (no &#34; for each ")
        self.env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}
        self.static = {name: resources.files("referee.serve").joinpath("static", name).read_bytes() for name in STATIC}
        self._live: dict[tuple[int, str], tuple[dict[str, str], dict[str, str]]] = {}
        self._watcher: asyncio.Task[None] | None = None
        self.sprites: dict[str, bytes] = {}
        """The decks' faces (``_deck``), by the name of their address."""
        self._decks: dict[tuple[str, str], tuple[str, frozenset[str]]] = {}
        self.start = secrets.token_hex(4)
        """This run of the server: a page that reconnects to another one takes its table
        whatever its version (each run counts its changes from 0)."""

    # --- Rendering -----------------------------------------------------------------------
    def live(self, lang: str) -> dict[str, str]:
        """The parts of the page that show the game, as it stands (kept until the next
        change), by name (PARTS): each an element with its id and a digest of itself
        (``data-h``), by which a page sees that it holds the part as it stands."""
        return self._both(lang)[0]

    def page_parts(self, lang: str) -> dict[str, str]:
        """``live``'s parts as a page shows them without its script: every button written
        out (a live update sends some as a list of cards, the script making their buttons;
        each part carries the digest of what the update sends)."""
        return self._both(lang)[1]

    def _both(self, lang: str) -> tuple[dict[str, str], dict[str, str]]:
        key = (self.served.version, lang)
        if key not in self._live:
            self._live = {k: v for k, v in self._live.items() if k[0] == self.served.version}
            with speaking(lang):
                sprite, in_sprite = self._deck(lang)
                card = faces(lang, sprite, in_sprite)
                fields = {**self._table(lang), "card": card, "row": functools.partial(_row, sprite=sprite),
                          "signs": SUIT_SIGNS, "sprite": sprite, "face_name": face_name,
                          "card_label": functools.partial(card_svg.label, lang=lang),
                          "suit_names": suit_names()}
                view = fields.get("view")
                if view is not None:  # what changes with every move goes in other parts
                    fields["words"] = {k: sorted(v) if k == "cards" else v for k, v in view.words.items()
                                       if k not in ("legal", "hint")}  # the legal ones come from the buttons
                parts, full = {}, {}
                for name in PARTS:
                    html = self.env.get_template(f"parts/{name}.html").render(**fields, expand=False)
                    digest = _digest(html)
                    parts[name] = html.replace("@H@", digest, 1)
                    if name in EXPANDED:  # the page itself, with every button: its script may be off
                        full[name] = self.env.get_template(f"parts/{name}.html").render(
                            **fields, expand=True).replace("@H@", digest, 1)
                for index, seat in enumerate(view.seats if view else []):
                    html = self.env.get_template("parts/seat.html").render(**fields, seat=seat, index=index)
                    parts[f"seat-{index}"] = html.replace("@H@", _digest(html), 1)
                apart = [c for c in (view.cards if view else []) if card_svg.symbol_id(c) not in in_sprite]
                for face, html in (card_svg.symbols_apart(apart, lang).items() if apart else ()):  # no card of the deck
                    html = html.replace("{attributes}", f'id="part-sym-{face}" data-in="symbols" data-h="@H@"')
                    parts[f"sym-{face}"] = html.replace("@H@", _digest(html), 1)
                self._live[key] = parts, {**parts, **full}
        return self._live[key]

    def _deck(self, lang: str) -> tuple[str, frozenset[str]]:
        """The address of the faces of the served game's deck (and a card face down), a
        document the browser fetches once and keeps (``card_svg.sprite``), and the faces
        it holds: ("", none) when no game can be read."""
        try:
            state = self.served.session().state
        except PROBLEMS:
            return "", frozenset()
        entry = find_game(state.game) if state is not None else None
        if entry is None or entry.module is None:
            return "", frozenset()
        key = (entry.name, lang)
        if key not in self._decks:
            cards = [*sorted(load_rules(entry).deck, key=lambda c: (c.suit, c.rank)), UNSEEN_CARD]
            body = card_svg.sprite(cards, lang).encode()
            name = f"{zlib.crc32(body):08x}.svg"  # a new drawing, a new address (short: each card says it)
            self.sprites[name] = body
            self._decks[key] = f"/f/{name}", frozenset(card_svg.symbol_id(c) for c in cards)
        return self._decks[key]

    def changes(self, lang: str, shown: dict[str, str] | None) -> dict[str, Any]:
        """A live update: the version, the digest of every part (a card face's aside: a
        page keeps each it was sent), and the parts that differ from ``shown`` (what this
        page was sent so far; None: all of them)."""
        parts = self.live(lang)
        digests = {name: _digest_of(html) for name, html in parts.items() if not name.startswith("sym-")}
        sent = {name: html for name, html in parts.items() if shown is None or shown.get(name) != html}
        return {"version": self.served.version, "start": self.start, "h": digests, "parts": sent}

    def _table(self, lang: str) -> dict[str, Any]:
        try:
            session = self.served.session()
            return {"view": view_of(session), "version": self.served.version, "start": self.start, "error": "",
                    "table": self.served.table(),
                    "no_player": NO_PLAYER, "undo": self.served.last_line() is not None, "last": None}
        except PROBLEMS as error:
            try:
                last = self.served.last_line()
            except PROBLEMS:
                last = None
            return {"view": None, "version": self.served.version, "start": self.start, "no_player": NO_PLAYER, "table": "",
                    "undo": last is not None, "last": last, "error": say("serve.unreadable", error=read_error(error))}

    def page(self, request: Request, ruling: Ruling | None = None, undo: str | None = None, status: int = 200) -> HTMLResponse:
        lang = _lang(request.headers)
        with speaking(lang):
            if self.served.is_new():
                return self.new_game(request, lang)
            try:
                state = self.served.session().state
                title = state.title if state is not None else "referee"
            except PROBLEMS:
                title = "referee"
            shown = self.page_parts(lang)
            parts = {name: Markup(shown[name]) for name in PARTS}
            parts["symbols"] = Markup("".join(html for name, html in shown.items() if name.startswith("sym-")))
            parts["seats"] = Markup("".join(html for name, html in shown.items() if name.startswith("seat-")))
            written = accepted_line(ruling.line, ruling.faults) if ruling is not None and ruling.faults else ""
            text = self.env.get_template("page.html").render(
                lang=lang, title=title, parts=parts, ruling=ruling, undo=undo, accepted_line=written,
                todo=self._todo(lang), hint=self._hint(lang), version=self.served.version, start=self.start,
                table=self._shown_table())
        return HTMLResponse(text, status)

    def _hint(self, lang: str) -> str:
        """What the text field shows while empty: the first legal line, as an example."""
        try:
            state = self.served.session().state
        except PROBLEMS:
            state = None
        return hint(state) if state is not None else say("serve.type-hint")

    def _todo(self, lang: str) -> str:
        try:
            state = self.served.session().state
        except PROBLEMS:
            return ""
        todo = state.todo if state is not None else []
        return todo[0] if todo else say("live.over")

    def new_game(self, request: Request, lang: str, problems: list[str] | None = None,
                 form: dict[str, str] | None = None) -> HTMLResponse:
        form = form or {}
        entry = find_game(form.get("game") or request.query_params.get("game", ""))
        rules = load_rules(entry) if entry is not None and entry.module is not None else None
        options = []
        turned: list[tuple[str, str]] = []
        written = NOTATIONS.get(lang, ENGLISH)  # a game started from a French page is written in French
        if rules is not None:
            for option in rules.options:
                options.append((option, *_choices(option, rules, form),
                                help_text(f"game-option.{rules.name}.{option.tag}", option.help), written.tag(option.tag)))
            if rules.turned_up:
                turned = [(ENGLISH.card(c), card_svg.label(c, lang)) for c in sorted(rules.deck, key=_deck_order)]
        text = self.env.get_template("new.html").render(
            lang=lang, title="referee", games=[g for g in GAMES if g.module is not None], rules=rules,
            options=options, problems=problems or [], form=form, turned=turned,
            turned_tag=rules.turned_up if rules is not None else "")
        return HTMLResponse(text, 400 if problems else 200)

    # --- Routes --------------------------------------------------------------------------
    async def home(self, request: Request) -> Response:
        chosen = request.query_params.get("lang")
        if chosen in languages():
            answer = RedirectResponse("/", 303)
            answer.set_cookie(LANG_COOKIE, chosen, samesite="strict", max_age=365 * 86400)
            return answer
        return self.page(request)

    async def line(self, request: Request) -> Response:
        form = await _form(request)
        lang = _lang(request.headers)
        choice = str(form.get("choice", ""))
        if choice == "cancel":
            with speaking(lang):
                return self.page(request, Ruling("cancelled", str(form.get("line", "")), say("live.not-written")))
        version = self._chosen_on(form)
        async with self.writing:
            if self._safely(lang, self._is_new).kind == "new":
                return RedirectResponse("/", 303)
            if "group" in form:
                ruling = self._safely(lang, lambda: self.served.play_group(
                    str(form["group"]), str(form.get("cards", "")), str(form.get("suit", "")), choice, lang, version))
            else:
                ruling = self._safely(lang, lambda: self.served.play(str(form.get("line", "")), choice, lang, version))
        if ruling.kind in ("written", "changed"):
            self.hub.publish()
        return self.page(request, ruling, status=STATUS.get(ruling.kind, 422))

    def _is_new(self) -> Ruling:
        return Ruling("new" if self.served.is_new() else "")

    @staticmethod
    def _chosen_on(form: dict[str, str]) -> str | None:
        """The table a move was chosen on (``Served.table``): None when the form names
        none (a line typed without the page's script: ruled on the record as it is)."""
        sent = form.get("table")
        return sent[:64] if sent else None

    def _shown_table(self) -> str:
        try:
            return self.served.table()
        except PROBLEMS:
            return ""

    def _safely(self, lang: str, write: Callable[[], Ruling]) -> Ruling:
        """A write, or what stopped it (a file turned read-only, changed or gone) said."""
        try:
            return write()
        except PROBLEMS as error:
            self.served.changed()
            with speaking(lang):
                return Ruling("error", message=read_error(error))

    async def undo(self, request: Request) -> Response:
        form = await _form(request)
        lang = _lang(request.headers)
        if "confirm" not in form:
            try:
                last = self.served.last_line()
            except PROBLEMS as error:
                with speaking(lang):
                    return self.page(request, Ruling("error", message=read_error(error)))
            if last is None:
                with speaking(lang):
                    return self.page(request, Ruling("error", message=say("serve.nothing-to-undo")))
            return self.page(request, undo=last)
        async with self.writing:
            ruling = self._safely(lang, lambda: self.served.undo(str(form["confirm"]), lang))
        if ruling.kind == "written":
            self.hub.publish()
            ruling.kind = "undone"
        return self.page(request, ruling)

    async def new(self, request: Request) -> Response:
        body = (await request.body()).decode("utf-8", "replace")
        pairs = parse_qsl(body, keep_blank_values=True)
        form = dict(pairs)
        lang = _lang(request.headers)
        options: dict[str, str] = {}
        for key, value in pairs:  # a many-valued option's boxes: one field each
            if key.startswith("option."):
                tag = key.removeprefix("option.")
                options[tag] = (options.get(tag, "") + " " + value).strip()
        entry = find_game(form.get("game", ""))
        if entry is not None and entry.module is not None:  # a set of choices left as it was: no header
            for option in load_rules(entry).options:
                default = option.default_for(load_rules(entry).min_players)
                if option.many and isinstance(default, frozenset) and set(options.get(option.tag, "").split()) == default:
                    options.pop(option.tag, None)
        async with self.writing:
            with speaking(lang):
                try:
                    problems = self.served.start(form.get("game", ""), form.get("players", ""), form.get("dealer", ""), options,
                                                 notation=lang,  # the French page starts a French record
                                                 turned=form.get("turned", ""))
                except PROBLEMS as error:
                    problems = [read_error(error)]
        if problems:
            with speaking(lang):
                return self.new_game(request, lang, problems, form)
        self.hub.publish()
        return RedirectResponse("/", 303)

    async def icon(self, request: Request) -> Response:
        return Response(status_code=204)

    async def record(self, request: Request) -> Response:
        try:
            return PlainTextResponse(self.served.text())
        except PROBLEMS as error:
            with speaking(_lang(request.headers)):
                return PlainTextResponse(read_error(error), 409)

    async def faces(self, request: Request) -> Response:
        """A deck's faces (``_deck``): the same address always holds the same drawing, so
        the browser keeps it for good and a live update sends no face of the deck."""
        body = self.sprites.get(request.path_params["name"])
        if body is None:
            return PlainTextResponse("", 404)
        return Response(body, media_type="image/svg+xml", headers={"cache-control": KEPT})

    async def asset(self, request: Request) -> Response:
        name = request.url.path.lstrip("/")
        return Response(self.static[name], media_type=STATIC[name])

    async def parts(self, request: Request) -> Response:
        """The parts that show the game, as they stand: what a page asks for when a live
        update finds it holding a part that is not the table's (a missed update)."""
        lang = _lang(request.headers)
        if self.served.is_new():
            return PlainTextResponse("", 205)
        return HTMLResponse("".join(self.page_parts(lang).values()))

    async def events(self, request: Request) -> Response:
        lang = _lang(request.headers)
        return StreamingResponse(self._stream(lang), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    async def _watch(self) -> None:
        """While pages listen: at each notice that the record may have changed (serve/watch.py),
        look at it (its name, size and time of change: no read), and send them the table
        when another hand changed it."""
        async with aclosing(watch.changes(self.served.path, self.hub.closing)) as notices:
            async for _ in notices:
                if not self.hub.queues:
                    break
                self._look()
        self._watcher = None

    def _look(self) -> None:
        """The table sent to every page when another hand changed the record."""
        try:
            changed = self.served.refresh()
        except PROBLEMS:
            changed = self.served.version != self._seen_broken
            self._seen_broken = self.served.version
        if changed:
            self.hub.publish()

    _seen_broken = -1

    def _is_new_safely(self) -> bool:
        try:
            return self.served.is_new()
        except PROBLEMS:
            return False

    async def _stream(self, lang: str) -> AsyncIterator[str]:
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self.hub.queues.add(queue)
        if self._watcher is None:
            self._watcher = asyncio.ensure_future(self._watch())
        try:
            yield "retry: 1000\n\n"
            shown: dict[str, str] | None = None
            while not self.hub.closing.is_set():
                if self._is_new_safely():
                    yield "event: new\ndata: \n\n"
                else:
                    update = self.changes(lang, shown)
                    if shown is None:  # the page holds the parts it was loaded with: their digests say if it still does
                        update["parts"] = {}
                    shown = {**(shown or {}), **self.live(lang)}  # the faces sent stay in the page
                    yield _event(update)
                while not self.hub.closing.is_set():
                    try:
                        await asyncio.wait_for(queue.get(), KEEPALIVE)
                        break
                    except TimeoutError:
                        yield ": still here\n\n"
        finally:
            self.hub.queues.discard(queue)


def suit_names() -> dict[str, str]:
    """Each suit a card may be picked by, named in the language in use: the four suits,
    the tarot's trumps (« atouts ») and its Excuse, which have no sign of their own and are
    shown by their name."""
    return {**{s: say("cp.suit." + s) for s in SUIT_SIGNS}, TRUMP: say("serve.suit.T"), EXCUSE: say("serve.suit.X")}


def _choices(option: Option, rules: type[Rules], form: dict[str, str]) -> tuple[str, list[tuple[str, str, bool]]]:
    """An option's values for the new-game form: (value sent, what it says, chosen), the
    default first and said so (sent as "": no header), and the default in words."""
    default = option.default_for(rules.min_players)
    if option.number is not None:
        low, high = option.number
        shown = str(default)
        values = [("", say("serve.option-default", value=shown), True)]
        values += [(str(n), str(n), form.get("option." + option.tag) == str(n)) for n in range(low, high + 1)]
        return shown, values
    sent = form.get("option." + option.tag, "")  # a value as the reader's language says it (« aucune »)
    if option.many:
        chosen = set(sent.split()) or set(map(option_value, default)) if isinstance(default, frozenset) else set()
        return " ".join(sorted(chosen)), [(option_value(c), option_value(c), option_value(c) in chosen) for c in option.choices]
    shown = option_value(str(default))
    values = [("", say("serve.option-default", value=shown), not sent)]
    values += [(option_value(c), option_value(c), sent == option_value(c)) for c in option.choices if c != str(default)]
    return shown, values


def _deck_order(card: Card) -> tuple[int, int]:
    return ("SHDC".find(card.suit) if card.suit in "SHDC" else 4, card.rank)


def _event(update: dict[str, Any]) -> str:
    """A live update as a server-sent event: its first line the version and the digests
    (JSON), then the parts that changed, as HTML on one line (not escaped into JSON, and
    its line breaks made spaces, which HTML reads alike: fewer bytes)."""
    head = {k: v for k, v in update.items() if k != "parts"}
    html = "".join(update["parts"].values()).replace("\r", " ").replace("\n", " ")
    lines = [json.dumps(head, separators=(",", ":"), ensure_ascii=False), *([html] if html else [])]
    return "event: parts\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


ROW_STEP = 22
"""How far apart, in a face's 60 units of width, the known cards of a seat overlap."""


def _row(cards: list[Card], named: str, sprite: str = "") -> Markup:
    """A seat's known cards, overlapping, as one picture named once (``named``): a pack of
    34 known cards in 1.8 KB, not 5. ``sprite``: where the faces are (``Pages._deck``)."""
    width = 60 + ROW_STEP * (len(cards) - 1)
    uses = "".join(f'<use href="{escape(sprite)}#{card_svg.symbol_id(c)}" x="{ROW_STEP * i}" width="60" height="84"/>'
                   for i, c in enumerate(cards))
    return Markup(f'<svg class="row" role="img" aria-label="{escape(named)}" viewBox="0 0 {width} 84" '
                  f'width="{round(width * 48 / 84)}" height="48">{uses}</svg>')


def _digest(html: str) -> str:
    return f"{zlib.crc32(html.encode()):08x}"


def _digest_of(part: str) -> str:
    """The digest a part carries (its ``data-h``)."""
    at = part.find('data-h="') + len('data-h="')
    return part[at:at + 8]


def faces(lang: str, sprite: str = "", in_sprite: frozenset[str] = frozenset()) -> Callable[[Card, int], Markup]:
    """The template's ``card(c, width)``, for a page in ``lang``: a face of the deck from
    the deck's document at ``sprite``, any other from the page's own symbols."""

    def card(value: Card, width: int = 44) -> Markup:
        found = sprite if card_svg.symbol_id(value) in in_sprite else ""
        return Markup(card_svg.use(value, width=width, lang=lang, sprite=found))

    return card


def make_app(served: Served, token: str | None = None, hosts: set[str] | None = None,
             clock: Callable[[], float] = time.monotonic) -> tuple[ASGIApp, Pages]:
    """The application for one served record, and its pages (whose hub the server
    closes when it stops)."""
    pages = Pages(served)
    routes = [
        Route("/", pages.home, methods=["GET", "HEAD"]),
        Route("/line", pages.line, methods=["POST"]),
        Route("/undo", pages.undo, methods=["POST"]),
        Route("/new", pages.new, methods=["POST"]),
        Route("/record.txt", pages.record, methods=["GET", "HEAD"]),
        Route("/events", pages.events, methods=["GET"]),
        Route("/parts", pages.parts, methods=["GET"]),
        Route("/favicon.ico", pages.icon, methods=["GET", "HEAD"]),
        Route("/f/{name}", pages.faces, methods=["GET", "HEAD"]),
        *(Route(f"/{name}", pages.asset, methods=["GET", "HEAD"]) for name in STATIC),
    ]
    app = Starlette(routes=routes)
    return Guard(app, token, hosts, clock), pages
