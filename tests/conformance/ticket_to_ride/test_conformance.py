"""Runs every numbered Ticket to Ride conformance case (`cases.py`): build the position, play
the move, compare the ruling."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import RuleError
from domain.core.events import REFEREE, Event
from domain.core.randomness import SeededRandom
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import State
from tests.unit.ticket_to_ride.conftest import SEED, fold, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    numbers = [case["number"] for case in CASES]
    assert numbers == list(range(1, len(CASES) + 1))
    assert len(CASES) >= 30
    assert all(case["rule"] and case["title"] for case in CASES)


def test_every_ruling_of_the_rules_page_has_a_case() -> None:
    cited = " ".join(case["rule"] for case in CASES)
    for ruling in range(1, 6):
        assert f"Ruling {ruling}" in cited or f"ruling {ruling}" in cited, f"no case cites ruling {ruling}"


def position(case: Case) -> State:
    spec = dict(case["position"])
    state = table(spec.pop("seats", 2), **spec)
    assert DECIDER.invariants(state) == [], "the position itself breaks an invariant"
    for seat, move in case.get("before", ()):
        state = fold(state, DECIDER.decide(state, seat, move, SeededRandom(SEED)))
    return state


def _matches(value: dict[str, Any], subset: dict[str, Any]) -> bool:
    return all(key in value and value[key] == expected for key, expected in subset.items())


def _found(event: Event, kind: str, data: dict[str, Any], secret: dict[str, Any] | None) -> bool:
    if event.kind != kind or not _matches(event.data, data):
        return False
    return secret is None or (bool(event.secrets) and _matches(event.secret(), secret))


def _in_order(events: list[Event], expected: list[list[Any]]) -> None:
    at = 0
    for kind, data, *secret in expected:
        for index in range(at, len(events)):
            if _found(events[index], kind, data, secret[0] if secret else None):
                at = index + 1
                break
        else:
            shown = [(e.kind, e.data, [s.value for s in e.secrets]) for e in events if e.kind == kind]
            raise AssertionError(f"no {kind} with {data} {secret or ''} after event {at}; {kind} events: {shown}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['number']:02d}-{c['title']}")
def test_case(case: Case) -> None:
    state = position(case)
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RuleError) as caught:
            DECIDER.decide(state, case["seat"], case["move"], SeededRandom(SEED))
        assert caught.value.code == expect["error"], caught.value.message
        return
    events = DECIDER.decide(state, case["seat"], case["move"], SeededRandom(SEED))
    assert not events[0].automatic and DECIDER.move_of(events[0]) is not None
    after = fold(state, events)
    assert DECIDER.invariants(after) == []
    _in_order(events, expect["events"])
    for kind in expect.get("absent", ()):
        assert kind not in [event.kind for event in events], f"{kind} should not happen"
    for kind, data in expect.get("public", ()):
        assert all(e.data == data for e in events if e.kind == kind), f"{kind} shows more than {data}"
    view = DECIDER.view(after, REFEREE)
    assert _matches(view, expect.get("view", {})), {key: view.get(key) for key in expect.get("view", {})}
