"""The REST API over a real HTTP server: Ticket to Ride games played by following
legal-moves with seat tokens, and every kind of bad input refused with nothing stored."""

from __future__ import annotations

import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.e2e.conftest import Client, serving

SEED = "ab" * 32


def create(client: Client, players: int = 3, **extra: Any) -> dict:
    reply = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": [f"p{i}" for i in range(players)],
                                          "seed": SEED, **extra})
    assert reply.status == 201, reply.body
    assert len(reply.body["seed_commitment"]) == 64
    return reply.body


class SecretWatch:
    """Knows, as the game goes, the salts and values each audience may not see; a value
    the audience also holds itself (two seats may each draw a green card) is left out."""

    def __init__(self, audiences: list[int | None]) -> None:
        self.hidden: dict[int | None, set[str]] = {a: set() for a in audiences}
        self.own: dict[int | None, set[str]] = {a: set() for a in audiences}

    def learn(self, records: list[dict]) -> None:
        for record in records:
            for secret in record["secrets"]:
                value = json.dumps(secret["value"], sort_keys=True, separators=(",", ":"))
                for audience in self.hidden:
                    if audience in secret["to"]:
                        self.own[audience].add(value)
                    else:
                        self.hidden[audience] |= {secret["salt"], value}

    def scan(self, body: Any, audience: int | None) -> None:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        leaked = [s for s in self.hidden[audience] - self.own[audience] if s in text]
        assert not leaked, f"{audience} received a secret that is not theirs: {leaked[:3]}"


@pytest.mark.parametrize("players", [2, 4])
def test_seats_play_a_whole_game_each_with_its_own_token(client: Client, players: int) -> None:
    """Every response a seat or the public gets is scanned for the others' secrets."""
    created = create(client, players)
    game_id, tokens, referee = created["game_id"], created["seat_tokens"], created["referee_token"]
    base, chooser = f"/api/v1/games/{game_id}", random.Random(players)
    audiences: list[int | None] = [None, *range(players)]
    watch, seen = SecretWatch(audiences), 0
    for _ in range(3000):
        summary = client.get(base, token=referee).body
        if summary["status"] == "finished":
            break
        new = client.get(f"{base}/events?after={seen}", token=referee).body["events"]
        watch.learn(new)
        for audience in audiences:
            token = tokens[str(audience)] if audience is not None else None
            for path in ("/state", f"/events?after={seen}", ""):
                watch.scan(client.get(base + path, token=token).body, audience)
        seen = summary["version"]
        seat = chooser.choice(summary["active_seats"])
        moves = client.get(f"{base}/legal-moves", token=tokens[str(seat)]).body["moves"]
        watch.scan(moves, seat)
        reply = client.post(f"{base}/moves", chooser.choice(moves), token=tokens[str(seat)])
        assert reply.status == 201, reply.body
        assert reply.headers["etag"] == f'"{reply.body["version"]}"'
        # The answer carries the game as the move left it: no second request needed.
        now, after = reply.body["now"], client.get(base).body
        assert (now["version"], now["status"], now["active_seats"]) == (after["version"], after["status"], after["active_seats"])
        assert now["state"] == client.get(f"{base}/state", token=tokens[str(seat)]).body["state"]
        watch.learn(client.get(f"{base}/events?after={seen}", token=referee).body["events"])
        if client.get(base).body["status"] == "active":
            watch.scan(reply.body, seat)
    events = client.get(f"{base}/events?limit=5000").body["events"]
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "GameCreated" and "GameEnded" in kinds and kinds[-1] == "SeedRevealed"
    assert next(e for e in events if e["kind"] == "GameEnded")["data"]["scores"] == summary["scores"]
    assert all(v > 0 for v in summary["thinking_seconds"].values())


def test_views_by_token_and_time_travel(client: Client) -> None:
    created = create(client)
    base = f"/api/v1/games/{created['game_id']}"
    public = client.get(f"{base}/state").body
    mine = client.get(f"{base}/state", token=created["seat_tokens"]["1"]).body
    assert public["version"] == mine["version"] and public != mine
    assert "hand" in mine["state"]["seats"][1] and "hand" not in public["state"]["seats"][1]
    early = client.get(f"{base}/state?at=2")
    assert early.status == 200 and early.body["version"] == 2 and early.headers["etag"] == '"2"'


def test_tokens_roles_and_invites(client: Client) -> None:
    reply = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["ann", None], "seed": SEED})
    game_id, ann, invite = reply.body["game_id"], reply.body["seat_tokens"]["0"], reply.body["invites"]["1"]
    base = f"/api/v1/games/{game_id}"
    other = create(client)
    move = {"type": "keep_tickets", "keep": []}
    assert client.post(f"{base}/moves", move).status == 401
    assert client.post(f"{base}/moves", move, token="nonsense").status == 401
    assert client.post(f"{base}/moves", move, token=other["seat_tokens"]["0"]).status == 401
    assert client.post(f"{base}/moves", {**move, "seat": 1}, token=ann).status == 403
    assert client.get(f"{base}/legal-moves?seat=1", token=ann).status == 403
    assert client.post(f"{base}/join", {"invite": "wrong", "name": "bo"}).status == 403
    joined = client.post(f"{base}/join", {"invite": invite, "name": "bo"})
    assert joined.status == 201 and joined.body["seat"] == 1
    assert client.post(f"{base}/join", {"invite": invite, "name": "eve"}).status == 403
    bo = joined.body["token"]
    assert client.get(base).body["seats"][1]["name"] == "bo"
    keep = client.get(f"{base}/legal-moves", token=bo).body["moves"][0]
    assert keep["seat"] == 1 and client.post(f"{base}/moves", keep, token=bo).status == 201
    mine = client.get("/api/v1/games?waiting_for_me=true", token=ann).body["games"]
    assert [g["game_id"] for g in mine] == [game_id]
    assert client.get("/api/v1/games?waiting_for_me=true", token=bo).body["games"] == []


@pytest.mark.parametrize("body, raw, status, code", [
    (None, b"{not json", 400, None),
    ({"seat": 0}, None, 400, "malformed_request"),
    ({"seat": "zero", "type": "draw_card"}, None, 400, "malformed_request"),
    ({"type": "fly"}, None, 400, "unknown_move_type"),
    ({"type": "keep_tickets", "keep": ["Nowhere|Elsewhere"], "extra": 1}, None, 400, None),
    ({"type": "draw_card", "source": "deck"}, None, 422, "must_keep_tickets"),
])
def test_bad_moves_get_a_problem_and_store_nothing(client: Client, body, raw, status: int, code: str | None) -> None:
    created = create(client)
    base, token = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]["0"]
    before = client.get(f"{base}/events", token=created["referee_token"]).body
    reply = client.post(f"{base}/moves", body, raw=raw, token=token)
    assert reply.status == status, reply.body
    assert reply.headers["content-type"] == "application/problem+json"
    assert {"type", "title", "status", "detail"} <= set(reply.body) and reply.body["detail"]
    if code:
        assert reply.body["code"] == code, reply.body
    assert client.get(f"{base}/events", token=created["referee_token"]).body == before


def test_stale_version_is_refused_with_the_current_one(client: Client) -> None:
    created = create(client)
    base, token = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]["0"]
    version = client.get(base).body["version"]
    move = client.get(f"{base}/legal-moves", token=token).body["moves"][0]
    reply = client.post(f"{base}/moves", move, headers={"If-Match": f'"{version - 1}"'}, token=token)
    assert reply.status == 412 and reply.body["current_version"] == version
    assert client.get(base).body["version"] == version
    assert client.post(f"{base}/moves", move, headers={"If-Match": f'"{version}"'}, token=token).status == 201


def test_idempotency_key_replays_the_first_answer(client: Client) -> None:
    created = create(client)
    base, token = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]["0"]
    move = client.get(f"{base}/legal-moves", token=token).body["moves"][0]
    first = client.post(f"{base}/moves", move, headers={"Idempotency-Key": "k-1"}, token=token)
    again = client.post(f"{base}/moves", move, headers={"Idempotency-Key": "k-1"}, token=token)
    assert first.status == again.status == 201 and first.body == again.body
    assert client.get(base).body["version"] == first.body["version"]
    other = client.post(f"{base}/moves", {**move, "keep": move["keep"][:2]}, headers={"Idempotency-Key": "k-1"}, token=token)
    assert other.status == 422 and other.body["code"] == "idempotency_key_reused"
    assert client.get(base).body["version"] == first.body["version"]


def test_unknown_game_and_bad_creation(client: Client) -> None:
    for path in ("/api/v1/games/nope", "/api/v1/games/00000000-0000-0000-0000-000000000000/state"):
        reply = client.get(path)
        assert reply.status == 404 and reply.body["code"] == "game_not_found"
    assert client.post("/api/v1/games", {"game": "chess", "players": ["a", "b"]}).body["code"] == "unknown_game"
    assert client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a"]}).body["code"] == "bad_seats"
    assert client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a", "b"], "seed": "xyz"}).status == 400
    assert client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a", "b"], "colour": 1}).status == 400
    assert client.post("/api/v1/games", raw=b"x" * 300_000).status == 413
    assert client.get("/api/v1/games").status == 200


def test_a_flood_gets_429_and_stores_nothing(tmp_path) -> None:
    store = Caboose(Settings(db=f"sqlite:///{tmp_path}/flood.sqlite", rate_limits=RateLimits.every("5/60")))
    with serving(store) as client:
        created = create(client)
        base, token = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]["0"]
        statuses = [client.get(base, token=token).status for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3
        # Moves have a count of their own: five refused as malformed, then the sixth is cut off.
        statuses = [client.post(f"{base}/moves", {"type": "no_such_move"}, token=token).status for _ in range(5)]
        assert statuses == [400] * 5
        flooded = client.post(f"{base}/moves", {"type": "draw_tickets"}, token=token)
        assert flooded.status == 429 and int(flooded.headers["retry-after"]) >= 1
        assert client.get(base, token=created["referee_token"]).body["version"] == created["version"]


def test_fifty_simultaneous_submissions_at_one_version_store_exactly_one(client: Client) -> None:
    created = create(client, 2)
    base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
    for seat in (0, 1):  # through the opening, to a seat's turn
        client.post(f"{base}/moves", client.get(f"{base}/legal-moves", token=tokens[str(seat)]).body["moves"][0], token=tokens[str(seat)])
    summary = client.get(base).body
    seat, version = summary["active_seats"][0], summary["version"]
    move = {"type": "draw_card", "source": "deck"}
    barrier = threading.Barrier(50)

    def submit(_: int) -> int:
        barrier.wait()
        return client.post(f"{base}/moves", move, headers={"If-Match": f'"{version}"'}, token=tokens[str(seat)]).status

    with ThreadPoolExecutor(50) as pool:
        statuses = list(pool.map(submit, range(50)))
    assert statuses.count(201) == 1 and statuses.count(412) == 49, statuses
    events = client.get(f"{base}/events?after={version}", token=created["referee_token"]).body["events"]
    assert len([e for e in events if e["kind"] == "CardDrawn"]) == 1
    assert [e["version"] for e in events] == list(range(version + 1, version + 1 + len(events)))
