"""Random legal playouts: complete games for 2 to 5 seats, choosing uniformly among the
legal moves, with the invariants checked after every event; and a replay of recorded games
from their stored random outcomes alone, as the auditor does."""

from __future__ import annotations

import random

import pytest

from domain.core.audit import audit
from domain.core.decider import Setup
from domain.core.events import PUBLIC, Audience
from domain.core.leaks import leaks
from domain.core.randomness import SeededRandom
from domain.ticket_to_ride import DECIDER
from tests import playouts

GAMES = 30
LABEL = "ticket-to-ride"


def seed_of(index: int) -> bytes:
    return playouts.seed_of(LABEL, index)


def play_out(index: int, seats: int, check: bool = True) -> playouts.Playout:
    return playouts.play_out(DECIDER, LABEL, index, seats, check=check, exact_move_of=True, max_moves=3000)


@pytest.mark.parametrize("index", range(GAMES))
def test_a_random_game_ends_with_final_scoring(index: int) -> None:
    seats = 2 + index % 4
    game = play_out(index, seats)
    assert game.state is not None and DECIDER.is_over(game.state)
    last = game.commands[-1][2]
    assert last[-1].kind == "GameEnded"
    assert [e.kind for e in last].count("LongestPathScored") == 1
    ended = last[-1].data
    assert {int(s): total for s, total in ended["scores"].items()} == DECIDER.scores(game.state)
    assert ended["winners"] and set(ended["winners"]) <= set(range(seats))
    scored = [e for _, _, events in game.commands for e in events if e.kind == "TicketScored"]
    assert len(scored) == sum(len(seat.tickets) for seat in game.state.seats)


def test_views_never_leak_during_a_game() -> None:
    rng, chooser = SeededRandom(seed_of(99)), random.Random(99)
    state = DECIDER.initial_state(Setup(("a", "b", "c")))
    for event in DECIDER.setup(state, rng):
        state = DECIDER.evolve(state, event)
    while not DECIDER.is_over(state):
        public = DECIDER.view(state, PUBLIC)
        assert leaks(public, {seat: DECIDER.view(state, Audience(seat=seat)) for seat in range(3)}) == []
        seat = chooser.choice(sorted(DECIDER.active_seats(state)))
        for event in DECIDER.decide(state, seat, chooser.choice(DECIDER.legal_moves(state, seat)), rng):
            state = DECIDER.evolve(state, event)


@pytest.mark.parametrize("index", range(4))
def test_a_game_replays_from_its_stored_random_outcomes(index: int) -> None:
    playouts.check_replay_from_outcomes(DECIDER, play_out(100 + index, 2 + index, check=False))


def test_a_recorded_game_passes_the_referees_audit() -> None:
    report = audit(playouts.record_of(DECIDER, play_out(200, 3, check=False)))
    assert report.ok, report.text()
    assert report.rules.ok and report.seed.ok


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_hoarding_games_run_the_deck_dry_and_keep_every_invariant(seats: int) -> None:
    """Seats that almost never claim empty the deck, the discard and the market, so empty
    slots (ruling 2), short draws and passes (ruling 4) happen in play."""
    rng, chooser = SeededRandom(seed_of(5000 + seats - 2)), random.Random(seats - 2)
    state = DECIDER.initial_state(Setup(tuple(f"player {i + 1}" for i in range(seats))))
    for event in DECIDER.setup(state, rng):
        state = DECIDER.evolve(state, event)
    empty_slots = passes = 0
    while not DECIDER.is_over(state):
        seat = chooser.choice(sorted(DECIDER.active_seats(state)))
        moves = DECIDER.legal_moves(state, seat)
        others = [m for m in moves if m["type"] != "claim_route"]
        move = chooser.choice(others if others and chooser.random() < 0.97 else moves)
        passes += move["type"] == "pass"
        for event in DECIDER.decide(state, seat, move, rng):
            state = DECIDER.evolve(state, event)
            assert DECIDER.invariants(state) == [], event.kind
        empty_slots += None in state.market
    assert empty_slots > 0
    if seats == 5:
        assert passes > 0  # this seed's five-seat game reaches positions with nothing else to do
