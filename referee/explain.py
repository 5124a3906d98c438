"""``referee explain``: the rule behind a violation code, and why referee ruled as it did
on a line of a record.

For a code: the rule it breaks, quoted (``RULES[CODES[code]]`` of each game that reports
it; for the engine's ``REC-*`` codes, the notation's rule too, from
referee/record_rules.py), the convention referee follows (the message ``why.<CODE>``),
and an example record that breaks it (``EXAMPLES[code]``), with what referee says of it.
For a place (``FILE:LINE``, as reports write it): the violations on that line, or, for
a legal event, the game's ruling in words (``Rules.ruling``), and what comes next."""

from __future__ import annotations

import dataclasses
import difflib
import io
import re
import textwrap
from dataclasses import dataclass, field

from . import record_rules
from .games import GAMES, find_game, load_rules
from .games.base import Rules, SetupError, Violation
from .messages import ENGLISH, help_text, join, say, template
from .safe_text import visible_lines

CODE = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
PLACE = re.compile(r"(?P<path>.+?):(?P<line>[0-9]+)(?::[0-9]+)?")
WIDTH = 80


def refereed() -> list[type[Rules]]:
    """The rules of every refereed game."""
    return [load_rules(g) for g in GAMES if g.module is not None]


def known_codes() -> list[str]:
    """Every code a game or the engine can report, in a stable order."""
    codes = dict.fromkeys(record_rules.CODES)
    for cls in refereed():
        codes.update(dict.fromkeys(cls.CODES))
    return sorted(codes, key=lambda c: (c.startswith("REC-"), c))


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
    if not found.examples and code in record_rules.EXAMPLES:
        text = record_rules.EXAMPLES[code]
        game = re.search(r'\[Game "([^"]+)"\]', text)
        found.examples.append((game.group(1) if game else "", text))
    return found


def verdict(text: str) -> list[Violation]:
    """What referee says of an example record: its violations, the accepted ones left out."""
    from .engine import check_games
    from .notation import read_games

    return [v for _, report in check_games(read_games("<example>", io.BytesIO(text.encode("utf-8"))))
            for v in report.violations if not v.accepted]


def _wrap(label: str, text: str) -> list[str]:
    return textwrap.wrap(say("label.value", label=label, value=text), WIDTH, initial_indent="  ", subsequent_indent="    ",
                         break_on_hyphens=False, break_long_words=False)


def render_code(found: Explanation) -> list[str]:
    shape = re.sub(r"\{[^{}]*\}", "…", template(found.code)) if found.code in ENGLISH else ""  # the message's fields left out
    readable = re.search(r"\w", shape) and not re.search(r"…\W*…", shape)  # not "… …, but …": the examples say it
    title = say("label.value", label=found.code, value=shape) if readable else found.code
    lines = textwrap.wrap(title, WIDTH, subsequent_indent="    ", break_on_hyphens=False, break_long_words=False)
    for source, quoted in found.rules:
        lines += _wrap(say("explain.rule", source=source), f"« {quoted} »")
    lines += _wrap(say("explain.why"), found.why)
    for game, convention in found.conventions:
        lines += _wrap(say("explain.why-in", game=game), convention)
    for game, text in found.examples:
        lines.append("  " + say("label.value", label=say("explain.example", game=game), value="").rstrip())
        lines += [("    " + line).rstrip() for line in text.rstrip("\n").split("\n")]
        entry = find_game(game)
        if entry is None or entry.module is None:
            lines.append("  " + say("explain.not-refereed", game=game))
            continue
        for v in verdict(text):
            if v.code != found.code:
                continue
            lines += _wrap(say("explain.says"), f"{v.line}:{v.column} {v.code} {v.message}")
    return lines


# --- A line of a record ----------------------------------------------------------------------

def explain_place(path: str, line: int) -> list[str]:
    """Why referee ruled as it did on a line of a record."""
    from .importer import read_any
    from .notation import RecordError
    from .state import checked_game_at, rules_at, source_line, state_of

    record, report = checked_game_at(read_any(path), line)  # text or JSON, as check reads it
    if isinstance(record, RecordError):
        if record.line == line:
            return [f"{path}:{line}", *_wrap(say("explain.unreadable"), record.message)]
        raise record
    source = source_line(record, line)
    if source is None:
        raise RecordError(path, line, 1, say("explain.no-line", line=line))
    lines = [f"{path}:{line}  {source.strip()}"]
    faults = [v for v in report.violations if v.line == line]
    for v in faults:
        lines += _wrap(f"{v.line}:{v.column} {v.code}", v.message + (say("explain.accepted") if v.accepted else ""))
        if v.rule:
            lines += _wrap(say("explain.rule-short"), f"« {v.rule} »")
        lines += _wrap(say("explain.why"), say(f"why.{v.code}"))
    if faults:
        lines += _wrap(say("explain.more"), join(f"referee explain {c}" for c in dict.fromkeys(v.code for v in faults)))
    event = next((e for e in record.events if e.line == line), None)
    if event is None:
        if not faults:
            key = "explain.header" if any(h.line == line for h in record.headers) else "explain.no-event"
            lines += _wrap(say("explain.ruled"), say(key))
        return lines
    if not any(not v.accepted for v in faults):
        try:
            rules = rules_at(record, line - 1)
        except SetupError as error:
            lines += _wrap(say("explain.ruled"), str(error))
            return lines
        rules.over(event)
        known = event.verb in rules.verbs and (event.player in rules.players or event.verb == "round")
        ruling = rules.ruling(event) if known else None
        lines += _wrap(say("explain.ruled"), say("explain.legal", ruling=ruling or say("explain.nothing-against")))
    after = state_of(record, line)
    lines += [line for todo in after.todo for line in _wrap(say("explain.then"), todo)]
    return lines


# --- The command -----------------------------------------------------------------------------

MAX_DIGITS = 12
"""A line number longer than this is past the end of any record referee reads."""


def _line_number(place: re.Match[str]) -> int:
    """The line of a FILE:LINE; RecordError for a number no record has a line of."""
    from .notation import RecordError

    digits = place["line"]
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise RecordError(place["path"], 0, 0, say("explain.line-too-large", digits=len(digits)))
    return int(digits)


def run(targets: tuple[str, ...]) -> int:
    """``referee explain CODE... | FILE:LINE...``: exit status 0, or 2 when a code is
    unknown or a place cannot be read."""
    import sys

    from .notation import RecordError

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
            print("\n".join(render_code(found)))
        elif place:
            try:
                print(visible_lines("\n".join(explain_place(place["path"], _line_number(place)))))
            except RecordError as error:
                print(str(error), file=sys.stderr)
                status = 2
        else:
            print(say("explain.what", target=target), file=sys.stderr)
            status = 2
    return status
