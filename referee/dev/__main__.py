"""``python -m referee.dev``: the project's generated files (referee/dev/__init__.py).

    python -m referee.dev generate [--check] [NAME...]   write them again (--check: say what is stale, exit 1)
    python -m referee.dev list                           the generators, in the order they run"""

from __future__ import annotations

import sys

from . import GENERATORS, emit, generate


def main(arguments: list[str]) -> int:
    command, rest = (arguments[0], arguments[1:]) if arguments else ("", [])
    if command == "list":
        for generator in GENERATORS:
            print(f"{generator.name:12} {generator.what}")
        return 0
    if command == "emit" and len(rest) == 1 and rest[0] in {g.name for g in GENERATORS}:
        return emit(rest[0])
    names = [a for a in rest if a != "--check"]
    unknown = [n for n in names if n not in {g.name for g in GENERATORS}]
    if command != "generate" or unknown:
        print(__doc__.split("\n\n", 1)[1].rstrip(), file=sys.stderr)
        if unknown:
            print(f"no generator {', '.join(unknown)}: {', '.join(g.name for g in GENERATORS)}", file=sys.stderr)
        return 2
    return generate(check="--check" in rest, names=names)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
