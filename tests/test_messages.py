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
