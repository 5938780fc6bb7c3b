"""Settings from the environment, with the defaults documented in the README."""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from math import ceil
from typing import Any, ClassVar
from urllib.parse import unquote, urlparse

from limits import parse_many

from service.notify.senders import SmtpSettings

DEFAULT_DB = "sqlite:///caboose.sqlite"


@dataclass(frozen=True)
class RateLimits:
    """How often one client may call each class of route, in the `limits` notation
    ("1200/minute", several joined by ";"; "N/S" means N per S seconds). A client is its
    bearer token on a game's routes once the token is found valid, else its address; `read`,
    `legal_moves` and `move` count per client per game, the others per client across games.
    Each address is also counted before any token is looked up (`clients_per_address`).

    The defaults leave a bot room to read the state and the legal moves after every event
    of a whole game and to move as fast as the server answers, while a flood is cut off.
    """

    read: str = "1200/minute"
    """Summaries, state, events, projections, the replay page and its views."""
    legal_moves: str = "1200/minute"
    move: str = "600/minute"
    """Moves, and the seats' and referee's other writes (takebacks, disputes, rulings…)."""
    expensive: str = "12/minute"
    """Audits, exports and dispute lists: each re-reads or re-adjudicates whole games."""
    create: str = "20/minute;200/day"
    """New games."""
    join: str = "20/minute;200/day"
    """Seats claimed by invite (and so invite codes tried)."""
    clients_per_address: int = 10
    """How many clients one address may stand for: every request from an address, whatever
    token it carries, is counted first against this many times its class's limit, before any
    token is looked up (a table's seats and referee behind one router, a host running bots
    for several seats). Requests no valid token speaks for (none sent, or one refused) are
    counted against the address at the class's limit itself, so made-up tokens are no new
    clients."""
    storage: str = "memory://"
    """Where the counts live: `memory://` (this process only) or `redis://HOST:PORT`, shared by
    every worker and host that uses it."""
    prefix: str = "caboose"
    """Prefix of the counts' keys in a shared storage."""

    CLASSES: ClassVar[tuple[str, ...]] = ("read", "legal_moves", "move", "expensive", "create", "join")

    def __post_init__(self) -> None:
        for name in self.CLASSES:
            object.__setattr__(self, name, _rate(name, getattr(self, name)))
        if not isinstance(self.clients_per_address, int) or self.clients_per_address < 1:
            raise ValueError(f"rate limit clients_per_address={self.clients_per_address!r}: a whole number of 1 or more")

    @classmethod
    def every(cls, rate: str, **others: Any) -> RateLimits:
        """The same limit for every class (tests, benchmarks, an operator's single knob)."""
        rates: dict[str, Any] = dict.fromkeys(cls.CLASSES, rate)
        return cls(**rates, **others)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RateLimits:
        """`CABOOSE_RATE_LIMIT` sets every class; `CABOOSE_RATE_LIMIT_<CLASS>` one class."""
        every = env.get("CABOOSE_RATE_LIMIT")
        chosen = {name: env.get(f"CABOOSE_RATE_LIMIT_{name.upper()}") or every for name in cls.CLASSES}
        share = env.get("CABOOSE_RATE_LIMIT_CLIENTS_PER_ADDRESS") or "10"
        if not share.strip().isdigit():
            raise ValueError(f"CABOOSE_RATE_LIMIT_CLIENTS_PER_ADDRESS={share!r}: a whole number of 1 or more")
        return cls(**{k: v for k, v in chosen.items() if v}, clients_per_address=int(share),
                   storage=env.get("CABOOSE_RATE_LIMIT_STORAGE") or "memory://",
                   prefix=env.get("CABOOSE_RATE_LIMIT_PREFIX") or "caboose")


def _rate(name: str, text: str) -> str:
    """`text` in the `limits` notation, with the older "N/S" (N per S seconds) accepted."""
    text = text.strip()
    old = re.fullmatch(r"(\d+)\s*/\s*(\d+)(?:\.0*)?", text)
    if old:
        text = f"{old[1]} per {old[2]} seconds"
    try:
        parse_many(text)
    except ValueError:
        raise ValueError(f"rate limit {name}={text!r} is not a rate: write e.g. 1200/minute or 30/second;600/hour") from None
    return text


@dataclass(frozen=True)
class DatabaseTimeouts:
    """How long anything may wait on the database before it is told to come back later (a
    request: 503 with Retry-After) instead of hanging: seconds (`service/waits.py`)."""

    connect: float = 5.0
    """PostgreSQL: to connect, to wait for a connection from a full pool, and for a link
    whose packets go unacknowledged (TCP keepalives, `tcp_user_timeout`) to be dropped."""
    statement: float = 15.0
    """PostgreSQL: one statement, or one lock wait, run by the server (and an event-store
    transaction left idle); a server silent for this and a grace is taken as gone."""
    request: float = 5.0
    """PostgreSQL: one API request's waits all together (connecting, a pooled connection,
    its statements): past it the request is answered 503 with Retry-After."""
    busy: float = 15.0
    """SQLite: waiting for another writer's lock."""

    @classmethod
    def from_env(cls) -> DatabaseTimeouts:
        return cls(connect=float(os.environ.get("CABOOSE_DB_CONNECT_TIMEOUT", "5")),
                   statement=float(os.environ.get("CABOOSE_DB_STATEMENT_TIMEOUT", "15")),
                   request=float(os.environ.get("CABOOSE_DB_REQUEST_TIMEOUT", "5")),
                   busy=float(os.environ.get("CABOOSE_SQLITE_BUSY_TIMEOUT", "15")))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
TrustedProxies = int | tuple[str, ...]
"""How many proxies append to X-Forwarded-For, or the networks they connect from."""


def trusted_proxies_from(text: str) -> TrustedProxies:
    """`CABOOSE_TRUSTED_PROXIES` as a count or as networks; a clear error for anything else."""
    text = text.strip()
    if not text or text.isdigit():
        return int(text or "0")
    return tuple(str(network) for network in proxy_networks(text.split(",")))


def proxy_networks(items: Iterable[str]) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in items if item.strip())
    except ValueError as error:
        raise ValueError(f"CABOOSE_TRUSTED_PROXIES: {error}; give the proxies' addresses or networks "
                         "(e.g. 127.0.0.1,10.0.0.0/24), or how many proxies append to X-Forwarded-For") from None


@dataclass(frozen=True)
class Settings:
    db: str = DEFAULT_DB
    snapshot_interval: int = 100
    schema: str | None = None
    """PostgreSQL schema for every table (events and the service's own); None = default."""
    rate_limits: RateLimits = field(default_factory=RateLimits)
    max_body_bytes: int = 256 * 1024
    base_url: str | None = None
    """How players reach this server (CABOOSE_BASE_URL): links in notifications are made
    from it; when unset, from the address the service is served at (`served_url`)."""
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    webhook_allow_networks: tuple[str, ...] = ()
    """Networks (CIDR) webhooks may reach although they are loopback, private, link-local…"""
    trusted_proxies: TrustedProxies = 0
    """The reverse proxies in front of the API (CABOOSE_TRUSTED_PROXIES), so that limits by
    address count clients, not the proxy: the addresses or networks they connect from (only
    their requests' `X-Forwarded-For` is read, up to the first address that is not one of
    them), or how many of them append to the header (whoever connects: only where nothing
    else can reach the API). 0: the header is ignored (anyone could write it).
    `service/api/client_address.py`."""
    log_key: str | None = None
    """A file holding the transparency log's signing key (CABOOSE_LOG_KEY), made there on
    first start; unset: the key is made on first start and kept in the database, beside
    the log it signs."""
    log_origin: str | None = None
    """The name a new log key gets, and so the checkpoints' origin (CABOOSE_LOG_ORIGIN);
    unset: `caboose.log/` and 12 random hex digits."""
    witness_keys: tuple[str, ...] = ()
    """Verifier keys of the witnesses whose cosignatures the log takes and requires on the
    checkpoint it publishes (CABOOSE_WITNESS_KEYS, comma-separated; `serve --witness-key`)."""

    @classmethod
    def from_env(cls, db: str | None = None) -> Settings:
        return cls(
            db=db or os.environ.get("CABOOSE_DB", DEFAULT_DB),
            snapshot_interval=int(os.environ.get("CABOOSE_SNAPSHOT_INTERVAL", "100")),
            schema=os.environ.get("CABOOSE_DB_SCHEMA") or None,
            rate_limits=RateLimits.from_env(os.environ),
            max_body_bytes=int(os.environ.get("CABOOSE_MAX_BODY_BYTES", str(256 * 1024))),
            base_url=os.environ.get("CABOOSE_BASE_URL") or None,
            trusted_proxies=trusted_proxies_from(os.environ.get("CABOOSE_TRUSTED_PROXIES", "")),
            log_key=os.environ.get("CABOOSE_LOG_KEY") or None,
            log_origin=os.environ.get("CABOOSE_LOG_ORIGIN") or None,
            witness_keys=tuple(k.strip() for k in os.environ.get("CABOOSE_WITNESS_KEYS", "").split(",") if k.strip()),
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
            # The library sets this itself on each connection (0, none, unless told). Its lock
            # timeout is left at 0 (the insert's table lock is then bounded by the statement
            # timeout): it is written into the stored function the migration makes as well.
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": str(ceil(timeouts.statement)),
            # A pooled connection that died with the server is replaced, not handed out.
            "POSTGRES_PRE_PING": "y",
        }
    raise ValueError(f"unsupported database {db!r}: use sqlite:///FILE, postgresql://USER@HOST:PORT/DB or memory")
