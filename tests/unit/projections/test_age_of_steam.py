"""Age of Steam's projection handler, pure: figures start from the state, follow placements
and seat changes, ignore events that touch neither, and are never changed in place."""

from __future__ import annotations

import random

from domain.age_of_steam.events import TurnEnded
from domain.age_of_steam.figures import AgeOfSteamProjector, board
from domain.age_of_steam.income import IncomeCollected
from domain.age_of_steam.scoring import sources
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from projections.handlers import projector_for
from tests.rust_belt import DECIDER as AOS
from tests.rust_belt import MAP


def test_figures_follow_a_game_event_by_event_and_equal_the_rules() -> None:
    projector = projector_for(AOS)
    assert isinstance(projector, AgeOfSteamProjector)
    state = AOS.initial_state(Setup(("a", "b", "c"), AOS.options({}, 3)))
    figures = projector.start(AOS, state)
    assert figures.board == {} and [s.vp for s in figures.seats] == [0, 0, 0]
    rng = SeededRandom(bytes(range(32)))
    chooser = random.Random(1)
    events = list(AOS.setup(state, rng))
    built = 0
    while not AOS.is_over(state) and built < 6:
        if not events:
            seat = chooser.choice(sorted(AOS.active_seats(state)))
            move = AOS.playout_choice(state, seat, AOS.legal_moves(state, seat), chooser)
            events = list(AOS.decide(state, seat, move, rng))
        event = events.pop(0)
        state = AOS.evolve(state, event)
        before = figures
        kinds = projector.kinds()
        after = projector.apply(figures, event, state) if kinds is None or event.kind in kinds else None
        figures = after or figures
        built += event.kind == "TrackBuilt"
        assert figures.board == board(state)
        assert [dict(s.by_source) for s in figures.seats] == [sources(MAP, state, i) for i in range(3)]
        assert [s.vp for s in figures.seats] == [AOS.scores(state)[i] for i in range(3)]
        assert [s.income for s in figures.seats] == [seat.income for seat in state.seats]
        assert [s.tracks["cash"] for s in figures.seats] == [seat.cash for seat in state.seats]
        if after is not None:
            assert after is not before
    assert built == 6 and figures.board


def test_events_that_change_no_figure_give_none() -> None:
    projector = AgeOfSteamProjector(MAP)
    state = AOS.initial_state(Setup(("a", "b", "c"), AOS.options({}, 3)))
    figures = projector.start(AOS, state)
    assert projector.apply(figures, TurnEnded(turn=1), state) is None
    assert projector.apply(figures, IncomeCollected(seat=0, amount=0), state) is None
