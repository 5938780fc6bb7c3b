"""The rules laid out by mechanism: every kind the game declares has one `evolve` handler, from
the mechanism that declares it, and any other kind is refused; a move's `decision` hands over
the states its events passed through (`steps.py`), which are those a fold reaches."""

from __future__ import annotations

import pytest

from domain.core.catalogue import UnknownKind
from domain.core.events import Untyped
from domain.core.kinds import SeatJoined
from domain.core.randomness import SeededRandom
from domain.toot_toot import evolve
from domain.toot_toot.catalogue import EVENTS
from domain.toot_toot.events import TurnEnded
from tests import playouts

from .helpers import RULES, table


def test_evolve_has_one_handler_per_declared_kind_and_refuses_any_other() -> None:
    assert set(evolve._APPLY) == set(EVENTS)
    assert len(EVENTS) == len(set(EVENTS)) == 34
    state = table(2)
    for stranger in (Untyped("TurnEnded", {"seat": 0}), SeatJoined(seat=1, name="Bo")):
        with pytest.raises(UnknownKind, match=f"no event kind '{stranger.kind}'"):
            RULES.evolve(state, stranger)
    assert RULES.evolve(state, TurnEnded(seat=0)).current == 1


def test_each_decision_hands_over_the_states_its_events_passed_through() -> None:
    game = playouts.play_out(RULES, "decisions", 0, 3, check=False, steer=True)
    rng = SeededRandom(game.seed)
    start = RULES.initial_state(game.setup)
    assert RULES.setup(start, rng) == game.opening  # the opening's draws, so the moves' come out as they did
    state = playouts.fold(RULES, start, game.opening)
    for seat, move, events in game.commands:
        decision = RULES.decision(state, seat, move, rng)
        assert list(decision.events) == list(events)
        folded = [state]
        for event in events:
            folded.append(RULES.evolve(folded[-1], event))
        assert list(decision.states) == folded
        state = folded[-1]
