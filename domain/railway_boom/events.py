"""Railway Boom's event kinds of the order of play (a phase begins, a seat's turn ends, the
offer's leftovers are boxed at a phase's end): one frozen dataclass each, its fields the
record's `data`. Each mechanism module declares its own kinds beside its rules (`setup`,
`resources`, `bidding`, `effects`, `trains`, `expansion`, `development`, `choices`,
`operation`, `goals`, `scoring`); `catalogue` collects them all (`docs/rules/railway_boom.md`,
"What the service will record": each payment, gain and score line is its own event)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.events import Event


@dataclass(frozen=True, kw_only=True)
class PhaseStarted(Event):
    """A phase of a round began; `resource` is what its auction is bid with."""

    round: int
    phase: str
    resource: str = ""
    goal: str | None = None


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """A seat finished its action in a phase."""

    seat: int
    power_lost: int = 0


@dataclass(frozen=True, kw_only=True)
class CardsBoxed(Event):
    cards: tuple[str, ...]


KINDS: tuple[type[Event], ...] = (PhaseStarted, TurnEnded, CardsBoxed)
