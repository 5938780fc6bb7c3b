"""Runs every numbered Railway Boom conformance case (`cases.py`): build the position, play
the move, compare the ruling."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.randomness import SeededRandom
from domain.railway_boom.content import EFFECT_TYPES
from tests.conformance.numbered import case_id, check_numbering, judge
from tests.unit.railway_boom.helpers import RULES, SEED, table

from .cases import CASES, Case


def test_the_cases_are_numbered_and_many() -> None:
    check_numbering(CASES)


def test_every_effect_type_has_a_case() -> None:
    cited = " ".join(case["rule"] for case in CASES)
    assert [kind for kind in EFFECT_TYPES if kind not in cited] == []


def _position(case: Case) -> Any:
    position = {k: v for k, v in case["position"].items() if v is not None}
    return table(position.pop("players", 3), **position)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    state = _position(case)
    assert RULES.invariants(state) == [], "the position itself is broken"
    judge(RULES, state, case, SeededRandom(SEED))
