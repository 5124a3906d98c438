"""The output formats of ``referee check``: each a Writer fed one game's report at a time.

A writer hands what it writes to ``emit``, in chunks: a string, or for the text format a
list of lines of styled pieces, a game's at once (the command's printer shows them, in
colour on a terminal). So the same writer prints at once in one process, or collects a
file's chunks in a worker of ``--jobs``, which the main process prints in the files' order.

| format | what | streams |
|---|---|---|
| text | the report for people (referee/reports/report.py) | each game |
| concise | one line per finding, ``path:line:col: CODE message`` | each violation |
| json | a JSON array, one object per game (schemas/report.schema.json) | each violation |
| jsonl | the same objects, one per line | each violation |
| github | GitHub Actions ``::error`` annotations | each violation |
| junit | JUnit XML: a testsuite per file, a testcase per game | each file |
| sarif | SARIF 2.1.0: a result per violation | each violation |
| html | one self-contained page (referee/html/) | the page at the end |

What a record or a file name brings is made visible first (referee/text/safe_text.py: no
control character reaches the output), then escaped for the format's own syntax."""

from __future__ import annotations

import os
from collections.abc import Callable

from ..engine import Found, GameReport
from ..games.base import Violation
from ..text.fit import fit
from ..messages import in_clauses, join, say
from ..notation import RecordError
from ..record import Record
from .report import SHOWN_PER_KIND, render, to_json, violation_json
from ..text.safe_text import visible
# imported by name from here too:
from .writer import (
    Emit as Emit, Selected as Selected, Settings as Settings, Summary as Summary, Writer as Writer,
)



def _unreadable(report: GameReport) -> list[RecordError]:
    """What could not be read in a game (RecordError values): the lines, or the game."""
    return report.errors or ([report.error] if report.error is not None else [])


def _place(path: str, line: int, column: int) -> str:
    return f"{path}:{line}:{column}" if line else path


# --- text and concise -----------------------------------------------------------------------

class TextWriter(Writer):
    """The report for people (referee/reports/report.py), game by game; a chunk is a list of lines
    of pieces: a game's whole report, or the lines at the end."""

    STREAMS = False

    def __init__(self, emit: Emit, settings: Settings):
        super().__init__(emit, settings)
        self.KEEP = SHOWN_PER_KIND

    def game(self, item: Record | RecordError, report: GameReport, found: Found | None) -> None:
        self.emit(render(report, report.sources, self.settings.width))

    def end(self, summary: Summary) -> None:
        lines = [[(cut, "")] for line in self.lines_at_end(summary)
                 for cut in fit(line, self.settings.width)]  # on a terminal, cut between words
        if lines:
            self.emit(lines)


class ConciseWriter(Writer):
    """One line per finding, as compilers write them, that editors open at the spot; a
    line that cannot be read comes before the violations found after it."""

    def __init__(self, emit: Emit, settings: Settings):
        super().__init__(emit, settings)
        self.path = ""
        self.record: Record | None = None
        self.told = 0

    def sink(self, record: Record) -> Found:
        self.path, self.record, self.told = record.path, record, 0
        return super().sink(record)

    def _errors(self, errors: list[RecordError]) -> None:
        """The lines that cannot be read not told yet."""
        for e in errors[self.told:]:
            self._error(e)
        self.told = len(errors)

    def _error(self, e: RecordError) -> None:
        self.emit(visible(f"{_place(e.path, e.line, e.column)}: {say('format.error')}: {e.message}") + "\n")

    def _violation(self, v: Violation) -> None:
        if self.record is not None:
            self._errors(self.record.errors)
        if not (v.accepted and self.settings.quiet):
            self._finding(v)

    def _finding(self, v: Violation) -> None:
        mark = say("report.accepted-label") + " " if v.accepted else ""
        self.emit(visible(f"{_place(self.path, v.line, v.column)}: {v.code} {mark}{v.message}") + "\n")

    def game(self, item: Record | RecordError, report: GameReport, found: Found | None) -> None:
        self.path = report.file
        for v in self._streamed(report, found):
            self._violation(v)
        self._errors(_unreadable(report))
        self.record, self.told = None, 0  # the next game may come with no sink (a file that cannot be read)
        if report.status == "in-progress" and self.settings.strict:
            self._in_progress(report)

    def _in_progress(self, report: GameReport) -> None:
        todo = in_clauses(report.todo_words()) or say("report.in-progress")
        self.emit(visible(f"{_place(report.file, report.line, 1)}: {say('format.in-progress')}: {todo}") + "\n")

    def end(self, summary: Summary) -> None:
        self.emit("".join(line + "\n" for line in self.lines_at_end(summary)))


# --- GitHub Actions -------------------------------------------------------------------------

def github_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub documents (toolkit's escapeData)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A workflow command's property value (file, title), escaped as GitHub documents
    (toolkit's escapeProperty): ``:`` and ``,`` would end it."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubWriter(ConciseWriter):
    """``::error file=…,line=…,col=…,title=CODE::message`` annotations for GitHub Actions;
    an accepted ruling is a notice. The summary is a plain line of the log."""

    def _command(self, kind: str, path: str, line: int, column: int, title: str, message: str) -> None:
        where = f"file={github_property(visible(path))}"
        if line:
            where += f",line={line},col={max(column, 1)}"
        self.emit(f"::{kind} {where},title={github_property(visible(title))}::{github_data(message)}\n")

    def _finding(self, v: Violation) -> None:
        title = f"{v.code} {say('report.accepted-label')}" if v.accepted else v.code
        message = visible(v.message) + (f"\n« {v.rule} »" if v.rule else "")
        self._command("notice" if v.accepted else "error", self.path, v.line, v.column, title, message)

    def _error(self, e: RecordError) -> None:
        self._command("error", e.path, e.line, e.column, say("report.error"), visible(e.message))

    def _in_progress(self, report: GameReport) -> None:
        todo = "\n".join(visible(t) for t in report.todo_words())
        self._command("error", report.file, report.line, 1, say("report.in-progress"), todo or say("report.in-progress"))


# --- JSON and JSON lines ------------------------------------------------------------------

class JsonWriter(Writer):
    """``json``: an array of the games' reports (schemas/report.schema.json), each game's
    violations written as they are found, so that however many they take no memory."""

    SEPARATOR = ","
    KEEP = 1
    OPEN, GAP, CLOSE = "[", "\n", "\n]\n"

    def __init__(self, emit: Emit, settings: Settings):
        import json  # here: a text report does without it (start-up)

        super().__init__(emit, settings)
        self.dumps: Callable[[object], str] = lambda data: json.dumps(data, ensure_ascii=False)
        self.streamed = 0
        self.record: Record | None = None

    def begin(self) -> None:
        self.emit(self.OPEN)

    def end(self, summary: Summary) -> None:
        self.emit(self.CLOSE)

    def _next_game(self) -> None:
        self.emit(("," if self.written else "") + self.GAP)
        self.written += 1

    def sink(self, record: Record) -> Found:
        self.record, self.streamed = record, 0
        return super().sink(record)

    def _violation(self, violation: Violation) -> None:
        if not self.streamed:
            assert self.record is not None  # the game's sink: its first violation
            self._next_game()
            self.emit(f'{{"file": {self.dumps(self.record.path)}, "line": {self.record.line}, "violations": [')
        self.emit((", " if self.streamed else "") + self.dumps(violation_json(violation)))
        self.streamed += 1

    def game(self, item: Record | RecordError, report: GameReport, found: Found | None) -> None:
        data = to_json(report)
        if not self.streamed:
            self._next_game()
            self.emit(self.dumps(data))
        else:
            for violation in self._streamed(report, found):  # found after the game: its match's
                self._violation(violation)
            for key in ("file", "line", "violations"):
                del data[key]
            self.emit("], " + self.dumps(data)[1:])
        self.emit(self.AFTER)
        self.streamed, self.record = 0, None

    AFTER = ""


class JsonLinesWriter(JsonWriter):
    """``jsonl``: the same objects as ``json``, one game per line, each written as it is
    checked (its violations as they are found)."""

    SEPARATOR = ""
    OPEN, GAP, CLOSE, AFTER = "", "", "", "\n"

    def _next_game(self) -> None:
        self.written += 1


# --- JUnit XML ------------------------------------------------------------------------------

def _xml(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(visible(text), {'"': "&quot;"})


def _xml_lines(lines: list[str]) -> str:
    """Lines as the text of an element: each made visible and escaped, one per line (a
    line end joined in first would be made visible as ``\\n``)."""
    return "\n".join(_xml(line) for text in lines for line in text.split("\n"))


class JunitWriter(Writer):
    """JUnit XML for CI dashboards: a ``testsuite`` per file, a ``testcase`` per game. A
    game with violations has a ``failure`` (one line per violation, as ``concise`` writes
    them, at most 10 of a kind), one that cannot be read an ``error``; a game in progress
    fails under --strict. Accepted rulings, the result and what is to do now go to
    ``system-out``. --quiet does not apply: a dashboard counts the games that pass."""

    STREAMS = False

    def __init__(self, emit: Emit, settings: Settings):
        super().__init__(emit, settings)
        self.KEEP = SHOWN_PER_KIND
        self.cases: list[str] = []
        self.counts = {"tests": 0, "failures": 0, "errors": 0}

    def begin(self) -> None:
        self.emit('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="referee">\n')

    def end(self, summary: Summary) -> None:
        self.emit("</testsuites>\n")

    def shows(self, report: GameReport) -> bool:
        return True

    def file_start(self, path: str) -> None:
        super().file_start(path)
        self.cases, self.counts = [], {"tests": 0, "failures": 0, "errors": 0}

    def file_end(self, path: str) -> None:
        counts = " ".join(f'{k}="{v}"' for k, v in self.counts.items())
        self.emit(f'  <testsuite name="{_xml(path)}" {counts} skipped="0">\n' + "".join(self.cases) + "  </testsuite>\n")
        self.cases = []

    def game(self, item: Record | RecordError, report: GameReport, found: Found | None) -> None:
        self.counts["tests"] += 1
        name = f"{report.file}:{report.line}" + (f" {report.game} ({join(report.players)})" if report.game else "")
        case = f'    <testcase name="{_xml(name)}" classname="{_xml(report.file)}">\n'
        open_ = [v for v in report.violations if not v.accepted]
        if report.status == "error":
            self.counts["errors"] += 1
            errors = _unreadable(report)
            message = say("report.unreadable", count=report.error_count) if report.errors else errors[0].message
            lines = [str(e) for e in errors] + [f"{v.line}:{v.column}: {v.code} {v.message}" for v in open_]
            case += f'      <error type="unreadable" message="{_xml(message)}">{_xml_lines(lines)}</error>\n'
        elif report.status == "violations":
            self.counts["failures"] += 1
            lines = [f"{v.line}:{v.column}: {v.code} {v.message}" for v in open_]
            lines += [say("report.more", count=n, code=code, keep=self.KEEP) for code, n in report.omitted.items()]
            message = say("report.violations", count=len(open_) + sum(report.omitted.values()))
            case += f'      <failure type="violations" message="{_xml(message)}">{_xml_lines(lines)}</failure>\n'
        elif report.status == "in-progress" and self.settings.strict:
            self.counts["failures"] += 1
            case += f'      <failure type="in-progress" message="{_xml(say("report.in-progress"))}">{_xml_lines(report.todo_words())}</failure>\n'
        out = [f"{v.line}:{v.column}: {v.code} {say('report.accepted-label')} {v.message}" for v in report.violations if v.accepted]
        out += [say(f"report.{report.status}")] if report.status in ("in-progress", "never-ends", "valid") else []
        out += [say("report.to-move", todo=t) for t in report.todo_words()]
        if out:
            case += f"      <system-out>{_xml_lines(out)}</system-out>\n"
        self.cases.append(case + "    </testcase>\n")


# --- SARIF ----------------------------------------------------------------------------------

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    """A file's path as a SARIF URI reference: its bytes percent-encoded (a control
    character and a byte that is not UTF-8 too), so that the URI names the file itself."""
    from urllib.parse import quote

    return quote(os.fsencode(path.replace(os.sep, "/")))


def help_uri(code: str, docs_url: str) -> str:
    """Where a code is documented: its heading in codes.md under ``docs_url``, the
    configuration's ``docs-url`` (an absolute URL: SARIF 2.1.0 asks for one)."""
    from ..cli.explain import anchor

    return f"{docs_url}codes.md#{anchor(code)}"


def rule_help(code: str) -> dict[str, str]:
    """A SARIF rule's ``help``, inline (a viewer needs no page of ours): its title, the
    rule quoted, and what ``referee explain CODE`` says, as text and as Markdown."""
    from ..cli.explain import explanation, render_code

    heading = say(f"title.{code}")
    heading = heading[:1].upper() + heading[1:] + "."
    found = explanation(code)
    if found is None:  # unreadable, in-progress: no rule of a game
        why = say(f"help.{code}")
        return {"text": f"{heading}\n\n{why}", "markdown": f"**{heading}**\n\n{why}"}
    text = "\n".join([heading, "", *render_code(found, width=1 << 20), "", f"referee explain {code}"])
    markdown = [f"**{heading}**", ""]
    for source, quoted in found.rules:
        markdown += [f"{say('explain.rule', source=source)}:", "", f"> « {quoted} »", ""]
    markdown += [f"{say('explain.why')}: {found.why}", ""] if found.why else []
    markdown += [f"{say('explain.why-in', game=game)}: {convention}" for game, convention in found.conventions]
    for game, example in found.examples:
        markdown += ["", f"{say('explain.example', game=game)}:", "", "```", example.rstrip("\n"), "```"]
    markdown += ["", f"`referee explain {code}`"]
    return {"text": text, "markdown": "\n".join(markdown).replace("\n\n\n", "\n\n")}


class SarifWriter(JsonWriter):
    """SARIF 2.1.0 (code scanning): one run, a result per violation, written as found; an
    accepted ruling is a result suppressed in the source, as a linter's ``noqa``. A game
    that cannot be read is a result of rule ``unreadable``, a game in progress under
    --strict one of rule ``in-progress``. The rules come last (JSON keeps no order), each
    with its help inline, and a ``helpUri`` when the configuration gives ``docs-url``."""

    OPEN = '{"version": "2.1.0", "$schema": "' + SARIF_SCHEMA + '", "runs": [{"results": ['
    GAP = "\n"
    STREAMS = True

    def end(self, summary: Summary) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            release = version("referee")
        except PackageNotFoundError:
            release = "0"
        used = {**{code: set() for code in summary.codes}, **summary.rules}
        docs = self.base.docs_url
        rules = [{"id": code, "shortDescription": {"text": say(f"title.{code}")},
                  **({"fullDescription": {"text": "\n\n".join(sorted(quoted))}} if quoted else {}),
                  "help": rule_help(code),
                  **({"helpUri": help_uri(code, docs)} if docs and code not in ("unreadable", "in-progress") else {})}
                 for code, quoted in sorted(used.items())]
        driver = {"name": "referee", "version": release, "rules": rules}
        self.emit("\n], " + self.dumps({"tool": {"driver": driver}})[1:] + "]}\n")

    def _result(self, rule: str, level: str, message: str, path: str, line: int, column: int, **more: object) -> None:
        location: dict[str, object] = {"artifactLocation": {"uri": _uri(path)}}
        if line:
            location["region"] = {"startLine": line, "startColumn": max(column, 1)}
        data = {"ruleId": rule, "level": level, "message": {"text": visible(message)},
                "locations": [{"physicalLocation": location}], **more}
        self._next_game()
        self.emit(self.dumps(data))

    def sink(self, record: Record) -> Found:
        self.path = record.path
        return Writer.sink(self, record)

    def _violation(self, v: Violation) -> None:
        if v.accepted and self.settings.quiet:
            return
        more = {"suppressions": [{"kind": "inSource", "justification": f"; accepted {v.code}"}]} if v.accepted else {}
        self._result(v.code, "error", v.message, self.path, v.line, v.column, **more)

    def game(self, item: Record | RecordError, report: GameReport, found: Found | None) -> None:
        self.path = report.file
        for v in self._streamed(report, found):
            self._violation(v)
        for e in _unreadable(report):
            self._result("unreadable", "error", e.message, e.path, e.line, e.column)
        if report.status == "in-progress" and self.settings.strict:
            self._result("in-progress", "error", in_clauses(report.todo_words()) or say("report.in-progress"), report.file, report.line, 1)


def _html(emit: Emit, settings: Settings) -> Writer:
    from ..html import HtmlWriter  # here: the other formats do without it (start-up)

    return HtmlWriter(emit, settings)


WRITERS: dict[str, Callable[[Emit, Settings], Writer]] = {
    "text": TextWriter, "concise": ConciseWriter, "json": JsonWriter, "jsonl": JsonLinesWriter,
    "github": GithubWriter, "junit": JunitWriter, "sarif": SarifWriter, "html": _html,
}
