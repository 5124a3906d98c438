"""French as a French table speaks it (issue 35): one word for one thing, as the glossary
(docs/fr/glossaire.md) chooses it; words that agree with the things they name; no
« ceci » where the thing has a name; no sentence that needs a player's gender."""

from __future__ import annotations

import re
import time

import pytest
from babel.messages.pofile import read_po

from referee.dev import catalogue as i18n
from referee.sentences import bataille_corse, caroleto, carte_et_plouc, flaschenteufel, pierre_qui_roule, tricks

from .conftest import ROOT

GLOSSARY = ROOT / "docs" / "fr" / "glossaire.md"
GAME_KEYS = {key for module in (bataille_corse, caroleto, carte_et_plouc, flaschenteufel, pierre_qui_roule, tricks)
             for key in module.ENGLISH}
ROUND_KEYS = {*caroleto.ENGLISH, "why.caroleto.REC-AFTER-END", "report.drink", "legal.round", "stat.rounds",
              "html.round", "html.chart.drinks", "html.drinks.unwritten", "game-option.caroleto.Drinks"}
"""The sentences where a round is the Caroleto's (the only game written in rounds)."""
A_TURN = re.compile(r"\b(son|leur|au|à) tour\b|\btour de rôle\b|\btour à tour\b")
"""« tour » as a player's turn, which stays « tour »."""


def french_sentences() -> list[tuple[str, str]]:
    """Every French sentence of the catalogue as (key, text): the rules' and the records'
    quotes (« … ») and the fields ({player}) left out."""
    with open(i18n.po_path("fr"), "rb") as stream:
        catalogue = read_po(stream)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            found.append((message.context, re.sub(r"\{[^}]*\}", "{}", re.sub(r"«[^»]*»", "«…»", text))))
    return found


def glossary() -> dict[str, tuple[list[str], str]]:
    """The glossary's table: each word chosen, with the words never used for its thing
    (in backquotes) and the words of its « jamais » cell."""
    rows = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("mot", "---"):
            rows[cells[0]] = (re.findall(r"`([^`<]+)`", cells[2]), cells[2])
    return rows


def test_the_glossary_is_linked_and_names_the_pairs_of_the_issue() -> None:
    rows = glossary()
    assert "infraction" in rows["faute"][0] and "tour" in rows["manche"][0], rows
    assert "fr/glossaire.md" in (ROOT / "docs" / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("chosen", sorted(glossary()))
def test_the_catalogue_never_uses_a_word_the_glossary_rejects(chosen) -> None:
    rejected, cell = glossary()[chosen]
    wrong = []
    for key, text in french_sentences():
        for word in rejected:
            if "phrase d'un jeu" in cell and key not in GAME_KEYS:
                continue
            if "phrase du Caroleto" in cell:
                if key in ROUND_KEYS and re.search(rf"\b{word}\b", A_TURN.sub("", text)):
                    wrong.append((key, word, text))
                continue
            if re.search(rf"\b{word}\b", text, re.IGNORECASE):
                wrong.append((key, word, text))
    assert not wrong, wrong[:5]


FEMININE = "action|manche|faute|carte|pile|main|partie|feuille|ligne|pénalité|tape|couleur|règle|gorgée|enchère|annonce|sanction|bouteille|surenchère|défausse|pioche|donne|prise"
MASCULINE = "tour|pli|paquet|verre|joueur|coup|bout|atout|échange|duel|vote|dossier|roi|valet|cavalier|fichier|code|passe"
"""« passe », the noun, is masculine as card players say it: « un passe » (the catalogue had both)."""
DISAGREEING = [
    re.compile(rf"\b(aucun|un|le|du|au|ce|cet|dernier|premier|nouveau|seul|second)\s+({FEMININE})s?\b", re.IGNORECASE),
    re.compile(rf"\b(aucune|une|la|cette|dernière|première|nouvelle|seule|seconde)\s+({MASCULINE})s?\b", re.IGNORECASE),
]


def test_words_agree_with_the_things_they_name() -> None:
    titles = re.compile(r"Carte et Plouc|Bataille corse|Pierre qui Roule")  # « le Carte et Plouc »: a game
    wrong = [(key, text) for key, text in french_sentences() if any(p.search(titles.sub("{}", text)) for p in DISAGREEING)]
    assert not wrong, wrong[:5]


def test_the_agreement_check_finds_the_mistakes_of_the_issue() -> None:
    assert any(p.search("aucun action ou vérité d'un 8 ne tombe sur {}") for p in DISAGREEING)
    assert any(p.search("la passe de la ligne {} n'a pas pu être vérifiée") for p in DISAGREEING)
    assert any(p.search("la tour 3 commence") for p in DISAGREEING)
    assert not any(p.search("aucune action ou vérité d'un 8 ne tombe sur {}") for p in DISAGREEING)


PLAYER = r"\{(player|target|other|holder|taker|slapper|winner|owner|creditor|offender|teller|bidder|drawer)\}"
GENDERED = [
    re.compile(PLAYER + r"[^.;:«]*\b(soi|lui|elle)-même"),  # « Cas se cible soi-même »
    re.compile(PLAYER + r" (est|était|a été) (nommée?|descendue?|sortie?|éliminée?|arrivée?|partie?|tombée?)\b"),
    re.compile(PLAYER + r"[^.;:«]*\b(a tapé|tape|joue|a joué) (le|la) premi"),  # « a tapé le premier »: en premier
    re.compile(PLAYER + r"[^.;:«]*(\(il a |s'il n'en a |qu'il n'en a |, suivant |, écrit )"),
    re.compile(r"^il n'a plus"),  # a reason said of a player: « il » is his
    re.compile("^" + PLAYER + r"[^.;«]*(: il (ramasse|entame|pioche|joue)\b|qu'il a )"),  # « Dom ne peut pas fournir : il ramasse le pli »
]
"""A sentence about a named player that needs the player's gender (a name says nothing of it)."""


def _raw_french() -> list[tuple[str, str]]:
    with open(i18n.po_path("fr"), "rb") as stream:
        catalogue = read_po(stream)
    return [(m.context, re.sub(r"«[^»]*»", "«…»", text)) for m in catalogue if m.id
            for text in (m.string if isinstance(m.string, tuple) else (m.string,))]


def test_no_sentence_says_ceci_or_needs_a_player_s_gender() -> None:
    """« ceci » stands for a thing the sentence should name; a reflexive or a participle
    after a player (« se cible soi-même », « est descendu », « a tapé le premier », « s'il
    n'en a pas ») says what a name does not: its bearer's gender."""
    wrong = [(key, text) for key, text in _raw_french()
             if re.search(r"\bceci\b", text) or any(p.search(text) for p in GENDERED)]
    assert not wrong, wrong[:5]


def test_the_gender_check_finds_the_mistakes_of_the_issue() -> None:
    for text in ("{player} se cible soi-même avec {card}", "{player} est descendu à une carte",
                 "{player} a tapé le premier sur le 2", "{player} entame (il a ramassé le dernier pli)",
                 "{player} n'a pas de carte pour fournir ({suit}) : il ramasse le pli",
                 "{player} joue {card} : rien ne montre qu'il a {suit}"):
        assert any(p.search(text) for p in GENDERED), text
    assert not any(p.search("{player} se cible avec {card}") for p in GENDERED)


# No English left: every face of referee over every French record, in French.

from click.testing import CliRunner  # noqa: E402

from referee.cli import main  # noqa: E402
from referee.cli.group import main as group  # noqa: E402

from .conftest import RECORDS  # noqa: E402

ENGLISH_WORDS = re.compile(
    r"\b(the|and|is|are|was|with|but|none|yes|turn|turns|round|rounds|card|cards|line|lines|player|players|game|games|"
    r"usage|error|default|missing|invalid|show|exit|integer|range|file|files|plays|holds|slaps|draws|not|this|"
    r"that|has|have|cannot|must|owes|expected|got|end|commands|slapper|skip|penalties|first-out|play-on|"
    r"burn-3|heart|spade|club|diamond)\b", re.IGNORECASE)
"""Words a French reader should never meet in referee's French (a French word that is
also English, « table », « pile », « plouc », is not here)."""
FRENCH_RECORDS = sorted(p for p in RECORDS.rglob("*.txt") if "bad" not in p.parts
                        and re.search(r'^\[(Notation "fr|Jeu )', p.read_text(encoding="utf-8"), re.MULTILINE | re.IGNORECASE))


def _english_left(out: str) -> list[str]:
    """The lines of ``out`` with an English word, outside what the record itself wrote: its
    lines quoted under a finding (indented six spaces) or by explain (« ligne 35 : … »), its
    comments (« ; expect … », a semicolon without French typography's no-break space), the
    rules' quotes « … », paths, codes, header tags, command-line options, the commands'
    names in the help and the record syntax shown in quotes."""
    found = []
    for line in out.splitlines():
        if re.match(r"      \S|\s*ligne \d+\u00a0: ", line):
            continue
        line = re.sub(r"(?<!\u00a0);.*$|^  [a-z]+(?=  )|^Utilisation\u00a0: \S+ [a-z]+", "", line)
        text = re.sub(r"«[^»]*»|\S*\[\d+\]\S*|\S*/\S*|\S+\.txt\S*|\b[A-Z]+-[A-Z0-9-]+\b|\[[^\]]*\]|--?[\w-]+|`[^`]*`|'[^']*'|\"[^\"]*\"", " ", line)
        if ENGLISH_WORDS.search(text):
            found.append(line)
    return found


def test_the_french_records_are_there() -> None:
    assert len(FRENCH_RECORDS) >= 8 and {p.parent.name for p in FRENCH_RECORDS} >= {
        "bataille-corse", "carte-et-plouc", "pierre-qui-roule", "flaschenteufel", "caroleto"}


@pytest.mark.parametrize("record", FRENCH_RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_face_of_a_french_record_speaks_french_only(monkeypatch, tmp_path, record) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()
    lines = record.read_text(encoding="utf-8").count("\n")
    copy = tmp_path / record.name
    copy.write_text(record.read_text(encoding="utf-8"), encoding="utf-8")
    outputs = [runner.invoke(main, ["check", str(record)]).output, runner.invoke(main, ["state", str(record)]).output,
               runner.invoke(main, ["state", "--at", str(lines // 2), str(record)]).output,
               runner.invoke(main, ["play", str(copy)], input="état\npermis\naide\nfin\n").output]
    outputs += [runner.invoke(main, ["explain", f"{record}:{n}"]).output for n in range(1, lines + 1, 7)]
    left = [line for out in outputs for line in _english_left(out)]
    assert not left, left[:8]


def test_the_help_of_every_command_and_the_lists_speak_french_only(monkeypatch) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()
    outputs = [runner.invoke(main, ["--help"]).output, runner.invoke(main, ["games"]).output,
               runner.invoke(main, ["explain", "--list"]).output,
               *(runner.invoke(main, [command, "--help"]).output for command in sorted(group.commands)),
               runner.invoke(main, ["check", "--nope"]).output, runner.invoke(main, ["check", "--jobs", "x"]).output]
    assert "Options\u00a0:" in outputs[0] and "FICHIERS" in outputs[3 + sorted(group.commands).index("check")]
    left = [line for out in outputs for line in _english_left(out)]
    assert not left, left[:8]


def test_the_english_finder_finds_english() -> None:
    assert _english_left("Usage: referee check [OPTIONS]\n  now: Alice turns the next card\n")
    assert not _english_left("      Alice plays 7H\n  « the rule »\n  records/x.txt:3 BC-FALSE-SLAP\n")


def test_play_asks_the_options_by_what_they_are_with_their_values_in_french(tmp_path) -> None:
    """Issue 35: not « Sanction [none] ? » but what the option is, its values in French;
    a header written with a French value reads as the English one."""
    path = tmp_path / "nouvelle.txt"
    typed = "carte\nAnn Ben\n\n\n\nn\n\nsau\n\nfin\n"
    out = CliRunner().invoke(main, ["--lang", "fr", "play", str(path)], input=typed).output
    assert ("Sanction, la sanction d'un «\u00a0carte\u00a0» ou d'un «\u00a0plouc\u00a0» oublié après un «\u00a0contre\u00a0», "
            "et du David le fou\u00a0: une valeur parmi aucune, zouzou ou mega-one [aucune]\u00a0? ") in out, out
    assert "une valeur parmi aucune ou saut [aucune]\u00a0? " in out, out
    text = path.read_text(encoding="utf-8")
    assert '[Sanction "aucune"]\n[PlayOn "non"]\n[Reshuffle "oui"]\n[TwoPlayerReverse "saut"]\n' in text, text
    state = CliRunner().invoke(main, ["--lang", "en", "state", str(path)]).output
    assert "sanction: none" in state, state
    state = CliRunner().invoke(main, ["--lang", "fr", "state", str(path)]).output
    assert "sanction\u00a0: aucune" in state, state


def test_the_suit_in_force_is_said_by_its_name() -> None:
    out = CliRunner().invoke(main, ["--lang", "fr", "state", str(RECORDS / "carte-et-plouc" / "ace-announce.txt")]).output
    assert "couleur\u00a0: cœur" in out, out


def test_the_table_page_s_new_game_says_its_options_in_french(tmp_path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from referee.serve.app import make_app
    from referee.serve.table import Served

    path = tmp_path / "game.txt"
    path.write_text("", encoding="utf-8")
    app, _ = make_app(Served(str(path)), None, {"testserver"}, time.monotonic)
    form = TestClient(app).get("/?game=carte-et-plouc", headers={"accept-language": "fr"}).text
    assert "la sanction d&#39;un" in form or "la sanction d'un" in form, form
    assert "aucune (par défaut)" in form and 'value="none"' not in form and ">none<" not in form, form
    assert '<option value="saut">saut</option>' in form and "[Sanction]" in form, form  # values and tags in French


MOVE = re.compile(r"\S+ (holds|plays|draws|slaps|collects|burns|gives|takes|discards|swaps|passes|says|swears|drinks|"
                  r"beats|refuses|votes|bids|catches|accuses|scores)\b[^()\u00a0;,]*|-- round( \d+)?")
"""A move of an English record, written in its own notation (« écrivez : Ana plays AC for S »)."""


def test_a_french_check_of_the_english_records_leaves_no_english_but_their_moves(monkeypatch) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    out = CliRunner().invoke(main, ["check", "--exclude", "bad", str(RECORDS)]).output
    assert "Ana plays AC for S" in out  # a move in the record's notation, as the record writes it
    left = _english_left("\n".join(MOVE.sub(" ", line) for line in out.splitlines()))
    assert not left, left[:8]


def test_a_ruling_in_two_parts_is_joined_as_french_writes_a_semicolon(tmp_path) -> None:
    """« et passe ; les règles donnent » (a no-break space before the semicolon), as every
    French sentence; the parts were joined by a plain "; " written in the code."""
    path = tmp_path / "ace.txt"
    path.write_text('[Game "caroleto"]\n[Players "Ann Ben Cas Dom"]\nAnn says roi\nAnn takes ?? from Dom\n'
                    "Ben takes ?? from Ann\nCas takes ?? from Ben\nDom takes ?? from Cas\nAnn plays AH\n"
                    "Ben plays 7D\nCas plays 7C\nDom plays 7S\nBen passes\n", encoding="utf-8")
    text = re.sub(r"[ \n]+", " ", CliRunner().invoke(main, ["--lang", "fr", "explain", f"{path}:12"]).output)  # NBSP kept
    assert "Ben ne peut pas surenchérir, et passe\u00a0; les règles donnent" in text


def test_a_missing_file_is_said_in_french(tmp_path) -> None:
    """The system's most common reasons come from the catalogue, not in its English."""
    output = CliRunner().invoke(main, ["--lang", "fr", "check", str(tmp_path / "nope.txt")]).output
    assert "impossible de lire le fichier\u00a0: aucun fichier ni dossier de ce nom" in output
    assert "No such file" not in output


def test_clicks_sentences_with_a_count_are_french_too() -> None:
    """click says these through its ``ngettext``: an argument too many, an option close to
    one it knows, an option without its value."""
    said = [CliRunner().invoke(main, ["--lang", "fr", *args]).output for args in
            (["games", "caroleto", "flaschenteufel"], ["check", "--bogus", "x"], ["check", "--jobs"])]
    assert "Argument en trop\u00a0: flaschenteufel" in said[0]
    assert "Vouliez-vous dire '--jobs'\u00a0?" in said[1]
    assert "L'option «\u00a0--jobs\u00a0» attend une valeur." in said[2]
    assert not any("Got unexpected" in s or "Did you mean" in s or "requires an argument" in s for s in said)


def test_explain_codes_example_is_written_in_french_notation_for_a_french_reader() -> None:
    """The example record is rewritten as ``fmt --notation fr`` writes it, and refereed as
    rewritten (its lines are those shown)."""
    text = CliRunner().invoke(main, ["--lang", "fr", "explain", "CA-VOTE-WRONG"]).output
    assert "    Ben vote pourri\n" in text and "Ann prend ?? à Dom" in text and "takes" not in text
    assert re.search(r"referee dit\u00a0: 14:1 CA-VOTE-WRONG", text)
    english = CliRunner().invoke(main, ["--lang", "en", "explain", "CA-VOTE-WRONG"]).output
    assert "Ann takes ?? from Dom" in english
