"""`GET …/stream` on each real store (SQLite, PostgreSQL), read over HTTP as a client would:
records stored by another process reach an open stream, a reconnect resumes exactly where
it stopped, and a seat's stream carries only what that seat may see."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from werkzeug.serving import make_server

from domain.core.leaks import differences
from service.api import create_app
from service.application import Caboose
from service.feed import Feed
from tests.conftest import POSTGRES_URL
from tests.support.http import Client, serve_on_thread
from tests.support.sse import Stream

ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT = 0.3

# Another process storing moves, as another worker or host of the deployment would.
MOVER = """
import sys
from service.application import Caboose
from service.settings import Settings
db, schema, game_id, count = sys.argv[1:5]
app = Caboose(Settings(db=db, schema=schema or None))
for _ in range(int(count)):
    seat = app.summary(game_id)["active_seats"][0]
    app.play(game_id, seat, app.legal_moves(game_id, seat)[0])
print(app.game(game_id).version)
"""


@contextmanager
def serving(app: Caboose) -> Iterator[tuple[Client, Feed]]:
    flask_app = create_app(app)
    feed = flask_app.extensions["caboose.feed"] = Feed(app, heartbeat=HEARTBEAT)
    server = make_server("127.0.0.1", 0, flask_app, threaded=True)
    serve_on_thread(server)
    try:
        yield Client(f"http://127.0.0.1:{server.server_port}"), feed
    finally:
        feed.stop()
        server.shutdown()


def feed_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "caboose-stream-feed"]


def new_game(client: Client) -> dict[str, Any]:
    created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["ann", "bob"]})
    assert created.status == 201, created.body
    return created.body


def moved_elsewhere(app: Caboose, game_id: str, count: int) -> int:
    """Store `count` moves from another process; the game's version after them."""
    done = subprocess.run([sys.executable, "-c", MOVER, app.settings.db, app.settings.schema or "", game_id, str(count)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.strip())


def play(client: Client, game: dict[str, Any], count: int) -> None:
    """`count` moves over the API, each the first legal move of a seat to act."""
    for _ in range(count):
        summary = client.get(f"/api/v1/games/{game['game_id']}").body
        seat = summary["active_seats"][0]
        token = game["seat_tokens"][str(seat)]
        moves = client.get(f"/api/v1/games/{game['game_id']}/legal-moves", token=token).body["moves"]
        assert client.post(f"/api/v1/games/{game['game_id']}/moves", moves[0], token=token).status == 201


def events(client: Client, game_id: str, token: str | None = None, after: int = 0) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/games/{game_id}/events?after={after}&limit=5000", token=token).body["events"]


def test_records_stored_by_another_process_reach_an_open_stream(app: Caboose) -> None:
    with serving(app) as (client, _):
        game = new_game(client)
        game_id, start = game["game_id"], game["version"]
        with Stream(f"{client.base}/api/v1/games/{game_id}/stream?after={start}") as stream:
            assert stream.status == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            version = moved_elsewhere(app, game_id, 3)
            assert version > start
            received = stream.records_until(version)
        assert received == events(client, game_id, after=start)
        assert [r["version"] for r in received] == list(range(start + 1, version + 1))


def test_a_reconnect_with_last_event_id_gets_exactly_the_missing_records(app: Caboose) -> None:
    with serving(app) as (client, _):
        game = new_game(client)
        game_id = game["game_id"]
        url = f"{client.base}/api/v1/games/{game_id}/stream"
        with Stream(url) as stream:
            first = stream.records_until(game["version"])
            seen = first[-1]["version"]
            assert stream.retry == 2000  # the client is told how soon to come back
        version = moved_elsewhere(app, game_id, 4)  # stored while the client was away
        with Stream(url, last_event_id=str(seen)) as resumed:
            missed = resumed.records_until(version)
            stored = events(client, game_id, after=seen)
            play(client, game, 1)  # and the stream goes on live after the catch-up
            newer = resumed.next_event().data
        assert [r["version"] for r in first] == list(range(1, seen + 1))
        assert [r["version"] for r in missed] == list(range(seen + 1, version + 1))
        assert missed == stored
        assert newer["version"] == version + 1
        with Stream(f"{url}?after={version - 1}") as by_query:
            assert [r["version"] for r in by_query.records_until(version + 1)] == [version, version + 1]
        # The header wins over the query: it is what a reconnecting EventSource sends.
        with Stream(f"{url}?after=0", last_event_id=str(version)) as both:
            assert both.next_event().data["version"] == version + 1


def test_a_seats_stream_never_carries_another_seats_secret(app: Caboose) -> None:
    with serving(app) as (client, _):
        game = new_game(client)
        game_id = game["game_id"]
        tokens = {"public": None, "seat 0": game["seat_tokens"]["0"], "seat 1": game["seat_tokens"]["1"],
                  "referee": game["referee_token"]}
        url = f"{client.base}/api/v1/games/{game_id}/stream"
        streams = {who: Stream(url, token=token) for who, token in tokens.items()}
        try:
            play(client, game, 12)
            version = client.get(f"/api/v1/games/{game_id}").body["version"]
            received = {who: s.records_until(version) for who, s in streams.items()}
            stored = {who: events(client, game_id, token) for who, token in tokens.items()}
        finally:
            for s in streams.values():
                s.close()
    # Each stream is exactly what GET …/events shows that token.
    for who in tokens:
        assert received[who] == stored[who], who
    # A seat's records differ from the public's only inside secrets addressed to that seat.
    for seat in (0, 1):
        for public, own in zip(received["public"], received[f"seat {seat}"], strict=True):
            for path in differences(public, own):
                assert path[0] == "secrets" and seat in own["secrets"][path[1]]["to"], (own["version"], path)
    # The game dealt secrets to both seats, so the check had something to find.
    opened = [s for r in received["referee"] for s in r["secrets"] if "value" in s]
    assert {tuple(s["to"]) for s in opened} >= {(0,), (1,)}
    hidden = [s for r in received["seat 0"] for s in r["secrets"] if 0 not in s["to"]]
    assert hidden and all("value" not in s for s in hidden)


def test_what_is_refused_is_refused_before_the_stream_starts(app: Caboose) -> None:
    with serving(app) as (client, _):
        game = new_game(client)
        game_id, version = game["game_id"], game["version"]
        url = f"{client.base}/api/v1/games/{game_id}/stream"
        refused = {
            "unknown game": Stream(f"{client.base}/api/v1/games/00000000-0000-0000-0000-000000000000/stream"),
            "not a game id": Stream(f"{client.base}/api/v1/games/nonsense/stream"),
            "token of no seat": Stream(url, token="not-a-token"),
            "Last-Event-ID not a version": Stream(url, last_event_id="seven"),
            "after not a version": Stream(f"{url}?after=-1"),
            "after the game's end": Stream(f"{url}?after={version + 5}"),
        }
        statuses = {why: (s.status, s.headers.get("content-type")) for why, s in refused.items()}
        assert statuses == {
            "unknown game": (404, "application/problem+json"), "not a game id": (404, "application/problem+json"),
            "token of no seat": (401, "application/problem+json"),
            "Last-Event-ID not a version": (400, "application/problem+json"),
            "after not a version": (400, "application/problem+json"),
            "after the game's end": (400, "application/problem+json"),
        }
        assert "Last-Event-ID" in json.dumps(refused["Last-Event-ID not a version"].problem["errors"])
        assert f"version {version + 5}" in refused["after the game's end"].problem["detail"]
        assert client.get(f"/api/v1/games/{game_id}").body["version"] == version  # nothing stored changed


def test_a_quiet_stream_is_kept_open_by_heartbeats_and_one_feed_serves_every_stream(app: Caboose) -> None:
    with serving(app) as (client, feed):
        game = new_game(client)
        url = f"{client.base}/api/v1/games/{game['game_id']}/stream?after={game['version']}"
        # Feeds of apps that earlier tests made in this process may still be watching: count
        # only the watcher threads these streams brought.
        before = set(feed_threads())
        streams = [Stream(url) for _ in range(12)]
        try:
            with pytest.raises(TimeoutError):
                streams[0].next_event(within=HEARTBEAT * 4)
            assert streams[0].heartbeats >= 2
            assert feed.streams == 12
            watchers = set(feed_threads()) - before
            assert len(watchers) == 1  # one thread for the process, not one per stream
            version = moved_elsewhere(app, game["game_id"], 1)
            assert {s.records_until(version)[-1]["version"] for s in streams} == {version}
        finally:
            for s in streams:
                s.close()


def test_a_process_holding_all_the_streams_it_may_says_so_and_takes_the_next_when_one_ends(app: Caboose) -> None:
    with serving(app) as (client, feed):
        feed.capacity = 2
        game = new_game(client)
        url = f"{client.base}/api/v1/games/{game['game_id']}/stream"
        first, second = Stream(url), Stream(url)
        try:
            refused = Stream(url)
            assert (first.status, second.status, refused.status) == (200, 200, 503)
            assert refused.problem["code"] == "streams_full" and refused.headers["retry-after"] == "2"
            first.close()
            # The server learns that the client left at its next write (a heartbeat at the latest).
            deadline = time.monotonic() + HEARTBEAT * 10
            while feed.streams > 1 and time.monotonic() < deadline:
                time.sleep(0.05)
            with Stream(url) as third:
                assert third.status == 200
                assert third.next_event().data["version"] == 1
        finally:
            first.close()
            second.close()


@pytest.mark.postgres
def test_a_record_stored_while_the_listen_connection_was_down_still_arrives(postgres_app: Caboose) -> None:
    app = postgres_app
    channel = f'LISTEN "caboose_records.{app.settings.schema}"'
    with serving(app) as (client, _):
        game = new_game(client)
        url = f"{client.base}/api/v1/games/{game['game_id']}/stream?after={game['version']}"
        with Stream(url) as stream, psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            listening = admin.execute("SELECT pid FROM pg_stat_activity WHERE query = %s", (channel,)).fetchall()
            assert len(listening) == 1  # one connection for the process, whatever the streams
            admin.execute("SELECT pg_terminate_backend(%s)", (listening[0][0],))
            # Stored at once, while the feed waits a second before listening again: its
            # NOTIFY reaches no one, and only the feed's re-read after reconnecting finds it.
            summary = app.summary(game["game_id"])
            seat = summary["active_seats"][0]
            version = app.play(game["game_id"], seat, app.legal_moves(game["game_id"], seat)[0])[-1]["version"]
            assert stream.records_until(version, within=10)[-1]["version"] == version
            again = admin.execute("SELECT pid FROM pg_stat_activity WHERE query = %s", (channel,)).fetchall()
            assert len(again) == 1 and again != listening
