"""A game's log as the rules see it: the events the core itself records around every
game (`GameCreated`, `SeedRevealed`), and the one path by which a move becomes events.

The aggregate, the auditor and the simulator all go through `play` and `apply`, so a
game is judged the same way when it is played, replayed and audited.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from domain import games
from domain.core.decider import Decider, Move, Setup
from domain.core.envelope import to_event
from domain.core.errors import GameOver, NotYourTurn, RecordError
from domain.core.events import Event
from domain.core.randomness import Randomness

GAME_CREATED = "GameCreated"
SEED_REVEALED = "SeedRevealed"
CORE_KINDS = frozenset({GAME_CREATED, SEED_REVEALED})


def game_created(decider: Decider[Any], setup: Setup, seed_commitment: str, seed_source: str) -> Event:
    return Event(
        GAME_CREATED,
        {
            "game": decider.name,
            "ruleset_version": decider.ruleset_version,
            "seats": [{"seat": i, "name": name} for i, name in enumerate(setup.seats)],
            "options": dict(setup.options),
            "seed_commitment": seed_commitment,
            "seed_source": seed_source,
        },
        automatic=True,
    )


def seed_revealed(seed: bytes) -> Event:
    return Event(SEED_REVEALED, {"seed": seed.hex()}, automatic=True)


def setup_of(created: dict[str, Any]) -> Setup:
    seats = sorted(created["seats"], key=lambda s: s["seat"])
    return Setup(seats=tuple(s["name"] for s in seats), options=created["options"])


def decider_of(created: dict[str, Any]) -> Decider[Any]:
    return games.ruleset(created["game"], created["ruleset_version"])


def play(decider: Decider[Any], state: Any, seat: int, move: Move, rng: Randomness, seed: bytes | None) -> list[Event]:
    """The events `move` by `seat` causes, with the seed's reveal when the game ends.
    Raises the rules' errors; nothing is changed."""
    if decider.is_over(state):
        raise GameOver()
    if seat not in decider.active_seats(state):
        raise NotYourTurn(seat)
    events = decider.decide(state, seat, move, rng)
    after = state
    for event in events:
        after = decider.evolve(after, event)
    if decider.is_over(after) and seed is not None:
        events.append(seed_revealed(seed))
    return events


def apply(decider: Decider[Any], state: Any, event: Event) -> Any:
    """The game state after one event of any kind."""
    return state if event.kind in CORE_KINDS else decider.evolve(state, event)


@dataclass(frozen=True)
class Replay:
    """A game folded from its full record."""

    decider: Decider[Any]
    created: dict[str, Any]
    state: Any
    version: int


def replay(records: Iterable[dict[str, Any]], upto: int | None = None) -> Replay:
    """Fold full records (optionally only the first `upto` events) into a state."""
    iterator = iter(records)
    first = next(iterator, None)
    if first is None or first.get("kind") != GAME_CREATED:
        raise RecordError("no_game_created", "a game record starts with GameCreated", 1)
    decider = decider_of(first["data"])
    state = decider.initial_state(setup_of(first["data"]))
    version = 1
    for record in iterator:
        if upto is not None and record["version"] > upto:
            break
        state = apply(decider, state, to_event(record))
        version = record["version"]
    return Replay(decider, first["data"], state, version)
