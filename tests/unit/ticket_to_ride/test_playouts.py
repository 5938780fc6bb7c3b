"""Random legal playouts: complete games for 2 to 5 seats, choosing uniformly among the
legal moves, with the invariants checked after every event; and a replay of recorded games
from their stored random outcomes alone, as the auditor does."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

import pytest

from domain.core import log
from domain.core.audit import audit
from domain.core.decider import Setup
from domain.core.envelope import GENESIS_HASH, seal
from domain.core.events import PUBLIC, Audience, Event
from domain.core.leaks import leaks
from domain.core.randomness import RecordedRandom, SeededRandom, commitment, outcomes_in
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.state import State

GAMES = 30


@dataclass
class Game:
    seed: bytes
    setup: Setup
    opening: list[Event]
    commands: list[tuple[int, dict[str, object], list[Event]]] = field(default_factory=list)
    state: State | None = None


def seed_of(index: int) -> bytes:
    return hashlib.sha256(f"ticket-to-ride playout {index}".encode()).digest()


def play_out(index: int, seats: int, check: bool = True) -> Game:
    rng, chooser = SeededRandom(seed_of(index)), random.Random(index)
    setup = Setup(tuple(f"player {i + 1}" for i in range(seats)))
    state = DECIDER.initial_state(setup)
    game = Game(seed_of(index), setup, DECIDER.setup(state, rng))
    for event in game.opening:
        state = DECIDER.evolve(state, event)
        assert not check or DECIDER.invariants(state) == [], event.kind
    for _ in range(3000):
        active = sorted(DECIDER.active_seats(state))
        if not active:
            break
        seat = chooser.choice(active)
        moves = DECIDER.legal_moves(state, seat)
        assert moves, f"seat {seat} is active but has no legal move"
        move = chooser.choice(moves)
        events = DECIDER.decide(state, seat, move, rng)
        assert not events[0].automatic and DECIDER.move_of(events[0]) == move
        for event in events:
            state = DECIDER.evolve(state, event)
            if check:
                problems = DECIDER.invariants(state)
                assert problems == [], f"game {index} after {event.kind}: {problems}"
        game.commands.append((seat, move, events))
    game.state = state
    return game


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


def outcomes(events: list[Event]) -> RecordedRandom:
    values: list[object] = []
    for event in events:
        values.append(event.data)
        values.extend(secret.value for secret in event.secrets)
    return RecordedRandom(outcomes_in(values))


@pytest.mark.parametrize("index", range(4))
def test_a_game_replays_from_its_stored_random_outcomes(index: int) -> None:
    game = play_out(100 + index, 2 + index, check=False)
    state = DECIDER.initial_state(game.setup)
    recorded = outcomes(game.opening)
    assert DECIDER.setup(state, recorded) == game.opening and recorded.exhausted()
    for event in game.opening:
        state = DECIDER.evolve(state, event)
    for seat, move, events in game.commands:
        recorded = outcomes(events)
        assert DECIDER.decide(state, seat, move, recorded) == events
        assert recorded.exhausted()
        for event in events:
            state = DECIDER.evolve(state, event)
    assert state == game.state


def test_a_recorded_game_passes_the_referees_audit() -> None:
    game = play_out(200, 3, check=False)
    records: list[dict[str, object]] = []

    def store(event: Event, actor: str, command: str | None) -> None:
        prev = records[-1]["hash"] if records else GENESIS_HASH
        records.append(seal(game_id="g", version=len(records) + 1, time="2026-01-01T00:00:00Z", actor=actor,
                            command_id=command, event=event, prev_hash=str(prev), new_salt=lambda: "00" * 16))

    created = log.game_created(DECIDER, Setup(game.setup.seats, DECIDER.options({}, 3)), commitment(game.seed), "client")
    store(created, "system", "create")
    for event in game.opening:
        store(event, "system", "create")
    for number, (seat, _, events) in enumerate(game.commands):
        for event in events:
            store(event, f"seat:{seat}", f"c{number}")
    store(log.seed_revealed(game.seed), "system", f"c{len(game.commands) - 1}")
    report = audit(records)
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
