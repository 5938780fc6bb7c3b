"""Runs every numbered Age of Steam conformance case (`cases.py`): build the position, play
the move, compare the ruling."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import RuleError
from domain.core.randomness import Randomness, RecordedRandom, SeededRandom
from tests.rust_belt import DECIDER
from tests.unit.age_of_steam.helpers import SEED, fold, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    numbers = [case["number"] for case in CASES]
    assert numbers == list(range(1, len(CASES) + 1))
    assert len(CASES) >= 40
    assert all(case["rule"] and case["title"] for case in CASES)


def _matches(data: dict[str, Any], subset: dict[str, Any]) -> bool:
    return all(key in data and data[key] == value for key, value in subset.items())


def _rng(case: Case) -> Randomness:
    if "dice" in case:
        return RecordedRandom({"below": 6, "value": face - 1} for face in case["dice"])
    return SeededRandom(SEED)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['number']:02d}-{c['title']}")
def test_case(case: Case) -> None:
    position = dict(case["position"])
    seats = position.pop("seats", 3)
    state = table(seats, **position)
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RuleError) as caught:
            DECIDER.decide(state, case["seat"], case["move"], _rng(case))
        assert caught.value.code == expect["error"], caught.value.message
        return
    events = DECIDER.decide(state, case["seat"], case["move"], _rng(case))
    assert not events[0].automatic and DECIDER.move_of(events[0]) is not None
    after = fold(state, events)
    assert DECIDER.invariants(after) == []
    position_in_events = 0
    for kind, subset in expect["events"]:
        for index in range(position_in_events, len(events)):
            if events[index].kind == kind and _matches(events[index].data, subset):
                position_in_events = index + 1
                break
        else:
            shown = [(e.kind, e.data) for e in events if e.kind == kind]
            raise AssertionError(f"no {kind} with {subset} after event {position_in_events}; {kind} events: {shown}")
    for kind in expect.get("absent", ()):
        assert kind not in [event.kind for event in events], f"{kind} should not happen"
