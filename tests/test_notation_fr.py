"""French notation ([Notation "fr"]): every record of records/, translated into French
by a function of this file (its own tables, not referee's), gets the same verdicts as
the English one and exports to the same JSON but for the Notation header; the French
words, cards and drinks read as docs/notation.md says; a French word in an English
record, and a name that differs only by case or accents, get their hint."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

from referee.engine import check_games
from referee.convert.export import record_to_json
from referee.notation import RecordError, parse_text, read_games

from .conftest import RECORDS
from .expectations import check_expectations

GOOD = sorted(p for p in RECORDS.rglob("*.txt") if p.parent.name != "bad" and not p.name.startswith("fr-"))
BAD = sorted(p for p in (RECORDS / "bad").glob("*.txt") if not p.name.startswith("fr-"))

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


def in_french_letters(sentence: str) -> str:
    """What referee says of an English record, its cards as it says them of a French one."""
    return re.sub(r"\b(?:10|[2-9]|[1AJQKVDRC])[SHDC]\b", lambda m: french_card(m.group()), sentence)


def verdicts(text: str, added: list[int] = ()) -> list:
    """What a check says of each game: status, violations (code, line, accepted), the
    line of an error; and the result, statistics, drinks and what is left to do (of an
    English record, its cards put in French letters, as said of a French one)."""
    found = []
    for record, report in check_games(read_games("<record>", io.BytesIO(text.encode("utf-8")))):
        error = report.error
        found.append((report.status, sorted((english_line(v.line, list(added)), v.code, v.accepted) for v in report.violations),
                      english_line(error.line, list(added)) if error is not None else None,
                      report.result.order if report.result else None, report.stats, report.tallies,
                      report.todo_words() if added else [in_french_letters(t) for t in report.todo_words()]))
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


# --- Simulated records in French ---------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee.engine import check  # noqa: E402
from referee.simulate import marked, reported, rules_class, simulable_games, simulate  # noqa: E402


@pytest.mark.parametrize("game", simulable_games())
def test_french_mistakes_have_full_recall_and_precision(game: str) -> None:
    """``simulate --notation fr --mistakes``: every marked code reported at its line, and
    every reported code marked, as in English; the same game as the English record."""
    cls = rules_class(game)
    want = Counter()
    for seed in range(40):
        players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
        rate = (0.03, 0.1, 0.3)[seed % 3]
        text = simulate(game, players, seed, hidden=seed % 5 == 4, max_events=1500, mistakes=rate, notation="fr")
        assert '[Notation "fr"]' in text
        (record,) = parse_text(text)
        assert not isinstance(record, RecordError), str(record)
        assert marked(record) == reported(check(record)), (game, players, seed)
        want += marked(record)
        english = simulate(game, players, seed, hidden=seed % 5 == 4, max_events=1500, mistakes=rate)
        (same,) = parse_text(english)
        assert [(e.player, e.verb, e.cards, e.target, e.word, e.suit) for e in record.events] == \
               [(e.player, e.verb, e.cards, e.target, e.word, e.suit) for e in same.events]
    assert want, "no mistake was made"


def _french_readings(line: str) -> tuple[bool, bool]:
    from referee._grammar_parser import UnexpectedInput, VisitError
    from referee.notation import _french_parser, _Problem

    parser, _ = _french_parser()
    readings = []
    for start in ("start", "line"):
        try:
            parser.parse(line.rstrip("\n") + "\n", start=start)
            readings.append(True)
        except (VisitError, _Problem):
            readings.append(True)
        except UnexpectedInput:
            readings.append(False)
    return readings[0], readings[1]


FRAGMENTS = ["Léa", "Noé", "joue", "gifle", "tape", "donne", "prend", "dit", "boit", "échange", "sur", "à", "avec",
             "pour", "C", "♣", "trèfle", "--", "manche", "mise", "marque", "attrape", "-5", "son", "verre", "la",
             "moitié", "gorgées", "3", "DP", "10T", "T6", "6T", "dame", "de", "pique", "as", "cœur", "??", "EX",
             "12.", "21:04", "plays", "QS", "[", "]", ";", "; note", "surtout", "\u00a0", " ", ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8), st.lists(st.booleans(), max_size=8))
def test_both_french_readings_agree_on_made_up_lines(pieces: list[str], glued: list[bool]) -> None:
    """The coarse reading (a game) and the line's token by token reading (to explain an
    error) accept the same French lines, and read an event alike."""
    line = "".join(p + ("" if g else " ") for p, g in zip(pieces, glued + [False] * len(pieces)))
    accepted, explained = _french_readings(line)
    assert accepted == explained, line


# --- The tables of docs/notation.md are what referee reads --------------------------------

from .conftest import ROOT  # noqa: E402

NOTATION_DOC = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
FRENCH_PART = NOTATION_DOC[NOTATION_DOC.index("## Records in French notation"):NOTATION_DOC.index("## Private information")]


def _table(title: str) -> list[list[str]]:
    """The rows of the table under a heading of the French part, as lists of cells."""
    part = FRENCH_PART[FRENCH_PART.index(title):]
    rows = []
    for line in part.split("\n")[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]


def _spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _events(text: str, french: bool) -> list[tuple]:
    head = '[Game "caroleto"]\n[Players "Ana Ben"]\n' + ('[Notation "fr"]\n' if french else "")
    (record,) = parse_text(head + text + "\n")
    assert not isinstance(record, RecordError), str(record)
    return [(e.player, e.verb, e.cards, e.target, e.word, e.suit) for e in record.events]


def test_the_documented_verbs_read_as_their_english_events() -> None:
    rows = _table("### Events")
    assert len(rows) >= 25
    for english, french in rows:
        for spelled in _spans(french):
            if spelled.startswith("pour") or spelled.startswith("Ana"):
                line = spelled if spelled.startswith("Ana") else f"Ana joue AK {spelled}"
                want = _spans(english)[0]
                assert _events(line, True) == _events(want, False), (line, want)


def test_the_documented_tags_are_read() -> None:
    from referee.record import Header

    rows = _table("### Headers")
    assert len(rows) >= 17
    for english, french in rows:
        for spelled in _spans(french):
            assert Header(spelled, "", 1, 1).key == _spans(english)[0].lower(), spelled


def test_the_documented_drinks_are_read() -> None:
    rows = _table("### Drinks")
    for french, english, _ in rows:
        want = _events("Ana " + _spans(english)[0], False)
        for spelled in _spans(french):
            line = f"Ana {spelled}" if spelled.startswith(("boit", "finit")) else spelled if spelled.startswith("Ana") else f"Ana boit {spelled}"
            assert _events(line, True) == want, line


@pytest.mark.parametrize(("french", "english"), [
    ("DP", "QS"), ("10T", "10C"), ("AC", "AH"), ("CK", "CD"), ("D♠", "Q♠"), ("♠D", "QS"), ("T6", "T6"), ("6T", "6C"),
    ("dame de pique", "QS"), ("10 de trèfle", "10C"), ("as de coeur", "AH"), ("cavalier de carreau", "CD"),
    ("Dame  de  Pique", "QS"), ("rp 1c", "KS AH"), ("EX ??", "EX ??"),
])
def test_french_cards(french: str, english: str) -> None:
    assert _events(f"Ana joue {french}", True) == _events(f"Ana plays {english}", False)


# --- Errors in player terms ------------------------------------------------------------------

def _error(text: str) -> str:
    (found,) = parse_text(text)
    assert isinstance(found, RecordError), found
    return found.message


def test_a_french_verb_in_an_english_record_says_to_add_the_notation_and_explains_the_letters() -> None:
    message = _error('[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna joue AC\n')
    assert "this looks like a French record: add [Notation \"fr\"]" in message
    assert "C is cœur, not clubs, so AC is the as de cœur there" in message and "AT" in message
    assert "Mind the letters" in _error('[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna tape\n')
    card = _error('[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays DP\n')
    assert "dame de pique" in card and "[Notation \"fr\"]" in card and "QS" in card


def test_an_english_word_in_a_french_record_gives_the_french_one() -> None:
    head = '[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\n'
    assert "write 'joue'" in _error(head + "Ana plays 5C\n")
    assert "the dame de pique is DP" in _error(head + "Ana joue QS\n")
    assert "did you mean 'joue'" in _error(head + "Ana jouer 5C\n")
    assert "pour" in _error(head + "Ana joue AC pour X\n")
    assert "gorgées" in _error('[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\nAna boit beaucoup\n')


# --- Names ---------------------------------------------------------------------------------

def test_a_name_without_its_accent_or_case_gets_a_hint(check_text) -> None:
    report = check_text('[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Léa Noé Max"]\nNoe dit roi\nLéa prend ?? à NOÉ\n')
    hints = [v.message for v in report.violations if v.code == "REC-UNKNOWN-PLAYER"]
    assert len(hints) == 2 and all("did you mean Noé?" in h for h in hints)


@pytest.mark.parametrize("players", ["Noé Noe", "Léa LÉA", "Ana ana", "Élodie Elodie"])
def test_players_whose_names_differ_only_by_case_or_accents_are_refused(check_text, players: str) -> None:
    report = check_text(f'[Game "bataille-corse"]\n[Players "{players}"]\n')
    assert report.status == "error" and "differ only by case or accents" in report.error.message


def test_a_french_verb_is_no_name_in_a_french_record_only(check_text) -> None:
    french = check_text('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Passe"]\n')
    assert french.status == "error" and "cannot be a player's name" in french.error.message
    assert check_text('[Game "bataille-corse"]\n[Players "Ana Passe"]\n').status != "error"


def test_an_unknown_notation_is_refused(check_text) -> None:
    report = check_text('[Game "bataille-corse"]\n[Notation "de"]\n[Players "Ana Ben"]\n')
    assert report.status == "error" and "en (English, the default) or fr" in report.error.message


# --- fmt, export, import ---------------------------------------------------------------------

def test_fmt_keeps_a_french_record_french_and_converts_on_demand() -> None:
    from referee.cli.fmt import Formatter, Style

    text = '[Jeu "carte-et-plouc"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\n[Retournée "5C"]\nAna joue dame de cœur pour ♠\n'
    (record,) = parse_text(text)
    own = Formatter().text([record])
    assert "[Jeu" in own and "[Retournée \"5C\"]" in own and "Ana joue DC pour pique" in own
    english = Formatter(Style(notation="en")).text([record])
    assert "[Game" in english and "[Starter \"5H\"]" in english and "Ana plays QH for S" in english
    assert "Notation" not in english
    (back,) = parse_text(english)
    assert Formatter(Style(notation="fr")).text([back]) == own


def test_fmt_keeps_symbols_and_french_ranks_in_english() -> None:
    from referee.cli.fmt import Formatter

    (record,) = parse_text('[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays R♠\nBen plays 10♥ D♣\n')
    assert "Ana plays R♠" in Formatter().text([record]) and "Ben plays 10♥ D♣" in Formatter().text([record])


def test_import_writes_a_french_record_back_in_french(tmp_path) -> None:
    import json

    from click.testing import CliRunner

    from referee.cli import main

    path = RECORDS / "carte-et-plouc" / "fr-partie.txt"
    exported = CliRunner().invoke(main, ["export", str(path)])
    assert exported.exit_code == 0, exported.output
    data = json.loads(exported.output)
    tags = {h["tag"] for g in data["games"] for h in g["headers"]}
    assert {"Game", "Players", "Starter", "Notation"} <= tags and not tags & {"Jeu", "Joueurs", "Retournée"}
    assert all(e["verb"] in ("plays", "says", "draws", "slaps", "swaps", "swears", "accuses") for g in data["games"] for e in g["events"])
    (tmp_path / "g.json").write_text(exported.output, encoding="utf-8")
    imported = CliRunner().invoke(main, ["import", str(tmp_path / "g.json")])
    assert imported.exit_code == 0 and "Ana joue" in imported.output and "[Retournée \"5C\"]" in imported.output
    again = CliRunner().invoke(main, ["fmt", "-"], input=path.read_text(encoding="utf-8"))
    assert again.output == imported.output


def test_the_cli_converts_and_simulates_in_french() -> None:
    from click.testing import CliRunner

    from referee.cli import main

    runner = CliRunner()
    made = runner.invoke(main, ["simulate", "caroleto", "-n", "3", "--seed", "4", "--notation", "fr"])
    assert made.exit_code == 0 and '[Notation "fr"]' in made.output and "[Joueurs" in made.output
    english = runner.invoke(main, ["fmt", "--notation", "en", "-"], input=made.output)
    assert english.exit_code == 0 and "[Players" in english.output and " plays " in english.output
    assert runner.invoke(main, ["fmt", "--notation", "fr", "-"], input=english.output).output == \
           runner.invoke(main, ["fmt", "-"], input=made.output).output


def test_what_is_said_of_a_french_record_names_its_cards_in_french(check_text) -> None:
    french = check_text('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\nAna joue DP 10T\n')
    assert "Ana turned 10T" in french.violations[0].message
    english = check_text('[Game "bataille-corse"]\n[Players "Ana Ben"]\nAna plays QS 10C\n')
    assert "Ana turned 10C" in english.violations[0].message
    (record,) = parse_text('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\nAna joue DP 10T\n')
    assert record_to_json(record)["events"][0]["cards"] == ["QS", "10C"]


def test_state_and_explain_of_a_french_record_name_its_cards_in_french() -> None:
    """As check does: the text names a French record's cards (and its line) in French;
    state --json keeps the canonical English."""
    import json

    from click.testing import CliRunner

    from referee.cli import main

    path = str(RECORDS / "pierre-qui-roule" / "fr-partie.txt")
    runner = CliRunner()
    text = runner.invoke(main, ["state", path, "--at", "20"]).output
    assert "line 20: Dom ramasse" in text and "Ann: 7 cards: DP VP 10P" in text
    data = json.loads(runner.invoke(main, ["state", "--json", path, "--at", "20"]).output)
    assert data["event"] == "Dom collects" and "QS" in data["table"]["hands"]["Ann"]["known"]
    said = runner.invoke(main, ["explain", f"{path}:18"]).output
    assert "Ben played 7P on 9C, but holds AC RC DC VC" in said


def test_the_french_grammar_gives_each_terminal_its_french_words() -> None:
    """french_grammar (what grammar/generate.py builds the French tables from): each verb's
    terminal reads its French forms, longest first, and nothing else; the words before a
    player, the card letters and the drinks are French; the lexer generated holds them."""
    from referee._grammar_start import FRENCH
    from referee.notation import french_grammar
    from referee.text.french import FRENCH_VERBS

    grammar = french_grammar((Path(__file__).resolve().parent.parent / "grammar" / "record.lark").read_text(encoding="utf-8"))
    terminals = dict(re.findall(r"^([A-Z]+): /\(\?:([^/]*)\)/ _W$", grammar, re.MULTILINE))
    for verb in set(FRENCH_VERBS.values()):
        words = terminals[verb.upper()].split("|")
        assert sorted(words) == sorted(w for w, v in FRENCH_VERBS.items() if v == verb)
        assert [len(w) for w in words] == sorted(map(len, words), reverse=True)
        assert f"(?:{terminals[verb.upper()]})" in FRENCH
    assert terminals["SLAPS"] == "gifle|tape" and terminals["DRINKS"] == "finit|boit"
    assert {name: terminals[name] for name in ("ON", "FOR", "TO", "FROM", "WITH", "ROUND")} == {
        "ON": "sur", "FOR": "pour", "TO": "à", "FROM": "à", "WITH": "avec", "ROUND": "manche"}
    assert "_RANK: /10|[2-9]|[1avdrc]/i" in grammar and "_SUIT: /[pckt]/i | _SYMBOL" in grammar


@pytest.mark.parametrize("missing", ['_SUIT: /[shdc]/i | _SYMBOL', "PLAYS: /plays/ _W"])
def test_the_french_grammar_refuses_a_grammar_without_a_line_it_rewrites(missing: str) -> None:
    from referee.notation import french_grammar

    grammar = (Path(__file__).resolve().parent.parent / "grammar" / "record.lark").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="grammar/record.lark: .*not found"):
        french_grammar(grammar.replace(missing, "X: /x/"))


def test_the_systems_commonest_reasons_are_said_in_the_language_in_use() -> None:
    """ENOENT, EACCES and EPERM, EISDIR, ENOTDIR from the catalogue; any other in the
    system's own words."""
    import errno

    from referee.messages import speaking
    from referee.notation import unreadable_reason

    said = {code: "" for code in (errno.ENOENT, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTDIR, errno.ELOOP)}
    with speaking("fr"):
        said = {code: unreadable_reason(OSError(code, "system words")) for code in said}
    assert said == {errno.ENOENT: "aucun fichier ni dossier de ce nom", errno.EACCES: "permission refusée",
                    errno.EPERM: "permission refusée", errno.EISDIR: "c'est un dossier",
                    errno.ENOTDIR: "un élément du chemin n'est pas un dossier", errno.ELOOP: "system words"}
    assert unreadable_reason(ValueError("plain")) == "plain" and unreadable_reason(ValueError()) == "ValueError"
