"""SQLAlchemy engines for the service's own tables (seats and tokens, notifications),
kept in the same database as the events unless told otherwise."""

from __future__ import annotations

from urllib.parse import urlparse

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.pool import StaticPool


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


def make_engine(db: str, schema: str | None = None) -> Engine:
    url = sqlalchemy_url(db)
    if url == "sqlite://":
        return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _wal(connection, _record) -> None:  # type: ignore[no-untyped-def]
            # WAL lets readers proceed while the event store writes.
            connection.execute("PRAGMA journal_mode=WAL")

        return engine
    options = {"options": f"-csearch_path={schema}"} if schema else {}
    return create_engine(url, pool_pre_ping=True, connect_args=options)
