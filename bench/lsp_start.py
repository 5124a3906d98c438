"""How long ``referee lsp`` takes to start (issue 37): from starting the process to the
answer to ``initialize``, and to the first diagnostics of a record opened right after.

    python bench/lsp_start.py               # 7 starts
    python bench/lsp_start.py --runs 15
    python bench/lsp_start.py --source DIR  # another tree's referee (to compare)

Each run starts ``python -m referee lsp`` afresh (its modules' bytecode already
compiled), speaks to it over a pipe as an editor does, and stops it; the median and the
slowest of the runs are printed. ``python -X importtime -m referee lsp`` says where the
import time goes (docs/editors.md, "How fast")."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "records" / "carte-et-plouc" / "calls.txt"


def _frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read(stream) -> dict:  # type: ignore[no-untyped-def]
    length = 0
    while True:
        line = stream.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    message: dict = json.loads(stream.read(length))
    return message


def run(source: Path) -> tuple[float, float]:
    """Seconds to the answer to ``initialize``, and to the first diagnostics."""
    env = {**os.environ, "PYTHONPATH": str(source), "LANGUAGE": "en"}
    start = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "referee", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, cwd=source)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(_frame({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                          "capabilities": {}}}))
    server.stdin.flush()
    while "id" not in _read(server.stdout):
        pass
    answered = time.perf_counter() - start
    uri = RECORD.as_uri()
    server.stdin.write(_frame({"method": "initialized", "params": {}}) + _frame({
        "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "referee", "version": 1, "text": RECORD.read_text(encoding="utf-8")}}}))
    server.stdin.flush()
    while _read(server.stdout).get("method") != "textDocument/publishDiagnostics":
        pass
    diagnosed = time.perf_counter() - start
    server.stdin.write(_frame({"id": 2, "method": "shutdown"}) + _frame({"method": "exit"}))
    server.stdin.close()
    server.wait()
    return answered, diagnosed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--source", type=Path, default=ROOT, help="the tree whose referee is started")
    args = parser.parse_args()
    run(args.source)  # bytecode compiled, files in the cache
    times = [run(args.source) for _ in range(args.runs)]
    for n, label in enumerate(("initialize answered", "first diagnostics")):
        found = [t[n] * 1000 for t in times]
        print(f"{label}: median {statistics.median(found):.0f} ms, slowest {max(found):.0f} ms ({args.runs} runs)")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
