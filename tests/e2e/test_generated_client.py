"""The OpenAPI document is enough to write a client: a client generated from it by
`openapi-python-client` plays a whole Ticket to Ride game on a map pack that is not the USA
(`tests/support/small_map.py`), against `caboose serve` as the README starts it. The document
names no pack's routes or tickets as enumerations, types each legal move as the move body it
is, declares the content types of the audit and the export, and names every operation."""

from __future__ import annotations

from pathlib import Path

from domain import games
from service.api import create_app
from service.application import Caboose
from service.settings import Settings
from tests.support.generated_client import generate, play
from tests.support.served import Served
from tests.support.small_map import PACK, write_pack


def test_the_document_holds_for_every_pack_and_names_every_operation() -> None:
    document = create_app(Caboose(Settings(db="memory"))).test_client().get("/api/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    claim, keep = schemas["ticket_to_ride.claim_route"]["properties"], schemas["ticket_to_ride.keep_tickets"]["properties"]
    assert "enum" not in claim["route"] and claim["route"]["example"] == "Atlanta|Charleston"
    assert "enum" not in keep["keep"]["items"] and "properties" not in claim["cards"]
    assert claim["cards"]["additionalProperties"]["type"] == "integer"
    assert schemas["LegalMoves"]["properties"]["moves"]["items"] == {"$ref": "#/components/schemas/Move"}
    operations = [op for path in document["paths"].values() for method, op in path.items() if method != "parameters"]
    ids = [op.get("operationId") for op in operations]
    assert None not in ids and len(set(ids)) == len(ids)
    audit = document["paths"]["/api/v1/games/{game_id}/audit"]["get"]["responses"]["200"]["content"]
    assert audit["application/json"]["schema"] == {"$ref": "#/components/schemas/AuditReport"} and "text/plain" in audit
    export = document["paths"]["/api/v1/games/{game_id}/export"]["get"]["responses"]["200"]["content"]
    assert set(export) == {"application/x-ndjson", "text/plain"}
    assert "waiting_for" in schemas["State"]["properties"]
    # Every game's state is typed: each publishes its view's schema.
    for rules in games.GAMES:
        assert {"$ref": f"#/components/schemas/{rules.name}.view"} in schemas["State"]["properties"]["state"]["anyOf"], rules.name
        assert schemas[f"{rules.name}.view"]["properties"]["seats"]["type"] == "array", rules.name


def test_a_generated_client_plays_a_whole_game_on_a_map_that_is_not_the_usa(tmp_path: Path) -> None:
    packs = tmp_path / "packs"
    write_pack(packs)
    with Served(tmp_path, env={"CABOOSE_CONTENT_PATH": str(packs)}) as served:
        package = generate(served.base, tmp_path)
        played = play(package, served.base, PACK)
    assert played["status"] == "finished", played
    assert played["claimed"] and set(played["claimed"]) <= set(played["routes"]), played
    assert "Birch|Dunmore#1" in played["routes"] and not any("Atlanta" in route for route in played["routes"])
