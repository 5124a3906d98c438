"""``referee lsp`` as an editor uses it: a real server in a subprocess, spoken to over a
pipe in JSON-RPC (tests/lsp_client.py). Every answer is checked against what the
command-line tools say of the same record (check, state, explain, fmt)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cards import read_card
from referee.engine import check_games
from referee.games.base import legal_events
from referee.cli.explain import explanation, render_code
from referee.cli.fmt import canonical
from referee.notation import RecordError, parse_text, read_games
from referee.state import render, state_in_text

from .conftest import RECORDS, ROOT
from .lsp_client import Client, running

pytest.importorskip("pygls")

GAMES = ("bataille-corse", "carte-et-plouc", "pierre-qui-roule", "flaschenteufel", "caroleto")
ALL = sorted(RECORDS.glob("*/*.txt"))


@pytest.fixture(scope="module")
def client():
    with running() as client:
        yield client


AH = read_card("AH")


def _uri(path: Path | str) -> str:
    return Path(path).resolve().as_uri() if isinstance(path, Path) else f"file:///lsp-test/{path}"


def _expected(text: str) -> set[tuple[int, str | None]]:
    """(line, code) of what ``check`` reports: each violation, each unreadable line (code None)."""
    found = set()
    for item, report in check_games(read_games("t.txt", io.BytesIO(text.encode("utf-8")), lazy=True)):
        if isinstance(item, RecordError):
            found.add((item.line or 1, None))
            continue
        found |= {(v.line, v.code) for v in report.violations}
        found |= {(e.line, None) for e in report.errors}
        if report.error is not None and not report.errors:
            found.add((report.error.line, None))
    return found


def _shown(diagnostics: list[dict]) -> set[tuple[int, str | None]]:
    return {(d["range"]["start"]["line"] + 1, d.get("code")) for d in diagnostics if d["severity"] in (1, 4)}


def _apply(text: str, edits: list[dict]) -> str:
    """Text edits applied as an editor applies them (UTF-16 columns; these records keep
    to the Basic Multilingual Plane, so they count as characters), last first."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def at(position: dict) -> int:
        return min(offsets[min(position["line"], len(lines))] + position["character"], len(text))

    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        text = text[: at(edit["range"]["start"])] + edit["newText"] + text[at(edit["range"]["end"]):]
    return text


def _actions(client: Client, uri: str, line: int) -> list[dict]:
    where = {"start": {"line": line - 1, "character": 0}, "end": {"line": line - 1, "character": 0}}
    return client.request("textDocument/codeAction",
                          {"textDocument": {"uri": uri}, "range": where, "context": {"diagnostics": []}})


# --- Diagnostics ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(RECORDS)))
def test_diagnostics_are_what_check_reports(client: Client, path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    assert _shown(client.open(_uri(path), text)) == _expected(text)


def test_accepted_faults_are_hints_and_the_rule_is_quoted(client: Client) -> None:
    text = (RECORDS / "bataille-corse" / "accepted.txt").read_text(encoding="utf-8")
    diagnostics = client.open(_uri("accepted.txt"), text)
    hints = [d for d in diagnostics if d["severity"] == 4]
    assert hints and all(d["code"] for d in hints)
    assert all("\n« " in d["message"] for d in hints)  # the rule, quoted after the message


@pytest.mark.parametrize("game", GAMES)
def test_a_change_is_ruled(client: Client, game: str) -> None:
    """didChange: a card no deck holds, then taken back."""
    path = _simulated(game, 1)
    text = path.read_text(encoding="utf-8")
    uri = _uri(f"change-{game}.txt")
    assert _shown(client.open(uri, text)) == _expected(text)
    lines = text.split("\n")
    last = max(n for n, line in enumerate(lines) if line and not line.startswith(("[", ";")))
    lines.insert(last + 1, lines[last].split()[0] + " plays ZZ")
    changed = "\n".join(lines)
    after = client.change(uri, changed, 2)
    assert (last + 2, None) in _shown(after)
    assert _shown(after) == _expected(changed)
    assert _shown(client.change(uri, text, 3)) == _expected(text)


# --- Reading only what changed -----------------------------------------------------------

_SIMULATED: dict[tuple[str, int, int], Path] = {}
_FOLDER: list[Path] = []


@pytest.fixture(scope="module", autouse=True)
def _simulated_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    _FOLDER[:] = [tmp_path_factory.mktemp("simulated")]


def _simulated(game: str, count: int, players: int = 4) -> Path:
    """Records written by ``referee simulate`` (each asked once per module)."""
    key = (game, count, players)
    if key not in _SIMULATED or not _SIMULATED[key].exists():
        out = subprocess.run([sys.executable, "-m", "referee", "simulate", game, "-n", str(players), "--seed", "7",
                              "--count", str(count)], capture_output=True, text=True, cwd=ROOT, check=True).stdout
        path = _FOLDER[0] / f"{game}-{count}-{players}.txt"
        path.write_text(out, encoding="utf-8")
        _SIMULATED[key] = path
    return _SIMULATED[key]


def _stats(client: Client, uri: str) -> dict[str, int]:
    return client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []})[uri]


def test_an_edit_in_the_last_game_reads_only_that_game(client: Client) -> None:
    text = _simulated("carte-et-plouc", 100).read_text(encoding="utf-8")
    assert len([g for g in parse_text(text)]) == 100
    uri = _uri("hundred.txt")
    client.open(uri, text)
    before = _stats(client, uri)
    assert before["games read"] == 100
    lines = text.rstrip("\n").split("\n")
    lines[-1] += "  ; a comment typed in the last game"
    client.change(uri, "\n".join(lines) + "\n")
    after = _stats(client, uri)
    assert after["games read"] == before["games read"], "no game read whole again"
    assert after["lines read"] - before.get("lines read", 0) <= 2, "only the line changed and the event line before it"
    replayed = after["events replayed"] - before["events replayed"]
    assert 0 < replayed <= len(parse_text(text)[-1].events)  # that game alone was replayed


def test_a_line_added_in_the_first_game_reads_only_that_game(client: Client) -> None:
    """The games after it move down a line: they are numbered anew, not read again, and
    what is said of them names their new lines."""
    text = _simulated("carte-et-plouc", 100).read_text(encoding="utf-8")
    uri = _uri("hundred-moved.txt")
    client.open(uri, text)
    before = _stats(client, uri)
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if line and not line.startswith(("[", ";")))
    lines.insert(at, lines[at].split()[0] + " plays ZZ")
    changed = "\n".join(lines)
    assert _shown(client.change(uri, changed)) == _expected(changed)
    after = _stats(client, uri)
    assert after["games read"] == before["games read"], "no game read whole again"
    assert after["lines read"] - before.get("lines read", 0) <= 2, "only the line added and the one before it"
    assert after["games moved"] - before.get("games moved", 0) == 99
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["range"]["start"]["line"] + 1 for s in symbols][1:] == [g.line for g in parse_text(changed)][1:]
    last = parse_text(changed)[-1]
    line = last.events[len(last.events) // 2].line
    shown = client.at("textDocument/hover", uri, line - 1, 2)["contents"]["value"]
    assert "\n".join(render(state_in_text(changed, line, str(Path("/lsp-test/hundred-moved.txt"))))) in shown


@pytest.mark.parametrize("game", ["carte-et-plouc", "pierre-qui-roule", "flaschenteufel"])
def test_games_moved_down_say_what_check_says(client: Client, game: str) -> None:
    """Every record of a game in one file, a line added at its top: each fault of the games
    moved down is where check puts it, in check's words (which may name lines)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((RECORDS / game).glob("*.txt")))
    uri = _uri(f"moved-{game}.txt")
    client.open(uri, text)
    changed = "; a line added at the top\n" + text
    said = {(d["range"]["start"]["line"] + 1, d.get("code"), d["message"].split("\n« ")[0])
            for d in client.change(uri, changed) if d.get("code")}
    checked = {(v.line, v.code, v.message) for _, report in check_games(parse_text(changed))
               for v in report.violations}
    assert said == checked
    assert _stats(client, uri)["games moved"] > 10


def test_a_long_game_is_replayed_from_the_last_copy_before_the_change(client: Client) -> None:
    games = [g for g in parse_text(_simulated("bataille-corse", 30, 3).read_text(encoding="utf-8"))]
    longest = max(games, key=lambda g: len(g.events))
    assert len(longest.events) > 300
    text = longest.text + "".join(b.text for b in longest.seen)
    uri = _uri("long.txt")
    client.open(uri, text)
    before = _stats(client, uri)["events replayed"]
    lines = text.rstrip("\n").split("\n")
    lines[-1] += " ; noted"
    changed = "\n".join(lines) + "\n"
    assert _shown(client.change(uri, changed)) == _expected(changed)
    assert _stats(client, uri)["events replayed"] - before <= 100


def test_changes_in_quick_succession_are_ruled_once(client: Client) -> None:
    """Debounced: two changes sent together give one publication, of the last text."""
    uri = _uri("debounce.txt")
    text = '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna plays 7H\n'
    client.open(uri, text)
    for version, card in ((2, "ZZ"), (3, "QQ")):
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": text + f"Ben plays {card}\n"}]})
    (diagnostic,) = [d for d in client.diagnostics(uri) if d["severity"] == 1]
    assert "'QQ'" in diagnostic["message"]
    client.request("workspace/executeCommand", {"command": "referee.stats", "arguments": []})  # later publications land first
    assert not [n for n in client.notes if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri]


# --- Completion ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_completion_offers_the_legal_cards_first(client: Client, game: str) -> None:
    """On an event line, after the player and the verb: the cards legal now for that
    player first (``referee state``'s legal events), then the rest of the deck."""
    text = _simulated(game, 1).read_text(encoding="utf-8")
    uri = _uri(f"complete-{game}.txt")
    client.open(uri, text)
    lines = text.split("\n")
    (record,) = parse_text(text)
    event = next(e for e in record.events[len(record.events) // 2:] if e.verb == "plays" and len(e.cards) == 1)
    state = state_in_text(text, event.line - 1)
    legal = {str(e.cards[0]) for e in state.legal if e.player == event.player and e.verb == "plays" and len(e.cards) == 1}
    prefix = lines[event.line - 1][: lines[event.line - 1].index(" plays ") + 7]
    result = client.at("textDocument/completion", uri, event.line - 1, len(prefix))
    first = {i["label"].split()[0] for i in result["items"] if i["sortText"].startswith("0")}  # AH, of « AH for S »
    assert first - {"??"} == legal  # and a card nobody saw, where the game takes one
    assert str(event.cards[0]) in first  # the card the simulator played was legal
    labels = [i["label"] for i in sorted(result["items"], key=lambda i: i["sortText"])]
    assert set(labels[: len(first)]) == first and len(labels) > len(first)  # then the others
    before_player = prefix.index(event.player)
    players = client.at("textDocument/completion", uri, event.line - 1, before_player)["items"]
    assert event.player in {p["label"] for p in players if p["sortText"].startswith("0")}
    verbs = client.at("textDocument/completion", uri, event.line - 1, before_player + len(event.player) + 1)["items"]
    assert "plays" in {v["label"] for v in verbs if v["sortText"].startswith("0")}


def test_completion_of_a_call_due(client: Client) -> None:
    """After ``says``: the call legal now first (Ana, left with one card, says « carte »)."""
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\nAna plays QH QS QD QC\nAna plays 8C 8S\nAna says \n'
    uri = _uri("call.txt")
    client.open(uri, text)
    items = client.at("textDocument/completion", uri, 6, 9)["items"]
    assert [i["label"] for i in items if i["sortText"].startswith("0")] == ["carte"]


def test_completion_at_the_end_of_the_text(client: Client) -> None:
    """On the line after the last one (the text ends with a line end): what is legal next."""
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\nAna plays QH QS QD QC\nAna plays 8C 8S\n'
    uri = _uri("end.txt")
    client.open(uri, text)
    items = client.at("textDocument/completion", uri, 6, 0)["items"]
    assert [i["label"] for i in items if i["sortText"].startswith("0")] == ["Ana says carte", "Ana"]  # the call due first


def test_completion_in_a_game_added_after_the_last(client: Client) -> None:
    first = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\nAna plays 4S\n'
    uri = _uri("added.txt")
    client.open(uri, first)
    second = '[Game "bataille-corse"]\n[Players "Cy Di"]\n\n'
    client.change(uri, first + second)
    items = client.at("textDocument/completion", uri, 8, 0)["items"]
    assert {i["label"] for i in items if i["kind"] == 6} == {"Cy", "Di"}
    assert "Bataille corse" in client.at("textDocument/hover", uri, 5, 3)["contents"]["value"]  # its first line is its own


def test_completion_of_the_suit_announced(client: Client) -> None:
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\nAna plays AH for \n'
    uri = _uri("suit.txt")
    client.open(uri, text)
    items = client.at("textDocument/completion", uri, 4, 17)["items"]
    offered = legal_events(state_in_text(text.replace(" for \n", "\n"), 4).legal)
    legal = {e.suit for e in offered if e.cards == (AH,)}
    assert {i["label"] for i in items if i["sortText"].startswith("0")} == legal == {"S", "D", "C"}


def test_completion_of_headers(client: Client) -> None:
    uri = _uri("headers.txt")
    text = '[Game "bataille-corse"]\n[Players "Ana Ben"]\n[Pena\n[Slaps "pa\n'
    client.open(uri, text)
    tags = {i["label"] for i in client.at("textDocument/completion", uri, 2, 5)["items"]}
    assert {"Penalty", "Dealer", "Slaps"} <= tags
    values = {i["label"] for i in client.at("textDocument/completion", uri, 3, 10)["items"]}
    assert "pair" in values and "sandwich" in values
    games = {i["label"] for i in client.at("textDocument/completion", uri, 0, 7)["items"]}
    assert set(GAMES) <= games
    match = (RECORDS / "bataille-corse" / "match-hands.txt").read_text(encoding="utf-8")
    uri = _uri("match-headers.txt")
    client.open(uri, match + '\n[Match "\n[Players "Alice \n[Dealer "\n')
    end = match.count("\n")
    assert "Friday" in {i["label"] for i in client.at("textDocument/completion", uri, end + 1, 8)["items"]}
    players = [i["label"] for i in client.at("textDocument/completion", uri, end + 2, 16)["items"]]
    assert players == ["Bob"]  # Alice is written already


# --- Hover ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_hover_shows_the_table_after_the_line(client: Client, game: str) -> None:
    path = _simulated(game, 1)
    text = path.read_text(encoding="utf-8")
    uri = _uri(path)
    client.open(uri, text)
    (record,) = parse_text(text, str(path.resolve()))
    line = record.events[len(record.events) // 2].line
    shown = client.at("textDocument/hover", uri, line - 1, 2)["contents"]["value"]
    state = state_in_text(text, line, str(path.resolve()))
    assert "\n".join(render(state)) in shown


def test_hover_on_a_faulty_line_says_why(client: Client) -> None:
    """Before the table: what ``referee explain FILE:LINE`` says of the line."""
    from referee.games.carte_et_plouc.examples import EXAMPLES

    from referee.cli.explain import explain_place

    path = _simulated("carte-et-plouc", 1).parent / "why.txt"
    path.write_text(EXAMPLES["CP-MISSED-CARTE"], encoding="utf-8")
    client.open(_uri(path), path.read_text(encoding="utf-8"))
    shown = client.at("textDocument/hover", _uri(path), 6, 1)["contents"]["value"]
    assert "\n".join(explain_place(str(path.resolve()), 7)) in shown
    assert shown.index("CP-MISSED-CARTE") < shown.index("Ana: 1 card")


def test_hover_on_a_code_explains_it(client: Client) -> None:
    uri = _uri("code.txt")
    text = '[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n\nAna plays 5H  ; accepted CP-MISSED-CARTE\n'
    client.open(uri, text)
    shown = client.at("textDocument/hover", uri, 3, 30)["contents"]["value"]
    assert "\n".join(render_code(explanation("CP-MISSED-CARTE"))) in shown


# --- Code actions and formatting -----------------------------------------------------------

@pytest.mark.parametrize(("game", "code", "call"), [
    ("carte-et-plouc", "CP-MISSED-CARTE", "Ana says carte"),
    ("carte-et-plouc", "CP-MISSED-PLOUC", "Ana says plouc"),
    ("caroleto", "CA-ROI-UNANNOUNCED", "Ann says roi"),
])
def test_the_missing_call_is_inserted(client: Client, game: str, code: str, call: str) -> None:
    """The one event that takes the fault away, inserted before the line that shows it."""
    from referee.cli.explain import explanation

    text = dict(explanation(code).examples)[game]
    uri = _uri(f"missed-{code}.txt")
    fault = next(d for d in client.open(uri, text) if d.get("code") == code)
    line = fault["range"]["start"]["line"] + 1
    (insert,) = [a for a in _actions(client, uri, line) if a["title"].startswith("Insert")]
    assert insert["title"].endswith(call) and insert["isPreferred"]
    fixed = _apply(text, insert["edit"]["changes"][uri])
    assert fixed.split("\n")[line - 1] == call
    assert code not in {c for _, c in _expected(fixed)}
    assert _shown(client.change(uri, fixed)) == _expected(fixed)


def test_a_fault_is_marked_as_accepted(client: Client) -> None:
    text = (RECORDS / "carte-et-plouc" / "calls.txt").read_text(encoding="utf-8")
    uri = _uri("accept.txt")
    first = min(client.open(uri, text), key=lambda d: d["range"]["start"]["line"])
    line = first["range"]["start"]["line"] + 1
    (accept,) = [a for a in _actions(client, uri, line) if "accepted" in a["title"]]
    marked = _apply(text, accept["edit"]["changes"][uri])
    assert f"; accepted {first['code']}" in marked.split("\n")[line - 1]
    after = client.change(uri, marked)
    assert [d["severity"] for d in after if d["range"]["start"]["line"] == line - 1] == [4]


def _first_fault(game: str) -> tuple[str, int, str]:
    """A record of the game with a fault an event made that the table did not accept."""
    for path in sorted((RECORDS / game).glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        for item, report in check_games(parse_text(text)):
            if isinstance(item, RecordError):
                continue
            events = {e.line for e in item.events}
            for v in report.violations:
                if not v.accepted and v.line in events and v.code.split("-")[0] != "REC":
                    return text, v.line, v.code
    raise AssertionError(f"no fault in records/{game}")


@pytest.mark.parametrize("game", GAMES)
def test_marking_a_fault_accepted_in_each_game(client: Client, game: str) -> None:
    text, line, code = _first_fault(game)
    uri = _uri(f"mark-{game}.txt")
    assert (line, code) in _shown(client.open(uri, text))
    (accept,) = [a for a in _actions(client, uri, line)  # the mark alone, or the mark and what follows
                 if a["title"].endswith(f"{code} as accepted by the table") or f"accepted {code} »: then" in a["title"]]
    marked = _apply(text, accept["edit"]["changes"][uri])
    after = client.change(uri, marked)
    assert [d["severity"] for d in after if d["range"]["start"]["line"] == line - 1 and d.get("code") == code] == [4]
    assert _shown(after) == _expected(marked)


def test_a_header_fault_is_not_offered_a_mark(client: Client) -> None:
    text = (RECORDS / "bataille-corse" / "match-hands.txt").read_text(encoding="utf-8")
    uri = _uri("header-fault.txt")
    faults = client.open(uri, text)
    line = next(d["range"]["start"]["line"] + 1 for d in faults if d.get("code") == "REC-ROUND-ORDER")
    assert not [a for a in _actions(client, uri, line) if "accepted" in a["title"]]


@pytest.mark.parametrize(("line", "wrong", "right"), [
    ("Ana play 7H", "play", "plays"),
    ("Anna plays 7H", "Anna", "Ana"),
    ("ana plays 7H", "ana", "Ana"),
    ("Ana gives ?? to Benn", "Benn", "Ben"),
    ("Ana plays 7HQS", "7HQS", "7H QS"),
    ("Ana plays 7HH", "7HH", "7H"),
])
def test_did_you_mean(client: Client, line: str, wrong: str, right: str) -> None:
    text = f'[Game "bataille-corse"]\n[Players "Ana Ben"]\n\n{line}\n'
    uri = _uri(f"typo-{wrong}.txt")
    assert client.open(uri, text)
    fixes = [a for a in _actions(client, uri, 4) if a["kind"] == "quickfix" and right in a["title"]]
    assert fixes, _actions(client, uri, 4)
    assert _apply(text, fixes[0]["edit"]["changes"][uri]).split("\n")[3] == line.replace(wrong, right)


def test_did_you_mean_glued_french_cards(client: Client) -> None:
    """Cards glued together in a French record are split with the French letters."""
    text = '[Jeu "bataille-corse"]\n[Joueurs "Ana Ben"]\n[Notation "fr"]\n\nAna joue 7CDP\n'
    uri = _uri("typo-fr.txt")
    assert client.open(uri, text)
    fixes = [a for a in _actions(client, uri, 5) if a["kind"] == "quickfix" and "7C DP" in a["title"]]
    assert fixes, _actions(client, uri, 5)
    assert _apply(text, fixes[0]["edit"]["changes"][uri]).split("\n")[4] == "Ana joue 7C DP"


def test_did_you_mean_a_tag(client: Client) -> None:
    text = '[Game "bataille-corse"]\n[Playrs "Ana Ben"]\n\nAna plays 7H\n'
    uri = _uri("tag.txt")
    client.open(uri, text)
    (fix,) = [a for a in _actions(client, uri, 2) if "Players" in a["title"]]
    assert _apply(text, fix["edit"]["changes"][uri]).startswith('[Game "bataille-corse"]\n[Players "Ana Ben"]')


@pytest.mark.parametrize("game", GAMES)
def test_formatting_is_fmt(client: Client, game: str) -> None:
    text = _simulated(game, 2).read_text(encoding="utf-8")
    messy = text.replace(" plays ", "  plays   ").replace('[Players', '[players')
    uri = _uri(f"messy-{game}.txt")
    client.open(uri, messy)
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                       "options": {"tabSize": 4, "insertSpaces": True}})
    assert edits
    assert _apply(messy, edits) == canonical("x.txt", messy.encode("utf-8"))
    actions = [a for a in _actions(client, uri, 1) if a["kind"] == "source"]
    assert actions and _apply(messy, actions[0]["edit"]["changes"][uri]) == canonical("x.txt", messy.encode("utf-8"))


def test_formatting_a_record_that_cannot_be_read_says_why(client: Client) -> None:
    text = '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna  plays 7X\n'
    uri = _uri("unformattable.txt")
    client.open(uri, text)
    assert client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                       "options": {"tabSize": 4, "insertSpaces": True}}) == []
    said = [n for n in client.notes if n.get("method") == "window/showMessage"]
    assert said and "4:" in said[-1]["params"]["message"] and "'7X'" in said[-1]["params"]["message"]


# --- The outline ---------------------------------------------------------------------------

def test_outline_of_games_hands_and_rounds(client: Client) -> None:
    match = (RECORDS / "bataille-corse" / "match-hands.txt").read_text(encoding="utf-8")
    uri = _uri("match.txt")
    client.open(uri, match)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    games = [g for g in parse_text(match) if not isinstance(g, RecordError)]
    assert len(symbols) == len(games)
    assert [s["range"]["start"]["line"] + 1 for s in symbols] == [g.line for g in games]
    assert any("hand 2" in s["name"] for s in symbols)
    rounds = (RECORDS / "caroleto" / "full-game.txt").read_text(encoding="utf-8")
    uri = _uri("rounds.txt")
    client.open(uri, rounds)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    markers = [e.line for g in parse_text(rounds) if not isinstance(g, RecordError) for e in g.events if e.verb == "round"]
    assert markers and [c["range"]["start"]["line"] + 1 for s in symbols for c in s.get("children", [])] == markers


# --- The configuration ---------------------------------------------------------------------

def test_settings_come_from_the_configuration(tmp_path: Path) -> None:
    from referee.games.carte_et_plouc.examples import EXAMPLES

    (tmp_path / ".git").mkdir()
    (tmp_path / "referee.toml").write_text('ignore = ["CP-MISSED-CARTE"]\n[fmt]\nsuits = "symbols"\n', encoding="utf-8")
    record = tmp_path / "game.txt"
    text = EXAMPLES["CP-MISSED-CARTE"]
    record.write_text(text, encoding="utf-8")
    client = Client(cwd=tmp_path)
    try:
        client.start()
        assert client.open(record.as_uri(), text) == []
        edits = client.request("textDocument/formatting", {"textDocument": {"uri": record.as_uri()},
                                                           "options": {"tabSize": 4, "insertSpaces": True}})
        assert "Q♥" in _apply(text, edits)
        (tmp_path / "referee.toml").write_text('select = ["CP"]\n', encoding="utf-8")  # read again when reopened
        client.notify("textDocument/didClose", {"textDocument": {"uri": record.as_uri()}})
        assert client.diagnostics(record.as_uri()) == []
        assert [d["code"] for d in client.open(record.as_uri(), text)] == ["CP-MISSED-CARTE"]
    finally:
        assert b"Traceback" not in client.stop()


def test_the_editor_language_or_the_configuration_language(tmp_path: Path) -> None:
    """French when the editor's interface is French (``locale``), or when the
    configuration says ``lang = "fr"``; the configuration wins."""
    from referee.games.carte_et_plouc.examples import EXAMPLES

    text = EXAMPLES["CP-MISSED-CARTE"]
    record = tmp_path / "game.txt"
    (tmp_path / ".git").mkdir()
    for locale, lang, french in (("fr-FR", None, True), (None, "fr", True), ("fr", "en", False), (None, None, False)):
        (tmp_path / "referee.toml").write_text(f'lang = "{lang}"\n' if lang else "", encoding="utf-8")
        client = Client(cwd=tmp_path)
        try:
            client.start(locale)
            (fault,) = client.open(record.as_uri(), text)
            hover = client.at("textDocument/hover", record.as_uri(), 6, 1)["contents"]["value"]
            detail = client.at("textDocument/completion", record.as_uri(), 7, 0)["items"][0].get("detail")
        finally:
            assert b"Traceback" not in client.stop()
        from referee.messages import use

        use("fr" if french else "en")
        try:
            (message,) = [v.message for _, report in check_games(parse_text(text)) for v in report.violations]
            table = "\n".join(render(state_in_text(text, 7, str(record))))
        finally:
            use("en", explicit=False)
        assert fault["message"].split("\n")[0] == message
        assert table in hover
        assert (detail == "jouable maintenant") == french


# --- Hostile records -----------------------------------------------------------------------

HOSTILE = {
    "huge line": '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna plays ' + "7H " * 300_000 + "\n",
    "huge header": '[Game "' + "x" * 1_000_000 + '"]\n',
    "control characters": '[Game "bataille-corse"]\n[Players "Ana\x1b[31m Ben"]\n\nAna\x00 plays 7H\x0c\n\u2028Ben plays\x85 8H\r\rAna slaps\n',
    "binary junk": bytes(range(256)).decode("latin-1") * 40,
    "lone surrogate": '[Game "bataille-corse"]\n[Players "Ana Ben"]\n\nAna plays \ud800\n',
    "many games": '[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays 7H\n' * 3000,
    "deep brackets": "[" * 100_000 + "\n" + ";" * 100_000,
    "long runs": "".join(f'[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays 7H{run * 3000}x\n'
                         for run in (" ", "?", "7", "♥", '"', "\\")),
    "head past its limit": "; a comment\n" * 50_000 + '[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays 7H\n',
    "blank lines": "\n" * 200_000 + '[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays 7H\n',
    **{f"regression {p.stem}": p.read_bytes().decode("latin-1") for p in sorted((RECORDS / "regressions").glob("*.unreadable"))},
}


@pytest.fixture(scope="module")
def hostile_client():
    """One server takes every hostile record in turn (a server's start costs more than most
    of them): each must leave it answering, with no traceback, for the next."""
    client = Client()
    client.start()
    yield client
    stderr = client.stop()
    assert b"Traceback" not in stderr, stderr.decode("utf-8", "replace")[-3000:]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_records_do_not_crash_the_server(hostile_client: Client, name: str) -> None:
    client = hostile_client
    text = HOSTILE[name]
    uri = _uri(f"hostile-{name.replace(' ', '-')}.txt")
    assert isinstance(client.open(uri, text), list)
    lines = text.count("\n")
    for line in (0, 1, 3, lines):
        for method in ("textDocument/hover", "textDocument/completion"):
            client.at(method, uri, line, 5)
        _actions(client, uri, line + 1)
    client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}})
    client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert isinstance(client.change(uri, text[: len(text) // 2]), list)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []  # closed: its faults cleared, and the server still answers
    assert b"Traceback" not in client.stderr, client.stderr.decode("utf-8", "replace")[-3000:]


# --- Packaging -----------------------------------------------------------------------------

def test_the_cli_does_not_import_the_server() -> None:
    """pygls and lsprotocol load only for ``referee lsp``: ``check`` starts no slower."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import referee.cli"], capture_output=True,
                         text=True, cwd=ROOT).stderr
    assert "referee.cli" in out
    assert not [line for line in out.splitlines() if any(n in line for n in ("pygls", "lsprotocol", "referee.lsp"))]


def test_without_the_extra_the_command_says_what_to_install() -> None:
    code = "import sys; sys.modules['pygls'] = None\nfrom referee.cli import main\nmain(['lsp'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "pip install '.[lsp]' in referee's folder" in done.stderr and "Traceback" not in done.stderr


def test_the_grammar_is_valid_and_colours_sample_lines() -> None:
    """The TextMate grammar of docs/editors.md: JSON, its patterns compile, and sample
    lines get the scopes an editor colours."""
    import re

    grammar = json.loads((ROOT / "editors" / "referee.tmLanguage.json").read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.referee"
    rules = [(p["name"], re.compile(p["match"])) for p in grammar["patterns"] if "match" in p]
    samples = {
        '[Game "bataille-corse"]': "meta.header.referee",
        "Ana plays 7H QS 10♥  ; accepted BC-FALSE-SLAP": "meta.event.referee",
        "-- round 2": "markup.heading.round.referee",
        "; a comment": "comment.line.semicolon.referee",
        "12. 09:04:12 Ben slaps": "meta.event.referee",
    }
    for line, scope in samples.items():
        hit = next((name for name, pattern in rules if pattern.match(line)), None)
        assert hit == scope, (line, hit)
    event = next(p for p in grammar["patterns"] if p["name"] == "meta.event.referee")
    found = re.match(event["match"], "Ana plays 7H QS  ; accepted BC-FALSE-SLAP")
    names = {event["captures"][str(i)]["name"]: found.group(i) for i in range(1, len(found.groups()) + 1)
             if found.group(i) is not None and str(i) in event["captures"]}
    assert names["variable.other.player.referee"] == "Ana"
    assert names["keyword.other.verb.referee"] == "plays"
    assert names["comment.line.semicolon.referee"].startswith("; accepted")
    from referee.notation import VERBS

    assert re.search(r"\((\w+(?:\|\w+)+)\)", event["match"]).group(1).split("|") == list(VERBS)
