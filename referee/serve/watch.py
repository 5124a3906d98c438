"""When the served record may have changed, without a request: the operating system's
own notice of a change in the record's folder (watchfiles: inotify, FSEvents, …), or,
where that cannot be had, a look every half second.

Either way the caller then looks at the record itself (its name, size and time of
change, ``Served.refresh``): a notice only says when to look. With watchfiles, a look
is also taken every second without a notice, for the folders a notice never comes from
(a network share written by another machine). ``REFEREE_WATCH=poll`` asks for polling."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import Any

POLL_EVERY = 0.5
"""Seconds between two looks when polling."""
LOOK_EVERY_MS = 1000
"""With watchfiles: a look at least this often, notice or not."""


def how() -> str:
    """``watchfiles`` or ``polling``: what ``changes`` will use here."""
    if os.environ.get("REFEREE_WATCH") == "poll":
        return "polling"
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        return "polling"
    return "watchfiles"


async def changes(path: str, stop: asyncio.Event) -> AsyncGenerator[None, None]:
    """Yields each time the record at ``path`` may have changed, until ``stop`` is set."""
    if how() == "watchfiles":
        try:
            async for _ in _notices(path, stop):
                yield
            return
        except OSError:  # no watch to be had (the system's limit of watches reached…): poll
            pass
    while not stop.is_set():
        await asyncio.sleep(POLL_EVERY)
        yield


async def _notices(path: str, stop: asyncio.Event) -> AsyncGenerator[None, None]:
    from watchfiles import awatch

    folder = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)

    def ours(_change: Any, changed: str) -> bool:  # the record, whichever way it was saved
        return os.path.basename(changed) == name

    found = awatch(folder, watch_filter=ours, stop_event=stop, recursive=False, debounce=50, step=20,
                   rust_timeout=LOOK_EVERY_MS, yield_on_timeout=True)
    async with aclosing(found):
        async for _ in found:
            yield
