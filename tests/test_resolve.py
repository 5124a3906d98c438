"""One configuration (``config.resolve``): every key worked out once for a file, the same
way for every face that reads it: check, fmt, play, serve and the editor."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.config import Config, find, resolve

SLAPS = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice plays 7H\nBob plays 3C\nAlice slaps\nBob plays 4C\nBob slaps\n'
"""Two false slaps and a card out of turn: BC-FALSE-SLAP twice, BC-OUT-OF-TURN once."""
MESSY = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n\nAlice   plays 7h\n'
"""A record fmt would rewrite (its spacing, its card's case)."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()  # the search for a configuration stops here
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "slaps.txt").write_text(SLAPS, encoding="utf-8")
    (tmp_path / "new.txt").write_text(SLAPS, encoding="utf-8")
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "messy.txt").write_text(MESSY, encoding="utf-8")
    (tmp_path / "referee.toml").write_text(
        'lang = "fr"\nignore = ["REC-STALE-ACCEPTED"]\nextend-select = []\nstrict = true\n'
        '[per-file-ignores]\n"old/*" = ["BC-FALSE-SLAP"]\n'
        '[fmt]\nexclude = ["kept"]\nsuits = "symbols"\n'
        '[games.bataille-corse]\nPenalty = "give-1"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- The function -----------------------------------------------------------------------------

def test_each_key_is_resolved_for_a_file(project: Path) -> None:
    config = find(str(project))
    old, new, kept = (resolve(config, str(project / name)) for name in ("old/slaps.txt", "new.txt", "kept/messy.txt"))
    assert old.lang == new.lang == "fr"
    assert old.notation is None and resolve(config, "new.txt", notation="fr").notation == "fr"
    assert not old.chosen("BC-FALSE-SLAP") and new.chosen("BC-FALSE-SLAP")  # per-file-ignores
    assert not new.chosen("REC-STALE-ACCEPTED") and new.chosen("BC-OUT-OF-TURN")  # ignore
    assert kept.fmt_excluded and not kept.excluded and not new.fmt_excluded  # [fmt] exclude
    assert new.suits == "symbols" and resolve(config, "new.txt", suits="ascii").suits == "ascii"
    assert new.strict and not resolve(config, "new.txt", strict=False).strict
    assert new.games == {"bataille-corse": {"Penalty": "give-1"}}
    assert resolve(config, "new.txt", lang="en").lang == "en"  # --lang wins


def test_select_extend_select_and_ignore_given_win_over_the_configuration() -> None:
    config = Config(select=("BC",), extend_select=("REC-STALE-ACCEPTED",), ignore=("BC-NOT-WON",))
    found = resolve(config, "a.txt")
    assert found.chosen("BC-FALSE-SLAP") and found.chosen("REC-STALE-ACCEPTED") and not found.chosen("BC-NOT-WON")
    assert not found.chosen("REC-RESULT-MISMATCH")
    given = resolve(config, "a.txt", select=("REC",), ignore=("REC-RESULT-MISMATCH",), extend_select=("BC-NOT-WON",))
    assert given.chosen("BC-NOT-WON") and not given.chosen("BC-FALSE-SLAP") and not given.chosen("REC-RESULT-MISMATCH")


def test_an_exclude_pattern_leaves_a_file_out_of_fmt_too(tmp_path: Path) -> None:
    config = Config(root=str(tmp_path), exclude=("drafts",))
    found = resolve(config, str(tmp_path / "drafts" / "a.txt"))
    assert found.excluded and found.fmt_excluded
    assert not resolve(config, "-").excluded  # standard input matches no pattern


# --- The editor -------------------------------------------------------------------------------

def _check_errors(path: str) -> int:
    result = CliRunner().invoke(main, ["check", "--format", "concise", path])
    assert "Traceback" not in result.output
    return sum(1 for line in result.output.splitlines() if ": BC-" in line)


def test_the_editor_honours_per_file_ignores_as_check_does(project: Path) -> None:
    from referee.lsp.model import Document

    config = find(str(project))
    for name in ("old/slaps.txt", "new.txt"):
        path = str(project / name)
        document = Document(path, config)
        document.update(SLAPS)
        found = [p.code for p in document.problems() if p.severity == "error"]
        assert len(found) == _check_errors(name), found
        assert ("BC-FALSE-SLAP" in found) == (name == "new.txt"), found


def test_the_editor_does_not_format_a_record_fmt_exclude_protects(project: Path) -> None:
    from referee.lsp.features import format_edits
    from referee.lsp.model import Document

    config = find(str(project))
    kept = Document(str(project / "kept" / "messy.txt"), config)
    kept.update(MESSY)
    assert format_edits(kept) == []
    result = CliRunner().invoke(main, ["fmt", "--check", "--force-exclude", "kept/messy.txt"])
    assert result.exit_code == 0  # fmt leaves it as written too
    other = Document(str(project / "messy.txt"), config)
    other.update(MESSY)
    assert format_edits(other) and "7♥" in format_edits(other)[0].text  # and [fmt] suits


def test_the_editor_speaks_the_configured_language(project: Path) -> None:
    pytest.importorskip("pygls")
    from referee.lsp.server import RefereeServer
    from referee.messages import language

    from referee.lsp.model import Document

    server = RefereeServer()
    config = find(str(project))
    path = str(project / "game.txt")
    server.speak(Document(path, config, server.editor.resolve(config, path)))
    assert language() == "fr"


# --- play and the table page --------------------------------------------------------------------

def test_play_reads_the_configuration_as_check_does(project: Path) -> None:
    """The configured default options and per-file ignores: a false slap in old/ is no
    fault to ask about, and its penalty is the configured one."""
    record = project / "old" / "game.txt"
    record.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(record)], input="Alice plays 7H\nBob slaps\n")
    assert "BC-FALSE-SLAP" not in result.output, result.output
    assert record.read_text(encoding="utf-8").endswith("Bob slaps\n")
    fresh = project / "game.txt"
    fresh.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(fresh)], input="Alice plays 7H\nBob slaps\nn\n")
    assert "BC-FALSE-SLAP" in result.output
    assert "maintenant" in CliRunner().invoke(main, ["play", str(fresh)], input="").output  # lang = "fr"
    assert "maintenant" not in CliRunner().invoke(main, ["play", "--no-config", str(fresh)], input="").output


def test_the_table_page_reads_the_configuration(project: Path) -> None:
    from referee.serve.table import Served

    config = find(str(project))
    record = project / "old" / "page.txt"
    record.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n\n', encoding="utf-8")
    served = Served(str(record), resolve(config, str(record)))
    assert served.play("Alice plays 7H").kind == "written"
    assert served.play("Bob slaps").kind == "written"  # BC-FALSE-SLAP is ignored in old/
    session = served.session()
    assert session.record is not None and any(h.tag == "Penalty" for h in session.record.inherited)
    plain = Served(str(project / "new.txt"))
    assert plain.play("Alice plays 2H").kind == "flagged"  # no configuration: Bob's turn is ruled


@pytest.mark.parametrize("notation", ["en", "fr"])
def test_fmt_resolves_the_notation_asked(project: Path, notation: str) -> None:
    result = CliRunner().invoke(main, ["fmt", "--notation", notation, "-"], input=SLAPS)
    assert ("Alice joue" if notation == "fr" else "Alice plays") in result.output
    assert "7♥" in result.output  # [fmt] suits, resolved for the file
