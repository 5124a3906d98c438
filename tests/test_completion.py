"""Shell completion, as docs/commands.md documents it for bash, zsh and fish."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _complete(shell: str, words: str, cword: int) -> str:
    env = {**os.environ, "_REFEREE_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    code = "import sys; from referee.cli import main; sys.argv = ['referee']; main()"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60).stdout


def test_bash_completes_a_command() -> None:
    assert "plain,check" in _complete("bash", "referee ch", 1).splitlines()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_documented_shell_has_its_script(shell: str) -> None:
    env = {**os.environ, "_REFEREE_COMPLETE": f"{shell}_source"}
    code = "import sys; from referee.cli import main; sys.argv = ['referee']; main()"
    script = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60).stdout
    assert "_REFEREE_COMPLETE" in script and "referee" in script
