"""Shared fixtures: the `race` fake ruleset and the `pebbles` toy game, stores on SQLite and
PostgreSQL; how the tests are shared among parallel workers; and the suite's own time,
printed at its end (CI shows it)."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

from domain import games
from projections.store import read_db_url
from service.application import Caboose
from service.databases import upgrade_databases
from service.settings import Settings
from tests.fakes.lucky import LUCKY
from tests.fakes.pebbles.rules import RULES as PEBBLES
from tests.fakes.race import RACE

POSTGRES_URL = os.environ.get("CABOOSE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")

games.register(RACE)
# A game with dice and a bag, for games played at a table (`seed_source: "table"`).
games.register(LUCKY)
# The toy game, registered as domain/games.py registers a shipped game (docs/adding-a-game.md).
games.register(PEBBLES)


@pytest.fixture
def sqlite_app(tmp_path: object) -> Iterator[Caboose]:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/caboose.sqlite", snapshot_interval=10))
    yield app
    app.close()


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL, upgraded as `caboose db upgrade` does, dropped
    afterwards; fails if PostgreSQL is unreachable."""
    schema = f"caboose_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    upgrade_databases(Settings(db=POSTGRES_URL, schema=schema), read_db_url(POSTGRES_URL, schema))
    try:
        yield schema
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def postgres_schema() -> Iterator[str]:
    with fresh_schema() as schema:
        yield schema


@pytest.fixture
def postgres_app(postgres_schema: str) -> Iterator[Caboose]:
    # Closed after each test: PostgreSQL allows only so many connections.
    app = Caboose(Settings(db=POSTGRES_URL, snapshot_interval=10, schema=postgres_schema))
    yield app
    app.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest) -> Caboose:
    """The application on each real store."""
    return request.getfixturevalue(f"{request.param}_app")


_STARTED = pytest.StashKey[float]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_STARTED] = time.monotonic()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """The suite's wall-clock time and how many workers ran it (pytest-xdist's `-n`), on the
    run's controlling process (workers have `workerinput`), before pytest's closing line."""
    if hasattr(config, "workerinput") or _STARTED not in config.stash:
        return
    seconds = time.monotonic() - config.stash[_STARTED]
    workers = getattr(config.option, "numprocesses", None) or 0
    where = f"{workers} parallel workers" if workers else "one process"
    terminalreporter.write_line(f"the test suite took {seconds / 60:.1f} min ({seconds:.0f} s) on {where}, {os.cpu_count()} cores")


SERVERS_ON_POSTGRES = "servers on PostgreSQL"
"""The modules whose servers hold many PostgreSQL connections at once (gunicorn with several
workers, `infra/run`) form one unit of work: one worker runs them all, one after another, so a
parallel run never holds more of the server's `max_connections` than a run in one process.
A new module of that kind adds its path here."""

SERVER_MODULES = frozenset({
    "tests/races/test_concurrency_matrix.py", "tests/races/test_fault_suite.py", "tests/e2e/test_gunicorn_start.py",
    "tests/e2e/test_deployment.py", "tests/e2e/test_stream_server.py",
})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """With several workers (`-n`), each module is one unit of work, run whole by one worker,
    so a fixture it shares (a server, games played once) is made once; the server modules
    above are one unit together."""
    from xdist.scheduler import LoadScopeScheduling

    class ByModule(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return SERVERS_ON_POSTGRES if module in SERVER_MODULES else module

    return ByModule(config, log)
