"""``referee play``: a live session, driven through a pseudo-terminal (pexpect), and from
a pipe. Every accepted line is on the disk at once: a session killed mid-game loses
nothing and goes on; undo rewrites the file whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from referee.cli import main

pexpect = pytest.importorskip("pexpect")

HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'


def spawn(path):
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "referee", "play", str(path)], env=env, encoding="utf-8",
                          timeout=20, dimensions=(24, 60))
    return child


def prompt(child, player: str) -> None:
    child.expect(f"{player}>")


def type_event(child, line: str) -> None:
    child.sendline(line)
    child.expect("ok: ")


def events(path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line and not line.startswith(("[", ";"))]


def test_a_new_record_through_a_terminal(tmp_path) -> None:
    path = tmp_path / "friday.txt"
    child = spawn(path)
    child.expect(r"game \[bataille-corse\]\?")  # the default shown
    child.sendline("bataille-corse")
    child.expect("players")
    child.sendline("Alice Bob Chloe")
    child.expect("dealer")
    child.sendline("")
    child.expect(r"big-mac \[pair\]\?")  # Slaps, what it is and its values
    child.sendline("pair sandwich")
    for _ in range(4):
        child.expect(r"\]\?")
        child.sendline("")
    child.expect('Slaps "pair sandwich"')  # the headers, shown before they are written
    child.expect("write these headers")
    child.sendline("")
    prompt(child, "Alice")
    type_event(child, "Alice plays 5H")
    prompt(child, "Bob")
    child.send("pl")
    child.expect("plays")  # the completion menu
    child.send("\t")
    type_event(child, "5C")  # the next player's line; the completion put the space after the verb
    prompt(child, "Chloe")
    child.send("Al")
    child.expect("Alice")  # the completion menu
    child.send("\t")
    child.expect("Alice")
    type_event(child, "slaps")  # the completion put the space after the name
    prompt(child, "Alice")
    child.sendline("Bob plays 9C")  # out of turn: flagged, and the table says it was a slip
    child.expect("BC-OUT-OF-TURN Bob turned 9C, but it is Alice's turn")
    child.expect("write it")
    child.sendline("")
    child.expect("not written")
    child.sendline("state")
    child.expect("pile: empty")
    child.sendline("legal")
    child.expect("Alice may play any card not known to be elsewhere")
    child.sendline("end")
    child.expect(r"in\s+progress")  # the report fits the terminal: it may be cut there
    child.expect("now: Alice turns the next card")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n[Slaps "pair sandwich"]\n')
    assert '[Penalty "burn-3"]\n' in text and '"]\n[Date "' in text  # the date last
    assert events(path) == ["Alice plays 5H", "Bob plays 5C", "Alice slaps"]


def test_a_session_killed_mid_game_loses_nothing_and_goes_on(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n", encoding="utf-8")
    child = spawn(path)
    child.expect("1 event")
    prompt(child, "Bob")
    for line in ("Bob plays KC", "Chloe plays 3D", "Chloe plays 4D"):
        type_event(child, line)
    child.kill(signal.SIGKILL)
    child.close()
    assert events(path) == ["Alice plays 5H", "Bob plays KC", "Chloe plays 3D", "Chloe plays 4D"]
    again = spawn(path)
    again.expect("4 event")
    again.expect("now: Chloe pays 1 more card")
    prompt(again, "Chloe")
    again.sendline("undo")  # lines of an earlier session stay
    again.expect("nothing to undo")
    type_event(again, "plays 6D")
    prompt(again, "Bob")
    again.sendline("end")
    again.expect("now: Bob takes the pile")
    again.expect(pexpect.EOF)
    assert events(path)[-1] == "Chloe plays 6D"


def test_undo_rewrites_the_file_whole_and_keeps_its_mode(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS, encoding="utf-8")
    path.chmod(0o640)
    child = spawn(path)
    prompt(child, "Alice")
    type_event(child, "Alice plays 5H")
    after_first = path.read_bytes()
    type_event(child, "Bob plays 7C")
    child.sendline("undo")
    child.expect("undone: Bob plays 7C")
    prompt(child, "Bob")
    assert path.read_bytes() == after_first
    child.sendline("undo")
    child.expect("undone: Alice plays 5H")
    child.sendline("undo")
    child.expect("nothing to undo")
    child.sendline("end")
    child.expect(pexpect.EOF)
    assert path.read_text(encoding="utf-8") == HEADERS
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]  # no temporary file left


def test_undo_through_a_link_rewrites_the_file_it_points_to(tmp_path) -> None:
    """As fmt does: the record stays where the link points, and the link stays a link."""
    path, link = tmp_path / "game.txt", tmp_path / "tonight.txt"
    path.write_text(HEADERS, encoding="utf-8")
    link.symlink_to(path.name)
    child = spawn(link)
    prompt(child, "Alice")
    type_event(child, "Alice plays 5H")
    child.sendline("undo")
    child.expect("undone: Alice plays 5H")
    child.sendline("end")
    child.expect(pexpect.EOF)
    assert link.is_symlink() and path.read_text(encoding="utf-8") == HEADERS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "tonight.txt"]


def test_undo_refuses_when_the_file_changed_outside_the_session(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS, encoding="utf-8")
    child = spawn(path)
    prompt(child, "Alice")
    type_event(child, "Alice plays 5H")
    with open(path, "a", encoding="utf-8") as file:
        file.write("; written by hand\n")
    child.sendline("undo")
    child.expect("changed outside this session")  # read again, and nothing taken back
    child.expect("read again")
    child.sendline("undo")  # the lines this session wrote are no longer its own to take back
    child.expect("nothing")
    child.sendline("end")
    child.expect(pexpect.EOF)
    assert path.read_text(encoding="utf-8").endswith("Alice plays 5H\n; written by hand\n")


def play(tmp_path, typed: str, start: str = HEADERS):
    path = tmp_path / "game.txt"
    if start is not None:
        path.write_text(start, encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(path)], input=typed)
    return result, path


def test_a_flagged_line_is_written_only_if_the_table_says_so(tmp_path) -> None:
    result, path = play(tmp_path, "Alice plays 5H\nChloe plays 3C\ny\nAlice slaps\na\nAlice plays 2H\nn\n")
    assert "BC-OUT-OF-TURN Chloe turned 3C, but it is Bob's turn" in result.output
    assert "BC-FALSE-SLAP Alice slapped" in result.output
    assert events(path) == ["Alice plays 5H", "Chloe plays 3C", "Alice slaps ; accepted BC-FALSE-SLAP"]
    assert result.exit_code == 1  # the out-of-turn card, written as played, is a violation


def test_from_a_pipe_a_flagged_line_followed_by_the_game_loses_no_line(tmp_path) -> None:
    """A pipe goes on with the game where an answer is asked, and cannot type a line
    again: the flagged line is written as played, the next line read as the next move,
    and a flagged last line is written too (the pipe ends where an answer is asked)."""
    result, path = play(tmp_path, "Alice plays 5H\nChloe plays 3C\nBob plays 6C\nAlice slaps\n")
    assert "'Bob plays 6C' is not an answer: the line above is written as played" in result.output
    assert events(path) == ["Alice plays 5H", "Chloe plays 3C", "Bob plays 6C", "Alice slaps"]
    result, path = play(tmp_path, "Alice plays 9H\nChloe plays 3C\nend\n", start=HEADERS)
    assert events(path) == ["Alice plays 9H", "Chloe plays 3C"] and result.exit_code == 1


@pytest.mark.parametrize(("typed", "message"), [
    ("Zoe plays 5H\n", "not written: the replay cannot use this line"),
    ("Alice plays 11H\n", "expected a card such as 7H"),
    ("Alice draws 2\n", "REC-UNSUPPORTED-EVENT"),
    ('[Game "caroleto"]\n', "headers go at the top"),
])
def test_lines_that_are_never_written(tmp_path, typed: str, message: str) -> None:
    result, path = play(tmp_path, typed)
    assert message in result.output and "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == HEADERS


def test_a_comment_is_written_as_typed(tmp_path) -> None:
    result, path = play(tmp_path, "Alice plays 5H\n; Bob hesitates\n")
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n; Bob hesitates\n"


def test_a_record_without_a_final_line_end_and_with_crlf(tmp_path) -> None:
    start = HEADERS.replace("\n", "\r\n") + "Alice plays 5H"
    result, path = play(tmp_path, "Bob plays 6C\n", start)
    assert path.read_bytes() == (start + "\r\nBob plays 6C\r\n").encode()


def test_a_record_that_cannot_be_read(tmp_path) -> None:
    result, path = play(tmp_path, "", HEADERS + "Alice plays 11H\n")
    assert result.exit_code == 2 and "expected a card" in result.output
    assert "\n    Alice plays 11H\n" in result.output  # the line and its caret, each on its own


def test_a_record_that_is_not_utf8_is_refused_as_check_refuses_it(tmp_path) -> None:
    """Played on, it was replayed with its bad bytes replaced, reported in progress (exit 0)
    where check says it cannot be read, and lines in UTF-8 were added to it."""
    path = tmp_path / "game.txt"
    start = (HEADERS + "Alice plays 5H ; café\n").encode("latin-1")
    path.write_bytes(start)
    result = CliRunner().invoke(main, ["play", str(path)], input="Bob plays 6C\n")
    assert result.exit_code == 2 and "game.txt:4:21: this file is not UTF-8 text (byte 0xe9" in result.output
    assert path.read_bytes() == start


def test_a_json_record_is_refused_with_the_way_to_a_text_one(tmp_path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"games": []}', encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(path)], input="Bob plays 6C\n")
    assert result.exit_code == 2 and "game.json is a JSON record" in result.output and "referee import" in result.output
    assert path.read_text(encoding="utf-8") == '{"games": []}'


def test_a_new_record_from_a_pipe_asks_again_after_a_bad_answer(tmp_path) -> None:
    typed = "belote\nbataille corse\nAlice\nAlice Bob\nBen\nBob\n\nsome\n\n\n\n\n\nAlice plays 5H\n"
    result, path = play(tmp_path, typed, start=None)
    assert "referee referees bataille-corse" in result.output
    assert "Bataille corse is for 2 to 5 players, not 1" in result.output
    assert "[Penalty \"some\"]: Bataille corse accepts one of burn-3" in result.output
    text = path.read_text(encoding="utf-8")
    assert "[Dealer \"Ben\"] names nobody in [Players]" in result.output
    assert '[Dealer "Bob"]\n' in text and '[Penalty "burn-3"]\n' in text
    assert events(path) == ["Alice plays 5H"]


def test_check_does_not_load_prompt_toolkit(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\n", encoding="utf-8")
    code = ("import sys; from referee.cli import main\n"
            "try:\n    main(['check', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print('prompt_toolkit' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip().endswith("False")


def test_a_game_with_options_left_empty_and_no_turn_order(tmp_path) -> None:
    """Carte et Plouc's [Variants] is empty by default: Enter writes no header. Caroleto
    has no turn order between rounds: the prompt is the table's."""
    result, path = play(tmp_path, "carte et plouc\nAna Ben\n\n\n\n\n\n\n\n\nAna plays 5H\n", start=None)
    assert "[Variants" not in path.read_text(encoding="utf-8") and events(path) == ["Ana plays 5H"]
    result, path = play(tmp_path, "", start='[Game "caroleto"]\n[Players "Léa Max Noé"]\n\nMax says roi\n')
    assert "table> " in result.output


@pytest.mark.parametrize(("answer", "written"), [
    ("oui", "Chloe plays 3C"), ("O", "Chloe plays 3C"), ("yes", "Chloe plays 3C"),
    ("accepté", "Chloe plays 3C ; accepted BC-OUT-OF-TURN"), ("Accepted", "Chloe plays 3C ; accepted BC-OUT-OF-TURN"),
    ("non", None), ("no", None), ("", None),
])
def test_write_it_is_answered_in_english_or_french(tmp_path, answer: str, written: str | None) -> None:
    result, path = play(tmp_path, f"Alice plays 5H\nChloe plays 3C\n{answer}\nend\n")
    assert events(path) == ["Alice plays 5H", *([written] if written else [])]
    assert ("not written" in result.output) == (written is None)


def test_a_line_that_reads_as_an_event_is_never_taken_for_an_answer(tmp_path) -> None:
    """At a terminal: before, any other answer asked again with no hint and swallowed the
    lines after it, ``end`` included; now the table is told to answer, then type it again."""
    from referee.cli.play import play as session

    path = tmp_path / "game.txt"
    path.write_text(HEADERS, encoding="utf-8")
    typed = iter("Alice plays 5H\nChloe plays 3C\nBob plays 6C\nend\nmaybe\nn\nBob plays 6C\nend\n".splitlines())

    def ask(prompt: str, choices: object) -> str:
        return next(typed)

    shown: list[str] = []
    session(str(path), ask, shown.append)
    output = "\n".join(shown)
    assert "'Bob plays 6C' is not an answer: first say whether to write the line above (y, a or n); " \
           "then type 'Bob plays 6C' again" in output
    assert "'end' is not an answer" in output
    assert "answer y (write it as played), a (accepted by the table) or n (do not write it)" in output
    assert events(path) == ["Alice plays 5H", "Bob plays 6C"]


def test_a_new_record_shows_its_defaults_takes_prefixes_and_french_names(tmp_path) -> None:
    """Enter at ``game?`` is the game shown as the default; ``carte`` starts one game's name
    only, ``car`` two; a game's name typed at ``players?`` is not taken for players; an
    option takes the start of a choice; the headers are shown, and asked for again on n."""
    typed = ("car\ncarte\nAna Ben\n\n\n\n\n\n\nn\n"  # carte-et-plouc, then n: ask again
             "\nPierre qui roule\nAna Ben Cas\nAna\n"  # Enter: bataille-corse; the game typed one question late
             "sand pa\n\n\n\n\ny\nBen plays 5H\n")
    result, path = play(tmp_path, typed, start=None)
    out = result.output
    assert "referee referees bataille-corse, carte-et-plouc, pierre-qui-roule, flaschenteufel or caroleto\ngame [bataille-corse]? " in out
    assert "'car' may be carte-et-plouc or caroleto: type more of its name" in out
    assert '[Game "carte-et-plouc"]' in out and "again, from the game" in out
    assert "'Pierre qui roule' is a game's name: type the players' names" in out
    assert "Variants, the additional rules in play (david-le-fou with a [Sanction]): any of david-le-fou, zero, " in out
    assert "maitresse [Enter: none]? " in out
    assert "Slaps, what may be slapped besides the pair: any of pair, addition, sandwich or big-mac [pair]? " in out
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[Game "bataille-corse"]\n[Players "Ana Ben Cas"]\n[Dealer "Ana"]\n')
    assert '[Slaps "sandwich pair"]\n' in text and events(path) == ["Ben plays 5H"]


def test_a_french_title_names_its_game(tmp_path) -> None:
    result, path = play(tmp_path, "pierre qui roule\nAna Ben Cas Dom\n" + "\n" * 12, start=None)
    assert path.read_text(encoding="utf-8").startswith('[Game "pierre-qui-roule"]\n')


def test_a_new_record_started_in_french_is_written_in_french_notation(tmp_path) -> None:
    """Issue 35: a table that speaks French writes its game in French from the first line:
    the headers, the short form of a line, and the commands by their French names."""
    path = tmp_path / "nouvelle.txt"
    typed = "bataille corse\nZoé Hugo\n\n" + "\n" * 8 + "joue 8P\nannuler\nZoé joue 8P\nfin\n"
    result = CliRunner().invoke(main, ["--lang", "fr", "play", str(path)], input=typed)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Zoé Hugo"]\n'), text
    assert text.endswith("\nZoé joue 8P\n"), text
    assert "annulé" in result.output or "retir" in result.output, result.output
    assert result.exit_code == 0, result.output


def test_a_new_record_written_by_play_is_in_fmts_header_order(tmp_path) -> None:
    """[Date] after the game's options, where ``fmt`` puts it: a record written at the table
    passes the documented CI's ``fmt --check``."""
    typed = "bataille corse\nAlice Bob\n\nsandwich\n\n\n\n\n\nAlice plays 5H\n"
    _, path = play(tmp_path, typed, start=None)
    text = path.read_text(encoding="utf-8")
    assert text.index("[Slaps") < text.index("[Date")
    checked = CliRunner().invoke(main, ["fmt", "--check", "--no-config", str(path)])
    assert checked.exit_code == 0, checked.output


# --- The live record in process (referee/live.py) -------------------------------------------------

def session_of(tmp_path, text: str, name: str = "game.txt"):
    """A Session on a record holding ``text``, loaded, and its file (closed by the caller)."""
    from referee.files.record_file import RecordFile
    from referee.live import Session

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    opened = RecordFile.open(str(path))
    session = Session(str(path), opened)
    session.load()
    return session, path


def test_the_words_offered_after_each_word_of_a_line(tmp_path) -> None:
    from referee.live import COMMANDS, FRENCH_COMMANDS, vocabulary

    session, _ = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    words = vocabulary(session)
    assert words.next([]) == ["Alice", "Bob", "Chloe", *words.verbs, *COMMANDS]
    assert words.next(["Bob"]) == words.verbs
    assert words.next(["Bob", "plays"]) == [*words.cards, "to", "on", "for"]
    assert words.next(["Bob", "gives", "KC", "to"]) == ["Alice", "Bob", "Chloe"]
    assert words.next(["Bob", "plays", "AS", "for"]) == ["S", "H", "D", "C"]
    assert words.next(["plays", "Bob"]) == [*words.cards, "to", "on", "for"]  # a player's name after the verb
    session.file.close()
    french, _ = session_of(tmp_path, '[Jeu "bataille-corse"]\n[Notation "fr"]\n[Joueurs "Ana Ben"]\n\nAna joue 7C\n', "fr.txt")
    assert vocabulary(french).next([])[-len(FRENCH_COMMANDS):] == list(FRENCH_COMMANDS)
    french.file.close()


def test_lines_written_before_an_outside_change_cannot_be_taken_back(tmp_path) -> None:
    """An editor appends a comment after a line this session wrote: once followed, the
    session's line is no longer its to take back (nothing to undo, no error)."""
    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    session.append("Bob plays 6C")
    with open(path, "a", encoding="utf-8") as outside:
        outside.write("; the editor's comment\n")
    assert session.follow()
    assert session.undo() is None
    assert path.read_text(encoding="utf-8").endswith("Bob plays 6C\n; the editor's comment\n")
    session.file.close()


def test_an_outside_change_is_followed_once_until_the_record_is_read(tmp_path) -> None:
    """The table page follows the file without reading it at once (``load=False``): a
    change is reported once, then nothing more until the record is read again."""
    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    with open(path, "a", encoding="utf-8") as outside:
        outside.write("Bob plays 6C\n")
    assert session.follow(load=False)
    assert not session.follow(load=False)
    session.load()
    assert [e.line for e in session.replayed()[0].events] == [4, 5]
    assert not session.follow(load=False)
    session.file.close()


def test_undo_takes_back_the_lines_written_last_first(tmp_path) -> None:
    """Two lines written, taken back one at a time: the last first, the file cut back to
    where each began, the game replayed as it stands."""
    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    session.append("Bob plays 6C")
    session.append("Chloe plays 7D")
    assert session.undo() == "Chloe plays 7D"
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\nBob plays 6C\n"
    assert len(session.replayed()[0].events) == 2
    assert session.undo() == "Bob plays 6C"
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n"
    assert session.undo() is None
    session.file.close()


def test_an_undo_is_refused_when_the_file_changed_after_its_line_unseen(tmp_path) -> None:
    """A line written, then an outside append the session has not followed yet: undo
    refuses (the record changed) and cuts nothing."""
    from referee.live import SessionError

    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    session.append("Bob plays 6C")
    with open(path, "a", encoding="utf-8") as outside:
        outside.write("Chloe plays 7D\n")
    with pytest.raises(SessionError, match="changed"):
        session.undo()
    assert path.read_text(encoding="utf-8").endswith("Bob plays 6C\nChloe plays 7D\n")
    session.file.close()


def test_a_record_made_by_its_first_line_has_its_folder_synced(tmp_path, monkeypatch) -> None:
    """The headers of a new game written with its first line: the file's name is made
    durable too (its folder synced); a line alone syncs the file only."""
    from referee.files.record_file import RecordFile
    from referee.live import Session

    synced: list[str] = []
    monkeypatch.setattr(RecordFile, "sync_folder", lambda self: synced.append("folder"))
    path = tmp_path / "new.txt"
    with RecordFile.open(str(path), create=True) as opened:
        session = Session(str(path), opened)
        session.append("Alice plays 5H", headers=HEADERS)
        assert synced == ["folder"]
        session.append("Bob plays 6C")
        assert synced == ["folder"]
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\nBob plays 6C\n"


def test_a_session_reports_only_the_codes_the_configuration_selects(tmp_path) -> None:
    """As check reports it: a code the configuration ignores is left out of the game's
    report, and the game is valid without it."""
    from referee.config import Config, resolve
    from referee.files.record_file import RecordFile
    from referee.live import Session

    path = tmp_path / "game.txt"
    path.write_text(HEADERS + "Alice plays 5H\nChloe plays 3C\n", encoding="utf-8")
    with RecordFile.open(str(path)) as opened:
        session = Session(str(path), opened, settings=resolve(Config(), str(path), ignore=("BC-OUT-OF-TURN",)))
        session.load()
        report = session.replayed()[1]
        assert report.violations == [] and report.status != "violations"


def test_the_last_game_moved_by_an_outside_edit_above_it_stands_as_before(tmp_path) -> None:
    """A comment typed by another hand in the first game moves the last one (its report
    numbered anew, not replayed): the session still holds the game as it stands."""
    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n\n" + HEADERS + "Alice plays 6H\nBob plays 7C\n")
    before = session.state.table.turn
    path.write_text("; Friday\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert session.follow()
    assert session.state is not None and session.state.table.turn == before == "Chloe"
    assert [e.line for e in session.replayed()[0].events] == [10, 11]
    session.file.close()


def test_a_line_is_ruled_where_it_would_be_written(tmp_path) -> None:
    """``rule``: a line's faults, or why it cannot be read, on the line it would be written
    on (line 5), at its column; a comment is nothing; the file is not touched."""
    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    faults, error = session.rule("Chloe plays 6C")
    assert [(v.code, v.line) for v in faults] == [("BC-OUT-OF-TURN", 5)] and error is None
    for line, where, words in (("Bob plays 11H", (5, 11), "expected a card"),
                               ('[Players "Ann Ben"]', (5, 1), "not an event"),
                               ("Bob plays 6C\x00", (5, 13), "binary data")):
        faults, error = session.rule(line)
        assert faults == [] and error is not None and (error.line, error.column) == where and words in error.message, line
    assert session.rule("; a comment") == ([], None)
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n"
    session.file.close()


def test_a_line_written_without_reading_again_is_not_taken_for_an_outside_change(tmp_path) -> None:
    """The table page writes a line and reads the record at its next look (``load=False``):
    its own line is no outside change, and it can still be taken back."""
    session, path = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    session.append("Bob plays 6C", load=False)
    assert not session.follow(load=False)
    session.load()
    assert session.undo() == "Bob plays 6C"
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n"
    session.file.close()


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_the_last_line_is_taken_back_whatever_the_line_ends(tmp_path, end: str) -> None:
    """``undo_last`` (the table page's undo, whoever wrote the line) in a record in LF,
    CRLF or CR line ends: the file is cut back to where its last line began."""
    from referee.files.record_file import RecordFile
    from referee.live import Session

    path = tmp_path / "game.txt"
    start = (HEADERS + "Alice plays 5H\n").replace("\n", end)
    path.write_bytes((start + "Bob plays 6C" + end).encode())
    with RecordFile.open(str(path)) as opened:
        session = Session(str(path), opened)
        session.load()
        session.undo_last("Bob plays 6C")
        assert path.read_bytes() == start.encode()
        assert len(session.replayed()[0].events) == 1


def test_headers_that_cannot_be_written_are_refused_with_the_readers_message() -> None:
    """A new game's headers (play's questions, the table page's form) whose value cannot
    be written in a record (a line end in it): refused as the reader would refuse them."""
    from referee.games.base import SetupError
    from referee.live import headers_record

    record = headers_record([("Game", "bataille-corse"), ("Players", 'Alice "Al" Bob')])
    assert record.header("Players").value == 'Alice "Al" Bob'
    with pytest.raises(SetupError, match="double quotes"):
        headers_record([("Game", "bataille-corse"), ("Players", "Alice\nBob")])


def test_the_words_offered_are_the_games_verbs_and_its_legal_cards_first(tmp_path) -> None:
    """The verbs offered are the game's, in the notation's order; the cards, the legal
    ones first (Ben must follow spades: AS, 7S, 10S), then the whole deck."""
    from referee.live import vocabulary

    session, _ = session_of(tmp_path, HEADERS + "Alice plays 5H\n")
    assert vocabulary(session).verbs == ["holds", "plays", "slaps", "collects", "burns", "gives"]
    session.file.close()
    text = ('[Game "pierre-qui-roule"]\n[Players "Ann Ben Cas Dom"]\n[Dealer "Dom"]\n\n'
            "Ann holds 8C KC 10D QD JH 8S JS QS\nBen holds AC QC AD 8D AH AS 7S 10S\n"
            "Cas holds 9C 10C JC KD 8H KH 9S KS\nDom holds 7C 7D 9D JD 7H 9H 10H QH\nAnn plays JS\n")
    session, _ = session_of(tmp_path, text, "pqr.txt")
    words = vocabulary(session)
    assert words.cards[:3] == ["AS", "7S", "10S"] and len(words.cards) == len(set(words.cards)) == 52  # then its rules' whole deck
    session.file.close()
