"""`If-Match` as RFC 9110 defines it, and who a move is recorded as, over a real HTTP server.

Every refused request is checked against the store: nothing of it was stored.
"""

from __future__ import annotations

import uuid

import pytest

from service.application import Caboose
from tests.e2e.conftest import Client


@pytest.fixture
def game(client: Client) -> dict:
    reply = client.post("/api/v1/games", {"game": "race", "players": ["ann", "bob"], "options": {"goal": 100}, "seed": "cd" * 32})
    assert reply.status == 201, reply.body
    return reply.body


def move(client: Client, game: dict, if_match: str | None = None, token: str | None = None, **body: object) -> object:
    summary = client.get(f"/api/v1/games/{game['game_id']}").body
    seat = summary["active_seats"][0]
    headers = {"If-Match": if_match} if if_match is not None else {}
    return client.post(f"/api/v1/games/{game['game_id']}/moves", {"type": "advance", "by": 1, **body},
                       token=token or game["seat_tokens"][str(seat)], headers=headers)


def version(store: Caboose, game: dict) -> int:
    return len(store.records(game["game_id"]))


@pytest.mark.parametrize("header", ['12', '"12', 'W/12', '"1"; "2"', '"1" "2"', "**", "", ",", 'w/"3"', '"a b"'])
def test_an_if_match_that_is_not_an_entity_tag_list_is_malformed(client: Client, store: Caboose, game: dict, header: str) -> None:
    before = version(store, game)
    reply = move(client, game, if_match=header)
    assert reply.status == 400, (header, reply.body)
    assert "If-Match" in reply.body["detail"]
    assert version(store, game) == before


def test_star_matches_any_version(client: Client, store: Caboose, game: dict) -> None:
    before = version(store, game)
    reply = move(client, game, if_match="*")
    assert reply.status == 201, reply.body
    assert reply.body["version"] == version(store, game) > before


def test_a_list_matches_when_any_strong_tag_is_the_current_version(client: Client, store: Caboose, game: dict) -> None:
    now = version(store, game)
    reply = move(client, game, if_match=f'"1", "{now}" ,"99"')
    assert reply.status == 201, reply.body
    assert reply.headers["etag"] == f'"{version(store, game)}"'


@pytest.mark.parametrize("tags", ['"{stale}"', '"{stale}", "{older}"', 'W/"{now}"', '"v{now}"'])
def test_a_tag_that_does_not_match_is_refused_with_412_and_the_current_version(client: Client, store: Caboose, game: dict,
                                                                                tags: str) -> None:
    assert move(client, game).status == 201
    now = version(store, game)
    header = tags.format(now=now, stale=now - 1, older=now - 2)
    reply = move(client, game, if_match=header)
    assert reply.status == 412, (header, reply.body)
    assert reply.body["current_version"] == now
    assert reply.headers["etag"] == f'"{now}"'
    assert version(store, game) == now


def test_if_match_and_a_contradicting_body_version_are_refused(client: Client, store: Caboose, game: dict) -> None:
    now = version(store, game)
    reply = move(client, game, if_match=f'"{now}"', expected_version=now - 1)
    assert reply.status == 400
    assert version(store, game) == now


def test_a_retry_with_its_key_is_answered_after_the_game_moved_on(client: Client, store: Caboose, game: dict) -> None:
    key = str(uuid.uuid4())
    now = version(store, game)
    first = move(client, game, if_match=f'"{now}"', token=None)
    assert first.status == 201
    seat = first.body["events"][0]["actor"].removeprefix("seat:")
    headers = {"If-Match": f'"{now + 5}"', "Idempotency-Key": key}
    body = {"type": "advance", "by": 2}
    path = f"/api/v1/games/{game['game_id']}/moves"
    stored = client.post(path, body, token=game["seat_tokens"][str(1 - int(seat))], headers={**headers, "If-Match": "*"})
    assert stored.status == 201
    again = client.post(path, body, token=game["seat_tokens"][str(1 - int(seat))], headers=headers)
    assert again.status == 201 and again.body["events"] == stored.body["events"]
    assert [r for r in store.records(game["game_id"]) if r["command_id"] == key] == stored.body["events"]


def test_a_move_entered_with_the_referee_token_is_recorded_as_the_referees(client: Client, store: Caboose, game: dict) -> None:
    summary = client.get(f"/api/v1/games/{game['game_id']}").body
    seat = summary["active_seats"][0]
    reply = client.post(f"/api/v1/games/{game['game_id']}/moves", {"type": "advance", "by": 3, "seat": seat},
                        token=game["referee_token"])
    assert reply.status == 201, reply.body
    stored = [r for r in store.records(game["game_id"]) if r["command_id"] == reply.body["events"][0]["command_id"]]
    assert stored == reply.body["events"]
    assert stored[0]["actor"] == "referee:referee"
    assert client.get(f"/api/v1/games/{game['game_id']}").body["active_seats"] == [1 - seat]
    assert store.audit(game["game_id"]).ok
