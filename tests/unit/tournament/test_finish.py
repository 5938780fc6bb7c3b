"""Each game's order of finish (`Decider.finish`), which a tournament's places come from,
agrees with the game's own winners: first place is exactly the seats the game says won, by
its official tie-breaks, over whole games played by bots."""

from __future__ import annotations

import random

import pytest

from domain import games
from domain.tournament.points import places
from service.simulation import game_seed, play_in_memory

GAMES = {"ticket_to_ride": "greedy", "railway_boom": "playout", "age_of_steam": "playout"}


@pytest.mark.parametrize("game", GAMES)
def test_first_place_is_the_games_own_winners(game: str) -> None:
    decider = games.current(game)
    for index in range(3):
        table = play_in_memory(decider, [GAMES[game]] * 4, game_seed(29, index), random.Random(index))
        keys = decider.finish(table.state)
        first = [seat for seat, place in enumerate(places([keys[s] for s in sorted(keys)])) if place == 1]
        winners = sorted(table.state.winners)
        if winners:  # an Age of Steam game everyone went bankrupt in has none
            assert first == winners, (game, index, keys, winners)


def test_a_game_without_its_own_order_finishes_by_score() -> None:
    decider = games.current("toot_toot")
    table = play_in_memory(decider, ["random"] * 3, game_seed(29, 9), random.Random(9))
    assert decider.finish(table.state) == {seat: (score,) for seat, score in decider.scores(table.state).items()}
