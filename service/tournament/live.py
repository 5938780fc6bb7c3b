"""A tournament's records pushed as they are stored (`GET /api/v1/tournaments/{id}/stream`),
by the same watcher as the games' streams (`service/feed.py`: PostgreSQL's LISTEN on the
records channel, which every transaction storing a tournament's records notifies too, or the
embedded store's log tailed), in a feed of its own whose channels are tournaments; the stream
itself is the games' (`service/api/stream.py`'s `pushed`). A table result, a ruling, a new
round: each is a record of the tournament, so a page following this one stream sees every
change to its standings and tables."""

from __future__ import annotations

import threading
from typing import Any

from domain.core.events import Audience
from service.application import Caboose
from service.feed import BATCH, Channel, Feed, frame, logger
from service.tournament.store import Shelf


class TournamentChannel(Channel):
    """One tournament's open streams in this process: a `Channel` whose records are the
    tournament's (all public), read again from the tournament when asked for."""

    def __init__(self, shelf: Shelf, tournament_id: str) -> None:  # no game to load: the channel's own fields
        self.shelf = shelf
        self.game_id = tournament_id  # the key `Feed` keeps its channels under
        self.changed = threading.Condition()
        self.version = shelf.get(tournament_id).version
        self.streams = 0
        self.closed = False

    def moved(self, version: int) -> None:
        with self.changed:
            if version > self.version:
                self.version = version
                self.changed.notify_all()

    def frames(self, caboose: Caboose, after: int, audience: Audience) -> tuple[list[tuple[int, bytes]], None]:
        """The records after `after` as SSE frames: a tournament's records are public (no
        game's seat to ask about)."""
        records = [r for r in self.shelf.records(self.game_id) if r["version"] > after][:BATCH]
        return [(r["version"], frame(r)) for r in records], None


class TournamentFeed(Feed):
    def __init__(self, shelf: Shelf, capacity: int | None = None) -> None:
        super().__init__(shelf.caboose, capacity=capacity)
        self.shelf = shelf

    def _new_channel(self, game_id: str) -> Channel:
        return TournamentChannel(self.shelf, game_id)

    def changed(self, game_id: str) -> None:
        with self._lock:
            channel: Any = self._channels.get(game_id)
        if channel is None:
            return
        try:
            channel.moved(self.shelf.get(game_id).version)
        except Exception:  # the next notification, or the stream's own reconnect, catches up
            logger.warning("new records of tournament %s not read for its streams", game_id, exc_info=True)
