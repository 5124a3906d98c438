"""Saying referee's sentences in the language in use.

The English sentences are in ``referee/sentences/``, one module per game and domain;
their translations in the gettext catalogues of ``referee/locale/``.

Keys are stable: violation codes (``BC-FALSE-SLAP``), syntax error kinds
(``syntax.bad-card``) and report phrases (``report.to-move``). Templates use
``str.format`` fields. The games' own French words (carte, plouc, gorgée, pli) stay.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final, Protocol

from .cards import FRENCH_CARDS, Card
from .text.french import french_tag
from .text.locales import mo_path
from .sentences import ENGLISH as ENGLISH
from .sentences import Message as Message
from .sentences import TAGS

_language = "en"
_translation: Any = None
"""The gettext catalogue of the language in use (None: English), read on first use."""
_explicit = False


def use(language: str, explicit: bool = True) -> None:
    """Speak ``language`` from now on ("en", or one of referee.text.locales.languages()).
    ``explicit``: chosen by --lang or the configuration, not only by the locale."""
    global _language, _translation, _explicit
    _language, _translation, _explicit = language, None, explicit


def language() -> str:
    return _language


def explicit() -> bool:
    """Whether the language was chosen by --lang or the configuration (machine formats
    change language only then)."""
    return _explicit


_catalogues: dict[str, Any] = {}
"""Each language's catalogue once read: a page served in its reader's language switches
language at every request."""


def _catalogue() -> Any:
    global _translation
    if _translation is None:
        _translation = _catalogues.get(_language)
    if _translation is None:
        import gettext

        with open(mo_path(_language), "rb") as stream:
            _translation = _catalogues[_language] = gettext.GNUTranslations(stream)
    return _translation


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Sentences in ``language`` while the block runs, then in the language before it."""
    global _language, _translation, _explicit
    saved = _language, _translation, _explicit
    use(language)
    try:
        yield
    finally:
        _language, _translation, _explicit = saved


def template(key: str, count: int = 1) -> str:
    """The sentence for ``key`` in the language in use, its fields not filled in (for a
    sentence with a count, the form for ``count``)."""
    english = ENGLISH[key]
    if _language == "en":
        if isinstance(english, tuple):
            return english[0] if count == 1 else english[1]
        return english
    if isinstance(english, tuple):
        return str(_catalogue().npgettext(key, english[0], english[1], count))
    return str(_catalogue().pgettext(key, english))


def shape(key: str) -> str:
    """The sentence for ``key`` in the language in use, its fields left out (``…``) but the
    header's tag it names (``sentences.TAGS``): ``[Result "…"] disagrees with the replay: …``.
    A sentence with a count takes its plural form: ``… is dealt … cards``."""
    import re

    tag = TAGS.get(key)
    return re.sub(r"\{[^{}]*\}", lambda field: tag if tag and field.group() == "{tag}" else "…", template(key, 2))


def help_text(context: str, english: str) -> str:
    """A help text of the command line (context ``cli.<command>[.<option>]``) in the
    language in use; English when its translation is missing or out of date."""
    return english if _language == "en" else str(_catalogue().pgettext(context, english))


def help_plural(context: str, one: str, many: str, count: int) -> str:
    """``help_text`` for a sentence with a count (click's own ``ngettext``)."""
    if _language == "en":
        return one if count == 1 else many
    return str(_catalogue().npgettext(context, one, many, count))


def say(key: str, **fields: object) -> str:
    """The sentence for ``key`` with its fields filled in; a sentence with a count takes
    its singular or plural form by the ``count`` field (by the language's plural rule). In
    French, a word before a field elides before the field's first sound (``de`` Ann is
    ``d'Ann``: see ``elide``)."""
    return _say(key, fields)


def _say(key: str, fields: dict[str, object]) -> str:
    english = ENGLISH[key]
    if _language == "en":
        if isinstance(english, tuple):
            english = english[0] if fields["count"] == 1 else english[1]
        return fill(english, fields)
    return fill(template(key, _whole(fields["count"]) if isinstance(english, tuple) else 1), fields,
                _language == "fr")


_Parts = list[tuple[str, str | None]]
_PARTS: dict[str, _Parts | None] = {}
"""Each template met, cut once into its text and its plain fields (``{name}``); None for
one whose fields str.format must read itself (a format spec, a conversion, an index)."""


def fill(template: str, fields: dict[str, object], french: bool = False) -> str:
    """``template.format_map(fields)``, the same to the character, without parsing the
    template again at each call (a report fills the same few thousands of times);
    ``french``: each word before a field elided as its value begins (``elide``)."""
    if template in _PARTS:
        parts = _PARTS[template]
    else:
        parts = _PARTS[template] = _parts(template)
    if parts is None:
        return template.format_map(fields)
    pieces: list[str] = []
    for text, name in parts:
        if name is None:
            pieces.append(text)
            continue
        value = format(fields[name], "")  # what str.format does with a plain field
        pieces.append(elide(text, value) if french else text)
        pieces.append(value)
    return "".join(pieces)


ELIDED = {"de": "d'", "De": "D'", "que": "qu'", "Que": "Qu'", "le": "l'", "Le": "L'", "la": "l'", "La": "L'",
          "ne": "n'", "se": "s'", "jusque": "jusqu'", "lorsque": "lorsqu'", "puisque": "puisqu'",
          "du": "de l'", "Du": "De l'", "au": "à l'", "Au": "À l'"}
"""The French words that elide before a vowel sound, and what they become (« du » and « au »
before a card: « le duel de l'AS », « à l'AS »)."""
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüÿæœAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŸÆŒ")


def elide(text: str, value: str) -> str:
    """``text`` as it reads before ``value`` in French: its last word elided when ``value``
    begins with a vowel or an h and a vowel (a name or a card: « tour d'Ann », « l'AS »,
    « d'Hugo »), and left as it is before a consonant or a digit (« le 8C »: le huit)."""
    if not text.endswith(" ") or not value:
        return text
    first = value[0]
    if first not in _VOWELS and not (first in "hH" and len(value) > 1 and value[1] in _VOWELS):
        return text
    start = text.rfind(" ", 0, len(text) - 1) + 1
    for mark in "«(—":
        start = max(start, text.rfind(mark, 0, len(text) - 1) + 1)
    word = text[start:-1].lstrip("\u00a0")
    elided = ELIDED.get(word)
    return text if elided is None else text[: len(text) - 1 - len(word)] + elided


def _parts(template: str) -> _Parts | None:
    from string import Formatter

    parts: _Parts = []
    for text, name, spec, conversion in Formatter().parse(template):
        if name is not None and (spec or conversion is not None or not name.isidentifier()):
            return None
        parts.append((text, name))
    return parts


def _whole(count: object) -> int:
    """A count as gettext's plural rules take it: a whole number (1.5 half glasses: plural)."""
    return count if isinstance(count, int) else 1 if count == 1 else 2


class CardWriter(Protocol):
    """What writes a card and a header's tag when a sentence is worded: a notation
    (referee/spelling.py)."""

    def card(self, card: Card, /) -> str: ...

    def tag(self, english: str, /) -> str: ...


class Worded:
    """Something said late (a tag, a sentence, a list): worded only when shown, by
    ``words``; ``str()`` and ``format()`` word it in the language in use, its cards as the
    notation in force writes them."""

    __slots__ = ()

    def words(self, cards: CardWriter | None = None) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.words()

    def __format__(self, spec: str) -> str:
        return format(self.words(), spec)


class Tag(Worded):
    """A header's tag named in a sentence (``[{tag} "..."]``), by its English (canonical)
    name: worded as the notation writes it (``Result``, ``Résultat``)."""

    __slots__ = ("name",)

    name: Final[str]

    def __init__(self, name: str) -> None:
        self.name = name

    def __reduce__(self) -> tuple[type[Tag], tuple[str]]:
        return Tag, (self.name,)

    def words(self, cards: CardWriter | None = None) -> str:
        """The tag as ``cards`` writes it (None: the notation in force)."""
        if cards is not None:
            return cards.tag(self.name)
        return french_tag(self.name) if FRENCH_CARDS.get() else self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tag) and self.name == other.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Tag({self.name!r})"


class Said(Worded):
    """A sentence not yet worded: its key and its typed fields (a card as a ``Card``, a
    group of cards as a tuple of them, a player's name, a number, a line, a sentence within
    it as another ``Said``, a list as ``Listed``). It is worded only when shown, in the
    language in use and the notation given (``words``): one replay serves every reader.
    ``str()`` words it in the language in use, its cards as the notation in force writes
    them (``cards.cards_named_in``)."""

    __slots__ = ("key", "fields")

    key: Final[str]
    fields: Final[dict[str, object]]

    def __init__(self, key: str, fields: dict[str, object]) -> None:
        self.key = key
        self.fields = fields

    def __reduce__(self) -> tuple[type[Said], tuple[str, dict[str, object]]]:
        return Said, (self.key, self.fields)

    def words(self, cards: CardWriter | None = None) -> str:
        """The sentence in the language in use, its cards written by ``cards`` (None: as
        the notation in force writes them)."""
        fields = self.fields
        for value in fields.values():
            kind = type(value)
            if kind is not str and kind is not int:  # a name or a number is as it is: no copy when all are
                return _say(self.key, {name: item if type(item) is str else worded(item, cards)
                                       for name, item in fields.items()})
        return _say(self.key, fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and self.key == other.key and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {self.fields!r})"


def said(key: str, **fields: object) -> Said:
    """The sentence for ``key`` with these fields, to be worded when shown (see ``Said``)."""
    return Said(key, fields)


class Listed(Worded):
    """A list not yet worded: its items (each worded as a sentence's field is) joined by
    commas and ``and`` (or ``or``) in the language in use when shown (see ``join``); with
    ``last`` empty, written one after the other (a sentence and what it adds: ``together``)."""

    __slots__ = ("items", "last")

    items: Final[tuple[object, ...]]
    last: Final[str]

    def __init__(self, items: tuple[object, ...], last: str = "and") -> None:
        self.items = items
        self.last = last

    def __reduce__(self) -> tuple[type[Listed], tuple[tuple[object, ...], str]]:
        return Listed, (self.items, self.last)

    def words(self, cards: CardWriter | None = None) -> str:
        if self.last:
            return join([worded(item, cards) for item in self.items], self.last)
        return "".join([item if type(item) is str else str(worded(item, cards)) for item in self.items])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listed) and self.items == other.items and self.last == other.last

    def __hash__(self) -> int:
        return hash(self.items)

    def __repr__(self) -> str:
        return f"Listed({self.items!r}, {self.last!r})"


def listed(items: Iterable[object], last: str = "and") -> Listed:
    """``join`` to be worded when shown: 'a, b and c' (or 'a, b or c')."""
    return Listed(tuple(items), last)


def together(*parts: object) -> Listed:
    """Sentences (or their parts) written one after the other, when shown."""
    return Listed(parts, "")


def between(separator: object, items: Iterable[object]) -> Listed:
    """Items written one after the other with ``separator`` between them, when shown."""
    parts: list[object] = []
    for item in items:
        if parts:
            parts.append(separator)
        parts.append(item)
    return Listed(tuple(parts), "")


def clauses(items: Iterable[object]) -> Listed:
    """Clauses of one sentence with a semicolon between them as the language writes it
    (« a ; b » in French), worded when shown."""
    return between(said("join.semicolon"), items)


def worded(value: object, cards: CardWriter | None = None) -> object:
    """A field of a sentence as ``say`` takes it: a card written by ``cards`` (None: as
    the notation in force writes it), a group of cards separated by spaces, a sentence or a
    list worded; anything else as it is (a number keeps its type: a plural reads it)."""
    kind = type(value)
    if kind is str or kind is int:  # the usual field: a name, a word, a number
        return value
    if isinstance(value, Card):
        return str(value) if cards is None else cards.card(value)
    if isinstance(value, Worded):
        return value.words(cards)
    if isinstance(value, tuple):
        return " ".join(str(worded(item, cards)) for item in value)
    return value


def in_clauses(items: Iterable[object]) -> str:
    """``clauses`` worded now: 'a; b'."""
    return say("join.semicolon").join(str(i) for i in items)


def join(items: Iterable[object], last: str = "and") -> str:
    """A list in words: 'a', 'a and b', 'a, b and c' (or 'a, b or c' with ``last="or"``)."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + say(f"join.{last}") + words[-1]
