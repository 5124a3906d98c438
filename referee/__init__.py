"""referee: replays card-game records, flags every illegal play, reports the result."""

import os as _os

__version__ = "0.2.0.dev0"

if _os.environ.get("REFEREE_PURE") == "1":  # run the pure-Python sources of a compiled install (speedups.py)
    from .fast.speedups import prefer_sources

    prefer_sources()
