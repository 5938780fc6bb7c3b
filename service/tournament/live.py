"""A tournament's records pushed as they are stored (`GET /api/v1/tournaments/{id}/stream`),
by the same watcher as the games' streams (`service/feed.py`: PostgreSQL's LISTEN on the
records channel, which every transaction storing a tournament's records notifies too, or the
embedded store's log tailed), in a feed of its own whose channels are tournaments. A table
result, a ruling, a new round: each is a record of the tournament, so a page following this
one stream sees every change to its standings and tables."""

from __future__ import annotations

import json
import threading
from typing import Any

from service.feed import BATCH, Feed, StreamsFull, logger
from service.tournament.store import Shelf


class TournamentChannel:
    """One tournament's open streams in this process, and its records as read."""

    def __init__(self, tournament_id: str, version: int) -> None:
        self.game_id = tournament_id  # the key `Feed` keeps its channels under
        self.changed = threading.Condition()
        self.version = version
        self.streams = 0
        self.closed = False

    def add(self, version: int) -> None:
        with self.changed:
            if version > self.version:
                self.version = version
                self.changed.notify_all()

    def wait(self, after: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.version > after or self.closed, timeout) and not self.closed

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()


def frame(record: dict[str, Any]) -> bytes:
    return b"id: %d\ndata: %s\n\n" % (record["version"], json.dumps(record, separators=(",", ":")).encode())


class TournamentFeed(Feed):
    def __init__(self, shelf: Shelf, capacity: int | None = None) -> None:
        super().__init__(shelf.caboose, capacity=capacity)
        self.shelf = shelf

    def open(self, game_id: str) -> TournamentChannel:  # type: ignore[override]
        """The tournament's channel (404 for an unknown one), opened before its first records are read."""
        if self._stopped.is_set():
            raise StreamsFull(None)
        self._start()
        with self._lock:
            open_streams = sum(c.streams for c in self._channels.values())
            if self.capacity is not None and open_streams >= self.capacity:
                raise StreamsFull(self.capacity)
            channel: Any = self._channels.get(game_id)
            if channel is None:
                channel = TournamentChannel(game_id, self.shelf.get(game_id).version)
                self._channels[game_id] = channel
            channel.streams += 1
        return channel  # type: ignore[no-any-return]

    def changed(self, game_id: str) -> None:
        with self._lock:
            channel: Any = self._channels.get(game_id)
        if channel is None:
            return
        try:
            channel.add(self.shelf.get(game_id).version)
        except Exception:  # the next notification, or the stream's own reconnect, catches up
            logger.warning("new records of tournament %s not read for its streams", game_id, exc_info=True)

    def frames(self, tournament_id: str, after: int) -> list[tuple[int, bytes]]:
        records = [r for r in self.shelf.records(tournament_id) if r["version"] > after][:BATCH]
        return [(r["version"], frame(r)) for r in records]
