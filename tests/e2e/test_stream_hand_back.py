"""A live stream opened with a seat's token, after the seat is handed to a bot and back with a
fresh token, over real HTTP servers on each store (SQLite, PostgreSQL), read with a real SSE
client: the old stream must carry none of the new holder's secret draws, and end (issue 35,
point 2). The hand-back is made on this server, and on another server of the same store
while the stream stays open here, as another worker or host would."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from service.api import create_app
from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.conftest import POSTGRES_URL, fresh_schema
from tests.e2e.conftest import Client, serving
from tests.support.attacks import stream_attack

LIMITS = RateLimits.every("1000000/minute")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    if request.param == "sqlite":
        yield Settings(db=f"sqlite:///{tmp_path}/streams.sqlite", rate_limits=LIMITS)
    else:
        with fresh_schema() as schema:
            yield Settings(db=POSTGRES_URL, schema=schema, rate_limits=LIMITS)


@pytest.fixture
def servers(settings: Settings) -> Iterator[tuple[Client, Client]]:
    """Two servers over one store, each with its own application (as two processes)."""
    with ExitStack() as stack:
        clients = []
        for _ in range(2):
            store = Caboose(settings)
            stack.callback(store.close)
            app = create_app(store)
            stack.callback(lambda app=app: app.extensions["caboose.feed"].stop() if "caboose.feed" in app.extensions else None)
            clients.append(stack.enter_context(serving(store, app)))
        yield clients[0], clients[1]


def test_a_seats_stream_ends_when_the_seat_is_handed_back(servers: tuple[Client, Client]) -> None:
    found = stream_attack(servers[0], random.Random(2))
    assert found.leaks == [], found.to_json()
    assert found.notes["old_stream_ended"] and found.notes["frames_after_hand_back"] == 0, found.to_json()


def test_a_hand_back_on_another_server_ends_the_stream_on_this_one(servers: tuple[Client, Client]) -> None:
    found = stream_attack(servers[0], random.Random(3), elsewhere=servers[1])
    assert found.leaks == [], found.to_json()
    assert found.notes["old_stream_ended"], found.to_json()
