"""`GET /api/v1/games` over HTTP: pages by cursor through the `next` link and the `Link`
header, fresh right after a client's own create and move, `waiting_for=me` with one or
several seat tokens, and a 400 naming the parameter for each bad one."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from service.application import Caboose
from tests.e2e.conftest import Client


def create(client: Client, players: list[str | None]) -> dict[str, Any]:
    reply = client.post("/api/v1/games", {"game": "race", "players": players})
    assert reply.status == 201, reply.body
    return reply.body


def links(header: str) -> dict[str, str]:
    return {rel: url for url, rel in re.findall(r'<([^>]+)>;\s*rel="(\w+)"', header)}


def test_pages_follow_the_next_link_and_the_link_header(client: Client) -> None:
    ids = [create(client, ["Ann", "Ben"])["game_id"] for _ in range(5)]
    first = client.get("/api/v1/games?limit=2&game=race")
    assert first.status == 200 and first.body["limit"] == 2 and first.body["prev"] is None
    assert links(first.headers["link"]) == {"next": first.body["next"]}
    assert parse_qs(urlparse(first.body["next"]).query)["game"] == ["race"]  # the filters travel with the link
    seen, reply = [], first
    while True:
        seen += [g["game_id"] for g in reply.body["games"]]
        if reply.body["next"] is None:
            assert "next" not in links(reply.headers.get("link", ""))
            break
        assert links(reply.headers["link"])["next"] == reply.body["next"]
        reply = client.get(reply.body["next"])
        assert reply.status == 200 and links(reply.headers["link"])["prev"] == reply.body["prev"]
    assert seen == list(reversed(ids))
    back = client.get(reply.body["prev"])
    assert [g["game_id"] for g in back.body["games"]] == list(reversed(ids))[2:4]


def test_a_clients_own_create_and_move_show_in_its_next_listing(client: Client, store: Caboose) -> None:
    created = create(client, ["Ann", "Ben"])
    game_id = created["game_id"]
    [entry] = client.get("/api/v1/games?limit=1").body["games"]
    assert entry["game_id"] == game_id and entry["version"] == created["version"]
    seat = entry["active_seats"][0]
    moved = client.post(f"/api/v1/games/{game_id}/moves", {"type": "advance", "by": 2},
                        token=created["seat_tokens"][str(seat)])
    assert moved.status == 201
    [entry] = client.get("/api/v1/games?limit=1").body["games"]
    assert entry["version"] == moved.body["version"] and entry["active_seats"] == [1 - seat]
    assert entry["updated_at"] == moved.body["events"][-1]["time"]
    # What the listing shows is what the game's own summary shows.
    summary = client.get(f"/api/v1/games/{game_id}").body
    for key in ("game", "status", "version", "active_seats", "waiting_since", "created_at", "updated_at"):
        assert entry[key] == summary[key], key


def test_waiting_for_me_with_one_token_or_several(client: Client) -> None:
    games = [create(client, ["Ann", "Ben"]) for _ in range(3)]
    to_act = [client.get(f"/api/v1/games/{g['game_id']}").body["active_seats"][0] for g in games]
    mine = [g["seat_tokens"][str(seat)] for g, seat in zip(games, to_act, strict=True)]
    idle = games[0]["seat_tokens"][str(1 - to_act[0])]

    one = client.get("/api/v1/games?waiting_for=me", token=mine[0])
    assert [g["game_id"] for g in one.body["games"]] == [games[0]["game_id"]]
    several = client.get("/api/v1/games?waiting_for=me", token=mine[0], headers={"Seat-Tokens": f"{mine[1]}, {mine[2]},{idle}"})
    assert sorted(g["game_id"] for g in several.body["games"]) == sorted(g["game_id"] for g in games)
    header_only = client.get("/api/v1/games?waiting_for=me&limit=1", headers={"Seat-Tokens": " ".join(mine)})
    assert len(header_only.body["games"]) == 1 and header_only.body["next"] is not None
    assert client.get("/api/v1/games?waiting_for=me", token=idle).body["games"] == []
    assert [g["game_id"] for g in client.get("/api/v1/games?waiting_for_me=true", token=mine[1]).body["games"]] == \
        [games[1]["game_id"]]

    nobody = client.get("/api/v1/games?waiting_for=me")
    assert nobody.status == 401 and "bearer token" in nobody.body["detail"]
    forged = client.get("/api/v1/games?waiting_for=me", token=mine[0], headers={"Seat-Tokens": "made-up"})
    assert forged.status == 401 and "Token 2 of 2" in forged.body["detail"]
    referee = client.get("/api/v1/games?waiting_for=me", token=games[0]["referee_token"])
    assert referee.status == 401 and "referee" in referee.body["detail"]


@pytest.mark.parametrize("query, parameter", [
    ("limit=0", "limit"), ("limit=201", "limit"), ("limit=ten", "limit"),
    ("cursor=not-a-cursor", "cursor"), ("cursor=WzEsIm4iLDEsMl0", "cursor"),  # base64 of [1,"n",1,2]
    ("status=paused", "status"), ("game=chess", "game"), ("forked_from=abc", "forked_from"),
    ("transcribed=maybe", "transcribed"), ("waiting_for=you", "waiting_for"), ("colour=red", "colour"),
])
def test_bad_parameters_are_a_400_naming_the_parameter(client: Client, query: str, parameter: str) -> None:
    reply = client.get(f"/api/v1/games?{query}")
    assert reply.status == 400 and reply.headers["content-type"] == "application/problem+json"
    assert list(reply.body["errors"]) == [parameter], reply.body
    if parameter == "game":
        assert "race" in str(reply.body["errors"]["game"])  # says which games there are


def test_the_listing_is_documented_in_the_openapi_document(client: Client) -> None:
    document = client.get("/api/v1/openapi.json").body
    operation = document["paths"]["/api/v1/games"]["get"]
    names = {p["name"] for p in operation["parameters"]}
    assert {"limit", "cursor", "status", "game", "player", "forked_from", "transcribed", "waiting_for", "Seat-Tokens"} <= names
    ok = operation["responses"]["200"]
    assert "Link" in ok["headers"]
    listed = document["components"]["schemas"]["ListedGame"]
    assert {"title", "stage", "waiting_since", "forked_from", "transcribed", "updated_at"} <= set(listed["properties"])
    # The entries are sent as the index holds them: exactly the documented fields, every one present.
    create(client, ["Ann", None])
    body = client.get("/api/v1/games").body
    assert set(body) == set(document["components"]["schemas"]["GameList"]["properties"])
    [entry] = body["games"]
    assert set(entry) == set(listed["properties"]) == set(listed["required"])
    assert set(entry["seats"][0]) == set(document["components"]["schemas"]["ListedSeat"]["properties"])
    assert (entry["stage"], entry["seats"][1]["open"], entry["scores"], entry["forked_from"]) == ("waiting", True, None, None)
