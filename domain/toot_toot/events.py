"""Toot-Toot Train's event kinds of the order of play: a turn ended, and an extra turn begun
(R20). Each mechanism module declares its own kinds beside its rules (`setup`, `orders`,
`goods`, `penalties`, `draw_track`, `train`, `build_factory`, `locations`, `technology`,
`end_of_game`, `final_scoring`); `catalogue` collects them all ("What the service will
record" on the rules page). Each payment, gain, penalty and score line is its own event.

The class name is the record's `kind`; the first line of a docstring is the kind's published
meaning (`caboose catalogue`, docs/catalogue.md)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.events import Event


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class ExtraTurnBegan(Event):
    seat: int


KINDS: tuple[type[Event], ...] = (TurnEnded, ExtraTurnBegan)
