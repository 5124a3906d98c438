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
    "lsp.not-open": "{uri} is not open in the editor: open it first",
    "lsp.setting": "the editor's setting {name}",
    "lsp.setting-left-out": "the editor's setting {name} is left out: expected {expected}",
    "lsp.setting-unknown": "the editor's setting {name} is unknown and left out; referee lsp reads {keys}",
    "lsp.expect.severity": "a table of codes, each with one of {choices}",
    "lsp.error.invalid-params": "invalid params for {method}",
    "lsp.error.not-json": "the message is not JSON: {reason}",
    "lsp.error.not-a-message": "the message is not a JSON-RPC message",
    "lsp.error.shutting-down": "the server is shutting down: no request is answered after shutdown",
    "lsp.not-installed": "referee lsp needs pygls and lsprotocol: pip install 'referee[lsp]'",
}
