"""The published move schemas and the parser come from one declaration per move type: every
legal move of seeded random playouts validates against the schema a live server publishes,
and every shape the schema refuses is refused over HTTP with 400 naming the field (and by the
CLI alike), with nothing stored."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from cli.main import cli
from domain import games
from tests import playouts
from tests.e2e.conftest import Client

GAMES = ("ticket_to_ride", "age_of_steam", "railway_boom")
MOVES = "/api/v1/games/{game_id}/moves"


def published(client: Client) -> dict[str, Any]:
    reply = client.get("/api/v1/openapi.json")
    assert reply.status == 200
    return reply.body  # type: ignore[no-any-return]


def validator(document: dict[str, Any], component: str) -> jsonschema.protocols.Validator:
    """A draft 2020-12 validator of one component of the OpenAPI document, its references
    resolved within the document (OpenAPI's `nullable` and `discriminator` are annotations)."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("index", range(2))
def test_every_legal_move_of_random_playouts_fits_the_published_schema(client: Client, name: str, index: int) -> None:
    document = published(client)
    body, own = validator(document, "Move"), validator(document, f"{name}.move")
    decider = games.current(name)
    seats = decider.min_seats + index
    state, _, rng = playouts.set_up(decider, seats, playouts.seed_of(f"schemas {name}", index))
    chooser, checked, types = random.Random(index), 0, set()
    seen: set[str] = set()
    while decider.active_seats(state):
        for seat in sorted(decider.active_seats(state)):
            for move in decider.legal_moves(state, seat):
                # A body the validators judged already is judged the same again: each once.
                key = json.dumps([seat, move], sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                # As GET …/legal-moves lists it: a complete body, with its seat.
                for error in body.iter_errors({"seat": seat, **move}):
                    pytest.fail(f"{name}: legal move {move} does not fit the published body: {error.message}")
                own.validate(move)
                types.add(move["type"])
                checked += 1
        seat = chooser.choice(sorted(decider.active_seats(state)))
        events = decider.decide(state, seat, chooser.choice(decider.legal_moves(state, seat)), rng)
        state = playouts.fold(decider, state, events)
    assert decider.is_over(state) and checked > 100
    assert types <= set(decider.move_schemas) and len(types) >= 4, types


def test_the_published_schema_refuses_what_the_parser_refuses(client: Client) -> None:
    """The validator above can fail: shapes the parser refuses do not fit the schema."""
    body = validator(published(client), "Move")
    for move in ({"type": "claim_route", "route": "Denver|Omaha", "cards": {"red": 0}},
                 {"type": "draw_card", "source": "deck", "slot": 1}, {"type": "draw_card", "source": "market"},
                 {"type": "bid", "amount": 3, "colour": "red"}, {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 6},
                 {"type": "fly"}):
        assert not body.is_valid(move), move
    assert body.is_valid({"type": "draw_card", "source": "market", "slot": 0, "seat": 1})


def test_the_moves_endpoint_documents_each_games_moves_headers_and_token(client: Client) -> None:
    document = published(client)
    operation = document["paths"][MOVES]["post"]
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Move"}
    schemas = document["components"]["schemas"]
    # (The test suite registers a fake game too, which publishes no move schemas.)
    publishing = [name for name in games.names() if games.current(name).move_schemas]
    assert set(GAMES) <= set(publishing)
    assert {one["$ref"] for one in schemas["Move"]["oneOf"]} == {f"#/components/schemas/{name}.move" for name in publishing}
    for name in publishing:
        per_game = schemas[f"{name}.move"]
        assert per_game["discriminator"]["propertyName"] == "type"
        assert set(per_game["discriminator"]["mapping"]) == set(games.current(name).move_schemas)
        for move_type, ref in per_game["discriminator"]["mapping"].items():
            assert schemas[ref.rsplit("/", 1)[1]]["properties"]["type"]["enum"] == [move_type]
    assert {"keep_tickets", "draw_card", "claim_route"} <= set(schemas["ticket_to_ride.move"]["discriminator"]["mapping"])
    assert {"bid", "build", "deliver"} <= set(schemas["age_of_steam.move"]["discriminator"]["mapping"])
    headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
    assert set(headers) == {"If-Match", "Idempotency-Key"} and not any(p["required"] for p in headers.values())
    assert operation["security"] == [{"bearer": []}]
    assert document["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}


def opened(client: Client, name: str) -> tuple[str, str, str]:
    """A new game's moves URL, the token of a seat that may move now, and the referee's token."""
    created = client.post("/api/v1/games", {"game": name, "players": ["ann", "bob", "cy"], "seed": "5a" * 32}).body
    seat = client.get(f"/api/v1/games/{created['game_id']}").body["active_seats"][0]
    return MOVES.format(game_id=created["game_id"]), created["seat_tokens"][str(seat)], created["referee_token"]


REFUSED = [
    # game, body, code, field (named in the answer), what is wrong
    ("ticket_to_ride", {"type": "keep_tickets"}, "missing_field", "keep"),
    ("ticket_to_ride", {"type": "keep_tickets", "keep": "Denver|El Paso"}, "bad_field", "keep"),
    ("ticket_to_ride", {"type": "keep_tickets", "keep": [3]}, "bad_field", "keep[0]"),
    ("ticket_to_ride", {"type": "keep_tickets", "keep": ["Denver|El Paso"], "now": True}, "unexpected_field", "now"),
    ("ticket_to_ride", {"type": "claim_route", "route": "Denver|Omaha", "cards": {"red": 0}}, "bad_field", "cards.red"),
    ("ticket_to_ride", {"type": "claim_route", "route": "Denver|Omaha", "cards": {"red": "3"}}, "bad_field", "cards.red"),
    ("ticket_to_ride", {"type": "draw_card", "source": "market", "slot": 9}, "bad_field", "slot"),
    ("ticket_to_ride", {"type": "fly"}, "unknown_move_type", "type"),
    ("age_of_steam", {"type": "issue_shares"}, "missing_field", "count"),
    ("age_of_steam", {"type": "issue_shares", "count": "two"}, "bad_field", "count"),
    ("age_of_steam", {"type": "issue_shares", "count": 1, "price": 5}, "unexpected_field", "price"),
    ("age_of_steam", {"type": "build", "hex": "7,6", "tile": "straight", "rotation": 6}, "bad_field", "rotation"),
    ("age_of_steam", {"type": "teleport"}, "unknown_move_type", "type"),
]


@pytest.mark.parametrize(("name", "move", "code", "field"), REFUSED)
def test_a_refused_shape_gets_400_naming_the_field_and_stores_nothing(
    client: Client, name: str, move: dict[str, Any], code: str, field: str,
) -> None:
    moves, token, referee = opened(client, name)
    events = moves.replace("/moves", "/events")
    before = client.get(events, token=referee).body
    reply = client.post(moves, move, token=token)
    assert reply.status == 400, reply.body
    assert reply.headers["content-type"] == "application/problem+json"
    assert (reply.body["code"], reply.body["field"]) == (code, field), reply.body
    assert f'"{field}"' in reply.body["detail"] or code == "unknown_move_type", reply.body["detail"]
    assert reply.body["path"] == "/" + field.replace("[", "/").replace("]", "").replace(".", "/")
    assert client.get(events, token=referee).body == before


def test_the_cli_refuses_an_unknown_field_as_the_api_does(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    runner = CliRunner()
    made = runner.invoke(cli, ["new", "ticket_to_ride", "--player", "ann", "--player", "bob", "--seed", "5a" * 32, "--db", db])
    game_id = made.output.splitlines()[0]
    def version() -> int:
        return int(json.loads(runner.invoke(cli, ["state", game_id, "--db", db, "--json"]).output)["version"])

    before = version()
    move = json.dumps({"type": "keep_tickets", "keep": [], "now": True})
    refused = runner.invoke(cli, ["move", game_id, move, "--seat", "0", "--db", db])
    assert refused.exit_code != 0 and "unexpected_field" in refused.output and '"now"' in refused.output, refused.output
    assert version() == before
