"""Random games of Railway Boom for 2, 3 and 4 players, with the invariants after every event
(resources never negative, cards, rails, stations and tiles conserved, VP the sum of its
scoring events), replays from the stored random outcomes, the audit, views that never leak,
and a bot whose games look like real ones."""

from __future__ import annotations

import random

import pytest

from domain.core.audit import audit
from domain.core.decider import Setup
from domain.core.events import PUBLIC, Audience
from domain.core.leaks import leaks
from domain.core.randomness import SeededRandom
from domain.railway_boom.state import ROUNDS
from tests import playouts
from tests.unit.railway_boom.helpers import RULES

LABEL = "railway-boom"
PLAYERS = (2, 3, 4)


def play(index: int, players: int, steer: bool = True, check: bool = True) -> playouts.Playout:
    return playouts.play_out(RULES, LABEL, index, players, check=check, steer=steer, exact_move_of=True)


def check_game(game: playouts.Playout, players: int) -> None:
    assert RULES.is_over(game.state)
    last = game.commands[-1][2][-1]
    assert last.kind == "GameEnded"
    assert {int(s): v for s, v in last.data["scores"].items()} == RULES.scores(game.state)
    assert len(last.data["winners"]) == 1  # R33: every tie resolves
    assert game.kinds["LeftoversScored"] == players and game.kinds["RouteScored"] == players
    assert game.kinds["StationBuilt"] == players * ROUNDS


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("index", range(3))
def test_a_bot_game_ends_in_final_scoring_with_every_invariant(players: int, index: int) -> None:
    check_game(play(index, players), players)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_uniformly_random_game_ends_too(players: int) -> None:
    check_game(play(50, players, steer=False), players)


@pytest.mark.parametrize("players", PLAYERS)
def test_bot_games_look_like_real_ones(players: int) -> None:
    game = play(7, players)
    runs = [e for _, _, events in game.commands for e in events if e.kind == "TrainFormed"]
    rounds_run = {(e.data["seat"], r) for r in range(1, ROUNDS + 1) for e in runs}
    assert len(runs) >= players * ROUNDS, "trains run every round"
    assert len(rounds_run) >= players
    assert all(score > 20 for score in RULES.scores(game.state).values()), "everyone scores"
    assert all(seat.scored.get("trains", 0) > 0 and seat.scored.get("goals", 0) > 0 for seat in game.state.seats)
    assert game.kinds["RailLaid"] >= players * ROUNDS and game.kinds["BidRaised"] >= players


@pytest.mark.parametrize("players", PLAYERS)
def test_a_game_replays_from_its_stored_random_outcomes(players: int) -> None:
    playouts.check_replay_from_outcomes(RULES, play(100 + players, players, check=False))


def test_a_recorded_game_passes_the_referees_audit() -> None:
    report = audit(playouts.record_of(RULES, play(200, 3, check=False)))
    assert report.ok, report.text()
    assert report.rules.ok and report.seed.ok


def test_views_never_leak_during_a_game() -> None:
    rng, chooser = SeededRandom(playouts.seed_of(LABEL, 99)), random.Random(99)
    state = RULES.initial_state(Setup(("a", "b", "c"), RULES.options({}, 3)))
    for event in RULES.setup(state, rng):
        state = RULES.evolve(state, event)
    sealed_seen = False
    while not RULES.is_over(state):
        public = RULES.view(state, PUBLIC)
        assert leaks(public, {seat: RULES.view(state, Audience(seat=seat)) for seat in range(3)}) == []
        sealed_seen |= any("plan" in RULES.view(state, Audience(seat=s))["seats"][s] for s in range(3))
        seat = chooser.choice(sorted(RULES.active_seats(state)))
        for event in RULES.decide(state, seat, chooser.choice(RULES.legal_moves(state, seat)), rng):
            state = RULES.evolve(state, event)
    assert sealed_seen


def test_in_operation_the_active_seats_are_those_still_to_submit() -> None:
    rng, chooser = SeededRandom(playouts.seed_of(LABEL, 98)), random.Random(98)
    state = RULES.initial_state(Setup(("a", "b", "c", "d"), RULES.options({}, 4)))
    for event in RULES.setup(state, rng):
        state = RULES.evolve(state, event)
    while state.phase != "operation":
        seat = chooser.choice(sorted(RULES.active_seats(state)))
        for event in RULES.decide(state, seat, chooser.choice(RULES.legal_moves(state, seat)), rng):
            state = RULES.evolve(state, event)
    waiting = {0, 1, 2, 3}
    for seat in (2, 0, 3):
        assert RULES.active_seats(state) == waiting
        for event in RULES.decide(state, seat, RULES.legal_moves(state, seat)[0], rng):
            state = RULES.evolve(state, event)
        waiting.discard(seat)
    assert RULES.active_seats(state) == {1} and RULES.view(state, PUBLIC)["waiting_for"] == [1]


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_two_hundred_games_per_player_count(players: int) -> None:
    for index in range(200):
        check_game(play(1000 + index, players, steer=index % 2 == 0), players)
