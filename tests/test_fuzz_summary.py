"""bench/fuzz.py reads ``referee check``'s summary line through one parser
(``parse_summary``), built from the message catalogue: here a real check's summary is
parsed, so that a change of its wording that the parser does not follow fails here, and
not as false errors in every fuzz run (issue 38: ``--killed`` looked for "in N file(s)")."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main

from .test_formats import FILES

FUZZ = Path(__file__).resolve().parent.parent / "bench" / "fuzz.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("bench_fuzz", FUZZ)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fuzz"] = module
    spec.loader.exec_module(module)
    return module


def test_the_summary_of_a_real_check_is_parsed(fuzz, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in FILES.items():
        Path(name).write_text(text, encoding="utf-8")
    game = json.loads(CliRunner().invoke(main, ["export", "a-good.txt"]).output)["games"][0]
    bad = json.loads(json.dumps(game))
    bad["events"][0]["verb"] = "flies"
    Path("g-json.json").write_text(json.dumps({"file": "x", "games": [bad, game]}), encoding="utf-8")
    Path("h-never.txt").write_text((Path(__file__).parent.parent / "records" / "bataille-corse" / "playout-never-ends.txt")
                                   .read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", "--play-out", ".", "g-json.json", "missing.txt"])
    summary = fuzz.parse_summary(result.output.splitlines()[-1])
    assert summary == {"violations": 2, "faults": 2, "errors": 2, "missing": 1, "in_progress": 3, "never_ends": 1,
                       "valid": 1, "games": 9, "files": 8, "accepted": 1}, result.output.splitlines()[-1]
    one = CliRunner().invoke(main, ["check", "--no-config", "e-finished.txt"]).output.splitlines()[-1]
    assert fuzz.parse_summary(one) == dict.fromkeys(summary, 0) | {"valid": 1}


def test_a_line_that_is_no_summary_is_refused(fuzz) -> None:
    with pytest.raises(ValueError):
        fuzz.parse_summary("2 files checked")


def test_the_killed_worker_oracle_passes_on_a_sound_run(fuzz) -> None:
    """A run whose killed worker is reported as its batch alone is no failure."""
    counts, failures = fuzz.fuzz_killed(1, 5)
    assert counts["killed"] == 1 and failures == []


def test_the_table_page_surface_runs_its_requests(fuzz) -> None:
    """``--serve``: the page, moves, undo and a new game, on a few records."""
    for index in range(3):
        counts, failures = fuzz.fuzz_serve(index, 7)
        assert failures == [] and counts["serve"] == 1 and counts["serve requests"] >= 10, (counts, failures)


def test_a_page_that_fails_is_an_error_of_the_serve_surface(fuzz, monkeypatch) -> None:
    from referee.serve.table import Served

    def broken(self) -> str:
        raise RuntimeError("the page broke")

    monkeypatch.setattr(Served, "text", broken)
    counts, failures = fuzz.fuzz_serve(0, 7)
    assert [f.kind for f in failures] == ["serve"] and failures[0].signature.startswith("RuntimeError at app.py:")


def test_the_language_server_surface_edits_and_asks(fuzz) -> None:
    """``--lsp``: a document opened, edited, asked its diagnostics, completions and hovers."""
    for index in range(4):
        counts, failures = fuzz.fuzz_lsp(index, 7)
        assert failures == [] and counts["lsp"] == 1 and counts["lsp steps"] >= 2, (counts, failures)


def test_a_feature_that_fails_is_an_error_of_the_lsp_surface(fuzz, monkeypatch) -> None:
    from referee.lsp import features

    def broken(*args: object) -> None:
        raise RuntimeError("hover broke")

    monkeypatch.setattr(features, "hover", broken)
    counts, failures = fuzz.fuzz_lsp(0, 7)
    assert [f.kind for f in failures] == ["lsp"] and "RuntimeError" in failures[0].signature


def test_state_the_html_report_and_fmt_run_on_a_share_of_the_number_inputs(fuzz, monkeypatch) -> None:
    ran: list[str] = []

    def run_cli(args, *rest, **named) -> int:
        ran.append(" ".join(args[:3]))
        return 0

    monkeypatch.setattr(fuzz, "run_cli", run_cli)
    for index in range(4):
        assert fuzz.fuzz_numbers(index, 7)[1] == []
    assert {"state -", "state --json -", "check --format html", "fmt --check -"} <= set(ran), ran
