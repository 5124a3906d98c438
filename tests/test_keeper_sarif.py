"""SARIF: the output is valid against the SARIF 2.1.0 schema (tests/data/README.md says
where it comes from); each rule has its title as ``shortDescription``, its help inline
(``help.text`` and ``help.markdown``: the title, the rule quoted, what ``referee explain``
says) and, when the configuration says where the docs are (``docs-url``), an absolute
``helpUri`` to its heading in codes.md; every ``ruleId`` of a result has its rule
(``unreadable`` and ``in-progress`` included)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli.explain import codes_page
from referee.cli import main
from referee.reports.formats import help_uri
from referee.messages import say

from .conftest import RECORDS, ROOT
from .test_formats import check, folder  # noqa: F401 - folder is a fixture

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
CODES_PAGE = ROOT / "docs" / "codes.md"


def valid(out: str) -> dict:
    data = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(data)
    return data


def test_the_schema_catches_a_rule_without_an_id() -> None:
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "referee", "rules": [{"shortDescription": {"text": "x"}}]}}}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(bad)


@pytest.mark.parametrize("args", [(), ("--strict",), ("--quiet",), ("--jobs", "2")])
def test_sarif_is_valid_and_every_result_has_its_rule(folder, args: tuple[str, ...]) -> None:
    code, out = check("--format", "sarif", *args, "records")
    (run,) = valid(out)["runs"]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    used = {r["ruleId"] for r in run["results"]}
    assert used <= set(rules) and "unreadable" in used
    assert ("in-progress" in used) is ("--strict" in args)
    assert rules["unreadable"]["shortDescription"]["text"] == "a line or a game that cannot be read"
    slap = rules["BC-FALSE-SLAP"]
    assert slap["shortDescription"]["text"] == "a slap when the pile shows no pair"
    assert "gifler" in slap["fullDescription"]["text"]
    assert all("helpUri" not in rule for rule in rules.values()), "no docs-url: no address to give"
    for rule in rules.values():
        assert {"text", "markdown"} <= rule["help"].keys(), rule["id"]
        title = rule["shortDescription"]["text"]
        assert title[:1].upper() + title[1:] in rule["help"]["text"] and f"**{title[:1].upper()}" in rule["help"]["markdown"]
    for text in slap["help"].values():
        assert "ne plus pouvoir gifler pendant 30 secondes" in text  # the rule quoted
        assert say("why.BC-FALSE-SLAP") in text and "referee explain BC-FALSE-SLAP" in text
    assert "> « un joueur qui commet une erreur" in slap["help"]["markdown"]
    assert say("help.unreadable") in rules["unreadable"]["help"]["markdown"]


def test_sarif_of_every_shipped_record_is_valid() -> None:
    code, out = check("--format", "sarif", "--strict", str(RECORDS))
    rules = valid(out)["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) > 90
    for rule in rules:
        assert rule["shortDescription"]["text"] == say(f"title.{rule['id']}")


def test_every_help_uri_points_at_a_heading_of_docs_codes_md() -> None:
    headings = {line[4:].lower() for line in CODES_PAGE.read_text(encoding="utf-8").splitlines() if line.startswith("### ")}
    from referee.cli.explain import known_codes

    for code in known_codes():
        path, _, anchor = help_uri(code, "https://example.org/referee/docs/").partition("#")
        assert path == "https://example.org/referee/docs/codes.md" and anchor in headings, code
        assert re.fullmatch(r"[a-z0-9-]+", anchor)


def test_the_configuration_s_docs_url_gives_each_rule_an_absolute_help_uri(folder) -> None:
    Path("referee.toml").write_text('docs-url = "https://example.org/club/referee/docs"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", "sarif", "records"])
    rules = {r["id"]: r for r in valid(result.output)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["BC-FALSE-SLAP"]["helpUri"] == "https://example.org/club/referee/docs/codes.md#bc-false-slap"
    assert "helpUri" not in rules["unreadable"]  # no heading of its own


@pytest.mark.parametrize("url", ["docs/", "/docs/", "example.org/docs/", "file:///srv/docs/", 3])
def test_a_docs_url_that_is_not_an_absolute_web_address_is_refused(folder, url) -> None:
    Path("referee.toml").write_text(f"docs-url = {json.dumps(url)}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", "sarif", "records"])
    assert result.exit_code == 2 and "docs-url" in result.output and "absolute address" in result.output


def test_docs_codes_md_is_up_to_date() -> None:
    assert CODES_PAGE.read_text(encoding="utf-8") == codes_page(), "run python -m referee.cli.explain"
