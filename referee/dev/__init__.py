"""Every file of the project that a program writes, written again or checked in one go:
``python -m referee.dev generate`` (``--check``: write nothing, say what is stale, exit 1).

Each generator makes its files' whole content from their sources; the generators run in
the order of ``GENERATORS``, each seeing what those before it wrote (the catalogue is
compiled from the .po just extracted, the French conventions page said from that
compiled catalogue). A tool for a checkout of the project (it needs grammar/, Lark and
Babel: ``pip install -e '.[test]'``), never run by referee itself."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: the folder that holds referee/, grammar/ and docs/."""


class Unavailable(Exception):
    """A generator cannot run here (a tool missing, or no checkout)."""


@dataclass(frozen=True)
class Generator:
    name: str
    what: str
    """What it writes, from what (``python -m referee.dev list``)."""
    make: Callable[[], dict[str, bytes]]
    """Each file it writes (its path from the checkout, with ``/``) and its whole content."""
    fresh: bool = False
    """Run in a new process: it reads what an earlier generator wrote through a module
    that keeps it once read (the compiled catalogue), or needs ``PYTHONHASHSEED=0``."""


def _relative(path: str) -> str:
    return Path(os.path.relpath(path, ROOT)).as_posix()


def _needs(module: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise Unavailable(f"needs {module} (pip install -e '.[{extra}]')")


def _parser() -> dict[str, bytes]:
    """grammar/generate.py's files (Lark's stand-alone parser and the lexer of ``start``)."""
    script = ROOT / "grammar" / "generate.py"
    if not script.is_file():
        raise Unavailable(f"needs a checkout of referee ({script} not found)")
    _needs("lark", "test")
    spec = importlib.util.spec_from_file_location("referee_grammar_generate", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    generated: dict[str, str] = module.generated()
    return {path: text.encode("utf-8") for path, text in generated.items()}


def _codes() -> dict[str, bytes]:
    """docs/codes.md, as ``python -m referee.cli.explain`` writes it."""
    from ..cli.explain import codes_page
    from ..messages import use

    use("en", explicit=False)
    return {"docs/codes.md": codes_page().encode("utf-8")}


def _translated() -> list[str]:
    """The languages with a catalogue (a .po), as ``python -m referee.dev.catalogue`` finds them."""
    from ..text.locales import LOCALE_DIR, po_path

    return sorted(lang for lang in os.listdir(LOCALE_DIR) if os.path.isfile(po_path(lang)))


def _catalogues() -> dict[str, bytes]:
    """Each language's .po, as ``python -m referee.dev.catalogue extract`` writes it."""
    _needs("babel", "i18n")
    from .catalogue import merged, po_bytes
    from ..text.locales import po_path

    return {_relative(po_path(lang)): po_bytes(merged(lang)) for lang in _translated()}


def _compiled() -> dict[str, bytes]:
    """Each language's .mo, as ``python -m referee.dev.catalogue compile`` writes it."""
    _needs("babel", "i18n")
    from .catalogue import compiled
    from ..text.locales import mo_path

    return {_relative(mo_path(lang)): compiled(lang) for lang in _translated()}


def _conventions() -> dict[str, bytes]:
    """docs/<lang>/conventions.md, as ``python -m referee.dev.catalogue docs`` writes it."""
    from .catalogue import conventions_page

    return {f"docs/{lang}/conventions.md": conventions_page(lang).encode("utf-8") for lang in _translated()}


GENERATORS = (
    Generator("parser", "referee/_grammar_*.py from grammar/record.lark and referee/text/french.py (grammar/generate.py)",
              _parser, fresh=True),
    Generator("codes", "docs/codes.md from the games' codes and the catalogue's English (python -m referee.cli.explain)", _codes),
    Generator("catalogue", "referee/locale/<lang>/LC_MESSAGES/referee.po from referee/sentences/ and the help "
              "(python -m referee.dev.catalogue extract)", _catalogues),
    Generator("compiled", "referee/locale/<lang>/LC_MESSAGES/referee.mo from the .po (python -m referee.dev.catalogue compile)",
              _compiled),
    Generator("conventions", "docs/<lang>/conventions.md from the catalogue (python -m referee.dev.catalogue docs)",
              _conventions, fresh=True),
)
"""Every generator, in the order they run."""


def files_of(generator: Generator) -> dict[str, bytes]:
    """A generator's files, made here or, for a fresh one, by a new process."""
    if not generator.fresh:
        return generator.make()
    done = subprocess.run([sys.executable, "-m", "referee.dev", "emit", generator.name], capture_output=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"}, cwd=ROOT)
    if done.returncode == 3:
        raise Unavailable(done.stderr.decode("utf-8", "replace").strip())
    if done.returncode:
        raise RuntimeError(f"{generator.name}: {done.stderr.decode('utf-8', 'replace')}")
    return {path: base64.b64decode(data) for path, data in json.loads(done.stdout).items()}


def emit(name: str) -> int:
    """For ``files_of``, in the new process: a generator's files as JSON on the standard
    output (contents in base64); 3 when it cannot run here."""
    generator = next(g for g in GENERATORS if g.name == name)
    try:
        files = generator.make()
    except Unavailable as missing:
        print(f"{name}: {missing}", file=sys.stderr)
        return 3
    json.dump({path: base64.b64encode(data).decode("ascii") for path, data in files.items()}, sys.stdout)
    return 0


def _write(path: Path, content: bytes) -> None:
    """The whole file or nothing: written beside it, then put in its place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(content)
    os.replace(temporary, path)


def generate(check: bool = False, root: Path = ROOT, names: Iterable[str] = (),
             say: Callable[[str], None] = print) -> int:
    """Run the generators (``names``: those, else all), writing each file that differs
    under ``root``; with ``check``, write nothing. Exit status: 0 all current (or
    written), 1 stale files found by ``check``, 2 a generator could not run."""
    wanted = set(names)
    stale: list[str] = []
    status = 0
    for generator in GENERATORS:
        if wanted and generator.name not in wanted:
            continue
        try:
            files = files_of(generator)
        except Unavailable as missing:
            say(f"{generator.name}: not run: {missing}")
            status = 2
            continue
        for path, content in files.items():
            target = root / path
            if target.is_file() and target.read_bytes() == content:
                continue
            stale.append(path)
            if check:
                say(f"{path} is not current ({generator.name})")
            else:
                _write(target, content)
                say(f"{path} written ({generator.name})")
    if check and stale:
        say("run python -m referee.dev generate")
    if not stale and status == 0:
        say("every generated file is current")
    return status or (1 if check and stale else 0)
