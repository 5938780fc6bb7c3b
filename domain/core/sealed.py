"""Sealed simultaneous phases: every seat of a set submits one choice independently and
secretly; the phase resolves when the last one is in.

A game keeps a `Sealed` in its state for the phase, makes `active_seats` its `waiting`
(so the API's summary and `waiting_for_me` show who is still to submit), records each
choice with `SubmissionSealed` (the choice a secret to its own seat; the public learns only
that the seat has submitted) and, when `complete`, records `SubmissionsRevealed` with every
choice in public before resolving them. Nothing here knows a game: the choice is whatever
JSON the game stores.

A game whose records predate this helper keeps its own kinds of event (Ticket to Ride's
opening): it keeps the `Sealed` all the same, folding its own submission into `submitted`
and emitting its own reveal once the phase is `complete`, so who is waiting and what was
chosen still live here while its records stay as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.core.catalogue import Catalogue
from domain.core.events import Event, Secret
from domain.core.state import Frozen


@dataclass(frozen=True)
class Sealed(Frozen):
    """Who must submit in the current sealed phase, and the choices already in."""

    phase: str
    seats: tuple[int, ...]
    choices: dict[int, Any] = field(default_factory=dict)
    """Seat -> its submitted choice; each a secret to that seat until the reveal."""

    @property
    def waiting(self) -> frozenset[int]:
        """The seats still to submit."""
        return frozenset(s for s in self.seats if s not in self.choices)

    @property
    def complete(self) -> bool:
        return not self.waiting

    def submitted(self, seat: int, choice: Any) -> Sealed:
        return Sealed(self.phase, self.seats, {**self.choices, seat: choice})


@dataclass(frozen=True, kw_only=True)
class SubmissionSealed(Event):
    """A seat submitted its choice for a sealed phase; the choice is a secret to that seat.

    The public data say only who submitted, in which phase."""

    seat: int
    phase: str


@dataclass(frozen=True, kw_only=True)
class SubmissionsRevealed(Event):
    """Every seat had submitted: the sealed choices, made public by seat."""

    phase: str
    choices: dict[str, Any]


SEALED_EVENTS = Catalogue(SubmissionSealed, SubmissionsRevealed, name="sealed")
"""A game with a sealed phase adds these to its own catalogue."""


def open_phase(phase: str, seats: tuple[int, ...]) -> Sealed:
    return Sealed(phase, seats)


def seal(sealed: Sealed, seat: int, choice: Any) -> list[Event]:
    """The events of `seat` submitting `choice`: its sealed submission, and the reveal when it
    was the last one in. The caller has checked the seat is waiting and the choice is legal."""
    if seat not in sealed.waiting:
        raise ValueError(f"seat {seat} is not waiting to submit in {sealed.phase}")
    events: list[Event] = [SubmissionSealed(seat=seat, phase=sealed.phase, secrets=(Secret((seat,), choice),))]
    after = sealed.submitted(seat, choice)
    if after.complete:
        events.append(SubmissionsRevealed(phase=sealed.phase, choices={str(s): after.choices[s] for s in sorted(after.seats)},
                                          automatic=True))
    return events


def apply(sealed: Sealed, event: Event) -> Sealed:
    """`sealed` after one of its events (the reveal changes nothing: the choices are in)."""
    if isinstance(event, SubmissionSealed):
        return sealed.submitted(event.seat, event.secret())
    return sealed
