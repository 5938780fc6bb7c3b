"""Every route guarded the same way, over a real HTTP server: each declares its caller and
limit class; the limits hold per client (token normalised, else address) and per game (id
normalised); a bot playing a whole game at full speed is never limited while a flood is;
counts in Redis hold across processes; security headers, 405's Allow, and export?ids=."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

from service.api import create_app
from service.api.guard import declared
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from tests.e2e.conftest import Client, Reply, serving

REDIS_URL = os.environ.get("CABOOSE_TEST_REDIS", "redis://127.0.0.1:6379")
ROOT = Path(__file__).resolve().parents[2]
# Served as files, so they declare no guard; every other route must.
NOT_GUARDED = {"static", "viewer.static", "viewer.replay_renderer", "pages.static", "api-docs.openapi_json"}


def store_with(tmp_path: Path, limits: RateLimits | None = None, name: str = "guard") -> Caboose:
    return Caboose(Settings(db=f"sqlite:///{tmp_path}/{name}.sqlite", rate_limits=limits or RateLimits()))


def race(lobby: Lobby, seats: int = 2, goal: int = 10) -> tuple[str, dict[int, str], str]:
    game_id, issued = lobby.open_game("race", [f"p{i}" for i in range(seats)], {"goal": goal})
    return game_id, issued.seat_tokens, issued.referee_token


def call(client: Client, method: str, path: str, token: str) -> Reply:
    """Any route, whatever it answers (JSON, JSON Lines, a page): a problem is parsed, the rest kept as text."""
    request = urllib.request.Request(client.base + path, method=method, data=b"{}" if method != "GET" else None,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Reply(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read().decode())
    except urllib.error.HTTPError as error:
        headers = {k.lower(): v for k, v in error.headers.items()}
        text = error.read().decode()
        return Reply(error.code, headers, json.loads(text) if "json" in headers.get("content-type", "") else text)


def waits_stated(reply: Reply) -> int:
    """The seconds a 429 says, checked to be the ones its Retry-After header says."""
    assert reply.status == 429, reply.body
    said = re.search(r"try again in (\d+) s", reply.body["detail"])
    assert said, reply.body["detail"]
    assert int(reply.headers["retry-after"]) == int(said[1]) >= 1
    return int(said[1])


# -- every route declares its guard -------------------------------------------------------


def test_every_route_declares_a_guard(tmp_path: Path) -> None:
    app = create_app(store_with(tmp_path))
    undeclared = sorted(rule.endpoint for rule in app.url_map.iter_rules()
                        if rule.endpoint not in NOT_GUARDED and declared(app.view_functions[rule.endpoint]) is None)
    assert undeclared == []
    assert {rule.endpoint for rule in app.url_map.iter_rules()} >= NOT_GUARDED


def test_every_guarded_route_is_limited(tmp_path: Path) -> None:
    """With one request a minute for every class, the second call of every route is a 429,
    whatever the first one got: no route is left out of the limit."""
    store = store_with(tmp_path, RateLimits.every("1/minute"))
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    app = create_app(store, lobby)
    with serving(store, app) as client:
        unlimited = []
        for rule in app.url_map.iter_rules():
            if rule.endpoint in NOT_GUARDED:
                continue
            path = (rule.rule.replace("<game_id>", game_id).replace("<int:dispute>", "1").replace("<int:seat>", "0")
                    .replace("<game>", "ticket_to_ride").replace("<int:number>", "1").replace("<int:table>", "1"))
            if rule.endpoint == "stream.get_stream":
                path += "?after=999999"  # refused (400) rather than a stream that never ends, and counted all the same
            method = sorted(rule.methods - {"HEAD", "OPTIONS"})[0]
            replies = [call(client, method, path, tokens[0]) for _ in range(2)]
            if replies[1].status != 429:
                unlimited.append((rule.endpoint, [r.status for r in replies]))
            else:
                waits_stated(replies[1])
        assert unlimited == []


def test_install_refuses_an_undeclared_route(tmp_path: Path) -> None:
    from flask import Flask

    from service.api import guard

    app = Flask(__name__)
    app.add_url_rule("/sneaky", "sneaky", lambda: "hi")
    with pytest.raises(RuntimeError, match="sneaky"):
        guard.install(app, RateLimits())


# -- what counts as one client and one game -----------------------------------------------


def test_spellings_of_one_token_are_one_client(tmp_path: Path) -> None:
    store = store_with(tmp_path, RateLimits(legal_moves="4/minute"))
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    with serving(store, create_app(store, lobby)) as client:
        token = tokens[0]
        spellings = [f"Bearer {token}", f"bearer {token}", f"Bearer   {token}", f"  BEARER {token}  "]
        replies = [client.get(f"/api/v1/games/{game_id}/legal-moves", headers={"Authorization": a}) for a in spellings]
        assert [r.status for r in replies] == [200] * 4
        assert all(r.body["seat"] == 0 for r in replies)
        waits_stated(client.get(f"/api/v1/games/{game_id}/legal-moves", headers={"Authorization": f"bEaReR {token}"}))
        # Another seat is another client, with a count of its own.
        assert client.get(f"/api/v1/games/{game_id}/legal-moves", token=tokens[1]).status == 200


def test_spellings_of_one_game_id_are_one_game(tmp_path: Path) -> None:
    store = store_with(tmp_path, RateLimits(read="5/minute"))
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    key = uuid.UUID(game_id)
    with serving(store, create_app(store, lobby)) as client:
        spellings = [game_id, game_id.upper(), "{" + game_id + "}", f"urn:uuid:{game_id}", key.hex]
        replies = [client.get(f"/api/v1/games/{urllib.parse.quote(spelled)}", token=tokens[0]) for spelled in spellings]
        assert [r.status for r in replies] == [200] * 5
        assert {r.body["game_id"] for r in replies} == {game_id}  # answered as the one game
        waits_stated(client.get(f"/api/v1/games/{game_id.upper()}", token=tokens[0]))
        # A move under another spelling is stored in the same game.
        legal = client.get(f"/api/v1/games/%7B{game_id}%7D/legal-moves", token=tokens[0]).body
        seat = legal["seat"] if legal["moves"] else 1
        move = client.get(f"/api/v1/games/{game_id.upper()}/legal-moves", token=tokens[seat]).body["moves"][0]
        assert client.post(f"/api/v1/games/urn:uuid:{game_id}/moves", move, token=tokens[seat]).status == 201
        assert store.game(game_id).version == legal["version"] + 1
        # Not a game id at all: 404 under every route, with nothing stored.
        assert client.get("/api/v1/games/not-a-game/state").status == 404
        assert client.get("/api/v1/games/not-a-game/board").status == 404


def test_without_a_token_the_client_is_its_address(tmp_path: Path) -> None:
    store = store_with(tmp_path, RateLimits(read="3/minute"))
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    with serving(store, create_app(store, lobby)) as client:
        assert [client.get(f"/api/v1/games/{game_id}/board").status for _ in range(3)] == [200] * 3
        waits_stated(client.get(f"/api/v1/games/{game_id}/scores"))  # the same class, the same client
        assert client.get(f"/api/v1/games/{game_id}/scores", token=tokens[0]).status == 200


# -- the routes that had no limit ------------------------------------------------------------


def test_an_unauthenticated_audit_flood_is_cut_off_under_the_default_limits(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    lobby = Lobby(store)
    game_id, _, _ = race(lobby)
    allowed = int(RateLimits().expensive.split("/")[0])
    with serving(store, create_app(store, lobby)) as client:
        statuses = [client.get(f"/api/v1/games/{game_id}/audit").status for _ in range(allowed)]
        assert statuses == [200] * allowed
        waits_stated(client.get(f"/api/v1/games/{game_id}/audit"))
        # Audits, exports and dispute lists share one count per client, across games.
        other, _, _ = race(lobby)
        waits_stated(client.get(f"/api/v1/games/{other}/disputes"))
        waits_stated(client.get("/api/v1/games/export"))


def test_game_creation_is_limited_per_client(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    allowed = int(RateLimits().create.split("/")[0])
    body = {"game": "race", "players": ["a", "b"]}
    with serving(store) as client:
        statuses = [client.post("/api/v1/games", body).status for _ in range(allowed)]
        assert statuses == [201] * allowed
        waits_stated(client.post("/api/v1/games", body))
        # A made-up token is no new client where no token is checked: the address still counts.
        waits_stated(client.post("/api/v1/games", body, token="made-up-1"))
        waits_stated(client.post("/api/v1/games", body, token="made-up-2"))
        listed = client.get("/api/v1/games").body["games"]
        assert len(listed) == allowed  # the refused one stored nothing


def test_invite_guessing_is_limited_per_client_across_games(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    lobby = Lobby(store)
    opened = [lobby.open_game("race", ["a", None]) for _ in range(3)]
    games = [game_id for game_id, _ in opened]
    allowed = int(RateLimits().join.split("/")[0])
    with serving(store, create_app(store, lobby)) as client:
        guesses = [client.post(f"/api/v1/games/{games[i % 3]}/join", {"invite": f"guess-{i}", "name": "eve"})
                   for i in range(allowed)]
        assert [g.status for g in guesses] == [403] * allowed
        waits_stated(client.post(f"/api/v1/games/{games[0]}/join", {"invite": "guess-last", "name": "eve"}))
        waits_stated(client.post(f"/api/v1/games/{games[1]}/join", {"invite": "guess-x", "name": "eve"}, token="made-up"))
    for game_id, issued in opened:  # no guess took a seat: each real invite still claims its own
        assert lobby.join(game_id, issued.invites[1], "ann")[0] == 1


# -- a bot is never starved; a flood is cut off -------------------------------------------


def test_bots_play_a_whole_game_at_full_speed_under_the_default_limits(tmp_path: Path) -> None:
    """One client per seat of a Ticket to Ride game, as fast as the server answers: after
    every move of the game each seat reads its legal moves (as a bot told of each move would)
    and the seat whose turn it is moves at once; the mover reads the summary to see whether
    the game is over. No request may be refused for its rate."""
    store = store_with(tmp_path)
    with serving(store) as client:
        created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a", "b", "c"], "seed": "cd" * 32}).body
        base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
        changed = threading.Condition()
        shared: dict[str, Any] = {"version": created["version"], "over": False, "stalled": None}
        statuses: Counter[int] = Counter()

        def bot(seat: int) -> None:
            token, chooser, seen = tokens[str(seat)], random.Random(seat), 0
            while True:
                with changed:
                    if not changed.wait_for(lambda seen=seen: shared["version"] > seen or shared["over"] or shared["stalled"], 120):
                        shared["stalled"] = f"seat {seat} waited two minutes for a move"
                    if shared["over"] or shared["stalled"]:
                        changed.notify_all()
                        return
                    seen = shared["version"]
                legal = client.get(f"{base}/legal-moves", token=token)
                statuses[legal.status] += 1
                if legal.status != 200 or not legal.body["moves"]:
                    if legal.status != 200:
                        with changed:
                            shared["stalled"] = f"legal moves: {legal.status} {legal.body}"
                            changed.notify_all()
                    continue
                moved = client.post(f"{base}/moves", chooser.choice(legal.body["moves"]), token=token,
                                    headers={"If-Match": f'"{legal.body["version"]}"'})
                statuses[moved.status] += 1
                if moved.status in (409, 412):
                    continue  # another seat moved first in a simultaneous phase
                summary = client.get(base, token=token)
                statuses[summary.status] += 1
                with changed:
                    if moved.status != 201 or summary.status != 200:
                        shared["stalled"] = f"move: {moved.status} {moved.body}; summary: {summary.status}"
                    else:
                        shared["version"] = max(shared["version"], moved.body["version"])
                        shared["over"] = summary.body["status"] == "finished"
                    changed.notify_all()

        threads = [threading.Thread(target=bot, args=(seat,)) for seat in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert shared["stalled"] is None, shared["stalled"]
        assert statuses[429] == 0, statuses
        assert client.get(base).body["status"] == "finished"
        assert statuses[201] > 100  # a whole game, not a few moves


def test_a_flood_of_legal_move_reads_is_cut_off_under_the_default_limits(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    allowed = int(RateLimits().legal_moves.split("/")[0])
    with serving(store, create_app(store, lobby)) as client:
        path = f"/api/v1/games/{game_id}/legal-moves"
        with ThreadPoolExecutor(8) as pool:
            replies = list(pool.map(lambda _: client.get(path, token=tokens[0]), range(allowed + 100)))
        statuses = Counter(r.status for r in replies)
        assert statuses[200] >= allowed and statuses[429] >= 1 and set(statuses) == {200, 429}, statuses
        for reply in replies:
            if reply.status == 429:
                waits_stated(reply)
        # The flood spent this token's count in this game only: another seat still reads.
        assert client.get(path, token=tokens[1]).status == 200


def test_a_429_states_the_seconds_its_retry_after_header_states(tmp_path: Path) -> None:
    store = store_with(tmp_path, RateLimits(move="2/minute"))
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    with serving(store, create_app(store, lobby)) as client:
        for _ in range(2):
            client.post(f"/api/v1/games/{game_id}/moves", {"type": "no_such_move"}, token=tokens[0])
        version = store.game(game_id).version
        refused = client.post(f"/api/v1/games/{game_id}/moves", {"type": "advance", "by": 1}, token=tokens[0])
        assert 1 <= waits_stated(refused) <= 60
        assert refused.body["code"] == "rate_limited" and refused.headers["content-type"] == "application/problem+json"
        assert store.game(game_id).version == version  # nothing stored


# -- counts shared across processes ----------------------------------------------------------


@contextmanager
def server_process(db: str, **env: str) -> Iterator[Client]:
    """The service in a process of its own (the WSGI app, settings from the environment),
    with the `race` fake installed as in this process."""
    script = ("from domain import games\nfrom tests.fakes.race import RACE\ngames.register(RACE)\n"
              "from werkzeug.serving import make_server\nfrom service.wsgi import app\n"
              "server = make_server('127.0.0.1', 0, app, threaded=True)\nprint(server.server_port, flush=True)\n"
              "server.serve_forever()\n")
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "CABOOSE_DB": db, "PYTHONPATH": str(ROOT), **env})
    try:
        assert process.stdout is not None
        port = process.stdout.readline().strip()
        assert port.isdigit(), f"the server process did not start (exit {process.poll()})"
        yield Client(f"http://127.0.0.1:{port}")
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    prefix = f"caboose-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    connection = redis.Redis.from_url(REDIS_URL)
    keys = list(connection.scan_iter(match=f"*{prefix}*"))
    if keys:
        connection.delete(*keys)


@pytest.mark.parametrize(("storage", "shared"), [pytest.param(REDIS_URL, True, marks=pytest.mark.redis), ("memory://", False)])
def test_the_limit_holds_across_processes_with_a_shared_storage(tmp_path: Path, redis_prefix: str, storage: str,
                                                                shared: bool) -> None:
    """Two server processes on one database: with Redis they share one count (the eleventh
    read is refused whichever process gets it); each in its own memory, they do not."""
    db = f"sqlite:///{tmp_path}/shared.sqlite"
    lobby = Lobby(Caboose(Settings(db=db)))
    game_id, tokens, _ = race(lobby)
    env = {"CABOOSE_RATE_LIMIT_STORAGE": storage, "CABOOSE_RATE_LIMIT_PREFIX": redis_prefix,
           "CABOOSE_RATE_LIMIT_READ": "10/minute"}
    with server_process(db, **env) as first, server_process(db, **env) as second:
        path = f"/api/v1/games/{game_id}"
        statuses = [(first if i % 2 else second).get(path, token=tokens[0]).status for i in range(10)]
        assert statuses == [200] * 10
        eleventh = [first.get(path, token=tokens[0]), second.get(path, token=tokens[0])]
        if shared:
            for reply in eleventh:
                waits_stated(reply)
            assert redis.Redis.from_url(REDIS_URL).keys(f"*{redis_prefix}*")
        else:
            assert [r.status for r in eleventh] == [200, 200]


def test_an_unreachable_shared_storage_falls_back_to_counting_in_memory(tmp_path: Path) -> None:
    store = store_with(tmp_path, RateLimits(read="3/minute", storage="redis://127.0.0.1:1"))
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    with serving(store, create_app(store, lobby)) as client:
        assert [client.get(f"/api/v1/games/{game_id}", token=tokens[0]).status for _ in range(3)] == [200] * 3
        waits_stated(client.get(f"/api/v1/games/{game_id}", token=tokens[0]))


# -- headers and small defects ---------------------------------------------------------------

SECURITY = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def test_every_kind_of_response_carries_the_security_headers(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    lobby = Lobby(store)
    game_id, tokens, _ = race(lobby)
    with serving(store, create_app(store, lobby)) as client:
        def raw(path: str) -> tuple[int, dict[str, str]]:
            try:
                with urllib.request.urlopen(client.base + path, timeout=30) as response:
                    return response.status, {k.lower(): v for k, v in response.headers.items()}
            except urllib.error.HTTPError as error:
                return error.code, {k.lower(): v for k, v in error.headers.items()}

        answers = {"json": client.get(f"/api/v1/games/{game_id}", token=tokens[0]),
                   "problem": client.get("/api/v1/games/00000000-0000-0000-0000-000000000000")}
        pages = {"page": raw(f"/games/{game_id}/replay"), "missing page": raw("/games/nope/replay"),
                 "script": raw("/replay/static/js/main.js"), "openapi": raw("/api/v1/openapi.json"),
                 "unknown path": raw("/no/such/path")}
        assert answers["json"].status == 200 and answers["problem"].status == 404
        assert pages["page"][0] == 200 and pages["missing page"][0] == 404 and pages["script"][0] == 200
        for name, headers in [*((n, r.headers) for n, r in answers.items()), *((n, h) for n, (_, h) in pages.items())]:
            assert {k: headers.get(k) for k in SECURITY} == SECURITY, name
            policy = headers.get("content-security-policy", "")
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, name
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, name


def test_the_pages_run_no_inline_code() -> None:
    """The policy forbids inline scripts and styles, so the templates must hold none (a JSON
    data block, which no browser runs, is data: the first board's, the catalogue's)."""
    for template in ROOT.glob("service/*/templates/*.html"):
        text = template.read_text()
        assert not re.search(r'<script(?![^>]*\bsrc=)(?![^>]*\btype="application/json")[^>]*>', text), template.name
        assert "<style" not in text and " style=" not in text and not re.search(r"\son[a-z]+=", text), template.name


def test_a_405_says_which_methods_are_allowed(client: Client) -> None:
    reply = client.request("DELETE", "/api/v1/games")
    assert reply.status == 405 and reply.headers["content-type"] == "application/problem+json"
    assert set(reply.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    reply = client.request("PUT", "/api/v1/games/00000000-0000-0000-0000-000000000000/moves", body={})
    assert reply.status == 405 and "POST" in reply.headers["allow"]


def test_export_with_an_empty_id_list_is_refused(client: Client, store: Caboose) -> None:
    lobby = Lobby(store)
    first, _, _ = race(lobby)
    race(lobby)
    for query in ("ids=", "ids=,", "ids=%20"):
        reply = client.get(f"/api/v1/games/export?{query}")
        assert reply.status == 400 and "ids" in reply.body["errors"], (query, reply.body)
    with urllib.request.urlopen(f"{client.base}/api/v1/games/export?ids={first}", timeout=30) as response:
        assert response.headers["X-Games"] == "1"
    with urllib.request.urlopen(f"{client.base}/api/v1/games/export", timeout=30) as response:
        assert response.headers["X-Games"] == "2"
