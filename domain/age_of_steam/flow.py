"""The order of play: the opening, the turn's phases one after the other, and the end of a turn
(`docs/rules/age_of_steam.md`, "A turn: ten phases"). What happens within a phase is its
mechanism's (`shares`, `auction`, `actions`, `build_track`, `move_goods`, `income`,
`growth`, `scoring`); this module only says
what comes next. Each function emits through `Steps`, so it reads the state its own earlier
events made."""

from __future__ import annotations

from domain.age_of_steam import build_track, growth, income
from domain.age_of_steam.events import (
    CityCubeDrawn,
    DisplayCubeDrawn,
    OrderDieRolled,
    PhaseBegan,
    PlayerOrderSet,
    StartingCapitalTaken,
    TurnBegan,
    TurnEnded,
    outcome,
)
from domain.age_of_steam.goods import draw
from domain.age_of_steam.scoring import final_scoring
from domain.age_of_steam.state import BUILD, FIRST_BUILD, FIRST_MOVE, MOVE, SHARES
from domain.age_of_steam.steps import Steps
from domain.core.randomness import Randomness

DICE_FOR_ORDER = 3


# --- the opening ------------------------------------------------------------------------


def opening(steps: Steps, rng: Randomness) -> None:
    map_ = steps.map
    seats = list(range(len(steps.state.seats)))
    order = _roll_for_order(steps, rng, seats, 1)
    steps.emit(PlayerOrderSet(order=tuple(order)))
    for seat in seats:
        steps.emit(StartingCapitalTaken(seat=seat, shares=map_.start_shares, cash=map_.start_money))
    for column, space in map_.display_fill_order:
        cube, drawn = draw(steps.state.bag, rng, f"setup: a goods cube for display {column}, space {space + 1}")
        steps.emit(DisplayCubeDrawn(column=column, space=space, cube=cube, random=drawn))
    for city in map_.cities:
        for _ in range(city.starting_cubes):
            cube, drawn = draw(steps.state.bag, rng, f"setup: a goods cube for {city.name}")
            steps.emit(CityCubeDrawn(hex=city.hex, city=city.name, cube=cube, random=drawn))
    begin_turn(steps, 1)


def _roll_for_order(steps: Steps, rng: Randomness, group: list[int], round_: int) -> list[int]:
    """Highest total of three dice first; players tied on a total roll again among themselves."""
    totals: dict[int, int] = {}
    for seat in group:
        name = steps.state.seats[seat].name
        again = "" if round_ == 1 else f" (tie, roll {round_})"
        faces = rng.roll(DICE_FOR_ORDER, f"player order: {name}'s {DICE_FOR_ORDER} dice{again}")
        for die, face in enumerate(faces, start=1):
            totals[seat] = totals.get(seat, 0) + face
            steps.emit(OrderDieRolled(seat=seat, round=round_, die=die, value=face, random=outcome(6, face - 1)))
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [seat for seat in group if totals[seat] == total]
        order += tied if len(tied) == 1 else _roll_for_order(steps, rng, tied, round_ + 1)
    return order


# --- turns and phases -----------------------------------------------------------------------


def begin_turn(steps: Steps, turn: int) -> None:
    steps.emit(TurnBegan(turn=turn, last_turn=steps.state.last_turn))
    steps.emit(PhaseBegan(phase=SHARES, queue=steps.state.order))


def after_action(steps: Steps) -> None:
    if not steps.state.queue:
        _begin_build(steps)


def _first(order: tuple[int, ...], holder: int | None) -> list[int]:
    if holder is None or holder not in order:
        return list(order)
    return [holder, *(seat for seat in order if seat != holder)]


def _begin_build(steps: Steps) -> None:
    state = steps.state
    queue = _first(state.order, state.actions.get(FIRST_BUILD))
    steps.emit(PhaseBegan(phase=BUILD, queue=tuple(queue)))
    build_track.begin_turn(steps, queue[0])


def after_build_turn(steps: Steps) -> None:
    if steps.state.queue:
        build_track.begin_turn(steps, steps.state.queue[0])
        return
    state = steps.state
    movers = _first(state.order, state.actions.get(FIRST_MOVE))
    steps.emit(PhaseBegan(phase=MOVE, queue=tuple(movers + movers)))


def after_move(steps: Steps, rng: Randomness) -> None:
    if not steps.state.queue:
        end_of_turn(steps, rng)


# --- the end of a turn ----------------------------------------------------------------------


def end_of_turn(steps: Steps, rng: Randomness) -> None:
    """Phases 6 to 10 once the goods are moved: income, expenses, income reduction, then
    Production's draw, goods growth and the turn marker (or the end of the game)."""
    income.collect_income(steps)
    income.pay_expenses(steps)
    if len(steps.state.order) <= 1:
        # The game ends at once when at most one player is left.
        final_scoring(steps, rng)
        return
    income.reduce_income(steps)
    if steps.state.turn >= steps.state.last_turn:
        # No goods growth in the last turn: it could change nothing that scores.
        final_scoring(steps, rng)
        return
    if not growth.draw_production(steps, rng):
        after_production(steps, rng)


def after_production(steps: Steps, rng: Randomness) -> None:
    growth.goods_growth(steps, rng)
    advance_turn_marker(steps)


def advance_turn_marker(steps: Steps) -> None:
    turn = steps.state.turn
    steps.emit(TurnEnded(turn=turn))
    begin_turn(steps, turn + 1)
