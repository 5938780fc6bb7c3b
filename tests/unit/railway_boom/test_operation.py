"""The operation plans the legal moves offer (docs/rules/railway_boom.md, "How the engine
applies these rulings"): every one is accepted, and every locomotive and every car of the
seat appears in one, at every operation of a whole game."""

from __future__ import annotations

from domain.core.randomness import SeededRandom
from tests import playouts
from tests.unit.railway_boom.helpers import RULES


def test_every_offered_plan_is_accepted_and_every_card_is_offered_a_run() -> None:
    game = playouts.play_out(RULES, "operation", 2, 4, steer=True)
    state = playouts.fold(RULES, RULES.initial_state(game.setup), game.opening)
    checked = 0
    for seat, _, events in game.commands:
        if state.phase == "operation" and seat not in state.sealed.choices:
            me = state.seats[seat]
            plans = RULES.legal_moves(state, seat)
            assert len({repr(p) for p in plans}) == len(plans), "no plan offered twice"
            locomotives = [c for c in me.trains if RULES.content.trains[c].kind != "car"]
            cars = [c for c in me.trains if RULES.content.trains[c].kind == "car"]
            offered = {tuple(train) for plan in plans for train in plan["runs"]}
            coal = me.resources["coal"]
            for loco in locomotives:
                if RULES.content.trains[loco].coal <= coal:
                    assert (loco,) in offered
                for car in cars:
                    if sum(RULES.content.trains[c].coal for c in (loco, car)) <= coal:
                        assert (loco, car) in offered
            for plan in plans:
                assert RULES.decide(state, seat, plan, SeededRandom(bytes(32)))
                checked += 1
        state = playouts.fold(RULES, state, events)
    assert checked > 4 * 4 * 3, "every seat had plans to choose from every round"
