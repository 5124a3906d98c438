"""For each Caroleto code, a short record whose last event line breaks that rule
(``referee explain CODE``); tests/test_caroleto.py checks each."""

from __future__ import annotations

EXAMPLES: dict[str, str] = {}
