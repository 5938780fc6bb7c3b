"""Toot-Toot Train's `greedy` bot (the planner `playout` uses too): its moves are legal and
repeat from the seeded chooser, it plays like a person in set positions (sells several
orders at once, keeps a hand order it cannot finish, draws on before taking when one take
is all a stop needs), and its games reach the 25-point end trigger."""

from __future__ import annotations

import random
from typing import Any

from domain.core.bots import bot_of
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from domain.toot_toot.bot import GreedyBot
from domain.toot_toot.hexes import neighbour, opp
from domain.toot_toot.state import LOCATION, MAIN, State
from tests import playouts

from .helpers import CONTENT, RULES, play, table

MAPS = [m.id for m in CONTENT.maps]


def bot_game(map_id: str, seats: int, index: int, level: str = "greedy") -> tuple[State, list[dict[str, Any]]]:
    """One game with every seat played by `level`, each move checked against the legal ones."""
    seed = playouts.seed_of(f"toot bot {map_id} {seats}", index)
    rng, chooser = SeededRandom(seed), random.Random(index)
    bot = bot_of(RULES, level)
    state = RULES.initial_state(Setup(tuple(f"p{i}" for i in range(seats)), RULES.options({"map": map_id}, seats)))
    for event in RULES.setup(state, rng):
        state = RULES.evolve(state, event)
    made = []
    while RULES.active_seats(state):
        [seat] = RULES.active_seats(state)
        legal = RULES.legal_moves(state, seat)
        move = bot.choose(state, seat, legal, chooser)
        assert move in legal, f"{map_id} game {index}: {move} is not a legal move"
        made.append(move)
        for event in RULES.decide(state, seat, move, rng):
            state = RULES.evolve(state, event)
        assert len(made) < 10_000, "a game that never ends"
    return state, made


def choice(state: State, seat: int = 0) -> dict[str, Any]:
    return RULES.bots["greedy"].choose(state, seat, RULES.legal_moves(state, seat), random.Random(0))


def test_toot_toot_offers_the_greedy_level_beside_the_core_ones() -> None:
    assert set(RULES.bots) == {"random", "playout", "greedy"}
    assert isinstance(bot_of(RULES, "greedy"), GreedyBot)


def test_the_greedy_bot_plays_legal_moves_and_repeats_from_its_seed() -> None:
    first_state, first = bot_game("harbour", 2, 3)
    again_state, again = bot_game("harbour", 2, 3)
    assert RULES.is_over(first_state)
    assert first == again
    assert RULES.scores(first_state) == RULES.scores(again_state)


def test_it_sells_to_several_orders_of_the_city_at_once() -> None:
    # Harbour's red city (8,4 and 9,4) opens to the north-west of 8,4.
    spot = neighbour("8,4", 4)
    state = table(trains=[(spot, opp(4)), None], goods=[{"iron": 1, "wood": 1}, {}], public=["R1", "R3", "Y1"],
                  hands=[[], []])
    move = choice(state)
    assert move == {"type": "sell", "city": "red_city", "fills": {"R1": {"iron": 1}, "R3": {"wood": 1}}}


def test_it_keeps_a_hand_order_it_cannot_finish_here() -> None:
    # Two iron: one completes public R1; the other would only half fill hand order R7
    # (iron and paper), which would then be discarded.
    spot = neighbour("8,4", 4)
    state = table(trains=[(spot, opp(4)), None], goods=[{"iron": 2}, {}], public=["R1", "Y1", "G1"],
                  hands=[["R7"], []])
    move = choice(state)
    assert move == {"type": "sell", "city": "red_city", "fills": {"R1": {"iron": 1}}}


def test_it_draws_towards_the_city_before_taking_the_one_good_it_needs() -> None:
    # Harbour's stone site (2,6) opens to the east; the bot's only order wants one stone, to
    # be sold at the yellow city (5,1). The main action draws on; the location step takes.
    spot = neighbour("2,6", 0)
    state = table(trains=[(spot, 5), None], hands=[["Y1"], []], public=["B1", "B3", "B2"])
    move = choice(state)
    assert move["type"] == "draw_track", move
    while state.step != LOCATION:
        assert state.step != MAIN or move["type"] == "draw_track"
        state, _ = play(state, 0, move)
        move = choice(state)
    assert move == {"type": "take", "site": "stone_site"}


def test_a_small_batch_of_games_mostly_reaches_the_end_trigger() -> None:
    """One game per map and player count (9); the playout bot before the planner reached
    the trigger in about a third of its games."""
    triggered = []
    for seats in (2, 3, 4):
        for map_id in MAPS:
            state, _ = bot_game(map_id, seats, 0)
            assert RULES.is_over(state)
            triggered.append(state.last_round is not None)
    assert sum(triggered) >= 8, triggered
