"""gunicorn with four workers on an empty PostgreSQL schema starts and serves, every time:
the master makes the tables once (`on_starting`) before the workers fork, so workers no
longer race to create them (which failed two starts in five with `UniqueViolation`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import POSTGRES_URL
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
STARTS = 5


def call(base: str, method: str, path: str, body: Any = None, timeout: float = 20) -> tuple[int, Any]:
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@contextmanager
def gunicorn(env: dict[str, str], workers: int = 4) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """gunicorn as deployed (infra/gunicorn.conf.py) on a loopback port; yields once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [GUNICORN, "-c", "infra/gunicorn.conf.py", "service.wsgi:app"], cwd=ROOT,
        env={**os.environ, **env, "CABOOSE_BIND": f"127.0.0.1:{port}", "CABOOSE_WORKERS": str(workers),
             "CABOOSE_THREADS": "2"},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise AssertionError(f"gunicorn exited ({process.returncode}): {process.stderr.read().decode()[-3000:]}")  # type: ignore[union-attr]
            try:
                if call(base, "GET", "/api/v1/openapi.json", timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("gunicorn did not answer within two minutes")
            time.sleep(0.2)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.postgres
def test_four_workers_start_on_an_empty_postgres_schema_every_time() -> None:
    for start in range(STARTS):
        schema = f"caboose_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        try:
            env = {"CABOOSE_DB": POSTGRES_URL, "CABOOSE_DB_SCHEMA": schema, "CABOOSE_RATE_LIMIT": "100000/60"}
            with gunicorn(env) as (base, process):
                status, created = call(base, "POST", "/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]})
                assert status == 201, (start, created)
                # New connections are spread over the workers: every one must serve.
                statuses = [call(base, "GET", f"/api/v1/games/{created['game_id']}")[0] for _ in range(24)]
                assert statuses == [200] * 24, (start, statuses)
                assert process.poll() is None
            errors = process.stderr.read().decode()  # type: ignore[union-attr]
            assert "Traceback" not in errors and "UniqueViolation" not in errors, errors[-3000:]
        finally:
            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
