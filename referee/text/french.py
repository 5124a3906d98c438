"""French notation's words: the verbs, the words before a named player, the drinks, the
round marker and the header tags, each to its English (canonical) form. One table each,
the one docs/notation.md shows; the cards' French letters are in referee/cards.py."""

from __future__ import annotations

FRENCH_VERBS = {
    "tient": "holds", "joue": "plays", "pioche": "draws", "tape": "slaps", "gifle": "slaps",
    "ramasse": "collects", "glisse": "burns", "donne": "gives", "prend": "takes",
    "défausse": "discards", "defausse": "discards", "échange": "swaps", "echange": "swaps",
    "passe": "passes", "dit": "says", "jure": "swears", "boit": "drinks", "finit": "drinks",
    "bat": "beats", "refuse": "refuses", "vote": "votes", "mise": "bids", "attrape": "catches",
    "accuse": "accuses", "marque": "scores",
}
"""Each French verb (as written: lower case, with or without its accent) to its English one."""
FRENCH_WRITTEN = {
    "holds": "tient", "plays": "joue", "draws": "pioche", "slaps": "tape", "collects": "ramasse",
    "burns": "glisse", "gives": "donne", "takes": "prend", "discards": "défausse", "swaps": "échange",
    "passes": "passe", "says": "dit", "swears": "jure", "drinks": "boit", "beats": "bat",
    "refuses": "refuse", "votes": "vote", "bids": "mise", "catches": "attrape", "accuses": "accuse",
    "scores": "marque",
}
"""Each English verb to the French one ``fmt`` writes."""
FRENCH_PREPOSITIONS = {"plays": "sur", "gives": "à", "takes": "à", "swaps": "avec"}
"""The word before the player an event names, in French: joue 5P sur Ben, donne DP à Ben,
prend ?? à Ben, échange avec Ben (as record.PREPOSITIONS in English)."""
FRENCH_TARGET_WORDS = frozenset({"sur", "à", "avec"})
FRENCH_FOR = "pour"
FRENCH_ROUND = "manche"
FRENCH_AMOUNTS = {
    "moitié": "half", "moitie": "half", "la moitié": "half", "la moitie": "half",
    "verre": "glass", "un verre": "glass",
    "son verre": "up", "cul-sec": "up",
    "le verre au centre": "central", "verre au centre": "central", "centre": "central",
}
"""The drinks that are not a number of gorgées, as written after ``boit`` (lower case,
single-spaced), to the English amount; a number may be followed by gorgée or gorgées."""
FRENCH_AMOUNT_WRITTEN = {"half": "la moitié", "glass": "un verre", "up": "son verre", "central": "le verre au centre"}

FRENCH_VALUES = {
    "yes": "oui", "no": "non", "none": "aucune", "all": "toutes", "round": "manche", "turn": "tour",
    "slapper": "tapeur", "skip": "saut", "text": "texte", "short": "allégé", "full": "complet",
    "first-out": "premier-sorti", "play-on": "jeu-prolongé", "penalties": "points-de-pénalité", "pair": "paire",
    "burn-3": "glisse-3", "give-1": "donne-1", "no-slap-30": "sans-tape-30",
}
"""The games' option values in French, as referee shows them in French and as a header may
write them in either notation (``[Sanction "aucune"]`` is ``none``); a value not here is
the same word in both (zouzou, sandwich, david-le-fou)."""

FRENCH_TAGS = {
    "Game": ("Jeu",), "Players": ("Joueurs",), "Dealer": ("Donneur",), "First": ("Premier",),
    "Result": ("Résultat", "Resultat"), "Match": ("Partie",), "Round": ("Manche",),
    "Target": ("Objectif",), "Hands": ("Donnes",), "Totals": ("Totaux",), "Date": ("Date",),
    "Place": ("Lieu",), "Event": ("Événement", "Evenement"), "Annotator": ("Annotateur",),
    "Starter": ("Retournée", "Retournee"), "Stock": ("Talon",), "Notation": ("Notation",),
}
"""Each header tag referee reads by name to its French forms (the first is what ``fmt``
writes); a game's options keep their names, in either notation."""
FRENCH_OPTION_GUESSES = {
    "cartes": "cards", "carte": "cards", "boissons": "drinks", "boisson": "drinks", "tapes": "slaps", "tape": "slaps",
    "pénalité": "penalty", "penalite": "penalty", "paquet": "deck", "décompte": "scoring", "decompte": "scoring",
    "variantes": "variants", "variante": "variants", "rebattre": "reshuffle", "mélange": "reshuffle",
    "melange": "reshuffle",
}
"""A game's option tag as a French table would guess it (lower case) to the option's tag
(lower case): the options keep their English names in either notation, and ``[Cartes "6"]``
is flagged "did you mean [Cards]?" rather than ignored, its default applied in silence."""
TAG_KEYS = {french.lower(): english.lower() for english, names in FRENCH_TAGS.items() for french in names}
"""A tag in lower case to the lower-case English tag it stands for (French ones only)."""


def is_french(notation: str | None) -> bool:
    """Whether a [Notation] header's value names French notation."""
    return notation is not None and notation.strip().lower() in ("fr", "français", "francais", "french")


ENGLISH_TAGS = {french.lower(): english for english, names in FRENCH_TAGS.items() for french in names}


def english_tag(tag: str) -> str:
    """A tag in its English form, for the JSON form: ``Jeu`` is ``Game``; an English tag as written."""
    return ENGLISH_TAGS.get(tag.lower(), tag) if tag.lower() != "notation" else tag


def tag_key(tag: str) -> str:
    """The lower-case English form of a header tag written in either notation."""
    low = tag.lower()
    return TAG_KEYS.get(low, low)


def french_tag(english: str) -> str:
    """The French spelling ``fmt`` writes for a tag, or the tag itself."""
    names = FRENCH_TAGS.get(english)
    return names[0] if names else english


SPELT_TAGS = {english.lower(): (english, names[0]) for english, names in FRENCH_TAGS.items()}
"""Each tag of the table by its key: its English and its French spelling."""
