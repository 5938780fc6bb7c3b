"""Typed events: a kind's dataclass is its record's `data`, and the catalogue reads it back."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import pytest

from domain.core.catalogue import Catalogue
from domain.core.envelope import seal, to_event
from domain.core.errors import RecordError
from domain.core.events import Event, Secret, Untyped, means
from domain.core.state import FrozenDict


@dataclass(frozen=True, kw_only=True)
class RouteClaimed(Event):
    """A seat claimed a route, paying cards from its hand.

    The second paragraph is not part of the meaning."""

    seat: int
    route: str
    cards: dict[str, int]
    slot: int | None = None


CATALOGUE = Catalogue(RouteClaimed)


def test_a_kind_is_named_by_its_class_and_its_fields_are_the_data() -> None:
    event = RouteClaimed(seat=1, route="Denver|Omaha", cards={"red": 2})
    assert event.kind == "RouteClaimed"
    assert event.data == {"seat": 1, "route": "Denver|Omaha", "cards": {"red": 2}}  # slot None: absent


def test_an_event_is_immutable_in_fact() -> None:
    event = RouteClaimed(seat=1, route="r", cards={"red": 2})
    with pytest.raises(TypeError):
        event.cards["red"] = 5
    event.data["cards"]["red"] = 5  # `data` is a copy: changing it changes nothing
    assert event.cards == {"red": 2}


def test_a_record_reads_back_as_the_same_typed_event() -> None:
    event = RouteClaimed(seat=0, route="r", cards={"blue": 1}, slot=3, secrets=(Secret((0,), {"x": 1}),), automatic=True)
    record = seal(game_id="g", version=2, time="t", actor="seat:0", command_id=None, event=event,
                  prev_hash="0" * 64, new_salt=lambda: "00" * 16)
    assert to_event(record, CATALOGUE) == event
    assert isinstance(to_event(record), Untyped) and to_event(record).data == record["data"]


def test_an_unknown_kind_reads_as_untyped_and_a_bad_field_is_refused() -> None:
    assert CATALOGUE.event("Nope", {"a": 1}) == Untyped("Nope", {"a": 1})
    with pytest.raises(RecordError, match="RouteClaimed has no field colour"):
        CATALOGUE.event("RouteClaimed", {"seat": 0, "route": "r", "cards": {}, "colour": "red"})
    with pytest.raises(RecordError, match="RouteClaimed"):
        CATALOGUE.event("RouteClaimed", {"seat": 0})


def test_a_kinds_written_out_builder_gives_what_its_dataclass_gives_and_the_catalogue_still_copies() -> None:
    made = CATALOGUE.event("RouteClaimed", {"seat": 1, "route": "r", "cards": {"red": 2}}, [Secret((1,), 5)], True)
    assert made == RouteClaimed(seat=1, route="r", cards={"red": 2}, secrets=(Secret((1,), 5),), automatic=True)
    assert made.slot is None and type(made.cards) is FrozenDict and type(made.secrets) is tuple
    assert CATALOGUE.event("RouteClaimed", {"seat": 1, "route": "r", "cards": {}, "slot": 4}).slot == 4
    # As many keys as fields, one of them not a field's: refused, not built.
    with pytest.raises(RecordError, match="RouteClaimed has no field colour"):
        CATALOGUE.event("RouteClaimed", {"seat": 0, "route": "r", "colour": "red"})
    copied = pickle.loads(pickle.dumps(CATALOGUE))
    assert copied.event("RouteClaimed", {"seat": 1, "route": "r", "cards": {"red": 2}}, [Secret((1,), 5)], True) == made


def test_two_kinds_of_one_name_are_refused() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Other(Event):
        kind = "RouteClaimed"

    with pytest.raises(TypeError, match="two event kinds"):
        CATALOGUE + Catalogue(Other)


def test_the_schema_comes_from_the_dataclass() -> None:
    schema = CATALOGUE.schema("RouteClaimed")
    assert schema["description"] == "A seat claimed a route, paying cards from its hand."
    assert schema["required"] == ["seat", "route", "cards"]
    assert schema["properties"]["cards"] == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert schema["additionalProperties"] is False


def test_an_optional_field_publishes_its_type_without_null_and_a_keyed_field_its_record_key() -> None:
    assert CATALOGUE.schema("RouteClaimed")["properties"]["slot"] == {"type": "integer"}

    @dataclass(frozen=True, kw_only=True)
    class Moved(Event):
        """A piece moved."""

        origin: str = field(metadata=means("Where it came from.", key="from"))
        cited: int | None = None

    moved = Moved(origin="Denver")
    assert moved.data == {"from": "Denver"}
    assert Catalogue(Moved).event("Moved", {"from": "Denver"}) == moved
    schema = Catalogue(Moved).schema("Moved")
    assert schema["properties"]["from"] == {"type": "string", "description": "Where it came from."}
    assert schema["required"] == ["from"] and "origin" not in schema["properties"]
    with pytest.raises(RecordError, match="Moved has no field origin"):
        Catalogue(Moved).event("Moved", {"origin": "Denver"})
