"""The one way a numbered conformance case (`tests/conformance/<game>/cases.py`) is judged:
the cases are numbered without gaps and cite a rule, and a case's move is refused with the
expected code or causes the expected events, in order, through the game's own decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from domain.core.decider import Decider
from domain.core.errors import RuleError
from domain.core.events import Event
from domain.core.randomness import Randomness


def check_numbering(cases: Sequence[Mapping[str, Any]], at_least: int = 30) -> None:
    numbers = [case["number"] for case in cases]
    assert numbers == list(range(1, len(cases) + 1))
    assert len(cases) >= at_least
    assert all(case["rule"] and case["title"] for case in cases)


def case_id(case: Mapping[str, Any]) -> str:
    return f"{case['number']:02d}-{case['title']}"


def matches(value: Mapping[str, Any], subset: Mapping[str, Any]) -> bool:
    return all(key in value and value[key] == expected for key, expected in subset.items())


def judge(rules: Decider[Any], state: Any, case: Mapping[str, Any], rng: Randomness) -> tuple[list[Event], Any]:
    """Play the case's move on `state` and compare the ruling with `case["expect"]`:
    `error` (and the words the refusal `says`), or `events` in order (each `[kind, data]`,
    or `[kind, data, secret]`) and the kinds `absent`. Returns the events and the state
    after them ((), None for a refusal) for a game's own further checks."""
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RuleError) as caught:
            rules.decide(state, case["seat"], case["move"], rng)
        assert caught.value.code == expect["error"], caught.value.message
        for words in expect.get("says", ()):
            assert words in caught.value.message, f"the refusal {caught.value.message!r} does not say {words!r}"
        return [], None
    decision = rules.decision(state, case["seat"], case["move"], rng)
    events, after = list(decision.events), decision.state
    assert not events[0].automatic and rules.move_of(events[0]) is not None
    assert rules.invariants(after) == []
    _in_order(events, expect["events"])
    for kind in expect.get("absent", ()):
        assert kind not in [event.kind for event in events], f"{kind} should not happen"
    return events, after


def _found(event: Event, kind: str, data: Mapping[str, Any], secret: Mapping[str, Any] | None) -> bool:
    if event.kind != kind or not matches(event.data, data):
        return False
    return secret is None or (bool(event.secrets) and matches(event.secret(), secret))


def _in_order(events: list[Event], expected: Sequence[Sequence[Any]]) -> None:
    at = 0
    for kind, data, *secret in expected:
        for index in range(at, len(events)):
            if _found(events[index], kind, data, secret[0] if secret else None):
                at = index + 1
                break
        else:
            shown = [(e.kind, e.data, [s.value for s in e.secrets]) for e in events if e.kind == kind]
            raise AssertionError(f"no {kind} with {data} {secret or ''} after event {at}; {kind} events: {shown}")
