"""One writer per notation (referee/spelling.py): every face quotes a record in its own
notation, whatever the language of the messages.

Every face (state, the table page, the HTML report, the editor, export) is run over every
French record of records/ and over the same records converted to English, in English
and in French; every move line a face writes is read back with the record's notation
and compared with the event it stands for (the replay's cards), and no verb of the
other notation appears in a record's moves."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from referee.cards import SPELLINGS, Card, read_card
from referee.engine import check
from referee.convert.formatter import Formatter, Style
from referee.text.french import FRENCH_VERBS
from referee.games.base import legal_events
from referee.messages import say, speaking
from referee.notation import VERBS, parse_text
from referee.record import Event, Record
from referee.spelling import ENGLISH, FRENCH, Spelling, escape_value, spelling_of
from referee.state import render, state_of

from .conftest import RECORDS

FRENCH_RECORDS = sorted(p for p in RECORDS.glob("*/fr-*.txt") if p.parent.name != "bad")
LANGS = ("en", "fr")


def _games(path: Path) -> list[Record]:
    games = [r for r in parse_text(path.read_text(encoding="utf-8"), str(path)) if isinstance(r, Record)]
    assert games, path
    return games


def _read(path: Path, at: int | None = None) -> Record:
    """The game of a file that holds line ``at`` (the first when None)."""
    games = _games(path)
    return [g for g in games if at is None or g.line <= at][-1 if at is not None else 0]


def _english(record: Record) -> Record:
    """The same record converted to English notation, as ``export --to text --notation en`` writes it."""
    (converted,) = parse_text(Formatter(Style(notation="en")).game_text(record), record.path)
    assert isinstance(converted, Record) and not converted.french
    return converted


def _records() -> list[tuple[str, Record]]:
    found = []
    for path in FRENCH_RECORDS:
        for record in _games(path):
            assert record.french, path
            if record.header("Game") is None:  # a later hand of a match: it needs the hands before it
                continue
            found += [(f"{path.parent.name}-{record.line}-fr", record), (f"{path.parent.name}-{record.line}-en", _english(record))]
    return found


RECORDS_BOTH = _records()
IDS = [name for name, _ in RECORDS_BOTH]


def read_back_all(record: Record, lines: list[str]) -> list[Event]:
    """Move lines read as lines of ``record`` (its headers, so its notation and its game), one event each."""
    head = "".join(f'[{h.tag} "{escape_value(h.value)}"]\n' for h in [*record.inherited, *record.headers]
                   if h.key not in ("match", "round", "totals"))
    (game,) = parse_text(head + "".join(line + "\n" for line in lines))
    assert isinstance(game, Record), (lines, game)
    assert len(game.events) == len(lines), lines
    return game.events


def read_back(record: Record, line: str) -> Event:
    return read_back_all(record, [line])[0]


def same(a: Event, b: Event) -> bool:
    return (a.player, a.verb, a.cards, a.suit, a.target, a.word) == (b.player, b.verb, b.cards, b.suit, b.target, b.word)


def verb_of(line: str) -> str:
    """The verb of a move line; a round marker's word (``round``, ``manche``)."""
    words = re.sub(r"^\s*(\d+\.)?\s*(\d+:\d+(:\d+)?)?\s*", "", line).split()
    return words[1] if len(words) > 1 else ""


def own_verbs(written: Spelling) -> set[str]:
    return set(written.verbs.values()) | ({*FRENCH_VERBS} if written.french else set()) | {written.round_word}


def other_verbs(written: Spelling) -> set[str]:
    return (set(VERBS) if written.french else set(FRENCH_VERBS)) - own_verbs(written)


# --- The measured cases ------------------------------------------------------------------------

def test_state_quotes_a_french_line_in_french_letters(capsys) -> None:
    """``state --at 95`` quoted the French line re-read with English letters: VT for VC."""
    from referee.state import run

    assert run(str(RECORDS / "caroleto" / "fr-partie.txt"), 95, False) == 0
    out = capsys.readouterr().out
    assert "  line 95: Ben joue VC sur Cas\n" in out, out


@pytest.mark.parametrize(("notation", "line", "pile"), [
    ("en", "  line 95: Ben plays JH on Cas\n", "4S JH (top)"),
    ("fr", "  line 95: Ben joue VC sur Cas\n", "4P VC (top)"),
])
def test_state_writes_the_notation_its_reader_asks_for(notation: str, line: str, pile: str) -> None:
    """``state --notation en`` on a French record: its line and its cards in English letters
    (the valet de cœur is JH), the same card the replay holds; ``fr`` as the record's own."""
    from click.testing import CliRunner

    from referee.cli import main

    out = CliRunner().invoke(main, ["state", str(RECORDS / "caroleto" / "fr-partie.txt"), "--at", "95",
                                    "--notation", notation]).output
    assert line in out and pile in out, out
    assert read_card(pile.split()[1], french=notation == "fr") == Card(11, "H")


def test_state_of_an_english_record_in_french_notation() -> None:
    from click.testing import CliRunner

    from referee.cli import main

    shown = CliRunner().invoke(main, ["state", str(RECORDS / "caroleto" / "full-game.txt"), "--at", "34",
                                      "--notation", "fr"]).output
    assert "  line 34: Léa joue AK\n" in shown and " plays " not in shown, shown


@pytest.mark.parametrize("lang", LANGS)
def test_legal_moves_of_a_french_record_in_its_words(lang: str) -> None:
    """No ``AC for S`` nor ``T20 on Léa`` in a French record's legal moves: pour, sur, its suit names."""
    record = _read(RECORDS / "carte-et-plouc" / "fr-partie.txt")
    with speaking(lang):
        may = " ".join(state_of(record).may)
    assert "pour pique" in may and " for " not in may and " S," not in may, may
    caroleto = _read(RECORDS / "caroleto" / "fr-partie.txt", 95)
    with speaking(lang):
        said = " ".join(state_of(caroleto, 95).may)
    assert " sur " in said and " on " not in said, said


def test_an_english_report_on_a_french_record_writes_its_cards_in_french_letters() -> None:
    """The HTML report's table after each line names a French record's cards in its letters."""
    from referee.html.game import replayed

    record = _read(RECORDS / "caroleto" / "fr-partie.txt", 95)
    found = replayed(record, record.events, list(record.tag("Joueurs", "").split()))
    todo = [s.get("d", "") for s in found.states]
    assert any("(VC)" in t for t in todo), todo  # Cas's dossier: the valet de cœur, never VT


def test_a_game_started_from_the_french_page_is_written_in_french(tmp_path) -> None:
    from referee.serve.table import Served

    served = Served(str(tmp_path / "new.txt"))
    assert served.start("caroleto", "Ann Ben Cas", "", {}, notation="fr") == []
    text = served.pending or ""  # the headers, held until the first line writes them
    assert text.startswith('[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas"]\n'), text
    (record,) = parse_text(text)
    assert isinstance(record, Record) and record.french


def test_a_french_records_table_page_offers_french_buttons(tmp_path) -> None:
    from referee.serve.table import Served, speaking as page_speaking
    from referee.serve.view import view_of

    path = tmp_path / "fr.txt"
    shutil.copy(RECORDS / "carte-et-plouc" / "fr-partie.txt", path)
    served = Served(str(path))
    with page_speaking("en"):
        view = view_of(served.session())
    lines = [m.line for _, groups, _ in view.legal for g in groups for m in g.moves]
    assert "Ana joue AT pour pique" in lines, lines
    assert not any(" plays " in line or " for " in line for line in lines), lines
    assert served.play("Ana joue 5P").kind == "written"  # the button's line is one the record reads


# --- Every face, every French record and its English copy, in both languages --------------------

def _state_quotes_and_legal_moves_read_back(name: str, record: Record, lang: str) -> None:
    written = spelling_of(record)
    lines = sorted({e.line for e in record.events})
    sample = [lines[0], lines[len(lines) // 2], lines[-1]]
    with speaking(lang):
        for at in sample:
            state = state_of(record, at)
            event = next(e for e in record.events if e.line == at)
            after = say("state.after", at=at)
            quoted = next(line for line in render(state, 1000) if line.strip().startswith(after)).split(": ", 1)[1]
            assert same(read_back(record, quoted), event), (at, quoted)
            assert verb_of(quoted) not in other_verbs(written) or event.verb == "round"
            legal = legal_events(state.legal)
            moves = written.moves(legal)
            for line, back, event in zip(moves, read_back_all(record, moves) if moves else [], legal):
                assert same(back, event), line
                assert verb_of(line) not in other_verbs(written), line
            may = " ".join(state.may)
            if written.french:  # no English word before a player or a suit announced
                named = "|".join(map(re.escape, state.players))
                assert not re.search(rf" (?:(?:on|to|from|with) (?:{named})|for (?:[SHDC]|pique|cœur|carreau|trèfle))\b", may), may


def _the_table_page_writes_lines_the_record_reads(tmp_path: Path, name: str, record: Record, lang: str) -> None:
    from referee.serve.table import Served, speaking as page_speaking
    from referee.serve.view import view_of

    path = tmp_path / f"record-{lang}.txt"
    path.write_text(Formatter().game_text(record), encoding="utf-8")  # in its own notation
    served = Served(str(path))
    with page_speaking(lang):
        view = view_of(served.session())
    state = served.session().state
    assert state is not None
    legal = legal_events(state.legal)
    written = spelling_of(record)
    lines = [m.line for _, groups, _ in view.legal for g in groups for m in g.moves] + view.words["legal"]
    lines += [view.words["hint"][0]] if legal else []
    for line, back in zip(lines, read_back_all(record, lines) if lines else []):
        assert any(same(back, e) for e in legal), line
        assert verb_of(line) in own_verbs(written), line
    if state.event is not None:
        assert same(read_back(record, view.last), state.event), view.last
    assert set(view.words["verbs"]) <= own_verbs(written)
    for card in view.words["cards"]:
        assert written.read(card) or _number(card), card


def _the_html_timeline_writes_the_records_lines(name: str, record: Record, lang: str) -> None:
    from referee.html.game import light_html, whole_html

    written = spelling_of(record)
    report = check(record)
    with speaking(lang):
        body, _ = whole_html("g", report, record, record.events, record.comments, lang, 0)
        _, data = light_html("g", report, record.events, record.comments, 0, written)
    texts = re.findall(r'<li class="event[^"]*"[^>]*><span class="ln">(\d+)</span> <span class="text">([^<]*)</span>', str(body))
    assert texts
    for number, text in texts:
        event = next(e for e in record.events if e.line == int(number))
        if event.verb != "round":
            assert text.startswith(f"{event.player} {written.verb(event.verb)}"), text
    drawn = set(re.findall(r'href="#card-([^"]+)"', str(body)))
    named = {ENGLISH.card(c) if c.suit != "N" else f"N{c.rank}" for e in record.events for c in e.cards if c.seen}
    assert named <= drawn, named - drawn  # every card seen is drawn face up, whatever the notation
    verbs = re.search(r'"v": ?\[([^\]]*)\]', str(data))
    assert verbs is not None
    assert {v.strip(' "') for v in verbs.group(1).split(",")} - {"round"} <= own_verbs(written)


def _the_editor_offers_the_records_words(name: str, record: Record, lang: str) -> None:
    from referee.lsp.features import complete
    from referee.lsp.model import Document

    written = spelling_of(record)
    text = Formatter().game_text(record)
    document = Document("record.txt")
    with speaking(lang):
        document.update(text)
        rules = document.rules_before(len(document.lines) + 1)
        assert rules is not None
        legal = legal_events(rules.legal()) if not rules.result().finished else []
        player = record.events[-1].player or next(iter(rules.players))
        document.update(text + f"{player} \n")
        at = len(document.lines)
        verbs = [i.label for i in complete(document, at, len(player) + 2).items]
        assert verbs and set(verbs) <= own_verbs(written), verbs
        plays = [e for e in legal if e.verb == "plays" and e.player == player and e.cards]
        if not plays:
            return
        verb = written.verb("plays")
        document.update(text + f"{player} {verb} \n")
        items = complete(document, at, len(player) + len(verb) + 3).items
    offered = [written.read(i.label) or _number(i.label) for i in items]
    assert all(card is not None for card in offered), [i.label for i in items]
    first = {written.read(i.label) or _number(i.label) for i in items if i.first}
    assert first == {e.cards[0] for e in plays}


def _number(label: str) -> Card | None:
    from referee.cards import NUMBERED

    return Card(int(label), NUMBERED) if label.isdigit() else None


@pytest.mark.parametrize(("name", "record"), RECORDS_BOTH, ids=IDS)
def test_every_event_written_reads_back(name: str, record: Record) -> None:
    """The writer of either notation writes every event so that the record reads it back,
    in its own notation and converted to the other (export)."""
    for written in (ENGLISH, FRENCH):
        head = [h for h in record.headers if h.key != "notation"]
        headers = "".join(f'[{h.tag} "{escape_value(h.value)}"]\n' for h in head) + (
            '[Notation "fr"]\n' if written.french else "")
        text = headers + "".join(written.move(e, comment=False) + "\n" for e in record.events)
        (again,) = parse_text(text)
        assert isinstance(again, Record), again
        assert [(e.verb, e.cards, e.suit, e.target) for e in again.events] == \
            [(e.verb, e.cards, e.suit, e.target) for e in record.events]


def test_a_line_keeps_its_own_spelling_where_it_reads_back() -> None:
    """A card written ``dame de pique`` or ``10♥`` is quoted as written; one that another
    notation reads otherwise is written from the card (VC is VC in French, JH in English)."""
    record = _read(RECORDS / "caroleto" / "fr-partie.txt", 95)
    event = next(e for e in record.events if e.line == 95)
    assert FRENCH.move(event) == "Ben joue VC sur Cas"
    assert ENGLISH.move(event) == "Ben plays JH on Cas"
    (bc,) = parse_text('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "A B"]\nA joue dame de cœur\nB joue 10♥\n')
    assert isinstance(bc, Record)
    assert [FRENCH.move(e) for e in bc.events] == ["A joue dame de cœur", "B joue 10♥"]
    assert [ENGLISH.move(e) for e in bc.events] == ["A plays QH", "B plays 10♥"]
    assert SPELLINGS["QH"] == FRENCH.read("DC")


@pytest.mark.parametrize(("name", "record"), RECORDS_BOTH, ids=IDS)
def test_state_quotes_and_legal_moves_read_back(name: str, record: Record) -> None:
    for lang in LANGS:
        _state_quotes_and_legal_moves_read_back(name, record, lang)


@pytest.mark.parametrize(("name", "record"), RECORDS_BOTH, ids=IDS)
def test_the_table_page_writes_lines_the_record_reads(tmp_path, name: str, record: Record) -> None:
    for lang in LANGS:
        _the_table_page_writes_lines_the_record_reads(tmp_path, name, record, lang)


@pytest.mark.parametrize(("name", "record"), RECORDS_BOTH, ids=IDS)
def test_the_html_timeline_writes_the_records_lines(name: str, record: Record) -> None:
    for lang in LANGS:
        _the_html_timeline_writes_the_records_lines(name, record, lang)


@pytest.mark.parametrize(("name", "record"), RECORDS_BOTH, ids=IDS)
def test_the_editor_offers_the_records_words(name: str, record: Record) -> None:
    for lang in LANGS:
        _the_editor_offers_the_records_words(name, record, lang)


def test_play_on_a_french_record_speaks_its_notation(tmp_path: Path) -> None:
    """``play``'s completion offers a French record's verbs and cards, and a line typed
    with its French verb alone is the next player's."""
    from click.testing import CliRunner

    from referee.cli import main
    from referee.live import Session, vocabulary
    from referee.files.record_file import RecordFile

    path = tmp_path / "fr.txt"
    path.write_text('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\n\nAna joue 7C\n', encoding="utf-8")
    with RecordFile.open(str(path)) as opened:
        session = Session(str(path), opened)
        session.load()
        words = vocabulary(session)
        assert "joue" in words.verbs and "plays" not in words.verbs
        assert "DP" in words.cards and "QS" not in words.cards
        assert words.next(["Ben", "donne", "DP"])[-3:] == ["à", "sur", "pour"]
        assert session.complete("joue 5P") == "Ben joue 5P"
    result = CliRunner().invoke(main, ["play", "--no-config", str(path)], input="joue 5P\n")
    assert "Traceback" not in result.output
    assert path.read_text(encoding="utf-8").endswith("Ana joue 7C\nBen joue 5P\n"), result.output


def test_the_editor_completes_a_french_records_headers_in_french() -> None:
    from referee.lsp.features import complete
    from referee.lsp.model import Document

    text = '[Jeu "carte-et-plouc"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\n[Donneur "\n'
    document = Document("fr.txt")
    document.update(text)
    assert [i.label for i in complete(document, 4, 11).items] == ["Ana", "Ben"]  # [Donneur] is [Dealer]
    document.update(text.replace('[Donneur "\n', "[Do\n"))
    tags = [i.label for i in complete(document, 4, 4).items]
    assert "Donneur" in tags and "Joueurs" in tags and "Dealer" not in tags
