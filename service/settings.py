"""Settings from the environment, with the defaults documented in the README."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse

from service.notify.senders import SmtpSettings

DEFAULT_DB = "sqlite:///caboose.sqlite"


@dataclass(frozen=True)
class Settings:
    db: str = DEFAULT_DB
    snapshot_interval: int = 100
    schema: str | None = None
    """PostgreSQL schema for every table (events and the service's own); None = default."""
    rate_limit: tuple[int, float] = (120, 60.0)
    """Requests one token may make to one game within a window of seconds."""
    max_body_bytes: int = 256 * 1024
    base_url: str | None = None
    """How players reach this server (CABOOSE_BASE_URL): links in notifications are made
    from it; when unset, from the address the service is served at (`served_url`)."""
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    webhook_allow_networks: tuple[str, ...] = ()
    """Networks (CIDR) webhooks may reach although they are loopback, private, link-local…"""

    @classmethod
    def from_env(cls, db: str | None = None) -> Settings:
        count, _, window = os.environ.get("CABOOSE_RATE_LIMIT", "120/60").partition("/")
        return cls(
            db=db or os.environ.get("CABOOSE_DB", DEFAULT_DB),
            snapshot_interval=int(os.environ.get("CABOOSE_SNAPSHOT_INTERVAL", "100")),
            schema=os.environ.get("CABOOSE_DB_SCHEMA") or None,
            rate_limit=(int(count), float(window or 60)),
            max_body_bytes=int(os.environ.get("CABOOSE_MAX_BODY_BYTES", str(256 * 1024))),
            base_url=os.environ.get("CABOOSE_BASE_URL") or None,
            webhook_allow_networks=tuple(n.strip() for n in os.environ.get("CABOOSE_WEBHOOK_ALLOW_NETWORKS", "").split(",")
                                         if n.strip()),
            smtp=SmtpSettings(
                host=os.environ.get("CABOOSE_SMTP_HOST", "127.0.0.1"),
                port=int(os.environ.get("CABOOSE_SMTP_PORT", "25")),
                user=os.environ.get("CABOOSE_SMTP_USER") or None,
                password=os.environ.get("CABOOSE_SMTP_PASSWORD") or None,
                sender=os.environ.get("CABOOSE_SMTP_FROM", "caboose@localhost"),
                starttls=os.environ.get("CABOOSE_SMTP_STARTTLS", "") in ("1", "true", "yes"),
            ),
        )


def served_url(host: str, port: int | str) -> str:
    """The address a person opens for a service bound to `host:port`; a service bound to
    every interface is reached by the machine's name."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.getfqdn()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def bound_url() -> str:
    """`served_url` of where gunicorn binds (CABOOSE_BIND, as infra/gunicorn.conf.py)."""
    host, _, port = os.environ.get("CABOOSE_BIND", "127.0.0.1:8000").rpartition(":")
    return served_url(host.strip("[]"), port)


def persistence_env(db: str) -> dict[str, str]:
    """The eventsourcing library's settings for a database URL.

    `sqlite:///path/to/file`, `sqlite:///:memory:`, `memory` (plain Python objects, for
    simulations) or `postgresql://user[:password]@host[:port]/dbname`.
    """
    if db == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    url = urlparse(db)
    if url.scheme == "sqlite":
        path = unquote(url.path[1:] if url.path.startswith("/") else url.path) or ":memory:"
        if path == ":memory:":
            path = "file:caboose?mode=memory&cache=shared"
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path, "SQLITE_LOCK_TIMEOUT": "10"}
    if url.scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_POOL_SIZE": "5",
            "POSTGRES_MAX_OVERFLOW": "10",
        }
    raise ValueError(f"unsupported database {db!r}: use sqlite:///FILE, postgresql://USER@HOST:PORT/DB or memory")
