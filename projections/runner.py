"""Runners that follow the event log into the read models, and the rebuild from zero.

- On PostgreSQL, `follow` uses the eventsourcing library's projection machinery: its
  `ProjectionRunner` subscribes to the application's notifications (LISTEN/NOTIFY)
  from the tracking position the view reports, and hands each event to
  `GameProjection.process_event`, which commits the view rows and the new tracking
  position in one transaction.
- On SQLite, where the library offers no subscription, `PollingRunner` reads the
  notification log in batches from the tracking position and hands each batch to the
  same projection (`process`), again one transaction per batch.

Either way a runner killed at any moment restarts from the last committed position: the
rows of an uncommitted batch are gone with it, and a committed batch is never
projected again. `rebuild` clears every view and projects the whole log in a single
transaction, so readers see the old views until the new ones are complete. Stop the
runners while rebuilding after a change of the projection code; a runner that finds the
read models out of step with the log stops with `OutOfStep` rather than guess.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from eventsourcing.projection import BaseProjectionRunner
from sqlalchemy import select

from projections.models import GameRow
from projections.projector import APPLICATION, GameProjection, SqlView, steps_of
from projections.store import ReadStore, read_store_for
from service.application import Caboose
from service.settings import Settings


def projection_for(app: Caboose, store: ReadStore) -> GameProjection:
    return GameProjection(SqlView(store), states=lambda game_id, version: app.game(game_id, at=version).state,
                          deciders=lambda game_id: app.game(game_id).decider)


class PollingRunner:
    """Follows the notification log by polling it."""

    def __init__(self, app: Caboose, projection: GameProjection, batch_size: int = 500) -> None:
        self.app, self.projection, self.batch_size = app, projection, batch_size
        self._lock = _lock_of(projection)

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Project every notification not yet projected; returns how many this call did."""
        done = 0
        with self._lock:
            position = self.projection.view.max_tracking_id(APPLICATION) or 0
            while True:
                notifications = self.app.recorder.select_notifications(
                    start=position, limit=self.batch_size, inclusive_of_start=False)
                if not notifications:
                    return done
                steps = steps_of(self.app, notifications)
                upto = notifications[-1].id
                reached = self.projection.process(steps, upto, after=position)
                if reached == upto:
                    done += len(notifications)
                    if progress:
                        progress(len(notifications))
                position = reached

    def run_forever(self, stop: threading.Event, interval: float = 0.2) -> None:
        while not stop.is_set():
            if not self.catch_up():
                stop.wait(interval)


class FollowedCaboose(Caboose):
    """The event store as the library's runner opens it: from an environment alone."""

    name = Caboose.name

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = dict(env or {})
        super().__init__(Settings.from_env(env.get("CABOOSE_DB")), env=env)


def library_runner(app: Caboose, store: ReadStore, env: Mapping[str, str]) -> BaseProjectionRunner[Any]:
    """The eventsourcing library's runner over the same projection (PostgreSQL: it needs
    a recorder that can subscribe). `env` must name the store (`CABOOSE_DB`, and
    `POSTGRES_SCHEMA` when one is used)."""
    projection = projection_for(app, store)
    return BaseProjectionRunner(projection=projection, application_class=FollowedCaboose,
                                tracking_recorder=projection.view, topics=(), env=dict(env))


def rebuild(app: Caboose, store: ReadStore, batch_size: int = 2000,
            progress: Callable[[int], None] | None = None) -> int:
    """Clear every view and project the whole log again, in one transaction; returns the
    number of notifications read."""
    projection = projection_for(app, store)
    count = position = 0
    with store.writing() as session:
        store.clear(session)
        while True:
            notifications = app.recorder.select_notifications(start=position, limit=batch_size, inclusive_of_start=False)
            if not notifications:
                break
            steps = steps_of(app, notifications)
            projection.project(session, steps, trusted=True)
            position = notifications[-1].id
            count += len(notifications)
            if progress:
                progress(len(notifications))
        store.set_tracked(session, APPLICATION, position)
    return count


def log_end(app: Caboose) -> int:
    return app.recorder.max_notification_id() or 0


# -- the application's own read models (API, CLI) ------------------------------------------

_PROJECTIONS: weakref.WeakKeyDictionary[Caboose, GameProjection] = weakref.WeakKeyDictionary()
_LOCKS: weakref.WeakKeyDictionary[GameProjection, threading.Lock] = weakref.WeakKeyDictionary()
_GUARD = threading.Lock()


def _lock_of(projection: GameProjection) -> threading.Lock:
    with _GUARD:
        return _LOCKS.setdefault(projection, threading.Lock())


def projection_of(app: Caboose) -> GameProjection:
    """The application's projection (one per application object, so its cache is kept)."""
    with _GUARD:
        projection = _PROJECTIONS.get(app)
        if projection is None or projection.store is not read_store_for(app):
            projection = _PROJECTIONS[app] = projection_for(app, read_store_for(app))
        return projection


def caught_up(app: Caboose, game_id: str) -> ReadStore:
    """The application's read models, brought up to the game's current version first (by
    projecting whatever of the log is not projected yet), so a reader gets the same answer
    as a fold of the log even when no runner is running."""
    store = read_store_for(app)
    version = app.game(game_id).version
    with store.reading() as session:
        projected = session.scalar(select(GameRow.version).where(GameRow.game_id == game_id)) or 0
    if projected < version:
        PollingRunner(app, projection_of(app)).catch_up()
    return store
