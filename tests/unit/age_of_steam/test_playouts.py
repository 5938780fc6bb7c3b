"""Random playouts with the simulation bot: complete games for 3 to 6 seats with the
invariants checked after every event; replays from the stored random outcomes alone, as the
auditor does; and the referee's audit of a recorded game."""

from __future__ import annotations

import pytest

from domain.core.audit import audit
from tests import playouts
from tests.rust_belt import DECIDER

LABEL = "age-of-steam"


def play_out(index: int, seats: int, check: bool = True) -> playouts.Playout:
    return playouts.play_out(DECIDER, LABEL, index, seats, check=check, steer=True)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_a_random_game_builds_delivers_and_ends(seats: int) -> None:
    game = play_out(seats, seats)
    assert game.state is not None and DECIDER.is_over(game.state)
    last = game.commands[-1][2]
    assert last[-1].kind == "GameEnded"
    assert game.kinds["TrackBuilt"] > 10 and game.kinds["GoodsDelivered"] > 0
    ended = last[-1].data
    assert {int(s): v for s, v in ended["scores"].items()} == DECIDER.scores(game.state)
    live = [s for s in range(seats) if not game.state.seats[s].eliminated]
    assert set(ended["winners"]) <= set(live)
    assert game.kinds["FinalScored"] == len(live)


@pytest.mark.parametrize("seats", [3, 6])
def test_a_game_replays_from_its_stored_random_outcomes(seats: int) -> None:
    playouts.check_replay_from_outcomes(DECIDER, play_out(100 + seats, seats, check=False))


def test_a_recorded_game_passes_the_referees_audit() -> None:
    report = audit(playouts.record_of(DECIDER, play_out(200, 4, check=False)))
    assert report.ok, report.text()
    assert report.rules.ok and report.seed.ok


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_many_random_games(seats: int) -> None:
    for index in range(25):
        game = play_out(1000 * seats + index, seats)
        assert game.state is not None and DECIDER.is_over(game.state)
