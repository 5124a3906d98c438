"""referee's gettext catalogues, written from the English (which language it speaks, and
where the catalogues are: referee/text/locales.py).

English is the source: the ``ENGLISH`` table of referee/sentences/ (each key a
message's context, ``msgctxt``; its English sentence the ``msgid``) and the help strings
of the command line (context ``cli.<command>`` and ``cli.<command>.<option>``). Every
other language is one file, ``referee/locale/<lang>/LC_MESSAGES/referee.po``, compiled to
the ``referee.mo`` beside it, which is what referee reads (with the standard library's
gettext: Babel is needed only to extract and compile). Adding a language needs that file
and nothing else::

    python -m referee.dev.catalogue extract   # writes or updates every .po from the English
    python -m referee.dev.catalogue compile   # writes each .mo from its .po
    python -m referee.dev.catalogue extract de   # starts (or updates) referee/locale/de/...
    python -m referee.dev.catalogue docs      # writes docs/<lang>/conventions.md from the catalogue

Its names for the language in use (``languages``, ``from_locale``, ``mo_path``...) are
referee/text/locales.py's, imported here by name."""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any

# imported by name from here too:
from ..text.locales import (
    DOMAIN as DOMAIN, LOCALE_DIR as LOCALE_DIR, SOURCE as SOURCE, click_context as click_context,
    from_locale as from_locale, languages as languages, mo_path as mo_path, po_path as po_path,
)


PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);"}
"""gettext's plural rule of a language started here (else Babel's, from CLDR): French
says « 0 carte », « 1 carte », « 2 cartes »."""


# Extracting and compiling (Babel, a development tool: imported only here).

def source_messages() -> list[tuple[str, str | tuple[str, str]]]:
    """Every (context, English) pair to translate: the message table, then the help of
    the command line."""
    from ..messages import ENGLISH

    return [*ENGLISH.items(), *help_texts(), *((click_context(one), (one, many)) for one, many in CLICK_PLURALS)]


CLICK_TEXTS = (
    "Usage:", "Options", "Commands", "Show this message and exit.", "Show the version and exit.",
    "Error: {message}", "Try '{command} {option}' for help.", "Invalid value for {param_hint}: {message}",
    "Invalid value: {message}", "Missing argument", "Missing option", "Missing parameter", "Missing {param_type}",
    "Missing parameter: {param_name}", "No such option {name!r}.", "No such command {name!r}.", "Missing command.",
    "Aborted!", "default: {default}", "required", "{value!r} is not a valid {number_type}.",
    "{value} is not in the range {range}.", "file", "directory", "path", "{name} {filename!r} does not exist.",
    "{name} {filename!r} is a directory.", "{name} {filename!r} is not readable.", "Could not open file {filename!r}: {message}",
)
"""The words of click itself around referee's help and errors (Usage:, Options, Error:),
translated like referee's own (context ``click.<words>``); others stay English."""
CLICK_PLURALS = (
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
)
"""click's sentences with a count (its ``ngettext``), by their singular's context."""


def help_texts() -> list[tuple[str, str]]:
    """The help of every command and option, of every game's options (referee games),
    and the notation's own rules (referee explain REC-...), as (context, English text)."""
    from .. import record_rules
    from ..cli.group import HEADING, METAVARS, TYPE_NAMES, help_strings, main, option_helps

    notation = [(f"notation-rule.{key}", text) for key, text in record_rules.RULES.items()]
    return [*help_strings(main), *option_helps(), *notation, *((click_context(t), t) for t in (*CLICK_TEXTS, HEADING)),
            *((f"metavar.{word.replace(' ', '-')}", word) for word in METAVARS),
            *((f"type.{name.replace(' ', '-')}", name) for name in TYPE_NAMES)]


def extract(langs: list[str]) -> None:
    """Write each language's .po from the English (``merged``)."""
    for lang in langs:
        catalog = merged(lang)
        os.makedirs(os.path.dirname(po_path(lang)), exist_ok=True)
        with open(po_path(lang), "wb") as stream:
            stream.write(po_bytes(catalog))
        print(f"{po_path(lang)}: {sum(1 for m in catalog if m.id and not m.string)} untranslated, "
              f"{sum(1 for m in catalog if m.id and m.fuzzy)} fuzzy")


def po_bytes(catalog: Any) -> bytes:
    """A catalogue as its .po file."""
    import io

    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=False, no_location=True)
    return out.getvalue()


def merged(lang: str) -> Any:
    """A language's catalogue from the English and its .po as it is: a translation whose
    English changed is kept, marked fuzzy (it is not used until checked); one whose key
    is gone is dropped."""
    from pathlib import Path

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = Path(po_path(lang))
    old: dict[str, Any] = {}
    plural_forms = PLURAL_FORMS.get(lang)
    if path.exists():
        with path.open("rb") as stream:
            previous_catalog = read_po(stream)
        old = {m.context: m for m in previous_catalog if m.id and m.context}
        plural_forms = previous_catalog.plural_forms  # the translator's choice stands
    catalog = Catalog(locale=lang, domain=DOMAIN, project="referee", version="0.1",
                      copyright_holder="the referee authors", charset="utf-8", fuzzy=False)
    if plural_forms:
        catalog.mime_headers = [("Plural-Forms", plural_forms)]
    if old:  # nothing changes when the English has not: the catalogue's dates stay
        catalog.creation_date = previous_catalog.creation_date
        catalog.revision_date = previous_catalog.revision_date
    for context, english in source_messages():
        if not english:  # an empty sentence stays empty (and msgid "" is the header)
            continue
        previous = old.get(context)
        string: str | tuple[str, ...] = ("", "") if isinstance(english, tuple) else ""
        flags: list[str] = []
        if previous is not None and any(previous.string if isinstance(previous.string, tuple) else [previous.string]):
            string = previous.string
            if isinstance(english, tuple) != isinstance(string, tuple):
                string = ("", "") if isinstance(english, tuple) else ""
            elif previous.id != english or previous.fuzzy:
                flags.append("fuzzy")
        catalog.add(english, string, context=context, flags=flags)
    return catalog


def compiled(lang: str) -> bytes:
    """The .mo of a language's .po, as bytes (fuzzy and empty translations left out)."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po_path(lang), "rb") as stream:
        catalog = read_po(stream)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_all(langs: list[str]) -> None:
    """Write each language's .mo: compiled first, then put in place whole (a failed
    compile leaves the catalogue in use as it was)."""
    for lang in langs:
        content = compiled(lang)
        temporary = mo_path(lang) + ".tmp"
        with open(temporary, "wb") as stream:
            stream.write(content)
        os.replace(temporary, mo_path(lang))
        print(mo_path(lang))


def conventions_page(lang: str) -> str:
    """The page docs/<lang>/conventions.md: for each game, each code referee reports, its
    sentence, the rule quoted and the convention followed, all from the catalogue (one
    source of truth: ``referee --lang <lang> explain CODE`` says the same)."""
    import re

    from .. import record_rules
    from ..games.codes import known_codes, refereed
    from ..cli.explain import explanation
    from ..messages import say, use
    from ..messages import shape as said_shape

    use(lang)
    try:
        lines = [say("docs.conventions.title"), "", say("docs.conventions.intro"), ""]
        groups: list[tuple[str, str | None, list[str]]] = [
            (say("docs.conventions.all-games"), None, [c for c in known_codes() if c in record_rules.CODES])]
        groups += [(cls.title, cls.name, [c for c in known_codes() if c in cls.CODES and c not in record_rules.CODES])
                   for cls in refereed()]
        for title, name, codes in groups:
            lines += [f"## {title}", ""]
            if name:
                lines += [say("docs.conventions.page", page=f"../games/{name}.md"), ""]
            for code in codes:
                found = explanation(code)
                if found is None:
                    continue
                shape = said_shape(code) if code in source_keys() else ""
                lines += [f"### {code}", ""]
                if re.search(r"\w", shape):
                    lines += [f"> {shape}", ""]
                for where, quoted in found.rules:
                    lines += [f"- {say('explain.rule', source=where)} : « {quoted} »"]
                if found.why:
                    lines += [f"- {say('explain.why')} : {found.why}"]
                for game, convention in found.conventions:
                    lines += [f"- {say('explain.why-in', game=game)} : {convention}"]
                lines.append("")
        return "\n".join(lines).rstrip("\n").replace("\u00a0", " ") + "\n"
    finally:
        use(SOURCE, explicit=False)


def source_keys() -> set[str]:
    from ..messages import ENGLISH

    return set(ENGLISH)


def write_docs(langs: list[str]) -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for lang in langs:
        path = os.path.join(root, "docs", lang, "conventions.md")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(conventions_page(lang))
        print(path)


def _po_languages() -> list[str]:
    return sorted(lang for lang in os.listdir(LOCALE_DIR) if os.path.isfile(po_path(lang)))


if __name__ == "__main__":
    commands = {"extract": extract, "compile": compile_all, "docs": write_docs}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python -m referee.dev.catalogue extract|compile|docs [LANG...]")
    if sys.argv[1] != "docs" and importlib.util.find_spec("babel") is None:
        sys.exit("python -m referee.dev.catalogue extract|compile needs Babel: pip install 'referee[i18n]' (or '.[i18n]' in a checkout)")
    commands[sys.argv[1]](sys.argv[2:] or _po_languages())
