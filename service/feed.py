"""Live records for the open streams of one process (`GET /api/v1/games/{id}/stream`).

A stream must not query the database on its own while it waits: 500 open pages would be
500 readers. So each process has one `Feed`, and one watcher thread in it learns which
games have new records:
- on PostgreSQL, one connection LISTENs on the store's records channel; the transaction
  that stores a game's records NOTIFYs it with the game's id (`service/eventstore.py`), and
  PostgreSQL delivers that only once the records are committed;
- on SQLite (and the in-memory store), the thread tails the notification log every
  `tail` seconds (one indexed query, whatever the number of streams).
For a game with open streams here, the watcher reads the new records once, keeps the last
`RECENT` of them in the game's `Channel` and wakes its streams; each stream takes the
records after the last version it sent, as its audience may see them (`Caboose.shown`, the
redaction of `GET …/events`), rendered once per audience and version however many streams
share them. A game nobody here watches costs nothing but its notification.

After the LISTEN connection is lost, it is made again and every watched game is read
afresh, so a record stored meanwhile still reaches its streams.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from domain.core.events import Audience
from service.aggregate import Game
from service.application import Caboose
from service.errors import ServiceError
from service.eventstore import BoundedApplicationRecorder, records_channel

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = float(os.environ.get("CABOOSE_STREAM_HEARTBEAT", "15"))
"""A comment line this often on a quiet stream, so proxies keep it open and a client gone is noticed."""
TAIL_SECONDS = float(os.environ.get("CABOOSE_STREAM_TAIL", "0.05"))
"""How often the embedded store's notification log is read for new records."""
RECENT = 256
"""Records a channel keeps; a stream further behind reads the store itself."""
BATCH = 1000
"""Records read from the store at a time for a stream that is behind (and at its start)."""


def capacity_from_env() -> int | None:
    """Streams one process holds at most (`CABOOSE_STREAMS`; unset or 0: no limit). Under
    gunicorn's gthread workers each stream holds one of the worker's threads, and a worker
    goes on accepting requests whatever its threads are doing, so `infra/gunicorn.conf.py`
    sets this below the threads: the rest stay free for requests. A stream refused for it
    is told to come back (503, Retry-After)."""
    return int(os.environ.get("CABOOSE_STREAMS", "0")) or None


def _always() -> bool:
    return True


_serving: Callable[[], bool] = _always


def serve_while(serving: Callable[[], bool]) -> None:
    """Tell the feeds of this process how to know that the server is stopping (gunicorn's
    `worker.alive`): their streams then end within a second, and their clients reconnect
    with Last-Event-ID elsewhere, instead of holding the worker until it is killed."""
    global _serving
    _serving = serving


def frame(record: dict[str, Any]) -> bytes:
    """One Server-Sent Event: the record's version as its id, the record as its data."""
    return b"id: %d\ndata: %s\n\n" % (record["version"], json.dumps(record, separators=(",", ":")).encode())


class StreamsFull(ServiceError):
    """This process holds as many streams as it may, or is stopping; another may have room."""

    code = "streams_full"

    def __init__(self, capacity: int | None) -> None:
        why = "is stopping" if capacity is None else f"already holds its {capacity} live streams"
        super().__init__(f"This server process {why}: try again shortly, or follow the game with GET …/events?after=N.")


class Channel:
    """One game's open streams in this process, and the game's latest records."""

    def __init__(self, game_id: str, game: Game) -> None:
        self.game_id = game_id
        self.changed = threading.Condition()
        self.game = game  # as of `version`: whether it is over decides what the public sees
        self.version = game.version
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self.rendered: dict[tuple[int, Audience], bytes] = {}
        self.streams = 0
        self.closed = False

    def add(self, game: Game, records: list[dict[str, Any]]) -> None:
        with self.changed:
            if game.version <= self.version:
                return
            self.recent.extend(r for r in records if r["version"] > self.version)
            ended = game.is_over and not self.game.is_over
            self.game, self.version = game, game.version
            oldest = self.recent[0]["version"] if self.recent else self.version + 1
            # Once the game is over everything is public: what was rendered redacted is not reused.
            self.rendered = {} if ended else {k: v for k, v in self.rendered.items() if k[0] >= oldest}
            self.changed.notify_all()

    def wait(self, after: int, timeout: float) -> bool:
        """Whether there is a record after `after`, waiting up to `timeout` seconds for one
        (or for the channel to close: see `closed`)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.version > after or self.closed, timeout) and not self.closed

    def close(self) -> None:
        """End the channel's streams: the server is stopping."""
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def frames(self, caboose: Caboose, after: int, audience: Audience) -> tuple[list[tuple[int, bytes]], Game | None]:
        """The records after `after` as `audience` sees them, as SSE frames (at most `BATCH`),
        and the game as it stood at the last of them or later: whoever sends the frames asks
        that game whether the stream's token still speaks for its seat."""
        with self.changed:
            kept = self.recent and self.recent[0]["version"] <= after + 1
            if kept:
                wanted = [r for r in self.recent if r["version"] > after][:BATCH]
                missing = [r for r in wanted if (r["version"], audience) not in self.rendered]
                if missing:
                    for record in caboose.shown(self.game_id, missing, audience, self.game):
                        self.rendered[record["version"], audience] = frame(record)
                return [(r["version"], self.rendered[r["version"], audience]) for r in wanted], self.game
        # Further behind than the channel keeps (a reconnect after a long absence, a game
        # that stored more than `RECENT` records at once): read them as `GET …/events` does,
        # none newer than the game they are read with.
        game = caboose.game(self.game_id)
        records = caboose.view_records(self.game_id, audience, after, BATCH, loaded=game)
        return [(r["version"], frame(r)) for r in records if r["version"] <= game.version], game


class Feed:
    """The open streams of one process and the one thread that feeds them."""

    def __init__(self, caboose: Caboose, heartbeat: float = HEARTBEAT_SECONDS, tail: float = TAIL_SECONDS,
                 capacity: int | None = None) -> None:
        self.caboose, self.heartbeat, self.tail, self.capacity = caboose, heartbeat, tail, capacity
        self._channels: dict[str, Channel] = {}
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = isinstance(caboose.recorder, BoundedApplicationRecorder)

    # -- streams ----------------------------------------------------------------------

    def open(self, game_id: str) -> Channel:
        """The game's channel, for a stream opening on it (404 for an unknown game). Opened
        before the stream reads its first records, so nothing stored meanwhile is missed;
        every `open` is matched by a `close`."""
        if self._stopped.is_set():
            raise StreamsFull(None)
        self._start()
        with self._lock:
            open_streams = sum(c.streams for c in self._channels.values())
            if self.capacity is not None and open_streams >= self.capacity:
                raise StreamsFull(self.capacity)
            channel = self._channels.get(game_id)
            if channel is None:
                channel = self._channels[game_id] = self._new_channel(game_id)
            channel.streams += 1
        return channel

    def _new_channel(self, game_id: str) -> Channel:
        """The channel of a game no stream here follows yet (a feed of tournaments makes its own)."""
        return Channel(game_id, self.caboose.game(game_id))

    def close(self, channel: Channel) -> None:
        with self._lock:
            channel.streams -= 1
            if channel.streams == 0 and self._channels.get(channel.game_id) is channel:
                del self._channels[channel.game_id]

    @property
    def streams(self) -> int:
        """How many streams are open in this process."""
        with self._lock:
            return sum(c.streams for c in self._channels.values())

    def changed(self, game_id: str) -> None:
        """Records were stored for `game_id`: read them once for this process's streams."""
        with self._lock:
            channel = self._channels.get(game_id)
        if channel is None:
            return
        try:
            game = self.caboose.game(game_id)
            if game.version > channel.version:
                channel.add(game, self.caboose.records(game_id, after=channel.version, upto=game.version))
        except Exception:  # the next notification, or the stream's own reconnect, catches up
            logger.warning("new records of game %s not read for its streams", game_id, exc_info=True)

    def stop(self) -> None:
        """Stop the watcher and end every open stream."""
        self._stopped.set()
        with self._lock:
            channels = list(self._channels.values())
        for channel in channels:
            channel.close()

    def _server_stopping(self) -> bool:
        if _serving():
            return False
        self.stop()
        return True

    # -- the one watcher thread --------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                run = self._listen if self.listening else self._follow_log
                self._thread = threading.Thread(target=run, name="caboose-stream-feed", daemon=True)
                self._thread.start()

    def _watched(self) -> list[str]:
        with self._lock:
            return list(self._channels)

    def _follow_log(self) -> None:
        """The embedded store: tail the notification log from where it ends now."""
        recorder = self.caboose.recorder
        position = recorder.max_notification_id() or 0
        while not self._stopped.is_set() and not self._server_stopping():
            try:
                batch = recorder.select_notifications(start=position + 1, limit=BATCH)
            except Exception:
                logger.warning("the notification log could not be read for the streams", exc_info=True)
                batch = []
            if batch:
                position = batch[-1].id
                for game_id in dict.fromkeys(str(n.originator_id) for n in batch):
                    self.changed(game_id)
            if len(batch) < BATCH:
                self._stopped.wait(self.tail)

    def _listen(self) -> None:
        """PostgreSQL: LISTEN on one connection of its own (not the pool's, which serves requests)."""
        from psycopg import sql

        datastore: Any = self.caboose.recorder.datastore  # type: ignore[attr-defined]
        channel = records_channel(datastore.schema)
        connect = {k: v for k, v in datastore.pool.kwargs.items() if k != "row_factory"}
        while not self._stopped.is_set():
            try:
                with datastore.pool.connection_class.connect(autocommit=True, **connect) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                    for game_id in self._watched():  # whatever was stored while not listening
                        self.changed(game_id)
                    while not self._stopped.is_set() and not self._server_stopping():
                        for note in conn.notifies(timeout=1.0):
                            self.changed(note.payload)
            except Exception:
                logger.warning("LISTEN %s lost; listening again in 1 s", channel, exc_info=True)
                self._stopped.wait(1.0)
