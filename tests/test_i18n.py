"""Messages in two languages: the French catalogue is complete, its placeholders are the
English ones, the .mo shipped is the .po compiled, the language is chosen as documented
(--lang, then the configuration's lang, then the locale), machine formats change language
only when asked, and no sentence is glued from words in code."""

from __future__ import annotations

import ast
import json
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from referee.dev import catalogue as i18n
from referee.text import locales
from referee import messages
from referee.cli import main
from referee.messages import ENGLISH, say, use

from .conftest import RECORDS, ROOT

NBSP = "\u00a0"


def catalogue(lang: str = "fr"):
    with open(i18n.po_path(lang), "rb") as stream:
        return read_po(stream)


def fields(template: str) -> set[tuple[str, str]]:
    """A template's fields, with their format specs (a !r conversion may become « », and
    English's thousands comma, {count:,}, which reads as a decimal comma in French, may go)."""
    return {(name, (spec or "").replace(",", "")) for _, name, spec, _ in string.Formatter().parse(template) if name is not None}


def forms(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def one_line(text: str) -> str:
    """Text wrapped to the terminal, unwrapped (no-break spaces kept)."""
    return re.sub(r"[ \n]+", " ", text)


def french(monkeypatch) -> None:
    """French as the locale gives it (the suite runs in English otherwise: conftest)."""
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")


# The catalogue.

def test_every_message_and_every_help_text_has_a_french_translation_of_its_current_english() -> None:
    translated = {m.context: m for m in catalogue() if m.id}
    missing, stale = [], []
    for context, english in i18n.source_messages():
        if not english:
            continue
        message = translated.get(context)
        if message is None or not all(forms(message.string)):
            missing.append(context)
        elif message.fuzzy or message.id != english:
            stale.append(context)
    assert not missing, f"no French for {missing} (python -m referee.dev.catalogue extract, translate, compile)"
    assert not stale, f"the English of {stale} changed since it was translated (or is marked fuzzy)"


def test_placeholders_of_each_translation_are_the_originals() -> None:
    wrong = []
    for message in catalogue():
        if not message.id:
            continue
        english = set().union(*(fields(f) for f in forms(message.id)))
        translated = [fields(f) for f in forms(message.string)]
        # every form uses only the original's fields; together the forms use all of them
        # (a singular may say « sa dernière carte » without its count)
        if any(f - english for f in translated) or set().union(*translated) != english:
            wrong.append((message.context, sorted(english), [sorted(f) for f in translated]))
    assert not wrong, wrong


def test_a_sentence_with_a_count_has_its_plural_forms_in_french_too() -> None:
    for message in catalogue():
        if message.id and message.context in ENGLISH:
            assert isinstance(message.id, tuple) == isinstance(ENGLISH[message.context], tuple), message.context
            if isinstance(message.id, tuple):
                assert len(message.string) == 2, message.context


def test_no_sentence_says_card_s_in_either_language() -> None:
    english = [k for k, v in ENGLISH.items() for f in forms(v) if re.search(r"\w\((e?s)\)", f)]
    french = [m.context for m in catalogue() if m.id for f in forms(m.string) if re.search(r"\w\((e?s)\)", f)]
    assert not english and not french, (english, french)


def test_french_typography_is_the_same_everywhere() -> None:
    """A no-break space before : ; ? ! and inside « » (never a plain space, which could
    put the colon at the start of a line)."""
    wrong = [(m.context, f) for m in catalogue() if m.id for f in forms(m.string)
             if re.search(r" [:;?!»]|« ", f)]
    assert not wrong, wrong[:5]


def test_the_shipped_mo_is_the_po_compiled() -> None:
    for lang in i18n.languages()[1:]:
        assert Path(i18n.mo_path(lang)).read_bytes() == i18n.compiled(lang), \
            f"{i18n.mo_path(lang)} is out of date: python -m referee.dev.catalogue compile"


def test_french_plurals_follow_french_rules() -> None:
    use("fr")
    assert [say("state.cards", count=n) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
    use("en")
    assert [say("state.cards", count=n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_a_language_needs_only_its_compiled_catalogue(tmp_path, monkeypatch) -> None:
    """A third language: a .po compiled, nothing else (here a copy of the French one)."""
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "referee.mo").write_bytes(Path(i18n.mo_path("fr")).read_bytes())
    monkeypatch.setattr(locales, "LOCALE_DIR", str(tmp_path))  # where referee looks for catalogues
    assert i18n.languages() == ("en", "xx")
    result = CliRunner().invoke(main, ["--lang", "xx", "explain", "CP-MISSED-PLOUC"])
    assert "a posé sa dernière carte, …, ligne …, sans dire" in result.output, result.output


# Choosing the language.

@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}, "fr"), ({"LANGUAGE": "en", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_MESSAGES": "fr_BE@euro"}, "fr"), ({"LANG": "C"}, "en"), ({"LANG": "de_DE.UTF-8"}, "en"), ({}, "en"),
])
def test_the_locale_is_read_as_gettext_reads_it(environ, lang) -> None:
    assert i18n.from_locale(environ) == lang


def record(tmp_path) -> str:
    path = tmp_path / "g.txt"
    path.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 5H\nBob slaps\n', encoding="utf-8")
    return str(path)


def test_the_locale_gives_french_and_lang_en_overrides_it(tmp_path, monkeypatch) -> None:
    french(monkeypatch)
    out = CliRunner().invoke(main, ["check", record(tmp_path)]).output
    assert "Bob a tapé sur la pile, mais la pile ne montre pas de paire (dessus\u00a0: 5H)" in out, out
    assert "1 partie avec 1 faute" in out
    out = CliRunner().invoke(main, ["--lang", "en", "check", record(tmp_path)]).output
    assert "Bob slapped, but the pile shows no pair (top: 5H)" in out and "1 game with 1 violation" in out, out


def test_the_configuration_s_lang_comes_after_lang_and_before_the_locale(tmp_path, monkeypatch) -> None:
    (tmp_path / "referee.toml").write_text('lang = "fr"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    path = record(tmp_path)
    assert "1 faute" in CliRunner().invoke(main, ["check", path]).output
    assert "1 violation" in CliRunner().invoke(main, ["--lang", "en", "check", path]).output
    assert "1 violation" in CliRunner().invoke(main, ["check", "--no-config", path]).output


def test_an_unknown_language_is_an_error_that_lists_the_languages(tmp_path, monkeypatch) -> None:
    result = CliRunner().invoke(main, ["--lang", "de", "check", record(tmp_path)])
    assert result.exit_code == 2 and "'de' is not a language referee speaks: en, fr" in result.output, result.output
    assert "Traceback" not in result.output
    (tmp_path / "referee.toml").write_text('lang = "de"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", record(tmp_path)])
    assert result.exit_code == 2 and "lang: expected one of en, fr" in result.output, result.output


@pytest.mark.parametrize("form", ["json", "jsonl", "sarif", "junit", "github"])
def test_machine_formats_change_language_only_when_asked(tmp_path, monkeypatch, form) -> None:
    french(monkeypatch)
    path = record(tmp_path)
    out = CliRunner().invoke(main, ["check", "--format", form, path]).output
    assert "Bob slapped, but" in out and "a tapé" not in out, out
    out = CliRunner().invoke(main, ["--lang", "fr", "check", "--format", form, path]).output
    assert "Bob a tapé sur la pile" in out, out
    if form == "json":
        assert json.loads(out)[0]["violations"][0]["code"] == "BC-FALSE-SLAP"


def test_state_json_keeps_english_names_whatever_the_language(tmp_path) -> None:
    out = CliRunner().invoke(main, ["--lang", "fr", "state", "--json", str(RECORDS / "caroleto" / "drinks.txt")]).output
    assert '"discard"' in out and '"défausse"' not in out, out


def test_rule_quotes_stay_french_in_english(tmp_path) -> None:
    out = CliRunner().invoke(main, ["--lang", "en", "check", record(tmp_path)]).output
    assert "« un joueur qui commet une erreur" in out


# The help.

def test_the_help_of_every_command_and_option_is_french_in_french(monkeypatch) -> None:
    french(monkeypatch)
    translated = {m.context: m.string for m in catalogue() if m.id}
    top = CliRunner().invoke(main, ["--help"]).output
    assert "Arbitre et vérificateur" in top and "La langue des messages" in top, top
    for name in main.commands:
        out = " ".join(CliRunner().invoke(main, [name, "--help"]).output.split())
        for context, _ in i18n.help_texts():
            if context.startswith(f"cli.{name}"):
                first = " ".join(translated[context].split("\n\n")[0].split())[:40]
                assert first in out, (context, first, out)
    assert "Replay records" in CliRunner().invoke(main, ["--lang", "en", "check", "--help"]).output


def test_games_lists_the_options_in_french() -> None:
    out = CliRunner().invoke(main, ["--lang", "fr", "games"]).output
    assert "bataille-corse  Bataille corse  de 2 à 5 joueurs" in out
    assert "ce sur quoi l'on peut taper en plus de la paire\u00a0: des valeurs parmi pair" in out, out


# Check, state and explain in French, a record of each game.

FRENCH = [
    ("bataille-corse/false-slap-burn-3.txt", "Chloe a tapé sur la pile, mais la pile ne montre pas de paire"),
    ("carte-et-plouc/ace-announce.txt", "Ana a annoncé trèfle, la couleur déjà en jeu\u00a0: un as la change"),
    ("pierre-qui-roule/revoke-proven.txt", "Ben a ramassé le pli entamé par 8S, alors que sa main contenait du pique"),
    ("flaschenteufel/devil.txt", "C n'a pas mis de carte face cachée dans le pli du diable avant la première carte"),
    ("caroleto/drinks.txt", "Cas boit un verre plein, mais doit la moitié de son verre"),
]


@pytest.mark.parametrize(("name", "sentence"), FRENCH)
def test_check_speaks_french(monkeypatch, name, sentence) -> None:
    french(monkeypatch)
    out = CliRunner().invoke(main, ["check", str(RECORDS / name)]).output
    assert sentence in one_line(out), out
    assert re.search(r"^(\d+ parties? avec \d+ fautes?|\d+ en cours|\d+ sans faute)(\u00a0; |$)", out.splitlines()[-1]), out


STATES = [
    ("bataille-corse/in-progress-payment.txt", "à faire\u00a0: Bob paie encore 2 cartes à Alice"),
    ("carte-et-plouc/notation.txt", "défausse\u00a0: 11 cartes\u00a0: 5H QH QS QD QC 8C 8S 8H 9H 9C 4C (dessus)"),
    ("pierre-qui-roule/notation.txt", "fautes jusqu'ici\u00a0: aucune"),
    ("flaschenteufel/notation.txt", "le propriétaire de la bouteille"),
    ("caroleto/drinks.txt", "verre au centre\u00a0: 0/3"),
]


@pytest.mark.parametrize(("name", "line"), STATES)
def test_state_speaks_french(name, line) -> None:
    out = CliRunner().invoke(main, ["--lang", "fr", "state", str(RECORDS / name)]).output
    assert line in out, out


EXPLAINED = [
    ("BC-FALSE-SLAP", "convention\u00a0: Taper gagne la pile quand le dessus de la pile montre une figure"),
    ("CP-MISSED-PLOUC", "referee dit\u00a0: 11:1 CP-MISSED-PLOUC Ana a posé sa dernière carte, 9K, ligne 10, sans dire"),  # in French notation
    ("PQ-MUST-PICK-UP", "Un joueur qui ne peut pas fournir ne joue pas une autre couleur"),
    ("FT-DEVIL-EXTRA", "Une carte chacun dans le pli du diable"),
    ("CA-DOUBLE-PAST-8", "Les enjeux vont de 2 à 4 puis 8 et s'arrêtent"),
    (str(RECORDS / "caroleto" / "drinks.txt") + ":15", "décision"),
]


@pytest.mark.parametrize(("target", "text"), EXPLAINED)
def test_explain_speaks_french(target, text) -> None:
    out = CliRunner().invoke(main, ["--lang", "fr", "explain", target]).output
    assert text in one_line(out), out


def test_every_line_of_a_french_check_of_the_records_is_french(monkeypatch) -> None:
    """No English sentence is left in a French report of every record (the lines of
    the records themselves, their notation and the rules' French quotes aside)."""
    french(monkeypatch)
    out = CliRunner().invoke(main, ["check", "--exclude", "bad", str(RECORDS)]).output
    english = re.compile(r"\b(the|and|is|was|with|but|owes|has|their|they|cannot|must|card|cards|line|turn)\b")
    said = [re.sub(r"\S*/\S*", "", line) for line in out.splitlines()
            if not line.startswith("      ") and not line.lstrip().startswith(("«", "(")) and "écrivez" not in line]
    assert not [line for line in said if english.search(line)][:5]


# No sentence glued from words in code.

SAY_CALL = re.compile(r"\bsay\(")


def _glued(tree: ast.AST) -> list[int]:
    """Lines where text with words is joined to a say() call: by +, or in an f-string."""
    def has_words(node) -> bool:
        return (isinstance(node, ast.Constant) and isinstance(node.value, str) and "<" not in node.value  # markup is no sentence
                and re.search(r"[A-Za-z]{2,}", node.value) is not None)

    def says(node) -> bool:
        return any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "say" for n in ast.walk(node))

    def operands(node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            yield from operands(node.left)
            yield from operands(node.right)
        else:
            yield node

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            if any(has_words(p) for p in parts) and any(says(p) for p in parts if isinstance(p, ast.FormattedValue)):
                found.append(node.lineno)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            items = list(operands(node))
            if any(has_words(i) for i in items) and any(says(i) for i in items):
                found.append(node.lineno)
    return found


def test_no_sentence_is_glued_from_words_around_say() -> None:
    glued = {str(p.relative_to(ROOT)): lines for p in (ROOT / "referee").rglob("*.py")
             if (lines := _glued(ast.parse(p.read_text(encoding="utf-8"))))}
    assert not glued, glued


def test_the_glue_detector_finds_glue() -> None:
    assert _glued(ast.parse('x = say("a") + " cards left"\ny = f"{say(\'b\')} more"\nz = "  " + say("c")')) == [1, 2]


# Cost, and the suite under a French locale.

def test_checking_in_english_reads_no_catalogue_and_imports_no_babel(tmp_path) -> None:
    code = ("import sys; from referee.cli import main\n"
            "try: main(['check', sys.argv[1]])\n"
            "except SystemExit: pass\n"
            "from referee import messages\n"
            "assert 'babel' not in sys.modules and messages._translation is None\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANGUAGE": "en"}
    done = subprocess.run([sys.executable, "-c", code, record(tmp_path)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_suite_passes_under_a_french_locale() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG="fr_FR.UTF-8", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-x",  # no workers: a few tests
                           "tests/test_formats.py", "tests/test_explain.py", "-k", "summary or explain_a"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and " passed" in done.stdout, done.stdout[-2000:]


def test_messages_module_state_is_english_by_default() -> None:
    assert messages.language() == "en" and not messages.explicit()


def test_the_french_conventions_page_is_written_from_the_catalogue() -> None:
    page = ROOT / "docs" / "fr" / "conventions.md"
    assert page.read_text(encoding="utf-8") == i18n.conventions_page("fr"), "python -m referee.dev.catalogue docs"
    assert messages.language() == "en"


def test_click_s_own_words_follow_the_language() -> None:
    out = CliRunner().invoke(main, ["--lang", "fr", "state", "--help"]).output
    assert out.startswith("Utilisation\u00a0:") and "Affiche ce message et quitte." in out, out
    result = CliRunner().invoke(main, ["--lang", "fr", "state", "--at", "0", "g.txt"])
    assert "Erreur\u00a0: Valeur invalide pour '--at'\u00a0:" in result.output, result.output
    out = CliRunner().invoke(main, ["--lang", "en", "state", "--help"]).output
    assert out.startswith("Usage:") and "Show this message and exit." in out, out
