"""PostgreSQL cut off under a real HTTP server: clients get 503 with Retry-After and a
problem document, quickly, never a 500 or a stack trace; a connection closed in the
middle of a query is a 503 too; when the database comes back the server answers again by
itself, and every move it acknowledged is stored.

The outage is a loopback proxy between the service and the shared PostgreSQL
(tests/tcp_proxy.py), cut and restored, or silent (it drops every packet and refuses
nothing): the database itself is never stopped. On SQLite, another connection holding the
write lock past the busy timeout."""

from __future__ import annotations

import json
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psycopg
import pytest

from benchmarks.fault_suite import Size, outage_failures, postgres_outage
from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.conftest import POSTGRES_URL
from tests.e2e.conftest import serving
from tests.tcp_proxy import CuttableProxy

UNLIMITED = RateLimits.every("1000000/minute")

CLIENT_TIMEOUT = 30
"""A bound on every request: a server that hangs on a dead database fails the test."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def body(self) -> Any:
        return json.loads(self.text or "null")


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Answer:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=CLIENT_TIMEOUT) as response:
            return Answer(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read().decode())
    except urllib.error.HTTPError as error:
        return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read().decode())


@pytest.fixture
def proxy() -> Iterator[CuttableProxy]:
    url = urlparse(POSTGRES_URL)
    proxy = CuttableProxy((url.hostname or "127.0.0.1", url.port or 5432))
    yield proxy
    proxy.close()


@pytest.fixture
def server(proxy: CuttableProxy, postgres_schema: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("CABOOSE_DB_CONNECT_TIMEOUT", "2")
    url = urlparse(POSTGRES_URL)
    through_proxy = url._replace(netloc=f"{url.username or 'postgres'}@127.0.0.1:{proxy.port}").geturl()
    app = Caboose(Settings(db=through_proxy, schema=postgres_schema, rate_limits=UNLIMITED))
    with serving(app) as client:
        yield client.base
    app.close()


def play_one(base: str, game: dict[str, Any]) -> Answer:
    """The first legal move of the first seat that has one."""
    for token in game["seat_tokens"].values():
        moves = call(base, "GET", f"/api/v1/games/{game['game_id']}/legal-moves", token=token)
        assert moves.status == 200, moves.text
        if moves.body["moves"]:
            return call(base, "POST", f"/api/v1/games/{game['game_id']}/moves", moves.body["moves"][0], token=token)
    raise AssertionError("no seat has a move")


def assert_unavailable(answer: Answer) -> None:
    assert answer.status == 503, (answer.status, answer.text)
    assert int(answer.headers["retry-after"]) > 0
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.body["status"] == 503 and answer.body["code"] in ("database_unavailable", "read_model_error")
    assert "Traceback" not in answer.text


def recovered(base: str, game_id: str) -> Answer:
    """Ask until the server answers again (it must recover by itself); bounded in tries."""
    for _ in range(60):
        answer = call(base, "GET", f"/api/v1/games/{game_id}")
        if answer.status == 200:
            return answer
        assert_unavailable(answer)
    raise AssertionError("the server did not recover after the database came back")


def stored(schema: str, game_id: str) -> dict[int, str]:
    """version -> hash of every stored record, read directly (not through the proxy)."""
    app = Caboose(Settings(db=POSTGRES_URL, schema=schema))
    try:
        return {r["version"]: r["hash"] for r in app.records(game_id)}
    finally:
        app.close()


@pytest.mark.postgres
def test_an_outage_is_503_then_the_server_recovers_and_lost_nothing(server: str, proxy: CuttableProxy,
                                                                    postgres_schema: str) -> None:
    created = call(server, "POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]})
    assert created.status == 201, created.text
    game = created.body
    acknowledged: dict[int, str] = {}
    for _ in range(4):
        answer = play_one(server, game)
        assert answer.status == 201, answer.text
        acknowledged.update({e["version"]: e["hash"] for e in answer.body["events"]})
    version = call(server, "GET", f"/api/v1/games/{game['game_id']}").body["version"]

    proxy.cut()
    base, token = f"/api/v1/games/{game['game_id']}", game["seat_tokens"]["0"]
    assert_unavailable(call(server, "GET", base))
    assert_unavailable(call(server, "GET", f"{base}/legal-moves", token=token))
    assert_unavailable(call(server, "POST", f"{base}/moves", {"seat": 0, "type": "draw_card", "source": "deck"}, token=token))
    assert_unavailable(call(server, "GET", f"{base}/events", token=game["referee_token"]))
    assert_unavailable(call(server, "POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Cy", "Di"]}))
    assert_unavailable(call(server, "GET", f"{base}/scores"))

    proxy.restore()
    assert recovered(server, game["game_id"]).body["version"] == version
    for _ in range(3):
        answer = play_one(server, game)
        assert answer.status == 201, answer.text
        acknowledged.update({e["version"]: e["hash"] for e in answer.body["events"]})
    assert call(server, "GET", f"{base}/scores").status == 200
    in_store = stored(postgres_schema, game["game_id"])
    assert {v: in_store.get(v) for v in acknowledged} == acknowledged
    assert sorted(in_store) == list(range(1, len(in_store) + 1))


@pytest.mark.postgres
def test_a_connection_closed_in_the_middle_of_a_query_is_503_not_500(server: str, proxy: CuttableProxy) -> None:
    created = call(server, "POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]})
    assert created.status == 201, created.text
    game_id = created.body["game_id"]
    answers: list[Answer] = []
    proxy.hold()
    asking = threading.Thread(target=lambda: answers.append(call(server, "GET", f"/api/v1/games/{game_id}/events")))
    asking.start()
    assert proxy.held.wait(CLIENT_TIMEOUT), "the query never reached the proxy"
    proxy.cut()
    asking.join(CLIENT_TIMEOUT + 5)
    assert answers, "no answer within the client's timeout"
    assert_unavailable(answers[0])
    proxy.restore()
    assert recovered(server, game_id).status == 200


def test_a_sqlite_store_locked_by_another_writer_is_503_then_serves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CABOOSE_SQLITE_BUSY_TIMEOUT", "1")
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/locked.sqlite", rate_limits=UNLIMITED))
    with serving(app) as client:
        created = call(client.base, "POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]})
        assert created.status == 201, created.text
        game = created.body
        version = call(client.base, "GET", f"/api/v1/games/{game['game_id']}").body["version"]
        other = sqlite3.connect(tmp_path / "locked.sqlite", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            assert_unavailable(play_one(client.base, game))
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert call(client.base, "GET", f"/api/v1/games/{game['game_id']}").body["version"] == version
        assert play_one(client.base, game).status == 201
    app.close()


@pytest.mark.postgres
def test_a_statement_held_past_the_statement_timeout_is_503(postgres_schema: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CABOOSE_DB_STATEMENT_TIMEOUT", "1")
    app = Caboose(Settings(db=POSTGRES_URL, schema=postgres_schema, rate_limits=UNLIMITED))
    with serving(app) as client:
        created = call(client.base, "POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]})
        assert created.status == 201, created.text
        events = f"/api/v1/games/{created.body['game_id']}/events"
        with psycopg.connect(POSTGRES_URL) as blocker:
            # Another session holds the events table: every read of it waits on the lock.
            blocker.execute(f"LOCK TABLE {postgres_schema}.caboose_events IN ACCESS EXCLUSIVE MODE")
            assert_unavailable(call(client.base, "GET", events, token=created.body["referee_token"]))
            blocker.rollback()
        assert call(client.base, "GET", events, token=created.body["referee_token"]).status == 200
    app.close()


SILENT_SHORT = Size(games=3, clients=3, seconds=16, outage=0, simulated=0, silent=8)
SILENT_LONG = Size(games=12, clients=4, seconds=60, outage=0, simulated=0, silent=45)


@pytest.mark.postgres
@pytest.mark.parametrize(("size", "settings"), [
    # Short bounds, so that an 8 s silence is twice the limit.
    (SILENT_SHORT, {"CABOOSE_DB_REQUEST_TIMEOUT": "2", "CABOOSE_DB_CONNECT_TIMEOUT": "2"}),
    # The outage, with the documented defaults.
    pytest.param(SILENT_LONG, {}, marks=pytest.mark.slow),
], ids=["8s", "45s"])
def test_a_silent_database_is_503_within_the_limit_for_every_request_and_health_check(
        size: Size, settings: dict[str, str], postgres_schema: str, tmp_path: Path) -> None:
    """PostgreSQL falls silent (the link drops every packet, refuses nothing) under load from
    client processes against gunicorn, with a load balancer's health check every quarter
    second: every request and every check is answered within the documented limit, with a
    503 problem document and Retry-After while it lasts; once the link is back, moves are
    stored again by themselves, and every acknowledged one is in the store."""
    # One gunicorn worker of 4 threads, as infra/run starts each API process; the clients are
    # threads of this process, quicker to start than processes.
    figures = postgres_outage(POSTGRES_URL, postgres_schema, size, tmp_path, silent=True, env=settings, workers=1, start="thread")
    assert outage_failures(figures) == [], figures
    assert figures["tracebacks_in_server_log"] == 0, figures
    assert figures["acknowledged_but_missing"] == figures["stored_without_2xx"] == figures["duplicate_versions"] == 0, figures
    assert figures["games_audit_ok"] == size.games, figures
