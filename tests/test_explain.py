"""``referee explain``: every code any game can report has its rule quoted, the convention
referee follows (``why.<CODE>``) and an example record that breaks it; the codes are
also found by scanning the source, so that a code missing from CODES is caught."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import record_rules
from referee.cli import main
from referee.cli.explain import CODE, explanation, known_codes, verdict
from referee.games import find_game, shared_examples
from referee.messages import ENGLISH

from .conftest import ROOT
from .expectations import check_expectations, expectations

LITERAL = re.compile(r"""["']([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)["']""")


def codes_in_source() -> set[str]:
    """Every string literal of the package that reads like a violation code: upper case
    words joined by hyphens, with the prefix of a known code or a message of its own
    (so that 'UTF-16' is not taken for one)."""
    prefixes = {code.split("-")[0] for code in known_codes()}
    return {code for path in (ROOT / "referee").rglob("*.py") for code in LITERAL.findall(path.read_text(encoding="utf-8"))
            if code.split("-")[0] in prefixes or code in ENGLISH}


ALL_CODES = sorted(set(known_codes()) | codes_in_source() | {k for k in ENGLISH if CODE.fullmatch(k)})


def test_codes_are_found() -> None:
    assert {"BC-FALSE-SLAP", "REC-NOT-IN-DECK", "REC-TOTALS-MISMATCH"} <= set(ALL_CODES)


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_code_is_explained(code: str) -> None:
    assert code in known_codes(), f"{code} is used but no game's CODES (nor referee/record_rules.py) has it"
    found = explanation(code)
    assert found is not None and found.rules and all(quoted.strip() for _, quoted in found.rules)
    assert found.why, f"referee/sentences has no why.{code}"
    assert code in ENGLISH, f"referee/sentences has no message for {code}"
    assert found.examples, f"{code} has no example record"


def _last_line(text: str) -> int:
    """The last line of a record that is a header or an event."""
    lines = text.split("\n")
    return max(n for n, line in enumerate(lines, 1) if line.strip() and not line.strip().startswith(";"))


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_example_is_flagged_with_its_code_where_the_rule_is_broken(code: str) -> None:
    """Each example reports its code on its last line; or on a header or a deal line
    (faults dated there, found later); or on an earlier line that its last line proves
    wrong (without the last line, the code is not reported). An example that marks its
    faults (``; expect CODE``) gets exactly those."""
    found = explanation(code)
    assert found is not None
    for game, text in found.examples:
        entry = find_game(game)
        if entry is None or entry.module is None:
            pytest.skip(f"the example of {code} waits for {game} to be refereed")
        if "; expect" in text:
            check_expectations(text)
        reported = {v.line for v in verdict(text) if v.code == code}
        assert reported, f"{code}: the example is not flagged with {code}"
        lines, last = text.split("\n"), _last_line(text)
        dated = {n for n in reported if lines[n - 1].lstrip().startswith("[") or re.match(r"\s*\S+ holds\b", lines[n - 1])}
        proven = code not in {v.code for v in verdict("\n".join(lines[: last - 1]) + "\n")}
        assert last in reported or dated or proven, \
            f"{code}: flagged on line(s) {sorted(reported)}, and its last line neither breaks the rule nor proves it broken"


@pytest.mark.parametrize("code", sorted(shared_examples.EXAMPLES))
def test_the_shared_examples_are_flagged_where_they_say(code: str) -> None:
    """The examples of the engine's codes, shown when a game has none of its own."""
    text = shared_examples.EXAMPLES[code]
    assert code in record_rules.CODES
    check_expectations(text)
    assert any(c == code for game in expectations(text) for _, c in game["codes"])


def test_a_code_missing_from_codes_is_caught(monkeypatch) -> None:
    """The scan finds a code used in the source but mapped by no game."""
    from referee.games.bataille_corse import BatailleCorse

    codes = dict(BatailleCorse.CODES)
    del codes["BC-NOT-WON"]
    monkeypatch.setattr(BatailleCorse, "CODES", codes)
    from referee.games import codes as found_once

    found_once._known.cache_clear()  # the known codes are worked out once
    try:
        assert "BC-NOT-WON" in codes_in_source() and "BC-NOT-WON" not in known_codes()
    finally:
        monkeypatch.undo()
        found_once._known.cache_clear()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_explain_a_code(runner) -> None:
    result = runner.invoke(main, ["explain", "bc-false-slap"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("BC-FALSE-SLAP: … slapped, but …\n")
    assert "rule (Bataille corse): « un joueur qui commet une erreur" in out
    assert "convention: A slap wins the pile when the top of the pile shows" in out
    assert "    Alice slaps              ; expect BC-FALSE-SLAP\n" in out
    assert "referee says: 5:1 BC-FALSE-SLAP Alice slapped" in out
    assert all(len(line) <= 80 for line in out.splitlines() if " " in line.strip())


@pytest.mark.parametrize("code", ["TR-REVOKE", "CP-NOT-IN-HAND"])
def test_a_message_made_mostly_of_fields_is_left_to_the_examples(runner, code: str) -> None:
    """« TR-REVOKE: … …, but holds … » says nothing: the code alone, then each example
    with the message referee gives on it."""
    out = runner.invoke(main, ["explain", code]).output
    assert out.startswith(code + "\n") and "… …" not in out and "referee says: " in out


def test_explain_a_shared_code_quotes_the_notation_and_the_game(runner) -> None:
    out = runner.invoke(main, ["explain", "REC-DUPLICATE-CARD"]).output
    assert "rule (the record's notation): « Each card of the deck is in one place" in out
    assert "rule (Bataille corse): « Un jeu de 52 cartes (sans Joker) »" in out


@pytest.mark.parametrize(("target", "message"), [
    ("BC-FALSE-SLAPS", "unknown code 'BC-FALSE-SLAPS' (did you mean 'BC-FALSE-SLAP'?)"),
    ("slap", "'slap' is neither a code"),
    ("no/such/file.txt:3", "no/such/file.txt: cannot read the file"),
])
def test_what_explain_cannot_explain(runner, target: str, message: str) -> None:
    result = runner.invoke(main, ["explain", target])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


RECORD = '''[Game "bataille-corse"]
[Players "Alice Bob Chloe"]
Alice plays 5H
Bob plays 5C
Alice slaps
Bob slaps
Alice plays KD
Bob plays 3C 4C
Chloe slaps
'''


def test_explain_a_line(runner, tmp_path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(RECORD, encoding="utf-8")
    out = runner.invoke(main, ["explain", f"{path}:5", f"{path}:6", f"{path}:8", f"{path}:9:1", f"{path}:1"]).output
    assert f"{path}:5  Alice slaps\n  ruled: legal: Alice's slap wins: the pile shows 5H 5C, a pair\n  then: Alice turns the next card\n" in out
    flat = " ".join(out.split())  # long lines are wrapped at 80 columns
    assert "ruled: legal: Bob slaps a pile Alice already won by a slap, with no card between: a late hand, not a fault" in flat
    assert "ruled: legal: Bob pays 3C to Alice (2 still owed); Bob pays 4C to Alice (1 still owed)" in flat
    assert "  9:1 BC-FALSE-SLAP: Chloe slapped, but the pile shows no pair (top: KD 3C 4C)\n" in out
    assert "  more: referee explain BC-FALSE-SLAP\n" in out
    assert f"{path}:1  [Game \"bataille-corse\"]\n  ruled: a header; nothing to rule on" in out
    missing = runner.invoke(main, ["explain", f"{path}:40"])
    assert missing.exit_code == 2 and "g.txt:40:1: this game has no line 40" in missing.output


def test_every_report_points_to_explain(runner, tmp_path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(RECORD, encoding="utf-8")
    out = runner.invoke(main, ["check", str(path)]).output
    assert f"  why: referee explain BC-FALSE-SLAP, referee explain {path}:9\n" in out
    clean = Path(tmp_path / "clean.txt")
    clean.write_text(RECORD.replace("Chloe slaps\n", ""), encoding="utf-8")
    assert "referee explain" not in runner.invoke(main, ["check", str(clean)]).output


@pytest.mark.parametrize(("where", "ruling"), [
    ("pierre-qui-roule/notation.txt:13", "Ann leads 7C: the others follow with a club if they can"),
    ("pierre-qui-roule/notation.txt:16", "Dom cannot follow a club: they pick up the 3 cards played and lead the next trick"),
    ("pierre-qui-roule/notation.txt:23", "Cas follows with JD, a diamond; the trick is Ann's: KD is the highest card of the suit led"),
    ("flaschenteufel/notation.txt:14", "B gives a card face down to A, a neighbour"),
    ("flaschenteufel/notation.txt:23", "the trick is B's: 14 is the highest card under the bottle's price, 19"),
])
def test_the_trick_games_rule_in_words(runner, where: str, ruling: str) -> None:
    from .conftest import RECORDS

    out = runner.invoke(main, ["explain", str(RECORDS / where)]).output
    assert ruling in " ".join(out.split()), out


def test_a_game_s_own_convention_for_a_shared_code_is_shown(runner) -> None:
    out = " ".join(runner.invoke(main, ["explain", "REC-RESULT-MISMATCH"]).output.split())
    assert "convention (Caroleto): Caroleto has no winner: a [Result] naming one is flagged." in out


@pytest.mark.parametrize(("where", "ruling"), [
    ("carte-et-plouc/notation.txt:15", "Ben lays 6H on 5H: the same suit; Cas skipped"),
    ("carte-et-plouc/notation.txt:24", "Ana lays 10D 8D on 9D: the same suit; the direction of play turns"),
    ("carte-et-plouc/notation.txt:31", "Cas drew and still cannot lay a card: the turn passes"),
    ("carte-et-plouc/notation.txt:52", "Ana plays again (the carré)"),
    ("caroleto/notation.txt:9", "round 1 begins"),
    ("caroleto/notation.txt:39", "Zoé lays 4S on Noé; the rules give: Zoé 4 gorgées (4S played by Zoé on Noé, sent back by Noé's T7)"),
    ("caroleto/notation.txt:41", "Noé bids T3 in the ace's bidding; the rules give: Noé 4"),
])
def test_carte_et_plouc_and_caroleto_rule_in_words(runner, where: str, ruling: str) -> None:
    from .conftest import RECORDS

    out = runner.invoke(main, ["explain", str(RECORDS / where)]).output
    assert ruling in " ".join(out.split()), out
