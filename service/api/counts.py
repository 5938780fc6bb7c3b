"""The request counts of one process, for `memory://` rate limits (the embedded default).

The limits library's memory storage expires old entries from a `threading.Timer` that it
starts again, 10 ms later, on the next count after the last one fired: under steady traffic
that is a new thread for about every request, which cost more than the rest of the limit
check. This storage is the same, but expires old entries inline, at most once a second,
from whichever request counts next. The counts and windows are unchanged."""

from __future__ import annotations

import threading
import time
from typing import Any

from limits.storage import MemoryStorage

SCHEME = "caboose-memory"
EXPIRE_EVERY = 1.0
"""Seconds between two sweeps of expired entries (each request still reads its own key's
expiry, so a sweep only frees memory; it never decides a limit)."""


class InlineExpiryMemoryStorage(MemoryStorage):
    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 (the base class declares it so)

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions, **options)
        self.timer.cancel()
        self._swept = time.monotonic()
        self._sweeping = threading.Lock()

    # The base class calls this name-mangled method before every count; replacing it is how
    # the timer thread is left out.
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._swept < EXPIRE_EVERY or not self._sweeping.acquire(blocking=False):
            return
        try:
            self._swept = now
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
        finally:
            self._sweeping.release()

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self.timer.cancel()
        self._swept, self._sweeping = time.monotonic(), threading.Lock()


def storage_uri(configured: str) -> str:
    """The storage the limiter is given: ours for `memory://`, the configured one otherwise."""
    return f"{SCHEME}://" if configured.startswith("memory://") else configured
