from __future__ import annotations

from dataclasses import dataclass

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
