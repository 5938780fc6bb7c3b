"""The multi-process deployment, started by its one command (`infra/run`: supervisord running
HAProxy in front of two API processes, the projection runner, the notifier and the bot runner,
on PostgreSQL and Redis), under a short load from client processes playing through HAProxy,
with each API process killed -9 in turn and started again by the supervisor: every 2xx is
in the store as that request's own, no 5xx but HAProxy's own problem documents for requests
caught by a kill, every game audits, the read models catch up, HAProxy takes each killed
process out and back in, and a live stream opened through HAProxy receives every record of
its game, reconnecting with Last-Event-ID when its API process dies. Then each kind of
process killed -9 in turn comes back while the service answers. The short form of
`benchmarks/load_deploy.py`. Fails, never skips, when PostgreSQL is unreachable."""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from benchmarks.fault_suite import Size, ledger_figures, load, read_load
from tests.conftest import POSTGRES_URL
from tests.support.deployment import ROOT, Deployment, projection_lag
from tests.support.http import Client
from tests.support.volley import Game, new_game, summary

_spec = importlib.util.spec_from_file_location("verify_log", ROOT / "docs" / "verify_log.py")
assert _spec is not None and _spec.loader is not None
VERIFY_LOG = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(VERIFY_LOG)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
SHORT = Size(games=4, clients=3, seconds=8, outage=0, simulated=0)
PROGRAMS = ("haproxy", "api-1", "api-2", "projections", "notify", "bots", "log")


@pytest.fixture
def empty_schema() -> Iterator[str]:
    """A new, empty schema: the deployment's one command makes its tables."""
    schema = f"caboose_deploy_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_two_api_processes_under_load_each_killed_in_turn_keep_every_promise(empty_schema: str, tmp_path: Path) -> None:
    deployment = Deployment(POSTGRES_URL, empty_schema, api_processes=2, log_path=tmp_path / "deployment.log")
    with deployment:
        log = deployment.log()
        running = [p for p in PROGRAMS if f"success: {p} entered RUNNING state" in log]
        assert running == list(PROGRAMS), f"supervisord did not start every process:\n{log}"
        client = deployment.client()
        games = [new_game(client) for _ in range(SHORT.games)]
        # A live stream of one game, open through HAProxy for the whole load.
        watched = Watcher(deployment.port, games[0])
        # Forked, not spawned: this process holds no socket the clients could keep open, and a
        # spawned client would take seconds to import what this one already has.
        with load(deployment.base, games, SHORT, tmp_path, start="fork"):
            time.sleep(SHORT.seconds / 3)
            # Each in turn, once HAProxy has the other back: whichever holds the stream dies.
            for program in ("api-1", "api-2"):
                deployment.back(program, deployment.kill(program))
                deployment.until_status(program, "UP")
        lag = projection_lag(POSTGRES_URL, empty_schema, limit=30)
        final = summary(client, games[0])["version"]
        streamed = watched.until(final)
        logged = log_catches_up(client, empty_schema, games[0].game_id, final)
        log = deployment.log()
    # Stopped as Ctrl-C stops it: nothing answers at HAProxy or the API processes any more.
    for base in [deployment.base, *deployment.backends]:
        with pytest.raises(OSError):
            Client(base, timeout=2).get("/api/v1/health")

    sent, answers = read_load(tmp_path)
    figures = ledger_figures(POSTGRES_URL, empty_schema, sent, games)
    assert figures["moves_stored"] > 0, f"the load stored nothing: {figures}"
    assert figures["acknowledged_but_missing"] == 0 and figures["stored_without_2xx"] == 0, figures
    assert figures["acknowledged_to_several"] == 0 and figures["duplicate_versions"] == 0, figures
    assert figures["games_audit_ok"] == SHORT.games
    # A request in the killed process's hands gets HAProxy's 502 (a move is then sent again
    # with its key); none is answered otherwise than by a problem document.
    server_errors = [a for a in answers if a["status"] >= 500 or a["status"] == 0]
    assert all(a["status"] in (502, 503) and a["well_formed"] for a in server_errors), server_errors[:5]
    assert lag["caught_up"], f"the projection runner did not follow the log within 30 s: {lag}"
    assert lag["games_indexed_at_their_version"] == lag["games"] == SHORT.games, lag
    assert "Traceback" not in log, log[-4000:]
    assert final > watched.after, "the watched game was not played"
    assert watched.reconnections >= 1, "the stream was never cut: was an API process killed?"
    assert streamed == list(range(watched.after + 1, final + 1)), f"the stream through HAProxy got versions {streamed}"
    assert logged["checkpoint_size"] == logged["stored_events"], f"the log's checkpoints did not reach every event: {logged}"


def log_catches_up(client: Client, schema: str, game_id: str, version: int, limit: float = 30.0) -> dict[str, int]:
    """Wait for the log's sequencer (its own supervised process) to sign a checkpoint of every
    stored event; then the last event of a game is proved in it, checked as a referee would."""
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        stored = conn.execute(f"SELECT count(*) FROM {schema}.caboose_events").fetchone()[0]  # type: ignore[index]
    key = client.get("/api/v1/log/key").body.strip()
    deadline, size = time.monotonic() + limit, -1
    while time.monotonic() < deadline:
        reply = client.get("/api/v1/log/checkpoint/latest")
        if reply.status == 200:
            _, size, root = VERIFY_LOG.parse_checkpoint(VERIFY_LOG.open_note(reply.body, key))
            if size >= stored:
                break
        time.sleep(0.2)
    proof = client.get(f"/api/v1/log/proof/inclusion?game={game_id}&version={version}&size={size}").body
    event = client.get(f"/api/v1/games/{game_id}/events?after={version - 1}&limit=1").body["events"][0]
    VERIFY_LOG.verify_inclusion(proof["leaf_index"], size, VERIFY_LOG.leaf_hash(bytes.fromhex(event["hash"])),
                                [VERIFY_LOG.base64.b64decode(h) for h in proof["hashes"]], root)
    return {"stored_events": stored, "checkpoint_size": size}


def test_each_kind_of_process_killed_comes_back_while_the_service_answers(empty_schema: str, tmp_path: Path) -> None:
    """An API process stopped and started again is taken out of HAProxy's rotation and back
    in without a request lost. Then kill -9 of HAProxy, an API process (master and workers), the projection runner, the
    notifier and the bot runner, one after another: supervisord starts each again, and the
    service answers throughout — but for HAProxy's own restart, when nothing listens for a
    moment — and its read models follow the moves made after the runner came back."""
    deployment = Deployment(POSTGRES_URL, empty_schema, api_processes=2, log_path=tmp_path / "deployment.log")
    with deployment:
        client = deployment.client()
        game = new_game(client)
        # Taken out (stopped: HAProxy's checks find it down) and back in, no request lost.
        with Reader(deployment.base, game) as reader:
            deployment.supervise("stop", "api-1")
            deployment.until_status("api-1", "DOWN")
            deployment.supervise("start", "api-1")
            deployment.until_status("api-1", "UP")
        assert set(reader.statuses) == {200}, reader.statuses
        for program in ("api-1", "projections", "notify", "bots", "haproxy"):
            with Reader(deployment.base, game) as reader:
                killed = deployment.kill(program)
                back = deployment.back(program, killed)
                assert deployment.wait_until_serving() >= 0
            answered = reader.statuses
            assert back != killed
            if program != "haproxy":
                # The others' crash costs no answer (HAProxy passes over a dead API process).
                assert set(answered) <= {200, 502}, (program, answered)
            assert answered.count(200) > 0 and answered[-1] == 200, (program, answered)
        version = summary(client, game)["version"]
        for _ in range(3):
            play_first_legal(client, game)
        lag = projection_lag(POSTGRES_URL, empty_schema, limit=30)
        assert summary(client, game)["version"] > version
        log = deployment.log()
    assert lag["caught_up"] and lag["games_indexed_at_their_version"] == 1, lag
    assert "Traceback" not in log, log[-4000:]


def play_first_legal(client: Client, game: Game) -> None:
    """The first legal move of the first seat to move, stored (201)."""
    state = summary(client, game)
    seat = state["active_seats"][0]
    moves = client.get(f"{game.path}/legal-moves", token=game.seat_tokens[seat]).body["moves"]
    move = {k: v for k, v in moves[0].items() if k != "seat"}
    reply = client.post(f"{game.path}/moves", {"seat": seat, **move}, token=game.seat_tokens[seat])
    assert reply.status == 201, reply.body


class Reader:
    """A client reading a game's summary through HAProxy every 50 ms on a thread of its own,
    while the block runs: the statuses it got (0: no answer)."""

    def __init__(self, base: str, game: Game) -> None:
        self.client, self.game = Client(base, timeout=30), game
        self.statuses: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        while not self._stop.wait(0.05):
            try:
                self.statuses.append(self.client.get(self.game.path, token=self.game.referee_token).status)
            except (OSError, http.client.HTTPException):
                self.statuses.append(0)

    def __enter__(self) -> Reader:
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        # A few more answers once the process is back, then stop.
        time.sleep(0.5)
        self._stop.set()
        self._thread.join(timeout=60)


class Watcher:
    """A Server-Sent Events stream of `game` read through HAProxy on a thread of its own: the
    versions of the records it received. When the stream is cut (its API process died), it
    reconnects with the last id it got as `Last-Event-ID`, as a browser's EventSource does."""

    def __init__(self, port: int, game: Game) -> None:
        self.port, self.game = port, game
        self.after = summary(Client(f"http://127.0.0.1:{port}"), game)["version"]
        self.versions: list[int] = []
        self.reconnections = 0
        self._stop = threading.Event()
        self.connection: http.client.HTTPConnection | None = None
        first = self._open()
        assert first.status == 200, first.read()
        self.thread = threading.Thread(target=self._read, args=(first,), daemon=True)
        self.thread.start()

    def _open(self) -> http.client.HTTPResponse:
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        last = self.versions[-1] if self.versions else self.after
        self.connection.request("GET", f"{self.game.path}/stream",
                                headers={"Authorization": f"Bearer {self.game.referee_token}", "Last-Event-ID": str(last)})
        return self.connection.getresponse()

    def _read(self, response: http.client.HTTPResponse) -> None:
        while not self._stop.is_set():
            # AttributeError: the connection closed by `until` under the read.
            with contextlib.suppress(OSError, ValueError, AttributeError, http.client.HTTPException):
                while line := response.readline():
                    if line.startswith(b"id:"):
                        self.versions.append(int(line.split(b":", 1)[1]))
            if self._stop.is_set():
                return
            self.reconnections += 1
            time.sleep(0.5)
            with contextlib.suppress(OSError, http.client.HTTPException):
                response = self._open()

    def until(self, version: int, limit: float = 30.0) -> list[int]:
        """The versions received once `version` has arrived (or `limit` seconds passed)."""
        deadline = time.monotonic() + limit
        while (not self.versions or self.versions[-1] < version) and time.monotonic() < deadline:
            time.sleep(0.05)
        self._stop.set()
        if self.connection is not None:
            self.connection.close()
        return list(self.versions)


@pytest.mark.parametrize(("settings", "says"), [
    ({"CABOOSE_DB": "sqlite:///x.sqlite"}, "CABOOSE_DB must name the PostgreSQL"),
    ({"CABOOSE_REDIS": "memory://"}, "CABOOSE_REDIS must name the Redis"),
    ({"CABOOSE_REDIS": "redis://127.0.0.1:1/0"}, "CABOOSE_REDIS=redis://127.0.0.1:1/0 does not answer"),
    ({"CABOOSE_API_PROCESSES": "0"}, "CABOOSE_API_PROCESSES='0' must be a whole number from 1 to 64"),
    ({"CABOOSE_API_PROCESSES": "two"}, "CABOOSE_API_PROCESSES='two' must be a whole number"),
    ({"CABOOSE_PORT": "8100", "CABOOSE_API_PORT": "8099"}, "HAProxy's port 8100 is among the API processes' ports"),
    ({"CABOOSE_HAPROXY": "/nonexistent/haproxy"}, "HAProxy is not installed"),
])
def test_bad_settings_are_refused_before_anything_starts(settings: dict[str, str], says: str, tmp_path: Path) -> None:
    schema = f"caboose_deploy_never_{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "CABOOSE_DB": POSTGRES_URL, "CABOOSE_DB_SCHEMA": schema, "CABOOSE_REDIS": "redis://127.0.0.1:6379/0",
           "CABOOSE_API_PROCESSES": "2", **settings}
    started = time.monotonic()
    done = subprocess.run([sys.executable, str(ROOT / "infra" / "run")], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    assert says in done.stderr, done.stderr
    assert "started" not in done.stdout and time.monotonic() - started < 30
    # Nothing was made: the schema the settings named does not exist.
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        assert conn.execute("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (schema,)).fetchone() is None
