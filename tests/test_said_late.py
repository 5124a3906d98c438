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
