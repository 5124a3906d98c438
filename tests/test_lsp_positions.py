"""The editor's places in the client's code units (referee/lsp/server.py ``_UNITS``),
counted without a loop in Python, are those pygls counts, in every encoding a client may
ask for (issue 33: a thousand diagnostics took tens of milliseconds to place)."""

from __future__ import annotations

import pytest
from lsprotocol import types as lsp
from pygls.workspace.position_codec import PositionCodec

from referee.lsp.server import _UNITS


@pytest.mark.parametrize("encoding", [lsp.PositionEncodingKind.Utf8, lsp.PositionEncodingKind.Utf16,
                                      lsp.PositionEncodingKind.Utf32])
def test_units_are_those_pygls_counts(encoding: lsp.PositionEncodingKind) -> None:
    codec = PositionCodec(encoding)
    for text in ["Océane plays 2H", "Zoé plays ♥10 ; 😋 ok", "a\ud800b", "", "plain"]:
        for column in range(len(text) + 2):
            expected = codec.position_to_client_units([text], lsp.Position(0, column)).character
            assert _UNITS[encoding.value](text[:column]) == expected, (text, column)
