"""The multi-process deployment, started by its one command (`infra/run`: two API processes
behind the entry proxy, the projection runner, the notifier and the bot runner, on PostgreSQL
and Redis), under a short load from client processes playing through the entry: every 2xx is
in the store as that request's own, no 5xx, every game audits, the read models catch up, and a
live stream opened through the entry receives every record of its game. The short form of
`benchmarks/load_deploy.py`. Fails, never skips, when PostgreSQL is unreachable."""

from __future__ import annotations

import contextlib
import http.client
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from benchmarks.fault_suite import Size, ledger_figures, load, read_load
from tests.conftest import POSTGRES_URL
from tests.support.deployment import ROOT, Deployment, projection_lag
from tests.support.http import Client
from tests.support.volley import Game, new_game, summary

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
SHORT = Size(games=4, clients=3, seconds=6, outage=0, simulated=0)


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


def test_two_api_processes_under_load_keep_every_promise(empty_schema: str, tmp_path: Path) -> None:
    deployment = Deployment(POSTGRES_URL, empty_schema, api_processes=2, log_path=tmp_path / "deployment.log")
    with deployment:
        log = deployment.log()
        assert log.count("started (pid=") == 6, f"honcho did not start api.1, api.2, entry, projections, notify and bots:\n{log}"
        client = deployment.client()
        games = [new_game(client) for _ in range(SHORT.games)]
        # A live stream of one game, open through the entry for the whole load.
        watched = Watcher(deployment.port, games[0])
        # Forked, not spawned: this process holds no socket the clients could keep open, and a
        # spawned client would take seconds to import what this one already has.
        with load(deployment.base, games, SHORT, tmp_path, start="fork"):
            pass
        lag = projection_lag(POSTGRES_URL, empty_schema, limit=30)
        final = summary(client, games[0])["version"]
        streamed = watched.until(final)
        log = deployment.log()
    # Stopped as Ctrl-C stops it: nothing answers at the entry or the API processes any more.
    for base in [deployment.base, *deployment.backends]:
        with pytest.raises(OSError):
            Client(base, timeout=2).get("/api/v1/health")

    sent, answers = read_load(tmp_path)
    figures = ledger_figures(POSTGRES_URL, empty_schema, sent, games)
    assert figures["moves_stored"] > 0, f"the load stored nothing: {figures}"
    assert figures["problems"] == [], figures
    assert figures["acknowledged_but_missing"] == 0 and figures["stored_without_2xx"] == 0
    assert figures["games_audit_ok"] == SHORT.games
    server_errors = [a for a in answers if a["status"] >= 500 or a["status"] == 0]
    assert server_errors == [], f"{len(server_errors)} answers were 5xx or none at all: {server_errors[:5]}"
    assert lag["caught_up"], f"the projection runner did not follow the log within 30 s: {lag}"
    assert lag["games_indexed_at_their_version"] == lag["games"] == SHORT.games, lag
    assert "Traceback" not in log, log[-4000:]
    assert final > watched.after, "the watched game was not played"
    assert streamed == list(range(watched.after + 1, final + 1)), f"the stream through the entry got versions {streamed}"


class Watcher:
    """A Server-Sent Events stream of `game` read through the entry on a thread of its own:
    the versions of the records it received."""

    def __init__(self, port: int, game: Game) -> None:
        self.after = summary(Client(f"http://127.0.0.1:{port}"), game)["version"]
        self.versions: list[int] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", f"{game.path}/stream?after={self.after}",
                                headers={"Authorization": f"Bearer {game.referee_token}"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while line := self.response.readline():
                if line.startswith(b"id:"):
                    self.versions.append(int(line.split(b":", 1)[1]))

    def until(self, version: int, limit: float = 15.0) -> list[int]:
        """The versions received once `version` has arrived (or `limit` seconds passed)."""
        deadline = time.monotonic() + limit
        while (not self.versions or self.versions[-1] < version) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.connection.close()
        return list(self.versions)


@pytest.mark.parametrize(("settings", "says"), [
    ({"CABOOSE_DB": "sqlite:///x.sqlite"}, "CABOOSE_DB must name the PostgreSQL"),
    ({"CABOOSE_REDIS": "memory://"}, "CABOOSE_REDIS must name the Redis"),
    ({"CABOOSE_REDIS": "redis://127.0.0.1:1/0"}, "CABOOSE_REDIS=redis://127.0.0.1:1/0 does not answer"),
    ({"CABOOSE_API_PROCESSES": "0"}, "CABOOSE_API_PROCESSES='0' must be a whole number from 1 to 64"),
    ({"CABOOSE_API_PROCESSES": "two"}, "CABOOSE_API_PROCESSES='two' must be a whole number"),
    ({"CABOOSE_PORT": "8100", "CABOOSE_API_PORT": "8099"}, "the entry's port 8100 is among the API processes' ports"),
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
