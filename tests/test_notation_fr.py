"""French notation ([Notation "fr"]): every record of records/, translated into French
by a function of this file (its own tables, not referee's), gets the same verdicts as
the English one and exports to the same JSON but for the Notation header; the French
words, cards and drinks read as docs/notation.md says; a French word in an English
record, and a name that differs only by case or accents, get their hint."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from referee.engine import check_games
from referee.export import record_to_json
from referee.notation import RecordError, parse_text, read_games

from .conftest import RECORDS
from .expectations import check_expectations

GOOD = sorted(p for p in RECORDS.rglob("*.txt") if p.parent.name != "bad" and not p.name.startswith("fr-"))
BAD = sorted((RECORDS / "bad").glob("*.txt"))

VERBS = {
    "holds": "tient", "plays": "joue", "draws": "pioche", "slaps": "gifle", "collects": "ramasse", "burns": "glisse",
    "gives": "donne", "takes": "prend", "discards": "défausse", "swaps": "échange", "passes": "passe", "says": "dit",
    "swears": "jure", "drinks": "boit", "beats": "bat", "refuses": "refuse", "votes": "vote", "bids": "mise",
    "catches": "attrape", "accuses": "accuse", "scores": "marque",
}
WORDS = {"on": "sur", "to": "à", "from": "à", "with": "avec", "for": "pour"}
DRINKS = {"half": "la moitié", "glass": "un verre", "up": "son verre", "central": "le verre au centre"}
TAGS = {"game": "Jeu", "players": "Joueurs", "dealer": "Donneur", "first": "Premier", "result": "Résultat",
        "match": "Partie", "round": "Manche", "target": "Objectif", "hands": "Donnes", "totals": "Totaux",
        "place": "Lieu", "event": "Événement", "starter": "Retournée", "stock": "Talon"}
SUITS = {"S": "P", "H": "C", "D": "K", "C": "T"}
RANKS = {"J": "V", "Q": "D", "K": "R"}
CARD = re.compile(r"(10|[2-9]|[1AJQKVDRC])([SHDC])", re.IGNORECASE)
SYMBOL = re.compile(r"([♠♥♦♣♤♡♢♧]\ufe0f?)?([JQK])([♠♥♦♣♤♡♢♧]\ufe0f?)?", re.IGNORECASE)
HEADER = re.compile(r'(\s*\[\s*)([^\s"]+)(\s*".*)')


def french_card(word: str) -> str:
    """A card in French letters (7H is 7C, QS is DP, CD is CK); anything else as it is."""
    match = CARD.fullmatch(word)
    if match is None:
        symbol = SYMBOL.fullmatch(word)
        if symbol is not None and (symbol.group(1) or symbol.group(3)):
            return (symbol.group(1) or "") + RANKS[symbol.group(2).upper()] + (symbol.group(3) or "")
        return word
    rank = match.group(1).upper()
    return RANKS.get(rank, rank) + SUITS[match.group(2).upper()]


def french_event(code: str) -> str:
    """An event line (without its comment) in French notation, its first column kept."""
    words = code.split()
    at = 0
    while at < len(words) and (re.fullmatch(r"\d+\.", words[at]) or re.fullmatch(r"\d+:\d+(:\d+)?", words[at])):
        at += 1
    if at + 1 >= len(words) or words[at + 1] not in VERBS:
        return code
    verb = words[at + 1]
    out = words[:at + 1] + [VERBS[verb]]
    rest = words[at + 2:]
    for n, word in enumerate(rest):
        before = rest[n - 1] if n else ""
        if verb == "drinks":
            out.append(DRINKS.get(word, f"{word} gorgée{'s' if word != '1' else ''}" if word.isdigit() else word))
        elif verb in ("says", "votes", "scores", "beats", "catches", "accuses") or before in WORDS and before != "for":
            out.append(word)
        elif word in WORDS and n + 1 < len(rest):
            out.append(WORDS[word])
        elif before == "for":
            out.append(SUITS.get(word.upper(), word))
        else:
            out.append(french_card(word))
    indent = code[:len(code) - len(code.lstrip())]
    return indent + " ".join(out) + (" " if code.endswith(" ") else "")


def to_french(text: str) -> tuple[str, list[int]]:
    """A record file in French notation, and where each of its games' [Notation "fr"]
    line went (a line of the English file after which it stands: lines after it move
    down one)."""
    out: list[str] = []
    added: list[int] = []
    lines = text.split("\n")
    in_head = False
    for number, line in enumerate(lines, 1):
        code, cut, comment = line.partition(";")
        header = HEADER.match(code)
        if header is not None:
            tag = header.group(2)
            if tag.lower() in ("starter", "stock"):
                value = re.sub(r'"(.*)"', lambda m: '"' + " ".join(map(french_card, m.group(1).split())) + '"', header.group(3))
                code = header.group(1) + tag + value
            code = header.group(1) + TAGS.get(tag.lower(), tag) + code[header.end(2):]
            in_head = True
        elif code.strip():
            if in_head:
                out.append('[Notation "fr"]')
                added.append(number - 1)
                in_head = False
            code = re.sub(r"^(\s*--\s*)round\b", r"\1manche", code) if code.strip().startswith("--") else french_event(code)
        out.append(code + cut + comment)
    if in_head:
        out.insert(len(out) - (1 if lines[-1] == "" else 0), '[Notation "fr"]')
        added.append(len(lines))
    return "\n".join(out), added


def english_line(line: int, added: list[int]) -> int:
    """The line of the English file that a line of its French translation stands for."""
    return line - sum(1 for after in added if line > after + added.index(after) + 1)


def verdicts(text: str, added: list[int] = ()) -> list:
    """What a check says of each game: status, violations (code, line, accepted), the
    line of an error; and the result, statistics, drinks and what is left to do."""
    found = []
    for record, report in check_games(read_games("<record>", io.BytesIO(text.encode("utf-8")))):
        error = report.error
        found.append((report.status, sorted((english_line(v.line, list(added)), v.code, v.accepted) for v in report.violations),
                      english_line(error.line, list(added)) if error is not None else None,
                      report.result.order if report.result else None, report.stats, report.tallies, report.todo))
    return found


def neutral_json(text: str, added: list[int] = ()) -> list:
    """Each game's JSON form, without its Notation header, its lines made the English file's."""
    games = []
    for record in read_games("<record>", io.BytesIO(text.encode("utf-8"))):
        if isinstance(record, RecordError):
            games.append(("error", english_line(record.line, list(added))))
            continue
        data = record_to_json(record)
        data["line"] = english_line(data["line"], list(added))
        data["headers"] = [h for h in data["headers"] if h["tag"] != "Notation"]
        for item in [*data["headers"], *data["events"], *data["comments"]]:
            item["line"] = english_line(item["line"], list(added))
        games.append(data)
    return games


@pytest.mark.parametrize("path", GOOD, ids=lambda p: str(p.relative_to(RECORDS)))
def test_every_record_in_french_gets_the_same_verdicts_and_json(path: Path) -> None:
    english = path.read_text(encoding="utf-8-sig")
    french, added = to_french(english)
    assert french != english
    assert verdicts(french, added) == verdicts(english)
    assert neutral_json(french, added) == neutral_json(english)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_a_bad_record_in_french_is_refused_on_the_same_line(path: Path) -> None:
    english = path.read_text(encoding="utf-8", errors="replace")
    french, added = to_french(english)
    assert [v[0] for v in verdicts(french, added)] == [v[0] for v in verdicts(english)]
    assert [v[2] for v in verdicts(french, added)] == [v[2] for v in verdicts(english)]
