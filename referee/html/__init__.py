"""``referee check --format html``: one self-contained page for everything checked.

The page holds its CSS, its card faces (referee/html/card_svg.py) and its charts inline, asks
for nothing over the network (a Content-Security-Policy says so), and reads with scripts
off; one small script, allowed by its hash, sorts the summary table, draws the table
after any event and the timelines of a large archive's games.

Built with the standard library: one escaping layer (markup.py) escapes every value
unless it is markup, as a template engine's autoescape would, so that the format works
in every install with nothing more to load. docs/html-report.md says what the page shows."""

from __future__ import annotations

import base64
import hashlib
import tempfile
from collections.abc import Iterator

from .card_svg import label, symbol_id, symbols
from ..cards import UNSEEN_CARD, Card
from ..engine import Found, GameReport, start
from ..games import find_game, load_rules
from ..games.base import SetupError
from ..match import Standing
from ..messages import join, language, say
from ..record import Batch, Comment, Event, Record
from ..reports.writer import Emit, Settings, Summary, Writer
from .assets import SCRIPT, STYLE
from . import charts
from .game import SHOWN_PER_CODE, section_html, status_text
from .markup import Html, concat, h, json_script

WHOLE_BYTES = 1_000_000
"""Games are drawn whole while their sections take less than this; later ones light."""
WHOLE_EVENTS = 3_000
"""A game of more events than this is drawn light (its table after each event would weigh too much)."""
EVENTS_KEPT = 50_000
"""The events of one game kept for its timeline; the others are counted."""
HAND_WORDS = 120
"""Card counts said in words for the page's script (« 1 card », « 12 cards »)."""
NUMBER = "\x00#\x00"
"""Where a game's number goes in a chunk, filled in by the main process (--jobs: files
are checked in other processes, which do not know the games before theirs)."""


class HtmlWriter(Writer):
    """Writes the games' sections as they come to a temporary file, and at the end the
    page: its head, the summary table, the matches' charts, then the sections.

    A game's chunk holds its section drawn light and, while the budget of whole games
    (WHOLE_BYTES) is not spent, drawn whole: the main process chooses, so that with
    --jobs the budget is the page's, not each worker's."""

    STREAMS = False
    KEEP = SHOWN_PER_CODE

    def __init__(self, emit: Emit, settings: Settings):
        super().__init__(emit, settings)
        self.out = emit
        self.lang = language()
        self.count = 0
        self.spent = 0
        self.events: list[Event] = []
        self.comments: list[Comment] = []
        self.dropped = 0
        self.decks: set[str] = set()
        self.main = False
        # The main process only:
        self.rows: list[str] = []
        self.sections = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8")
        self.first_section = ""
        self.light = False
        self.numbered = 0
        self.cards: set[Card] = set()
        self.matches: dict[tuple[str, str], dict[int, dict[str, int]]] = {}
        self.match_kind: dict[tuple[str, str], str] = {}

    def begin(self) -> None:
        """In the main process: what is written (here, or handed back by the workers of
        --jobs) is kept until the end, when the page is written."""
        self.emit = self._take
        self.main = True

    # --- chunks: ("game", whole or None, light, row), ("cards", cards), ("match", file, name, hand, totals, kind)
    def _take(self, chunk: object) -> None:
        if not isinstance(chunk, tuple):
            return
        kind = chunk[0]
        if kind == "game":
            _, whole, light, row = chunk
            self.numbered += 1
            number = str(self.numbered)
            if whole is not None and (self.spent < WHOLE_BYTES or whole == light):
                self.spent += len(whole)
                section = whole.replace(NUMBER, number)
            else:
                section = light.replace(NUMBER, number)
                self.light = True
            if self.numbered == 1:
                self.first_section = section
            else:
                if self.numbered == 2:
                    self.sections.write(self.first_section)
                self.sections.write(section)
            self.rows.append(row.replace(NUMBER, number))
        elif kind == "cards":
            self.cards.update(chunk[1])
        elif kind == "match":
            _, file, name, hand, totals, counts = chunk
            self.matches.setdefault((file, name), {})[hand] = totals
            self.match_kind[file, name] = counts

    def sink(self, record: Record) -> Found:
        self.events, self.comments, self.dropped = [], [], 0
        if record.batches is not None:
            self.comments = list(record.comments[:EVENTS_KEPT])  # those of the game's head
            record.batches = self._tee(record.batches)
        else:
            self.events, self.comments = record.events[:EVENTS_KEPT], record.comments[:EVENTS_KEPT]
            self.dropped = max(0, len(record.events) - EVENTS_KEPT)
        return super().sink(record)

    def _tee(self, batches: Iterator[Batch]) -> Iterator[Batch]:
        """A lazy game's batches, their events and comments kept as they are read."""
        for batch in batches:
            room = EVENTS_KEPT - len(self.events)
            self.events += batch.events[:room]
            self.dropped += max(0, len(batch.events) - room)
            self.comments += batch.comments[: max(0, EVENTS_KEPT - len(self.comments))]
            yield batch

    def game(self, item: object, report: GameReport, found: Found | None) -> None:
        record = item if isinstance(item, Record) and report.players else None
        self.count += 1
        prefix = game_id(report)
        whole = None
        if record is None or (self.spent < WHOLE_BYTES and len(self.events) <= WHOLE_EVENTS):
            whole = str(section_html(prefix, Html(NUMBER), report, record, self.events, self.comments, self.lang, True, self.dropped))
            if not self.main:  # a worker keeps its own budget: the main process chooses
                self.spent += len(whole)
        light = str(section_html(prefix, Html(NUMBER), report, record, self.events, self.comments, self.lang, False, self.dropped)
                    ) if record is not None else whole
        if record is not None and report.game not in self.decks:
            self.decks.add(report.game)
            self.emit(("cards", _deck(record)))
        self.emit(("game", whole, light, str(self._row(prefix, report))))
        if isinstance(report.match, Standing):  # the only standing a report holds (referee/match.py)
            m = report.match
            self.emit(("match", report.file, m.name, m.hand, dict(m.totals), m.kind))
        self.events, self.comments = [], []

    def _row(self, anchor: str, report: GameReport) -> Html:
        outcome = _outcome(report)
        count = len(report.violations) + sum(report.omitted.values())
        entry = find_game(report.game) if report.game else None
        return h('<tr class="s-{}"><td data-v="{}"><a href="#{}">{}</a></td><td>{}</td><td class="status">{}</td><td data-v="{}">{}</td>'
                 '<td>{}</td><td>{}</td><td class="where">{}</td></tr>',
                 report.status, Html(NUMBER), anchor, Html(NUMBER), entry.title if entry is not None else report.game or "?",
                 status_text(report), count, count, join(report.players), outcome,
                 f"{report.file}:{report.line}" if report.line else report.file)

    def end(self, summary: Summary) -> None:
        if self.numbered == 1:
            self.sections.write(self.first_section.replace('<details class="game', '<details open class="game', 1))
        script_hash = base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")
        style_hash = base64.b64encode(hashlib.sha256(STYLE.encode("utf-8")).digest()).decode("ascii")
        policy = (f"default-src 'none'; style-src 'sha256-{style_hash}'; script-src 'sha256-{script_hash}'; "
                  "img-src data:; base-uri 'none'; form-action 'none'")
        cards = sorted(self.cards | {UNSEEN_CARD})
        names = {symbol_id(c)[5:]: label(c, self.lang) for c in cards}
        head = h('<!DOCTYPE html>\n<html lang="{}"><head><meta charset="utf-8">'
                 '<meta http-equiv="Content-Security-Policy" content="{}">'
                 '<meta name="viewport" content="width=device-width, initial-scale=1">'
                 '<meta name="color-scheme" content="light dark"><title>{}</title><style>{}</style></head>'
                 '<body><header><h1>{}</h1><p class="summary">{}</p></header><main>',
                 self.lang, policy, say("html.title"), Html(STYLE), say("html.title"), summary.text())
        self.out(str(head))
        if self.light:
            self.out(str(h('<noscript><p class="note">{}</p></noscript>', say("html.light-hint"))))
        self.out(symbols(cards, self.lang))
        self.out(str(json_script("card-names", names)))
        words: dict[str, object] = {key: say(f"html.{key}") for key in ("turn", "empty", "stock", "owed", "scores", "todo", "close")}
        words["after"] = say("html.table-after", line="{line}")
        words["hand"] = [say("html.hand", count=n) for n in range(HAND_WORDS)]
        self.out(str(json_script("page-words", words)))
        if self.numbered > 1:
            heads = ["#", say("html.col.game"), say("html.col.status"), say("html.col.violations"), say("html.col.players"),
                     say("html.col.result"), say("html.col.place")]
            header = concat(h('<th scope="col" aria-sort="none"><button type="button" data-col="{}">{}</button></th>', k, t)
                            for k, t in enumerate(heads))
            self.out(str(h('<section class="games"><h2>{}</h2><div class="scroll"><table class="summary-table" id="summary">'
                           '<thead><tr>{}</tr></thead><tbody>', say("html.games"), header)))
            for row in self.rows:
                self.out(row)
            self.out("</tbody></table></div></section>")
        parts: list[Html] = []
        for (file, name), hands in self.matches.items():
            order = sorted(hands)
            players = list(dict.fromkeys(p for hand in order for p in hands[hand]))
            series = {p: [hands[hand].get(p, 0) for hand in order] for p in players}
            parts.append(charts.lines(say("html.chart.match", name=name, unit=say(f"match.unit.{self.match_kind[file, name]}")),
                               series, say("html.hands"), steps=False))
            parts.append(h('<p class="place">{}</p>', file))
        if parts:
            self.out(str(h('<section class="matches"><h2>{}</h2>{}</section>', say("html.matches"), concat(parts))))
        self.out('<section class="sections">')
        self.sections.seek(0)
        while True:
            chunk = self.sections.read(1 << 20)
            if not chunk:
                break
            self.out(chunk)
        self.sections.close()
        self.out(str(h('</section></main><footer><p>{}</p></footer><script>{}</script></body></html>\n',
                       say("html.footer"), Html(SCRIPT))))

    def worker_result(self) -> tuple[Summary, dict[str, object]]:
        return self.summary, {}


def _outcome(report: GameReport) -> str:
    """The summary's result cell: the winner or the finishing order, and the scores, of a
    finished game ("over" of one whose game names no winner); "in progress" of one that is
    not, its faults aside (they have their column); why of one that cannot be read."""
    result = report.result
    if result is None or report.status == "error":
        return status_text(report)
    if not result.finished:  # its faults have their column
        return say("report.never-ends" if result.never_ends else "report.in-progress")
    entry = find_game(report.game)
    winnerless = "report.no-winner" if entry is None or entry.module is None or load_rules(entry).names_winner else "report.over"
    outcome = (say("report.order", players=join(result.order)) if len(result.order) > 1
               else say("report.winner", player=result.winner) if result.winner else say(winnerless))
    scores = ", ".join(f"{player} {score}" for player, score in result.scores.items())
    return f"{outcome} ({scores})" if scores else outcome


def game_id(report: GameReport) -> str:
    """A game's id in the page, from its file and line: the same input gives the same page
    (no random token), in one process or with --jobs."""
    return id_of(report.file, report.line)


def id_of(file: str, line: int) -> str:
    """The id of the game at ``line`` of ``file`` (see game_id)."""
    return "g" + hashlib.sha256(f"{file}\n{line}".encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _deck(record: Record) -> frozenset[Card]:
    """The cards of a record's game (its symbols go in the page)."""
    try:
        return frozenset(start(record).in_play)
    except SetupError:
        return frozenset()
