"""The request counts behind every route's limit (`guard.py`): `RequestCounts`, over the
storage `RateLimits.storage` names.

For `memory://` (the embedded default) the counts are this process's own. The limits
library's memory storage expires old entries from a `threading.Timer` that it starts again,
10 ms later, on the next count after the last one fired: under steady traffic
that is a new thread for about every request, which cost more than the rest of the limit
check. This storage is the same, but expires old entries inline, at most once a second,
from whichever request counts next. The counts and windows are unchanged."""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from service.settings import RateLimits

logger = logging.getLogger(__name__)

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


@dataclass(frozen=True)
class Refused:
    """A request over its limit: which limit, and the whole seconds until it admits one more.
    `address`: the limit is the address's own (its share of every client behind it, or the
    requests no token spoke for), not one client's."""

    limit: RateLimitItem
    scope: str
    wait: int
    address: bool = False


ADDRESS = "/address"
"""Marks the scope of an address's whole budget (a class's limit times `clients_per_address`)."""


def scaled(item: RateLimitItem, times: int) -> RateLimitItem:
    return type(item)(item.amount * times, item.multiples, item.namespace)


class RequestCounts:
    """Each client's requests per route class, counted in moving windows where
    `RateLimits.storage` says (the memory above, or a Redis every worker and host shares).
    While a shared storage cannot be reached, requests are counted in this process instead,
    and the shared one is tried again after a pause that doubles up to a minute: a Redis
    outage loosens the limits to one process's, it never refuses or fails requests.

    A class's scope (`read`) counts one client at the class's limit; the same scope with
    `ADDRESS` (`read/address`) counts an address's whole budget, the limit times
    `RateLimits.clients_per_address`."""

    RETRY_FIRST, RETRY_MOST = 1.0, 60.0

    def __init__(self, limits: RateLimits) -> None:
        options: dict[str, float] = {"socket_connect_timeout": 2, "socket_timeout": 2} if limits.storage.startswith("redis") else {}
        self.shared = MovingWindowRateLimiter(storage_from_string(storage_uri(limits.storage), **options))
        self.local = self.shared if limits.storage.startswith("memory://") else MovingWindowRateLimiter(InlineExpiryMemoryStorage())
        self.prefix = limits.prefix
        self.limits = {name: parse_many(getattr(limits, name)) for name in RateLimits.CLASSES}
        self.limits.update({name + ADDRESS: [scaled(item, limits.clients_per_address) for item in items]
                            for name, items in list(self.limits.items())})
        self._retry_at, self._pause = 0.0, 0.0

    def hit(self, scope: str, client: str) -> Refused | None:
        """Count one request of `client` to a route of class `scope`; the limit it is over, if any."""
        return self._counted(scope, client, count=True)

    def spent(self, scope: str, client: str) -> Refused | None:
        """The limit `client` has used up in `scope`, if any, without counting a request."""
        return self._counted(scope, client, count=False)

    def _counted(self, scope: str, client: str, count: bool) -> Refused | None:
        if self._retry_at and time.monotonic() < self._retry_at:
            return self._check(self.local, scope, client, count)
        try:
            refused = self._check(self.shared, scope, client, count)
        except Exception:
            self._pause = min(self.RETRY_MOST, self._pause * 2 or self.RETRY_FIRST)
            if not self._retry_at:
                logger.warning("request counts: the shared storage cannot be reached; counting in this process meanwhile")
            self._retry_at = time.monotonic() + self._pause
            return self._check(self.local, scope, client, count)
        if self._retry_at:
            logger.info("request counts: the shared storage answers again")
            self._retry_at, self._pause = 0.0, 0.0
        return refused

    def _check(self, strategy: MovingWindowRateLimiter, scope: str, client: str, count: bool) -> Refused | None:
        for limit in self.limits[scope]:
            if not (strategy.hit if count else strategy.test)(limit, self.prefix, scope, client):
                reset = strategy.get_window_stats(limit, self.prefix, scope, client).reset_time
                return Refused(limit, scope.removesuffix(ADDRESS), max(1, math.ceil(reset - time.time())), scope.endswith(ADDRESS))
        return None
