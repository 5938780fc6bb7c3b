"""The state is plain frozen data: the snapshot codec round-trips it, and neither `evolve`
nor `decide` ever changes the state they are given."""

from __future__ import annotations

import copy
import random
import typing

from domain.core.codec import decode, encode
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import Seat, State

from .conftest import new_game


def test_type_hints_resolve() -> None:
    assert typing.get_type_hints(State)["seats"] == tuple[Seat, ...]
    assert set(typing.get_type_hints(Seat)) >= {"hand", "tickets", "score", "scored"}


def test_evolve_and_decide_never_change_their_input() -> None:
    state, _, rng = new_game(4)
    chooser = random.Random(7)
    steps = 0
    while not DECIDER.is_over(state) and steps < 150:
        seat = chooser.choice(sorted(DECIDER.active_seats(state)))
        move = chooser.choice(DECIDER.legal_moves(state, seat))
        before = copy.deepcopy(state)
        events = DECIDER.decide(state, seat, move, rng)
        assert state == before
        for event in events:
            before = copy.deepcopy(state)
            after = DECIDER.evolve(state, event)
            assert state == before, f"evolve changed its input on {event.kind}"
            assert after is not state
            state = after
        steps += 1
    assert steps == 150 or DECIDER.is_over(state)


def test_the_snapshot_codec_round_trips_the_state() -> None:
    state, _, rng = new_game(3)
    chooser = random.Random(3)
    for _ in range(60):
        if DECIDER.is_over(state):
            break
        seat = chooser.choice(sorted(DECIDER.active_seats(state)))
        for event in DECIDER.decide(state, seat, chooser.choice(DECIDER.legal_moves(state, seat)), rng):
            state = DECIDER.evolve(state, event)
        assert decode(State, encode(state)) == state
