"""Long fuzz run of the referee, outside the test suite.

    python bench/fuzz.py --games 5000

For every refereed game, ``--games`` simulated records (referee/simulate/__init__.py), each:
  - checked as written: a simulated record must check clean (valid or in progress);
  - mutated ``--mutations`` times (one event changed: a card replaced, a line dropped,
    duplicated or moved, a false slap added, a slap removed) and checked: the report must
    be clean or flag the changed line or a later one, never an earlier one;
  - garbled once at the byte level (bytes flipped, inserted, deleted or spliced, cut short,
    a stray CR, Latin-1, a very long line): only RecordErrors, never an exception; and
    CRLF, CR-only line ends or a BOM must read and check exactly as the original;
plus ``--bytes`` inputs of random bytes, and ``--hostile`` hostile inputs (issue 16):
  - pathological lines: a run of blanks, ``?``, digits, suit symbols, quotes, backslashes,
    cards... after the start of an event or a header, then a stray character, in many games;
  - huge runs of blank lines, comment lines, header lines or violations, before, inside,
    between and after games, some past the limit of a game (MAX_HEAD);
  - control and invisible format characters anywhere in a record, and in file names;
  - closed streams: an input that fails part-way (OSError, ValueError, no data), a closed
    standard input, an output closed part-way (as ``| head`` does: exit 141, quietly).
  Each is also run through the command line in-process (``check``, ``check --json``,
  ``export``): no exception, an exit status among 0, 1, 2 (141 for a closed output), and
  no unsafe character (safe_text) in any line of text it prints.
Every input is timed (the processor time it took, whatever else the machine runs) and its
memory measured (see bounded): an input over ``--max-seconds`` (plus ``--seconds-per-mb``
for its size and ``--seconds-per-violation`` for what it finds) or ``--max-memory-mb`` is
an error. The run ends with the worst input's time and memory.
Any exception is an error; so is a violation before the mutated line. The first input of
each kind of error is saved under records/regressions/ as ``fuzz-NNN-*.open``, with a
comment saying what it exercises (``--no-save`` to keep the tree clean). Exit status 1 when
errors were found.

    python bench/fuzz.py --memory-mb 100

streams ``read_games`` + ``check`` over a 100 MB file of simulated games under tracemalloc
and prints the peak of Python memory (the file is written to a temporary folder).

Issue 20's surfaces, each its own kind of input (none by default): ``--json`` mutated
JSON records (long numbers, lone surrogates, deep nesting, wrong types), ``--config``
mutated configurations, ``--tree`` folder trees with named pipes, link loops, unreadable
folders and special files walked by check, fmt, state and explain (a hang is an error),
``--killed`` ``check --jobs`` runs with a worker killed mid-batch, ``--writers`` two
writers on one record under its lock. Issue 38's: ``--output`` ``check -o FILE`` in every
format, FILE a new name, a regular file, a named pipe, a device node made for the run (a
copy of /dev/null's or /dev/full's numbers, a block device no driver holds), a link, a
socket, a folder, a full disk (simulated), or /dev/stdout appended to a file, into a
pipe or into a copy of /dev/full (never the machine's own devices): what is not a regular
file stays what it was, no temporary file is left, the refusals exit 2 (each run bounded:
60 s).

Issue 38's: ``--numbers`` records whose numbers are hostile (superscripts and other
digits that are not 0 to 9, signs, decimals, hundreds and thousands of digits) at every
place a record writes one: headers (English and French tags), drinks, scores, rounds,
counts, numbered cards, moves. And both paths: a share of the inputs (``--both-share``,
of the numbers, JSON, hostile and random-byte inputs) is also run by ``--both-python``'s
installed referee (by default this Python's), compiled and with ``REFEREE_PURE=1``: the
same output bytes and exit status are required (skipped, and said, when that install
is not compiled: ``pip install .`` builds it). One hostile or number input in four in
turn is also run through ``state``, ``state --json``, the HTML report (``check --format
html``) or ``fmt --check``.

Issue 38's, in-process: ``--serve`` the table page (``referee.serve``, starlette's test
client) on a mutated or hostile record: the page, the record, moves (the next lines of
a simulated game of the same game, and hostile lines), undo asked and confirmed, and a
new game started on an empty file; every answer under 500 with no traceback in it (the
event stream is not read). ``--lsp`` the language server's document model and features
(``referee.lsp``) on a mutated or hostile record: opened, edited at random, asked its
diagnostics, completions and hovers at random places (now and then its code actions,
formatting and symbols); no exception. Each request or step is bounded in time and
memory as any input (and by a 60 s alarm).

Options: --seed S (the run is deterministic for a seed), --jobs J (processes),
--max-events N (per simulated record), --regressions DIR, --until HH:MM (UTC: stop
taking inputs then and report what was tried, for a run that must end in time).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
import time
import traceback
import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]  # bench/html.py is not the html module
sys.path.insert(0, str(ROOT))

import click  # noqa: E402

import referee  # noqa: E402
from referee.cli import main as cli_main  # noqa: E402
from referee.engine import check, error_report  # noqa: E402
from referee.convert.export import record_to_json, record_to_text  # noqa: E402
from referee.notation import MAX_HEAD, MAX_LINE, RecordError, parse_text, read_games  # noqa: E402
from referee.record import Record  # noqa: E402
from referee.reports.report import render, to_json  # noqa: E402
from referee.text.safe_text import unsafe  # noqa: E402
from referee.simulate import MUTATIONS, Mutation, mutate, rules_class, simulable_games, simulate, violations_before  # noqa: E402

GARBLES = ("flip", "insert", "delete", "truncate", "crlf", "cr", "stray-cr", "latin-1", "bom", "bom+crlf", "long-line", "splice")
LOSSLESS = frozenset({"crlf", "cr", "bom", "bom+crlf"})
"""Garbles that change nothing a reader may see: the record must read and check the same."""


class Failure(Exception):
    """What went wrong, a signature to tell kinds apart, and the offending input."""

    def __init__(self, kind: str, signature: str, detail: str, data: bytes):
        super().__init__(kind, signature, detail, data)  # all of them, to cross processes
        self.kind, self.signature, self.detail, self.data = kind, signature, detail, data

    def __str__(self) -> str:
        return self.detail


def _signature(error: BaseException) -> str:
    """Where an exception was raised, in the referee's code: one per bug, not per input."""
    package = str(Path(referee.__file__).resolve().parent)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(package)]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(error).__name__} at {where}"


def _exception(kind: str, error: BaseException, what: str, data: bytes) -> Failure:
    tb = "".join(traceback.format_exception(error))
    return Failure(kind, _signature(error), f"{what}: {type(error).__name__}: {error}\n{tb}", data)


_MEASURES: list[tuple[float, float, str, bool]] = []
"""The time and memory of each input of the task under way (see bounded)."""


def read_and_check(data: bytes, kind: str, what: str, render_report: bool = False) -> list:
    """Read and check every game of the bytes, timed and measured; a Failure for any
    exception, or past the bounds."""
    reports, measure = bounded(lambda: _read_and_check(data, kind, what, render_report), len(data), kind, what, data,
                               lambda reports: 2 * sum(len(report.violations) for _, report in reports), kept=True)
    _MEASURES.append(measure)
    return reports


def _read_and_check(data: bytes, kind: str, what: str, render_report: bool = False) -> list:
    try:
        items = list(read_games("fuzz.txt", io.BytesIO(data)))
        reports = []
        for item in items:
            if isinstance(item, RecordError):
                str(item)
                continue
            report = check(item)
            check(item, play_out=True)
            data_json = to_json(report)
            if render_report:
                from rich.console import Console
                from rich.text import Text

                console = Console(file=io.StringIO(), width=100, force_terminal=True)
                for pieces in render(report, item.sources(v.line for v in report.violations) if report.violations else None):
                    console.print(Text.assemble(*pieces))
                _validate(data_json, record_to_json(item))
            reports.append((item, report))
        if render_report:
            for item in items:
                if isinstance(item, RecordError):
                    _validate(to_json(error_report(item)), None)
        return reports
    except Failure:
        raise
    except Exception as error:  # noqa: BLE001 - any exception is what we look for
        raise _exception(kind, error, what, data) from None


_SCHEMAS: dict = {}


def _validate(report: dict, record: dict | None) -> None:
    """The JSON of a report and of a record against schemas/ (what --json and export print)."""
    import json

    import jsonschema

    if not _SCHEMAS:
        for name in ("report", "record"):
            _SCHEMAS[name] = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate([report], _SCHEMAS["report"])
    if record is not None:
        jsonschema.validate({"file": "fuzz.txt", "games": [record]}, _SCHEMAS["record"])


def garble(text: str, rng: random.Random) -> tuple[str, bytes]:
    kind = rng.choice(GARBLES)
    data = text.encode()
    at = rng.randrange(len(data) + 1)
    if kind == "flip" and data:
        at = min(at, len(data) - 1)
        data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    elif kind == "insert":
        data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[at:]
    elif kind == "delete":
        data = data[:at] + data[at + rng.randint(1, 40):]
    elif kind == "truncate":
        data = data[:at]
    elif kind == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif kind == "cr":
        data = data.replace(b"\n", b"\r")
    elif kind == "stray-cr":
        data = data[:at] + b"\r" + data[at:]
    elif kind == "latin-1":
        data = text.encode("latin-1", "replace")
    elif kind == "bom":
        data = b"\xef\xbb\xbf" + data
    elif kind == "bom+crlf":
        data = b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    elif kind == "long-line":
        data = data[:at] + b"; " + rng.choice([b"x", "é".encode(), "😀".encode()]) * rng.randint(1000, 6000) + b"\n" + data[at:]
    elif kind == "splice":
        other = rng.randrange(len(data) + 1)
        data = data[:at] + data[min(at, other):max(at, other)] + data[at:]
    return kind, data


def fuzz_one(game: str, index: int, seed: int, mutations: int, max_events: int) -> tuple[Counter, list[Failure]]:
    """One simulated record of a game, its mutations and one garbled copy."""
    rng = random.Random(f"{seed}:{game}:{index}")
    cls = rules_class(game)
    players = rng.randint(cls.min_players, cls.max_players)
    hidden = rng.random() < 0.4
    counts: Counter = Counter()
    failures: list[Failure] = []
    what = f"simulate({game!r}, {players}, {seed * 1_000_003 + index}, hidden={hidden}, max_events={max_events})"
    try:
        text = simulate(game, players, seed * 1_000_003 + index, hidden=hidden, max_events=max_events)
    except Exception as error:  # noqa: BLE001
        return counts, [_exception("simulate", error, what, b"")]
    data = text.encode()
    counts["records"] += 1
    try:
        original = read_and_check(data, "simulated", what, render_report=index % 20 == 0)
        if len(original) != 1:
            raise ValueError("the simulated text does not read as one record")
        record, report = original[0]
        if report.violations or report.status not in ("valid", "in-progress"):
            v = report.violations[0] if report.violations else None
            sig = f"simulated record not clean: {v.code if v else report.status}"
            failures.append(Failure("simulated", sig, f"{what}: {sig} at line {v.line if v else '?'}: {v.message if v else ''}", data))
        again = parse_text(record_to_text(record))[0]
        if not isinstance(again, Record) or [(e.player, e.verb, e.cards) for e in again.events] != \
                [(e.player, e.verb, e.cards) for e in record.events]:
            failures.append(Failure("export", "export --to text changes the events", f"{what}: export round trip differs", data))
    except Failure as failure:
        failures.append(failure)
        return counts, failures
    except ValueError as error:
        failures.append(Failure("simulated", f"simulated record unreadable: {error}", f"{what}: {error}", data))
        return counts, failures

    for m in range(mutations):
        kind = MUTATIONS[(index + m) % len(MUTATIONS)]
        mutation = mutate(text, rng, kind, record)
        if mutation is None:
            continue
        if m == mutations - 1 and rng.random() < 0.5:
            # Several changes at once: nothing may be flagged before the first of them.
            for _ in range(rng.randint(1, 3)):
                again = mutate(mutation.text, rng)
                if again is not None:
                    mutation = Mutation(f"{mutation.kind}+{again.kind}", min(mutation.line, again.line),
                                        again.text, f"{mutation.detail}; {again.detail}")
            kind = "several"
        counts["mutated"] += 1
        counts[f"mutated {kind}"] += 1
        mdata = mutation.text.encode()
        mwhat = f"{what}, mutation {mutation.kind} ({mutation.detail})"
        try:
            reports = read_and_check(mdata, f"mutation-{kind}", mwhat, render_report=m == 0 and index % 20 == 0)
        except Failure as failure:
            failures.append(failure)
            continue
        if len(reports) != 1:
            failures.append(Failure(f"mutation-{kind}", "mutated record unreadable", f"{mwhat}: not one record", mdata))
            continue
        mrecord, report = reports[0]
        counts[f"status {report.status}"] += 1
        try:
            exported = check(parse_text(record_to_text(mrecord))[0])
            if (exported.status, sorted(v.code for v in exported.violations)) != \
                    (report.status, sorted(v.code for v in report.violations)):
                failures.append(Failure(f"export-{kind}", "export --to text changes the report of a mutated record",
                                        f"{mwhat}: the exported record checks differently", mdata))
        except Exception as error:  # noqa: BLE001
            failures.append(_exception(f"export-{kind}", error, f"{mwhat}, exported", mdata))
        early = violations_before(report, mutation.line)
        if early:
            v = early[0]
            sig = f"{v.code} before the mutated line ({kind})"
            detail = f"{mwhat}: {v.code} at line {v.line}, before line {mutation.line}: {v.message}"
            failures.append(Failure(f"mutation-{kind}", sig, detail, mdata))

    kind, gdata = garble(text, rng)
    counts["garbled"] += 1
    counts[f"garbled {kind}"] += 1
    try:
        garbled = read_and_check(gdata, f"garble-{kind}", f"{what}, garbled ({kind})")
        if kind in LOSSLESS and _summary(garbled) != _summary(original):
            sig = f"the record reads differently with {kind}"
            errors = [str(i).splitlines()[0] for i in read_games("fuzz.txt", io.BytesIO(gdata)) if isinstance(i, RecordError)]
            failures.append(Failure(f"garble-{kind}", sig, f"{what}, garbled ({kind}): reads differently "
                                    f"({len(garbled)} record(s), {len(gdata)} bytes) {' '.join(errors[:1])}", gdata))
    except Failure as failure:
        failures.append(failure)
    return counts, failures


def _summary(reports) -> list:
    return [([(e.line, e.player, e.verb, e.cards) for e in record.events], report.status,
             [(v.line, v.code) for v in report.violations]) for record, report in reports]


# --- Hostile inputs (issue 16) ------------------------------------------------------------

HEAD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\n'
PREFIXES = ("Alice plays 7H", "Alice plays ", "Alice plays", "Alice ", "", "12.", "12. 21:04 ", "21:04:1",
            '[Event "', "[", "[Event ", "[Event", 'Alice gives 7H to ', "Alice burns ", "Alice says ",
            "Alice drinks ", "Alice takes ?? from", "; ", "Alice plays 7H on", "Alice plays AD for ", "-- round ",
            "Alice scores ", "Alice plays 7H ; accepted ", "Alice bids ")
FILLERS = (" ", "\t", " \t", "\u00a0", "?", "??", "?? ", "1", "12", "1.", "1:", "♠", "♠\ufe0f", '"', "\\",
           '\\"', "7H ", "7H", "10", "[", "]", ";", "é", "x", "x ", "on ", "-", "'", "A-", "BC-X ", "+", "--")
AFTER_A_CARD = ("Alice plays 7H", "Alice plays 7H 8C", "Alice burns 2C", "12. Alice plays ??", "Alice holds 10♥")
BLANKS = (" ", "\t", " \t", "\u00a0", "\u3000")
STRAYS = ("x", "!", "é", "]", '"', ";", "", "7", "?", "on", "\\", "\x1b", "\u202e", "\x00", "\r", " ")
CONTROLS = tuple(chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32), 127, *range(0x80, 0xA0))) + (
    "\u202e", "\u2066", "\u2069", "\u200b", "\u2028", "\u2029", "\ufeff", "\u00ad", "\u061c", "\U000e0041")
SHAPES = ("line", "blank-run", "comment-run", "header-run", "violation-run", "control", "file-name", "failing-input",
          "closed-stdin", "closed-output", "long-game")


def _size(rng: random.Random, small: int, large: int) -> int:
    """Mostly small, now and then large: a size between ``small`` and ``large``, log-uniform."""
    return int(small * (large / small) ** (rng.random() ** 3))


def _pathological_line(rng: random.Random) -> str:
    """A start of line, a long run of one filler, a stray end: blanks half the time, as
    runs of blanks next to optional ones were what made the lexer backtrack."""
    filler = rng.choice(BLANKS if rng.random() < 0.5 else FILLERS)
    length = rng.choice((rng.randint(1, 200), rng.randint(MAX_LINE - 300, MAX_LINE - 20),
                         rng.randint(MAX_LINE - 300, MAX_LINE - 20), rng.randint(MAX_LINE, MAX_LINE + 50)))
    prefix = rng.choice(AFTER_A_CARD if rng.random() < 0.3 else PREFIXES)
    return prefix + filler * max(1, length // len(filler)) + rng.choice(STRAYS)


def _simulated_text(rng: random.Random) -> str:
    """A simulated record of any refereed game, now and then with mistakes in it."""
    cls = rules_class(rng.choice(simulable_games()))
    players = rng.randint(cls.min_players, cls.max_players)
    return simulate(cls.name, players, rng.randrange(1_000_000), hidden=rng.random() < 0.4, max_events=300,
                    mistakes=rng.choice((0.0, 0.0, 0.05)))


def _insert_lines(text: str, rng: random.Random, block: str) -> str:
    lines = text.split("\n")
    at = rng.randint(0, len(lines))
    return "\n".join(lines[:at] + [block.rstrip("\n")] + lines[at:])


def hostile_input(shape: str, rng: random.Random) -> bytes:
    """The bytes of one hostile input of the given shape."""
    if shape == "line":
        games = rng.randint(1, 20)
        line = _pathological_line(rng)
        if rng.random() < 0.3:
            return _insert_lines(_simulated_text(rng), rng, line).encode("utf-8", "surrogatepass")
        return ((HEAD + line + "\nAlice plays 7H\n") * games).encode("utf-8", "surrogatepass")
    if shape in ("blank-run", "comment-run", "header-run", "violation-run", "long-game"):
        unit = {"blank-run": rng.choice(("\n", " \t\n", "\r\n", "\r", "\u00a0\n")),
                "comment-run": rng.choice((";\n", "; a comment\n", ";\n\n")),
                "header-run": rng.choice(('[X "y"]\n', '[Event "' + "e" * 100 + '"]\n')),
                "violation-run": rng.choice(("Bob slaps\n", "Alice plays ?? ?? ??\n", "Bob burns 78\n", "Zoe plays 7H\n")),
                "long-game": rng.choice(("Alice plays 7H\nBob plays 8C\n", "Alice slaps\n"))}[shape]
        limit = MAX_HEAD * (3 if shape == "blank-run" else 1) + 1000
        run = unit * (_size(rng, 10, limit) // len(unit))
        game = _simulated_text(rng) if rng.random() < 0.5 else HEAD + "Alice plays 7H\n"
        if rng.random() < 0.2:  # no [Game] header: the search for one must not go over the run again and again
            game = game.replace('[Game "bataille-corse"]\n', "", 1)
        where = rng.choice(("before", "inside", "after", "between"))
        text = {"before": run + game, "inside": _insert_lines(game, rng, run), "after": game + run,
                "between": game + run + game}[where]
        return text.encode()
    text = _simulated_text(rng)
    if shape == "control":
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(CONTROLS) + text[at:]
        return text.encode("utf-8", "surrogatepass")
    return text.encode()


NUMBER_VALUES = ("²", "¹²", "³", "٣", "３", "𝟙", "⑦", "0", "00", "-1", "+1", "1.0", "1e3", "1_000", "½",
                 "9" * 9, "1" + "0" * 9, "9" * 308, "9" * 309, "9" * 4000)
"""Numbers a record should not take as such, or only up to a bound: digits that are not
0 to 9 (``str.isdigit()`` is true for most of them, ``int()`` reads some), signs and
decimals, and long runs of digits (a float holds 308, ``int()`` converts 4,300)."""
NUMBER_PLACES = (
    ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n[Match "m"]\n[Target "{n}"]\nBen says roi\n', "en"),
    ('[Game "carte-et-plouc"]\n[Players "Ann Ben Cas"]\n[Match "m"]\n[Hands "{n}"]\n[Round "{n}"]\n', "en"),
    ('[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas Dom"]\n[Partie "m"]\n[Objectif "{n}"]\n[Donnes "{n}"]\nBen dit roi\n', "fr"),
    ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\n[Cards "{n}"]\nBen says roi\n', "en"),
    ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\nAnn plays 4S on Ben\nBen drinks {n}\n', "en"),
    ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\nBen takes ?? from Ann\nCas takes ?? from Ben\n'
     'Dom takes ?? from Cas\nAnn takes ?? from Dom\nAnn plays 4S on Ben\nBen plays VH on Cas\nCas plays 6H on Dom\n'
     'Dom plays 10C on Ann\nAnn votes pourri\nBen votes pourri\nDom votes bon\nAnn beats Dom\nBen drinks 2\nBen drinks {n}\n', "en"),
    ('[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas Dom"]\nBen dit roi\nAnn joue 4P sur Ben\nBen boit {n}\n', "fr"),
    ('[Jeu "caroleto"]\n[Notation "fr"]\n[Joueurs "Ann Ben Cas Dom"]\nBen dit roi\nAnn joue 4P sur Ben\nBen boit {n} gorgées\n', "fr"),
    ('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nBen says roi\n-- round {n}\n', "en"),
    ('[Game "carte-et-plouc"]\n[Players "Ann Ben Cas"]\nAnn scores {n}\n', "en"),
    ('[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice burns {n}\nBob draws {n}\n', "en"),
    ('[Game "flaschenteufel"]\n[Players "A B C"]\nA plays {n}\nB holds {n} 2 3\n', "en"),
    ('[Game "bataille-corse"]\n[Players "Alice Bob"]\n{n}. Alice plays 7H\n{n}:04 Bob plays 8C\n', "en"),
)
"""Every place a record writes a number: the number goes at each ``{n}``."""


def number_input(rng: random.Random) -> bytes:
    """A record with a hostile number at one of its places (NUMBER_PLACES), now and then
    inside a simulated game or followed by another game (which must still be read)."""
    place, _ = rng.choice(NUMBER_PLACES)
    value = rng.choice(NUMBER_VALUES)
    if rng.random() < 0.3:
        value = "".join(rng.choice(NUMBER_VALUES[:7] + ("1", "0", "9")) for _ in range(rng.randint(2, 5)))
    text = place.replace("{n}", value)
    if rng.random() < 0.3:
        text = text + "\n" + _simulated_text(rng)
    return text.encode("utf-8")


class _Output(io.TextIOBase):
    """Standard output for a run of the command line: counts what is written, checks each
    line holds no unsafe character, and can close part-way as ``| head`` does."""

    def __init__(self, text: bool, close_after: int | None = None):
        self.text, self.close_after = text, close_after
        self.writes, self.chars, self.unsafe = 0, 0, ""

    @property
    def encoding(self) -> str:
        return "utf-8"

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if self.close_after is not None and self.writes >= self.close_after:
            raise BrokenPipeError(32, "Broken pipe")
        self.writes += 1
        self.chars += len(text)
        if self.text and not self.unsafe:
            found = unsafe().search(text.replace("\n", ""))
            if found is not None:
                self.unsafe = text[max(0, found.start() - 40):found.start() + 40]
        return len(text)


class _Input:
    """Standard input for a run of the command line: the bytes, a stream that fails, or none."""

    def __init__(self, stream):
        self.buffer = stream


class _FailingStream(io.RawIOBase):
    """Gives ``good`` bytes, then fails with ``error`` (or gives no data, as a non-blocking stream)."""

    def __init__(self, good: bytes, error: BaseException | None):
        self.good, self.error = good, error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer):
        if not self.good:
            if self.error is None:
                return None
            raise self.error
        size = min(len(buffer), len(self.good))
        buffer[:size], self.good = self.good[:size], self.good[size:]
        return size


def run_cli(args: list[str], stdin, kind: str, what: str, data: bytes, close_after: int | None = None) -> int:
    """One run of the command line in-process: its exit status; a Failure for an exception,
    an unexpected status or an unsafe character in its text output."""
    out = _Output(text=not {"--json", "export", "html"} & set(args), close_after=close_after)
    err = _Output(text=True)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, out, err
    try:
        cli_main(args, standalone_mode=False)
        status = 0
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else 1
    except click.ClickException as error:  # a usage error: click says it and exits 2 (standalone)
        status = error.exit_code
    except Exception as error:  # noqa: BLE001
        raise _exception(kind, error, f"{what}: referee {' '.join(args)}", data) from None
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    allowed = {0, 1, 2} | ({141} if close_after is not None else set())
    if status not in allowed:
        raise Failure(kind, f"exit status {status} ({args[0]})", f"{what}: referee {' '.join(args)} exited {status}", data)
    if out.unsafe or err.unsafe:
        shown = out.unsafe or err.unsafe
        raise Failure(kind, f"unsafe character printed ({args[0]})", f"{what}: printed {shown!r}", data)
    return status


_MORE = ((["state", "-"],), (["check", "--format", "html", "-"],), (["state", "--json", "-"], ["fmt", "--check", "-"]), ())
"""The commands run on a share of the hostile and number inputs besides check and export
(each on one input in four, in turn): the table (``state``), the HTML report, ``fmt``."""


def fuzz_hostile(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """One hostile input: read and checked, and run through the command line."""
    rng = random.Random(f"{seed}:hostile:{index}")
    shape = SHAPES[index % len(SHAPES)]
    data = hostile_input(shape, rng)
    what = f"hostile input #{index} ({shape}, {len(data)} bytes)"
    counts = Counter({"hostile": 1, f"hostile {shape}": 1})
    try:
        if shape == "failing-input":
            error = rng.choice((OSError(5, "Input/output error"), OSError(9, "Bad file descriptor"),
                                ValueError("I/O operation on closed file"), None))
            cut = rng.randint(0, len(data))
            stream = io.BufferedReader(_FailingStream(data[:cut], error))
            items, measure = bounded(lambda: list(read_games("fuzz.txt", stream)), len(data), shape, what, data)
            if not items or not isinstance(items[-1], RecordError):
                raise Failure(shape, "a failing input did not end with a RecordError", f"{what}: {items[-1:]}", data)
            _MEASURES.append(measure)
            return counts, []
        if shape == "closed-stdin":
            status = run_cli(["check", "-"], None, shape, what, data)
            if status != 2:
                raise Failure(shape, "a closed standard input is not exit 2", f"{what}: exit {status}", data)
            return counts, []
        found = sum(len(report.violations) for _, report in read_and_check(data, shape, what))
        if shape == "file-name":
            name = "".join(rng.choice(("a", "\n", "\x1b[2J", "\u202e", "\t", "é", "\udcff", "\x07")) for _ in range(6))
            folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
            try:
                path = folder / f"{name}.txt"
                try:
                    path.write_bytes(data)
                except (OSError, UnicodeEncodeError):
                    return counts, []
                for args in (["check", str(path)], ["check", str(path) + "-missing"]):
                    run_cli(args, _Input(io.BytesIO(b"")), shape, what, data)
            finally:
                for child in folder.iterdir():
                    child.unlink()
                folder.rmdir()
            return counts, []
        close_after = rng.randint(0, 20) if shape == "closed-output" else None
        for args in (["check", "-"], ["check", "--json", "-"], ["export", "--to", "text", "-"], *_MORE[index % len(_MORE)]):
            _, measure = bounded(lambda: run_cli(args, _Input(io.BytesIO(data)), shape, what, data, close_after),
                                 len(data), shape, f"{what}, referee {' '.join(args)}", data, found)
            _MEASURES.append(measure)
        counts["both paths"] += both_paths(data, ".txt", shape, what, f"{seed}:hostile:{index}")
    except Failure as failure:
        return counts, [failure]
    return counts, []


def fuzz_numbers(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """A record with a hostile number: read and checked, run through check, fmt --check
    and export; now and then through both paths of an installed referee."""
    rng = random.Random(f"{seed}:numbers:{index}")
    data = number_input(rng)
    what = f"number input #{index} ({len(data)} bytes)"
    try:
        found = sum(len(report.violations) for _, report in read_and_check(data, "numbers", what, render_report=index % 5 == 0))
        for args in (["check", "-"], ["check", "--json", "-"], ["export", "--to", "json", "-"], ["fmt", "--check", "-"],
                     *_MORE[index % len(_MORE)]):
            _, measure = bounded(lambda: run_cli(args, _Input(io.BytesIO(data)), "numbers", what, data),
                                 len(data), "numbers", f"{what}, referee {' '.join(args)}", data, found)
            _MEASURES.append(measure)
        both = both_paths(data, ".txt", "numbers", what, f"{seed}:numbers:{index}")
    except Failure as failure:
        return Counter(numbers=1), [failure]
    return Counter({"numbers": 1, "both paths": both}), []


# --- Both paths: the compiled install and its sources (issue 38) -----------------------------------

BOTH: dict = {"python": "", "share": 0.02, "compiled": False, "why": ""}
"""The Python whose installed referee runs both paths, the share of inputs it runs, and
whether that install is compiled (found once, in main)."""


def _installed(python: str, args: list[str], pure: bool, cwd: str) -> "subprocess.CompletedProcess[bytes]":
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("REFEREE_PURE", "PYTHONPATH")}
    env.update(LANG="C.UTF-8", NO_COLOR="1", **({"REFEREE_PURE": "1"} if pure else {}))
    return subprocess.run([python, "-I", "-m", "referee", *args], capture_output=True, env=env, cwd=cwd, timeout=300,
                          check=False)


def compiled_install(python: str) -> bool:
    """Whether ``python -I`` imports a referee compiled with mypyc."""
    import subprocess

    probe = "from referee.fast.speedups import running; print(running())"
    done = subprocess.run([python, "-I", "-c", probe], capture_output=True, text=True, check=False)
    return done.returncode == 0 and done.stdout.startswith("compiled")


def both_paths(data: bytes, suffix: str, kind: str, what: str, key: str) -> int:
    """For a share of the inputs (drawn by ``key``): the installed referee on its compiled
    path and on its sources gives the same bytes and exit status (check in JSON and text,
    import for JSON); a Failure when they differ, or either prints a traceback. 1 when
    the input was run so, else 0."""
    if not BOTH["compiled"] or random.Random(f"{key}:both").random() >= BOTH["share"]:
        return 0
    folder = tempfile.mkdtemp(prefix="fuzz-both-")
    try:
        name = "input" + suffix
        Path(folder, name).write_bytes(data)
        commands = [["check", "--no-config", "--format", "json", name], ["check", "--no-config", name]]
        if suffix == ".json":
            commands.append(["import", "--no-config", name])
        for args in commands:
            fast, pure = (_installed(BOTH["python"], args, p, folder) for p in (False, True))
            if b"Traceback" in fast.stderr + pure.stderr:
                last = (fast.stderr or pure.stderr).decode(errors="replace").strip().splitlines()[-1:]
                raise Failure(kind, f"a traceback on one path ({args[0]})", f"{what}: referee {' '.join(args)}: {last}", data)
            if (fast.returncode, fast.stdout, fast.stderr) != (pure.returncode, pure.stdout, pure.stderr):
                raise Failure(kind, f"the compiled and pure paths differ ({args[0]})",
                              f"{what}: referee {' '.join(args)}: exit {fast.returncode} and {pure.returncode}", data)
        return 1
    finally:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


# --- Time and memory bounds per input -------------------------------------------------------------

LIMITS = {"seconds": 2.0, "seconds_per_mb": 20.0, "seconds_per_violation": 1e-4, "memory_mb": 75.0,
          "bytes_per_kept_violation": 1000}
"""The bounds on one input (set by the options): time (plus some per MB of input and per
violation found: 100 µs, some five times what one costs), and the memory taken over what
the process held before (75 MB: referee itself takes about 25 MB of the 100 MB an input of
any size may use; and 1000 bytes for each violation the library's check keeps)."""

_CLEAR_REFS = "/proc/self/clear_refs"


def _resident_kb(field: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field))


def _can_reset_peak() -> bool:
    try:
        with open(_CLEAR_REFS, "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def bounded(run, size: int, kind: str, what: str, data: bytes, violations=0, kept: bool = False):
    """Run one input and measure it: (its result, (seconds, megabytes, what)); a Failure when
    it takes longer or more memory than LIMITS allow. The time allowed grows with the size
    of the input and with the violations found in it (``violations``: their number, or a
    function of the result that counts them): a check's work is in proportion to both.
    With ``kept`` (the library's check, which keeps every violation in its report; the
    command line keeps a few), the memory allowed grows with the violations too, and it is
    measured as the growth of the resident set (cheap, but memory freed by an earlier input
    and used again does not show); the command line's is traced by tracemalloc (exact, and
    slower)."""
    import tracemalloc

    resettable = kept and _can_reset_peak()  # the command line's memory is traced: it must be exact
    if resettable:
        before = _resident_kb("VmRSS:")
    else:
        tracemalloc.start()
    began = time.process_time()  # the time the process ran: other processes on the machine do not count
    try:
        result = run()
    finally:
        seconds = time.process_time() - began
        if resettable:
            megabytes = max(0, _resident_kb("VmHWM:") - before) / 1024
        else:
            megabytes = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
    found = violations(result) if callable(violations) else violations
    measure = (seconds, megabytes, f"{what}, {found} violation(s)", kept)
    allowed = LIMITS["seconds"] + LIMITS["seconds_per_mb"] * size / 1e6 + LIMITS["seconds_per_violation"] * found
    allowed *= 1 if resettable else 3  # tracing every allocation makes the run some two to three times slower
    if seconds > allowed:
        raise Failure(kind, f"over the time bound ({kind})", f"{what}: {seconds:.1f} s", data)
    if megabytes > LIMITS["memory_mb"] + (LIMITS["bytes_per_kept_violation"] * found / 1e6 if kept else 0):
        raise Failure(kind, f"over the memory bound ({kind})", f"{what}: {megabytes:.0f} MB", data)
    return result, measure


def fuzz_bytes(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    rng = random.Random(f"{seed}:bytes:{index}")
    size = rng.choice((0, 1, 10, 100, 1000, 5000))
    if rng.random() < 0.5:
        data = bytes(rng.randrange(256) for _ in range(size))
    else:  # bytes that look more like text: printable, newlines, brackets, quotes
        alphabet = b'[]"; \n\t.:0123456789AJQKSHDCplaysGamePlr?' + "é♠".encode()
        data = bytes(rng.choice(alphabet) for _ in range(size))
    try:
        read_and_check(data, "bytes", f"random bytes #{index}")
        both = both_paths(data, ".txt", "bytes", f"random bytes #{index}", f"{seed}:bytes:{index}")
        return Counter({"bytes": 1, "both paths": both}), []
    except Failure as failure:
        return Counter(bytes=1), [failure]


# --- The surfaces of issue 20: files, JSON, configurations, walks, workers, writers -------

class _Hang(Exception):
    """An input that took longer than the alarm allows: a hang."""


def _alarm(seconds: int):
    """A context manager: a _Hang raised in this (the worker's main) thread after ``seconds``."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def armed():
        def ring(signum, frame):
            raise _Hang(f"still running after {seconds} s")

        previous = signal.signal(signal.SIGALRM, ring)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

    return armed()


def _guarded(run, kind: str, what: str, data: bytes):
    """``run()``; a Failure for any exception it raises."""
    try:
        return run()
    except Failure:
        raise
    except Exception as error:  # noqa: BLE001
        raise _exception(kind, error, what, data) from None


_NEST = "\x00NEST\x00"


def _json_mutant(rng: random.Random) -> tuple[str, bytes]:
    """A JSON record (of a simulated game) with one hostile change."""
    import json

    text = _simulated_text(rng)
    games = [record_to_json(r) for r in parse_text(text) if isinstance(r, Record)]
    document = {"file": "fuzz.txt", "games": games}
    places: list[tuple[object, object]] = []  # (container, key) of every value
    stack: list[object] = [document]
    while stack:
        value = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            places.append((value, key))
            stack.append(item)
    kind = rng.choice(("long-number", "surrogate", "nesting", "type", "delete", "huge-string", "float", "duplicate",
                       "bytes", "truncate", "place"))
    container, key = rng.choice(places)
    nest = 0
    if kind == "long-number":
        sign = rng.choice(("", "-"))
        container[key] = _NEST + sign + "".join(rng.choice("123456789") for _ in range(rng.randint(4290, 6000)))
    elif kind == "surrogate":
        strings = [(c, k) for c, k in places if isinstance(c[k], str)]
        c, k = rng.choice(strings) if strings else (container, key)
        at = rng.randint(0, len(str(c[k])))
        c[k] = str(c[k])[:at] + chr(rng.randrange(0xD800, 0xE000)) + str(c[k])[at:]
    elif kind == "nesting":
        nest = rng.choice((rng.randint(1, 100), rng.randint(900, 1100), rng.randint(2000, 100_000)))
        container[key] = _NEST
    elif kind == "type":
        container[key] = rng.choice((None, True, False, 0, -1, 1.5, "", {}, [], "x" * 10, {"a": 1}, [1, [2]]))
    elif kind == "delete" and isinstance(container, dict):
        del container[key]
    elif kind == "huge-string":
        container[key] = rng.choice(("x", "é", "\u202e", "\x1b[2J", "\n")) * rng.randint(1000, 200_000)
    elif kind == "float":
        container[key] = rng.choice((1e308, -1e308, 5e-324, float("nan"), float("inf")))
    elif kind == "place":  # a line or column that JSON Schema's integer takes and referee must not (issue 38)
        numbered = [(c, k) for c, k in places if k in ("line", "column")]
        c, k = rng.choice(numbered) if numbered else (container, key)
        c[k] = rng.choice((float(c[k]) if isinstance(c[k], int) else 1.0, 1e308, True, False, 0, 10 ** rng.randint(12, 4000)))
    elif kind == "duplicate" and games:
        document["games"] = games * rng.randint(2, 50)
    text = json.dumps(document, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    marker = '"\\u0000NEST\\u0000'  # json.dumps escapes the NULs whatever ensure_ascii says
    if marker in text:
        at = text.index(marker)
        end = text.index('"', at + len(marker))
        inner = text[at + len(marker):end] or "1"
        opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
        text = text[:at] + opener * nest + inner + closer * nest + text[end + 1:]
    data = text.encode("utf-8", "surrogatepass")
    if kind == "bytes":
        flipped = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            flipped[rng.randrange(len(flipped))] = rng.randrange(256)
        data = bytes(flipped)
    elif kind == "truncate":
        data = data[:rng.randrange(len(data))]
    return kind, data


def fuzz_json(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """A mutated JSON record: read and checked, and now and then run through check and import."""
    from referee.convert.importer import read_json

    rng = random.Random(f"{seed}:json:{index}")
    kind, data = _json_mutant(rng)
    what = f"JSON record #{index} ({kind}, {len(data)} bytes)"
    counts = Counter({"json": 1, f"json {kind}": 1})

    def run() -> int:
        found = 0
        for item in read_json("fuzz.json", data):
            if isinstance(item, RecordError):
                str(item)
            else:
                found += len(check(item).violations)
        return found

    try:
        _, measure = bounded(lambda: _guarded(run, "json", what, data), len(data), "json", what, data)
        _MEASURES.append(measure)
        if index % 10 == 0:
            for args in (["check", "-"], ["import", "--no-config", "-"]):
                run_cli(args, _Input(io.BytesIO(data)), "json", what, data)
        counts["both paths"] += both_paths(data, ".json", "json", what, f"{seed}:json:{index}")
    except Failure as failure:
        return counts, [failure]
    return counts, []


CONFIG_VALUES = ('"text"', '"json"', '"nope"', "true", "3", "-1", "1e400", "[]", '["a", 1]', '[".txt", "rec"]',
                 '"\\u001b[2J"', '"\\u202e"', "{}", '{a = 1}', '"BC"', '["BC-FALSE-SLAP"]', '["XX-NOPE"]', '"2026-01-01"',
                 "1979-05-27T07:32:00Z", '"' + "x" * 5000 + '"')
CONFIG_KEYS = ("extensions", "exclude", "force-exclude", "format", "select", "ignore", "strict", "fmt", "games",
               "nope", "\u202ekey", '"a\\u001bb"')
GAME_TABLES = ("bataille-corse", "caroleto", "carte-et-plouc", "belote", "flaschenteufel", "pierre-qui-roule", "x\u202e")


def _config_text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 6)):
        lines.append(f"{rng.choice(CONFIG_KEYS)} = {rng.choice(CONFIG_VALUES)}")
    if rng.random() < 0.4:
        ranks = rng.choice(('"french"', '"english"', "1"))
        lines.append(f"[fmt]\nsuits = {rng.choice(CONFIG_VALUES)}\nranks = {ranks}")
    if rng.random() < 0.5:
        game = rng.choice(GAME_TABLES)
        if rng.random() < 0.3:
            lines.append(f"[games]\n{game} = {rng.choice(CONFIG_VALUES)}")
        else:
            lines.append(f"[games.{game}]")
            for _ in range(rng.randint(0, 3)):
                lines.append(f"{rng.choice(('Slaps', 'Penalty', 'Variants', 'Nope', 'Target'))} = {rng.choice(CONFIG_VALUES)}")
    if rng.random() < 0.15:
        depth = rng.choice((10, 500, 1000, 5000, 50_000))
        lines.insert(0, "deep = " + rng.choice(("[" * depth + "]" * depth, "{a = " * depth + "1" + "}" * depth)))
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.2:
        data = bytearray(text.encode())
        for _ in range(rng.randint(1, 4)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        text = data.decode("utf-8", "surrogateescape")
    return text


def fuzz_config(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """A mutated configuration: named with --config, and found by the upward search:
    a Config or a ConfigError, never an exception; run through check now and then."""
    from referee.config import ConfigError, find, load

    rng = random.Random(f"{seed}:config:{index}")
    text = _config_text(rng)
    pyproject = rng.random() < 0.3
    if pyproject:
        text = "[tool.referee]\n" + text.replace("[fmt]", "[tool.referee.fmt]").replace("[games", "[tool.referee.games")
    data = text.encode("utf-8", "surrogateescape")
    what = f"configuration #{index} ({len(data)} bytes)"
    counts = Counter({"config": 1})
    folder = tempfile.mkdtemp(prefix="fuzz-config-")
    try:
        os.mkdir(os.path.join(folder, ".git"))
        path = os.path.join(folder, "pyproject.toml" if pyproject else "referee.toml")
        Path(path).write_bytes(data)

        def run() -> None:
            for read in (lambda: load(path), lambda: find(folder)):
                try:
                    read()
                except ConfigError as error:
                    str(error)

        _, measure = bounded(lambda: _guarded(run, "config", what, data), len(data), "config", what, data)
        _MEASURES.append(measure)
        if index % 5 == 0:
            run_cli(["check", "--config", path, "-"], _Input(io.BytesIO((HEAD + "Alice plays 7H\n").encode())),
                    "config", what, data)
    except Failure as failure:
        return counts, [failure]
    finally:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return counts, []


def _tree(rng: random.Random, folder: Path) -> list[str]:
    """A folder of records with hostile things in it; the kinds put there."""
    import socket
    import stat as stat_module

    kinds = []
    (folder / "club" / "sub").mkdir(parents=True)
    for n in range(rng.randint(1, 6)):
        where = folder / "club" / rng.choice(("", "sub"))
        text = HEAD + "Alice plays 7H\n" if rng.random() < 0.5 else _simulated_text(rng)
        (where / f"r{n}.txt").write_text(text, encoding="utf-8")
    hostile = ("fifo", "loop", "self", "zero", "stdin", "null", "socket", "dangling", "file-link", "locked",
               "deep", "control-name", "empty")
    for kind in rng.sample(hostile, rng.randint(1, 5)):
        where = folder / "club" / rng.choice(("", "sub"))
        name = rng.choice(("x.txt", "y", "z.txt"))
        target = where / f"{kind}-{name}"
        try:
            if kind == "fifo":
                os.mkfifo(target)
            elif kind == "loop":
                os.symlink("..", where / f"up-{rng.randrange(100)}")
            elif kind == "self":
                os.symlink(".", where / f"here-{rng.randrange(100)}")
            elif kind in ("zero", "stdin", "null"):
                os.symlink(f"/dev/{kind}", target)
            elif kind == "socket":
                with socket.socket(socket.AF_UNIX) as server:
                    server.bind(str(target))
            elif kind == "dangling":
                os.symlink("nowhere.txt", target)
            elif kind == "file-link":
                os.symlink(folder / "club" / "r0.txt", target)
            elif kind == "locked":
                locked = where / f"locked-{rng.randrange(100)}"
                locked.mkdir()
                (locked / "l.txt").write_text(HEAD, encoding="utf-8")
                locked.chmod(0)
            elif kind == "deep":
                fd = os.open(where, os.O_RDONLY)
                for _ in range(18):
                    os.mkdir("d" * 250, dir_fd=fd)
                    deeper = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
                    os.close(fd)
                    fd = deeper
                os.close(fd)
            elif kind == "control-name":
                (where / "a\x1b[2J\u202e.txt").write_text(HEAD + "Alice plays 7H\n", encoding="utf-8")
            elif kind == "empty":
                target.write_bytes(b"")
            kinds.append(kind)
        except OSError:
            continue
    del stat_module
    return kinds


def _unlock(folder: Path) -> None:
    for top, folders, _ in os.walk(folder):
        for name in folders:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                try:
                    os.chmod(path, 0o700)
                except OSError:
                    pass


def fuzz_tree(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """A folder tree with named pipes, link loops, unreadable folders and special files,
    walked by check, fmt, state and explain: no hang, no exception, exit 0, 1 or 2."""
    import shutil

    rng = random.Random(f"{seed}:tree:{index}")
    folder = Path(tempfile.mkdtemp(prefix="fuzz-tree-"))
    counts = Counter({"tree": 1})
    here = os.getcwd()
    try:
        kinds = _tree(rng, folder)
        counts.update(f"tree {k}" for k in kinds)
        what = f"folder tree #{index} ({', '.join(kinds)})"
        os.chdir(folder)
        target = rng.choice(("club", "club/**/*.txt", "club/*/*", "club/**", "club/sub/*.txt", "club/**/"))
        commands = [["check", "-q", target], ["fmt", "--check", target], ["fmt", target]]
        if rng.random() < 0.1:
            commands.append(["check", "-q", "--jobs", "2", target])
        named = [str(p.relative_to(folder)) for p in sorted((folder / "club").iterdir())]
        if named:
            one = rng.choice(named)
            commands += [["check", one], ["state", one], ["explain", f"{one}:3"], ["fmt", "--check", one]]
        for args in commands:
            try:
                with _alarm(60):
                    _, measure = bounded(lambda: run_cli(args, _Input(io.BytesIO(b"")), "tree", what, b""), 0, "tree",
                                         f"{what}: referee {' '.join(args)}", b"")
                _MEASURES.append(measure)
            except _Hang as hang:
                raise Failure("tree", f"a walk hangs ({args[0]})", f"{what}: referee {' '.join(args)}: {hang}", b"")
    except Failure as failure:
        return counts, [failure]
    finally:
        os.chdir(here)
        _unlock(folder)
        shutil.rmtree(folder, ignore_errors=True)
    return counts, []


_SUMMARY_PARTS = (("violations", "summary.violations"), ("errors", "summary.errors"), ("missing", "summary.missing"),
                  ("in_progress", "summary.in-progress"), ("never_ends", "summary.never-ends"), ("valid", "summary.valid"))
"""The parts of a check's summary line, by the name they are counted under and their sentence."""


def _pattern(key: str, name: str, **inner: tuple[str, list[str]]) -> tuple[str, list[str]]:
    """A regular expression for a sentence of the English catalogue (either of its forms),
    each number in it a group, and the names of those numbers in order: ``{count}`` is
    ``name``, another field is what ``inner`` gives for it (a pattern and its names)."""
    import re

    from referee.sentences import ENGLISH

    message = ENGLISH[key]
    forms = message if isinstance(message, tuple) else (message,)
    fields = re.findall(r"\{(\w+)\}", forms[0])
    names = [n for f in fields for n in ([name] if f == "count" else inner[f][1])]
    out = []
    for form in dict.fromkeys(forms):
        text = re.escape(form)
        for field in fields:
            text = text.replace(re.escape("{" + field + "}"), r"(\d+)" if field == "count" else inner[field][0], 1)
        out.append(text)
    return "(?:" + "|".join(out) + ")", names


def _numbers(found: re.Match[str], names: list[str]) -> dict[str, int]:
    """The numbers a match of a ``_pattern`` caught, by name (of each alternative, the one
    that matched)."""
    return dict(zip(names, (int(g) for g in found.groups() if g is not None)))


def parse_summary(line: str) -> dict[str, int]:
    """The counts of ``referee check``'s summary line (English): games by status
    (violations, errors, missing, in_progress, never_ends, valid), ``faults``, ``games``
    and ``files`` in all (given only for more than one file), ``accepted``; a count it
    does not give is 0. Built from the message catalogue, so that every oracle reads the
    line the check writes today (tests/test_fuzz_summary.py keeps it so); ValueError for
    a line it cannot read."""
    import re

    from referee.sentences import ENGLISH

    counts = {name: 0 for name, _ in _SUMMARY_PARTS} | {"faults": 0, "games": 0, "files": 0, "accepted": 0}
    rest = line
    for ending, names in (_pattern("report.summary-accepted", "accepted"),
                          _pattern("summary.total", "", games=_pattern("summary.games", "games"),
                                   files=(r"(\d+)", ["files"]))):
        found = re.search(ending + r"\Z", rest)
        if found:
            counts.update(_numbers(found, names))
            rest = rest[:found.start()]
    if rest == ENGLISH["summary.nothing"]:
        return counts
    for piece in rest.split(str(ENGLISH["summary.separator"])):
        for name, key in _SUMMARY_PARTS:
            pattern, names = _pattern(key, name, faults=_pattern("summary.faults", "faults"))
            found = re.fullmatch(pattern, piece)
            if found:
                counts.update(_numbers(found, names))
                break
        else:
            raise ValueError(f"not a summary line: {line!r} ({piece!r})")
    return counts


_KILLER = """
import os, signal, sys
from referee.cli import batch
from referee.cli import main
batch.BATCH_FILES = int(sys.argv[2])
checked = batch._in_worker
def killing(paths, settings):
    if any(p.endswith("kill.txt") for p in paths):
        os.kill(os.getpid(), signal.SIGKILL)
    return checked(paths, settings)
killing.__module__, killing.__qualname__ = "__main__", "killing"
batch._in_worker = killing
main(["check", "--no-config", "-q", "--jobs", sys.argv[3], sys.argv[1]])
"""


def fuzz_killed(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """``check --jobs`` with a worker killed mid-batch (as the out-of-memory killer would):
    exit 2, no traceback, every file counted, only the killed batch not checked."""
    import shutil
    import subprocess

    rng = random.Random(f"{seed}:killed:{index}")
    folder = Path(tempfile.mkdtemp(prefix="fuzz-killed-"))
    files = rng.randint(5, 120)
    batch_files = rng.choice((1, 2, 4, 8, 32))
    what = f"killed worker #{index} ({files} files, batches of {batch_files})"
    try:
        kill = rng.randrange(files)
        for n in range(files):
            (folder / ("kill.txt" if n == kill else f"r{n:03d}.txt")).write_text(HEAD + "Alice plays 7H\n", encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", _KILLER, str(folder), str(batch_files), str(rng.choice((2, 3)))],
                              capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        lost = done.stdout.count("its worker process failed")
        try:
            summary = parse_summary(done.stdout.splitlines()[-1] if done.stdout else "")
        except ValueError as error:
            raise Failure("killed", "the summary line cannot be read", f"{what}: {error}", b"") from None
        counted = sum(summary[name] for name, _ in _SUMMARY_PARTS)
        if done.returncode != 2 or "Traceback" in done.stderr or summary["files"] != files or counted != files \
                or not 1 <= summary["errors"] <= batch_files or not 1 <= lost <= batch_files \
                or "kill.txt: this file could not be checked" not in done.stdout:
            raise Failure("killed", "a killed worker is not reported as its batch alone",
                          f"{what}: exit {done.returncode}, {lost} lost; {done.stderr[-300:]} {done.stdout[-300:]}", b"")
    except subprocess.TimeoutExpired:
        return Counter(killed=1), [Failure("killed", "a killed worker hangs the run", what, b"")]
    except Failure as failure:
        return Counter(killed=1), [failure]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return Counter(killed=1), []


_WRITER = """
import random, sys, time
from referee.files.lock import LockHeld, RecordLock
from referee.files.record_file import RecordFile
path, name, lines, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rng = random.Random(name)
for n in range(lines):
    for attempt in range(100000):
        try:
            with RecordLock(path, "play"):
                with RecordFile.open(path) as opened:
                    line = f"{name} plays {n}\\n"
                    if mode == "append" or (mode == "mixed" and rng.random() < 0.5):
                        opened.append(line)
                    else:
                        opened.replace(opened.read_text() + line)
            break
        except LockHeld:
            time.sleep(rng.random() / 1000)
    else:
        sys.exit("never got the lock")
"""


def fuzz_writers(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """Two writers on one record, each taking the lock for every line (appended, or the
    file rewritten as fmt does): every line of both is there once, whole, none lost."""
    import shutil
    import subprocess

    rng = random.Random(f"{seed}:writers:{index}")
    folder = Path(tempfile.mkdtemp(prefix="fuzz-writers-"))
    long_name = rng.random() < 0.3  # 241 to 255 bytes: the lock's and the temporary file's names are hashed (issue 38)
    path = folder / ("é" * rng.randint(119, 125) + "a" * rng.randint(0, 1) + ".txt" if long_name else "game.txt")
    path.write_text(HEAD, encoding="utf-8")
    lines = rng.randint(5, 60)
    modes = [rng.choice(("append", "replace", "mixed")) for _ in range(2)]
    what = (f"two writers #{index} ({lines} lines each, {modes[0]} and {modes[1]}, "
            f"a name of {len(os.fsencode(path.name))} bytes)")
    try:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), name, str(lines), mode], env=env,
                                    stderr=subprocess.PIPE, text=True) for name, mode in zip(("Alice", "Bob"), modes)]
        errors = [w.communicate(timeout=300)[1] for w in writers]
        text = path.read_text(encoding="utf-8")
        expected = sorted(f"{name} plays {n}" for name in ("Alice", "Bob") for n in range(lines))
        got = sorted(line for line in text[len(HEAD):].split("\n") if line)
        if any(w.returncode for w in writers) or not text.startswith(HEAD) or got != expected:
            raise Failure("writers", "two writers lost or mixed lines",
                          f"{what}: {len(got)} of {len(expected)} lines; {' '.join(errors)[-300:]}", text.encode())
        if sorted(p.name for p in folder.iterdir()) != [path.name]:
            raise Failure("writers", "two writers left files behind", f"{what}: {os.listdir(folder)}", b"")
    except subprocess.TimeoutExpired:
        return Counter(writers=1), [Failure("writers", "two writers hang", what, b"")]
    except Failure as failure:
        return Counter(writers=1), [failure]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return Counter(writers=1), []


_OUTPUT_KINDS = ("new", "regular", "fifo", "null", "full", "link", "dangling-link", "block", "socket", "folder",
                 "full-disk", "stdout-append", "stdout-pipe", "stdout-full")
_OUTPUT_FORMATS = ("text", "concise", "json", "jsonl", "junit", "sarif", "github", "html")
_REFUSED = {"link", "dangling-link", "block", "socket", "folder", "full", "full-disk", "stdout-full"}
"""The targets ``-o`` must refuse, or must fail on (exit 2, said)."""


def _output_target(kind: str, folder: Path) -> Path | None:
    """The FILE of ``-o`` for a kind of target, made in ``folder``; None when this machine
    cannot make it (a device node without the right to)."""
    import socket
    import stat as st

    target = folder / "report.out"
    if kind in ("regular", "full-disk"):
        target.write_text("the last report\n", encoding="utf-8")
        target.chmod(0o640)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind in ("null", "full", "block"):
        numbers = {"null": os.stat("/dev/null").st_rdev, "full": os.stat("/dev/full").st_rdev if os.path.exists("/dev/full")
                   else None, "block": os.makedev(240, 77)}[kind]  # 240: a number no driver holds
        if numbers is None:
            return None
        try:
            os.mknod(target, (st.S_IFBLK if kind == "block" else st.S_IFCHR) | 0o666, numbers)
        except (OSError, AttributeError):
            return None
    elif kind == "link":
        (folder / "victim").write_bytes(b"secret\n")
        os.symlink("victim", target)
    elif kind == "dangling-link":
        os.symlink("nowhere", target)
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(target))
    elif kind == "folder":
        target.mkdir()
    return target


def _full_disk(folder: Path):
    """A context manager: writes and syncs of files under ``folder`` fail as on a full disk
    (the first write takes half of its bytes first)."""
    import contextlib
    import errno

    @contextlib.contextmanager
    def full():
        write, fsync, calls = os.write, os.fsync, []

        def here(fd: int) -> bool:
            try:
                return os.readlink(f"/proc/self/fd/{fd}").startswith(str(folder))
            except OSError:
                return False

        def failing_write(fd: int, data) -> int:
            if not here(fd):
                return write(fd, data)
            calls.append(fd)
            if len(calls) == 1 and len(data) > 1:
                return write(fd, bytes(data)[:len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        def failing_fsync(fd: int) -> None:
            if here(fd):
                raise OSError(errno.ENOSPC, "No space left on device")
            fsync(fd)

        os.write, os.fsync = failing_write, failing_fsync
        try:
            yield
        finally:
            os.write, os.fsync = write, fsync

    return full()


def _kind_of(path: Path) -> tuple[int, int] | None:
    try:
        status = os.lstat(path)
    except OSError:
        return None
    return status.st_mode & 0o170000, status.st_rdev


def fuzz_output(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """``check -o FILE`` (issue 38) for a record and a format, FILE being a new name, a
    regular file, a named pipe, a device node (a copy of /dev/null's or /dev/full's, a block
    device), a link, a socket, a folder, a full disk, or /dev/stdout appended to a file,
    into a pipe or into a copy of /dev/full (never the machine's own devices): never a
    traceback; what is not a regular file or a new name stays what it was; a link's target
    is never written; no temporary file is left; the targets that must be refused or that
    cannot take the report exit 2, the others 0 or 1 with the report there."""
    import shutil
    import subprocess
    import threading

    rng = random.Random(f"{seed}:output:{index}")
    kind, form = rng.choice(_OUTPUT_KINDS), rng.choice(_OUTPUT_FORMATS)
    text = HEAD + "Alice plays 7H\n" if rng.random() < 0.5 else _simulated_text(rng)
    data = text.encode("utf-8")
    what = f"-o #{index} to {kind} ({form}, {len(data)} bytes)"
    counts = Counter({"output": 1, f"output {kind}": 1})
    folder = Path(tempfile.mkdtemp(prefix="fuzz-output-"))
    record = folder / "game.txt"
    record.write_bytes(data)
    try:
        target = _output_target(kind, folder)
        if target is None:
            return Counter({"output": 1, "output skipped": 1}), []
        before = _kind_of(target)
        args = ["check", "--no-config", "--format", form, "-o", str(target), str(record)]
        got: list[bytes] = []
        if kind.startswith("stdout"):
            args[args.index(str(target))] = "/dev/stdout"
            log = folder / "ci.log"
            log.write_bytes(b"earlier steps\n")
            if kind == "stdout-full":  # never the machine's /dev/full: a version that renames would replace it
                full = _output_target("full", folder)
                if full is None:
                    return Counter({"output": 1, "output skipped": 1}), []
                target, before = full, _kind_of(full)
            sink = {"stdout-append": lambda: open(log, "ab"), "stdout-pipe": lambda: None,
                    "stdout-full": lambda: open(target, "wb")}[kind]()
            try:
                done = subprocess.run([sys.executable, "-m", "referee", *args], stdout=sink or subprocess.PIPE,
                                      stderr=subprocess.PIPE, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
            finally:
                if sink is not None:
                    sink.close()
            status, said = done.returncode, done.stderr.decode("utf-8", "replace")
            if "Traceback" in said:
                raise Failure("output", f"a traceback ({kind})", f"{what}: {said[-300:]}", data)
            if kind == "stdout-append":
                written = log.read_bytes()
                got.append(written[len(b"earlier steps\n"):] if written.startswith(b"earlier steps\n") else b"")
            elif kind == "stdout-pipe":
                got.append(done.stdout)
        else:
            reader = None
            if kind == "fifo":
                reader = threading.Thread(target=lambda: got.append(target.read_bytes()), daemon=True)
                reader.start()
            try:
                with _alarm(60):
                    def run() -> int:
                        return run_cli(args, _Input(io.BytesIO(b"")), "output", what, data)

                    if kind == "full-disk":
                        with _full_disk(folder):
                            status, measure = bounded(run, len(data), "output", what, data)
                    else:
                        status, measure = bounded(run, len(data), "output", what, data)
                    _MEASURES.append(measure)
            except _Hang as hang:
                raise Failure("output", f"-o hangs ({kind})", f"{what}: {hang}", data) from None
            finally:
                if reader is not None:
                    reader.join(10)
                    if reader.is_alive():  # never opened for writing: let the reader go
                        os.close(os.open(target, os.O_WRONLY | os.O_NONBLOCK))
                        reader.join(10)
            if kind in ("new", "regular"):
                got.append(target.read_bytes() if target.is_file() else b"")
        if (status == 2) != (kind in _REFUSED):
            raise Failure("output", f"-o to {kind} exits {status}", f"{what}: exit {status}", data)
        if kind not in ("new", "regular", "stdout-append", "stdout-pipe") and _kind_of(target) != before:
            raise Failure("output", f"-o replaced a {kind}", f"{what}: {before} became {_kind_of(target)}", data)
        if kind == "regular" and os.stat(target).st_mode & 0o777 != 0o640:
            raise Failure("output", "-o lost the file's mode", what, data)
        if kind == "full-disk" and target.read_bytes() != b"the last report\n":
            raise Failure("output", "-o on a full disk changed the old report", what, data)
        if kind == "link" and (folder / "victim").read_bytes() != b"secret\n":
            raise Failure("output", "-o wrote through a link", what, data)
        if kind in ("new", "regular", "fifo", "stdout-append", "stdout-pipe") and (not got or not got[0]):
            raise Failure("output", f"-o to {kind} wrote no report", what, data)
        left = [name for name in os.listdir(folder) if name.startswith(".")]
        if left:
            raise Failure("output", f"-o left a temporary file ({kind})", f"{what}: {left}", data)
    except subprocess.TimeoutExpired:
        return counts, [Failure("output", f"-o hangs ({kind})", what, data)]
    except Failure as failure:
        return counts, [failure]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return counts, []


# --- The table page and the language server, in-process (issue 38) ---------------------------

def _surface_text(rng: random.Random) -> bytes:
    """A record for the page or the editor: a simulated game with one or more events
    changed, a hostile input, a record with a hostile number, or random bytes."""
    draw = rng.random()
    if draw < 0.45:
        text = _simulated_text(rng)
        for _ in range(rng.randint(1, 3)):
            mutation = mutate(text, rng)
            if mutation is None:
                break
            text = mutation.text
        return text.encode("utf-8")
    if draw < 0.75:
        return hostile_input(rng.choice(("line", "blank-run", "comment-run", "header-run", "violation-run", "control",
                                         "long-game")), rng)
    if draw < 0.9:
        return number_input(rng)
    alphabet = b'[]"; \n\t.:0123456789AJQKSHDCplaysGamePlr?' + "é♠".encode()
    return bytes(rng.choice(alphabet) if rng.random() < 0.9 else rng.randrange(256) for _ in range(rng.randint(0, 400)))


def _next_lines(data: bytes, rng: random.Random) -> list[str]:
    """Lines to send as moves: legal ones (the next events of a simulated game of the
    record's game, most of them legal where the record stands), and hostile ones."""
    lines: list[str] = []
    try:
        game = next((r for r in parse_text(data.decode("utf-8", "replace")) if isinstance(r, Record)), None)
        name = game.game if game is not None and game.game in simulable_games() else rng.choice(simulable_games())
        cls = rules_class(name)
        players = len(game.players) if game is not None and cls.min_players <= len(game.players) <= cls.max_players \
            else cls.min_players
        events = [line for line in simulate(name, players, rng.randrange(1_000_000), max_events=40).split("\n")
                  if line and not line.startswith(("[", ";"))]
        lines += events[:rng.randint(1, 6)]
    except Exception:  # noqa: BLE001 - the record is hostile; the page is what is under test
        pass
    for _ in range(rng.randint(1, 4)):
        lines.append(rng.choice((_pathological_line(rng)[:rng.choice((50, 500, 5000))],
                                 rng.choice(PREFIXES) + rng.choice(FILLERS) + rng.choice(STRAYS),
                                 "".join(rng.choice(CONTROLS) for _ in range(3)), "", " ", "\n\n", "Alice plays 7H\n[Game \"x\"]")))
    rng.shuffle(lines)
    return lines


def _answer(kind: str, what: str, data: bytes, answer, request: str) -> None:
    """A page's answer: under 500 and no traceback in it."""
    if answer.status_code >= 500:
        raise Failure(kind, f"answer {answer.status_code} ({request})", f"{what}: {request}: {answer.status_code}", data)
    if b"Traceback" in answer.content:
        raise Failure(kind, f"a traceback in the answer ({request})", f"{what}: {request}", data)


def fuzz_serve(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """The table page on a mutated or hostile record, in-process: the page, the record,
    moves legal and not, undo asked and confirmed, a new game on an empty file; every
    answer under 500 with no traceback in it, each request bounded in time and memory."""
    import itertools
    import shutil

    from starlette.testclient import TestClient

    from referee.serve.app import make_app
    from referee.serve.table import Served

    rng = random.Random(f"{seed}:serve:{index}")
    data = _surface_text(rng)
    what = f"served record #{index} ({len(data)} bytes)"
    counts = Counter({"serve": 1})
    folder = Path(tempfile.mkdtemp(prefix="fuzz-serve-"))
    tick = itertools.count()
    origin = {"origin": "http://testserver"}
    try:
        path = folder / "table.txt"
        path.write_bytes(data)
        empty = folder / "empty.txt"
        empty.write_bytes(b"" if rng.random() < 0.7 else b"\n \n")
        lang = {"accept-language": rng.choice(("en", "fr", "fr-FR,fr;q=0.9", "de", "é".encode(), b"\xff;q=\x00"))}  # bytes as sent
        moves = _next_lines(data, rng)

        def game_form() -> dict[str, str]:
            game = rng.choice((*simulable_games(), "", "belote", "x\u202e", "bataille corse"))
            form = {"game": game, "players": rng.choice(("Ann Ben", "Ann Ben Cas Dom", "Ann", "", "Ann, Ben, Cas",
                                                         "Ann Ann", "\x1b[2J Ben", "a" * 300 + " b")),
                    "dealer": rng.choice(("", "Ann", "Zoe", "\u202e"))}
            for _ in range(rng.randint(0, 3)):
                form["option." + rng.choice(("Slaps", "Penalty", "Variants", "Target", "Hands", "Nope"))] = \
                    rng.choice(("", "pair", "burn-3", "2", "²", "9" * 400, "x y z"))
            return form

        for name, target in (("record", path), ("empty", empty)):
            served = _guarded(lambda: Served(str(target)), "serve", what, data)
            app, pages = make_app(served, None, {"testserver"}, clock=lambda: float(next(tick)))
            client = TestClient(app)
            if name == "record":
                requests = [("GET", "/", {}), ("GET", "/record.txt", {}), ("GET", "/?lang=fr", {})]
                for line in moves:
                    form = {"line": line}
                    if rng.random() < 0.3:
                        form["choice"] = rng.choice(("", "write", "cancel", "accept", "x"))
                    if rng.random() < 0.3:
                        form["version"] = rng.choice(("0", "1", "-1", "x", "²", "9" * 20))
                        form["start"] = rng.choice(("", "0"))
                    requests.append(("POST", "/line", form))
                    if rng.random() < 0.2:
                        requests.append(("POST", "/line", {"group": rng.choice(("Ann", "", "Zoe")),
                                                           "cards": rng.choice(("7H 8H", "", "??", "7H" * 50)),
                                                           "suit": rng.choice(("H", "", "x"))}))
                requests += [("POST", "/undo", {}), ("POST", "/undo", {"confirm": rng.choice((moves[-1], "", "x"))}),
                             ("GET", "/record.txt", {}), ("GET", "/", {})]
            else:
                requests = [("GET", "/", {}), ("POST", "/new", game_form()), ("GET", "/", {}),
                            ("POST", "/line", {"line": rng.choice(moves)}), ("GET", "/record.txt", {}),
                            ("POST", "/undo", {}), ("POST", "/new", game_form())]
            try:
                for method, url, form in requests:
                    request = f"{method} {url}"
                    call = (lambda: client.get(url, headers=lang, follow_redirects=False)) if method == "GET" else \
                        (lambda: client.post(url, data=form, headers={**origin, **lang}, follow_redirects=False))
                    with _alarm(60):
                        try:
                            answer, measure = bounded(lambda: _guarded(call, "serve", f"{what}, {request}", data),
                                                      len(data), "serve", f"{what}, {request} ({name})", data)
                        except _Hang as hang:
                            raise Failure("serve", f"a request hangs ({request})", f"{what}: {request}: {hang}", data) from None
                    _MEASURES.append(measure)
                    _answer("serve", what, data, answer, request)
                    counts["serve requests"] += 1
            finally:
                pages.hub.close()
                client.close()
    except Failure as failure:
        return counts, [failure]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return counts, []


def fuzz_lsp(index: int, seed: int) -> tuple[Counter, list[Failure]]:
    """The language server's document model and features on a mutated or hostile record,
    in-process: opened, edited at random, asked its diagnostics, completions and hovers
    (and now and then its code actions, formatting and symbols) at random places; no
    exception, each step bounded in time and memory."""
    from referee.lsp import features
    from referee.lsp.model import Document

    rng = random.Random(f"{seed}:lsp:{index}")
    data = _surface_text(rng)
    text = data.decode("utf-8", "replace")
    what = f"editor document #{index} ({len(data)} bytes)"
    counts = Counter({"lsp": 1})
    snippets = ("\n", "\n\n", " ", "7H", "??", '[Game "caroleto"]\n', '[Notation "fr"]\n', '[Match "m"]\n', "Alice plays ",
                "Alice", "; expect BC-FALSE-SLAP", "-- round 2\n", "\u202e", "\x00", "é", "²", "[", '"', *FILLERS)

    def position(document) -> tuple[int, int]:
        line = rng.randint(1, len(document.lines) + 1)
        return line, rng.randint(1, len(document.line(line)) + 2) if line <= len(document.lines) else 1

    try:
        document = Document(str(Path(tempfile.gettempdir()) / "fuzz-lsp" / "record.txt"))
        for step in range(rng.randint(2, 8)):
            if step:
                lines = text.split("\n")
                at = rng.randrange(len(lines))
                column = rng.randint(0, len(lines[at]))
                edit = rng.random()
                if edit < 0.5:
                    lines[at] = lines[at][:column] + rng.choice(snippets) + lines[at][column:]
                elif edit < 0.75:
                    lines[at] = lines[at][:column] + lines[at][column + rng.randint(1, 20):]
                elif edit < 0.9 and len(lines) > 1:
                    del lines[at:at + rng.randint(1, 5)]
                else:
                    other = rng.randrange(len(lines))
                    lines.insert(at, lines[other])
                text = "\n".join(lines)

            def ask() -> int:
                document.update(text)
                found = len(document.problems())
                for _ in range(rng.randint(1, 4)):
                    features.complete(document, *position(document))
                    features.hover(document, *position(document))
                if rng.random() < 0.3:
                    first, last = sorted((position(document)[0], position(document)[0]))
                    features.actions(document, first, last)
                if rng.random() < 0.1:
                    features.format_edits(document)
                    features.symbols(document)
                return found

            with _alarm(60):
                try:
                    _, measure = bounded(lambda: _guarded(ask, "lsp", f"{what}, step {step}", text.encode("utf-8", "replace")),
                                         len(text), "lsp", f"{what}, step {step}", text.encode("utf-8", "replace"),
                                         lambda found: found, kept=True)  # the model keeps every report
                except _Hang as hang:
                    raise Failure("lsp", "a step hangs", f"{what}, step {step}: {hang}", text.encode("utf-8", "replace")) from None
            _MEASURES.append(measure)
            counts["lsp steps"] += 1
    except Failure as failure:
        return counts, [failure]
    return counts, []


def _task(args):
    """One task, its slowest input and the largest in memory of its runs that keep only a
    few violations (the command line's): (seconds, megabytes, what, kept)."""
    kind, *rest = args
    _MEASURES.clear()
    counts, failures = {"game": fuzz_one, "bytes": fuzz_bytes, "hostile": fuzz_hostile,
                        "json": fuzz_json, "config": fuzz_config, "tree": fuzz_tree, "killed": fuzz_killed,
                        "writers": fuzz_writers, "output": fuzz_output, "numbers": fuzz_numbers,
                        "serve": fuzz_serve, "lsp": fuzz_lsp}[kind](*rest)
    none = (0.0, 0.0, "", False)
    slowest = max(_MEASURES, key=lambda m: m[0], default=none)
    largest = max((m for m in _MEASURES if not m[3]), key=lambda m: m[1], default=none)
    return counts, failures, slowest, largest


def save(failure: Failure, folder: Path, number: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    slug = "".join(c if c.isalnum() else "-" for c in failure.signature.lower()).strip("-")[:60]
    path = folder / f"fuzz-{number:03d}-{failure.kind}-{slug}.open"
    first = failure.detail.splitlines()[0]
    note = (f"; OPEN BUG found by bench/fuzz.py ({failure.kind}): {failure.signature}.\n"
            f"; {first[:300]}\n"
            f"; Exercises: reading and checking must give a report or a RecordError, never an exception;\n"
            f"; a mutated record is flagged at the changed line or after it. Rename to .txt (with\n"
            f"; '; expect' lines) or .unreadable once fixed.\n")
    path.write_bytes(note.encode() + failure.data)
    return path


SURFACE_OPTIONS = (
    ("json", 0, "mutated JSON records (long numbers, lone surrogates, deep nesting, wrong types)"),
    ("config", 0, "mutated configurations (wrong keys and values, deep nesting, bytes)"),
    ("tree", 0, "folder trees with named pipes, link loops, unreadable folders and special files"),
    ("killed", 0, "check --jobs runs with a worker killed mid-batch"),
    ("writers", 0, "two writers on one record, under its lock"),
    ("output", 0, "check -o to a FIFO, a device node, a link, a socket, /dev/stdout, a full disk (issue 38)"),
    ("numbers", 0, "records with hostile numbers at every place a record writes one (issue 38)"),
    ("serve", 0, "the table page in-process on a mutated or hostile record: the page, moves, undo, a new game (issue 38)"),
    ("lsp", 0, "the language server's model and features on a mutated record: edits, diagnostics, completion, hover (issue 38)"),
)
SURFACES = tuple(kind for kind, _, _ in SURFACE_OPTIONS)
"""The surfaces of issues 20 and 38, each its own kind of input."""


def run_fuzz(args) -> int:
    games = simulable_games()
    tasks = [("game", g, i, args.seed, args.mutations, args.max_events) for i in range(args.games) for g in games]
    tasks += [("bytes", i, args.seed) for i in range(args.bytes)]
    tasks += [("hostile", i, args.seed) for i in range(args.hostile)]
    for kind in SURFACES:
        tasks += [(kind, i, args.seed) for i in range(getattr(args, kind))]
    random.Random(args.seed).shuffle(tasks)  # the long inputs spread over the run
    counts: Counter = Counter()
    found: dict[str, tuple[Failure, int]] = {}
    errors = 0
    slowest = largest = (0.0, 0.0, "", False)
    started = time.time()
    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs)
        results = pool.map(_task, tasks, chunksize=16)
    else:
        pool, results = None, map(_task, tasks)
    stopped, done = False, 0
    for done, (c, failures, slow, large) in enumerate(results, 1):
        if args.until is not None and time.time() > args.until:
            stopped = True  # what was tried so far is reported; the rest is not run
            break
        counts.update(c)
        slowest, largest = max(slowest, slow, key=lambda m: m[0]), max(largest, large, key=lambda m: m[1])
        for failure in failures:
            errors += 1
            if failure.signature not in found:
                found[failure.signature] = (failure, 0)
                print(f"NEW ERROR {failure.signature}\n  {failure.detail.splitlines()[0][:500]}", flush=True)
            found[failure.signature] = (found[failure.signature][0], found[failure.signature][1] + 1)
        if done % 500 == 0:
            print(f"  {done}/{len(tasks)} inputs, {errors} errors, {time.time() - started:.0f}s", flush=True)
    if pool:
        pool.shutdown(cancel_futures=True)
    elapsed = time.time() - started
    if stopped:
        print(f"\nstopped at the time given (--until): {done - 1} of {len(tasks)} tasks run")

    tried = sum(counts[key] for key in ("records", "mutated", "garbled", "bytes", "hostile", *SURFACES))
    print(f"\nfuzz seed {args.seed}: {args.games} simulated record(s) per game ({', '.join(games)}), {elapsed:.0f}s")
    print(f"  records tried: {tried}")
    for key in ("records", "mutated", "garbled", "bytes", "hostile", *SURFACES):
        print(f"    {key:10} {counts[key]}")
    for key in ("hostile", "json", "tree", "output"):
        print(f"  {key + ':':11} " + ", ".join(f"{k.split(' ', 1)[1]} {v}" for k, v in sorted(counts.items())
                                            if k.startswith(key + " ")))
    if BOTH["compiled"]:
        print(f"  both paths: {counts['both paths']} inputs run by {BOTH['python']} compiled and pure "
              f"(a share of {BOTH['share']:.2%} of the numbers, JSON, hostile and random-byte inputs)")
    else:
        print(f"  both paths: not run ({BOTH['why']})")
    print(f"  slowest input: {slowest[0]:.2f} s ({slowest[1]:.1f} MB), {slowest[2][:200]}")
    print(f"  largest input in memory (the command line, or reading alone): {largest[1]:.1f} MB ({largest[0]:.2f} s), {largest[2][:200]}")
    print(f"  bounds per input: {LIMITS['seconds']:.0f} s + {LIMITS['seconds_per_mb']:.0f} s per MB + "
          f"{LIMITS['seconds_per_violation'] * 1e6:.0f} µs per violation, {LIMITS['memory_mb']:.0f} MB over what the process held")
    print("  mutations:  " + ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("mutated ")))
    print("  garbles:    " + ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("garbled ")))
    print("  mutated records' status: " + ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("status ")))
    print(f"  errors found: {errors} ({len(found)} kind(s))")
    for number, (signature, (failure, times)) in enumerate(sorted(found.items()), 1):
        line = f"    {times:6} x {signature}"
        if args.save:
            line += f"  -> {save(failure, Path(args.regressions), number)}"
        print(line)
    return 1 if errors else 0


def run_memory(args) -> int:
    from referee.notation import read_games

    games = [simulate("bataille-corse", 2 + s % 4, s, hidden=s % 3 == 1) for s in range(40)]
    block = "\n".join(games).encode()
    target = args.memory_mb * 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "large.txt"
        with open(path, "wb") as out:
            for _ in range(target // len(block) + 1):
                out.write(block)
        size = path.stat().st_size
        check(next(read_games(str(path))))
        import tracemalloc

        started = time.time()
        tracemalloc.start()
        count = Counter()
        for item in read_games(str(path)):
            count["error" if isinstance(item, RecordError) else check(item).status] += 1
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        elapsed = time.time() - started
    print(f"memory: {size / 1e6:.1f} MB, {sum(count.values())} games ({dict(count)}), "
          f"peak traced Python memory {peak / 1e6:.2f} MB ({100 * peak / size:.2f}% of the file), {elapsed:.0f}s")
    return 0 if peak < size / 10 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="simulated records per game (default 1000)")
    parser.add_argument("--mutations", type=int, default=3, help="mutated copies of each record (default 3)")
    parser.add_argument("--bytes", type=int, default=None, help="random byte inputs (default: as many as --games)")
    parser.add_argument("--hostile", type=int, default=None, help="hostile inputs (default: as many as --games)")
    for kind, default, helped in SURFACE_OPTIONS:
        parser.add_argument(f"--{kind}", type=int, default=default, help=f"{helped} (default {default})")
    parser.add_argument("--until", default=None, metavar="HH:MM",
                        help="stop taking inputs at this time of day (UTC) and report what was tried")
    parser.add_argument("--max-seconds", type=float, default=LIMITS["seconds"], help="time bound per input (default 2)")
    parser.add_argument("--seconds-per-mb", type=float, default=LIMITS["seconds_per_mb"], help="more time per MB of input (default 20)")
    parser.add_argument("--seconds-per-violation", type=float, default=LIMITS["seconds_per_violation"],
                        help="more time per violation found (default 0.0001)")
    parser.add_argument("--max-memory-mb", type=float, default=LIMITS["memory_mb"], help="memory bound per input (default 75)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-events", type=int, default=1500, help="events per simulated record at most (default 1500)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--regressions", default=str(ROOT / "records" / "regressions"))
    parser.add_argument("--no-save", dest="save", action="store_false", help="do not save failing records")
    parser.add_argument("--memory-mb", type=int, default=0, help="run the memory check on a file of this many MB instead")
    parser.add_argument("--both-python", default=sys.executable,
                        help="the Python whose installed referee runs both paths, compiled and pure (default: this one)")
    parser.add_argument("--both-share", type=float, default=BOTH["share"],
                        help="the share of the numbers, JSON, hostile and random-byte inputs run on both paths (default 0.02)")
    args = parser.parse_args(argv)
    if args.memory_mb:
        return run_memory(args)
    if args.until is not None:
        import datetime

        hours, minutes = map(int, args.until.split(":"))
        now = datetime.datetime.now(datetime.timezone.utc)
        args.until = now.replace(hour=hours, minute=minutes, second=0, microsecond=0).timestamp()
    if args.bytes is None:
        args.bytes = args.games
    if args.hostile is None:
        args.hostile = args.games
    BOTH.update(python=args.both_python, share=args.both_share, compiled=args.both_share > 0 and compiled_install(args.both_python))
    BOTH["why"] = ("--both-share 0" if args.both_share <= 0 else
                   f"the referee installed for {args.both_python} is not compiled: `pip install .` (not editable) builds it")
    LIMITS.update(seconds=args.max_seconds, seconds_per_mb=args.seconds_per_mb,
                  seconds_per_violation=args.seconds_per_violation, memory_mb=args.max_memory_mb)
    return run_fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
