"""The transparency log as its users meet it: `caboose serve` advancing checkpoints as moves
arrive, a witness cosigning them through the command line, the published checkpoint waiting
for the witnesses the server requires, and every bad request answered with a clear error
that stores nothing."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from cli.main import cli
from service.api import create_app
from service.application import Caboose
from service.bootstrap import Services, bootstrap
from service.settings import RateLimits, Settings
from service.tlog.notes import COSIGNATURE, Checkpoint, Signer
from service.tlog.tables import CHECKPOINTS, COSIGNATURES, LEAVES
from tests.e2e.conftest import serving
from tests.support.http import Client
from tests.support.live_server import free_port

ROOT = Path(__file__).parents[2]
spec = importlib.util.spec_from_file_location("verify_log", ROOT / "docs" / "verify_log.py")
assert spec is not None and spec.loader is not None
verify_log = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify_log)


def caboose(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "caboose"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def until(condition: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.1)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Client, str, Path]]:
    """`caboose serve` on a fresh SQLite file, told to require one witness's cosignature."""
    state = tmp_path / "witness"
    witness_key = caboose("witness", "--state", str(state), "--show-key").stdout.strip()
    port, db = free_port(), f"sqlite:///{tmp_path}/served.sqlite"
    env = {**os.environ, "CABOOSE_RATE_LIMIT": "100000/60"}
    with (tmp_path / "serve.log").open("w") as output:
        server = subprocess.Popen([str(Path(sys.executable).parent / "caboose"), "serve", "--port", str(port), "--db", db,
                                   "--witness-key", witness_key], env=env, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
        client = Client(f"http://127.0.0.1:{port}")
        try:
            until(lambda: _answers(client))
            yield client, witness_key, state
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)


def _answers(client: Client) -> bool:
    try:
        return client.get("/api/v1/health").status == 200
    except OSError:
        return False


def new_game(client: Client) -> tuple[str, dict[str, str]]:
    made = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Ben"]}).body
    return made["game_id"], made["seat_tokens"]


def play_some(client: Client, game_id: str, tokens: dict[str, str], moves: int) -> int:
    """Moves by whichever seat may move; returns the game's version."""
    version = 0
    for _ in range(moves):
        summary = client.get(f"/api/v1/games/{game_id}").body
        seat = str(summary["active_seats"][0])
        legal = client.get(f"/api/v1/games/{game_id}/legal-moves", token=tokens[seat]).body["moves"]
        reply = client.post(f"/api/v1/games/{game_id}/moves", legal[0], token=tokens[seat])
        assert reply.status == 201, reply.body
        version = reply.body["now"]["version"]
    return version


def latest_size(client: Client) -> int:
    reply = client.get("/api/v1/log/checkpoint/latest")
    return Checkpoint.parse(reply.body.rpartition("\n\n")[0] + "\n").size if reply.status == 200 else -1


def test_serve_signs_checkpoints_as_moves_arrive_and_publishes_what_its_witness_cosigned(
        served: tuple[Client, str, Path]) -> None:
    client, witness_key, state = served
    log_key = client.get("/api/v1/log/key").body.strip()
    game_id, tokens = new_game(client)
    version = play_some(client, game_id, tokens, 4)
    until(lambda: latest_size(client) >= version)  # the server's own sequencer, about once a second
    assert client.get("/api/v1/log/checkpoint").status == 404  # nothing cosigned yet by the required witness

    first = caboose("witness", client.base, "--state", str(state), "--log-key", log_key, "--once")
    assert first.returncode == 0 and "kept by the log" in first.stdout, first.stdout + first.stderr
    published = client.get("/api/v1/log/checkpoint").body
    assert verify_log.cosigned_at(published, witness_key) > 0
    verify_log.checkpoint(client.base, log_key, [witness_key])

    more = play_some(client, game_id, tokens, 5)
    until(lambda: latest_size(client) >= more)
    assert client.get("/api/v1/log/checkpoint").body == published  # the newer tree awaits its cosignature
    second = caboose("witness", client.base, "--state", str(state), "--once")
    assert second.returncode == 0 and f"(was {verify_log.parse_checkpoint(published)[1]})" in second.stdout
    assert verify_log.parse_checkpoint(client.get("/api/v1/log/checkpoint").body)[1] >= more
    checker = subprocess.run([sys.executable, str(ROOT / "docs" / "verify_log.py"), "inclusion", client.base,
                              "--log-key", log_key, "--game", game_id, "--version", "3"], capture_output=True, text=True)
    assert checker.returncode == 0 and checker.stdout.startswith("OK"), checker.stderr


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    app = Caboose(Settings(db=f"sqlite:///{tmp_path}/bad.sqlite", rate_limits=RateLimits.every("100000/minute")))
    yield bootstrap(caboose=app)
    app.close()


def stored(services: Services) -> tuple[int, int, int, int]:
    with services.log.engine.connect() as connection:
        counts = [connection.scalar(select(func.count()).select_from(t)) or 0 for t in (LEAVES, CHECKPOINTS, COSIGNATURES)]
    return (services.caboose.recorder.max_notification_id() or 0, *counts)  # type: ignore[return-value]


def test_bad_log_requests_are_refused_clearly_and_store_nothing(services: Services) -> None:
    game_id, _ = services.lobby.open_game("ticket_to_ride", ["Ann", "Ben"])
    services.log.round(services.caboose)
    note = services.log.published().note
    stranger = Signer.generate("stranger.test/w", COSIGNATURE)
    text = note.rpartition("\n\n")[0] + "\n"
    unknown_witness = note + stranger.cosignature_line(text, 1_700_000_000)
    before = stored(services)
    with serving(services.caboose, create_app(services=services)) as client:
        cases = [
            ("GET", "/api/v1/log/proof/inclusion?game=not-a-uuid&version=1", None, 400, "game"),
            ("GET", f"/api/v1/log/proof/inclusion?game={game_id}&version=0", None, 400, "version"),
            ("GET", f"/api/v1/log/proof/inclusion?game={game_id}", None, 400, "version"),
            ("GET", "/api/v1/log/proof/inclusion?game=00000000-0000-0000-0000-000000000000&version=1", None, 404, "not in the log"),
            ("GET", f"/api/v1/log/proof/inclusion?game={game_id}&version=1&size=999999", None, 404, "ask for a size from 1 to"),
            ("GET", f"/api/v1/log/proof/inclusion?game={game_id}&version=13&size=5", None, 404, "later checkpoint"),
            ("GET", "/api/v1/log/proof/consistency?from=5&to=3", None, 400, "from"),
            ("GET", "/api/v1/log/proof/consistency?from=0&to=3", None, 400, "from"),
            ("GET", "/api/v1/log/proof/consistency?from=3&to=99999", None, 404, "the tree's size"),
            ("GET", "/api/v1/log/proof/consistency?from=x&to=3", None, 400, "from"),
            ("POST", "/api/v1/log/cosignatures", {}, 400, "checkpoint"),
            ("POST", "/api/v1/log/cosignatures", {"checkpoint": "hello"}, 422, "signed note"),
            ("POST", "/api/v1/log/cosignatures", {"checkpoint": note.replace("\n13\n", "\n12\n")}, 422, "does not verify"),
            ("POST", "/api/v1/log/cosignatures", {"checkpoint": unknown_witness}, 422, "witness this log knows"),
            ("POST", "/api/v1/log/cosignatures", {"checkpoint": "x" * 20_000}, 400, "checkpoint"),
        ]
        for method, path, body, status, says in cases:
            reply = client.request(method, path, body)
            assert reply.status == status, (path, body, reply.body)
            assert reply.headers["content-type"].startswith("application/problem+json")
            assert says in json.dumps(reply.body), (path, reply.body)
        not_json = client.request("POST", "/api/v1/log/cosignatures", raw=b"checkpoint", headers={"Content-Type": "text/plain"})
        assert not_json.status == 415
    assert stored(services) == before


def test_bad_log_commands_say_what_is_wrong_without_a_traceback(services: Services, tmp_path: Path) -> None:
    db = services.settings.db
    game_id, _ = services.lobby.open_game("ticket_to_ride", ["Ann", "Ben"])
    runner = CliRunner()
    cases = [
        (["log", "prove", game_id, "--version", "999", "--db", db], "not in the log"),
        (["log", "prove", game_id, "--version", "1", "--size", "99999", "--db", db], "ask for a size"),
        (["log", "consistency", "5", "3", "--db", db], "from <= to"),
        (["witness", "--state", str(tmp_path / "w")], "give the log's URL"),
        (["witness", "http://127.0.0.1:9", "--state", str(tmp_path / "w2"), "--once"], "GET /api/v1/log/key"),
        (["witness", "http://127.0.0.1:9", "--state", str(tmp_path / "w3"), "--log-key", "junk", "--once"], "verifier key"),
        (["serve", "--witness-key", "junk", "--db", db], "verifier key"),
    ]
    before = stored(services)
    for args, says in cases:
        result = runner.invoke(cli, args)
        assert result.exit_code != 0, args
        assert says in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert stored(services)[0] == before[0]
    proof = runner.invoke(cli, ["log", "prove", game_id, "--version", "3", "--db", db, "--json"])
    assert proof.exit_code == 0 and json.loads(proof.output)["leaf_index"] == 2
