"""The editor's settings for ``referee lsp`` (``initializationOptions``,
``workspace/didChangeConfiguration``, or the ``referee`` section the server asks for
with ``workspace/configuration``), checked as the configuration file's keys are.

They are given to ``config.resolve`` as the command line's flags are: the editor's
``lang``, ``notation``, ``select`` and ``ignore`` win over the configuration file's
(``select``/``ignore`` replace its own, ``extendSelect`` adds to them; the file's
``per-file-ignores`` still apply). ``severity`` is the editor's alone: how a code (or a
prefix of codes) is shown; so is ``maxProblems``, the most diagnostics shown for a record
(MAX_PROBLEMS: what VS Code shows of a file, the rest dropped; 0 for no limit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import Config, ConfigError, Resolved, codes, resolve
from ..text.locales import languages
from ..messages import say

SEVERITIES = ("error", "warning", "information", "hint")
NOTATIONS = ("en", "fr")
KEYS = ("lang", "notation", "select", "extendSelect", "ignore", "severity", "maxProblems")
MAX_PROBLEMS = 1000
"""The most diagnostics shown for a record, by default: VS Code shows no more of a file
(it drops the others, those of its choice); referee shows the first ones, in the order of
the record, and says how many more there are. A line that throws every turn after it off
in a long game makes thousands of faults, which take longer to word and send than to find."""


@dataclass(frozen=True)
class EditorSettings:
    lang: str | None = None
    notation: str | None = None
    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, str], ...] = ()
    """(code or prefix, severity), the longest first."""
    max_problems: int = MAX_PROBLEMS
    """The most diagnostics shown for a record (0: all of them)."""
    warnings: tuple[str, ...] = field(default=(), compare=False)
    """What was left out, in words (an unknown key, a value of the wrong kind)."""

    def resolve(self, config: Config, path: str) -> Resolved:
        """What the configuration and the editor say for a file (``config.resolve``)."""
        return resolve(config, path, lang=self.lang, notation=self.notation, select=self.select,
                       extend_select=self.extend_select, ignore=self.ignore)

    def severity_of(self, code: str | None, default: str) -> str:
        for name, severity in self.severity:
            if code is not None and (code == name or code.startswith(name if name.endswith("-") else name + "-")):
                return severity
        return default


def read_settings(value: object) -> EditorSettings:
    """The settings in what the editor sent: ``{"referee": {...}}`` or the table itself;
    a key or value that cannot be used is left out and said in ``warnings``."""
    if isinstance(value, dict) and isinstance(value.get("referee"), dict):
        value = value["referee"]
    if not isinstance(value, dict):
        return EditorSettings()
    found: dict[str, Any] = {}
    warnings: list[str] = []

    def bad(key: str, expected: str) -> None:
        warnings.append(say("lsp.setting-left-out", name=key, expected=expected))

    def one_of(key: str, choices: tuple[str, ...]) -> str | None:
        if given in choices:
            return str(given)
        bad(key, say("config.expect.one-of", choices=", ".join(choices)))
        return None

    for key, given in value.items():
        if given is None:
            continue
        if key == "lang":
            found["lang"] = one_of(key, tuple(languages()))
        elif key == "notation":
            found["notation"] = one_of(key, NOTATIONS)
        elif key in ("select", "extendSelect", "ignore"):
            name = "extend_select" if key == "extendSelect" else key
            if not isinstance(given, list) or not all(isinstance(g, str) for g in given):
                bad(key, say("config.expect.strings"))
                continue
            try:
                found[name] = codes(tuple(given), say("lsp.setting", name=key))
            except ConfigError as error:
                warnings.append(str(error))
        elif key == "severity":
            if not isinstance(given, dict) or not all(isinstance(v, str) and v in SEVERITIES for v in given.values()):
                bad(key, say("lsp.expect.severity", choices=", ".join(SEVERITIES)))
                continue
            try:
                named = codes(tuple(given), say("lsp.setting", name=key))
            except ConfigError as error:
                warnings.append(str(error))
                continue
            pairs = zip(named, given.values())
            found["severity"] = tuple(sorted(pairs, key=lambda pair: -len(pair[0])))
        elif key == "maxProblems":
            if not isinstance(given, int) or isinstance(given, bool) or given < 0:
                bad(key, say("lsp.expect.count", example=MAX_PROBLEMS))
                continue
            found["max_problems"] = given
        else:
            warnings.append(say("lsp.setting-unknown", name=key, keys=", ".join(KEYS)))
    return EditorSettings(**{k: v for k, v in found.items() if v is not None}, warnings=tuple(warnings))
