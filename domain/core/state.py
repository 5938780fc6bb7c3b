"""Copy-on-write for game states (frozen dataclasses)."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(value: T, **changes: Any) -> T:
    """`dataclasses.replace` without the trip through `__init__`, which dominated the cost
    of a playout: the unchanged fields are shared, the changed ones are fresh values."""
    if not value.__dict__.keys() >= changes.keys():
        raise TypeError(f"{type(value).__name__} has no field {sorted(changes.keys() - value.__dict__.keys())}")
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__, **changes)
    return new


def replace_seat(state: T, seat: int, **changes: Any) -> T:
    """`state` with `changes` made to `state.seats[seat]` (states keep seats in a tuple)."""
    seats = list(state.seats)  # type: ignore[attr-defined]
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))
