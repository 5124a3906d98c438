"""Hostile input and hostile surroundings (issue 16): the parser cache, control characters,
read errors, interrupts and closed pipes, encodings, time and memory."""

from __future__ import annotations

import os
import pickle
import stat
import sys
import tempfile

import pytest

from referee import notation, parser_cache
from referee.notation import parse_text
from referee.record import Record

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'


# --- D9: the parser cache ---------------------------------------------------------------------

@pytest.fixture
def fresh_parser(tmp_path, monkeypatch):
    """The parser built anew, with the user's cache under tmp_path/cache and the shared
    temporary directory at tmp_path/shared."""
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    notation._parser.cache_clear()
    yield tmp_path
    notation._parser.cache_clear()


def parses() -> bool:
    (record,) = parse_text(GOOD)
    return isinstance(record, Record) and len(record.events) == 3


def test_the_parser_never_unpickles_nor_writes_to_the_shared_temporary_folder(fresh_parser, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the parser cache must never unpickle")

    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    for _ in range(2):  # built, then loaded from the cache
        notation._parser.cache_clear()
        assert parses()
    assert list((fresh_parser / "shared").iterdir()) == []
    folder = fresh_parser / "cache" / "referee"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (saved,) = folder.iterdir()
    assert saved.name.startswith("parser-") and saved.suffix == ".json"
    assert saved.read_bytes().startswith(b'{"key":')


def test_tables_from_the_cache_parse_as_built_ones(fresh_parser):
    built, _ = notation._parser()
    notation._parser.cache_clear()
    loaded, _ = notation._parser()
    assert loaded is not built
    text = GOOD + "Bob plays 10♥ ; c\n12. 21:04 Alice gives QS to Bob\n"
    assert str(loaded.parse(text, start="start")) == str(built.parse(text, start="start"))
    line = "Alice plays 7H on Bob ; c\n"
    assert loaded.parse(line, start="line").pretty() == built.parse(line, start="line").pretty()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_a_folder_others_may_write_is_not_used(fresh_parser):
    folder = fresh_parser / "cache" / "referee"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    planted = folder / "parser-planted.json"
    planted.write_text("{}")
    assert parses()
    assert sorted(p.name for p in folder.iterdir()) == ["parser-planted.json"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
def test_a_link_in_the_cache_is_neither_followed_nor_written_through(fresh_parser):
    assert parses()
    folder = fresh_parser / "cache" / "referee"
    (saved,) = folder.iterdir()
    victim = fresh_parser / "victim.txt"
    victim.write_text("keep me")
    saved.unlink()
    saved.symlink_to(victim)
    notation._parser.cache_clear()
    assert parses()
    assert victim.read_text() == "keep me"
    assert not saved.is_symlink() and saved.read_bytes().startswith(b'{"key":')


def test_damaged_tables_are_rebuilt(fresh_parser):
    assert parses()
    (saved,) = (fresh_parser / "cache" / "referee").iterdir()
    for damage in (b"not json", b'{"key": "other"}', saved.read_bytes()[:-100]):
        saved.write_bytes(damage)
        notation._parser.cache_clear()
        assert parses()


def test_without_a_cache_folder_the_parser_is_built(fresh_parser, monkeypatch):
    monkeypatch.setattr(parser_cache, "cache_folder", lambda: None)
    assert parses()
    assert not (fresh_parser / "cache").exists()


def test_the_cache_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert parser_cache.cache_folder() == os.path.join(str(tmp_path), "referee")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the XDG rules say
    if sys.platform not in ("win32", "darwin"):
        assert parser_cache.cache_folder() == os.path.expanduser("~/.cache/referee")
