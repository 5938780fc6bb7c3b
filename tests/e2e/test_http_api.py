"""The minimal REST API over a real HTTP server: a Ticket to Ride game played by
following legal-moves, and every kind of bad input refused with nothing stored."""

from __future__ import annotations

import random

import pytest

from tests.e2e.conftest import Client

SEED = "ab" * 32


def create(client: Client, players: int = 3) -> str:
    reply = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": [f"p{i}" for i in range(players)], "seed": SEED})
    assert reply.status == 201, reply.body
    assert len(reply.body["seed_commitment"]) == 64
    return reply.body["game_id"]


def test_play_a_whole_game_through_legal_moves(client: Client) -> None:
    game_id = create(client, 2)
    chooser = random.Random(7)
    for _ in range(2000):
        summary = client.get(f"/api/v1/games/{game_id}").body
        if summary["status"] == "finished":
            break
        seat = chooser.choice(summary["active_seats"])
        moves = client.get(f"/api/v1/games/{game_id}/legal-moves?seat={seat}").body["moves"]
        reply = client.post(f"/api/v1/games/{game_id}/moves", chooser.choice(moves))
        assert reply.status == 201, reply.body
        assert reply.headers["etag"] == f'"{reply.body["version"]}"'
    events = client.get(f"/api/v1/games/{game_id}/events?limit=5000").body["events"]
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "GameCreated" and "GameEnded" in kinds and kinds[-1] == "SeedRevealed"
    ended = next(e for e in events if e["kind"] == "GameEnded")
    assert ended["data"]["scores"] == summary["scores"]


def test_state_views_and_time_travel(client: Client) -> None:
    game_id = create(client)
    public = client.get(f"/api/v1/games/{game_id}/state").body
    mine = client.get(f"/api/v1/games/{game_id}/state?as=seat:1").body
    assert public["version"] == mine["version"]
    assert public != mine
    early = client.get(f"/api/v1/games/{game_id}/state?at=2")
    assert early.status == 200 and early.body["version"] == 2 and early.headers["etag"] == '"2"'


@pytest.mark.parametrize("body, raw, status, code", [
    (None, b"{not json", 400, "malformed_request"),
    ({"seat": 0}, None, 400, "malformed_request"),
    ({"seat": "zero", "type": "draw_card"}, None, 400, "malformed_request"),
    ({"seat": 0, "type": "fly"}, None, 400, None),
    ({"seat": 9, "type": "draw_card", "source": "deck"}, None, 422, "not_your_turn"),
])
def test_bad_moves_get_a_problem_and_store_nothing(client: Client, body, raw, status: int, code: str | None) -> None:
    game_id = create(client)
    before = client.get(f"/api/v1/games/{game_id}/events").body
    reply = client.post(f"/api/v1/games/{game_id}/moves", body, raw=raw)
    assert reply.status == status, reply.body
    assert reply.headers["content-type"] == "application/problem+json"
    assert {"type", "title", "status", "detail"} <= set(reply.body) and reply.body["detail"]
    if code:
        assert reply.body["code"] == code
    assert client.get(f"/api/v1/games/{game_id}/events").body == before


def test_stale_version_is_refused_with_the_current_one(client: Client) -> None:
    game_id = create(client)
    summary = client.get(f"/api/v1/games/{game_id}").body
    seat = summary["active_seats"][0]
    move = client.get(f"/api/v1/games/{game_id}/legal-moves?seat={seat}").body["moves"][0]
    stale = summary["version"] - 1
    reply = client.post(f"/api/v1/games/{game_id}/moves", move, headers={"If-Match": f'"{stale}"'})
    assert reply.status == 412 and reply.body["current_version"] == summary["version"]
    assert client.get(f"/api/v1/games/{game_id}").body["version"] == summary["version"]
    ok = client.post(f"/api/v1/games/{game_id}/moves", move, headers={"If-Match": f'"{summary["version"]}"'})
    assert ok.status == 201


def test_unknown_game_and_bad_creation(client: Client) -> None:
    for path in ("/api/v1/games/nope", "/api/v1/games/00000000-0000-0000-0000-000000000000/state"):
        reply = client.get(path)
        assert reply.status == 404 and reply.body["code"] == "game_not_found"
    assert client.post("/api/v1/games", {"game": "chess", "players": ["a", "b"]}).body["code"] == "unknown_game"
    assert client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a"]}).body["code"] == "bad_seats"
    assert client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a", "b"], "seed": "xyz"}).status == 400
    assert client.post("/api/v1/games", raw=b"x" * 300_000).status == 413
