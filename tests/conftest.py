"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"


@pytest.fixture
def check_text():
    """Check a record given as text; the report of its only game."""
    from referee.engine import check
    from referee.notation import parse_text

    def run(text: str, play_out: bool = False):
        games = parse_text(text)
        assert len(games) == 1, games
        return check(games[0], play_out)

    return run


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The suite compares English texts: referee speaks English whatever the locale the
    suite runs under (LANGUAGE wins over LANG, for the commands run in this process and
    for those it starts). A test that wants French asks for it (tests/test_i18n.py)."""
    from referee.messages import use

    monkeypatch.setenv("LANGUAGE", "en")
    use("en", explicit=False)
    yield
    use("en", explicit=False)
