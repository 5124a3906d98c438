"""Which language referee speaks, and where its compiled catalogues are (gettext reads
them: referee/messages.py). referee/dev/catalogue.py writes them (``python -m referee.dev.catalogue``).

The language is, in order: ``--lang``, then ``lang`` in the configuration, then the
locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them), else English."""

from __future__ import annotations

import os
import re

LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")
"""Where the catalogues are (os.path, not pathlib: pathlib costs a check's start-up some milliseconds)."""
DOMAIN = "referee"
SOURCE = "en"


def languages() -> tuple[str, ...]:
    """The languages referee speaks: English, and each language with a compiled catalogue."""
    try:
        found = sorted(lang for lang in os.listdir(LOCALE_DIR) if os.path.isfile(mo_path(lang)))
    except OSError:
        found = []
    return (SOURCE, *found)


def from_locale(environ: dict[str, str] | os._Environ[str] = os.environ) -> str:
    """The language the locale asks for, as gettext reads it: the first of LANGUAGE,
    LC_ALL, LC_MESSAGES and LANG that is set; in it, the first language referee speaks
    (``fr_FR.UTF-8`` gives ``fr``); English when none is (or for ``C`` and ``POSIX``)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            break
    else:
        return SOURCE
    known = languages()
    for part in value.split(":"):
        lang = part.split(".")[0].split("@")[0]
        if lang in ("C", "POSIX"):
            return SOURCE
        for candidate in (lang, lang.split("_")[0]):
            if candidate in known:
                return candidate
    return SOURCE


def mo_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.mo")


def po_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.po")


def click_context(text: str) -> str:
    return "click." + re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
