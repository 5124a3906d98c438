"""The message catalogue: one sentence per key (a key written twice would silently lose
the first), and every field a sentence needs is given where it is said."""

from __future__ import annotations

import ast

from referee import messages

from .conftest import ROOT


def test_no_key_is_written_twice() -> None:
    tree = ast.parse((ROOT / "referee" / "messages.py").read_text(encoding="utf-8"))
    table = next(n.value for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "ENGLISH")
    keys = [k.value for k in table.keys if k is not None]  # None: a ** spread of generated keys
    assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})
    assert len(keys) <= len(messages.ENGLISH)
