"""Shared fixtures: the `race` fake ruleset and the `pebbles` toy game, stores on SQLite and
PostgreSQL."""

from __future__ import annotations

import os
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
from tests.fakes import pebbles_projector  # noqa: F401  (registers its projector, as projections/__init__.py does)
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
