"""Age of Steam's event kinds of the order of play (the opening, turns and phases): one frozen
dataclass each, its fields the record's `data`. Each mechanism module declares its own kinds
beside its rules (`shares`, `auction`, `actions`, `build_track`, `move_goods`, `income`,
`growth`, `scoring`); `catalogue` collects them all.

Each kind's first docstring paragraph is its published meaning (`caboose catalogue`). The
fields are in the order the record has always written them; a value that is sometimes null
(`returned`) is a required field, so it stays in the record as `null` rather than vanishing.
Events that used randomness keep its outcome under `random` (`domain/core/randomness.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.events import Event
from domain.core.randomness import RANDOM_KEY, rolled

Outcome = dict[str, int]
"""A stored `randbelow` outcome: `{"below": n, "value": v}`."""


def outcome(n: int, value: int) -> Outcome:
    """The `random` field of an event that drew `randbelow(n)` and got `value`."""
    stored: Outcome = rolled(n, value)[RANDOM_KEY]
    return stored

# --- the opening --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class OrderDieRolled(Event):
    """One of a seat's three dice rolled for the starting player order (ties roll again in a
    later round)."""

    seat: int
    round: int
    die: int
    value: int
    random: Outcome


@dataclass(frozen=True, kw_only=True)
class PlayerOrderSet(Event):
    """The starting player order, highest dice total first."""

    order: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class StartingCapitalTaken(Event):
    """A seat took its opening shares and the cash they bring from the bank."""

    seat: int
    shares: int
    cash: int


@dataclass(frozen=True, kw_only=True)
class DisplayCubeDrawn(Event):
    """A cube drawn from the bag onto a space of the goods display at the start."""

    column: str
    space: int
    cube: str
    random: Outcome


@dataclass(frozen=True, kw_only=True)
class CityCubeDrawn(Event):
    """A cube drawn from the bag onto a city at the start."""

    hex: str
    city: str
    cube: str
    random: Outcome


# --- turns and phases ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnBegan(Event):
    """A game turn began; the actions of the turn before are free again."""

    turn: int
    last_turn: int


@dataclass(frozen=True, kw_only=True)
class PhaseBegan(Event):
    """A phase of the turn began, with the seats that act in it in order (empty for the
    automatic phases)."""

    phase: str
    queue: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """A game turn ended after goods growth."""

    turn: int


KINDS: tuple[type[Event], ...] = (
    OrderDieRolled, PlayerOrderSet, StartingCapitalTaken, DisplayCubeDrawn, CityCubeDrawn, TurnBegan, PhaseBegan,
    TurnEnded,
)
