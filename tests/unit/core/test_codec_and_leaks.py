from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from domain.core.codec import decode, encode
from domain.core.leaks import leaks


@dataclass(frozen=True)
class Inner:
    hand: dict[str, int]
    tickets: frozenset[str]


@dataclass(frozen=True)
class Outer:
    seats: tuple[Inner, ...]
    owners: dict[int, str]
    pair: tuple[int, str]
    last: int | None = None


def test_codec_round_trips_tuples_int_keys_frozensets_and_nesting() -> None:
    value = Outer((Inner({"red": 2}, frozenset({"A|B", "C|D"})),), {3: "x"}, (1, "y"), None)
    data = encode(value)
    assert data["owners"] == {"3": "x"}
    assert decode(Outer, data) == value


@dataclass(frozen=True)
class Building:
    seat: int
    placed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bidding:
    bids: dict[int, int]
    seat: int


@dataclass(frozen=True)
class Phase:
    step: Building | Bidding | None
    steps: tuple[Building | Bidding, ...] = ()
    mark: int | str = 0


def test_codec_decodes_a_union_of_dataclasses_as_the_member_the_data_fits() -> None:
    value = Phase(Bidding({2: 5}, 1), (Building(0, ("a", "b")), Bidding({}, 2), Building(1)), "x")
    back = decode(Phase, json.loads(json.dumps(encode(value))))
    assert back == value
    assert type(back.step) is Bidding and back.step.bids == {2: 5}
    assert [type(s) for s in back.steps] == [Building, Bidding, Building]
    assert decode(Phase, {"step": None}) == Phase(None)


@dataclass(frozen=True)
class Twin:
    seat: int
    placed: tuple[str, ...] = ()


def test_codec_refuses_to_guess_between_dataclasses_with_the_same_fields() -> None:
    with pytest.raises(TypeError, match="cannot tell which of Building, Twin"):
        decode(Building | Twin, {"seat": 1})


def test_leaks_finds_another_seats_private_part() -> None:
    public = {"seats": [{"cards": 2}, {"cards": 3}]}
    views = {0: {"seats": [{"cards": 2, "hand": ["red", "red"]}, {"cards": 3}]},
             1: {"seats": [{"cards": 2}, {"cards": 3, "hand": ["blue"] * 3}]}}
    assert leaks(public, views) == []
    views[1]["seats"][0]["hand"] = ["red", "red"]
    assert leaks(public, views) == ["seat 1's view shows seats/0/hand, which is hidden from the public"]
    views[1]["seats"][0].pop("hand")
    views[0]["deck"] = [1]
    assert leaks(public, views) == ["seat 0's view shows deck, which is hidden from the public"]
