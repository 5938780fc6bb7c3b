"""Random playouts of any game through its decider alone, for the games' unit tests: play
to the end with invariants after every event, replay from the stored random outcomes as the
auditor does, and seal a played game into a record for the audit."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from domain.core import log
from domain.core.decider import Decider, Setup
from domain.core.envelope import GENESIS_HASH, seal
from domain.core.events import Event
from domain.core.randomness import RecordedRandom, SeededRandom, commitment, outcomes_in


@dataclass
class Playout:
    seed: bytes
    setup: Setup
    opening: list[Event]
    commands: list[tuple[int, dict[str, Any], list[Event]]] = field(default_factory=list)
    state: Any = None
    kinds: Counter[str] = field(default_factory=Counter)


def seed_of(label: str, index: int) -> bytes:
    return hashlib.sha256(f"{label} playout {index}".encode()).digest()


def play_out(decider: Decider[Any], label: str, index: int, seats: int, *, check: bool = True,
             steer: bool = False, exact_move_of: bool = False, max_moves: int = 5000) -> Playout:
    """Play game `index` to its end; `steer` lets the game's `playout_choice` pick moves."""
    rng, chooser = SeededRandom(seed_of(label, index)), random.Random(index)
    setup = Setup(tuple(f"player {i + 1}" for i in range(seats)), decider.options({}, seats))
    state = decider.initial_state(setup)
    game = Playout(seed_of(label, index), setup, decider.setup(state, rng))
    for event in game.opening:
        state = decider.evolve(state, event)
        assert not check or decider.invariants(state) == [], event.kind  # type: ignore[attr-defined]
    for _ in range(max_moves):
        active = sorted(decider.active_seats(state))
        if not active:
            break
        seat = chooser.choice(active)
        moves = decider.legal_moves(state, seat)
        assert moves, f"seat {seat} is active but has no legal move"
        move = decider.playout_choice(state, seat, moves, chooser) if steer else chooser.choice(moves)  # type: ignore[attr-defined]
        assert move in moves
        events = decider.decide(state, seat, move, rng)
        assert not events[0].automatic and all(e.automatic for e in events[1:])
        # The auditor re-plays the move `move_of` recovers; it must give the same events.
        recovered = decider.move_of(events[0])
        assert recovered is not None and (not exact_move_of or recovered == move)
        for event in events:
            state = decider.evolve(state, event)
            game.kinds[event.kind] += 1
            if check:
                problems = decider.invariants(state)  # type: ignore[attr-defined]
                assert problems == [], f"game {index} after {event.kind}: {problems}"
        game.commands.append((seat, recovered, events))
    game.state = state
    return game


def outcomes(events: list[Event]) -> RecordedRandom:
    values: list[object] = []
    for event in events:
        values.append(event.data)
        values.extend(secret.value for secret in event.secrets)
    return RecordedRandom(outcomes_in(values))


def check_replay_from_outcomes(decider: Decider[Any], game: Playout) -> None:
    """Every command gives the same events again from its stored random outcomes alone."""
    state = decider.initial_state(game.setup)
    recorded = outcomes(game.opening)
    assert decider.setup(state, recorded) == game.opening and recorded.exhausted()
    for event in game.opening:
        state = decider.evolve(state, event)
    for seat, move, events in game.commands:
        recorded = outcomes(events)
        assert decider.decide(state, seat, move, recorded) == events
        assert recorded.exhausted()
        for event in events:
            state = decider.evolve(state, event)
    assert state == game.state


def record_of(decider: Decider[Any], game: Playout, game_id: str = "g") -> list[dict[str, Any]]:
    """The played game as a sealed FORMAT.md record, seed revealed at the end (a store takes
    only a UUID for `game_id`)."""
    records: list[dict[str, Any]] = []

    def store(event: Event, actor: str, command: str | None) -> None:
        prev = records[-1]["hash"] if records else GENESIS_HASH
        records.append(seal(game_id=game_id, version=len(records) + 1, time="2026-01-01T00:00:00Z", actor=actor,
                            command_id=command, event=event, prev_hash=str(prev), new_salt=lambda: "00" * 16))

    seats = len(game.setup.seats)
    store(log.game_created(decider, Setup(game.setup.seats, decider.options({}, seats)), commitment(game.seed), "client"),
          "system", "create")
    for event in game.opening:
        store(event, "system", "create")
    for number, (seat, _, events) in enumerate(game.commands):
        for event in events:
            store(event, f"seat:{seat}", f"c{number}")
    store(log.seed_revealed(game.seed), "system", f"c{len(game.commands) - 1}")
    return records


def fold(decider: Decider[Any], state: Any, events: list[Event] | Any) -> Any:
    for event in events:
        state = decider.evolve(state, event)
    return state


def set_up(decider: Decider[Any], seats: int, seed: bytes) -> tuple[Any, list[Event], SeededRandom]:
    """A game of `seats` right after its setup events, with the generator that made them."""
    rng = SeededRandom(seed)
    state = decider.initial_state(Setup(tuple(f"player {i + 1}" for i in range(seats)), decider.options({}, seats)))
    events = decider.setup(state, rng)
    return fold(decider, state, events), events, rng
