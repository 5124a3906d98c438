"""referee: replays card-game records, flags every illegal play, reports the result."""

__version__ = "0.2.0.dev0"
