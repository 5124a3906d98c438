"""referee: replays card-game records, flags every illegal play, reports the result."""
