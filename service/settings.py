"""Settings from the environment, with the defaults documented in the README."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from math import ceil
from urllib.parse import unquote, urlparse

from service.notify.senders import SmtpSettings

DEFAULT_DB = "sqlite:///caboose.sqlite"


@dataclass(frozen=True)
class DatabaseTimeouts:
    """How long a request may wait on the database before it is told to come back later
    (503 with Retry-After) instead of hanging: seconds."""

    connect: float = 5.0
    """PostgreSQL: to connect, and to wait for a connection from a full pool."""
    statement: float = 15.0
    """PostgreSQL: one statement."""
    busy: float = 15.0
    """SQLite: waiting for another writer's lock."""

    @classmethod
    def from_env(cls) -> DatabaseTimeouts:
        return cls(connect=float(os.environ.get("CABOOSE_DB_CONNECT_TIMEOUT", "5")),
                   statement=float(os.environ.get("CABOOSE_DB_STATEMENT_TIMEOUT", "15")),
                   busy=float(os.environ.get("CABOOSE_SQLITE_BUSY_TIMEOUT", "15")))


@dataclass(frozen=True)
class Settings:
    db: str = DEFAULT_DB
    snapshot_interval: int = 100
    schema: str | None = None
    """PostgreSQL schema for every table (events and the service's own); None = default."""
    rate_limit: tuple[int, float] = (120, 60.0)
    """Requests one token may make to one game within a window of seconds."""
    max_body_bytes: int = 256 * 1024
    base_url: str = "http://127.0.0.1:8000"
    """How players reach this server: links in notifications are made from it."""
    smtp: SmtpSettings = field(default_factory=SmtpSettings)

    @classmethod
    def from_env(cls, db: str | None = None) -> Settings:
        count, _, window = os.environ.get("CABOOSE_RATE_LIMIT", "120/60").partition("/")
        return cls(
            db=db or os.environ.get("CABOOSE_DB", DEFAULT_DB),
            snapshot_interval=int(os.environ.get("CABOOSE_SNAPSHOT_INTERVAL", "100")),
            schema=os.environ.get("CABOOSE_DB_SCHEMA") or None,
            rate_limit=(int(count), float(window or 60)),
            max_body_bytes=int(os.environ.get("CABOOSE_MAX_BODY_BYTES", str(256 * 1024))),
            base_url=os.environ.get("CABOOSE_BASE_URL", "http://127.0.0.1:8000"),
            smtp=SmtpSettings(
                host=os.environ.get("CABOOSE_SMTP_HOST", "127.0.0.1"),
                port=int(os.environ.get("CABOOSE_SMTP_PORT", "25")),
                user=os.environ.get("CABOOSE_SMTP_USER") or None,
                password=os.environ.get("CABOOSE_SMTP_PASSWORD") or None,
                sender=os.environ.get("CABOOSE_SMTP_FROM", "caboose@localhost"),
                starttls=os.environ.get("CABOOSE_SMTP_STARTTLS", "") in ("1", "true", "yes"),
            ),
        )


def persistence_env(db: str, timeouts: DatabaseTimeouts | None = None) -> dict[str, str]:
    """The eventsourcing library's settings for a database URL.

    `sqlite:///path/to/file`, `sqlite:///:memory:`, `memory` (plain Python objects, for
    simulations) or `postgresql://user[:password]@host[:port]/dbname`.
    """
    timeouts = timeouts or DatabaseTimeouts.from_env()
    if db == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    url = urlparse(db)
    if url.scheme == "sqlite":
        path = unquote(url.path[1:] if url.path.startswith("/") else url.path) or ":memory:"
        if path == ":memory:":
            path = "file:caboose?mode=memory&cache=shared"
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path, "SQLITE_LOCK_TIMEOUT": str(ceil(timeouts.busy))}
    if url.scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return {
            "PERSISTENCE_MODULE": "service.eventstore:BoundedPostgresFactory",
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_POOL_SIZE": "5",
            "POSTGRES_MAX_OVERFLOW": "10",
            "POSTGRES_CONNECT_TIMEOUT": str(ceil(timeouts.connect)),
            "POSTGRES_STATEMENT_TIMEOUT": str(timeouts.statement),
            # A pooled connection that died with the server is replaced, not handed out.
            "POSTGRES_PRE_PING": "y",
        }
    raise ValueError(f"unsupported database {db!r}: use sqlite:///FILE, postgresql://USER@HOST:PORT/DB or memory")
