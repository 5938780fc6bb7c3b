"""Random playouts with the simulation bot: complete games for 3 to 6 seats with the
invariants checked after every event; replays from the stored random outcomes alone, as the
auditor does; and the referee's audit of a recorded game."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from domain.age_of_steam import DECIDER
from domain.age_of_steam.state import State
from domain.core import log
from domain.core.audit import audit
from domain.core.decider import Setup
from domain.core.envelope import GENESIS_HASH, seal
from domain.core.events import Event
from domain.core.randomness import RecordedRandom, SeededRandom, commitment, outcomes_in


@dataclass
class Game:
    seed: bytes
    setup: Setup
    opening: list[Event]
    commands: list[tuple[int, dict[str, object], list[Event]]] = field(default_factory=list)
    state: State | None = None
    kinds: Counter[str] = field(default_factory=Counter)


def seed_of(index: int) -> bytes:
    return hashlib.sha256(f"age-of-steam playout {index}".encode()).digest()


def play_out(index: int, seats: int, check: bool = True) -> Game:
    rng, chooser = SeededRandom(seed_of(index)), random.Random(index)
    setup = Setup(tuple(f"player {i + 1}" for i in range(seats)))
    state = DECIDER.initial_state(setup)
    game = Game(seed_of(index), setup, DECIDER.setup(state, rng))
    for event in game.opening:
        state = DECIDER.evolve(state, event)
        assert not check or DECIDER.invariants(state) == [], event.kind
    for _ in range(5000):
        active = sorted(DECIDER.active_seats(state))
        if not active:
            break
        seat = chooser.choice(active)
        moves = DECIDER.legal_moves(state, seat)
        assert moves, f"seat {seat} is active but has no legal move"
        move = DECIDER.playout_choice(state, seat, moves, chooser)
        assert move in moves
        events = DECIDER.decide(state, seat, move, rng)
        assert not events[0].automatic and all(e.automatic for e in events[1:])
        # The auditor re-plays the move `move_of` recovers; it must give the same events.
        recovered = DECIDER.move_of(events[0])
        assert recovered is not None
        for event in events:
            state = DECIDER.evolve(state, event)
            game.kinds[event.kind] += 1
            if check:
                problems = DECIDER.invariants(state)
                assert problems == [], f"game {index} after {event.kind}: {problems}"
        game.commands.append((seat, recovered, events))
    game.state = state
    return game


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


def outcomes(events: list[Event]) -> RecordedRandom:
    return RecordedRandom(outcomes_in(event.data for event in events))


@pytest.mark.parametrize("seats", [3, 6])
def test_a_game_replays_from_its_stored_random_outcomes(seats: int) -> None:
    game = play_out(100 + seats, seats, check=False)
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
    from domain import games

    if ("age_of_steam", "1") not in getattr(games, "_RULESETS", {}):
        games.register(DECIDER)
    game = play_out(200, 4, check=False)
    records: list[dict[str, object]] = []

    def store(event: Event, actor: str, command: str | None) -> None:
        prev = records[-1]["hash"] if records else GENESIS_HASH
        records.append(seal(game_id="g", version=len(records) + 1, time="2026-01-01T00:00:00Z", actor=actor,
                            command_id=command, event=event, prev_hash=str(prev), new_salt=lambda: "00" * 16))

    created = log.game_created(DECIDER, Setup(game.setup.seats, DECIDER.options({}, 4)), commitment(game.seed), "client")
    store(created, "system", "create")
    for event in game.opening:
        store(event, "system", "create")
    for number, (seat, _, events) in enumerate(game.commands):
        for event in events:
            store(event, "system" if event.automatic else f"seat:{seat}", f"c{number}")
    store(log.seed_revealed(game.seed), "system", f"c{len(game.commands) - 1}")
    report = audit(records)
    assert report.ok, report.text()
    assert report.rules.ok and report.seed.ok


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_many_random_games(seats: int) -> None:
    for index in range(25):
        game = play_out(1000 * seats + index, seats)
        assert game.state is not None and DECIDER.is_over(game.state)
