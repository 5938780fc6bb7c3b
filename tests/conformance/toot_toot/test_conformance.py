"""Runs every numbered Toot-Toot Train conformance case (`cases.py`): build the position,
play the move under the current ruleset (or ruleset 1 where the case says so), compare the
ruling."""

from __future__ import annotations

import pytest

from domain.core.randomness import SeededRandom
from tests.conformance.numbered import case_id, check_numbering, judge
from tests.unit.toot_toot.helpers import RULES, RULES_1, SEED, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    check_numbering(CASES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    position = dict(case["position"])
    seats = position.pop("seats", 2)
    state = table(seats, **position)
    # A case marked ruleset "1" shows what records made before ruleset 2 keep doing.
    rules = RULES_1 if case.get("ruleset") == "1" else RULES
    assert rules.invariants(state) == [], "the case's position itself is broken"
    events, after = judge(rules, state, case, SeededRandom(SEED))
    if after is None:
        return
    assert rules.move_of(events[0]) == case["move"]
    for name, value in case["expect"].get("after", {}).items():
        assert getattr(after, name) == value, f"after the move {name} is {getattr(after, name)!r}, not {value!r}"
