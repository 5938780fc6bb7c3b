"""After moving goods: income, expenses with shortfall and bankruptcy, income reduction,
Production, goods growth with the light and dark dice and new cities, the turn marker."""

from __future__ import annotations

from typing import Any

import pytest

from domain.age_of_steam.income import reduction
from domain.age_of_steam.state import MOVE, PRODUCTION, SHARES, State
from domain.core.randomness import RecordedRandom
from tests.rust_belt import CITY_BY_NAME, DECIDER

from .helpers import dice, kinds, of_kind, play, refused, table, tile

NO_DICE_NEEDED = RecordedRandom([])


def last_move(seats: int = 3, **kwargs: Any) -> State:
    """Moving goods, with one pass left before the automatic phases."""
    return table(seats, phase=MOVE, queue=[kwargs.pop("last", 2)], **kwargs)


def finish(state: State, rng: Any = None, seat: int | None = None) -> tuple[State, list[Any]]:
    return play(state, state.queue[0] if seat is None else seat, {"type": "pass_move"}, rng or dice(*([1] * 12)))


def test_income_then_expenses_in_player_order() -> None:
    state = last_move(cash=[5, 5, 5], income=[4, 0, 2], shares=[3, 2, 2], locomotive=[2, 1, 1], order=[1, 2, 0], last=0)
    state, events = finish(state)
    assert [e.data for e in of_kind(events, "IncomeCollected")] == [
        {"seat": 1, "amount": 0}, {"seat": 2, "amount": 2}, {"seat": 0, "amount": 4},
    ]
    paid = {e.data["seat"]: e.data for e in of_kind(events, "ExpensesPaid")}
    assert paid[0] == {"seat": 0, "due": 5, "paid": 5, "income_lost": 0, "income_after": 4}
    assert [s.cash for s in state.seats] == [4, 2, 4]


def test_a_shortfall_costs_income() -> None:
    state = last_move(cash=[1, 10, 10], income=[10, 0, 0], shares=[4, 2, 2], locomotive=[2, 1, 1])
    state, events = finish(state)
    paid = of_kind(events, "ExpensesPaid")[0].data
    # $10 income arrives first: $11 against $6 due.
    assert paid["paid"] == 6 and paid["income_lost"] == 0
    state = last_move(cash=[0, 10, 10], income=[3, 0, 0], shares=[6, 2, 2], locomotive=[2, 1, 1])
    state, events = finish(state)
    paid = of_kind(events, "ExpensesPaid")[0].data
    assert paid == {"seat": 0, "due": 8, "paid": 3, "income_lost": 5, "income_after": -2}
    assert of_kind(events, "PlayerBankrupt")[0].data == {"seat": 0, "income": -2}


def test_a_bankrupt_player_leaves_and_their_track_loses_its_owner() -> None:
    state = last_move(
        cash=[0, 10, 10], income=[0, 0, 0], shares=[2, 2, 2],
        board=[tile("7,4", "straight", 0, 0), tile("7,3", "town_1", 3, 0), tile("7,6", "straight", 0, 1)],
    )
    state, events = finish(state)
    assert "PlayerBankrupt" in kinds(events)
    assert state.seats[0].eliminated and 0 not in state.order
    assert state.board["7,4"].owners == (None,) and state.board["7,6"].owners == (1,)
    assert DECIDER.scores(state)[0] == 0
    assert state.phase == SHARES and state.queue == (1, 2)


def test_the_game_ends_at_once_when_one_player_is_left() -> None:
    state = last_move(cash=[0, 0, 10], income=[0, 0, 1], shares=[2, 2, 2])
    state, events = finish(state)
    assert kinds(events)[-2:] == ["FinalScored", "GameEnded"]
    assert events[-1].data["winners"] == [2] and events[-1].data["eliminated"] == [0, 1]
    assert DECIDER.is_over(state)


@pytest.mark.parametrize(
    ("income", "cut"),
    [(0, 0), (10, 0), (11, 2), (20, 2), (21, 4), (30, 4), (31, 6), (40, 6), (41, 8), (49, 8), (50, 10), (60, 10)],
)
def test_income_reduction_bands(income: int, cut: int) -> None:
    assert reduction(income) == cut
    state = last_move(cash=[20, 20, 20], income=[income, 0, 0])
    state, events = finish(state)
    reduced = of_kind(events, "IncomeReduced")
    if cut:
        assert reduced[0].data == {"seat": 0, "before": income, "reduction": cut, "after": income - cut}
    else:
        assert reduced == []
    assert state.seats[0].income == income - cut


def test_goods_growth_rolls_light_then_dark_and_moves_the_top_cube() -> None:
    display = {"L1": ["red", "blue", "black"], "D4": ["yellow", None, None]}
    state = last_move(cash=[20, 20, 20], display=display)
    # Light: 1, 1, 2; dark: 4, 4, 6.
    state, events = finish(state, dice(1, 1, 2, 4, 4, 6))
    rolls = [(e.data["half"], e.data["value"]) for e in of_kind(events, "GrowthDieRolled")]
    assert rolls == [("light", 1), ("light", 1), ("light", 2), ("dark", 4), ("dark", 4), ("dark", 6)]
    grown = [(e.data["column"], e.data["space"], e.data["city"], e.data["cube"]) for e in of_kind(events, "GoodsGrown")]
    assert grown[:2] == [("L1", 0, "Chicago", "red"), ("L1", 1, "Chicago", "blue")]
    # The second dark 4 finds its column empty.
    wheeling = [g for g in grown if g[0] == "D4"]
    assert wheeling == [("D4", 0, "Wheeling", "yellow")]
    assert state.cubes[CITY_BY_NAME["Chicago"]] == ("blue", "red")
    assert kinds(events)[-3:] == ["TurnEnded", "TurnBegan", "PhaseBegan"] and state.turn == 2


def test_new_cities_receive_goods_once_on_the_map() -> None:
    display = {"L3": ["red", None, None], "A": ["purple", "black"], "B": ["blue", "blue"]}
    state = last_move(cash=[20, 20, 20], display=display, new_cities={"7,3": "A"})
    state, events = finish(state, dice(3, 4, 6, 6, 6, 6))
    grown = [(e.data["column"], e.data["hex"]) for e in of_kind(events, "GoodsGrown")]
    # Light 3 feeds Kansas City and new city A (on Milwaukee); light 4 feeds Des Moines but not B.
    assert ("A", "7,3") in grown and ("L3", CITY_BY_NAME["Kansas City"]) in grown
    assert not any(column == "B" for column, _ in grown)
    assert state.cubes["7,3"] == ("purple",)


def test_production_draws_two_goods_onto_empty_spaces_of_the_holders_choice() -> None:
    display = {"L2": [None, None, None]}
    state = last_move(cash=[20, 20, 20], display=display, actions={"production": 1})
    bag = sum(state.bag.values())
    rng = RecordedRandom([{"below": bag, "value": 0}, {"below": bag - 1, "value": bag - 2}])
    state, events = finish(state, rng)
    drawn = of_kind(events, "ProductionDrawn")
    assert [e.data["seat"] for e in drawn] == [1, 1] and state.phase == PRODUCTION
    assert DECIDER.active_seats(state) == {1}
    moves = DECIDER.legal_moves(state, 1)
    assert moves == [{"type": "place_production", "column": "L2", "space": s} for s in range(3)]
    first = drawn[0].data["cube"]
    state, events = play(state, 1, {"type": "place_production", "column": "L2", "space": 2})
    assert events[0].kind == "GoodsProduced" and events[0].data["cube"] == first
    assert state.display["L2"] == (None, None, first)
    assert refused(state, 1, {"type": "place_production", "column": "L2", "space": 2}).code == "space_taken"
    state, events = play(state, 1, {"type": "place_production", "column": "L2", "space": 0}, dice(*([6] * 6)))
    assert "GrowthDieRolled" in kinds(events) and state.turn == 2


def test_production_with_a_full_display_draws_nothing() -> None:
    state = last_move(cash=[20, 20, 20], actions={"production": 1})
    state, events = finish(state)
    assert "ProductionDrawn" not in kinds(events) and "GrowthDieRolled" in kinds(events)


def test_the_last_turn_ends_after_income_reduction() -> None:
    state = last_move(cash=[20, 20, 20], income=[12, 0, 0], turn=10)
    state, events = finish(state, NO_DICE_NEEDED)
    assert "IncomeReduced" in kinds(events) and "GrowthDieRolled" not in kinds(events)
    assert kinds(events)[-4:] == ["FinalScored", "FinalScored", "FinalScored", "GameEnded"]
    assert DECIDER.is_over(state) and DECIDER.legal_moves(state, 0) == []
