"""Runs every numbered Toot-Toot Train conformance case (`cases.py`): build the position,
play the move, compare the ruling."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import RuleError
from domain.core.randomness import SeededRandom
from tests import playouts
from tests.unit.toot_toot.helpers import RULES, SEED, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    numbers = [case["number"] for case in CASES]
    assert numbers == list(range(1, len(CASES) + 1))
    assert len(CASES) >= 30
    assert all(case["rule"] and case["title"] for case in CASES)


def _matches(data: dict[str, Any], subset: dict[str, Any]) -> bool:
    return all(key in data and data[key] == value for key, value in subset.items())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['number']:02d}-{c['title']}")
def test_case(case: Case) -> None:
    position = dict(case["position"])
    seats = position.pop("seats", 2)
    state = table(seats, **position)
    assert RULES.invariants(state) == [], "the case's position itself is broken"
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RuleError) as caught:
            RULES.decide(state, case["seat"], case["move"], SeededRandom(SEED))
        assert caught.value.code == expect["error"], caught.value.message
        for words in expect.get("says", ()):
            assert words in caught.value.message, f"the refusal {caught.value.message!r} does not say {words!r}"
        return
    events = RULES.decide(state, case["seat"], case["move"], SeededRandom(SEED))
    assert not events[0].automatic and RULES.move_of(events[0]) == case["move"]
    after = playouts.fold(RULES, state, events)
    assert RULES.invariants(after) == []
    at = 0
    for kind, subset in expect["events"]:
        for index in range(at, len(events)):
            if events[index].kind == kind and _matches(events[index].data, subset):
                at = index + 1
                break
        else:
            shown = [(e.kind, e.data) for e in events]
            raise AssertionError(f"no {kind} with {subset} after event {at}; events: {shown}")
    for kind in expect.get("absent", ()):
        assert kind not in [event.kind for event in events], f"{kind} should not happen"
    for name, value in expect.get("after", {}).items():
        assert getattr(after, name) == value, f"after the move {name} is {getattr(after, name)!r}, not {value!r}"
