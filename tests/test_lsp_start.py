"""What ``referee lsp`` loads to start (issue 37: a newcomer found it slow to start).
Its start is measured by bench/lsp_start.py; this keeps what it loads before the first
request from creeping back: not explain nor fmt, which hover and formatting import when
they are first asked for. (The state of a game and the file reader are loaded: the editor
holds a record through the live record, referee/live.py, which needs both.)"""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT

pytest.importorskip("pygls")


def test_the_server_starts_without_explain_or_fmt() -> None:
    code = "import sys\nimport referee.lsp.server\nsys.stdout.write(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                check=True).stdout.split())
    assert "referee.lsp.features" in loaded and "pygls" in loaded
    assert "referee.live" in loaded
    assert not loaded & {"referee.cli.explain", "referee.cli.fmt"}
