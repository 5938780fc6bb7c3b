"""`pebbles`' event kinds (the `events` catalogue its rules declare) and its state."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.events import Event, means
from domain.core.kinds import Roll


@dataclass(frozen=True, kw_only=True)
class FirstSeatRolled(Event):
    """The seat to take first was drawn at random."""

    seat: int
    random: Roll


@dataclass(frozen=True, kw_only=True)
class PebblesTaken(Event):
    """A seat took pebbles from the heap."""

    seat: int
    count: int = field(metadata=means("How many it took."))
    left: int = field(metadata=means("How many are left on the heap."))


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The last pebble was taken: its taker wins."""

    scores: dict[str, int]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class PebblesState:
    seats: int
    left: int
    turn: int | None = None
    taken: tuple[int, ...] = ()
    winner: int | None = None
