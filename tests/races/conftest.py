"""A real gunicorn (several workers and threads) per store, shared by a module's tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from service.application import Caboose
from service.settings import Settings
from tests.conftest import POSTGRES_URL
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = Path(tmp_path_factory.mktemp("live"))
    with LiveServer(f"sqlite:///{folder}/live.sqlite", log_path=folder / "gunicorn.log") as server:
        yield server


@pytest.fixture(scope="module")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """On a fresh schema; fails (never skips) when PostgreSQL cannot be reached."""
    schema = f"caboose_live_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        folder = Path(tmp_path_factory.mktemp("live"))
        with LiveServer(POSTGRES_URL, schema=schema, log_path=folder / "gunicorn.log") as server:
            yield server
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def server(request: pytest.FixtureRequest) -> LiveServer:
    return request.getfixturevalue(f"{request.param}_server")


@pytest.fixture
def stored(server: LiveServer) -> Iterator[Caboose]:
    """The server's store, opened by the test to read back what was stored."""
    app = Caboose(Settings(db=server.db, schema=server.schema))
    yield app
    app.close()
