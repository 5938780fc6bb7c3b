"""Runs every numbered Railway Boom conformance case (`cases.py`): build the position, play
the move, compare the ruling."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import RuleError
from domain.railway_boom.content import EFFECT_TYPES
from tests.unit.railway_boom.helpers import RULES, decide, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    numbers = [case["number"] for case in CASES]
    assert numbers == list(range(1, len(CASES) + 1))
    assert len(CASES) >= 30
    assert all(case["rule"] and case["title"] for case in CASES)


def test_every_effect_type_has_a_case() -> None:
    cited = " ".join(case["rule"] for case in CASES)
    assert [kind for kind in EFFECT_TYPES if kind not in cited] == []


def _matches(data: dict[str, Any], subset: dict[str, Any]) -> bool:
    return all(key in data and data[key] == value for key, value in subset.items())


def _position(case: Case) -> Any:
    position = {k: v for k, v in case["position"].items() if v is not None}
    return table(position.pop("players", 3), **position)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['number']:02d}-{c['title']}")
def test_case(case: Case) -> None:
    state = _position(case)
    assert RULES.invariants(state) == [], "the position itself is broken"
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RuleError) as caught:
            decide(state, case["seat"], case["move"])
        assert caught.value.code == expect["error"], caught.value.message
        return
    events, after = decide(state, case["seat"], case["move"])
    assert not events[0].automatic and RULES.move_of(events[0]) is not None
    assert RULES.invariants(after) == []
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
