"""Records leave the API as they were stored: documented by their schema, never re-dumped."""

from __future__ import annotations

from pathlib import Path

from service.api import create_app
from service.api.schemas import EventsSchema
from service.application import Caboose
from service.settings import Settings


def test_a_record_goes_out_as_the_very_object_stored() -> None:
    record = {"game_id": "g", "version": 3, "time": "t", "actor": "seat:0", "command_id": None, "kind": "CardDrawn",
              "data": {"source": "deck", "nested": {"kept": [1, 2]}}, "secrets": [], "prev_hash": "a", "hash": "b",
              "a_field_the_schema_does_not_name": True}
    dumped = EventsSchema().dump({"game_id": "g", "version": 3, "events": [record]})
    assert dumped["events"][0] is record


def test_the_openapi_document_still_describes_each_record(tmp_path: Path) -> None:
    spec = create_app(Caboose(Settings(db=f"sqlite:///{tmp_path}/docs.sqlite"))).test_client().get("/api/v1/openapi.json").get_json()
    events = spec["components"]["schemas"]["Events"]["properties"]["events"]
    assert events["items"] == {"$ref": "#/components/schemas/Record"}
    assert {"version", "kind", "data", "secrets", "prev_hash", "hash"} <= set(spec["components"]["schemas"]["Record"]["properties"])
