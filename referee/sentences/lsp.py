"""The language server (``referee lsp``)."""

ENGLISH: dict[str, str | tuple[str, str]] = {
    # The language server (referee lsp).
    "lsp.complete.legal": "legal now",
    "lsp.action.format": "Format the record (referee fmt)",
    "lsp.action.accept": "Mark {code} as accepted by the table",
    "lsp.action.did-you-mean": "Did you mean {suggestion}?",
    "lsp.action.insert": "Insert the missing event: {event}",
    "lsp.symbol.game": "{game}",
    "lsp.symbol.hand": "{game}: match {match}, hand {hand}",
    "lsp.symbol.round": "round {number}",
    "lsp.failed": "referee could not answer this request: {error}",
    "lsp.not-installed": "referee lsp needs pygls and lsprotocol: pip install '.[lsp]' in referee's folder",
}
