"""The editor configurations of docs/editors.md work as written: Neovim 0.7 (Debian's)
is driven headless against the server and shows ``check``'s faults; the Neovim 0.11
Lua, the Helix TOML and the VS Code JSON parse."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from referee.engine import check_games
from referee.notation import parse_text

from .conftest import RECORDS, ROOT

pytest.importorskip("pygls")

DOC = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
NVIM = shutil.which("nvim")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.S)


def _nvim_07() -> bool:
    if NVIM is None:
        return False
    version = subprocess.run([NVIM, "--version"], capture_output=True, text=True).stdout
    return version.startswith("NVIM v0.7")


@pytest.mark.skipif(not _nvim_07(), reason="Neovim 0.7 (Debian's) is not installed")
def test_neovim_07_headless_shows_what_check_reports(tmp_path: Path) -> None:
    (config,) = [b for b in _blocks("lua") if "start_client" in b]
    command = 'cmd = { %s, "-m", "referee", "lsp" }' % json.dumps(sys.executable)
    (tmp_path / "init.lua").write_text(config.replace('cmd = { "referee", "lsp" }', command), encoding="utf-8")
    (tmp_path / "records").mkdir()
    text = (RECORDS / "carte-et-plouc" / "accepted.txt").read_text(encoding="utf-8") + "Cas swears\n"
    record = tmp_path / "records" / "game.txt"
    record.write_text(text, encoding="utf-8")
    out = tmp_path / "out.txt"
    script = ("lua vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100); local out = {}; "
              "for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(out, (d.lnum + 1) .. ' ' .. tostring(d.code)) end; "
              f"vim.fn.writefile(out, {json.dumps(str(out))})")
    env = {"PYTHONPATH": str(ROOT), "LANGUAGE": "en", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
           "XDG_STATE_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    subprocess.run([NVIM, "--headless", "-u", str(tmp_path / "init.lua"), str(record), "-c", script, "-c", "qa!"],
                   cwd=tmp_path, env=env, timeout=120, check=True, stdin=subprocess.DEVNULL, capture_output=True)
    shown = sorted(out.read_text(encoding="utf-8").split("\n")[:-1])
    expected = sorted(f"{v.line} {v.code}" for _, report in check_games(parse_text(text)) for v in report.violations)
    assert shown == expected and len(shown) > 3


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed")
def test_the_neovim_configurations_parse(tmp_path: Path) -> None:
    blocks = _blocks("lua")
    assert len(blocks) == 2
    for n, block in enumerate(blocks):
        path = tmp_path / f"{n}.lua"
        path.write_text(block, encoding="utf-8")
        check = f"lua local f, e = loadfile({json.dumps(str(path))}); if not f then vim.fn.writefile({{e}}, {json.dumps(str(tmp_path / 'error'))}) end"
        subprocess.run([NVIM, "--headless", "--clean", "-c", check, "-c", "qa!"], timeout=60, check=True,
                       stdin=subprocess.DEVNULL, capture_output=True)
        assert not (tmp_path / "error").exists(), (tmp_path / "error").read_text()


def test_the_helix_and_vs_code_configurations_parse() -> None:
    (helix,) = _blocks("toml")
    parsed = tomllib.loads(helix)
    assert parsed["language-server"]["referee"]["args"] == ["lsp"]
    assert parsed["language"][0]["language-servers"] == ["referee"]
    blocks = [json.loads(block) for block in _blocks("json")]
    assert any(b.get("glspc.server.command") == "referee" for b in blocks)
    assert any("[referee]" in b for b in blocks)
