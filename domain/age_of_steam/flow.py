"""The game's own steps between and after the players' moves: the opening, each phase's start,
the auction's settlement, the automatic phases (income, expenses, income reduction, goods
growth), the turn marker and the end. Each function emits through `Steps`, so it reads the
state its own earlier events made."""

from __future__ import annotations

from domain.age_of_steam.board import BUILDS_PER_TURN, DARK, ENGINEER_BUILDS, LIGHT, MAX_LOCOMOTIVE
from domain.age_of_steam.events import (
    AuctionSettled,
    BuildTurnBegan,
    CityCubeDrawn,
    DisplayCubeDrawn,
    ExpensesPaid,
    GoodsGrown,
    GrowthDieRolled,
    IncomeCollected,
    IncomeReduced,
    LocomotiveIncreased,
    OrderDieRolled,
    PhaseBegan,
    PlayerBankrupt,
    PlayerOrderSet,
    ProductionDrawn,
    StartingCapitalTaken,
    TurnBegan,
    TurnEnded,
    outcome,
)
from domain.age_of_steam.goods import draw
from domain.age_of_steam.scoring import final_scoring, reduction
from domain.age_of_steam.state import (
    ACTIONS,
    AUCTION,
    BUILD,
    ENGINEER,
    FIRST_BUILD,
    FIRST_MOVE,
    LOCOMOTIVE,
    MOVE,
    PRODUCTION,
    PRODUCTION_ACTION,
    SHARES,
)
from domain.age_of_steam.steps import Steps
from domain.age_of_steam.track import incomplete_at_risk
from domain.core.randomness import Randomness

DICE_FOR_ORDER = 3
PRODUCTION_DRAW = 2


# --- the opening ------------------------------------------------------------------------


def opening(steps: Steps, rng: Randomness) -> None:
    map_ = steps.map
    seats = list(range(len(steps.state.seats)))
    order = _roll_for_order(steps, rng, seats, 1)
    steps.emit(PlayerOrderSet(order=tuple(order)))
    for seat in seats:
        steps.emit(StartingCapitalTaken(seat=seat, shares=map_.start_shares, cash=map_.start_money))
    for column, space in map_.display_fill_order:
        cube, drawn = draw(steps.state.bag, rng)
        steps.emit(DisplayCubeDrawn(column=column, space=space, cube=cube, random=drawn))
    for city in map_.cities:
        for _ in range(city.starting_cubes):
            cube, drawn = draw(steps.state.bag, rng)
            steps.emit(CityCubeDrawn(hex=city.hex, city=city.name, cube=cube, random=drawn))
    begin_turn(steps, 1)


def _roll_for_order(steps: Steps, rng: Randomness, group: list[int], round_: int) -> list[int]:
    """Highest total of three dice first; players tied on a total roll again among themselves."""
    totals: dict[int, int] = {}
    for seat in group:
        for die in range(1, DICE_FOR_ORDER + 1):
            value = rng.randbelow(6)
            totals[seat] = totals.get(seat, 0) + value + 1
            steps.emit(OrderDieRolled(seat=seat, round=round_, die=die, value=value + 1, random=outcome(6, value)))
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [seat for seat in group if totals[seat] == total]
        order += tied if len(tied) == 1 else _roll_for_order(steps, rng, tied, round_ + 1)
    return order


# --- turns and phases -----------------------------------------------------------------------


def begin_turn(steps: Steps, turn: int) -> None:
    steps.emit(TurnBegan(turn=turn, last_turn=steps.state.last_turn))
    steps.emit(PhaseBegan(phase=SHARES, queue=steps.state.order))


def begin_auction(steps: Steps) -> None:
    steps.emit(PhaseBegan(phase=AUCTION, queue=steps.state.order))


def after_bidding(steps: Steps) -> None:
    auction = steps.state.auction
    assert auction is not None
    if len(auction.bidders) > 1:
        return
    winner = auction.bidders[0]
    dropped = auction.dropped
    payments: dict[str, int] = {}
    for index, seat in enumerate(dropped):
        bid = auction.bids[seat]
        if index == 0:
            payments[str(seat)] = 0
        elif index == len(dropped) - 1:
            payments[str(seat)] = bid
        else:
            payments[str(seat)] = (bid + 1) // 2
    payments[str(winner)] = auction.bids[winner]
    steps.emit(AuctionSettled(
        order=(winner, *reversed(dropped)),
        bids={str(seat): auction.bids[seat] for seat in auction.seats},
        drop_order=dropped,
        payments={str(seat): payments[str(seat)] for seat in auction.seats},
    ))
    steps.emit(PhaseBegan(phase=ACTIONS, queue=steps.state.order))


def after_action(steps: Steps, seat: int, action: str) -> None:
    if action == LOCOMOTIVE:
        before = steps.state.seats[seat].locomotive
        # Taken at the maximum, the action changes nothing but still denies it to others.
        if before < MAX_LOCOMOTIVE:
            steps.emit(LocomotiveIncreased(seat=seat, before=before, after=before + 1))
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
    begin_build_turn(steps, queue[0])


def begin_build_turn(steps: Steps, seat: int) -> None:
    state = steps.state
    limit = ENGINEER_BUILDS if state.actions.get(ENGINEER) == seat else BUILDS_PER_TURN
    at_risk = incomplete_at_risk(steps.map, state.board, state.new_cities, seat)
    steps.emit(BuildTurnBegan(seat=seat, limit=limit, at_risk=at_risk))


def after_build_turn(steps: Steps) -> None:
    if steps.state.queue:
        begin_build_turn(steps, steps.state.queue[0])
        return
    state = steps.state
    movers = _first(state.order, state.actions.get(FIRST_MOVE))
    steps.emit(PhaseBegan(phase=MOVE, queue=tuple(movers + movers)))


def after_move(steps: Steps, rng: Randomness) -> None:
    if steps.state.queue:
        return
    _income_to_reduction(steps, rng)


# --- the automatic phases ---------------------------------------------------------------------


def _income_to_reduction(steps: Steps, rng: Randomness) -> None:
    steps.emit(PhaseBegan(phase="income", queue=()))
    for seat in steps.state.order:
        steps.emit(IncomeCollected(seat=seat, amount=steps.state.seats[seat].income))
    steps.emit(PhaseBegan(phase="expenses", queue=()))
    for seat in tuple(steps.state.order):
        me = steps.state.seats[seat]
        due = me.shares + me.locomotive
        paid = min(due, me.cash)
        lost = due - paid
        steps.emit(ExpensesPaid(seat=seat, due=due, paid=paid, income_lost=lost, income_after=me.income - lost))
        if me.income - lost < 0:
            steps.emit(PlayerBankrupt(seat=seat, income=me.income - lost))
    if len(steps.state.order) <= 1:
        # The game ends at once when at most one player is left.
        final_scoring(steps, rng)
        return
    steps.emit(PhaseBegan(phase="income_reduction", queue=()))
    for seat in steps.state.order:
        income = steps.state.seats[seat].income
        cut = reduction(income)
        if cut:
            steps.emit(IncomeReduced(seat=seat, before=income, reduction=cut, after=income - cut))
    state = steps.state
    if state.turn >= state.last_turn:
        final_scoring(steps, rng)
        return
    holder = state.actions.get(PRODUCTION_ACTION)
    empty = sum(cube is None for spaces in state.display.values() for cube in spaces)
    count = min(PRODUCTION_DRAW, empty, sum(state.bag.values())) if holder in state.order else 0
    if holder is None or count == 0:
        goods_growth(steps, rng)
        return
    for _ in range(count):
        cube, drawn = draw(steps.state.bag, rng)
        steps.emit(ProductionDrawn(seat=holder, cube=cube, random=drawn))
    steps.emit(PhaseBegan(phase=PRODUCTION, queue=(holder,) * count))


def goods_growth(steps: Steps, rng: Randomness) -> None:
    steps.emit(PhaseBegan(phase="goods_growth", queue=()))
    dice = len(steps.state.seats)
    for half in (LIGHT, DARK):
        faces: list[int] = []
        for index in range(dice):
            value = rng.randbelow(6)
            faces.append(value + 1)
            steps.emit(GrowthDieRolled(half=half, index=index, value=value + 1, random=outcome(6, value)))
        for face in faces:
            _grow(steps, half, face, f"{'L' if half == LIGHT else 'D'}{face}", steps.map.city_of_number[(half, face)])
            letter = steps.map.letter_of_die.get((half, face))
            if letter is not None:
                city = steps.map.column_city(letter, steps.state.new_cities)
                if city is not None:
                    _grow(steps, half, face, letter, city)
    state = steps.state
    steps.emit(TurnEnded(turn=state.turn))
    begin_turn(steps, state.turn + 1)


def _grow(steps: Steps, half: str, face: int, column: str, city: str) -> None:
    spaces = steps.state.display[column]
    # Ruling 3: the top cube of the column leaves first; an empty column gives nothing.
    space = next((i for i, cube in enumerate(spaces) if cube is not None), None)
    if space is None:
        return
    cube = spaces[space]
    assert cube is not None
    steps.emit(GoodsGrown(half=half, die=face, column=column, space=space, hex=city,
                          city=steps.map.place_name(city, steps.state.new_cities), cube=cube))
