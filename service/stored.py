"""FORMAT.md records, read from the stored `Game` events through the library's mapper.

Each `Game` event carries its record (`Game.Created`, `Recorded`, `Rewound`, `Joined`); the
application's mapper decodes a stored event with its transcoder (`service/transcoder.py`,
orjson reading the library's JSON) into the library's event, and the record is taken from
it. A cipher or compressor configured is the mapper's business, as is every upcast.

What is this module's own is how a game's rows are selected on SQLite (`_stored_events`):
the library's query, without building an id object per row (a third of an export's time,
half of reading a game's rows), handed to the mapper as the library's read would hand them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple
from uuid import UUID

import orjson
from eventsourcing.persistence import Notification
from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import get_topic
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

from service.aggregate import Game

CREATED, RECORDED, REWOUND, JOINED = (get_topic(cls) for cls in (Game.Created, Game.Recorded, Game.Rewound,  # type: ignore[attr-defined]
                                                                   Game.Joined))  # type: ignore[attr-defined]
TOPICS = frozenset({CREATED, RECORDED, REWOUND, JOINED})


def record_of(event: Any) -> dict[str, Any] | None:
    """The game record a library event carries, or None (a tournament's event, say)."""
    record = getattr(event, "record", None)
    return record if isinstance(record, dict) and "game_id" in record else None


def logged(app: Any, notifications: Sequence[Any]) -> list[tuple[int, dict[str, Any], Any]]:
    """(notification id, record, the state a rewind restores or None) for each `Game`
    event of a stretch of the notification log; anything else in the log is left out."""
    to_event = app.mapper.to_domain_event
    found: list[tuple[int, dict[str, Any], Any]] = []
    for notification in notifications:
        event = to_event(notification)
        record = record_of(event)
        if record is not None:
            found.append((notification.id, record, getattr(event, "state", None) if notification.topic == REWOUND else None))
    return found


class _Row(NamedTuple):
    """A stored event as the library's read gives it (`StoredEvent`'s fields)."""

    originator_id: UUID
    originator_version: int
    topic: str
    state: bytes


_tuple = tuple.__new__


def _stored_events(app: Any, key: UUID, gt: int | None = None, lte: int | None = None,
                   limit: int | None = None) -> Sequence[Any]:
    """A game's stored events (after version `gt`, up to `lte`, at most `limit`). On SQLite
    and PostgreSQL they are selected here: the library's own query, the game's id object
    shared by its rows (PostgreSQL's driver would build one per row, and the library a
    frozen `StoredEvent` per row: together more than half of reading a game's rows there)."""
    recorder = app.recorder
    table = getattr(recorder, "events_table_name", None)
    if not isinstance(table, str):
        return recorder.select_events(key, gt=gt, lte=lte, limit=limit)  # type: ignore[no-any-return]
    if isinstance(recorder, SQLiteAggregateRecorder):
        sql = [f"SELECT originator_version, topic, state FROM {table} WHERE originator_id=?"]
        params: list[Any] = [key.hex]
        mark = "?"
    elif isinstance(recorder, PostgresAggregateRecorder):
        sql = [SQL("SELECT originator_version, topic, state FROM {}.{} WHERE originator_id = %s").format(
            Identifier(recorder.datastore.schema), Identifier(table)).as_string(None)]
        params = [key]
        mark = "%s"
    else:
        return recorder.select_events(key, gt=gt, lte=lte, limit=limit)  # type: ignore[no-any-return]
    for clause, value in ((" AND originator_version > ", gt), (" AND originator_version <= ", lte)):
        if value is not None:
            sql.append(clause + mark)
            params.append(value)
    sql.append(" ORDER BY originator_version")
    if limit is not None:
        sql.append(" LIMIT " + mark)
        params.append(limit)
    if isinstance(recorder, SQLiteAggregateRecorder):
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute("".join(sql), params)
            # The tuple made directly: a named tuple's own `__new__` is a Python call per row.
            return [_tuple(_Row, (key, row[0], row[1], row[2])) for row in cursor.fetchall()]
    # As the library's own read: no transaction, the statement prepared; plain tuples.
    with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
        cursor.execute("".join(sql), params, prepare=True)
        return [_tuple(_Row, (key, row[0], row[1], bytes(row[2]))) for row in cursor.fetchall()]


def records(app: Any, game_id: UUID, after: int | None = None, upto: int | None = None,
            limit: int | None = None) -> list[dict[str, Any]]:
    """A game's records after version `after` (up to `upto`, at most `limit`)."""
    to_event = app.mapper.to_domain_event
    found = []
    for row in _stored_events(app, game_id, after, upto, limit):
        record = getattr(to_event(row), "record", None)  # `record_of`, here for every event read
        if isinstance(record, dict) and "game_id" in record:
            found.append(record)
    return found


def texts(app: Any, game_id: str) -> Iterator[str]:
    """A game's records as JSON texts (FORMAT.md lines), in version order, for exports."""
    for record in records(app, UUID(game_id)):
        yield dumps(record)


def dumps(record: dict[str, Any]) -> str:
    """A record as one line of JSON, as the library's encoder stored it; orjson refuses an
    integer beyond 64 bits, which the standard encoder writes."""
    try:
        return orjson.dumps(record).decode()
    except TypeError:
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def originators(app: Any) -> dict[UUID, int]:
    """Every originator (game, tournament) in the store with its number of events (its last
    version), for a rebuild that splits the log by originator: read off the primary key's
    index, not the events."""
    recorder = app.recorder
    if isinstance(recorder, SQLiteAggregateRecorder):
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT originator_id, MAX(originator_version) FROM {recorder.events_table_name} GROUP BY originator_id")
            return {UUID(row[0]): row[1] for row in cursor.fetchall()}
    if isinstance(recorder, PostgresAggregateRecorder):
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(SQL("SELECT originator_id, MAX(originator_version) AS events FROM {}.{} GROUP BY originator_id").format(
                Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name)))
            return {row["originator_id"]: row["events"] for row in cursor.fetchall()}
    seen: dict[UUID, int] = {}  # another store: off the whole log
    start = 0
    while batch := recorder.select_notifications(start=start, limit=1000, inclusive_of_start=False):
        seen.update((n.originator_id, n.originator_version) for n in batch)
        start = batch[-1].id
    return seen


def notifications_of(app: Any, ids: Sequence[UUID], upto: int) -> list[Notification]:
    """The notifications of the originators `ids` up to position `upto`, in the log's
    order: a rebuild's part reads its own games' events and no one else's."""
    recorder = app.recorder
    if not ids:
        return []
    if isinstance(recorder, SQLiteAggregateRecorder):
        by_hex = {key.hex: key for key in ids}
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT rowid, originator_id, originator_version, topic, state FROM {recorder.events_table_name} "
                           f"WHERE originator_id IN ({','.join('?' * len(by_hex))}) AND rowid<=? ORDER BY rowid",
                           [*by_hex, upto])
            return [Notification(id=row[0], originator_id=by_hex[row[1]], originator_version=row[2], topic=row[3], state=row[4])
                    for row in cursor.fetchall()]
    if isinstance(recorder, PostgresAggregateRecorder):
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(SQL("SELECT notification_id, originator_id, originator_version, topic, state FROM {}.{} "
                               "WHERE originator_id = ANY(%s) AND notification_id <= %s ORDER BY notification_id").format(
                Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name)), (list(ids), upto))
            return [Notification(id=row["notification_id"], originator_id=row["originator_id"],
                                 originator_version=row["originator_version"], topic=row["topic"], state=bytes(row["state"]))
                    for row in cursor.fetchall()]
    wanted, found, start = set(ids), [], 0
    while batch := recorder.select_notifications(start=start, limit=1000, stop=upto, inclusive_of_start=False):
        found += [n for n in batch if n.originator_id in wanted]
        start = batch[-1].id
    return found
