"""`--jobs N`: the rebuild, the archive audit and the simulator over worker processes, run
as a user runs them (the installed `caboose`, real SQLite files and a real PostgreSQL). A
game whose stored record was damaged is named, and every other game is still done."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from projections.store import ReadStore, read_db_url
from service.application import Caboose
from service.bootstrap import bootstrap
from service.settings import Settings
from service.simulation import game_seed, play_one
from tests.conftest import POSTGRES_URL

CABOOSE = str(Path(sys.executable).with_name("caboose"))


def caboose(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CABOOSE, *args], env={**os.environ, **env}, capture_output=True, text=True, timeout=600)


class Store:
    """An event store the CLI reaches through its environment, and how to damage one event."""

    def __init__(self, db: str, schema: str | None = None) -> None:
        self.db, self.schema = db, schema
        self.env = {"CABOOSE_DB": db, **({"CABOOSE_DB_SCHEMA": schema} if schema else {})}
        self.app = Caboose(Settings(db=db, schema=schema))

    def damage(self, game_id: str) -> int:
        """Rewrite one stored event's data behind the service's back (a market card's slot is
        no number); returns its version."""
        version = next(r["version"] for r in self.app.records(game_id) if r["kind"] == "MarketCardTurnedUp")
        key = game_id.replace("-", "")
        if self.schema is None:
            path = self.db.removeprefix("sqlite:///")
            with sqlite3.connect(path) as conn:
                state = conn.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                                     (key, version)).fetchone()[0]
                conn.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                             (_damaged(state), key, version))
            return version
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            table = f"{self.schema}.caboose_events"
            row = conn.execute(f"SELECT state FROM {table} WHERE originator_id = %s AND originator_version = %s",
                               (game_id, version)).fetchone()
            assert row is not None
            conn.execute(f"UPDATE {table} SET state = %s WHERE originator_id = %s AND originator_version = %s",
                         (_damaged(bytes(row[0])), game_id, version))
        return version


def _damaged(state: bytes) -> bytes:
    assert b'"kind":"MarketCardTurnedUp","data":{"slot":' in state, state[:300]
    return state.replace(b'"data":{"slot":', b'"data":{"slot":"nowhere","was":', 1)


def games_in(store: Store, count: int) -> list[str]:
    """Part-played Ticket to Ride games of two to four seats."""
    return [play_one(store.app, "ticket_to_ride", 2 + index % 3, game_seed(90, index), random.Random(index), check=False,
                     stop_after=25 + 5 * index).game_id for index in range(count)]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        made = Store(f"sqlite:///{tmp_path}/events.sqlite")
    else:
        made = Store(POSTGRES_URL, request.getfixturevalue("postgres_schema"))
    yield made
    made.app.close()


def read_models(store: Store) -> ReadStore:
    return ReadStore(read_db_url(store.db, store.schema), prepare=False)


def test_rebuild_over_two_workers_equals_one_process_and_names_a_damaged_game(store: Store) -> None:
    ids = games_in(store, 5)
    one = caboose(store.env, "projections", "rebuild")
    assert one.returncode == 0, one.stderr
    models = read_models(store)
    expected = {game_id: models.rows_of(game_id) for game_id in ids}
    spread = caboose(store.env, "projections", "rebuild", "--jobs", "2")
    assert spread.returncode == 0, spread.stderr
    assert "2 workers" in spread.stdout and "rebuilt from" in spread.stdout
    assert {game_id: models.rows_of(game_id) for game_id in ids} == expected
    status = json.loads(caboose(store.env, "projections", "status", "--json").stdout)
    assert status["behind"] == 0

    version = store.damage(ids[2])
    damaged = caboose(store.env, "projections", "rebuild", "--jobs", "2")
    assert damaged.returncode == 1
    assert f"game {ids[2]} failed: version {version}:" in damaged.stderr, damaged.stderr
    assert "1 game(s) left out" in damaged.stderr
    for game_id in ids[:2] + ids[3:]:
        assert models.rows_of(game_id) == expected[game_id]
    assert models.position(ids[2]).row is None
    models.close()


def test_archive_audit_over_workers_names_the_damaged_game_and_audits_the_rest(store: Store) -> None:
    ids = games_in(store, 4)
    for jobs in ("1", "2"):
        done = caboose(store.env, "audit", "--all", "--jobs", jobs, "--json")
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert sorted(line["game_id"] for line in lines) == sorted(ids)
        assert all(line["ok"] for line in lines)
        assert "audited 4 of 4 games" in done.stderr and f"{jobs} workers" in done.stderr
        assert "[4/4] worker" in done.stderr
    store.damage(ids[1])
    damaged = caboose(store.env, "audit", "--all", "--jobs", "2")
    assert damaged.returncode == 1
    verdicts = dict(line.split(" ", 1) for line in damaged.stdout.splitlines())
    # The damaged event cannot be folded at all: the game is named as one that could not be
    # audited, with the reason, and every other game is audited.
    assert set(verdicts) == set(ids) - {ids[1]}
    assert all(verdict.startswith("OK") for verdict in verdicts.values())
    assert f"game {ids[1]} could not be audited: " in damaged.stderr, damaged.stderr
    assert "3 OK, 0 FAILED, 1 could not be audited" in damaged.stderr


def test_the_audit_asks_for_one_game_or_a_set() -> None:
    env = {"CABOOSE_DB": "memory"}
    assert "name one GAME_ID, or --all, or --tournament" in caboose(env, "audit").stderr
    assert "name one GAME_ID, or --all, or --tournament" in caboose(env, "audit", "x", "--all").stderr
    assert "--jobs is for --all or --tournament" in caboose(env, "audit", "x", "--jobs", "2").stderr


def test_a_tournament_audited_over_workers(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/events.sqlite"
    made = caboose({"CABOOSE_SIMULATE_DB": db}, "tournament", "simulate", "ticket_to_ride", "--players", "4",
                   "--format", "heats", "--heats", "1", "--table-size", "2", "--json")
    assert made.returncode == 0, made.stderr
    tournament = json.loads(made.stdout)["tournament_id"]
    services = bootstrap(Settings(db=db))
    tables = {table.game_id for table in services.organiser.shelf.get(tournament).state.tables}
    audited = caboose({"CABOOSE_DB": db}, "audit", "--tournament", tournament, "--jobs", "2", "--json")
    assert audited.returncode == 0, audited.stderr
    lines = [json.loads(line) for line in audited.stdout.splitlines()]
    assert {line["game_id"] for line in lines} == tables and len(lines) == len(tables) >= 2
    assert all(line["ok"] for line in lines)
    services.caboose.close()


def _games(output: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in json.loads(line).items() if k != "game_id"} for line in output.splitlines()]


def test_simulate_over_workers_plays_the_same_games_as_one(store: Store) -> None:
    env = {**store.env, "CABOOSE_SIMULATE_DB": store.db}
    one = caboose(env, "simulate", "ticket_to_ride", "--games", "3", "--seed", "3", "--no-check", "--jobs", "1")
    two = caboose(env, "simulate", "ticket_to_ride", "--games", "3", "--seed", "3", "--no-check", "--jobs", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert _games(one.stdout) == _games(two.stdout)
    assert [line["game"] for line in _games(two.stdout)] == [0, 1, 2]
    assert "played 3 of 3 games" in two.stderr and "2 workers" in two.stderr and "[3/3] worker" in two.stderr
    stored = set(store.app.game_ids())
    assert {json.loads(line)["game_id"] for line in one.stdout.splitlines() + two.stdout.splitlines()} <= stored


def test_simulate_names_each_game_that_fails() -> None:
    refused = caboose({}, "simulate", "ticket_to_ride", "--games", "3", "--option", "no_such_option=1", "--jobs", "2")
    assert refused.returncode == 1
    lines = [json.loads(line) for line in refused.stdout.splitlines()]
    assert [line["game"] for line in lines] == [0, 1, 2] and all("no_such_option" in line["failed"] for line in lines)
    assert all(f"game {index} failed" in refused.stderr for index in range(3))
