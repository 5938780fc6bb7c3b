"""The eventsourcing library's stores as the service uses them.

- `event_store_statements`: the statements the library's recorders would run to create
  their tables, taken from the recorders themselves, for the migration to run once.
- `BoundedPostgresFactory`: the library's PostgreSQL factory with recorders that give up
  quickly. The library retries a failed read or write ten times, and each attempt may
  wait the whole connect timeout for the pool: with PostgreSQL down a request would hang
  for minutes instead of being told to come back later (503). Two attempts still ride
  over one dropped connection, which the pool's pre-ping replaces; every wait of both is
  bounded by `service/waits.py`.
- `BinaryResultsCursor`: the PostgreSQL recorders' cursors, results in binary.
- `records_channel`: the channel on which each transaction that stores records sends one
  NOTIFY per game it stored, with the game's id (`service/feed.py` listens to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.pq import Format

from service.settings import DatabaseTimeouts
from service.waits import bound_pool

APPLICATION = "caboose"
"""The application's name (`Caboose.name`): the library names its PostgreSQL tables after it."""

ATTEMPTS = 2


def records_channel(schema: str | None) -> str:
    """The NOTIFY channel of the records stored in `schema`: channels are per database, and
    every schema (a deployment, or a test) must hear only its own games."""
    return f"caboose_records.{schema or 'public'}"


def event_store_statements(dialect: str, schema: str | None = None) -> list[tuple[str, str | None]]:
    """(statement, composite type it creates or None) for the events and snapshots tables,
    exactly as the library's recorders for `Caboose` create them."""
    if dialect == "sqlite":
        # The SQLite recorders build their statements from the table name alone; made
        # without their constructors, they open no database.
        events = object.__new__(SQLiteApplicationRecorder)
        snapshots = object.__new__(SQLiteAggregateRecorder)
        events.events_table_name, snapshots.events_table_name = "stored_events", "stored_snapshots"
        return [(s, None) for recorder in (events, snapshots) for s in recorder.construct_create_table_statements()]
    # The recorders build their statements when constructed; a stand-in datastore lets
    # them do so without connecting.
    datastore = SimpleNamespace(schema=schema or "public", originator_id_type="uuid", db_type_names=set(),
                                register_type_adapters=lambda: None, lock_timeout=0, enable_db_functions=False)
    out: list[tuple[str, str | None]] = []
    for recorder in (PostgresApplicationRecorder(datastore, events_table_name=f"{APPLICATION}_events"),  # type: ignore[arg-type]
                     PostgresAggregateRecorder(datastore, events_table_name=f"{APPLICATION}_snapshots")):  # type: ignore[arg-type]
        for statement in recorder.sql_create_statements:
            sql = statement.as_string()
            out.append((sql, recorder.stored_event_type_name if "CREATE TYPE" in sql else None))
    return out


class BinaryResultsCursor(Cursor[Any]):
    """A cursor that asks PostgreSQL for results in binary. In text, every stored event's
    `bytea` comes back as hex, twice its size, and is decoded again in Python: loading a
    game's snapshot (a few hundred KB for a long game) cost four times its binary read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.format = Format.BINARY


def _bounded(method: Any) -> Any:
    return retry((InterfaceError, OperationalError), max_attempts=ATTEMPTS, wait=0.2)(method.__wrapped__)


class BoundedApplicationRecorder(PostgresApplicationRecorder):
    insert_events = _bounded(PostgresApplicationRecorder.insert_events)
    select_events = _bounded(PostgresApplicationRecorder.select_events)
    select_notifications = _bounded(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _bounded(PostgresApplicationRecorder.max_notification_id)

    def _insert_events(self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """Inside the transaction that stores the records (the library's hook for it), one
        NOTIFY per game with its id: PostgreSQL delivers it when the records commit, never
        for a transaction that failed, so a listener reads only what is stored."""
        super()._insert_events(curs, stored_events, **kwargs)
        channel = records_channel(self.datastore.schema)
        for game_id in dict.fromkeys(str(e.originator_id) for e in stored_events):
            curs.execute("SELECT pg_notify(%s, %s)", (channel, game_id))


class BoundedAggregateRecorder(PostgresAggregateRecorder):
    insert_events = _bounded(PostgresAggregateRecorder.insert_events)
    select_events = _bounded(PostgresAggregateRecorder.select_events)


class BoundedPostgresFactory(PostgresFactory):
    """The library's PostgreSQL factory with every wait bounded (`service/waits.py`):
    `POSTGRES_CONNECT_TIMEOUT` (the library's pool wait) also bounds each connection attempt
    and the link's silence, and `POSTGRES_STATEMENT_TIMEOUT` (seconds) each statement and
    lock wait, which the library's datastore leaves unbounded."""

    aggregate_recorder_class = BoundedAggregateRecorder
    application_recorder_class = BoundedApplicationRecorder
    POSTGRES_STATEMENT_TIMEOUT = "POSTGRES_STATEMENT_TIMEOUT"

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        timeouts = DatabaseTimeouts(connect=float(self.env.get(self.POSTGRES_CONNECT_TIMEOUT) or 30),
                                    statement=float(self.env.get(self.POSTGRES_STATEMENT_TIMEOUT) or 30))
        bound_pool(self.datastore.pool, timeouts)
        kwargs = self.datastore.pool.kwargs
        assert isinstance(kwargs, dict)
        kwargs["cursor_factory"] = BinaryResultsCursor
