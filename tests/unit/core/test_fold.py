"""The one fold (`domain/core/fold.py`) and the decision a move hands over
(`Decider.decision`)."""

from __future__ import annotations

import pytest

from domain import games
from domain.core import fold, log
from domain.core.decider import Decision, Setup
from domain.core.events import Untyped
from domain.core.kinds import DisputeRaised, GameRewound, SeatJoined
from domain.core.randomness import SeededRandom
from tests.fakes.race import RACE

TTR = games.current("ticket_to_ride")


def test_the_default_decision_folds_what_decide_returns() -> None:
    state = RACE.initial_state(Setup(("a", "b"), RACE.options({"goal": 5}, 2)))
    rng = SeededRandom(bytes(32))
    for event in RACE.setup(state, rng):
        state = RACE.evolve(state, event)
    seat = min(RACE.active_seats(state))
    decision = RACE.decision(state, seat, {"type": "advance", "by": 2}, rng)
    assert decision.events and decision.states[0] is state
    after = state
    for event in decision.events:
        after = RACE.evolve(after, event)
    assert decision.state == after and after.counter == 2


def test_a_decision_has_one_state_more_than_events() -> None:
    with pytest.raises(ValueError, match="passes through 2 states, not 1"):
        Decision((Untyped("X", {}),), ("before",))


def test_play_reveals_the_seed_at_the_end_without_changing_the_state() -> None:
    state = RACE.initial_state(Setup(("a", "b"), RACE.options({"goal": 2}, 2)))
    setup_rng = SeededRandom(bytes(32))
    for event in RACE.setup(state, setup_rng):
        state = RACE.evolve(state, event)
    seat, move = min(RACE.active_seats(state)), {"type": "advance", "by": 2}
    decision = log.played(RACE, state, seat, move, SeededRandom(bytes(32), setup_rng.position), bytes(32))
    assert decision.events[-1].kind == log.SEED_REVEALED
    assert decision.states[-1] is decision.states[-2] and RACE.is_over(decision.state)
    events = log.play(RACE, state, seat, move, SeededRandom(bytes(32), setup_rng.position), bytes(32))
    assert events == list(decision.events)


def test_a_rewind_restores_the_earlier_state_under_the_names_joined_since() -> None:
    opened = TTR.initial_state(Setup(("Ann", "open seat 1"), TTR.options({}, 2)))
    joined = fold.step(TTR, opened, SeatJoined(seat=1, name="Bo"))
    rewind = GameRewound(to_version=1, reason="r", referee="Rita", dispute=None)
    back = fold.step(TTR, joined, rewind, lambda version: opened if version == 1 else None)
    assert [s.name for s in back.seats] == ["Ann", "Bo"]
    with pytest.raises(Exception, match="fold the record with History"):
        fold.step(TTR, joined, rewind)


def test_a_note_leaves_the_state_as_it_is() -> None:
    state = RACE.initial_state(Setup(("a", "b"), RACE.options({"goal": 5}, 2)))
    note = DisputeRaised(version=1, raised_by="a", claim="c", referee="Rita")
    assert fold.step(RACE, state, note) is state
