"""Where the grammar and the schemas are, installed or in a checkout."""

from __future__ import annotations

import os

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # referee/


def read_resource(folder: str, name: str) -> str:
    """The text of ``folder/name``: inside the installed package, else at the top of the
    checkout (``grammar/``, ``schemas/``). (os.path, not pathlib: it starts faster.)"""
    for base in (os.path.join(_HERE, folder), os.path.join(os.path.dirname(_HERE), folder)):
        path = os.path.join(base, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as file:
                return file.read()
    raise FileNotFoundError(f"{folder}/{name} is missing from this installation of referee")
