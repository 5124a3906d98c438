"""The card pictures, drawn by the project as SVG: each face is defined once in a page as a
``<symbol>`` (``symbols``) and placed wherever it shows with ``<use>`` (``use``).

Faces: the 52 cards and the tarot's (cavalier, trumps 1-21 with their number, the Excuse),
numbered cards (Flaschenteufel's 1-37) in their colours with their points in the green
flask, as the game says (``Rules.numbered_face``), and a back for a card nobody saw. The corner letters follow the page's language (K/R, Q/D,
J/V); suits are drawn as shapes (a font's ♥ may turn into an emoji on a phone).

Only presentation attributes are used (no ``style`` attribute, no script, no external
resource), so a page with a strict Content-Security-Policy shows them. The hidden ``<svg>``
of ``symbols`` has the class ``card-defs``: give it ``position: absolute`` in the page's CSS
so that it takes no room.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape
from typing import NamedTuple

from ..cards import ACE, CAVALIER, EXCUSE, JACK, KING, NUMBERED, QUEEN, SUITS, TRUMP, UNSEEN, Card
from ..spelling import ENGLISH

WIDTH, HEIGHT = 60, 84
"""The faces' drawing box (a card's 5:7)."""

RED, BLACK = "#c8102e", "#1a1a1a"
SUIT_COLOUR = {"S": BLACK, "H": RED, "D": RED, "C": BLACK}

SUIT_SHAPES = {
    "H": '<path d="M50 92C20 66 2 48 2 29 2 13 14 2 28 2c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 11 26 27 0 19-18 37-48 63z"/>',
    "D": '<path d="M50 2 90 50 50 98 10 50z"/>',
    "S": '<path d="M50 2C20 28 2 44 2 62c0 15 11 26 25 26 9 0 16-4 20-11L40 98h20l-7-21c4 7 11 11 20 11 14 0 25-11 25-26C98 44 80 28 50 2z"/>',
    "C": '<circle cx="50" cy="27" r="23"/><circle cx="25" cy="60" r="23"/><circle cx="75" cy="60" r="23"/>'
         '<path d="M44 45h12v10l7 43H37l7-43z"/>',
}
"""Each suit's shape in a 100 x 100 box."""

STAR = '<path d="M50 4 61 38h36L68 59l11 35-29-21-29 21 11-35L3 38h36z"/>'

LETTERS = {
    "en": {ACE: "A", JACK: "J", CAVALIER: "C", QUEEN: "Q", KING: "K"},
    "fr": {ACE: "A", JACK: "V", CAVALIER: "C", QUEEN: "D", KING: "R"},
}
"""The corner letters of the court cards and the ace, by language."""

class Names(NamedTuple):
    """A language's names of the cards."""

    ranks: dict[int, str]
    suits: dict[str, str]
    suited: str
    trump: str
    excuse: str
    back: str
    numbered: tuple[str, str]
    colours: dict[str, str]


NAMES = {
    "en": Names(
        ranks={ACE: "ace", JACK: "jack", CAVALIER: "knight", QUEEN: "queen", KING: "king"},
        suits={"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
        suited="{rank} of {suit}", trump="trump {number}", excuse="the Excuse", back="a card face down",
        numbered=("{number}, {colour}, {points} point", "{number}, {colour}, {points} points"),
        colours={"Y": "yellow", "B": "blue", "R": "red"},
    ),
    "fr": Names(
        ranks={ACE: "as", JACK: "valet", CAVALIER: "cavalier", QUEEN: "dame", KING: "roi"},
        suits={"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
        suited="{rank} de {suit}", trump="atout {number}", excuse="l'Excuse", back="une carte face cachée",
        numbered=("{number}, {colour}, {points} point", "{number}, {colour}, {points} points"),
        colours={"Y": "jaune", "B": "bleu", "R": "rouge"},
    ),
}
"""The cards' names for screen readers (``aria-label``), by language: the deck's own words,
kept beside the corner letters they go with."""

FT_FILL = {"Y": "#f2c12e", "B": "#2a64c5", "R": "#c8352e"}
FT_INK = {"Y": "#1a1a1a", "B": "#ffffff", "R": "#ffffff"}
FLASK = "#2e8b3e"
BACK_FILL = "#27467f"
FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-weight="700"'


def _lang(lang: str) -> str:
    return lang if lang in LETTERS else "en"


def symbol_id(card: Card) -> str:
    """The id of a card's face in a page: ``card-KS``, ``card-T12``, ``card-EX``,
    ``card-N23``, ``card-back``."""
    if card.suit == NUMBERED:
        return f"card-N{card.rank}"
    if card.suit == UNSEEN:
        return "card-back"
    return f"card-{ENGLISH.card(card)}"  # in English letters whatever the notation said


def label(card: Card, lang: str = "en") -> str:
    """A card's name in words: "king of spades", "roi de pique"."""
    names = NAMES[_lang(lang)]
    if card.suit in SUITS:
        rank = names.ranks.get(card.rank, str(card.rank))
        return names.suited.format(rank=rank, suit=names.suits[card.suit])
    if card.suit == TRUMP:
        return names.trump.format(number=card.rank)
    if card.suit == EXCUSE:
        return names.excuse
    if card.suit == NUMBERED:
        colour, points = numbered_face(card.rank) or ("", 0)
        colour = names.colours.get(colour, "")
        return names.numbered[points != 1].format(number=card.rank, colour=colour, points=points)
    return names.back


def _text(x: float, y: float, size: float, text: str, fill: str, anchor: str = "middle") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" {FONT} fill="{fill}" text-anchor="{anchor}">'
            f"{escape(text)}</text>")


def _corners(inner: str) -> str:
    """A corner drawn at the top left and again, turned, at the bottom right."""
    return f'<g>{inner}</g><g transform="rotate(180 {WIDTH / 2} {HEIGHT / 2})">{inner}</g>'


def _frame(fill: str = "#ffffff", stroke: str = "#8a8a8a") -> str:
    return f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="5" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'


def _suited(card: Card, lang: str) -> str:
    colour = SUIT_COLOUR[card.suit]
    letter = LETTERS[lang].get(card.rank, str(card.rank))
    size = 15 if len(letter) > 1 else 18
    corner = _text(10, 19, size, letter, colour) + f'<use href="#suit-{card.suit}" x="3" y="22" width="14" height="14"/>'
    if card.rank > 10:
        centre = (f'<rect x="17" y="24" width="26" height="36" rx="3" fill="none" stroke="{colour}" stroke-width="1.2"/>'
                  + f'<use href="#suit-{card.suit}" x="24.5" y="27" width="11" height="11"/>'
                  + _text(30, 57, 19, letter, colour))
    else:
        big = 30 if card.rank == ACE else 24
        centre = f'<use href="#suit-{card.suit}" x="{30 - big / 2}" y="{42 - big / 2}" width="{big}" height="{big}"/>'
    return _frame() + _corners(corner) + centre


def _trump(card: Card) -> str:
    number = str(card.rank)
    corner = _text(10, 17, 14 if len(number) > 1 else 16, number, BLACK)
    return (_frame("#fbf4e2") + _corners(corner)
            + '<rect x="14" y="22" width="32" height="40" rx="4" fill="#e7d6ad"/>'
            + _text(30, 51, 22, number, "#5a3d0c"))


def _excuse() -> str:
    corner = '<g transform="translate(3 4) scale(0.14)" fill="#5a3d0c">' + STAR + "</g>"
    return (_frame("#fbf4e2") + _corners(corner)
            + '<g transform="translate(14 26) scale(0.32)" fill="#b8860b">' + STAR + "</g>")


@lru_cache(maxsize=None)
def numbered_face(number: int) -> tuple[str, int] | None:
    """A numbered card's colour and points, as the game whose deck has it says
    (``Rules.numbered_face``): None for a number no game's deck has."""
    from ..games import GAMES, load_rules

    faces = (load_rules(entry).numbered_face(number) for entry in GAMES if entry.numbered and entry.module is not None)
    return next((face for face in faces if face is not None), None)


def _numbered(card: Card) -> str:
    colour, shown = numbered_face(card.rank) or ("Y", 0)
    ink = FT_INK[colour]
    number = str(card.rank)
    points = str(shown)
    corner = _text(11, 17, 14, number, ink)
    flask = (f'<path d="M10 57h6v4c5 2 7 6 7 10 0 6-5 9-10 9s-10-3-10-9c0-4 2-8 7-10z" fill="{FLASK}" stroke="#ffffff" stroke-width="1"/>'
             + _text(13, 76, 10, points, "#ffffff"))
    return (_frame(FT_FILL[colour], "#555555") + _corners(corner)
            + _text(30, 50, 26, number, ink) + flask)


def _back() -> str:
    return (_frame(BACK_FILL, "#1b2f57")
            + '<rect x="5" y="5" width="50" height="74" rx="3" fill="none" stroke="#ffffff" stroke-width="1.2" opacity="0.7"/>'
            + '<path d="M30 18 48 42 30 66 12 42z" fill="none" stroke="#ffffff" stroke-width="1.5" opacity="0.8"/>'
            + '<path d="M30 30 39 42 30 54 21 42z" fill="#ffffff" opacity="0.8"/>')


def face(card: Card, lang: str = "en") -> str:
    """The drawing of a card's face in its 60 x 84 box (what its ``<symbol>`` holds)."""
    lang = _lang(lang)
    if card.suit in SUITS:
        return _suited(card, lang)
    if card.suit == TRUMP:
        return _trump(card)
    if card.suit == EXCUSE:
        return _excuse()
    if card.suit == NUMBERED:
        return _numbered(card)
    return _back()


def _suit_symbol(suit: str) -> str:
    return f'<symbol id="suit-{suit}" viewBox="0 0 100 100"><g fill="{SUIT_COLOUR[suit]}">{SUIT_SHAPES[suit]}</g></symbol>'


def symbols(cards: Iterable[Card], lang: str = "en") -> str:
    """One hidden ``<svg>`` whose ``<defs>`` hold a ``<symbol>`` per distinct face among
    ``cards`` (and the suits' shapes they use): put it once in the page, before or after
    the ``use`` of those cards."""
    faces: dict[str, Card] = {}
    for card in cards:
        faces.setdefault(symbol_id(card), card)
    suits = sorted({c.suit for c in faces.values() if c.suit in SUITS}, key=SUITS.index)
    parts = [_suit_symbol(s) for s in suits]
    parts += [f'<symbol id="{escape(key)}" viewBox="0 0 {WIDTH} {HEIGHT}">{face(card, lang)}</symbol>'
              for key, card in faces.items()]
    return ('<svg xmlns="http://www.w3.org/2000/svg" class="card-defs" width="0" height="0" aria-hidden="true" focusable="false">'
            f"<defs>{''.join(parts)}</defs></svg>")


def symbols_apart(cards: Iterable[Card], lang: str = "en") -> dict[str, str]:
    """What ``symbols`` puts in a page, as one hidden ``<svg>`` per face, by its symbol's
    id, and one for the suits' shapes (``suits``): a page that follows a game gets the
    faces it has not yet. Each ``<svg>`` holds ``{attributes}`` for the caller's own."""
    head = ('<svg xmlns="http://www.w3.org/2000/svg" class="card-defs" width="0" height="0" aria-hidden="true" '
            'focusable="false" {attributes}><defs>')
    found = {"suits": head + "".join(_suit_symbol(s) for s in SUITS) + "</defs></svg>"}
    for card in cards:
        key = symbol_id(card)
        if key not in found:
            found[key] = (head + f'<symbol id="{escape(key)}" viewBox="0 0 {WIDTH} {HEIGHT}">{face(card, lang)}</symbol>'
                          "</defs></svg>")
    return found


def use(card: Card, *, width: int = 56, lang: str = "en", sprite: str = "") -> str:
    """A card placed in a page: an ``<svg class="card">`` named for screen readers that
    shows its face's symbol (which ``symbols`` must have put in the page, or which the
    document at the address ``sprite`` holds: ``sprite`` below)."""
    height = round(width * HEIGHT / WIDTH)
    return (f'<svg class="card" role="img" aria-label="{escape(label(card, lang))}" width="{int(width)}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}"><use href="{escape(sprite)}#{escape(symbol_id(card))}"/></svg>')


def sprite(cards: Iterable[Card], lang: str = "en") -> str:
    """An SVG document of its own that holds the faces of ``cards`` as ``symbols`` puts
    them in a page: a page may point its cards at it (``use(..., sprite=its address)``),
    and a browser fetches it once and keeps it, where faces put in the page travel with it."""
    return '<?xml version="1.0" encoding="utf-8"?>\n' + symbols(cards, lang)
