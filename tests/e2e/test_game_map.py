"""`GET /api/v1/games/{id}/map`: the board of the game's own pack under the ids its moves
use (every id a move may name is on the map, and nothing else), documented in OpenAPI, and
the same geometry the replay page draws."""

from __future__ import annotations

from typing import Any

import jsonschema

from domain import games
from domain.age_of_steam.tiles import SEGMENTS, TILE_TYPES
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
    shown = operation["responses"]["200"]["content"]["application/json"]["schema"]
    mapping = shown["discriminator"]["mapping"]
    assert shown["discriminator"]["propertyName"] == "game"
    # Every game that declares a board, the toy game too: no list of games is kept here.
    assert set(mapping) == {"ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot", "pebbles"}
    assert sorted(one["$ref"] for one in shown["oneOf"]) == sorted(mapping.values())
    schemas = document["components"]["schemas"]
    ttr, steam = (schemas[mapping[game].rsplit("/", 1)[-1]] for game in ("ticket_to_ride", "age_of_steam"))
    assert {"cities", "routes", "tickets"} <= set(ttr["properties"])
    assert {"hexes", "edges", "cities", "tiles", "town_centre"} <= set(steam["properties"])
    # Each is the game's own JSON Schema, with the fields every board carries.
    assert ttr["properties"]["routes"] == games.current_rules("ticket_to_ride").board_schema["properties"]["routes"]
    assert {"game_id", "game", "pack", "names"} <= set(ttr["properties"]) and ttr["additionalProperties"] is False
    assert "404" in operation["responses"]


def documented(document: dict[str, Any], game: str) -> dict[str, Any]:
    """The game's board schema from the OpenAPI document, its references resolved against it."""
    mapping = document["paths"]["/api/v1/games/{game_id}/map"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]["discriminator"]["mapping"]
    return {"$ref": mapping[game], "components": document["components"]}


def test_every_board_answer_is_valid_in_its_documented_schema(client: Client) -> None:
    """What each game's board holds is documented field by field (no field sent that the
    document does not name: its schemas forbid others), so a client can draw it from the
    document alone; Railway Boom's and Toot-Toot Train's boards are sent whole."""
    document = client.get("/api/v1/openapi.json").body
    for game, seats in (("ticket_to_ride", 2), ("age_of_steam", 3), ("railway_boom", 3), ("toot_toot", 2)):
        reply = client.get(f"/api/v1/games/{created(client, game, seats)}/map")
        assert reply.status == 200, (game, reply.body)
        board = reply.body
        assert board["game"] == game
        jsonschema.validate(board, documented(document, game))
        assert {k: v for k, v in board.items() if k not in ("game_id", "pack")} == client.get(f"/replay/maps/{game}.json").body
    railway = games.current("railway_boom")
    assert set(board_of(client, "railway_boom", 3)["hexes"]) == enum(railway.move_schemas["lay_rail"], "properties", "hex")
    assert board_of(client, "toot_toot", 2)["maps"]


def board_of(client: Client, game: str, seats: int) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/v1/games/{created(client, game, seats)}/map").body
    return body


def test_age_of_steam_tiles_give_each_rotations_track_as_the_rules_read_it(client: Client) -> None:
    tiles = board_of(client, "age_of_steam", 3)["tiles"]
    assert set(tiles) == {t.name for t in TILE_TYPES} == enum(games.current("age_of_steam").move_schemas["build"],
                                                             "properties", "tile")
    for name, laid in tiles.items():
        for where, town in (("plain", False), ("town", True)):
            assert len(laid[where]) == 6
            for rotation, segments in enumerate(laid[where]):
                assert [tuple(s) for s in segments] == [tuple(s) for s in SEGMENTS[(name, rotation, town)]]
