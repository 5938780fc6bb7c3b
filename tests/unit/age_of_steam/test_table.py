"""Age of Steam at a table: the rules ask for dice and cubes in the game's words and take
them as a referee enters them (`TableRandom`); the opening as laid out is checked against
the rules of setup (`observed.py`); a seeded game answered from the table gives the same
game; forced moves are the only legal move, so a transcript fills them in."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from domain.age_of_steam.state import AUCTION, SHARES, State
from domain.core.decider import Setup
from domain.core.errors import MalformedMove, RuleError
from domain.core.state import replace
from domain.core.table import ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.core.transcription import Transcript, forced_move
from tests import playouts
from tests.rust_belt import DECIDER, MAP

from .helpers import fold, kinds, of_kind, table

SEATS = ("Ann", "Bob", "Cat")


def _needed(call: Any) -> OutcomeNeeded:
    with pytest.raises(OutcomeNeeded) as caught:
        call()
    return caught.value


def _new() -> State:
    return DECIDER.initial_state(Setup(SEATS, DECIDER.options({}, 3)))


# --- what the rules ask for ---------------------------------------------------------------


def test_the_order_dice_are_asked_for_per_player_and_ties_roll_again() -> None:
    request = _needed(lambda: DECIDER.setup(_new(), TableRandom([]))).request
    assert (request.kind, request.what, request.count) == ("roll", "player order: Ann's 3 dice", 3)
    # Ann and Cat tie on 12; only they roll again.
    request = _needed(lambda: DECIDER.setup(_new(), TableRandom([[4, 4, 4], [1, 2, 3], [6, 5, 1]]))).request
    assert request.what == "player order: Ann's 3 dice (tie, roll 2)"
    # The bag draws that follow are asked for as colours, each space of the display by name.
    entered: list[Any] = [[4, 4, 4], [1, 2, 3], [6, 5, 1], [2, 2, 2], [1, 1, 1]]
    request = _needed(lambda: DECIDER.setup(_new(), TableRandom(entered))).request
    assert (request.kind, request.what) == ("pick", "setup: a goods cube for display L1, space 1")
    assert request.labels == MAP.colours


def _last_move(**kwargs: Any) -> State:
    return table(phase="move", queue=[2], cash=[20, 20, 20], **kwargs)


def test_goods_growth_asks_for_the_light_dice_then_the_dark_and_rolls_what_is_entered() -> None:
    state = _last_move(display={"L1": ["red", "blue", "black"]})
    move = {"type": "pass_move"}
    request = _needed(lambda: DECIDER.decide(state, 2, move, TableRandom([]))).request
    assert (request.kind, request.what, request.count) == ("roll", "goods growth: light dice", 3)
    assert request.describe() == "goods growth: light dice: 3 dice"
    request = _needed(lambda: DECIDER.decide(state, 2, move, TableRandom([[1, 1, 2]]))).request
    assert request.what == "goods growth: dark dice"
    events = DECIDER.decide(state, 2, move, TableRandom([[1, 1, 2], [6, 6, 6]]))
    assert [(e.data["half"], e.data["value"]) for e in of_kind(events, "GrowthDieRolled")] == [
        ("light", 1), ("light", 1), ("light", 2), ("dark", 6), ("dark", 6), ("dark", 6)]
    assert fold(state, events).cubes[MAP.city_by_name["Chicago"]] == ("blue", "red")


def test_dice_that_were_not_rolled_are_refused() -> None:
    state = _last_move()
    for faces in ([1, 2], [1, 2, 7], "1 2 3"):
        with pytest.raises(ImpossibleOutcome, match="goods growth: light dice: 3 dice of faces 1 to 6 were rolled"):
            DECIDER.decide(state, 2, {"type": "pass_move"}, TableRandom([faces]))


def test_production_asks_for_a_colour_from_the_bag_and_takes_that_colour() -> None:
    state = _last_move(actions={"production": 1}, display={"L1": [None, None, None]})
    request = _needed(lambda: DECIDER.decide(state, 2, {"type": "pass_move"}, TableRandom([]))).request
    assert (request.kind, request.what) == ("pick", "production: a goods cube from the bag")
    assert request.available == {colour: n for colour, n in state.bag.items() if n}
    events = DECIDER.decide(state, 2, {"type": "pass_move"}, TableRandom(["yellow", "purple"]))
    after = fold(state, events)
    assert [e.data["cube"] for e in of_kind(events, "ProductionDrawn")] == ["yellow", "purple"]
    assert after.production == ("yellow", "purple")
    assert Counter(after.bag) == Counter(state.bag) - Counter({"yellow": 1, "purple": 1})


def test_a_colour_the_bag_no_longer_holds_is_refused_naming_what_it_holds() -> None:
    state = _last_move(actions={"production": 1}, display={"L1": [None, None, None]})
    state = replace(state, bag={**state.bag, "red": 0})
    holding = ", ".join(f"{n} {colour}" for colour, n in sorted(state.bag.items()) if n)
    with pytest.raises(ImpossibleOutcome) as caught:
        DECIDER.decide(state, 2, {"type": "pass_move"}, TableRandom(["red", "blue"]))
    assert caught.value.message == f"production: a goods cube from the bag: red is not there to take; there are {holding}"


def test_the_final_tie_break_die_is_asked_for_the_tied_players_and_rolled_again_on_a_tie() -> None:
    state = table(phase="move", queue=[2], turn=10, cash=[20, 20, 10], income=[2, 2, 0], shares=[2, 2, 2])
    state = replace(state, seats=tuple(replace(seat, name=name) for seat, name in zip(state.seats, SEATS, strict=True)))
    move = {"type": "pass_move"}
    request = _needed(lambda: DECIDER.decide(state, 2, move, TableRandom([]))).request
    assert (request.kind, request.what, request.count) == ("roll", "tie-break: one die each for Ann, Bob", 2)
    request = _needed(lambda: DECIDER.decide(state, 2, move, TableRandom([[4, 4]]))).request
    assert request.what == "tie-break: one die each for Ann, Bob (tied again, roll 2)"
    events = DECIDER.decide(state, 2, move, TableRandom([[4, 4], [2, 5]]))
    assert [(e.data["seat"], e.data["round"], e.data["value"]) for e in of_kind(events, "TieBreakRolled")] == [
        (0, 1, 4), (1, 1, 4), (0, 2, 2), (1, 2, 5)]
    assert events[-1].data["winners"] == [1] and events[-1].data["decided_by"] == "dice"


# --- a seeded game, answered from the table ------------------------------------------------


def _in_game_terms(events: list[Any]) -> list[Any]:
    """The outcomes a referee would have entered for these events, in the order asked."""
    out: list[Any] = []
    dice: dict[tuple[str, Any], list[int]] = {}
    for event in events:
        if event.kind == "ProductionDrawn":
            out.append(event.data["cube"])
        elif event.kind in ("GrowthDieRolled", "TieBreakRolled"):
            key = (event.kind, event.data.get("half", event.data.get("round")))
            if key not in dice:
                dice[key] = []
                out.append(dice[key])
            dice[key].append(event.data["value"])
    return out


def _without_random(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    # At a table a cube's stored index is the first of its colour; the colour is the same.
    return [(e.kind, {k: v for k, v in e.data.items() if k != "random"}) for e in events]


@pytest.mark.parametrize("index", range(3))
def test_a_seeded_game_entered_at_a_table_is_the_same_game(index: int) -> None:
    game = playouts.play_out(DECIDER, "table", index, 3 + index, check=False, steer=True)
    opening = game.opening
    seeded = DECIDER.initial_state(game.setup)
    for event in opening:
        seeded = DECIDER.evolve(seeded, event)
    observed = {
        "player_order": list(of_kind(opening, "PlayerOrderSet")[0].data["order"]),
        "goods_display": {column: list(spaces) for column, spaces in seeded.display.items()},
        "city_cubes": {city.name: [e.data["cube"] for e in of_kind(opening, "CityCubeDrawn") if e.data["hex"] == city.hex]
                       for city in MAP.cities},
    }
    state = DECIDER.initial_state(game.setup)
    laid = DECIDER.table_setup(state, observed)
    assert "OrderDieRolled" not in kinds(laid)
    assert _without_random(laid) == _without_random([e for e in opening if e.kind != "OrderDieRolled"])
    state = fold(state, laid)
    assert state == seeded
    for seat, move, events in game.commands:
        again = DECIDER.decide(state, seat, move, TableRandom(_in_game_terms(events)))
        assert _without_random(again) == _without_random(events)
        state = fold(state, again)
    assert state.phase == "over" and DECIDER.scores(state) == DECIDER.scores(game.state)


# --- the opening as laid out ---------------------------------------------------------------


def _observed(seed: int = 1) -> dict[str, Any]:
    bag = [colour for colour in sorted(MAP.bag) for _ in range(MAP.bag[colour])]
    random.Random(seed).shuffle(bag)
    return {
        "player_order": ["Cat", "Ann", "Bob"],
        "goods_display": {column: [bag.pop() for _ in range(n)] for column, n in MAP.column_spaces.items()},
        "city_cubes": {city.name: [bag.pop() for _ in range(city.starting_cubes)] for city in MAP.cities},
    }


def test_the_opening_as_laid_out_is_the_display_the_cities_and_the_order_seen() -> None:
    observed = _observed()
    events = DECIDER.table_setup(_new(), observed)
    state = fold(_new(), events)
    assert state.order == (2, 0, 1) and state.phase == SHARES and state.turn == 1
    assert {c: list(s) for c, s in state.display.items()} == observed["goods_display"]
    for city in MAP.cities:
        assert state.cubes[city.hex] == tuple(sorted(observed["city_cubes"][city.name]))
    assert sum(state.bag.values()) == 18
    assert all(seat.cash == 10 and seat.shares == 2 for seat in state.seats)
    assert DECIDER.invariants(state) == []


def _changed(**parts: Any) -> dict[str, Any]:
    observed = _observed()
    for key, value in parts.items():
        if callable(value):
            value(observed)
        else:
            observed[key] = value
    return observed


@pytest.mark.parametrize(("observed", "message"), [
    (_changed(player_order=["Cat", "Ann"]), "player_order names every player once; missing: Bob"),
    (_changed(player_order=["Cat", "Ann", "Ann"]), "twice: Ann; missing: Bob"),
    (_changed(player_order=["Cat", "Ann", "Zed"]), "'Zed' is not a player of this game"),
    (_changed(goods_display=lambda o: o["goods_display"].pop("D4")), "columns D4 are missing"),
    (_changed(goods_display=lambda o: o["goods_display"].update(L1=["red", "red"])),
     "display column L1 holds 3 cubes at the start"),
    (_changed(goods_display=lambda o: o["goods_display"].update(L2=["red", "white", "red"])),
     "'white' is not a goods colour"),
    (_changed(goods_display=lambda o: o["goods_display"].update(Z9=["red"])), "'Z9' is not a display column"),
    (_changed(city_cubes=lambda o: o["city_cubes"].pop("Chicago")), "missing: Chicago"),
    (_changed(city_cubes=lambda o: o["city_cubes"].update(Pittsburgh=["red", "red"])), "Pittsburgh holds 3 cubes"),
    (_changed(city_cubes=lambda o: o["city_cubes"].update(Atlantis=["red", "red"])), "'Atlantis' is not a city"),
    (_changed(extra=1), "unknown field"),
    ({"player_order": ["Ann", "Bob", "Cat"]}, "missing goods_display, city_cubes"),
])
def test_an_opening_against_the_rules_of_setup_is_refused(observed: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedMove, match=message) as caught:
        DECIDER.table_setup(_new(), observed)
    assert caught.value.code == "bad_setup" and caught.value.message.startswith("observed setup: ")


def test_an_opening_with_more_cubes_of_a_colour_than_the_bag_holds_is_impossible() -> None:
    observed = _observed()
    observed["goods_display"] = {column: ["black"] * n for column, n in MAP.column_spaces.items()}
    with pytest.raises(ImpossibleOutcome, match="the bag holds 16 black cubes, but the display and the cities show 5"):
        DECIDER.table_setup(_new(), observed)


# --- forced moves ---------------------------------------------------------------------------


def test_a_player_at_the_share_limit_has_one_move_and_a_transcript_makes_it() -> None:
    at_limit = table(phase=SHARES, shares=[2, 15, 2], order=[1, 0, 2])
    assert DECIDER.legal_moves(at_limit, 1) == [{"type": "issue_shares", "count": 0}]
    assert forced_move(DECIDER, at_limit) == (1, {"type": "issue_shares", "count": 0})
    state = table(phase=SHARES, shares=[2, 15, 2], order=[0, 1, 2])
    assert forced_move(DECIDER, state) is None
    transcript = Transcript(DECIDER, SEATS, {}, _observed())
    transcript.state = state
    transcript.enter("Ann issues 1 share")
    assert transcript.forced == ["Bob issues no shares"]
    assert transcript.state.queue == (2,) and transcript.state.seats[1].shares == 15


def test_a_bidder_who_cannot_raise_drops_out_by_itself() -> None:
    state = table(phase=AUCTION, cash=[10, 3, 10], order=[0, 1, 2])
    after_bid = fold(state, DECIDER.decide(state, 0, {"type": "bid", "amount": 3}, TableRandom([])))
    assert DECIDER.legal_moves(after_bid, 1) == [{"type": "drop"}]
    assert forced_move(DECIDER, after_bid) == (1, {"type": "drop"})
    transcript = Transcript(DECIDER, SEATS, {}, _observed())
    transcript.state = state
    transcript.enter("Ann bids $3")
    assert transcript.forced == ["Bob drops out"]
    assert DECIDER.active_seats(transcript.state) == {2}


def test_a_bidder_with_the_turn_order_pass_is_not_forced() -> None:
    state = table(phase=AUCTION, cash=[10, 3, 10], order=[0, 1, 2], turn_order_pass=1, pass_holder=1)
    after_bid = fold(state, DECIDER.decide(state, 0, {"type": "bid", "amount": 3}, TableRandom([])))
    assert len(DECIDER.legal_moves(after_bid, 1)) == 2 and forced_move(DECIDER, after_bid) is None


def test_a_forced_move_written_anyway_is_read_as_the_move_just_filled_in() -> None:
    """A sheet may write out a forced move the transcript fills in by itself: the line is the
    move just filled in, and adds nothing (before, it was judged as the next seat's move and
    refused as not that seat's turn)."""
    state = table(phase=SHARES, shares=[2, 15, 2], order=[0, 1, 2])
    transcript = Transcript(DECIDER, SEATS, {}, _observed())
    transcript.state = state
    transcript.enter("Ann issues 1 share")
    assert transcript.forced == ["Bob issues no shares"]
    after = transcript.state
    assert transcript.enter("Bob issues no shares") == []
    assert transcript.state is after
    with pytest.raises(RuleError):  # written twice, it is the next seat's line, and not Cleo's move
        transcript.enter("Bob issues no shares")


def test_the_cores_form_of_an_opening_every_outcome_in_the_order_asked_is_read_too() -> None:
    observed = _observed()
    cubes = [*(observed["goods_display"][column][space] for column, space in MAP.display_fill_order),
             *(cube for city in MAP.cities for cube in observed["city_cubes"][city.name])]
    events = DECIDER.table_setup(_new(), {"outcomes": [[6, 6, 6], [1, 1, 1], [3, 3, 3], *cubes]})
    state = fold(_new(), events)
    assert [e.data["value"] for e in of_kind(events, "OrderDieRolled")] == [6, 6, 6, 1, 1, 1, 3, 3, 3]
    assert state.order == (0, 2, 1)
    assert {c: list(s) for c, s in state.display.items()} == observed["goods_display"]
    with pytest.raises(MalformedMove, match="outcome 13 is missing: setup: a goods cube for display D4, space 1"):
        DECIDER.table_setup(_new(), {"outcomes": [[6, 6, 6], [1, 1, 1], [3, 3, 3], *cubes[:9]]})
