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
