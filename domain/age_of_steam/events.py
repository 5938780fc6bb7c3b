"""Age of Steam's event kinds that belong to no one mechanism module (the opening, turns and
phases, actions, track, deliveries, the end): one frozen dataclass each, its fields the
record's `data`. The mechanism modules (`auction`, `shares`, `income`, `growth`) declare their
own; `catalogue` collects them all.

Each kind's first docstring paragraph is its published meaning (`caboose catalogue`). The
fields are in the order the record has always written them; a value that is sometimes null
(`returned`) is a required field, so it stays in the record as `null` rather than vanishing.
Events that used randomness keep its outcome under `random` (`domain/core/randomness.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


# --- special actions ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ActionSelected(Event):
    """A seat selected a special action for this turn."""

    seat: int
    action: str


@dataclass(frozen=True, kw_only=True)
class LocomotiveIncreased(Event):
    """The Locomotive action raised a seat's locomotive by one link."""

    seat: int
    before: int
    after: int


# --- building track -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BuildTurnBegan(Event):
    """A seat's build step began: how many tiles it may place, and its incomplete links at
    risk of being abandoned (anchor, length)."""

    seat: int
    limit: int
    at_risk: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class TrackBuilt(Event):
    """A seat placed, upgraded or redirected a track tile, paying its cost; `owners` is the
    tile's owner per path, `taken` the segments it newly owns elsewhere."""

    seat: int
    hex: str
    place: str
    tile: str
    rotation: int
    cost: int
    placement: str = field(metadata={"key": "kind"})
    owners: tuple[int | None, ...]
    disc: bool
    disc_delta: int
    returned: str | None
    taken: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class CityUrbanized(Event):
    """A seat placed a new city on a town (the Urbanization action); the town's tile, if
    any, went back to the supply."""

    seat: int
    hex: str
    town: str
    city: str
    colour: str
    returned: str | None
    claimed: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class BuildEnded(Event):
    """A seat ended its build step, having placed `placed` tiles."""

    seat: int
    placed: int


@dataclass(frozen=True, kw_only=True)
class TrackAbandoned(Event):
    """A seat's incomplete links at risk were not extended this turn and lost their owner."""

    seat: int
    links: tuple[str, ...]
    segments: tuple[tuple[str, int], ...]


# --- moving goods -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GoodsDelivered(Event):
    """A seat moved a goods cube along links to a city of its colour; each link's owner
    gained one income per link."""

    seat: int
    round: int
    cube: str
    source: str = field(metadata={"key": "from"})
    to: str
    stops: tuple[str, ...]
    places: tuple[str, ...]
    links: tuple[str, ...]
    owners: tuple[int | None, ...]
    income: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class LocomotiveUpgradedInsteadOfMove(Event):
    """A seat upgraded its locomotive instead of one delivery."""

    seat: int
    round: int
    before: int
    after: int


@dataclass(frozen=True, kw_only=True)
class MovePassed(Event):
    """A seat passed one round of moving goods."""

    seat: int
    round: int


# --- the end ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FinalScored(Event):
    """A seat's final score by source: 3 per income, -3 per share, 1 per track tile."""

    seat: int
    income: int
    shares: int
    track: int
    income_vp: int
    shares_vp: int
    track_vp: int
    vp: int
    cash: int


@dataclass(frozen=True, kw_only=True)
class TieBreakRolled(Event):
    """A die rolled to break a tie left after score, cash and track."""

    seat: int
    round: int
    value: int
    random: Outcome


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The game is over: every seat's score, the winners, the seats eliminated and what
    decided the winner."""

    scores: dict[str, int]
    winners: tuple[int, ...]
    eliminated: tuple[int, ...]
    decided_by: str
