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
