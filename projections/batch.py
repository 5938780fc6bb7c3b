"""Settings for batch work: a process that plays, audits or projects many games in a row
(the rebuild, `caboose simulate`, `caboose audit --all`, and the workers of `--jobs`), not
the web server answering one request at a time.

It lives here, the lowest package both the read models' rebuild and the application's batch
commands may import, because it is a concern of the process running them, not of the rules.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

BULK_COLLECTION_THRESHOLD = 100_000
"""The cyclic collector's first threshold while batch work runs (Python's own: 700)."""

_COLLECTING = threading.Lock()
_bulk: list[tuple[int, ...]] = []
"""The thresholds before the outermost batch block running in this process, one entry a
block running."""


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The block with the cyclic garbage collector run less often. Batch work allocates
    millions of objects (records, events, states, rows) and holds thousands of them at once
    (a rebuild every game's state, a simulated game its whole record until it is stored),
    so every full collection walks them all; they make no reference cycles (the collector
    found a few thousand objects in a whole rebuild), and those collections were a quarter
    of a rebuild's CPU time and about 7% of a simulated game's through SQLite. Reference
    counting frees everything as ever. Blocks may nest and run in several threads: the
    outermost sets the threshold, and the last to leave gives it back, failing or not."""
    with _COLLECTING:
        _bulk.append(gc.get_threshold())
        if len(_bulk) == 1:
            gc.set_threshold(BULK_COLLECTION_THRESHOLD, *_bulk[0][1:])
    try:
        yield
    finally:
        with _COLLECTING:
            before = _bulk.pop()
            if not _bulk:
                gc.set_threshold(*before)
