"""SQLAlchemy engines for the service's own tables (seats and tokens, notifications),
kept in the same database as the events unless told otherwise."""

from __future__ import annotations

import sqlite3
from time import monotonic, sleep
from typing import Any
from urllib.parse import urlparse

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.pool import StaticPool

from service.settings import DatabaseTimeouts
from service.waits import connect_params, connection_class


def sqlalchemy_url(db: str) -> str:
    if db == "memory":
        return "sqlite://"
    scheme = urlparse(db).scheme
    if scheme == "sqlite":
        return db
    if scheme in ("postgresql", "postgres"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if scheme == "postgresql+psycopg":
        return db
    raise ValueError(f"unsupported database {db!r}")


def make_engine(db: str, schema: str | None = None, timeouts: DatabaseTimeouts | None = None) -> Engine:
    """An engine whose every wait is bounded (`DatabaseTimeouts`), so a database that is
    down or stuck turns into an error the API answers with 503, not a hung request."""
    timeouts = timeouts or DatabaseTimeouts.from_env()
    url = sqlalchemy_url(db)
    if url == "sqlite://":
        return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": timeouts.busy, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _wal(connection, _record) -> None:  # type: ignore[no-untyped-def]
            # WAL lets readers proceed while the event store writes.
            _write_ahead(connection, timeouts.busy)

        return engine
    engine = create_engine(url, pool_pre_ping=True, pool_timeout=timeouts.connect,
                           connect_args=postgres_connect_args(schema, timeouts))
    bound_waits(engine, timeouts)
    return engine


def bound_waits(engine: Engine, timeouts: DatabaseTimeouts) -> None:
    """The engine's connections wait within the bounds and the request's budget
    (`service/waits.py`)."""
    bounded = connection_class(timeouts)

    @event.listens_for(engine, "do_connect")
    def _connect(_dialect, _record, cargs, cparams):  # type: ignore[no-untyped-def]
        return bounded.connect(*cargs, **cparams)


def _write_ahead(connection: sqlite3.Connection, busy: float) -> None:
    """Put a SQLite file in WAL mode. The mode is kept in the file, so only the first
    connection to a new file changes it; switching needs the file to itself, and SQLite
    answers "database is locked" at once, without waiting, while another process holds it
    (several processes opening a new file together), so the switch is retried for as long
    as any other lock would be waited for."""
    if connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    deadline = monotonic() + busy
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or monotonic() >= deadline:
                raise
            sleep(0.02)


def postgres_connect_args(schema: str | None, timeouts: DatabaseTimeouts, *options: str) -> dict[str, Any]:
    """psycopg's connection arguments: every wait bounded (`service/waits.py`), the schema."""
    return connect_params(timeouts, *options, *([f"-csearch_path={schema}"] if schema else []))
