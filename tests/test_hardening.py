"""Hostile input and hostile surroundings (issue 16): the parser's files, control characters,
read errors, interrupts and closed pipes, encodings, time and memory."""

from __future__ import annotations

import gc
import io
import json
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import tracemalloc

import pytest
from click.testing import CliRunner

from referee import notation
from referee.cli import main
from referee.engine import Found, check, check_games
from referee.notation import MAX_HEAD, MAX_LINE, RecordError, parse_text, read_games
from referee.record import Record
from referee.reports.report import SHOWN_PER_KIND
from referee.text.safe_text import WINDOW, excerpt, is_visible, unsafe, visible, visible_pieces

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'


# --- D9: the parser reads and writes no file ---------------------------------------------------
# Lark's own cache pickled the parser's tables into the shared temporary folder, where a
# planted pickle runs as whoever loads it. The parser is now generated into the package
# (grammar/generate.py), its tables Python code: nothing is cached, unpickled or written.

GOOD_FRENCH = '[Game "bataille-corse"]\n[Notation "fr"]\n[Players "Alice Bob"]\nAlice joue VC\n'


def test_the_parser_reads_and_writes_no_file(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(shared))

    def refuse(*args, **kwargs):
        raise AssertionError("the parser's tables are never unpickled")

    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    notation._parser.cache_clear()
    notation._french_parser.cache_clear()
    try:
        (record,) = parse_text(GOOD)
        (french,) = parse_text(GOOD_FRENCH)
    finally:
        notation._parser.cache_clear()
        notation._french_parser.cache_clear()
    assert isinstance(record, Record) and len(record.events) == 3
    assert isinstance(french, Record) and len(french.events) == 1
    assert list(shared.iterdir()) == [] and not (tmp_path / "cache").exists()


# --- Helpers for the command line ------------------------------------------------------------

def run_cli(*args: str, stdin=None, env: dict | None = None, **options) -> subprocess.CompletedProcess:
    """``referee ARGS`` in a process of its own, its output as bytes."""
    return subprocess.run([sys.executable, "-m", "referee", *args], stdin=stdin, capture_output=True,
                          env={**os.environ, **(env or {})}, check=False, **options)


def write(tmp_path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


def no_traceback(done) -> None:
    output = done.stdout + done.stderr if isinstance(done.stdout, bytes) else (done.output or "").encode()
    assert b"Traceback" not in output and b"Error:" not in output.replace(b"error:", b""), output[-2000:]


# --- D1-D3, memory: never a traceback ---------------------------------------------------------

@pytest.mark.skipif(os.name != "posix", reason="a closed file descriptor")
@pytest.mark.parametrize("command", ["check", "export"])
def test_a_closed_standard_input_cannot_be_read(command):
    done = run_cli(command, "-", preexec_fn=lambda: os.close(0))
    assert done.returncode == 2
    assert b"<stdin>: cannot read the file: the standard input is closed" in done.stdout + done.stderr
    no_traceback(done)


@pytest.mark.skipif(os.name != "posix", reason="a write-only standard input")
def test_a_standard_input_open_for_writing_cannot_be_read(tmp_path):
    with open(tmp_path / "out.txt", "w") as write_only:
        done = run_cli("check", "-", stdin=write_only)
    assert done.returncode == 2 and b"<stdin>: cannot read the file:" in done.stdout
    no_traceback(done)


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux's /proc")
def test_a_device_that_fails_to_read():
    done = run_cli("check", "/proc/self/mem")
    assert done.returncode == 2 and b"/proc/self/mem: cannot read the file: Input/output error" in done.stdout
    no_traceback(done)


class Failing(io.RawIOBase):
    """A stream that gives some good lines, then fails."""

    def __init__(self, good: bytes, error: BaseException):
        self.good, self.error = good, error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.good:
            raise self.error
        size = min(len(buffer), len(self.good))
        buffer[:size], self.good = self.good[:size], self.good[size:]
        return size


def test_a_read_error_after_some_games_keeps_them():
    good = (GOOD * 2000).encode()  # more than the blocks read before the error
    items = list(read_games("f.txt", io.BufferedReader(Failing(good, OSError(5, "Input/output error")))))
    assert len(items) > 1000 and all(isinstance(i, Record) for i in items[:-1])
    assert str(items[-1]) == "f.txt: cannot read the file: Input/output error"


def test_out_of_memory_is_a_sentence(monkeypatch, tmp_path):
    from referee import engine

    def starved(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(engine, "check", starved)
    result = CliRunner().invoke(main, ["check", write(tmp_path, "g.txt", GOOD)])
    assert result.exit_code == 2, result.output
    assert "referee: out of memory" in result.output and not isinstance(result.exception, MemoryError)


# --- D7: Ctrl-C and a closed pipe ----------------------------------------------------------

def test_ctrl_c_exits_130_without_a_traceback():
    result = CliRunner().invoke(main, ["check", "-"], input=io.BufferedReader(Failing(b"", KeyboardInterrupt())))
    assert result.exit_code == 130 and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


_LOST = """
import sys
from referee.cli.running import with_endings

class Finalized:
    def __del__(self):
        raise KeyboardInterrupt  # a Ctrl-C whose KeyboardInterrupt Python raises in a finalizer

def run():
    Finalized()  # let go at once: its finalizer runs, and cannot pass the exception on
    print("checked", flush=True)
    if sys.argv[1] == "long":
        for _ in range(10 ** 9):  # a run that goes on: the interrupt must still stop it
            pass
        print("ran to the end", flush=True)

with_endings(run)
"""


def _as_at_a_terminal() -> None:
    """A child's Ctrl-C as a terminal gives it (SIGINT's default): a test runner started in
    the background may have it ignored, and a Python started with SIGINT ignored keeps it
    ignored and never raises KeyboardInterrupt (a suspect for the two tests below failing
    once in a CI run, 2026-11-29, and passing on the next)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("run", ["short", "long"])
def test_a_ctrl_c_that_lands_in_a_finalizer_is_not_lost(run):
    """Python raises KeyboardInterrupt wherever it next runs Python code after the signal;
    in a finalizer (a generator closed as a game is let go) the exception cannot propagate,
    and the run ended as if never interrupted: exit 0, the race behind the failures of
    test_ctrl_c_in_a_real_run under load. The interrupt is kept: exit 130, quietly, and a
    run that goes on is stopped."""
    done = subprocess.run([sys.executable, "-c", _LOST, run], capture_output=True, timeout=120, check=False,
                          preexec_fn=_as_at_a_terminal)
    assert (done.returncode, done.stdout, done.stderr) == (130, b"checked\n", b"")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT")
def test_ctrl_c_in_a_real_run():
    """Ctrl-C once the run is under way (its first report read: no waiting for a time)."""
    process = subprocess.Popen([sys.executable, "-m", "referee", "check", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                               preexec_fn=_as_at_a_terminal)
    process.stdin.write((GOOD * 1000).encode())  # more than a block: some games are checked before the end
    process.stdin.flush()
    assert process.stdout.readline().startswith(b"<stdin>:1 ")  # reported: it is under way
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and b"Traceback" not in err, err


@pytest.mark.skipif(os.name != "posix", reason="SIGPIPE")
@pytest.mark.parametrize("args", [["check", "{}"], ["check", "--json", "{}"], ["export", "--to", "text", "{}"],
                                  ["simulate", "bataille-corse", "--players", "3", "--count", "1000"]])
def test_a_closed_pipe_ends_quietly_with_141(tmp_path, args):
    path = write(tmp_path, "many.txt", (GOOD + "Bob slaps\n") * 3000)
    process = subprocess.Popen([sys.executable, "-m", "referee", *(a.format(path) for a in args)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141 and err == b""


@pytest.mark.skipif(os.name != "posix", reason="SIGPIPE")
def test_a_closed_pipe_ends_fmt_diff_quietly_with_141(tmp_path):
    """``fmt --diff folder | head``: the closed pipe is no file's fault (it was "cannot read
    the file: Broken pipe", exit 2, for every file after it)."""
    for n in range(300):
        write(tmp_path, f"r{n:03d}.txt", GOOD.replace(" plays ", "   plays "))
    process = subprocess.Popen([sys.executable, "-m", "referee", "fmt", "--diff", "--no-config", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141 and err == b"", err


# --- D8: control characters never reach the output -----------------------------------------------

def test_the_unsafe_characters_are_exactly_the_controls_and_invisible_formats():
    import unicodedata

    categories = {"Cc", "Cf", "Zl", "Zp", "Cs"}
    newer = range(0x13439, 0x13440)  # format characters of Unicode 15, kept for the Pythons that have it
    unsafe_class = unsafe()
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        expected = unicodedata.category(char) in categories and char not in "\u200c\u200d"
        if code not in newer:
            assert bool(unsafe_class.match(char)) == expected, f"U+{code:04X}"


@pytest.mark.parametrize(("text", "shown"), [
    ("plain ♠ text", "plain ♠ text"),
    ("\x1b]0;owned\x07\x1b[2J", "\\x1b]0;owned\\x07\\x1b[2J"),
    ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
    ("abc\u202edcba", "abc\\u202edcba"),
    ("caf\udce9.txt", "caf\\xe9.txt"),  # a file name that is not UTF-8
    ("👨\u200d👩", "👨\u200d👩"),
])
def test_visible(text, shown):
    assert visible(text) == shown and visible(shown) == shown


def test_every_unsafe_character_is_unprintable():
    """visible() and is_visible() trust str.isprintable() first: that is safe only if no
    character of the unsafe class is printable, which every code point shows."""
    everything = "".join(map(chr, range(0x110000)))
    found = unsafe().findall(everything)
    assert len(found) > 2000 and not any(char.isprintable() for char in found)
    assert not any(char.isprintable() for char in map(chr, range(128)) if not is_visible(char))


@pytest.mark.parametrize("text", ["plain ♠ text", "\x1b]0;owned\x07", "a\nb", "abc\u202edcba", "caf\udce9.txt",
                                  "👨\u200d👩", "a\u00a0: b", "x\u2028y", "", "\x7f"])
def test_is_visible_says_whether_visible_changes_the_text(text):
    assert is_visible(text) == (unsafe().search(text) is None)


def test_visible_pieces_makes_each_piece_visible_as_the_pieces_one_by_one():
    """A game's lines are searched at once; when one piece is unsafe each is made visible
    on its own, so that a line end inside a piece is escaped, never taken for a line's."""
    safe = [[("a.txt:1", "bold"), (" ♠\u00a0: ok", "")], [("  Ana\u200dBo", "dim")]]
    assert visible_pieces(safe) is safe
    lines = [[("a\nb\x1b[31m.txt:1", "bold"), (" ok", "")], [("  \u202eevil\t", "red")], [("", "")]]
    assert visible_pieces(lines) == [[(visible(text), style) for text, style in line] for line in lines]
    assert visible_pieces(lines)[0][0] == ("a\\nb\\x1b[31m.txt:1", "bold")


def test_excerpt_shows_a_long_line_around_the_caret():
    line = "Alice plays " + "7H " * 1000 + "xx\n"
    column = line.index("xx") + 1
    shown, caret = excerpt(line, column)
    assert len(shown) <= WINDOW + 2 and shown.startswith("…")
    assert shown[caret - 1:caret + 1] == "xx"
    shown, caret = excerpt("\tAlice plays \x1b 7H\n", 16)
    assert shown == " Alice plays \\x1b 7H" and shown[caret - 1:caret + 1] == "7H"


def test_a_control_character_in_a_record_is_refused_and_shown_escaped(tmp_path):
    path = write(tmp_path, "g.txt", GOOD + "Bob plays 8H ; \x1b[2J\x1b]0;owned\x07\n")
    result = CliRunner().invoke(main, ["check", path])
    assert result.exit_code == 2
    assert "g.txt:6:16: a control character (U+001B)" in result.output
    assert "Bob plays 8H ; \\x1b[2J\\x1b]0;owned\\x07\n" + " " * 21 + "^" in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output


@pytest.mark.parametrize("line, column", [("Bob plays 8H \x1b[31m", 14), ("Bob plays \x1b[31m8H", 11), ("Bob\x7f plays 8H", 4)])
def test_a_control_character_that_breaks_its_line_is_what_the_error_names(tmp_path, line, column):
    """Not « unexpected '\\x1b[31m' here; expected 'for' or 'on' », which leaves the user to
    find out what is wrong with the line."""
    result = CliRunner().invoke(main, ["check", write(tmp_path, "g.txt", GOOD + line + "\n")])
    assert f"g.txt:6:{column}: a control character (U+00" in result.output


def test_a_file_name_with_a_line_end_and_an_escape_stays_on_its_line(tmp_path):
    path = write(tmp_path, "a\nb\x1b[31m.txt", GOOD + "Alice slaps\n")
    for args in (["check", path], ["check", path + "-missing"]):
        result = CliRunner().invoke(main, args, env={"FORCE_COLOR": ""})
        assert "a\\nb\\x1b[31m.txt" in result.output and "\x1b[31m" not in result.output
        assert all(line.startswith((str(tmp_path), " ", "1 game", "1 file")) for line in result.output.splitlines())


def test_invisible_format_characters_in_a_record_are_shown_escaped(tmp_path):
    text = GOOD.replace("[Game", '[Event "abc\u202edcba"]\n[Game').replace("Alice collects", "Alice collects ; \u202eevil")
    text += "Bob slaps ; \u2066x\u2069\n"
    result = CliRunner().invoke(main, ["check", write(tmp_path, "g.txt", text)])
    assert "\u202e" not in result.output and "\u2066" not in result.output
    assert "Bob slaps ; \\u2066x\\u2069" in result.output
    exported = CliRunner().invoke(main, ["export", "--to", "text", write(tmp_path, "g.txt", text)]).output
    assert '[Event "abc\u202edcba"]' in exported  # a record keeps its text exactly


def test_a_terminal_gets_the_escaped_text_too(tmp_path):
    path = write(tmp_path, "g.txt", GOOD.replace("Alice collects", "Alice collects ; \u202e") + "Bob slaps\n")
    coloured = CliRunner().invoke(main, ["check", path], env={"FORCE_COLOR": "1"}).output
    assert "\u202e" not in coloured and "\\u202e" not in coloured  # the comment is not on the flagged line
    path = write(tmp_path, "h.txt", GOOD + "Bob slaps ; \u202e\n")
    coloured = CliRunner().invoke(main, ["check", path], env={"FORCE_COLOR": "1"}).output
    assert "\u202e" not in coloured and "\\u202e" in coloured


# --- D4, D5, D6: time and memory on hostile input ---------------------------------------------------

def test_blank_lines_after_a_game_without_a_game_header():
    data = ('[Players "Alice Bob"]\nAlice plays 7H\n' + "\n" * 1_000_000).encode()
    (record,) = list(read_games("f.txt", io.BytesIO(data)))
    assert "this game has no [Game" in str(check(record).error)


def test_blank_lines_between_games_are_no_game_s():
    many = "\n" * (2 * MAX_HEAD)
    data = (many + GOOD + many + GOOD + " \t\n" * MAX_HEAD + "; the second game\n" + GOOD + many).encode()
    games = list(read_games("f.txt", io.BytesIO(data)))
    assert [type(g) for g in games] == [Record] * 3
    assert [g.line for g in games] == [2 * MAX_HEAD + 1, 4 * MAX_HEAD + 6, 5 * MAX_HEAD + 12]
    assert [c.text for c in games[2].comments] == ["; the second game"]


def test_a_head_too_long_is_refused_and_the_next_game_read():
    text = "; a comment\n" * (MAX_HEAD // 10) + GOOD
    error, record = list(read_games("f.txt", io.BytesIO((text + GOOD).encode())))
    assert isinstance(error, RecordError) and (error.line, error.column) == (1, 1)
    assert "headers" in error.message and error.source.startswith("; a comment")
    assert isinstance(record, Record) and record.line == text.count("\n") + 1


def test_a_long_game_is_read_a_block_at_a_time():
    """A game of any length is replayed as it is read: its events are not held, so four
    times the events take no more memory (the replay stops following the game after its
    first dozens of faults: every event after is still read, and counted)."""
    notation._parser()

    def peak(repeat: int) -> int:
        data = (GOOD + "Alice plays 7H\nBob plays 8C\n" * repeat + GOOD).encode()
        notes: list[list[str]] = []
        reports = check_games(read_games("f.txt", io.BytesIO(data), lazy=True), found=lambda record: Found(10))
        used = peak_memory(lambda: notes.extend(r.notes for _, r in reports))
        last = GOOD.count("\n") + 2 * repeat
        assert len(notes) == 2 and notes[0][-1].endswith(f"after it (to line {last}) were not checked, nor the result")
        return used

    small, large = peak(5_000), peak(20_000)
    assert large < small * 1.25, (small, large)


def peak_memory(run) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_on_long_runs_of_blank_and_comment_lines():
    """A run of blank or comment lines after the events is read a block at a time: the
    memory it takes is that of a few blocks (about 1 MB), whatever its length. The runs are
    1.5 times MAX_HEAD (tracemalloc makes each line costly): a run kept whole, or held a
    line at a time, passes the bound of 3 MB (0.27-1.0 MB measured; 4.2-6 MB when a run of
    comments is never cut at QUIET_RUN, or the file is read in one block)."""
    notation._parser()
    list(check_games(read_games("f.txt", io.BytesIO((GOOD + ";\n\n").encode()), lazy=True)))  # what any check loads once
    for shape in ("\n", " \t \n", ";\n", "; a comment\n\n"):
        data = (GOOD + shape * ((MAX_HEAD // len(shape) - 100) * 3 // 2)).encode()
        peak = peak_memory(lambda: [r for _, r in check_games(read_games("f.txt", io.BytesIO(data), lazy=True))])
        assert peak < 6 * MAX_HEAD, (shape, peak)
    data = (GOOD + "\n" * 2_000_000).encode()  # 4 times MAX_HEAD: kept whole, it would pass the bound twice
    assert peak_memory(lambda: list(read_games("f.txt", io.BytesIO(data)))) < 1_000_000


def test_a_text_report_lists_a_few_violations_of_a_kind_and_json_all(tmp_path):
    path = write(tmp_path, "g.txt", GOOD + "Bob slaps\n" * 30)  # each a false slap, and an unpaid penalty but the first
    text = CliRunner().invoke(main, ["check", path]).output
    assert text.count("BC-FALSE-SLAP Bob slapped") == SHOWN_PER_KIND
    assert f"and {30 - SHOWN_PER_KIND} more BC-FALSE-SLAP" in text and f"and {29 - SHOWN_PER_KIND} more BC-PENALTY-UNPAID" in text
    assert "g.txt:1 bataille-corse (Alice and Bob): 59 violations" in text
    data = json.loads(CliRunner().invoke(main, ["check", "--json", path]).output)
    assert len(data[0]["violations"]) == 59 and data[0]["status"] == "violations"
    assert [v["line"] for v in data[0]["violations"] if v["code"] == "BC-FALSE-SLAP"] == list(range(6, 36))


def test_a_note_given_again_is_shown_once_and_counted(tmp_path):
    path = write(tmp_path, "n.txt", '[Penalty "no-slap-30"]\n' + GOOD + "Alice slaps\n" * 15)
    text = CliRunner().invoke(main, ["check", path]).output
    assert text.count("slap ban could not be checked") == 1 and "no timestamps (15 times)" in text
    data = json.loads(CliRunner().invoke(main, ["check", "--json", path]).output)
    assert len(data[0]["notes"]) == 15  # JSON keeps each


def test_json_streams_violations_and_matches_the_schema(tmp_path):
    import jsonschema

    from referee.files.resources import read_resource

    files = [write(tmp_path, "a.txt", GOOD + "Bob slaps\n" * 3 + '[Game "belote"]\n[Players "A B"]\nA plays 7H\n' + GOOD),
             write(tmp_path, "b.txt", "Alice plays 3H\n")]
    data = json.loads(CliRunner().invoke(main, ["check", "--json", *files]).output)
    jsonschema.validate(data, json.loads(read_resource("schemas", "report.schema.json")))
    assert [g["status"] for g in data] == ["violations", "error", "in-progress", "error"]


def test_pathological_lines_are_read_in_linear_time():
    """Each shape that made the lexer backtrack, at the longest line, in many games: the old
    grammar took about 1.5 s a line (minutes here). bench/fuzz.py times them."""
    head = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n'
    fill = MAX_LINE - 40
    shapes = ["Alice plays 7H" + " " * fill + "x", "Alice plays 7H" + "\t " * (fill // 2) + "x",
              "Alice plays " + "?" * fill + "x", "Alice plays " + "1" * fill + "x", "Alice plays " + "♠" * fill + "x",
              '[Event "' + "\\" * fill + "x", '[Event "' + '"' * fill + "x", '[Event "' + '\\"' * (fill // 2) + "x",
              "Alice plays 7H" + " " * fill + "on", " " * fill + "x", "12." + " " * fill + "x", "Alice " + " " * fill]
    for shape in shapes:
        games = list(read_games("f.txt", io.BytesIO(((head + shape + "\nAlice plays 7H\n") * 30).encode())))
        assert len(games) == 30 and all(isinstance(g, RecordError) for g in games), shape[:20]
        assert all(len(str(g)) < 400 for g in games)


def test_a_line_gives_at_most_a_deck_of_cards():
    (error,) = parse_text(GOOD + "Bob burns 78 1\n")
    assert "more cards on one line than any deck holds (at most 78)" in error.message and error.column == 14
    (record,) = parse_text(GOOD + "Bob burns 78\n")
    assert len(record.events[-1].cards) == 78


# --- D10, escapes, hints, encodings --------------------------------------------------------------

@pytest.mark.parametrize("form", ["text", "json"])
def test_records_are_written_in_utf8_whatever_the_locale(tmp_path, form):
    text = GOOD.replace("JD", "J♦") + "Bob plays 10♠ ; « é »\n"
    path = write(tmp_path, "g.txt", text)
    symbols = ["--suits", "symbols", "--no-config"] if form == "text" else []
    done = run_cli("export", "--to", form, *symbols, path, env={"PYTHONIOENCODING": "cp1252"})
    assert done.returncode == 0, done.stderr
    written = done.stdout.decode("utf-8")
    assert ("10♠  ; « é »" in written and "J♦" in written) if form == "text" else '"comment": "; « é »"' in written
    if form == "text":
        (again,) = parse_text(written)
        (original,) = parse_text(text)
        assert [(e.player, e.verb, e.cards, e.comment) for e in again.events] == \
            [(e.player, e.verb, e.cards, e.comment) for e in original.events]


def test_json_reports_are_utf8_and_text_reports_say_when_they_degrade(tmp_path):
    path = write(tmp_path, "g.txt", GOOD + "Bob slaps ; ♠\n")
    done = run_cli("check", "--json", path, env={"PYTHONIOENCODING": "ascii"})
    assert json.loads(done.stdout.decode("utf-8"))[0]["violations"][0]["rule"].startswith("un joueur")
    done = run_cli("check", path, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 1 and b"Bob slaps ; ?" in done.stdout
    assert b"note: this output's encoding (ascii) cannot show some characters" in done.stdout
    done = run_cli("check", path, env={"PYTHONIOENCODING": "utf-8"})
    assert b"note:" not in done.stdout


@pytest.mark.parametrize("value", ["a\\nb", "c:\\\\", 'say \\"hi\\"', "a\\\\\\\\nb", "\\t\\x1b", "end\\\\"])
def test_header_escapes_round_trip(value):
    from referee.convert.export import record_to_text

    text = GOOD.replace("[Players", f'[Event "{value}"]\n[Players')
    (record,) = parse_text(text)
    exported = record_to_text(record)
    (again,) = parse_text(exported)
    assert again.tag("Event") == record.tag("Event")
    assert record_to_text(again) == exported
    if "\\\\" not in value or value == "c:\\\\":
        assert f'[Event "{value}"]' in exported  # written back as it was


def test_a_header_escape_means_only_a_quote_or_a_backslash():
    (record,) = parse_text(GOOD.replace("[Players", '[Event "a\\nb \\"c\\" d\\\\e"]\n[Players'))
    assert record.tag("Event") == 'a\\nb "c" d\\e'


def test_the_hint_for_an_unclosed_header_value():
    (error,) = parse_text('[Game "bataille-corse"]\n[Event "abc]\n')
    assert error.message == 'a header value goes in double quotes: [Event "abc"]'


@pytest.mark.parametrize(("encoding", "name"), [
    ("utf-16", "UTF-16 (little-endian)"), ("utf-16-le", "UTF-16 (little-endian, without a byte-order mark)"),
    ("utf-16-be", "UTF-16 (big-endian, without a byte-order mark)"), ("utf-32", "UTF-32 (little-endian)"),
    ("utf-32-le", "UTF-32 (little-endian, without a byte-order mark)"),
    ("utf-32-be", "UTF-32 (big-endian, without a byte-order mark)"),
])
def test_wide_encodings_are_named(encoding, name):
    (error,) = list(read_games("f.txt", io.BytesIO((GOOD + "Bob plays 10♥ ; é\n").encode(encoding))))
    assert error.message.startswith(f"this file is {name} text") and (error.line, error.column) == (1, 1)
    if encoding == "utf-32":
        (error,) = list(read_games("f.txt", io.BytesIO(GOOD.encode("utf-32-be").join([b"\x00\x00\xfe\xff", b""]))))
        assert error.message.startswith("this file is UTF-32 (big-endian) text")


def test_notes_and_claims_stay_bounded_however_many_lines_ask_for_them():
    """No kind of line grows a game's report without bound: notes past NOTES_KEPT are
    counted, scores past CLAIMS_KEPT are not kept (a note says from where)."""
    from referee.engine import CLAIMS_KEPT
    from referee.games.base import NOTES_KEPT

    faults = ('[Game "bataille-corse"]\n[Players "Alice Bob"]\n[Penalty "no-slap-30"]\n'  # a fault every other event: the
              + "Alice slaps\nBob collects ; accepted BC-NOT-WON\n" * 3000)  # replay follows the game to its end (LOST_FAULTED)
    (report,) = [r for _, r in check_games(read_games("f.txt", io.BytesIO(faults.encode()), lazy=True))]
    assert len(report.notes) == NOTES_KEPT + 1 and report.notes[-1].startswith("and 2950 more note")
    claims = '[Game "pierre-qui-roule"]\n[Players "A B C D"]\n' + "A scores 3\n" * (CLAIMS_KEPT + 500)
    (report,) = [r for _, r in check_games(read_games("f.txt", io.BytesIO(claims.encode()), lazy=True))]
    assert any(f"from line {CLAIMS_KEPT + 3} on were not checked" in note for note in report.notes)
