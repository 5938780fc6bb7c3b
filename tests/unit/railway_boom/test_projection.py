"""The Railway Boom projector, folded over a played game: the board shows every station and
rail by owner, the VP tallies by source add up to the scores, the tracks follow the seats."""

from __future__ import annotations

from domain.railway_boom.content import RESOURCES, TRACKS
from tests import playouts
from tests.unit.railway_boom.helpers import RULES


def test_the_figures_follow_a_whole_game() -> None:
    game = playouts.play_out(RULES, "projection", 3, 3, steer=True)
    projector = RULES.figures
    state = RULES.initial_state(game.setup)
    for event in game.opening:
        state = RULES.evolve(state, event)
    figures = projector.start(RULES, state)
    for _, _, events in game.commands:
        for event in events:
            state = RULES.evolve(state, event)
            figures = projector.apply(figures, event, state) or figures
    assert {index: seat.vp for index, seat in enumerate(figures.seats)} == RULES.scores(state)
    for index, seat in enumerate(figures.seats):
        assert seat.by_source["trains"] > 0 and seat.by_source["goals"] >= 0 and seat.by_source["leftovers"] >= 0
        assert {r: seat.tracks[r] for r in RESOURCES} == dict(state.seats[index].resources)
    stations = {h: cell["station"] for h, cell in figures.board.items() if "station" in cell}
    rails = {h: tuple(cell["rails"]) for h, cell in figures.board.items() if "rails" in cell}
    assert stations == dict(state.stations) and len(stations) == 3 * 4
    assert rails == dict(state.rails) and rails


def test_the_income_is_what_the_income_phase_pays_on_the_five_tracks() -> None:
    game = playouts.play_out(RULES, "projection", 4, 2, steer=True)
    projector = RULES.figures
    state = RULES.initial_state(game.setup)
    for event in game.opening:
        state = RULES.evolve(state, event)
    figures = projector.start(RULES, state)
    paid_phases, incomes = 0, dict[int, int]()
    for _, _, events in game.commands:
        for event in events:
            before = figures
            state = RULES.evolve(state, event)
            figures = projector.apply(figures, event, state) or figures
            if event.kind == "PhaseStarted" and event.data["phase"] == "operation":
                # Just after the income phase: each seat gained exactly its charted income.
                paid_phases += 1
                for index, seat in enumerate(before.seats):
                    assert seat.income == incomes[index]
            if event.kind == "PhaseStarted" and event.data["phase"] == "income":
                incomes = {i: 0 for i in range(len(state.seats))}
            elif event.kind in ("ResourceGained", "VPScored") and event.data["source"] == "income":
                incomes[event.data["seat"]] += event.data["amount"]
    assert paid_phases == 4
    for index, seat in enumerate(figures.seats):
        levels = state.seats[index].income
        assert seat.income == sum(RULES.content.income[t][levels[t] - 1].plus for t in TRACKS)
        assert seat.income > 5, "income rose during the game"
