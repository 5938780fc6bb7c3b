"""Every kind of event a game of Railway Boom records (`docs/rules/railway_boom.md`,
"What the service will record"). Each payment, gain and score line is its own event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.core.catalogue import Catalogue
from domain.core.events import Event
from domain.core.sealed import SEALED_EVENTS

# --- setup ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DeckShuffled(Event):
    """A deck was shuffled face down; the order is a secret for referees (its `random`)."""

    deck: str
    count: int


@dataclass(frozen=True, kw_only=True)
class CardsRevealedBeside(Event):
    """The goal or route cards were shuffled and the first 4 revealed; the rest are boxed."""

    deck: str
    revealed: tuple[str, ...]
    random: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class CityTilesPlaced(Event):
    """City tiles of one kind on their spaces: the pack's first-game layout, or dealt at
    random (R4)."""

    spaces: str
    tiles: dict[str, str]
    random: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class GoalSpacesBlocked(Event):
    """With 2-3 players, cubes of an unused colour block goal spaces (setup step 6)."""

    spaces: dict[str, tuple[int, ...]]


@dataclass(frozen=True, kw_only=True)
class StartingOrderDrawn(Event):
    """Each seat revealed a station card; the highest number sits right-most (setup 8)."""

    cards: dict[str, str]
    order: tuple[int, ...]


# --- rounds, phases, the bid track -------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PhaseStarted(Event):
    """A phase of a round began; `resource` is what its auction is bid with."""

    round: int
    phase: str
    resource: str = ""
    goal: str | None = None


@dataclass(frozen=True, kw_only=True)
class ResourcesConverted(Event):
    """2 of one resource became 1 of another, `pairs` times (R11)."""

    seat: int
    source: str
    into: str
    pairs: int


@dataclass(frozen=True, kw_only=True)
class BidRaised(Event):
    """A seat moved its disc to an empty higher space, holding `holding` of the resource."""

    seat: int
    space: int
    resource: str
    holding: int
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class BidLocked(Event):
    """A seat locked in its bid and left the auction."""

    seat: int
    space: int


@dataclass(frozen=True, kw_only=True)
class BidPaid(Event):
    """A seat paid for its rank by the priority table (R10)."""

    seat: int
    rank: int
    bid: int
    share: str
    paid: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class PaymentAwaited(Event):
    """A "?" bid is due and the seat chooses the mix it pays in (R12); its `pay` move
    answers with the BidPaid."""

    seat: int
    rank: int
    bid: int
    share: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class ActionOrderSet(Event):
    """The discs returned to the white spaces; the action step runs in `ranks` order."""

    ranks: tuple[int, ...]
    order: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """A seat finished its action in a phase."""

    seat: int
    power_lost: int = 0


# --- resources and VP --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ResourceGained(Event):
    seat: int
    resource: str
    amount: int
    source: str
    lost: int = 0
    """Above the pack's `resource_max` (R36)."""


@dataclass(frozen=True, kw_only=True)
class ResourcePaid(Event):
    seat: int
    resource: str
    amount: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class VPScored(Event):
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, kw_only=True)
class IncomeRaised(Event):
    """An income cube moved up; any icon entered fires next (R24). `plus` is the "+" value
    beside the level it is on now: what each income phase pays on this track from now on."""

    seat: int
    track: str
    level: int
    plus: int
    source: str
    lost: int = 0


@dataclass(frozen=True, kw_only=True)
class IconReached(Event):
    seat: int
    track: str
    level: int


@dataclass(frozen=True, kw_only=True)
class PowerGained(Event):
    seat: int
    amount: int
    source: str


# --- phase 1: trains ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TrainsRevealed(Event):
    locomotives: tuple[str, ...]
    cars: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class LocomotiveTaken(Event):
    seat: int
    card: str


@dataclass(frozen=True, kw_only=True)
class CarBought(Event):
    seat: int
    card: str
    price: int
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class CardsBoxed(Event):
    cards: tuple[str, ...]


# --- phase 2: expansion --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StationCardsRevealed(Event):
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class StationBuilt(Event):
    """A station on a marked city; a rail of the seat's there came back to its supply, and
    `income` names the extra track raised for it (R14)."""

    seat: int
    city: str
    card: str
    income: str | None = None
    rail_returned: bool = False


@dataclass(frozen=True, kw_only=True)
class RailLaid(Event):
    """A rail on `hex`: its power cost, the surcharge for other players' pieces, and how it
    was paid (power, then money); a free rail pays nothing (R25)."""

    seat: int
    hex: str
    cost: int
    surcharge: int
    power: int
    money: int
    free: bool = False
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class TileGained(Event):
    """A resource tile from a normal city's tile (R18)."""

    seat: int
    hex: str
    tile: str


@dataclass(frozen=True, kw_only=True)
class TouristVisited(Event):
    seat: int
    hex: str
    tile: str


@dataclass(frozen=True, kw_only=True)
class CardUsed(Event):
    """A once-per-round card turned sideways."""

    seat: int
    card: str


# --- phase 3: development ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RowsDealt(Event):
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, kw_only=True)
class RowChosen(Event):
    seat: int
    row: int
    card: str


@dataclass(frozen=True, kw_only=True)
class DevelopmentBought(Event):
    seat: int
    card: str
    price: int
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class CardsUnderDeck(Event):
    """Leftover development cards went under the deck, in an order secret to referees."""

    count: int


@dataclass(frozen=True, kw_only=True)
class ChoiceAwaited(Event):
    """An effect waits for its owner's choice."""

    seat: int
    card: str
    effect: str
    amount: int = 1
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ChoiceMade(Event):
    """The answer to a pending effect; for draw-two-buy-one, the card bought and its `price`
    (the other drawn card goes under the deck) and the conversion into technology made just
    before paying it (R11)."""

    seat: int
    card: str
    choice: str
    price: int | None = None
    convert: dict[str, int] | None = None


# --- phase 5: operation --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TilePlaced(Event):
    """A resource tile put on a train card for good (R28)."""

    seat: int
    card: str
    tile: str


@dataclass(frozen=True, kw_only=True)
class TrainFormed(Event):
    seat: int
    locomotive: str
    cars: tuple[str, ...]
    free: str | None = None


@dataclass(frozen=True, kw_only=True)
class CardRan(Event):
    seat: int
    card: str
    coal: int


# --- phase 6 and the end -------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GoalReserved(Event):
    seat: int
    goal: str
    space: int
    multiplier: int


@dataclass(frozen=True, kw_only=True)
class GoalMissed(Event):
    """No free space was left on the round's goal card: the cube stays (R29)."""

    seat: int
    goal: str


@dataclass(frozen=True, kw_only=True)
class CardsStoodUp(Event):
    round: int


@dataclass(frozen=True, kw_only=True)
class GoalScored(Event):
    seat: int
    goal: str
    count: int
    multiplier: int
    vp: int


@dataclass(frozen=True, kw_only=True)
class LeftoversScored(Event):
    seat: int
    total: int
    vp: int


@dataclass(frozen=True, kw_only=True)
class RouteScored(Event):
    seat: int
    route: str | None
    rails: int
    vp: int


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    scores: dict[str, int]
    winners: tuple[int, ...]
    tie_break: dict[str, tuple[int, ...]]


EVENTS = SEALED_EVENTS + Catalogue(
    DeckShuffled, CardsRevealedBeside, CityTilesPlaced, GoalSpacesBlocked, StartingOrderDrawn, PhaseStarted,
    ResourcesConverted, BidRaised, BidLocked, BidPaid, PaymentAwaited, ActionOrderSet, TurnEnded, ResourceGained, ResourcePaid,
    VPScored, IncomeRaised, IconReached, PowerGained, TrainsRevealed, LocomotiveTaken, CarBought, CardsBoxed,
    StationCardsRevealed, StationBuilt, RailLaid, TileGained, TouristVisited, CardUsed, RowsDealt,
    RowChosen, DevelopmentBought, CardsUnderDeck, ChoiceAwaited, ChoiceMade, TilePlaced, TrainFormed, CardRan,
    GoalReserved, GoalMissed, CardsStoodUp, GoalScored, LeftoversScored, RouteScored, GameEnded,
    name="railway_boom")
