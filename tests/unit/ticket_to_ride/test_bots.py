"""Ticket to Ride's greedy and planner bots: their decisions on positions built for the
purpose, that they only ever play legal moves and read only what their seat may see, and
that greedy beats the random bot and planner the greedy one (the 200-game runs are `slow`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from typing import Any

import pytest

from domain.core.bots import Bot, bot_of
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.scoring import connected, routes_of
from domain.ticket_to_ride.state import State
from service.simulation import Table, play_in_memory
from tests import playouts
from tests.unit.ticket_to_ride.conftest import table

GREEDY = bot_of(DECIDER, "greedy")
PLANNER = bot_of(DECIDER, "planner")


def choice(state: State, seat: int = 0, seed: int = 0, bot: Bot = GREEDY) -> dict[str, Any]:
    moves = DECIDER.legal_moves(state, seat)
    move = bot.choose(state, seat, moves, random.Random(seed))
    assert move in moves
    return move


def test_greedy_and_planner_are_ticket_to_ride_s_own_levels() -> None:
    assert list(DECIDER.bots) == ["random", "playout", "greedy", "planner"]


def test_it_claims_the_route_that_finishes_a_ticket_before_a_longer_planned_one() -> None:
    # Denver–El Paso lacks only El Paso–Santa Fe (2); Calgary–Salt Lake City is planned over
    # Calgary–Helena (4, gray) and Helena–Salt Lake City (3, pink); all three are affordable.
    state = table(hands=[{"pink": 3, "red": 4, "locomotive": 1}, {}],
                  tickets=[["Denver|El Paso", "Calgary|Salt Lake City"], []],
                  claims={"Denver|Santa Fe": 0})
    move = choice(state)
    assert move["type"] == "claim_route" and move["route"] == "El Paso|Santa Fe"
    assert "locomotive" not in move["cards"]  # it pays with colours while it can


def test_with_nothing_to_finish_at_once_it_claims_the_longest_planned_route() -> None:
    state = table(hands=[{"pink": 3, "red": 4}, {}], tickets=[["Calgary|Salt Lake City"], []])
    move = choice(state)
    assert move["type"] == "claim_route" and move["route"] == "Calgary|Helena"
    # Red pays for the gray route: the pink cards are what Helena–Salt Lake City needs.
    assert move["cards"] == {"red": 4}


def test_the_planner_claims_first_the_planned_route_where_another_seat_is_building() -> None:
    # Seat 1 has reached Salt Lake City: Helena–Salt Lake City (3) is the one at risk.
    state = table(hands=[{"pink": 3, "red": 4}, {}], tickets=[["Calgary|Salt Lake City"], []],
                  claims={"Denver|Salt Lake City#0": 1})
    assert choice(state, bot=GREEDY)["route"] == "Calgary|Helena"
    assert choice(state, bot=PLANNER) == {"type": "claim_route", "route": "Helena|Salt Lake City", "cards": {"pink": 3}}


def test_the_planner_stops_drawing_tickets_once_clearly_ahead() -> None:
    done = {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0}
    level = table(tickets=[["Denver|El Paso"], []], claims=done, scores=[30, 30])
    assert choice(level, bot=PLANNER) == {"type": "draw_tickets"}
    ahead = table(tickets=[["Denver|El Paso"], []], claims=done, scores=[80, 30])
    assert choice(ahead, bot=PLANNER)["type"] != "draw_tickets"
    assert choice(ahead, bot=GREEDY) == {"type": "draw_tickets"}


def test_it_takes_a_face_up_card_its_plan_lacks() -> None:
    state = table(hands=[{"pink": 1}, {}], tickets=[["Calgary|Salt Lake City"], []],
                  claims={"Calgary|Helena": 0}, market=("red", "blue", "pink", "green", "yellow"))
    assert choice(state) == {"type": "draw_card", "source": "market", "slot": 2}
    # The second card too, and the deck when nothing face up helps.
    second = dataclasses.replace(state, cards_drawn=1)
    assert choice(second) == {"type": "draw_card", "source": "market", "slot": 2}
    useless = dataclasses.replace(state, market=("red", "blue", "white", "green", "yellow"))
    assert choice(useless) == {"type": "draw_card", "source": "deck"}


def test_it_draws_tickets_only_while_there_is_time_to_finish_them() -> None:
    done = {"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0}
    early = table(tickets=[["Denver|El Paso"], []], claims=done)
    assert choice(early) == {"type": "draw_tickets"}
    # The same seat when the other is down to 4 trains: the game ends within a few turns.
    late = table(tickets=[["Denver|El Paso"], []], claims=done, trains=[41, 4])
    assert choice(late)["type"] != "draw_tickets"


def test_late_in_the_game_it_keeps_only_the_ticket_it_has_already_finished() -> None:
    state = table(tickets=[["Calgary|Salt Lake City"], []], trains=[8, 6],
                  claims={"Denver|Santa Fe": 0, "El Paso|Santa Fe": 0, "Calgary|Helena": 0, "Helena|Salt Lake City": 0},
                  offered=[["Denver|El Paso", "New York|Seattle", "Los Angeles|Miami"], []])
    assert choice(state) == {"type": "keep_tickets", "keep": ["Denver|El Paso"]}


def test_its_opening_keeps_all_three_tickets_when_they_share_the_middle_of_the_map() -> None:
    offered = ["Denver|El Paso", "Houston|Kansas City", "Chicago|Santa Fe"]
    state = table(phase="opening", offered=[offered, []], tickets=[[], []], hands=[{}, {}])
    assert choice(state) == {"type": "keep_tickets", "keep": offered}


def test_with_twenty_trains_left_it_returns_the_coast_to_coast_tickets() -> None:
    state = table(tickets=[["Calgary|Salt Lake City"], []], trains=[20, 30],
                  claims={"Calgary|Helena": 0, "Helena|Salt Lake City": 0},
                  offered=[["Denver|El Paso", "New York|Seattle", "Los Angeles|Miami"], []])
    assert choice(state) == {"type": "keep_tickets", "keep": ["Denver|El Paso"]}


def test_it_plays_only_legal_moves_and_finishes_most_of_its_tickets() -> None:
    """Whole games, greedy seats alongside random ones, every player count."""
    for players in range(2, 6):
        for index in range(2):
            levels = ["greedy", "random", "planner"] * 2
            state, rng, chooser = start(players, index)
            bots = [bot_of(DECIDER, level) for level in levels[:players]]
            while not DECIDER.is_over(state):
                seat = chooser.choice(sorted(DECIDER.active_seats(state)))
                moves = DECIDER.legal_moves(state, seat)
                move = bots[seat].choose(state, seat, moves, chooser)
                assert move in moves
                state = DECIDER.decision(state, seat, move, rng).state
            bots_seats = [seat for seat in range(players) if levels[seat] != "random"]
            done, kept = completed(Table(DECIDER, tuple(levels), state, 0, 0), seats=bots_seats)
            assert done >= 0.6 * kept, (players, index, done, kept)


@pytest.mark.parametrize("bot", [GREEDY, PLANNER], ids=["greedy", "planner"])
def test_it_reads_only_what_its_seat_may_see(bot: Bot) -> None:
    """The same choice whatever the deck order, the ticket deck or the other seats' tickets."""
    state, rng, chooser = start(3, 7)
    for _ in range(150):
        if DECIDER.is_over(state):
            break
        seat = chooser.choice(sorted(DECIDER.active_seats(state)))
        other = (seat + 1) % 3
        hidden = dataclasses.replace(
            state, deck=state.deck[::-1], ticket_deck=state.ticket_deck[::-1],
            seats=tuple(dataclasses.replace(s, tickets=state.ticket_deck[:2]) if i == other and state.ticket_deck[:2]
                        else s for i, s in enumerate(state.seats)))
        assert choice(hidden, seat, seed=seat, bot=bot) == choice(state, seat, seed=seat, bot=bot)
        move = bot.choose(state, seat, DECIDER.legal_moves(state, seat), chooser)
        state = DECIDER.decision(state, seat, move, rng).state


def test_greedy_beats_random_in_most_two_player_games() -> None:
    """20 games, the greedy seat alternating; a random bot would win about half."""
    won = sum(greedy_won(index) for index in range(20))
    assert won >= 18


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_over_200_games_greedy_bots_finish_most_tickets_and_score_positive(players: int) -> None:
    tables = [play_in_memory(DECIDER, ["greedy"] * players, playouts.seed_of("greedy", players * 1000 + i),
                             random.Random(i)) for i in range(200)]
    scores = [score for t in tables for score in DECIDER.scores(t.state).values()]
    done, kept = (sum(x) for x in zip(*(completed(t, range(players)) for t in tables), strict=True))
    assert sum(scores) / len(scores) > 0 and done > kept / 2


@pytest.mark.slow
def test_over_200_two_player_games_greedy_beats_random_in_90_percent() -> None:
    assert sum(greedy_won(index) for index in range(200)) >= 180


@pytest.mark.slow
def test_over_200_two_player_games_the_planner_beats_greedy_more_often_than_not() -> None:
    won = lost = 0
    for index in range(200):
        seat = index % 2
        levels = ["planner", "greedy"] if seat == 0 else ["greedy", "planner"]
        winners = list(play_in_memory(DECIDER, levels, playouts.seed_of("planner vs greedy", index),
                                      random.Random(index)).state.winners)
        won, lost = won + (winners == [seat]), lost + (winners == [1 - seat])
    assert won > lost, (won, lost)


# --- helpers --------------------------------------------------------------------------------


def start(players: int, index: int) -> tuple[State, SeededRandom, random.Random]:
    rng = SeededRandom(playouts.seed_of("greedy bot", index * 10 + players))
    state = DECIDER.initial_state(Setup(tuple(f"p{i}" for i in range(players)), DECIDER.options({}, players)))
    for event in DECIDER.setup(state, rng):
        state = DECIDER.evolve(state, event)
    return state, rng, random.Random(index)


def completed(game: Table, seats: Iterable[int]) -> tuple[int, int]:
    """(kept tickets finished, kept tickets) of `seats`."""
    board, state = DECIDER.board, game.state
    done = kept = 0
    for seat in seats:
        owned = routes_of(board, state, seat)
        for ticket in state.seats[seat].tickets:
            kept += 1
            done += connected(owned, board.tickets[ticket].a, board.tickets[ticket].b)
    return done, kept


def greedy_won(index: int) -> bool:
    greedy = index % 2
    levels = ["greedy", "random"] if greedy == 0 else ["random", "greedy"]
    game = play_in_memory(DECIDER, levels, playouts.seed_of("greedy vs random", index), random.Random(index))
    return list(game.state.winners) == [greedy]
