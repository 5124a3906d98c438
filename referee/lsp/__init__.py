"""``referee lsp``: a Language Server Protocol server for records, over standard input and
output (referee/lsp/server.py, on pygls).

What it knows comes from the engine, the state, explain, fmt and the configuration, as
``check`` uses them: the document is cut into games (notation.game_starts), each game is
read and refereed on its own, and kept until its text changes (model.py); the editor's
questions (completion, hover, code actions, outline) are answered from that (features.py).
Only server.py imports pygls and lsprotocol: the rest is plain data, for tests and the
benchmark."""
