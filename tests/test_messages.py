"""The message catalogue: one sentence per key (a key written twice would silently lose
the first), and every field a sentence needs is given where it is said."""

from __future__ import annotations

import ast

from referee import messages

from .conftest import ROOT


def test_no_key_is_written_twice() -> None:
    """Within a module of referee/sentences/ and across them: the table is their union."""
    keys: list[str] = []
    for path in sorted((ROOT / "referee" / "sentences").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tables = [n.value for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "ENGLISH"]
        keys += [k.value for table in tables if isinstance(table, ast.Dict) for k in table.keys if k is not None]  # None: a ** spread
    assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})
    assert len(keys) <= len(messages.ENGLISH)


def _templates() -> list[str]:
    """Every sentence's template, English and French, each plural form."""
    from referee.text.locales import languages

    found: list[str] = []
    for language in ["en", *[code for code in languages() if code != "en"]]:
        with messages.speaking(language):
            for key, english in messages.ENGLISH.items():
                found += [messages.template(key, count) for count in ((1, 2) if isinstance(english, tuple) else (1,))]
    return found


def test_fill_is_format_map() -> None:
    """say() fills a template cut once into text and fields: the same to the character as
    str.format_map, for every sentence in every language, whatever its fields hold."""
    import string
    from fractions import Fraction

    from referee.cards import Card

    templates = _templates()
    assert len(templates) > 1500
    values: list[object] = [3, 1.5, "Noé {x}", Card(12, "S"), Fraction(2, 3), None, "", "%s {0}"]
    compared = 0
    for i, template in enumerate([*templates, "{a!r} {b:>4} {0} {{c}} {d.real}", "no field", "{a}{a}"]):
        names = {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}
        fields: dict[str, object] = {name: values[(i + j) % len(values)] for j, name in enumerate(sorted(names))}
        fields |= {"a": 7, "b": "x", "d": 2}
        try:
            expected = template.format_map(fields)
        except (IndexError, KeyError, TypeError, ValueError):
            continue
        assert messages.fill(template, fields) == expected, template
        compared += 1
    assert compared > 1500


def test_fill_fails_as_format_map_does() -> None:
    import pytest

    with pytest.raises(KeyError):
        messages.fill("{missing} here", {})
    with pytest.raises(KeyError):
        "{missing} here".format_map({})


NEVER_ONE = {
    "file.hard-links": "a file with hard links has two names or more",
    "cp.turn.next-tens": "the direction comes back to where it was after an even number of turns, two or more",
    "ca.too-many-cards": "Caroleto seats three players or more",
}
"""Sentences that count with a plural noun but no singular form: their count is never 1."""


def test_a_sentence_that_counts_has_a_singular_form() -> None:
    """``{count} cards`` in a plain sentence would say "1 cards": such a sentence is a
    (singular, plural) pair, unless its count is never 1 (NEVER_ONE says why)."""
    import re

    plain = {key for key, text in messages.ENGLISH.items()
             if isinstance(text, str) and re.search(r"\{count[^}]*\} [a-z]+s\b", text)}
    assert plain == set(NEVER_ONE), sorted(plain - set(NEVER_ONE))


def test_a_deal_of_one_card_is_said_in_the_singular(check_text) -> None:
    """REC-BAD-DEAL for one card: "1 card", « 1 carte »."""
    record = '[Game "carte-et-plouc"]\n[Players "Ana Bob"]\n\nAna holds 5H\nBob holds 7C 8C 9C 10C JC QC KC\n'
    for language, words in (("en", ("Ana is dealt 1 card;",)), ("fr", ("Ana reçoit 1 carte\u00a0;",))):
        with messages.speaking(language):
            said = [str(v.message) for v in check_text(record).violations]
        for word in words:
            assert any(word in s for s in said), (language, said)
