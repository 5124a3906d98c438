"""``referee explain``: the rule behind a violation code, and why referee ruled as it did
on a line of a record.

For a code: the rule it breaks, quoted (``RULES[CODES[code]]`` of each game that reports
it; for the engine's ``REC-*`` codes, the notation's rule too, from
referee/record_rules.py), the convention referee follows (the message ``why.<CODE>``),
and an example record that breaks it (``EXAMPLES[code]``), with what referee says of it.
For a place (``FILE:LINE``, as reports write it): the violations on that line, or, for
a legal event, the game's ruling in words (``Rules.ruling``), and what comes next."""

from __future__ import annotations

import difflib
import io
import re
import textwrap
from dataclasses import dataclass, field

from .. import record_rules
from ..cards import cards_named_in
from ..games.codes import known_codes, refereed
from ..engine import LOST_FAULTED, LOST_WINDOW, GameReport, check_games
from ..games import find_game, shared_examples
from ..games.base import SetupError, Violation
from ..text.fit import fit, terminal_width
from ..convert.importer import read_any
from ..messages import ENGLISH, help_text, join, say
from ..messages import shape as said_shape
from ..notation import RecordError, read_games
from ..text.numbers import LINE_DIGITS, whole
from ..record import Record
from ..text.safe_text import visible_lines
from ..state import checked_game_at, rules_at, source_line, state_of

CODE = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
PLACE = re.compile(r"(?P<path>.+?):(?P<line>[0-9]+)(?::[0-9]+)?")
WIDTH = 80


@dataclass
class Explanation:
    code: str
    rules: list[tuple[str, str]] = field(default_factory=list)
    """(where the rule comes from, the rule quoted)."""
    why: str = ""
    conventions: list[tuple[str, str]] = field(default_factory=list)
    """(a game, its own convention for the code), where it says more (``why.<game>.<CODE>``)."""
    examples: list[tuple[str, str]] = field(default_factory=list)
    """(the game's name, a record that breaks the rule)."""


def explanation(code: str) -> Explanation | None:
    """What referee says of a code; None for a code no game reports."""
    games = [cls for cls in refereed() if code in cls.CODES]
    if not games and code not in record_rules.CODES:
        return None
    found = Explanation(code, why=say(f"why.{code}") if f"why.{code}" in ENGLISH else "")
    if code in record_rules.CODES:
        key = record_rules.CODES[code]  # the notation's own rules, written in English: translated
        found.rules.append((say("explain.notation"), help_text(f"notation-rule.{key}", record_rules.RULES[key])))
    for cls in games:
        quoted = cls.RULES.get(cls.CODES[code], "")
        if quoted and (cls.title, quoted) not in found.rules:
            found.rules.append((cls.title, quoted))
        if f"why.{cls.name}.{code}" in ENGLISH:
            found.conventions.append((cls.title, say(f"why.{cls.name}.{code}")))
        if code in cls.EXAMPLES:
            found.examples.append((cls.name, cls.EXAMPLES[code]))
    if not found.examples and code in shared_examples.EXAMPLES:
        text = shared_examples.EXAMPLES[code]
        game = re.search(r'\[Game "([^"]+)"\]', text)
        found.examples.append((game.group(1) if game else "", text))
    return found


def verdict(text: str) -> list[Violation]:
    """What referee says of an example record: its violations, the accepted ones left out."""
    return [v for _, report in check_games(read_games("<example>", io.BytesIO(text.encode("utf-8"))))
            for v in report.violations if not v.accepted]


def in_readers_notation(text: str) -> tuple[str, list[Violation]]:
    """An example record in the notation of the language in use, and what referee says of
    it as shown: French notation for a French reader, written by ``fmt --notation fr``. As
    written when it cannot be read, or when rewritten it would not draw the same faults
    (an example of the notation itself)."""
    from ..messages import language

    flagged = verdict(text)
    if language() != "fr" or '[Notation "fr"]' in text:
        return text, flagged
    from ..convert.formatter import Formatter, Style
    from ..notation import RecordError, parse_text

    records = parse_text(text)
    if any(isinstance(r, RecordError) for r in records):
        return text, flagged
    french = Formatter(Style(notation="fr")).text(r for r in records if not isinstance(r, RecordError))
    flagged_french = verdict(french)
    same = [v.code for v in flagged_french] == [v.code for v in flagged]
    return (french, flagged_french) if same else (text, flagged)


def _wrap(label: str, text: str, width: int = WIDTH) -> list[str]:
    return textwrap.wrap(say("label.value", label=label, value=text), width, initial_indent="  ", subsequent_indent="    ",
                         break_on_hyphens=False, break_long_words=False)


def render_code(found: Explanation, width: int = WIDTH) -> list[str]:
    """What ``referee explain CODE`` prints, in lines of at most ``width`` columns (a word
    longer than that stays whole)."""
    shape = said_shape(found.code) if found.code in ENGLISH else ""  # the message's fields left out
    readable = re.search(r"\w", shape) and not re.search(r"…\W*…", shape)  # not "… …, but …": the examples say it
    title = say("label.value", label=found.code, value=shape) if readable else found.code
    lines = textwrap.wrap(title, width, subsequent_indent="    ", break_on_hyphens=False, break_long_words=False)
    for source, quoted in found.rules:
        lines += _wrap(say("explain.rule", source=source), f"« {quoted} »", width)
    lines += _wrap(say("explain.why"), found.why, width)
    for game, convention in found.conventions:
        lines += _wrap(say("explain.why-in", game=game), convention, width)
    for game, example in found.examples:
        text, flagged = in_readers_notation(example)
        lines += fit("  " + say("label.value", label=say("explain.example", game=game), value="").rstrip(), width)
        lines += [cut for line in text.rstrip("\n").split("\n") for cut in fit(("    " + line).rstrip(), width, 8)]
        entry = find_game(game)
        if entry is None or entry.module is None:
            lines += fit("  " + say("explain.not-refereed", game=game), width)
            continue
        for v in flagged:
            if v.code != found.code:
                continue
            lines += _wrap(say("explain.says"), f"{v.line}:{v.column} {v.code} {v.message}", width)
    return lines


# --- Every code (referee explain --list) -------------------------------------------------------

def code_groups() -> list[tuple[str, list[str]]]:
    """Every code, grouped as ``referee explain --list`` shows them: each game's own codes
    under its title, a code that several games report once under their titles together,
    then the record's own ``REC-*`` codes (the notation's, for every game)."""
    games: dict[str, list[str]] = {}
    for cls in refereed():
        for code in cls.CODES:
            if code not in record_rules.CODES and not code.startswith("REC-"):
                games.setdefault(code, []).append(cls.title)
    groups: dict[tuple[str, ...], list[str]] = {}
    for code, titles in games.items():
        groups.setdefault(tuple(titles), []).append(code)
    listed = [(join(titles), sorted(codes)) for titles, codes in sorted(groups.items(), key=lambda g: len(g[0]) > 1)]
    records = [c for c in known_codes() if c not in games]
    return [*listed, (say("explain.list.record"), records)]


def title(code: str) -> str:
    """A code's one-line title (``title.<CODE>``)."""
    return say(f"title.{code}")


def code_list() -> list[str]:
    """Every code with its title, grouped (``referee explain --list``)."""
    lines: list[str] = []
    width = max(len(code) for code in known_codes())
    for heading, codes in code_groups():
        lines += ([""] if lines else []) + [heading]
        lines += [f"  {code.ljust(width)}  {title(code)}" for code in codes]
    return lines


def anchor(code: str) -> str:
    """The anchor of a code's heading in docs/codes.md (as GitHub and most renderers make it)."""
    return code.lower()


def codes_page() -> str:
    """docs/codes.md: every code with its title under a heading of its own (SARIF's
    ``helpUri`` points there), and where its game's conventions are written; in English,
    written by ``python -m referee.cli.explain`` and checked by the tests."""
    pages = {cls.title: f"games/{cls.name}.md" for cls in refereed()}
    lines = ["# Every code", "",
             "Every code `referee check` reports, grouped by game, with its one-line title; the same list as",
             "`referee explain --list`. `referee explain CODE` quotes the rule, says the convention referee",
             "follows and shows a record that breaks it. This page is written by `python -m referee.cli.explain`.", ""]
    for heading, codes in code_groups():
        lines += [f"## {heading}", ""]
        games = [title for title in pages if title in heading]
        where = ", ".join(f"[{title}]({pages[title]})" for title in games) or "[the notation](notation.md)"
        for code in codes:
            lines += [f"### {code}", "", f"{title(code)[0].upper()}{title(code)[1:]}. Conventions: {where}; "
                      f"`referee explain {code}`.", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


# --- A line of a record ----------------------------------------------------------------------

def explain_place(path: str, line: int, width: int = WIDTH, terminal: bool = False) -> list[str]:
    """Why referee ruled as it did on a line of a record, in lines of at most ``width``
    columns (the first, the place and the line as written, cut only on a terminal)."""
    record, report = checked_game_at(read_any(path), line)  # text or JSON, as check reads it
    if isinstance(record, RecordError):
        if record.line == line:
            return [f"{path}:{line}", *_wrap(say("explain.unreadable"), record.message, width)]
        raise record
    with cards_named_in(record.french):  # as check names a French record's cards
        return explain_line(path, line, record, report, width, terminal)


def explain_line(path: str, line: int, record: Record, report: GameReport, width: int = WIDTH, terminal: bool = False) -> list[str]:
    """Why referee ruled as it did on a line of a game, given its report (with its
    match's faults), in lines of at most ``width`` columns (the first cut only on a
    terminal); RecordError when the game has no such line."""
    source = source_line(record, line)
    if source is None:
        raise RecordError(path, line, 1, say("explain.no-line", line=line))
    lines = fit(f"{path}:{line}  {source.strip()}", width if terminal else None, 4)
    faults = [v for v in report.violations if v.line == line]
    for v in faults:
        lines += _wrap(f"{v.line}:{v.column} {v.code}", v.message + (say("explain.accepted") if v.accepted else ""), width)
        if v.rule:
            lines += _wrap(say("explain.rule-short"), f"« {v.rule} »", width)
        lines += _wrap(say("explain.why"), say(f"why.{v.code}"), width)
    if faults:
        lines += _wrap(say("explain.more"), join(f"referee explain {c}" for c in dict.fromkeys(v.code for v in faults)), width)
    event = next((e for e in record.events if e.line == line), None)
    if event is None:
        if not faults:
            key = "explain.header" if any(h.line == line for h in record.headers) else "explain.no-event"
            lines += _wrap(say("explain.ruled"), say(key), width)
        return lines
    if not any(not v.accepted for v in faults):
        try:
            rules = rules_at(record, line - 1)
        except SetupError as error:
            lines += _wrap(say("explain.ruled"), str(error), width)
            return lines
        if rules.lost_at:  # the events after it are counted, not ruled
            lines += _wrap(say("explain.ruled"), say("explain.not-followed", line=rules.lost_at, faulted=LOST_FAULTED, window=LOST_WINDOW), width)
            return lines
        rules.over(event)
        known = event.verb in rules.verbs and (event.player in rules.players or event.verb == "round")
        ruling = rules.ruling(event) if known else None
        lines += _wrap(say("explain.ruled"), say("explain.legal", ruling=ruling or say("explain.nothing-against")), width)
    after = state_of(record, line)
    lines += [line for todo in after.todo for line in _wrap(say("explain.then"), todo, width)]
    return lines


# --- The command -----------------------------------------------------------------------------

def _line_number(place: re.Match[str]) -> int:
    """The line of a FILE:LINE; RecordError for a number no record has a line of (more
    than LINE_DIGITS digits)."""
    digits = place["line"]
    number = whole(digits, LINE_DIGITS)
    if number is None:
        raise RecordError(place["path"], 0, 0, say("explain.line-too-large", digits=len(digits)))
    return number


def run(targets: tuple[str, ...]) -> int:
    """``referee explain CODE... | FILE:LINE...``: exit status 0, or 2 when a code is
    unknown or a place cannot be read. No target: every code with its title."""
    import sys


    terminal = terminal_width()
    width = terminal or WIDTH  # piped: 80 columns, as the docs show it
    if not targets:
        print("\n".join(code_list()))
        return 0
    status = 0
    for i, target in enumerate(targets):
        if i:
            print()
        code = target.strip().upper()
        place = PLACE.fullmatch(target.strip())
        if CODE.fullmatch(code) and not place:
            found = explanation(code)
            if found is None:
                close = difflib.get_close_matches(code, known_codes(), n=1, cutoff=0.6)
                hint = say("syntax.did-you-mean", suggestion=close[0]) if close else ""
                print(say("explain.unknown-code", code=target, hint=hint), file=sys.stderr)
                status = 2
                continue
            print("\n".join(render_code(found, width)))
        elif place:
            try:
                print(visible_lines("\n".join(explain_place(place["path"], _line_number(place), width, terminal is not None))))
            except RecordError as error:
                print(str(error), file=sys.stderr)
                status = 2
        else:
            print(say("explain.what", target=target), file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":  # python -m referee.cli.explain: writes docs/codes.md
    from pathlib import Path

    from ..messages import use

    use("en", explicit=False)
    (Path(__file__).resolve().parents[2] / "docs" / "codes.md").write_text(codes_page(), encoding="utf-8")
