""""Mark as accepted by the table" only where it ends the matter (issue 37): over every
record of records/, each such code action the server offers, applied and checked again as
``check`` checks it, takes its fault away and brings none, or its title says what follows
(a « carte » missed and accepted: the card given for it is then owed by nobody)."""

from __future__ import annotations

import io

import pytest

from referee.engine import check_games
from referee.notation import read_games

from .conftest import RECORDS
from .lsp_client import Client, running
from .test_lsp import _apply

pytest.importorskip("pygls")

MARKS = "; accepted "


def _open_faults(text: str) -> set[tuple[int, str]]:
    """(line, code) of each fault ``check`` reports and the table did not accept."""
    games = check_games(read_games("t.txt", io.BytesIO(text.encode("utf-8", "surrogateescape")), lazy=True))
    return {(v.line, v.code) for _, report in games for v in report.violations if not v.accepted}


@pytest.fixture(scope="module")
def client():
    with running() as client:
        yield client


def _marks(client: Client, uri: str, text: str) -> list[dict]:
    client.open(uri, text)
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "context": {"diagnostics": [], "only": ["quickfix"]},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": text.count("\n") + 1, "character": 0}}})
    return [a for a in actions if any(MARKS in e["newText"] for e in a["edit"]["changes"][uri])]


def test_a_mark_ends_the_matter_or_says_what_follows(client: Client) -> None:
    offered = said = 0
    for path in sorted(RECORDS.rglob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        uri = "file:///lsp-accept/" + path.relative_to(RECORDS).as_posix()
        before = _open_faults(text)
        for action in _marks(client, uri, text):
            (edit,) = action["edit"]["changes"][uri]
            code = edit["newText"].split(MARKS)[-1]
            line = edit["range"]["start"]["line"] + 1
            after = _open_faults(_apply(text, [edit]))
            assert (line, code) in before and (line, code) not in after, (path.name, action["title"])
            follows = after - before
            for follow, follow_code in follows:
                assert follow_code in action["title"] and str(follow) in action["title"], (path.name, action["title"])
            offered += 1
            said += bool(follows)
    assert offered > 300 and said  # records where a mark brings another fault are among them


def test_a_missed_carte_accepted_says_the_card_given_for_it_is_owed_by_nobody(client: Client) -> None:
    text = (RECORDS / "carte-et-plouc" / "mega-one.txt").read_text(encoding="utf-8")
    titles = [a["title"] for a in _marks(client, "file:///lsp-accept/missed.txt", text) if "CP-MISSED-CARTE" in a["title"]]
    follows = [t for t in titles if "CP-SANCTION-WRONG" in t]
    assert follows and all(t.startswith("Write « ; accepted CP-MISSED-CARTE »: then line ") for t in follows)
    assert any("no card is owed" in t for t in follows)
