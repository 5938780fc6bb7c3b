"""`GET /api/v1/games/{id}/map`: the board of the game's own pack under the ids its moves
use (every id a move may name is on the map, and nothing else), documented in OpenAPI, and
the same geometry the replay page draws."""

from __future__ import annotations

from typing import Any

from domain import games
from service.application import Caboose
from service.lobby import Lobby
from tests.e2e.conftest import Client


def created(client: Client, game: str, seats: int) -> str:
    reply = client.post("/api/v1/games", {"game": game, "players": [f"p{i}" for i in range(seats)]})
    assert reply.status == 201, reply.body
    return str(reply.body["game_id"])


def enum(schema: dict[str, Any], *path: str) -> set[str]:
    for key in path:
        schema = schema[key]
    return set(schema["enum"])


def test_ticket_to_ride_map_names_what_its_moves_name(client: Client, store: Caboose) -> None:
    game_id = created(client, "ticket_to_ride", 2)
    reply = client.get(f"/api/v1/games/{game_id}/map")
    assert reply.status == 200, reply.body
    board, schemas = reply.body, games.current("ticket_to_ride").move_schemas
    assert board["game_id"] == game_id and board["map"] == "usa"
    assert board["pack"] == store.records(game_id, upto=1)[0]["data"]["content"]
    assert {r["id"] for r in board["routes"]} == enum(schemas["claim_route"], "properties", "route")
    assert set(board["tickets"]) == enum(schemas["keep_tickets"], "properties", "keep", "items")
    assert {c for r in board["routes"] for c in (r["a"], r["b"])} == set(board["cities"])
    assert all({"x", "y"} <= set(place) for place in board["cities"].values())
    # The replay page draws this same geometry.
    drawn = client.get("/replay/maps/ticket_to_ride.json").body
    assert {k: v for k, v in board.items() if k not in ("game_id", "pack")} == drawn


def test_age_of_steam_map_names_the_hexes_and_cities_its_moves_name(client: Client) -> None:
    game_id = created(client, "age_of_steam", 3)
    board = client.get(f"/api/v1/games/{game_id}/map").body
    schemas = games.current("age_of_steam").move_schemas
    assert set(board["hexes"]) == enum(schemas["build"], "properties", "hex")
    assert set(board["cities"]) <= set(board["hexes"])
    names = {c["name"] for c in board["cities"].values()}
    assert names <= enum(schemas["deliver"], "properties", "city")
    assert len(board["edges"]) == 6


def test_a_game_without_a_board_and_an_unknown_game_are_refused(client: Client, store: Caboose) -> None:
    race, _ = Lobby(store).open_game("race", ["a", "b"], {"goal": 5})
    reply = client.get(f"/api/v1/games/{race}/map")
    assert reply.status == 404 and "race has no board geometry" in reply.body["detail"]
    missing = client.get("/api/v1/games/00000000-0000-4000-8000-000000000000/map")
    assert missing.status == 404 and missing.headers["content-type"].startswith("application/problem+json")


def test_the_map_is_in_the_openapi_document(client: Client) -> None:
    document = client.get("/api/v1/openapi.json").body
    operation = document["paths"]["/api/v1/games/{game_id}/map"]["get"]
    reference = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    shown = document["components"]["schemas"][reference.rsplit("/", 1)[1]]
    assert {"cities", "routes", "tickets", "hexes", "edges"} <= set(shown["properties"])
    assert "404" in operation["responses"]
