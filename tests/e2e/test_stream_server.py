"""Streams through the deployed server: gunicorn from infra/gunicorn.conf.py with several
gthread workers, on SQLite and on PostgreSQL. Streams open on whichever workers accept
them, moves arrive through others, and every stream receives every record once, in order."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import POSTGRES_URL, fresh_schema
from tests.support.http import Client
from tests.support.live_server import LiveServer
from tests.support.sse import Stream

STREAMS = 8
SERVER_ENV = {"CABOOSE_STREAM_HEARTBEAT": "0.5"}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    # Threads enough for the streams (each holds one) and the requests beside them.
    if request.param == "sqlite":
        with LiveServer(f"sqlite:///{tmp_path}/live.sqlite", workers=3, threads=8, env=SERVER_ENV) as live:
            yield live
    else:
        with fresh_schema() as schema, LiveServer(POSTGRES_URL, schema=schema, workers=3, threads=8, env=SERVER_ENV) as live:
            yield live


def opened(url: str, token: str | None) -> Stream:
    """A stream, opened as a client does: a worker that holds all the streams it may says so
    (503, Retry-After), and the next attempt may reach another worker."""
    for _ in range(20):
        stream = Stream(url, token=token)
        if stream.status != 503:
            return stream
        assert stream.problem["code"] == "streams_full" and stream.headers["retry-after"] == "2"
        time.sleep(0.2)
    return stream


def play_one(client: Client, game: dict[str, Any]) -> None:
    game_id = game["game_id"]
    seat = client.get(f"/api/v1/games/{game_id}").body["active_seats"][0]
    token = game["seat_tokens"][str(seat)]
    move = client.get(f"/api/v1/games/{game_id}/legal-moves", token=token).body["moves"][0]
    answer = client.post(f"/api/v1/games/{game_id}/moves", move, token=token)
    assert answer.status == 201, answer.body


def test_every_stream_on_every_worker_receives_every_move(server: LiveServer) -> None:
    client = server.client()
    game = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["ann", "bob"]}).body
    game_id, start = game["game_id"], game["version"]
    url = f"{server.base}/api/v1/games/{game_id}/stream?after={start}"
    streams = [opened(url, game["seat_tokens"]["0"] if i % 2 else None) for i in range(STREAMS)]
    try:
        assert {s.status for s in streams} == {200}
        for _ in range(6):
            play_one(client, game)
        version = client.get(f"/api/v1/games/{game_id}").body["version"]
        received = [s.records_until(version) for s in streams]
        expected = {token: client.get(f"/api/v1/games/{game_id}/events?after={start}", token=token).body["events"]
                    for token in (None, game["seat_tokens"]["0"])}
    finally:
        for s in streams:
            s.close()
    for i, records in enumerate(received):
        assert records == expected[game["seat_tokens"]["0"] if i % 2 else None], i
        assert [r["version"] for r in records] == list(range(start + 1, version + 1))
    assert "Traceback" not in server.log()


def test_a_stopping_worker_ends_its_streams_at_once_and_they_resume_elsewhere(tmp_path: Path) -> None:
    # The default heartbeat (15 s): the streams end because the worker stops, not because a
    # heartbeat found the client gone.
    with LiveServer(f"sqlite:///{tmp_path}/stop.sqlite", workers=2, threads=8) as server:
        client = server.client()
        game = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["ann", "bob"]}).body
        url = f"{server.base}/api/v1/games/{game['game_id']}/stream"
        stream = opened(url, None)
        last = stream.records_until(game["version"])[-1]["version"]
        started = time.monotonic()
        server.stop()  # SIGTERM: gunicorn's graceful stop, which waits up to 30 s for open requests
        stopped = time.monotonic() - started
        with pytest.raises(ConnectionError):
            stream.next_event(within=5)
        stream.close()
        assert stopped < 10, f"the graceful stop took {stopped:.1f} s"
        server.start()  # the same store served again: the client comes back after what it had
        play_one(client, game)
        with Stream(url, last_event_id=str(last)) as resumed:
            assert resumed.next_event().data["version"] == last + 1
