"""Runs every numbered Age of Steam conformance case (`cases.py`): build the position, play
the move, compare the ruling."""

from __future__ import annotations

import pytest

from domain.core.randomness import Randomness, RecordedRandom, SeededRandom
from tests.conformance.numbered import case_id, check_numbering, judge
from tests.rust_belt import DECIDER
from tests.unit.age_of_steam.helpers import SEED, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    check_numbering(CASES, at_least=40)


def _rng(case: Case) -> Randomness:
    if "dice" in case:
        return RecordedRandom({"below": 6, "value": face - 1} for face in case["dice"])
    return SeededRandom(SEED)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    position = dict(case["position"])
    seats = position.pop("seats", 3)
    events, after = judge(DECIDER, table(seats, **position), case, _rng(case))
    # A refused move leaves nothing; an accepted one reaches a state through its events.
    assert (after is None) == ("error" in case["expect"]) and (events == []) == (after is None)
