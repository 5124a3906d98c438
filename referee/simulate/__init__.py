"""Random legal records: ``referee simulate`` and the property tests' source of games.

The simulator knows no game: it writes the headers, shuffles and deals the game's deck,
then asks the rules for the legal events (``Rules.legal``), picks one, applies it and
writes it as a line, until the game is over or the record is long enough. Everything
random comes from one ``random.Random(seed)``: the same seed gives the same text.

Besides the moves, a record now and then exercises what the notation allows: move
numbers, times of day, comments (own line or after a header or an event), blank lines,
other card spellings (``10♥``, ``♠6``, ``qs``, ``DC``), tag case and option aliases,
``Dealer``/``First`` headers and a ``Result`` header when the game is over.

With ``mistakes`` (a rate), each event is, with that chance, one of the real table
mistakes the game offers now (``Rules.mistakes``) instead of a legal event, written with
the codes the referee must report on its line as ``; expect CODE ...``, as in records/;
the game then goes on from what its rules say is legal. Without it, the records are
exactly those of a simulator that knows no mistakes."""

from __future__ import annotations

import dataclasses
import random
import sys
from collections import Counter
from collections.abc import Sequence

from ..cards import CARD_TAGS, RANK_NAMES, SPELLINGS, STANDARD_52, SUITS, TAROT_78, Card, respelled
from ..text.french import french_tag
from ..engine import GameReport, replay, start
from ..convert.export import line_text
from ..convert.formatter import escape_value
from ..games import GAMES, find_game, load_rules
from ..games.base import Group, Legal, Mistake, Option, Rules, SetupError, Violation
from ..messages import join
from ..notation import VERBS, RecordError, parse_text
from ..record import Event, Record

EXIT_OK, EXIT_ERROR = 0, 2

NAMES = (
    "Alice", "Bob", "Chloé", "David", "Émile", "Fatou", "Gaëlle", "Hugo", "Inès", "Jean-Luc",
    "Kévin", "Léa", "Max", "Noé", "Océane", "Pierre", "Quentin", "Rémi", "Sofia", "Théo",
    "Zouhaire", "Charlotte", "D'Arcy", "Anne_2", "Loïc", "Maëlys", "Ann", "Ben", "Cas", "Dom",
)
"""Player names: accents, hyphens, apostrophes and digits after the first letter."""

ODD_NAMES = ("on", "to", "Ex", "Dc", "T1", "AS", "Holdsworth", "Slapper", "Ño", "X")
"""Names that look like the notation's other words (cards, 'on', 'to'): a record now and
then has one, to keep the parser honest."""

INFO_TAGS = ("Date", "Place", "Round", "Event")
"""Headers every game keeps and shows; ``--variants`` may set them too."""

COMMENTS = (
    "; belle main", "; Chloé hésite…", "; il pleut des cartes", "; 21 h, la partie reprend",
    "; ♠ ♥ ♦ ♣", "; « gifle ! »", '; un "guillemet" et [crochet]', ";", "; x" * 3,
)

VERB_WEIGHTS = (0.15, 0.4, 1.0, 2.5)
"""How much a record favours each kind of event, drawn per verb and per record: in some
games slaps are rare, in others every chance is taken."""

EXPECT = "; expect "
"""How a line marks the codes the referee must report on it (as in records/)."""

FOLLOW_ON = 0.25
"""With mistakes, the chance per event that a mistake following from an earlier one (a
penalty left unpaid), when the game offers one, is made on purpose."""

FRENCH_RANKS = {1: "1", 11: "V", 13: "D", 14: "R"}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class SimulationError(ValueError):
    """A request the simulator cannot meet: unknown game, player count, bad variant."""


# --- What to simulate ---------------------------------------------------------------------

def simulable_games() -> list[str]:
    """The games the simulator can play: every game that is refereed."""
    return [g.name for g in GAMES if g.module is not None]


def rules_class(game: str) -> type[Rules]:
    entry = find_game(game)
    if entry is None or entry.module is None:
        known = join(simulable_games())
        if entry is None:
            raise SimulationError(f"unknown game {game!r}; referee simulates {known}")
        raise SimulationError(f"{entry.title} is not refereed yet, so it cannot be simulated; referee simulates {known}")
    rules: type[Rules] = load_rules(entry)  # load_rules is not annotated (referee/games)
    return rules


def _check_players(cls: type[Rules], players: int) -> None:
    if not cls.min_players <= players <= cls.max_players:
        raise SimulationError(f"{cls.title} is for {cls.min_players} to {cls.max_players} players, not {players}")


def _find_option(cls: type[Rules], tag: str) -> Option | None:
    return next((o for o in cls.options if o.tag.lower() == tag.strip().lower()), None)


def _check_rate(rate: float) -> None:
    if not 0 <= rate <= 1:
        raise SimulationError(f"--mistakes is a chance per event, from 0 to 1 (0.03: three events in a hundred), not {rate}")


def _check_variants(cls: type[Rules], variants: dict[str, str]) -> list[tuple[str, str]]:
    """The option headers asked for, checked against the game's options."""
    headers = []
    for tag, value in variants.items():
        if not value.strip() or any(not c.isprintable() for c in value):
            raise SimulationError(f"{tag}={value!r}: a header value is one line of text")
        option = _find_option(cls, tag)
        if option is None:
            info = next((t for t in INFO_TAGS if t.lower() == tag.strip().lower()), None)
            if info is None:
                tags = join([o.tag for o in cls.options] + list(INFO_TAGS))
                raise SimulationError(f"{cls.title} has no option {tag!r}; its options are {tags}")
            headers.append((info, value))
            continue
        try:
            option.read(value)
        except ValueError:
            raise SimulationError(f"[{option.tag} \"{value}\"]: {cls.title} accepts {join(option.choices)}") from None
        headers.append((option.tag, value))
    return headers


def parse_variants(items: Sequence[str]) -> dict[str, str]:
    """``("Slaps=pair sandwich", "Penalty=give-1")`` as a dict; SimulationError if an
    item is not TAG=VALUE."""
    found: dict[str, str] = {}
    for item in items:
        tag, sep, value = item.partition("=")
        tag, value = tag.strip(), value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1].strip()
        if not sep or not tag or not value:
            raise SimulationError(f"--variants wants TAG=VALUE, such as Slaps='pair sandwich', not {item!r}")
        found[tag] = value
    return found


# --- Headers and the deal -------------------------------------------------------------------

def _random_options(cls: type[Rules], rng: random.Random) -> list[tuple[str, str]]:
    """Each option left out (its default) or given a value drawn from its choices, so
    that every variant is reachable."""
    headers = []
    for option in cls.options:
        if rng.random() < 0.15:
            continue
        if option.many:
            size = rng.randint(1, len(option.choices))
            words = rng.sample(list(option.choices), size)
            sep = rng.choice((" ", " ", ", ", ","))
        else:
            words, sep = [rng.choice(option.choices)], " "
        aliases: dict[str, list[str]] = {}
        for alias, word in option.aliases:
            aliases.setdefault(word, []).append(alias)
        words = [rng.choice(aliases[w]) if w in aliases and rng.random() < 0.15 else w for w in words]
        tag = option.tag.lower() if rng.random() < 0.1 else option.tag
        headers.append((tag, sep.join(words)))
    return headers


def _meet_needs(cls: type[Rules], headers: list[tuple[str, str]], players: int, rng: random.Random,
                given: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The option headers completed so that every choice that needs another option set
    (``Option.needs``) has it: drawn from the values it needs, unless the request set
    that option itself (then SimulationError)."""
    for option in cls.options:
        for choice, tag, values in option.needs:
            current = {t.lower(): v for t, v in headers}
            value = current.get(option.tag.lower())
            if value is None or not option.chose(option.read(value), choice):
                continue
            other = _find_option(cls, tag)
            assert other is not None, tag  # what a choice needs is an option of its game
            have = current.get(tag.lower())
            if (other.read(have) if have is not None else other.default_for(players)) in values:
                continue
            if tag.lower() in given:
                raise SimulationError(f"[{option.tag} \"{choice}\"] is played with [{tag}] set to {join(values, 'or')}")
            headers = [(t, v) for t, v in headers if t.lower() != tag.lower()] + [(other.tag, rng.choice(values))]
    return headers


def _names(rng: random.Random, players: int) -> list[str]:
    names = rng.sample(NAMES, players)
    if rng.random() < 0.05:
        names[rng.randrange(players)] = rng.choice([n for n in ODD_NAMES if n not in names])
    return names


def _header(tag: str, value: str, comment: str | None = None) -> str:
    text = f'[{tag} "{escape_value(value)}"]'
    return f"{text} {comment}" if comment else text


def _french_header(tag: str, value: str) -> tuple[str, str]:
    """A header in French notation: its tag's French name, its cards in French letters."""
    if tag.lower() in CARD_TAGS:
        value = respelled(value, False, True)
    return french_tag(tag), value


def _sort_key(card: Card) -> tuple[str, int]:
    return (card.suit, card.rank)


# --- Writing events -----------------------------------------------------------------------

def spell(card: Card, style: str) -> str:
    """A card in one of the notation's spellings."""
    text = str(card)
    if card.suit not in SUITS or style == "plain":
        return text
    rank = RANK_NAMES.get(card.rank, str(card.rank))
    if style == "lower":
        return text.lower()
    if style == "french":
        return FRENCH_RANKS.get(card.rank, rank) + card.suit
    if style == "symbol":
        return rank + SYMBOLS[card.suit]
    if style == "symbol-first":
        return SYMBOLS[card.suit] + rank
    if style == "emoji":
        return rank + SYMBOLS[card.suit] + "\ufe0f"
    return text


SPELLING_STYLES = ("plain", "plain", "plain", "lower", "french", "symbol", "symbol-first", "emoji")


@dataclasses.dataclass
class _Style:
    """How one record is written: what it adds besides the moves, and how often."""

    moves: float
    times: float
    comments: float
    spelling: str
    seconds: bool
    clock: int

    @classmethod
    def draw(cls, rng: random.Random) -> _Style:
        return cls(
            moves=rng.choice((0.0, 0.0, 1.0, 0.05)),
            times=rng.choice((0.0, 0.0, 1.0, 0.1)),
            comments=rng.choice((0.0, 0.01, 0.05)),
            spelling=rng.choice(SPELLING_STYLES) if rng.random() < 0.3 else "plain",
            seconds=rng.random() < 0.7,
            clock=rng.randrange(18 * 3600, 23 * 3600),
        )

    def time(self, rng: random.Random) -> str:
        self.clock = (self.clock + rng.randint(1, 6)) % 86400
        h, m, s = self.clock // 3600, self.clock // 60 % 60, self.clock % 60
        hour = f"{h:02d}" if rng.random() < 0.8 else str(h)
        return f"{hour}:{m:02d}:{s:02d}" if self.seconds else f"{hour}:{m:02d}"


def _dress(event: Event, number: int, style: _Style, rng: random.Random) -> Event:
    """The event with its cards spelled, and maybe a move number, a time, a comment."""
    cards_text = " ".join(spell(c, style.spelling) for c in event.cards) if event.cards else event.cards_text
    return event.replace(
        cards_text=cards_text,
        move=f"{number}." if rng.random() < style.moves else None,
        time=style.time(rng) if rng.random() < style.times else None,
        comment=rng.choice(COMMENTS) if rng.random() < style.comments else None,
    )


def _pick_mistake(mistakes: list[Mistake], rng: random.Random) -> Mistake:
    """One mistake: first the codes it draws, each set of codes as likely as another (so
    that rare mistakes are reached as often as common ones), then one such event."""
    kinds = sorted({m.codes for m in mistakes})
    codes = rng.choice(kinds)
    return rng.choice([m for m in mistakes if m.codes == codes])


def _strays(rules: Rules, legal: list[Event], rng: random.Random) -> list[Mistake]:
    """A card outside the game's deck laid instead of a legal one-card play (a 2 in
    Pierre qui Roule's short deck, a tarot trump in a 52-card game): REC-NOT-IN-DECK. The
    table lets it stand (see ``simulate``), so it is offered only where the play leaves
    cards in the hand, in the games that count such a card as laid, and with the deal
    written (the simulator, which knows every hand, then knows what the referee knows:
    which card left the hand, neither does)."""
    if "REC-NOT-IN-DECK" not in rules.mistake_codes:
        return []
    plays = [e for e in legal if e.verb == "plays" and len(e.cards) == 1 and e.cards[0].seen and e.suit is None
             and e.target is None]
    hands = rules.table().hands
    plays = [e for e in plays if e.player in hands and hands[e.player].count > 1]
    if not plays:
        return []
    pool = [c for c in STANDARD_52 if c not in rules.in_play] or [c for c in TAROT_78 if c not in rules.in_play]
    event = rng.choice(plays)
    card = rng.choice(pool)
    return [Mistake(event.replace(cards=(card,), cards_text=str(card)), ("REC-NOT-IN-DECK",))]


def _pick(events: list[Legal], weights: dict[str, float], rng: random.Random) -> Event:
    """One legal event: first a kind of event (verb), by this record's weights, then one
    event of that kind; a group of cards picked is laid as one of the plays it allows
    (so many cards, in such an order), at random."""
    events = sorted(events, key=_order)
    verbs = sorted({e.verb for e in events}, key=lambda v: VERBS.index(v) if v in VERBS else len(VERBS))
    for verb in verbs:
        if verb not in weights:
            weights[verb] = 1.0 if verb == "plays" else rng.choice(VERB_WEIGHTS)
    verb = rng.choices(verbs, [weights[v] for v in verbs])[0]
    picked = rng.choice([e for e in events if e.verb == verb])
    return rng.choice(picked.lines()) if isinstance(picked, Group) else picked


def _order(e: Legal) -> tuple[str, ...]:
    if isinstance(e, Group):
        return (e.verb, e.player, str(e.first), "+")
    return (e.verb, e.player, e.cards_text, e.target or "", e.word or "")


# --- The simulator ------------------------------------------------------------------------

def simulate(game: str, players: int, seed: int, variants: dict[str, str] | None = None,
             hidden: bool = False, max_events: int = 5000, mistakes: float = 0.0, notation: str = "en") -> str:
    """The text of one random legal record of ``game`` for ``players`` players.

    ``variants`` sets option headers (tag -> value); without it each option is drawn at
    random. ``hidden`` leaves the deal out. ``mistakes`` is the chance that an event is
    a table mistake, marked ``; expect CODE ...`` (0: a legal record). The record stops
    when the game is over or after ``max_events`` events (it is then in progress).
    ``notation``: ``en``, or ``fr`` for a record in French notation (the same game).
    SimulationError (a ValueError) for an unknown game, a bad player count, a bad
    variant or a rate outside 0 to 1."""
    cls = rules_class(game)
    _check_players(cls, players)
    _check_rate(mistakes)
    rng = random.Random(seed)
    options = _check_variants(cls, variants) if variants is not None else _random_options(cls, rng)
    options = _meet_needs(cls, options, players, rng, frozenset(t.lower() for t in variants or ()))
    style = _Style.draw(rng)
    names = _names(rng, players)

    headers: list[tuple[str, str]] = [("Game", cls.name if rng.random() < 0.8 else cls.title)]
    sep = rng.choice((" ", " ", " ", ", "))
    headers.append(("Players", sep.join(names)))
    seat = rng.random()
    if seat < 0.3:
        headers.append(("Dealer", rng.choice(names)))
    elif seat < 0.4:
        headers.append(("First", rng.choice(names)))
    headers += options
    if rng.random() < 0.3 and not any(t == "Date" for t, _ in headers):
        headers.append(("Date", f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"))

    header_text = "".join(_header(t, v) + "\n" for t, v in headers)
    record = _parse(header_text)
    try:
        setup = cls.setup_from(record)
    except SetupError as error:
        raise SimulationError(str(error)) from None
    deck = sorted(cls.deck, key=_sort_key)
    rng.shuffle(deck)
    deal = cls.deal(deck, setup)
    hands = deal.hands
    header_text += "".join(_header(t, v) + "\n" for t, v in deal.shown + deal.hidden)
    headers += deal.shown if hidden else deal.shown + deal.hidden
    deal_lines = [Event(names[s], "holds", 0, 0, tuple(h), " ".join(map(str, h))) for s, h in enumerate(hands) if h]
    if rng.random() < 0.3:
        rng.shuffle(deal_lines)

    record = _parse(header_text + "".join(line_text(e) + "\n" for e in deal_lines))
    rules = replay(start(record), record)

    quiet = dataclasses.replace(style, moves=0, times=0)
    french = notation == "fr"
    written = [line_text(_dress(e, 0, quiet, rng), french) for e in deal_lines]
    body: list[str] = [] if hidden else written
    weights: dict[str, float] = {}
    count, passed = 0, False
    stood: str | None = None
    """The player whose card outside the deck the table let stand: their next line may
    not lay a card (the referee would take it for the correction)."""
    while count < max_events:
        legal = rules.choices()
        if stood is not None:
            legal = [e for e in legal if e.player != stood or e.verb != "plays"]
        if not legal:
            break
        mistake = None
        if mistakes and (chance := rng.random()) < mistakes + FOLLOW_ON:
            offered = [m for m in rules.mistakes(hidden) if chance < mistakes or m.follow_on]
            if chance < mistakes and stood is None and not hidden:
                offered += _strays(rules, [e for e in legal if isinstance(e, Event)], rng)
            if stood is not None:
                offered = [m for m in offered if m.event.player != stood or m.event.verb != "plays"]
            mistake = _pick_mistake(offered, rng) if offered else None
        stood = None
        if mistake is None and all(e.verb == "slaps" for e in legal) and rng.random() < 0.5:
            rules.conclude()  # nobody slaps: the game ends here, and the record says so
            passed = True
            break
        count += 1
        if mistake is None:
            event = _dress(_pick(legal, weights, rng), count, style, rng)
        else:  # the codes it must draw; its own time, if it has one (a rule may depend on it)
            event = _dress(mistake.event, count, style, rng)
            event = event.replace(time=mistake.event.time or event.time, comment=EXPECT + " ".join(mistake.codes))
        shown = rules.public(event) if hidden else event  # asked before the event changes the table
        if mistake is not None and mistake.codes == ("REC-NOT-IN-DECK",):
            rules.lay_stray(event, 0)  # not replayed; the next players play on: it stands
            stood = event.player
        else:
            rules.apply(event)
        if rng.random() < style.comments / 4:
            body.append(rng.choice(COMMENTS))
        if rng.random() < style.comments / 4:
            body.append("")
        if shown is not None:
            body.append(line_text(shown, french))

    result = rules.result()
    if result.finished and result.winner and (passed or rng.random() < 0.5) and stood is None:
        headers.append(("Result", result.winner))  # not after a card outside the deck: nobody played on, it does not stand
    lines = []
    if rng.random() < 0.2:
        lines.append(rng.choice(COMMENTS))
    comment_at = rng.randrange(len(headers)) if rng.random() < style.comments * 10 else -1
    if french:
        headers = [_french_header(t, v) for t, v in headers]
        headers.insert(1, ("Notation", "fr"))
        comment_at += comment_at > 0
    lines += [_header(t, v, rng.choice(COMMENTS) if i == comment_at else None) for i, (t, v) in enumerate(headers)]
    lines.append("")
    lines += body
    return "\n".join(lines) + "\n"


# --- Mutations: one changed event, for the property tests and bench/fuzz.py ----------------

MUTATIONS = ("card", "drop", "duplicate", "move", "slap", "unslap", "player")
"""One event changed: a card replaced by another, an event line dropped, duplicated or
moved, a false ``slaps`` added or a ``slaps`` removed, another player acting."""

BEFORE_BY_DESIGN = frozenset({"REC-RESULT-MISMATCH", "TR-REVOKE-PROVEN"})
"""Violations anchored before the line that reveals them: to a header, or (a revoke a
later play proves) to the earlier play."""


@dataclasses.dataclass(frozen=True)
class Mutation:
    kind: str
    line: int
    """The first line of ``text`` that differs from the original (1-based)."""
    text: str
    detail: str


def mutate(text: str, rng: random.Random, kind: str | None = None, record: Record | None = None) -> Mutation | None:
    """A record (one game, as ``simulate`` writes it; ``record`` is its parse, when at
    hand) with one event changed, at random or of the given kind; None when the record
    has nothing that ``kind`` can change (no card, no slap)."""
    record = record if record is not None else _parse(text)
    if not record.events:
        return None
    deck = sorted(rules_class(record.tag("Game", "") or "").deck, key=_sort_key)
    lines = text.split("\n")
    events = record.events
    first_play = next((e.line for e in events if e.verb != "holds"), events[-1].line + 1)
    kind = kind or rng.choice(MUTATIONS)
    players = (record.tag("Players", "") or "").replace(",", " ").split() or [events[0].player]
    if kind == "card":
        with_cards = [e for e in events if e.cards]
        if not with_cards:
            return None
        event = rng.choice(with_cards)
        words = event.cards_text.split()
        i = rng.randrange(len(words))
        old = words[i]
        new = str(rng.choice([c for c in deck if c != SPELLINGS.get(old.upper())]))
        words[i] = new
        line = lines[event.line - 1]
        at = event.cards_column - 1
        lines[event.line - 1] = line[:at] + " ".join(words) + line[at + len(event.cards_text):]
        return Mutation(kind, event.line, "\n".join(lines), f"line {event.line}: {old} -> {new}")
    if kind in ("drop", "unslap"):
        pool = [e for e in events if kind == "drop" or e.verb == "slaps"]
        if not pool:
            return None
        event = rng.choice(pool)
        gone = lines.pop(event.line - 1)
        return Mutation(kind, event.line, "\n".join(lines), f"line {event.line} dropped: {gone.strip()}")
    if kind == "duplicate":
        event = rng.choice(events)
        lines.insert(event.line, lines[event.line - 1])
        return Mutation(kind, event.line + 1, "\n".join(lines), f"line {event.line} duplicated")
    if kind == "move":
        if len(events) < 2:
            return None
        event, other = rng.sample(events, 2)
        moved = lines.pop(event.line - 1)
        lines.insert(other.line - 1, moved)  # before an earlier line, after a later one
        where = "before" if other.line < event.line else "after"
        return Mutation(kind, min(event.line, other.line), "\n".join(lines), f"line {event.line} moved {where} line {other.line}")
    if kind == "slap":
        slots = [e.line for e in events if e.line >= first_play] + [events[-1].line + 1]
        at = rng.choice(slots)
        lines.insert(at - 1, f"{rng.choice(players)} slaps")
        return Mutation(kind, at, "\n".join(lines), f"slap added at line {at}")
    if kind == "player":
        event = rng.choice([e for e in events if e.player] or events)  # a round marker names nobody
        others = [p for p in players if p != event.player] or ["Zoé"]
        new = rng.choice(others) if rng.random() < 0.9 else "Zoé"
        line = lines[event.line - 1]
        at = event.column - 1
        lines[event.line - 1] = line[:at] + new + line[at + len(event.player):]
        return Mutation(kind, event.line, "\n".join(lines), f"line {event.line}: {event.player} -> {new}")
    raise ValueError(f"unknown mutation {kind!r}; mutations are {join(MUTATIONS)}")


def violations_before(report: GameReport, line: int) -> list[Violation]:
    """The violations of a report that come before ``line`` (and are not anchored
    before it by design): each one is a referee bug for a mutation at ``line``."""
    return [v for v in report.violations if v.line < line and v.code not in BEFORE_BY_DESIGN]


def marked(record: Record) -> Counter[tuple[int, str]]:
    """The codes the lines of a record expect, by (line, code): the ``; expect CODE ...``
    comments after events, as ``simulate --mistakes`` writes them."""
    return Counter((e.line, code) for e in record.events if e.comment and e.comment.startswith(EXPECT)
                   for code in e.comment[len(EXPECT):].split())


def reported(report: GameReport) -> Counter[tuple[int, str]]:
    """The codes a report gives, by (line, code)."""
    return Counter((v.line, v.code) for v in report.violations)


def _parse(text: str) -> Record:
    item = parse_text(text, "<simulate>")[0]
    if isinstance(item, RecordError):
        raise item
    return item


# --- The command --------------------------------------------------------------------------

def _write(text: str) -> None:
    """Records are UTF-8 whatever the terminal's locale says."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
    else:
        sys.stdout.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()


def run(game: str, players: int, variants: tuple[str, ...], seed: int, count: int, hidden: bool,
        mistakes: float = 0.0, notation: str = "en") -> int:
    """``referee simulate``: ``count`` records from seeds seed, seed+1, ... separated by a
    blank line. Exit status 0, or 2 with a message on stderr for a bad request (and, as
    every command, 141 when the reader of the output goes away: ``| head -1``)."""
    try:
        cls = rules_class(game)
        _check_players(cls, players)
        _check_rate(mistakes)
        chosen = parse_variants(variants) if variants else None
        if chosen is not None:
            _meet_needs(cls, _check_variants(cls, chosen), players, random.Random(), frozenset(t.lower() for t in chosen))
        if count < 0:
            raise SimulationError(f"--count must be 0 or more, not {count}")
    except SimulationError as error:
        print(f"referee simulate: {error}", file=sys.stderr)
        return EXIT_ERROR
    for i in range(count):  # a closed output (``| head``) ends the run as every command's: exit 141 (running.py)
        _write(("\n" if i else "") + simulate(cls.name, players, seed + i, chosen, hidden, mistakes=mistakes, notation=notation))
    return EXIT_OK
