"""Hardening, second round (issue 20), through the commands: fmt and play write only
through what they checked, under the record's lock; walks read regular files only; no
traceback and the right exit on the new surfaces."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.files.lock import RecordLock

pexpect = pytest.importorskip("pexpect")

GOOD = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice plays JD\nBob plays 8C\nAlice collects\n'
UNFORMATTED = '[Game "bataille-corse"]\n[Players "Alice Bob"]\nAlice   plays jd\n'
HEADERS = '[Game "bataille-corse"]\n[Players "Alice Bob Chloe"]\n\n'
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def fmt(*args: str):
    return CliRunner().invoke(main, ["fmt", "--no-config", *args])


def spawn(path):
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", NO_COLOR="1")
    return pexpect.spawn(sys.executable, ["-m", "referee", "play", str(path)], env=env, encoding="utf-8",
                         timeout=20, dimensions=(24, 100))


@pytest.fixture
def unformatted(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(UNFORMATTED, encoding="utf-8")
    return path


# --- D19: fmt keeps owner, group and mode; leaves read-only and hard-linked files -----------------

@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_fmt_keeps_the_owner_and_group_of_another_users_file(unformatted) -> None:
    os.chown(unformatted, 65534, 65534)
    unformatted.chmod(0o640)
    assert fmt(str(unformatted)).exit_code == 0
    status = unformatted.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (65534, 65534, 0o640)
    assert "Alice plays JD" in unformatted.read_text(encoding="utf-8")


def test_fmt_leaves_a_read_only_file_alone_and_says_so(unformatted) -> None:
    unformatted.chmod(0o444)
    result = fmt(str(unformatted))
    assert result.exit_code == 2 and "g.txt: this file is read-only" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED


def test_fmt_leaves_a_hard_linked_file_alone_and_says_so(unformatted) -> None:
    os.link(unformatted, unformatted.with_name("also.txt"))
    result = fmt(str(unformatted))
    assert result.exit_code == 2 and "2 names (hard links)" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED
    assert os.path.samefile(unformatted, unformatted.with_name("also.txt"))


# --- D26: one writer per record -------------------------------------------------------------------

def test_fmt_is_refused_while_a_session_writes_the_record(unformatted) -> None:
    with RecordLock(unformatted, "play"):
        result = fmt(str(unformatted))
    assert result.exit_code == 2 and "being written by another session (referee play" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED
    assert fmt("--check", str(unformatted)).exit_code == 1  # reading needs no lock


def test_a_second_play_session_is_refused_with_who_holds_the_record(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(HEADERS, encoding="utf-8")
    first = spawn(path)
    first.expect("Alice>")
    second = subprocess.run([sys.executable, "-m", "referee", "play", str(path)], input="Alice plays 5H\n",
                            capture_output=True, text=True, timeout=30)
    assert second.returncode == 2
    assert f"process {first.pid}" in second.stderr and "referee play" in second.stderr
    first.sendline("Alice plays 5H")
    first.expect("ok: ")
    first.sendline("end")
    first.expect(pexpect.EOF)
    assert path.read_text(encoding="utf-8") == HEADERS + "Alice plays 5H\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]  # the lock file removed


# --- D18: play writes only to the file it opened ---------------------------------------------------

def test_play_never_writes_through_a_link_swapped_in(tmp_path) -> None:
    path, victim = tmp_path / "game.txt", tmp_path / "victim"
    path.write_text(HEADERS, encoding="utf-8")
    victim.write_bytes(b"secret\n")
    child = spawn(path)
    child.expect("Alice>")
    path.rename(tmp_path / "moved.txt")
    path.symlink_to(victim)
    child.sendline("Alice plays 5H")
    child.expect("symbolic link, not a regular file")  # the name leads to a link now: nothing written
    child.expect(pexpect.EOF)
    assert victim.read_bytes() == b"secret\n"
    assert (tmp_path / "moved.txt").read_text(encoding="utf-8") == HEADERS  # nor into the file that lost the name


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_play_on_a_device_names_the_file(tmp_path) -> None:
    result = CliRunner().invoke(main, ["play", "/dev/full"], input="")
    assert result.exit_code == 2 and "/dev/full: this is a device, not a regular file" in result.output


def test_play_on_a_named_pipe_says_so_at_once(tmp_path) -> None:
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["play", str(fifo)], input="")
    assert result.exit_code == 2 and "a named pipe (FIFO), not a regular file" in result.output


# --- D15, D16, D17: walks read regular files only, follow no link to a folder, skip nothing silently ----

def referee(*args: str, stdin: str = "", cwd=None) -> subprocess.CompletedProcess:
    """The command in its own process, with a time limit: a hang fails the test."""
    return subprocess.run([sys.executable, "-m", "referee", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=cwd, env=dict(os.environ, PYTHONPATH=os.getcwd()))


@pytest.fixture
def hostile_tree(tmp_path):
    """A folder of records with a named pipe, a link to /dev/stdin and two links to '..'."""
    folder = tmp_path / "club"
    (folder / "sub").mkdir(parents=True)
    formatted = GOOD.replace("]\nAlice", "]\n\nAlice", 1)
    (folder / "a.txt").write_text(formatted, encoding="utf-8")
    (folder / "sub" / "b.txt").write_text(formatted, encoding="utf-8")
    os.mkfifo(folder / "sub" / "pipe.txt")
    (folder / "stdin.txt").symlink_to("/dev/stdin")
    (folder / "sub" / "up").symlink_to("..")
    (folder / "up").symlink_to("..")
    return folder


@pytest.mark.parametrize("command, target", [
    (["check", "-q"], "club"), (["check", "-q"], "club/**/*.txt"), (["check", "-q"], "club/*/*.txt"),
    (["check", "-q", "--jobs", "2"], "club/**"), (["fmt", "--check"], "club"), (["fmt", "--check"], "club/**/*.txt"),
])
def test_a_walk_reads_regular_files_only_and_follows_no_link_to_a_folder(hostile_tree, command, target) -> None:
    done = referee(*command, "--no-config", target, stdin="never read\n", cwd=hostile_tree.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pipe" not in done.stdout + done.stderr and "stdin" not in done.stdout + done.stderr
    if command[0] == "check":
        files = 2 if target in ("club", "club/**/*.txt", "club/**") else 1
        assert done.stdout.endswith("(2 games in 2 files)\n" if files > 1 else "1 in progress\n"), done.stdout


@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["state"], ["explain"]])
def test_a_named_pipe_named_on_the_command_line_is_refused_at_once(hostile_tree, command) -> None:
    target = str(hostile_tree / "sub" / "pipe.txt") + (":3" if command == ["explain"] else "")
    done = referee(*command, target)
    assert done.returncode == 2 and "a named pipe (FIFO), not a regular file" in done.stdout + done.stderr


def test_a_link_to_the_standard_input_is_not_read(hostile_tree) -> None:
    done = referee("check", str(hostile_tree / "stdin.txt"), stdin=GOOD)
    assert done.returncode == 2 and "not a regular file" in done.stdout


def test_a_folder_that_cannot_be_listed_is_named_and_the_check_fails(hostile_tree, monkeypatch) -> None:
    from referee.files import paths

    listing = os.scandir
    locked = str(hostile_tree / "sub")

    def scandir(path):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return listing(path)

    monkeypatch.setattr(paths.os, "scandir", scandir)
    for target in (str(hostile_tree), str(hostile_tree) + "/**/*.txt"):
        result = CliRunner().invoke(main, ["check", "--no-config", "-q", target])
        assert result.exit_code == 2, result.output
        assert f"{locked}: this folder cannot be listed (Permission denied)" in result.output
    result = fmt(str(hostile_tree))
    assert result.exit_code == 2 and "this folder cannot be listed" in result.output


def test_a_folder_deeper_than_the_path_limit_is_named(tmp_path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, encoding="utf-8")
    name = "d" * 250
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(20):  # some 5,000 characters: past PATH_MAX
        os.mkdir(name, dir_fd=fd)
        deeper = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = deeper
    with open(os.open("deep.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w", encoding="utf-8") as deep:
        deep.write(GOOD)
    os.close(fd)
    done = referee("check", "-q", "--no-config", str(tmp_path))
    assert done.returncode == 2 and "this folder cannot be listed" in done.stdout + done.stderr


# --- D23: a worker killed mid-batch ----------------------------------------------------------------

def _killing(paths, settings):
    """A worker's check that kills its own process (as the out-of-memory killer would)
    when it reaches kill.txt."""
    import signal

    from referee.cli import batch

    if any(p.endswith("kill.txt") for p in paths):
        os.kill(os.getpid(), signal.SIGKILL)
    return batch.__dict__["_checked"](paths, settings)


def test_a_worker_killed_mid_batch_loses_only_its_batch(tmp_path, monkeypatch) -> None:
    """The workers are forked from this process, with the patched check."""
    from referee.cli import batch

    monkeypatch.setattr(batch, "BATCH_FILES", 4)
    monkeypatch.setitem(batch.__dict__, "_checked", batch._in_worker)
    monkeypatch.setattr(batch, "_in_worker", _killing)
    folder = tmp_path / "club"
    folder.mkdir()
    for n in range(40):
        (folder / f"r{n:02d}.txt").write_text(GOOD, encoding="utf-8")
    (folder / "kill.txt").write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-config", "-q", "--jobs", "2", str(folder)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "BrokenProcessPool" not in str(result.exception or "")
    assert "kill.txt: this file could not be checked: its worker process failed" in result.output
    lost = result.output.count("its worker process failed")
    assert 1 <= lost <= 4, result.output[-3000:]  # the batch of kill.txt only
    assert result.output.endswith(f"{lost} game{'s' if lost > 1 else ''} that could not be checked whole; "
                                  f"{41 - lost} in progress (41 games in 41 files)\n"), result.output[-300:]


# --- D20: bounded reads ----------------------------------------------------------------------------

def test_fmt_refuses_a_record_over_its_bound_before_reading_it(unformatted, monkeypatch) -> None:
    from referee.files import record_file

    monkeypatch.setattr(record_file, "RECORD_LIMIT", 20)
    result = fmt(str(unformatted))
    assert result.exit_code == 2 and "g.txt: this file is larger than" in result.output
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED
    result = CliRunner().invoke(main, ["fmt", "--no-config", "-"], input=UNFORMATTED)
    assert result.exit_code == 2 and "<stdin>: this file is larger than" in result.output


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_fmt_never_reads_a_device(tmp_path) -> None:
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    result = fmt(str(link))
    assert result.exit_code == 2 and "this is a device, not a regular file" in result.output


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="the peak of memory read from /proc")
def test_import_reads_standard_input_by_blocks_up_to_its_bound() -> None:
    code = ("import sys; from referee.cli import main\n"
            "try:\n    main(['import', '--no-config', '-'])\nexcept SystemExit as e:\n    status = e.code\n"
            "peak = next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
            "print(status, peak, file=sys.stderr)")
    data = b"{" + b" " * (100 << 20)
    done = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=os.getcwd()))
    status, kilobytes = done.stderr.decode().split()[-2:]
    assert status == "2" and "holds at most 8 MB" in done.stderr.decode()
    assert int(kilobytes) < 80_000  # read whole, it took over 125 MB


# --- D21, D22: JSON records ---------------------------------------------------------------------------

JSON_GAME = ('{"file": "g.txt", "games": [{"line": 1, "headers": [{"tag": "Game", "value": "bataille-corse", "line": 1}, '
             '{"tag": "Event", "value": %s, "line": 2}], "events": [], "comments": []}]}')


@pytest.mark.parametrize("command", [["check"], ["import"], ["export"]])
@pytest.mark.parametrize("value, said", [
    ('"\\ud800"', "games[0].headers[1].value: this text holds a lone surrogate"),
    ('"x", "extra": 1' + "0" * 5000, "it holds a number of more than 4,300 digits"),
    ("[" * 5000 + "]" * 5000, "nested too deep"),
])
def test_a_json_record_that_breaks_python_gets_an_error_at_its_place(tmp_path, command, value, said) -> None:
    path = tmp_path / "g.json"
    path.write_text(JSON_GAME % value, encoding="utf-8")
    result = CliRunner().invoke(main, [*command, str(path)])
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    assert said in result.output, result.output


def test_import_of_a_closed_standard_input_says_so(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "referee", "import", "-"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=30, close_fds=True,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and "the standard input is closed" in done.stderr and "NoneType" not in done.stderr


# --- D13, D14, D27: configurations ---------------------------------------------------------------------

def test_a_deeply_nested_configuration_is_an_error_not_a_traceback(tmp_path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    (tmp_path / "g.txt").write_text(GOOD, encoding="utf-8")
    for args in (["--config", str(config)], []):
        done = referee("check", *args, "g.txt", cwd=tmp_path)
        assert done.returncode == 2 and "this configuration is not TOML: it is nested too deep" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_configuration_over_its_bound_is_not_read(tmp_path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text("# " + "x" * (1 << 20) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--config", str(config), "-"], input=GOOD)
    assert result.exit_code == 2 and "holds at most 1 MB" in result.output


def test_a_game_given_a_value_instead_of_options_is_named_as_such(tmp_path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text("[games]\nbataille-corse = 3\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--config", str(config), "-"], input=GOOD)
    assert result.exit_code == 2 and "games.bataille-corse: expected a table" in result.output
    assert "is not a game" not in result.output


def test_configuration_messages_show_control_characters_escaped(tmp_path) -> None:
    folder = tmp_path / "a\x1b[2Jb\u202e"
    folder.mkdir()
    (folder / ".git").mkdir()
    config = folder / "referee.toml"
    config.write_text("strict = true\n", encoding="utf-8")
    config.chmod(0o666)
    (folder / "g.txt").write_text(GOOD, encoding="utf-8")
    done = referee("check", "g.txt", cwd=folder)
    assert "is not read: every user may write to it" in done.stderr
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr and "a\\x1b[2Jb\\u202e" in done.stderr
    for option in ("--select", "--ignore"):
        result = CliRunner().invoke(main, ["check", option, "BC\x1b[2J\u202e", "-"], input=GOOD)
        assert result.exit_code == 2 and "\x1b" not in result.output and "\u202e" not in result.output


# --- D24: explain FILE:LINE ------------------------------------------------------------------------------

def test_explain_with_a_line_number_of_thousands_of_digits(tmp_path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", f"{path}:{'9' * 5000}"])
    assert result.exit_code == 2 and "a line number of 5000 digits" in result.output and result.exception is None \
        or isinstance(result.exception, SystemExit)


# --- D25: fmt --diff ---------------------------------------------------------------------------------------

def test_fmt_diff_shows_unsafe_characters_escaped_and_splits_at_lf_only(tmp_path) -> None:
    path = tmp_path / "g.txt"
    path.write_text('[Game "bataille-corse"]\n[Players "Alice Bob"]\n[Event "a\u202eb\u2028c"]\n'
                    "Alice   plays JD ; x\u2028y\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", "--no-config", "--diff", str(path)])
    assert result.exit_code == 1
    assert "\u202e" not in result.output and "\u2028" not in result.output and "\x1b" not in result.output
    assert ' [Event "a\\u202eb\\u2028c"]\n' in result.output
    assert "+Alice plays JD  ; x\\u2028y\n" in result.output


def test_play_on_a_full_disk_names_the_file(tmp_path, monkeypatch) -> None:
    import errno

    from referee.files import record_file

    path = tmp_path / "game.txt"
    path.write_text(HEADERS, encoding="utf-8")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(record_file.os, "write", full)
    result = CliRunner().invoke(main, ["play", str(path)], input="Alice plays 5H\n")
    assert result.exit_code == 2 and f"{path}: cannot write the file: No space left on device; it is left as it was" in result.output
    assert path.read_text(encoding="utf-8") == HEADERS


def test_a_pattern_ending_in_a_slash_matches_as_without_it(hostile_tree, monkeypatch) -> None:
    from referee.files.paths import expand

    monkeypatch.chdir(hostile_tree.parent)
    assert list(expand(["club/**/"])) == list(expand(["club/**"])) == ["club/a.txt", "club/sub/b.txt"]
