"""Said late, for the reader (issue 32): a violation carries its sentence's key and typed
fields and is worded only when shown, in the reader's language and its record's notation;
one replay serves readers of every language."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from referee.cli import main as cli_main
from referee.engine import GameReport, check_games
from referee.convert.importer import read_any
from referee.messages import Said, speaking

from .conftest import RECORDS, ROOT

FOLDERS = sorted(p.name for p in RECORDS.iterdir() if p.is_dir() and p.name != "bad")
"""Every folder of records/ but bad/ (records that cannot be read: no violation to word)."""


def _reports(path: Path) -> list[GameReport]:
    return [report for _, report in check_games(read_any(str(path)))]


@pytest.mark.parametrize("folder", FOLDERS)
def test_one_replay_is_worded_for_a_reader_of_either_language(folder: str) -> None:
    """Every violation of every record, replayed once in English and worded in French,
    reads as the same record replayed in French (and the other way round): no field of a
    violation was worded during the replay."""
    compared = 0
    for path in sorted((RECORDS / folder).glob("*.txt")):
        with speaking("en"):
            english = _reports(path)
        with speaking("fr"):
            french = _reports(path)
        for en_report, fr_report in zip(english, french, strict=True):
            for once, again in zip(en_report.violations, fr_report.violations, strict=True):
                for lang in ("fr", "en"):
                    with speaking(lang):
                        assert once.message == again.message, (path.name, once.line, once.code, lang)
                compared += 1
    assert compared, folder


def test_a_french_records_violation_quotes_its_cards_in_french_letters_under_english_messages() -> None:
    """Worded long after the check, in English, a French record's violation still names its
    cards in French letters (the record's own notation), as a copy sent to another process
    does (``check --jobs``); ``words("en")`` writes them in English letters on demand."""
    path = RECORDS / "pierre-qui-roule" / "fr-partie.txt"
    with speaking("fr"):  # replayed in French: English words must still come out below
        (report, *_) = _reports(path)
    revoke = next(v for v in report.violations if v.code == "TR-REVOKE" and v.line == 18)
    assert revoke.key == "TR-REVOKE" and revoke.notation == "fr"
    assert isinstance(revoke.fields["did"], Said)
    copy = pickle.loads(pickle.dumps(revoke))
    with speaking("en"):
        for violation in (revoke, copy):
            assert violation.message == "Ben played 7P on 9C, but holds AC RC DC VC"  # 7 de pique, as the record writes it
            assert violation.words("en") == "Ben played 7S on 9H, but holds AH KH QH JH"
    with speaking("fr"):
        assert copy.message.startswith("Ben a joué 7P sur 9C")


def test_the_json_report_gives_each_findings_key_and_fields(capsys) -> None:
    """``check --json``: each violation's key and typed fields beside its message, as
    schemas/report.schema.json says (a card as {"card": ...} in canonical letters, a
    sentence within it as {"key", "fields"})."""
    jsonschema = pytest.importorskip("jsonschema")
    path = RECORDS / "pierre-qui-roule" / "fr-partie.txt"
    with pytest.raises(SystemExit):  # exit 1: violations
        cli_main(["--lang", "en", "check", "--no-config", "--json", str(path)])
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8")))
    revoke = next(v for v in data[0]["violations"] if v["code"] == "TR-REVOKE" and v["line"] == 18)
    assert revoke["message"] == "Ben played 7P on 9C, but holds AC RC DC VC"
    assert revoke["key"] == "TR-REVOKE"
    assert revoke["fields"]["held"] == {"cards": ["AH", "KH", "QH", "JH"]}
    assert revoke["fields"]["did"] == {"key": "tricks.did.play", "fields": {"card": {"card": "7S"}, "led": {"card": "9H"}}}
    assert revoke["fields"]["player"] == "Ben"
    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    assert {"key", "fields"} <= set(schema["$defs"]["violation"]["required"])


def test_a_bid_too_low_names_the_card_to_beat_in_the_records_letters() -> None:
    """Caroleto's CA-BID-LOW names the card to beat as a card (it was spelled in English
    letters whatever the record's notation): « 4P is not higher than 9P » in a French record."""
    from referee.engine import check
    from referee.notation import parse_text

    (record,) = parse_text("""[Jeu "caroleto"]
[Notation "fr"]
[Joueurs "Ann Ben Cas Dom"]
Ben dit roi
Ben prend ?? à Ann
Cas prend ?? à Ben
Dom prend ?? à Cas
Ann prend ?? à Dom
Ann joue AP
Ben joue CP
Cas joue CC
Dom joue CK
Ben mise 5P
Cas mise 9P
Dom mise 4P
""")
    with speaking("en"):
        (low,) = [v for v in check(record).violations if v.code == "CA-BID-LOW"]
        assert low.message.startswith("4P is not higher than 9P"), low.message
        assert low.words("en").startswith("4S is not higher than 9S")


MAITRESSE_FR = """[Jeu "carte-et-plouc"]
[Notation "fr"]
[Joueurs "Ana Ben"]
[Variants "maitresse"]
[Retournée "5T"]

Ana joue DT DP DK DC
Ana joue 9C 9T
Ana dit carte
Ben joue 9K
Ana joue 7K
Ana dit plouc
"""
"""records/carte-et-plouc/maitresse.txt's first game in French notation: Ana is left
holding the 7 de carreau (7K), which may not end her plouc."""


def _check_text(text: str) -> GameReport:
    from referee.engine import check
    from referee.notation import parse_text

    (record,) = parse_text(text)
    return check(record)


def test_one_replay_words_its_to_do_lines_and_result_for_each_reader() -> None:
    """A game checked once, in English, is read by a French reader and an English one:
    each gets the to-do lines, the causes of drinks and the result in their own words,
    from the same report (no second replay), and a copy sent to another process too."""
    from referee.reports.report import render

    with speaking("en"):
        (report,) = _reports(RECORDS / "flaschenteufel" / "card-points.txt")[:1]
        (open_game,) = [_check_text(MAITRESSE_FR)]
    copy = pickle.loads(pickle.dumps(report))
    for checked in (report, copy):
        with speaking("fr"):
            assert [s.words().replace("\u00a0", " ") for s in checked.result_said()] == [
                "gagnant : A", "ordre d'arrivée : A, B et C", "points : A 46, B 24, C -9"]
        with speaking("en"):
            assert [s.words() for s in checked.result_said()] == [
                "winner: A", "finishing order: A, B and C", "points: A 46, B 24, C -9"]
    with speaking("fr"):
        assert [t.replace("\u00a0", " ") for t in open_game.todo_words()] == ["Ana ne tient que 7K, qui ne peut pas finir un plouc : Ana ne peut pas jouer, et pioche"]
        text = "\n".join("".join(piece for piece, _ in line) for line in render(open_game))
        assert "maintenant : Ana ne tient que 7K" in text.replace("\u00a0", " ")
    with speaking("en"):
        assert open_game.todo_words() == ["Ana holds only 7K, which may not end a plouc: Ana cannot play, and draws"]
    drinks = [d for _, r in check_games(read_any(str(RECORDS / "caroleto" / "fr-partie.txt"))) for d in r.drinks]
    assert drinks and not any(isinstance(d.cause, str) for d in drinks)  # a sentence, not words
    with speaking("fr"):
        french = [d.cause_words("fr") for d in drinks]
    with speaking("en"):
        english = [d.cause_words("fr") for d in drinks]
    assert french != english and len(french) == len(english)


def test_a_french_records_to_do_lines_name_its_cards_in_french_letters() -> None:
    """The French record's to-do line names the 7 de carreau 7K, as the record writes it,
    whatever the reader's language; ``todo_words("en")`` writes it in English letters, and
    the JSON report gives the card in canonical letters beside the worded line."""
    from referee.reports.report import to_json

    with speaking("fr"):
        report = _check_text(MAITRESSE_FR)
    assert report.notation == "fr"
    with speaking("en"):
        assert "7K" in report.todo_words()[0] and "7D" not in report.todo_words()[0]
        assert report.todo_words("en")[0].startswith("Ana holds only 7D")
        data = to_json(report)
    assert data["todo"] == ["Ana holds only 7K, which may not end a plouc: Ana cannot play, and draws"]
    (sentence,) = data["todo_sentences"]
    assert sentence["key"] == "cp.todo.stuck" and sentence["fields"]["card"] == {"card": "7D"}
    assert sentence["fields"]["other"] == {"key": "cp.todo.draws", "fields": {}}


@pytest.mark.parametrize(("name", "written"), [
    ("result-mismatch.txt", {"REC-RESULT-MISMATCH": '[Result "Bob"]'}),
    ("fr-result-mismatch.txt", {"REC-RESULT-MISMATCH": '[Résultat "Bob"]'}),
    ("match-hands.txt", {"REC-ROUND-ORDER": '[Round "3"]', "REC-TOTALS-MISMATCH": '[Totals "Alice 1, Bob 1"]'}),
    ("fr-match-hands.txt", {"REC-ROUND-ORDER": '[Manche "3"]', "REC-TOTALS-MISMATCH": '[Totaux "Alice 1, Bob 1"]'}),
])
def test_a_header_named_in_a_message_is_written_as_the_records_notation_writes_it(name: str, written: dict[str, str]) -> None:
    """A fault at a header names it by its tag as the record's notation writes it
    (« [Résultat "Bob"] » in a French record), whatever the reader's language; asked in
    English notation, the French record's fault names the English tag."""
    with speaking("fr"):
        reports = _reports(RECORDS / "bataille-corse" / name)
    found = {v.code: v for report in reports for v in report.violations if v.code in written}
    assert found.keys() == written.keys()
    english = {"Résultat": "Result", "Manche": "Round", "Totaux": "Totals"}
    for code, header in written.items():
        for lang in ("en", "fr"):
            with speaking(lang):
                assert found[code].message.startswith(header), (lang, found[code].message)
                tag = header[1:].split(" ")[0]
                assert found[code].words("en").startswith(f"[{english.get(tag, tag)} ")


@pytest.mark.parametrize(("notation", "header"), [("en", '[Starter "ZZ"]'), ("fr", '[Retournée "ZZ"]')])
def test_a_header_that_cannot_set_a_game_up_is_named_in_its_records_notation(notation: str, header: str) -> None:
    """Carte et Plouc's card turned up to start, unreadable: the error names the header as
    the record writes it ([Starter], [Retournée])."""
    from referee.spelling import NOTATIONS

    spelling = NOTATIONS[notation]
    text = spelling.headers([("Game", "carte-et-plouc"), ("Players", "Ana Ben"), ("Starter", "ZZ")])
    with speaking("en"):
        (report,) = [r for _, r in check_games(read_any_text(text))]
    assert report.status == "error" and str(report.error.message).startswith(header), report.error.message


def read_any_text(text: str):
    import io

    from referee.notation import read_games

    return read_games("<record>", io.BytesIO(text.encode("utf-8")))


def test_a_sentence_shown_without_its_fields_still_names_its_header() -> None:
    """``referee explain`` and the SARIF rules show a sentence with its fields left out;
    the header it names stays named (sentences.TAGS), in English as in French."""
    from referee.messages import ENGLISH, shape
    from referee.sentences import TAGS

    assert all("{tag}" in str(ENGLISH[key]) for key in TAGS), TAGS
    with speaking("en"):
        assert shape("REC-RESULT-MISMATCH") == '[Result "…"] disagrees with the replay: …'
    with speaking("fr"):
        assert shape("REC-ROUND-ORDER").startswith('[Round "…"]')
