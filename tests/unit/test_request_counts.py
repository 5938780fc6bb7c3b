"""The in-process request counts (`service/api/counts.py`): the same moving windows as the
limits library's memory storage, without a timer thread started per request."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from service.api import counts


def test_memory_limits_are_counted_by_the_inline_storage() -> None:
    assert counts.storage_uri("memory://") == "caboose-memory://"
    assert counts.storage_uri("redis://127.0.0.1:6379") == "redis://127.0.0.1:6379"
    assert isinstance(storage_from_string(counts.storage_uri("memory://")), counts.InlineExpiryMemoryStorage)


def test_counting_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    limiter = MovingWindowRateLimiter(storage_from_string("caboose-memory://"))
    started: list[Any] = []
    real_start = threading.Thread.start

    def counted_start(thread: threading.Thread) -> None:
        started.append(thread)
        real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted_start)
    limit = RateLimitItemPerMinute(100)
    hits = [limiter.hit(limit, "client", str(i % 3)) for i in range(300)]
    assert started == []
    # Each of the three keys was allowed its 100 and refused beyond.
    assert hits.count(True) == 300 and not limiter.hit(limit, "client", "0")


def test_the_window_still_moves_and_expired_entries_are_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(counts.time, "monotonic", lambda: clock[0])
    storage = counts.InlineExpiryMemoryStorage()
    limiter = MovingWindowRateLimiter(storage)
    limit = RateLimitItemPerSecond(2)
    wall = [5000.0]
    monkeypatch.setattr("limits.storage.memory.time.time", lambda: wall[0])
    assert [limiter.hit(limit, "k") for _ in range(3)] == [True, True, False]
    assert len(storage.events["LIMITER/k/2/1/second"]) == 2
    wall[0] += 1.5
    clock[0] += counts.EXPIRE_EVERY + 0.1
    # The next count sweeps: the key's old entries are gone, and its window is open again.
    assert limiter.hit(limit, "other")
    assert storage.events["LIMITER/k/2/1/second"] == []
    assert limiter.hit(limit, "k")
