"""Runs every numbered Ticket to Ride conformance case (`cases.py`): build the position, play
the move, compare the ruling."""

from __future__ import annotations

import pytest

from domain.core.events import REFEREE
from domain.core.randomness import SeededRandom
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import State
from tests.conformance.numbered import case_id, check_numbering, judge, matches
from tests.unit.ticket_to_ride.conftest import SEED, fold, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    check_numbering(CASES)


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


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    state = position(case)
    events, after = judge(DECIDER, state, case, SeededRandom(SEED))
    if after is None:
        return
    expect = case["expect"]
    for kind, data in expect.get("public", ()):
        assert all(e.data == data for e in events if e.kind == kind), f"{kind} shows more than {data}"
    view = DECIDER.view(after, REFEREE)
    assert matches(view, expect.get("view", {})), {key: view.get(key) for key in expect.get("view", {})}
