"""An imported or relabelled record continues only as what it is (issue 35, point 5), over a
real HTTP server on each store (SQLite, PostgreSQL) and from the shell, as the one who sends
the record and then plays would act:
- a game imported unfinished comes without its seed: it cannot be played on here, by its
  seats, a bot or a fork, even when whoever sent it re-sealed a deck order of its choosing
  into the record (which nothing can tell before the reveal);
- a finished seeded record relabelled as a game played at a table (its reveal dropped, its
  chain sealed again) is refused, and nothing is stored or listed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from service.api import create_app
from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.conftest import POSTGRES_URL, fresh_schema
from tests.e2e.conftest import Client, serving
from tests.forgery import drop_reveal, finished_ticket_to_ride, reseal, write_jsonl
from tests.support.attacks import events_of, full_records, play
from tests.support.volley import Game, new_game

LIMITS = RateLimits.every("1000000/minute")
VERIFIER = Path(__file__).resolve().parents[2] / "docs" / "verify_record.py"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Caboose]:
    if request.param == "sqlite":
        app = Caboose(Settings(db=f"sqlite:///{tmp_path}/imports.sqlite", rate_limits=LIMITS))
        yield app
        app.close()
    else:
        with fresh_schema() as schema:
            app = Caboose(Settings(db=POSTGRES_URL, schema=schema, rate_limits=LIMITS))
            yield app
            app.close()


@pytest.fixture
def client(store: Caboose) -> Iterator[Client]:
    with serving(store, create_app(store)) as client:
        yield client


def shell(store: Caboose, *args: str) -> tuple[int, str]:
    env = {"CABOOSE_DB_SCHEMA": store.settings.schema} if store.settings.schema else {}
    result = CliRunner(env=env).invoke(cli, [*args, "--db", store.settings.db])
    return result.exit_code, result.output


def refused(reply: Any, code: str) -> bool:
    return (reply.status == 422 and reply.headers["content-type"] == "application/problem+json"
            and reply.body["code"] == code and "Traceback" not in json.dumps(reply.body))


def with_deck_swapped(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two cards of the train-card shuffle nobody has drawn yet, swapped: the record still
    re-adjudicates move by move; only the seed could tell."""
    forged = json.loads(json.dumps(records))
    shuffle = next(r for r in forged if r["kind"] == "TrainCardsShuffled")["secrets"][0]["value"]["random"]["shuffle"]
    last = len(shuffle) - 1
    other = next(i for i in range(last - 1, 0, -1) if shuffle[i] != shuffle[last])
    shuffle[last], shuffle[other] = shuffle[other], shuffle[last]
    return forged


@pytest.mark.parametrize("audience", ["public", "seat"])
def test_an_export_that_withholds_secrets_is_refused_with_its_reason_and_nothing_stored(
        client: Client, store: Caboose, tmp_path: Path, audience: str) -> None:
    game = new_game(client, ["ada", "bo"])
    play(client, game, 8, random.Random(6))
    token = game.seat_tokens[0] if audience == "seat" else None
    records = events_of(client.get(f"{game.path}/export", token=token))
    assert any("value" not in s for r in records for s in r["secrets"])  # a running game's export for them
    copy_id = str(uuid.uuid4())
    sent = reseal([{**r, "game_id": copy_id} for r in records])
    code, output = shell(store, "import", str(write_jsonl(tmp_path / "sent.jsonl", sent)), "--json")
    assert code == 1 and output.startswith("Error: secrets_withheld:") and "referee's full record" in output, output
    assert len(output.strip().splitlines()) == 1, output  # one line saying why, no traceback
    assert client.get(f"/api/v1/games/{copy_id}").status == 404


@pytest.mark.parametrize("forged", [False, True], ids=["as_exported", "deck_order_forged"])
def test_an_imported_unfinished_game_cannot_be_played_on_without_its_seed(client: Client, store: Caboose,
                                                                          tmp_path: Path, forged: bool) -> None:
    game = new_game(client, ["ada", "bo"])
    play(client, game, 8, random.Random(5))
    records = full_records(client, game)
    # Given an id of its own, so that it can be stored beside the game it came from.
    copy_id = str(uuid.uuid4())
    sent = reseal([{**r, "game_id": copy_id} for r in (with_deck_swapped(records) if forged else records)])
    code, output = shell(store, "import", str(write_jsonl(tmp_path / "sent.jsonl", sent)), "--json")
    assert code == 0, output  # its draws cannot be checked before the reveal: it verifies, and is kept
    tokens = json.loads(output.splitlines()[0])
    base = f"/api/v1/games/{copy_id}"
    version = client.get(base).body["version"]
    assert client.get(base).body["status"] == "active" and version == len(records)

    seat = client.get(base).body["active_seats"][0]
    move = {k: v for k, v in client.get(f"{game.path}/legal-moves", token=game.seat_tokens[seat]).body["moves"][0].items()
            if k != "seat"}  # the same move is legal in the original, at the same position
    assert refused(client.post(f"{base}/moves", move, token=tokens["seat_tokens"][str(seat)]), "seed_not_held")
    assert client.get(f"{base}/legal-moves", token=tokens["seat_tokens"][str(seat)]).body["moves"] == []
    assert refused(client.post(f"{base}/moves", {**move, "seat": seat}, token=tokens["referee_token"]), "seed_not_held")
    assert refused(client.post(f"{base}/seats/{seat}/bot", {"level": "random"}, token=tokens["referee_token"]),
                   "seed_not_held")
    assert refused(client.request("PUT", f"{base}/deadline", {"move_deadline": 60}, token=tokens["referee_token"]),
                   "seed_not_held")
    assert refused(client.post(f"{base}/fork", {"referee": "rita", "at_version": version, "reason": "play on"},
                               token=tokens["referee_token"]), "seed_not_held")
    code, output = shell(store, "move", copy_id, json.dumps(move), "--seat", str(seat))
    assert code == 1 and output.startswith("Error: seed_not_held:") and len(output.strip().splitlines()) == 1, output
    # Nothing was stored: the game stands where the record left it, and its audit says why.
    assert client.get(base).body["version"] == version
    assert full_records(client, Game(copy_id, {}, tokens["referee_token"])) == sent
    audit = client.get(f"{base}/audit").body
    assert audit["ok"] and audit["unchecked"] == ["seed"], audit


def test_a_finished_record_relabelled_as_a_table_game_is_refused_and_nothing_stored(client: Client, store: Caboose,
                                                                                    tmp_path: Path) -> None:
    honest = finished_ticket_to_ride().records
    created_ = honest[0]
    relabelled = drop_reveal([{**created_, "data": {**created_["data"], "seed_source": "table", "seed_commitment": None}},
                              *honest[1:]])
    path = write_jsonl(tmp_path / "relabelled.jsonl", relabelled)
    code, output = shell(store, "import", str(path))
    assert code == 1 and "record_rejected" in output and "table" in output, output
    assert len(output.strip().splitlines()) == 1 and "Traceback" not in output
    code, output = shell(store, "bulk", "import", str(path), "--json")
    assert code == 1 and json.loads(output.splitlines()[0])["ok"] is False, output
    game_id = created_["game_id"]
    assert client.get(f"/api/v1/games/{game_id}").status == 404
    assert client.get("/api/v1/games?transcribed=true").body["games"] == []
    assert client.get("/api/v1/games").body["games"] == []
    # The standard-library verifier refuses it too.
    checked = subprocess.run([sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True)
    assert checked.returncode == 1 and "table" in checked.stderr, checked.stdout + checked.stderr
    # The honest record itself still imports, as what it is.
    code, output = shell(store, "import", str(write_jsonl(tmp_path / "honest.jsonl", honest)))
    assert code == 0, output
    listed = client.get("/api/v1/games").body["games"]
    assert [(g["game_id"], g["transcribed"]) for g in listed] == [(game_id, False)]
