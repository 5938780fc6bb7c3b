"""A fork of a running game, finished by bots, read by an attacker over a real HTTP server on
each store (SQLite, PostgreSQL): as the public, with a seat's token of the original and with
a seat's token of the fork, through every endpoint, stream, page and export that hands out
records or state, and from the shell. No hidden card of the running original may be
readable, and its next draw may not be predicted from the fork (issue 35, point 1)."""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from service.api import create_app
from service.application import Caboose
from service.bots import BotRunner
from service.settings import RateLimits, Settings
from tests.conftest import POSTGRES_URL, fresh_schema
from tests.e2e.conftest import Client, serving
from tests.forgery import reseal
from tests.support.attacks import events_of, fork_attack, hidden, retried, waited

LIMITS = RateLimits.every("1000000/minute")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Caboose]:
    # Snapshots every 10 events: a fork is read back from snapshots as well as from events.
    if request.param == "sqlite":
        app = Caboose(Settings(db=f"sqlite:///{tmp_path}/forks.sqlite", rate_limits=LIMITS, snapshot_interval=10))
        yield app
        app.close()
    else:
        with fresh_schema() as schema:
            app = Caboose(Settings(db=POSTGRES_URL, schema=schema, rate_limits=LIMITS, snapshot_interval=10))
            yield app
            app.close()


@pytest.fixture
def client(store: Caboose) -> Iterator[Client]:
    app = create_app(store)
    stop, runner = threading.Event(), BotRunner(store)

    def bots() -> None:  # the bots that finish the fork, until the test is over
        while not stop.wait(0.05):
            runner.run_once()

    thread = threading.Thread(target=bots, daemon=True)
    thread.start()
    try:
        with serving(store, app) as client:
            yield client
    finally:
        stop.set()
        thread.join(timeout=60)  # its round done before the store closes
        if "caboose.feed" in app.extensions:
            app.extensions["caboose.feed"].stop()


def shell(store: Caboose, *args: str) -> tuple[int, str]:
    env = {"CABOOSE_DB_SCHEMA": store.settings.schema} if store.settings.schema else {}
    result = CliRunner(env=env).invoke(cli, [*args, "--db", store.settings.db])
    return result.exit_code, result.output


def test_a_finished_fork_of_a_running_game_shows_none_of_its_hidden_cards(client: Client, store: Caboose) -> None:
    found = fork_attack(client, random.Random(35))
    # The attack meant something: the fork finished while the original runs, the detector
    # finds the hidden cards where a referee reads them, and a draw was made to predict.
    assert found.notes["control_finds_hidden_cards"], found.to_json()
    assert found.notes["actual_draw"] is not None
    assert found.leaks == [], found.to_json()
    assert found.notes["predicted_draw"] is None, found.to_json()

    fork, at = found.notes["fork"], found.notes["forked_at"]
    # From the shell, as the public: refused in one line, nothing written.
    for args in (["export", fork, "--as", "public"], ["events", fork, "--as", "public", "--json"],
                 ["state", fork, "--as", "public", "--at", str(at)], ["export", fork, "--as", "public", "--text"],
                 ["bulk", "export", "--id", fork]):
        code, output = shell(store, *args)
        assert code == 1 and "withheld:" in output and len(output.strip().splitlines()) == 1, (args, output)
    # As the fork's seat 1: its own secrets only, though the fork is over.
    code, output = shell(store, "export", fork, "--as", "seat:1")
    records = [json.loads(line) for line in output.splitlines()]
    assert code == 0 and records and list(hidden(records, 1)) == [], output[-2000:]
    code, output = shell(store, "state", fork, "--as", "seat:1", "--at", str(at), "--json")
    assert code == 0 and list(hidden(json.loads(output), 1)) == [], output[-2000:]


def test_once_the_original_ends_its_finished_fork_is_shown_whole(client: Client, store: Caboose) -> None:
    found = fork_attack(client, random.Random(7))
    origin, fork = found.games["origin"], found.games["fork"]
    refused = client.get(fork.path)
    assert refused.status == 403 and refused.body["code"] == "withheld" and refused.body["running_game"] == origin.game_id
    assert refused.headers["content-type"] == "application/problem+json"
    for seat in origin.seat_tokens:  # the original's referee lets bots play it out
        assert retried(client, f"{origin.path}/seats/{seat}/bot", {"level": "random"}, origin.referee_token).status == 201
    waited("the bots to finish the original", lambda: client.get(origin.path).body["status"] == "finished")
    events = client.get(f"{fork.path}/events").body["events"]
    assert any("value" in s for e in events for s in e["secrets"]), "a finished fork of a finished game is public"
    assert client.get(f"{fork.path}/export?format=text").status == 200


def test_a_finished_fork_imported_under_another_id_is_withheld_as_the_fork_is(client: Client, store: Caboose,
                                                                               tmp_path: Path) -> None:
    """Its referee's full record of the fork, given a new id and sealed again, verifies
    (its copied part is the original's, its own part drawn from its revealed seed) and is
    imported: it names the running original in its ForkedFrom, so the public waits too."""
    found = fork_attack(client, random.Random(11))
    fork = found.games["fork"]
    records = events_of(client.get(f"{fork.path}/export", token=fork.referee_token))
    copy_id = str(uuid.uuid4())
    path = tmp_path / "fork-copy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in reseal([{**r, "game_id": copy_id} for r in records])))
    code, output = shell(store, "import", str(path), "--json")
    assert code == 0, output
    tokens = json.loads(output.splitlines()[0])
    for endpoint in ("", "/events", "/state", "/export", "/stream"):
        reply = client.get(f"/api/v1/games/{copy_id}{endpoint}")
        assert reply.status == 403 and reply.body["code"] == "withheld", (endpoint, reply.status)
    seen = client.get(f"/api/v1/games/{copy_id}/events", token=tokens["seat_tokens"]["1"]).body["events"]
    assert seen and list(hidden(seen, 1)) == []
