"""Every wait on PostgreSQL bounded, from the client's side.

The server's own timeouts (statement, lock, idle in a transaction) only help while the
server answers. A database that falls silent — a host gone, a network dropping packets, a
middlebox that accepts and forwards nothing — answers nothing, not even "timed out", and
TCP by itself waits for many minutes. So:

- every connection carries TCP keepalives and `tcp_user_timeout` (a link whose data goes
  unacknowledged, or whose keepalives go unanswered, for about `connect` seconds is dropped
  by the kernel), and asks the server for the same towards it, so that a client that
  vanished mid-transaction does not hold its locks; and the server's statement and lock
  timeouts;
- every wait for an answer is bounded here (`BoundedConnection.wait`): `statement` seconds
  and a grace, after which the server should have cancelled the statement and said so; a
  connection that waited past it is aborted (RST: whatever it had not yet delivered, a
  COMMIT included, is never delivered later);
- a request has a budget (`request_budget`, `CABOOSE_DB_REQUEST_TIMEOUT`): all its waits
  together — connecting, a pooled connection, its statements, the library's retry — end
  when it is spent, and the request is answered 503 with Retry-After;
- a server that stayed silent for a request is marked so (`Link`): while it is, one
  request at a time tries it and the others are answered 503 at once instead of each
  waiting out its budget (their threads, and the health checks queued behind them, are
  free again); the first answer, to a request or to the pool's reconnection, clears it.

Background work (the runners, the pool's own reconnection) has no budget and is not
refused: it waits at most the per-wait bound and tries again by itself.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from math import ceil
from time import monotonic
from typing import Any, ClassVar, Self

import psycopg
from eventsourcing.postgres import ConnectionPool
from psycopg.conninfo import conninfo_to_dict
from psycopg.errors import ConnectionTimeout, _WaitTimeout
from psycopg_pool.pool import AddConnection

from service.settings import DatabaseTimeouts

logger = logging.getLogger(__name__)

CONNECT_FLOOR = 2
"""libpq's shortest connect timeout, in seconds: a connection begun with less of a request's
budget left may take this long to fail (the documented limit says so)."""
GRACE = 2.0
"""Seconds past the statement timeout before a server that has not answered is taken as silent."""
SILENT_AFTER = 1.0
"""A wait shorter than this that ran out (the end of a request's budget) proves nothing."""
RECONNECT_EVERY = 1.0
"""The pool tries a lost connection again at least this often (psycopg_pool doubles its
delay each time: after a 45 s outage it would wait up to 32 s more to notice the database back)."""


class DatabaseSilent(psycopg.OperationalError):
    """The database did not answer within the bound, or the request's budget is spent."""


# -- the request's budget ---------------------------------------------------------------------

_deadline: ContextVar[float | None] = ContextVar("caboose_database_deadline", default=None)


@contextlib.contextmanager
def request_budget(seconds: float) -> Iterator[None]:
    """Within the block, all waits on the database end `seconds` from now (or sooner, if an
    enclosing budget ends sooner)."""
    outer = _deadline.get()
    mine = monotonic() + seconds
    token = _deadline.set(mine if outer is None else min(outer, mine))
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining(bound: float) -> float:
    """How long the next wait may last: `bound`, or less if the request's budget ends first;
    raises `DatabaseSilent` if it has ended."""
    deadline = _deadline.get()
    if deadline is None:
        return bound
    left = deadline - monotonic()
    if left <= 0:
        raise DatabaseSilent("this request has waited on the database for as long as it may")
    return min(bound, left)


class RequestBudget:
    """WSGI middleware: each request's handling (not the streaming of its answer) runs
    within a budget of `seconds` on the database."""

    def __init__(self, app: Callable[..., Any], seconds: float) -> None:
        self.app, self.seconds = app, seconds

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        with request_budget(self.seconds):
            return self.app(environ, start_response)


# -- what this process knows of each server ---------------------------------------------------

class Link:
    """One database server as this process sees it: silent since when (None: it answers),
    and which request thread, if any, is trying it while it is silent."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.silent_since: float | None = None
        self._trying: int | None = None
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def trying(self) -> Iterator[None]:
        """A request's wait on this server; refused at once while the server is silent and
        another request is trying it. Waits outside a request are never refused."""
        if self.silent_since is None or _deadline.get() is None:
            yield
            return
        me = threading.get_ident()
        with self._lock:
            if self._trying not in (None, me):
                raise DatabaseSilent(f"the database at {self.address} has not answered for "
                                     f"{monotonic() - self.silent_since:.0f} s; another request is trying it")
            first, self._trying = self._trying is None, me
        try:
            yield
        finally:
            if first:
                with self._lock:
                    self._trying = None

    def silent(self, waited: float) -> None:
        if self.silent_since is None:
            self.silent_since = monotonic()
            logger.warning("the database at %s did not answer for %.1f s: requests are answered 503 "
                           "(one at a time tries it) until it does", self.address, waited)

    def answered(self) -> None:
        if self.silent_since is not None:
            logger.warning("the database at %s answers again after %.1f s", self.address, monotonic() - self.silent_since)
            self.silent_since = None


_links: dict[str, Link] = {}
_links_lock = threading.Lock()


def link_to(host: object, port: object) -> Link:
    address = f"{host or 'localhost'}:{port or 5432}"
    with _links_lock:
        return _links.setdefault(address, Link(address))


# -- connections ------------------------------------------------------------------------------

def connect_params(timeouts: DatabaseTimeouts, *options: str) -> dict[str, Any]:
    """libpq's parameters for a connection whose every wait is bounded: connect timeout,
    TCP keepalives and user timeout on both ends (so the server, too, drops a client that
    vanished mid-transaction, and its locks), and the server's statement and lock timeouts;
    `options` are more `-cNAME=VALUE` server settings."""
    silence = max(CONNECT_FLOOR, ceil(timeouts.connect))
    statement = int(timeouts.statement * 1000)
    keepalive = {"idle": max(1, silence - 3), "interval": 1, "count": 3}
    server = [f"-cstatement_timeout={statement}", f"-clock_timeout={statement}", f"-ctcp_user_timeout={silence * 1000}",
              *(f"-ctcp_keepalives_{name}={value}" for name, value in keepalive.items()), *options]
    return {"connect_timeout": silence, "keepalives": 1, "tcp_user_timeout": silence * 1000,
            **{f"keepalives_{name}": value for name, value in keepalive.items()}, "options": " ".join(server)}


_UNSET: Any = object()


class BoundedConnection(psycopg.Connection[Any]):
    """A psycopg connection that waits for an answer at most `answer_within` seconds (less
    when the request's budget ends sooner), and tells its server's `Link` how it went.
    Made for given timeouts by `connection_class`."""

    answer_within: ClassVar[float] = 30.0
    link: Link

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
        params = conninfo_to_dict(conninfo, **kwargs)
        link = link_to(params.get("host"), params.get("port"))
        with link.trying():
            bound = remaining(float(params.get("connect_timeout") or cls.answer_within))
            # libpq counts whole seconds, CONNECT_FLOOR at least.
            kwargs["connect_timeout"] = max(CONNECT_FLOOR, ceil(bound))
            started = monotonic()
            try:
                connection = super().connect(conninfo, **kwargs)
            except ConnectionTimeout:
                link.silent(monotonic() - started)
                raise
        link.answered()
        connection.link = link
        return connection

    def wait(self, gen: Any, interval: float | None = 0.1, timeout: Any = _UNSET) -> Any:
        if timeout is not _UNSET:
            # `notifies()`: waiting for notifications is not waiting for an answer.
            return super().wait(gen, interval or 0.1, timeout)
        bound = remaining(self.answer_within)
        started = monotonic()
        with self.link.trying():
            try:
                answer = super().wait(gen, interval or 0.1, bound)
            except _WaitTimeout as error:
                self._abort()
                if bound >= SILENT_AFTER:
                    self.link.silent(monotonic() - started)
                raise DatabaseSilent(f"the database at {self.link.address} did not answer within {bound:.1f} s") from error
        self.link.answered()
        return answer

    def _abort(self) -> None:
        """Close with a reset, not a goodbye: nothing this connection sent and the server has
        not yet received (a COMMIT) may reach it later, once the link comes back."""
        # A duplicate of libpq's descriptor: closing it leaves libpq's own open.
        with contextlib.suppress(OSError, psycopg.Error), socket.fromfd(self.pgconn.socket, socket.AF_INET, socket.SOCK_STREAM) as raw:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.pgconn.finish()


@lru_cache
def connection_class(timeouts: DatabaseTimeouts) -> type[BoundedConnection]:
    return type("BoundedConnection", (BoundedConnection,), {"answer_within": timeouts.statement + GRACE})


# -- the event store's pool -------------------------------------------------------------------

class BoundedPool(ConnectionPool[Any]):
    """The event store's pool: a request waits for a connection within its budget, and a
    lost connection is tried again every second or so, not after a doubling delay."""

    link: Link

    def getconn(self, timeout: float | None = None) -> Any:
        bound = remaining(self.timeout if timeout is None else timeout)
        with self.link.trying():
            return super().getconn(bound)

    def schedule_task(self, task: Any, delay: float) -> None:
        super().schedule_task(task, min(delay, RECONNECT_EVERY) if isinstance(task, AddConnection) else delay)


def bound_pool(pool: ConnectionPool[Any], timeouts: DatabaseTimeouts) -> None:
    """Make the library's (unopened) pool a `BoundedPool` of `BoundedConnection`s."""
    assert isinstance(pool.kwargs, dict)
    pool.__class__ = BoundedPool
    assert isinstance(pool, BoundedPool)
    pool.link = link_to(pool.kwargs.get("host"), pool.kwargs.get("port"))
    pool.connection_class = connection_class(timeouts)
    pool.kwargs.update(connect_params(timeouts, *pool.kwargs.get("options", "").split()))
