"""Age of Steam's typed events: records read back as their kinds, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.age_of_steam.build_track import TrackBuilt
from domain.age_of_steam.catalogue import EVENTS
from domain.age_of_steam.evolve import evolve
from domain.age_of_steam.move_goods import GoodsDelivered
from domain.core.catalogue import UnknownKind, meaning_of
from domain.core.events import Untyped
from tests import playouts
from tests.rust_belt import DECIDER

from .helpers import table

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"


def _stored() -> list[dict[str, object]]:
    out = []
    for path in sorted(RECORDS.glob("age_of_steam_*.jsonl")):
        out += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return out


def test_every_stored_event_reads_back_as_its_kind_with_the_same_data() -> None:
    stored = [record for record in _stored() if record["kind"] in EVENTS]
    assert {record["kind"] for record in stored} >= {"TrackBuilt", "GoodsDelivered", "AuctionSettled", "GameEnded"}
    for record in stored:
        event = DECIDER.catalogue.event(record["kind"], record["data"])  # type: ignore[arg-type]
        assert type(event) is EVENTS.kinds[record["kind"]]  # type: ignore[index]
        assert json.dumps(event.data) == json.dumps(record["data"]), record["kind"]


def test_keys_python_cannot_name_are_kept_in_the_record() -> None:
    built = TrackBuilt(seat=0, hex="7,6", place="hex 7,6", tile="straight", rotation=0, cost=2, placement="new",
                       owners=(0,), disc=False, disc_delta=0, returned=None, taken=())
    assert built.kind == "TrackBuilt" and built.data["kind"] == "new" and built.data["returned"] is None
    assert "placement" not in built.data and "kind" in EVENTS.schema("TrackBuilt")["required"]
    delivered = EVENTS.event("GoodsDelivered", {"seat": 0, "round": 1, "cube": "red", "from": "9,9", "to": "8,8",
                                                 "stops": [], "places": [], "links": [], "owners": [], "income": {}})
    assert isinstance(delivered, GoodsDelivered) and delivered.source == "9,9" and delivered.data["from"] == "9,9"


def test_every_kind_publishes_a_meaning() -> None:
    assert len(EVENTS) == 35
    for kind in EVENTS:
        assert meaning_of(kind), kind.kind


@pytest.mark.parametrize("event", [Untyped("TrackBuilt", {}), Untyped("TrackBiult", {}), Untyped("GameCreated", {})])
def test_evolve_refuses_a_kind_it_does_not_declare(event: Untyped) -> None:
    with pytest.raises(UnknownKind, match=event.kind):
        evolve(DECIDER.map, table(), event)


def test_every_event_of_a_game_reads_back_from_its_record_as_itself() -> None:
    game = playouts.play_out(DECIDER, "age-of-steam-events", 1, 4, check=False, steer=True)
    emitted = [*game.opening, *(event for _, _, events in game.commands for event in events)]
    assert {event.kind for event in emitted} >= {"BidPlaced", "AuctionSettled", "TrackBuilt", "GoodsDelivered", "GameEnded"}
    for event in emitted:
        assert type(event) is EVENTS.kinds[event.kind]
        stored = json.loads(json.dumps(event.data))
        assert DECIDER.catalogue.event(event.kind, stored, event.secrets, event.automatic) == event, event.kind
