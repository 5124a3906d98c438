"""On a phone: on a terminal 40 columns wide, every line of ``check``, ``explain``,
``state``, ``play``, ``games`` and ``fmt`` fits, cut between words (a ``file:line:col`` head, a path, a card
whole); piped output, the machine formats and ``concise`` are not cut. The commands run
in a pseudo-terminal (pexpect), as on a phone's terminal app."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from referee.text.fit import fit, fit_pieces

pexpect = pytest.importorskip("pexpect")

RECORDS = Path(__file__).resolve().parent.parent / "records"
WIDTH = 40
SAMPLES = {  # one report of each game, with violations, rules, drinks, notes and statistics
    "bc.txt": "bataille-corse/several-violations.txt",
    "cp.txt": "carte-et-plouc/zouzou.txt",
    "pq.txt": "pierre-qui-roule/revoke-proven.txt",
    "ft.txt": "flaschenteufel/revoke-proven.txt",
    "ca.txt": "caroleto/drinks.txt",
}
ESCAPE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][A-Z0-9])")


def on_a_phone(tmp_path: Path, *args: str, typed: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """The lines a command prints on a 40-column terminal (escape sequences taken out)."""
    env = dict(os.environ, NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="", LINES="")
    env.pop("COLUMNS"), env.pop("LINES")
    child = pexpect.spawn(sys.executable, ["-m", "referee", *args], env=env, encoding="utf-8", cwd=str(tmp_path),
                          dimensions=(60, WIDTH), timeout=60)
    child.logfile_read = seen = io.StringIO()
    for prompt, line in typed:  # (what is asked, the answer)
        child.expect(prompt)
        child.sendline(line)
    child.read()
    child.close()
    out = seen.getvalue()
    return [ESCAPE.sub("", line).rstrip() for line in out.replace("\r\n", "\n").split("\n")]


@pytest.fixture
def phone(tmp_path: Path) -> Path:
    for name, source in SAMPLES.items():
        shutil.copy(RECORDS / source, tmp_path / name)
    return tmp_path


def too_wide(lines: list[str]) -> list[str]:
    return [line for line in lines if len(line) > WIDTH]


@pytest.mark.parametrize("name", SAMPLES)
def test_every_line_of_a_report_fits_a_phone(phone: Path, name: str) -> None:
    lines = on_a_phone(phone, "check", "--no-config", name)
    assert any(line.startswith(f"{name}:") for line in lines) and "Traceback" not in "\n".join(lines)
    assert not too_wide(lines), too_wide(lines)
    heads = [line for line in lines if re.match(r"\s+\d+:\d+ [A-Z]+-", line)]
    assert heads and all(re.match(r"\s+\d+:\d+ [A-Z]+-[A-Z0-9-]+( \(accepted\))?(\s|$)", h) for h in heads)  # never cut


def test_explain_state_games_and_fmt_fit_a_phone(phone: Path) -> None:
    """(``export``, ``import`` and ``simulate`` print records, which are data: never cut.)"""
    for args in (("explain", "CP-MUST-DRAW"), ("explain", "cp.txt:15"), ("state", "ca.txt", "--at", "40"),
                 ("state", "cp.txt", "--at", "60"), ("games",), ("fmt", "--check", "cp.txt", "bc.txt")):
        lines = on_a_phone(phone, *args)
        assert len([line for line in lines if line]) > 1 and not too_wide(lines), (args, too_wide(lines))


def test_a_session_at_the_table_fits_a_phone(phone: Path) -> None:
    """The flagged line, its rule, the question asked about it, ``legal`` and the report."""
    (phone / "g.txt").write_text('[Game "carte-et-plouc"]\n[Players "Ana Ben"]\n[Starter "4H"]\n\n'
                                 "Ana plays 5H\nBen plays 6H\nAna plays 7H\n", encoding="utf-8")
    lines = on_a_phone(phone, "play", "g.txt", typed=(("Ben>", "Ben plays 3S"), (r"\[n\]", "oui"),
                                                                      ("Ana>", "legal"), ("Ana>", "end")))
    shown = [line for line in lines if not line.startswith(("Ana>", "Ben>"))]  # the line typed, as typed
    assert any("CP-MUST-DRAW" in line for line in shown) and any(line.startswith("g.txt:1") for line in shown)
    assert any(line.startswith("write it?") for line in shown)  # the question, cut between words
    assert not too_wide(shown), too_wide(shown)


def test_piped_machine_and_concise_output_are_not_cut(phone: Path) -> None:
    import subprocess

    piped = subprocess.run([sys.executable, "-m", "referee", "check", "--no-config", "cp.txt"], cwd=phone,
                           capture_output=True, text=True).stdout
    assert too_wide(piped.split("\n"))  # whole lines, for a file or another program
    for fmt in ("concise", "json", "github"):
        lines = on_a_phone(phone, "check", "--no-config", "--format", fmt, "cp.txt")
        assert too_wide(lines), fmt


def test_a_line_is_cut_between_words_and_keeps_its_styles() -> None:
    assert fit("  why: referee explain CP-MISSED-CARTE CP-SANCTION-UNPAID", 30) == [
        "  why: referee explain", "    CP-MISSED-CARTE", "    CP-SANCTION-UNPAID"]
    assert fit("a/very/long/path/that/does/not/fit.txt:12 rest", 20) == ["a/very/long/path/that/does/not/fit.txt:12", "  rest"]
    cut = fit_pieces([("game.txt:3", "bold"), (" carte-et-plouc (Ana and Ben): ", ""), ("2 violations", "red")], 24)
    assert ["".join(t for t, _ in line) for line in cut] == ["game.txt:3", "  carte-et-plouc (Ana", "  and Ben): 2 violations"]
    assert cut[0] == [("game.txt:3", "bold")] and cut[2][-1] == ("2 violations", "red")
