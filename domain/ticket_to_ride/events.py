"""Ticket to Ride's event kinds of the order of play: one frozen dataclass each, its fields the
record's `data` (docs/FORMAT.md). Each mechanism module declares its own kinds beside its rules
(`opening`, `tickets`, `train_cards`, `claim_route`, `last_round`, `scoring`); `catalogue`
collects them all.

The class name is the record's `kind`; the first line of each docstring is the kind's
published meaning (`caboose catalogue`, docs/catalogue.md). What a seat alone may see (a dealt
hand, a shuffle's order, a ticket choice) is not a field but a secret of the event
(`Event.secrets`), described in words in the kind's docstring.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.events import Event, means


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    """A seat's turn began."""

    seat: int = field(metadata=means("The seat, from 0."))


KINDS: tuple[type[Event], ...] = (TurnStarted,)
