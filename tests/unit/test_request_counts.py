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
from service.settings import RateLimits


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


class Flaky:
    """A shared storage's strategy that fails while `down`, else counts in memory."""

    def __init__(self) -> None:
        self.down, self.calls = True, 0
        self.real = MovingWindowRateLimiter(counts.InlineExpiryMemoryStorage())

    def hit(self, *args: Any) -> bool:
        self.calls += 1
        if self.down:
            raise ConnectionError("no route to the shared storage")
        return self.real.hit(*args)

    def get_window_stats(self, *args: Any) -> Any:
        return self.real.get_window_stats(*args)


def test_an_outage_of_the_shared_counts_falls_back_and_recovers(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(counts.time, "monotonic", lambda: clock[0])
    requests = counts.RequestCounts(RateLimits(read="2/minute", storage="redis://127.0.0.1:1"))
    shared = requests.shared = Flaky()  # type: ignore[assignment]
    # Down: counted in this process, the limit still holding, the shared storage asked once a pause.
    assert [requests.hit("read", "ann") for _ in range(2)] == [None, None]
    refused = requests.hit("read", "ann")
    assert refused is not None and refused.scope == "read" and refused.wait >= 1
    assert shared.calls == 1
    clock[0] += counts.RequestCounts.RETRY_FIRST + 0.1
    assert requests.hit("read", "ben") is None and shared.calls == 2  # tried again, still down
    # The pause doubles; once it is over and the storage answers, the counts are shared again.
    clock[0] += counts.RequestCounts.RETRY_FIRST + 0.1
    assert requests.hit("read", "ben") is None and shared.calls == 2
    shared.down = False
    clock[0] += 2 * counts.RequestCounts.RETRY_FIRST
    assert requests.hit("read", "cy") is None and shared.calls == 3
    assert requests.hit("read", "cy") is None and shared.calls == 4
