"""A simple per-client, per-game request limit (a sliding window in this process)."""

from __future__ import annotations

import threading
import time
from collections import deque


class RateLimiter:
    def __init__(self, limit: int, window_seconds: float) -> None:
        self.limit, self.window = limit, window_seconds
        self._hits: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, client: str, game_id: str) -> float | None:
        """None if the request may go ahead, else the seconds to wait."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits.setdefault((client, game_id), deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return hits[0] + self.window - now
            hits.append(now)
            if len(self._hits) > 100_000:
                self._hits = {k: v for k, v in self._hits.items() if v and v[-1] > now - self.window}
            return None
