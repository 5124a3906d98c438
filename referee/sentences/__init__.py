"""Every sentence referee says, in English, one module per domain: each game's in the
module of its name (its violations, their one-line titles, the conventions behind them and
its phrases), then reading a record, the reports, and each front end (``play``, ``serve``,
the language server, the HTML report). A game's contributor edits its module here and its
entries of the French catalogue (``referee/locale/fr/LC_MESSAGES/referee.po``, in the same
order). ``referee.messages`` says them; a key belongs to one module only (a test checks).
"""

from . import reports, reading, bataille_corse, carte_et_plouc, tricks, pierre_qui_roule, flaschenteufel, caroleto, play, serve, lsp, html, standings

Message = str | tuple[str, str]
"""A sentence, or a sentence with a count as (singular, plural)."""

DOMAINS = (reports, reading, bataille_corse, carte_et_plouc, tricks, pierre_qui_roule, flaschenteufel, caroleto, play, serve, lsp, html, standings)

TAGS: dict[str, str] = {
    "REC-RESULT-MISMATCH": "Result", "REC-ROUND-ORDER": "Round", "REC-TOTALS-MISMATCH": "Totals",
    "cp.bad-starter": "Starter", "cp.bad-stock": "Stock", "cp.stock-twice": "Stock", "cp.stock-size": "Stock",
    "cp.note.no-starter": "Starter",
}
"""The header a sentence's ``{tag}`` field names, by key, as English writes it: the caller
gives it as a ``messages.Tag``, worded by the record's notation (``[Résultat "..."]`` in a
French record); a sentence shown without its fields (``explain``, SARIF) names it so."""

ENGLISH: dict[str, Message] = {key: text for domain in DOMAINS for key, text in domain.ENGLISH.items()}
