"""Where the grammar and the schemas are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def resource(folder: str, name: str) -> Path:
    """The path of ``folder/name``: inside the installed package, else at the top of
    the checkout (``grammar/``, ``schemas/``)."""
    for base in (_HERE / folder, _HERE.parent / folder):
        if (base / name).is_file():
            return base / name
    raise FileNotFoundError(f"{folder}/{name} is missing from this installation of referee")
