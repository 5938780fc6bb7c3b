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

import logging
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

from eventsourcing.projection import BaseProjectionRunner
from sqlalchemy import JSON, Column, MetaData, Table, Text, delete, insert, select

from projections.batch import fewer_collections
from projections.models import VIEW_TABLES, GameRow, RatingMatchRow, RatingRow
from projections.projector import APPLICATION, EventLog, GameProjection, OutOfStep, SqlView, Step, steps_of
from projections.store import ReadModelError, ReadStore, read_store_for
from projections.tournaments import TournamentProjection

logger = logging.getLogger(__name__)


def projection_for(app: EventLog, store: ReadStore) -> GameProjection:
    # A weak reference: the application's own projection is kept in a dictionary keyed
    # weakly by the application, which a strong one would keep alive for ever (and its
    # PostgreSQL pool with it, until the interpreter tore it down noisily at exit).
    application = weakref.ref(app)

    def states(game_id: str, version: int) -> Any:
        alive = application()
        assert alive is not None, "the application of this projection was closed and collected"
        return alive.game(game_id, at=version).state

    def deciders(game_id: str) -> Any:
        alive = application()
        assert alive is not None, "the application of this projection was closed and collected"
        return alive.game(game_id).decider

    def tournament_records(tournament_id: str, version: int) -> list[dict[str, Any]]:
        alive = application()
        assert alive is not None, "the application of this projection was closed and collected"
        return [e.entry for e in alive.events.get(UUID(tournament_id), lte=version)]

    return GameProjection(SqlView(store), states=states, deciders=deciders, tournaments=tournament_records)


class PollingRunner:
    """Follows the notification log by polling it."""

    def __init__(self, app: EventLog, projection: GameProjection, batch_size: int = 500) -> None:
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


def library_runner(app: EventLog, store: ReadStore, env: Mapping[str, str], followed: type[Any]) -> BaseProjectionRunner[Any]:
    """The eventsourcing library's runner over the same projection (PostgreSQL: it needs
    a recorder that can subscribe). `followed` is the application class the library opens
    from `env` alone, which must name the store (`CABOOSE_DB`, and `POSTGRES_SCHEMA` when
    one is used)."""
    projection = projection_for(app, store)
    return BaseProjectionRunner(projection=projection, application_class=followed,
                                tracking_recorder=projection.view, topics=(), env=dict(env))


def rebuild(app: EventLog, store: ReadStore, batch_size: int = 2000,
            progress: Callable[[int], None] | None = None) -> int:
    """Clear every view and project the whole log again, in one transaction; returns the
    number of notifications read."""
    projection = projection_for(app, store)
    count = position = 0
    origin = first_game(app)
    with fewer_collections(), store.writing() as session:
        store.clear(session)
        if origin is not None:
            store.set_source(session, APPLICATION, origin)
        while True:
            notifications = app.recorder.select_notifications(start=position, limit=batch_size, inclusive_of_start=False)
            if not notifications:
                break
            steps = steps_of(app, notifications)
            projection.project(session, steps, trusted=True, fresh=True)
            position = notifications[-1].id
            count += len(notifications)
            if progress:
                progress(len(notifications))
        store.set_tracked(session, APPLICATION, position)
    store.analyze()
    return count


def shares(app: EventLog, parts: int) -> tuple[int, list[list[Any]]]:
    """The end of the log now, and each of `parts`' games and tournaments: their events
    split as evenly as whole originators allow (the largest first, each to the part with the
    fewest events so far), so no part waits on a share larger than the others'. Worked out
    once, by whoever hands the parts out, so every part agrees."""
    position = log_end(app)
    loads = [0] * parts
    out: list[list[Any]] = [[] for _ in range(parts)]
    for key, events in sorted(app.originators().items(), key=lambda item: (-item[1], str(item[0]))):
        lightest = loads.index(min(loads))
        out[lightest].append(key)
        loads[lightest] += events
    return position, out


@dataclass(frozen=True)
class Part:
    """One part of a rebuild spread over processes: what it read and what failed."""

    events: int
    """The events of its own games it projected."""
    position: int
    """The end of the log as it read it."""
    failures: dict[str, str]
    """Game id -> why that game could not be projected (its rows are left out)."""


GAMES_PER_READ = 200
"""A part reads its games' events this many games at a time (each read in the log's order)."""


def rebuild_part(app: EventLog, store: ReadStore, games: Sequence[Any], position: int, batch_size: int = 2000,
                 progress: Callable[[int], None] | None = None, describe: Callable[[BaseException], str] = repr) -> Part:
    """Project into `store` (a private, empty store) `games` (a part's share of the games and
    tournaments, `shares`) up to log position `position`, reading only their own events, so
    N parts share the reading as they share the folding; a game that fails is named and left
    out. A game's (a tournament's) events are projected in order; games are independent of
    each other in the read models a part writes, and what spans them (the ratings) is made
    again when the parts are merged (`merge_parts`)."""
    projection = projection_for(app, store)
    failures: dict[str, str] = {}
    count, mine = 0, list(games)
    with fewer_collections(), store.writing() as session:
        store.clear(session)
        for first in range(0, len(mine), GAMES_PER_READ):
            notifications = app.notifications_of(mine[first:first + GAMES_PER_READ], position)
            for start in range(0, len(notifications), batch_size):
                stretch = notifications[start:start + batch_size]
                projection.project_each(session, _steps(app, stretch, failures, describe), failures, describe, fresh=True)
                if progress:
                    progress(len(stretch))
            count += len(notifications)
        if failures:  # what a failed game or tournament left behind
            failed = list(failures)
            for model in VIEW_TABLES:
                table = cast(Table, model.__table__)
                for column in ("game_id", "tournament_id", "match_id"):
                    if column in table.c:
                        session.execute(delete(table).where(table.c[column].in_(failed)))
    return Part(count, position, failures)


def _steps(app: EventLog, notifications: list[Any], failures: dict[str, str],
           describe: Callable[[BaseException], str]) -> list[Step]:
    """The steps of these notifications; one that cannot be read fails its game alone."""
    try:
        return steps_of(app, notifications)
    except Exception:  # read them one by one to find which game it was
        found: list[Step] = []
        for notification in notifications:
            try:
                found += steps_of(app, [notification])
            except Exception as error:
                failures.setdefault(str(notification.originator_id), describe(error))
        return found


def merge_parts(app: EventLog, store: ReadStore, sources: list[ReadStore], position: int) -> int:
    """Replace every view of `store` with the rows of the parts' stores, and its tracking
    position with `position`, in one transaction (readers see the old views until the new
    ones are complete, as with `rebuild`); returns the rows copied."""
    copied = 0
    origin = first_game(app)
    with store.writing() as session:
        store.clear(session)
        if origin is not None:
            store.set_source(session, APPLICATION, origin)
        as_text = session.get_bind().dialect.name == "sqlite"
        for source in sources:
            with source.reading() as reading:
                for model in MERGED_TABLES:
                    table = cast(Table, model.__table__)
                    if as_text:  # SQLite to SQLite: the JSON values copied as the text they are
                        table = _as_text(table)
                    keys = [column.name for column in table.c]
                    result = reading.execute(select(table))
                    while rows := result.fetchmany(5000):
                        session.execute(insert(table), [dict(zip(keys, row, strict=True)) for row in rows])
                        copied += len(rows)
        # Each part rated only the matches it held; ratings are a fold over every match of
        # a title in order, so they are made again from the merged matches.
        for title in session.scalars(select(RatingMatchRow.game).distinct()):
            TournamentProjection.rate_again(session, title)
        store.set_tracked(session, APPLICATION, position)
    store.analyze()
    return copied


_TEXT_TABLES: dict[str, Table] = {}


def _as_text(table: Table) -> Table:
    """`table` with its JSON columns read and written as the text stored in them. A merge
    copies the parts' rows between SQLite files: decoding every value only to encode it
    again was most of the copy's time."""
    known = _TEXT_TABLES.get(table.name)
    if known is None:
        columns = [Column(c.name, Text() if isinstance(c.type, JSON) else c.type, primary_key=c.primary_key) for c in table.c]
        known = _TEXT_TABLES[table.name] = Table(table.name, MetaData(), *columns)
    return known


MERGED_TABLES = tuple(model for model in VIEW_TABLES if model is not RatingRow)
"""What `merge_parts` copies from the parts; the ratings are made again after them."""


def log_end(app: EventLog) -> int:
    return app.recorder.max_notification_id() or 0


def first_game(app: EventLog) -> str | None:
    """What identifies an event store: the game of its first notification (None: empty)."""
    first = app.recorder.select_notifications(start=None, limit=1)
    return str(first[0].originator_id) if first else None


def mismatch(app: EventLog, store: ReadStore, game_id: str | None = None) -> str | None:
    """Why the read models cannot have been made from this event store, or None. With
    `game_id`: a game the store holds must be in read models that followed the whole log."""
    tracked, end = store.max_tracking_id(APPLICATION) or 0, log_end(app)
    if tracked > end:
        return f"they followed a log to position {tracked}, but this store's log ends at {end}"
    recorded, origin = store.source(APPLICATION), first_game(app)
    if recorded is not None and recorded != origin:
        return f"they were made from a store whose first game is {recorded}, not {origin or 'an empty store'}"
    if game_id is not None and tracked == end and store.position(game_id).row is None:
        return f"they followed this store's whole log but hold nothing of its game {game_id}"
    return None


def reconcile(app: EventLog, store: ReadStore, game_id: str | None = None) -> bool:
    """Rebuild read models left from another event store (a database restored or swapped
    beside them) from this one; returns whether it rebuilt. Where rebuilding fails, says
    so: `ReadModelError` naming the mismatch and the command to run."""
    reason = mismatch(app, store, game_id)
    if reason is None:
        origin = first_game(app)
        if origin is not None and store.source(APPLICATION) is None:
            # Read models made before the source was recorded, or still empty: they are this store's.
            with store.writing() as session:
                store.set_source(session, APPLICATION, origin)
        return False
    logger.warning("The read models do not match the event store (%s): rebuilding them.", reason)
    try:
        rebuild(app, store)
    except Exception as error:
        raise ReadModelError(f"The read models do not match the event store ({reason}) and could not be rebuilt "
                             f"({type(error).__name__}: {str(error).splitlines()[0]}); "
                             "run `caboose projections rebuild`.") from error
    with _GUARD:
        projection = _PROJECTIONS.get(app)
    if projection is not None:
        projection.forget()
    return True


# -- the application's own read models (API, CLI) ------------------------------------------

_PROJECTIONS: weakref.WeakKeyDictionary[Any, GameProjection] = weakref.WeakKeyDictionary()
_LOCKS: weakref.WeakKeyDictionary[GameProjection, threading.Lock] = weakref.WeakKeyDictionary()
_GUARD = threading.Lock()


def _lock_of(projection: GameProjection) -> threading.Lock:
    with _GUARD:
        return _LOCKS.setdefault(projection, threading.Lock())


def projection_of(app: EventLog) -> GameProjection:
    """The application's projection (one per application object, so its cache is kept)."""
    with _GUARD:
        projection = _PROJECTIONS.get(app)
        if projection is None or projection.store is not read_store_for(app):
            projection = _PROJECTIONS[app] = projection_for(app, read_store_for(app))
        return projection


def caught_up(app: EventLog, game_id: str) -> ReadStore:
    """The application's read models, brought up to the game's current version first (by
    projecting whatever of the log is not projected yet), so a reader gets the same answer
    as a fold of the log even when no runner is running."""
    store = read_store_for(app)
    if store not in _RECONCILED:
        reconcile(app, store)
        _RECONCILED.add(store)
    version = app.game(game_id).version
    if _projected(store, game_id) < version:
        try:
            PollingRunner(app, projection_of(app)).catch_up()
        except OutOfStep:
            if not reconcile(app, store, game_id):
                raise
        if _projected(store, game_id) < version and reconcile(app, store, game_id):
            PollingRunner(app, projection_of(app)).catch_up()
    return store


def log_caught_up(app: EventLog) -> ReadStore:
    """The application's read models, brought up to the end of the notification log as it
    is now (what the listing reads): whatever was stored before this call, by this process
    or any other, is in them when it returns. Nothing to do costs two indexed reads."""
    store = read_store_for(app)
    if store not in _RECONCILED:
        reconcile(app, store)
        _RECONCILED.add(store)
    if (store.max_tracking_id(APPLICATION) or 0) < log_end(app):
        try:
            done = PollingRunner(app, projection_of(app)).catch_up()
        except OutOfStep:
            if not reconcile(app, store):
                raise
            done = PollingRunner(app, projection_of(app)).catch_up()
        if done > BULK:
            store.analyze()  # e.g. the whole log again, after a migration emptied the read models
    return store


BULK = 5000
"""Notifications projected at once beyond which the planner's statistics are refreshed."""


_RECONCILED: weakref.WeakSet[ReadStore] = weakref.WeakSet()


def _projected(store: ReadStore, game_id: str) -> int:
    with store.reading() as session:
        return session.scalar(select(GameRow.version).where(GameRow.game_id == game_id)) or 0
