"""Every kind of event a Toot-Toot Train game records ("What the service will record" on
the rules page). Each payment, gain, penalty and score line is its own event."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.catalogue import Catalogue
from domain.core.events import Event, means

# --- setup -------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class MapChosen(Event):
    """The map (rolled among the pack's maps unless the options named one; the roll under
    `random`)."""
    map: str
    random: dict | None = None  # type: ignore[type-arg]


@dataclass(frozen=True, kw_only=True)
class PlayerCardsDealt(Event):
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class OrdersShuffled(Event):
    """The order deck shuffled; its order is a referee's secret (R29). Also the reshuffle
    of the discards when the deck runs out (R15)."""
    cards: int
    reshuffle: bool = False


@dataclass(frozen=True, kw_only=True)
class SecretOrderDealt(Event):
    """One order card to a seat's hand; which card is that seat's secret."""
    seat: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class PublicOrderRevealed(Event):
    order: str


@dataclass(frozen=True, kw_only=True)
class StartChosen(Event):
    seat: int
    hex: str
    facing: int


# --- a turn ------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class TrackDrawn(Event):
    seat: int
    hex: str
    edges: tuple[int, int]
    """From and to: a line goes on across the second edge (R2)."""
    action: str
    """`main` (action A) or `iron` (the extra action)."""


@dataclass(frozen=True, kw_only=True)
class LineEnded(Event):
    seat: int
    segments: int


@dataclass(frozen=True, kw_only=True)
class TrainMoved(Event):
    seat: int
    path: tuple[tuple[str, int], ...]
    """Each hex entered and the edge faced there (R4)."""
    fuel: str | None = None
    """The wood or coal paid for an extra move; absent for action B."""


@dataclass(frozen=True, kw_only=True)
class TrainTurned(Event):
    seat: int
    hex: str
    facing: int


@dataclass(frozen=True, kw_only=True)
class FactoryBuilt(Event):
    seat: int
    hex: str
    factory: str
    """The factory's kind (the field cannot be called `kind`: that is the event's)."""
    exit: int
    payment: str
    """stone, shovel or penalty (R8, R10)."""


@dataclass(frozen=True, kw_only=True)
class GoodsGained(Event):
    seat: int
    good: str
    count: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class GoodsPaid(Event):
    seat: int
    good: str
    count: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ShovelSpent(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class ShovelGained(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class PenaltyTaken(Event):
    seat: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ResourceTaken(Event):
    seat: int
    site: str
    good: str
    count: int
    main: bool
    """Taken as action D rather than as the location action."""
    ignore_exit: bool | None = None


@dataclass(frozen=True, kw_only=True)
class GoodsProcessed(Event):
    """One recipe applied: the inputs follow as `GoodsPaid`, the outputs as `GoodsGained`."""
    seat: int
    factory: str
    recipe: str
    main: bool
    lost: int | None = None
    """Output beyond the goods limit (R12)."""
    ignore_exit: bool | None = None


@dataclass(frozen=True, kw_only=True)
class GoodsSold(Event):
    seat: int
    city: str
    fills: tuple[tuple[str, str, int], ...]
    """(order, good, units) for each order supplied (R13)."""
    main: bool
    ignore_exit: bool | None = None


@dataclass(frozen=True, kw_only=True)
class SecretOrderPlayed(Event):
    """A hand order supplied in a sale or in final scoring, shown as it leaves the hand."""
    seat: int
    order: str


@dataclass(frozen=True, kw_only=True)
class IconsFilled(Event):
    order: str
    icons: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class ScoreGained(Event):
    seat: int
    points: int
    order: str
    """The order supplied; one event per order of a sale."""


@dataclass(frozen=True, kw_only=True)
class TokensGained(Event):
    seat: int
    count: int
    gears: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class OrderCompleted(Event):
    seat: int
    order: str


@dataclass(frozen=True, kw_only=True)
class OrderDiscarded(Event):
    seat: int
    order: str


@dataclass(frozen=True, kw_only=True)
class LocationPassed(Event):
    """No location action was possible (R24)."""
    seat: int
    main: bool


@dataclass(frozen=True, kw_only=True)
class Upgraded(Event):
    seat: int
    ability: str


@dataclass(frozen=True, kw_only=True)
class EndTriggered(Event):
    seat: int
    score: int
    last_round: int


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class ExtraTurnBegan(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class FinalScoringBegan(Event):
    """The last turn has ended and these seats, in this order, choose which hand orders to
    supply (R22, R33): the seats holding a good one of their hand orders wants. (Ruleset 1
    filled hand orders by itself and never records it.)"""
    choosing: tuple[int, ...] = field(metadata=means("The seats asked, in turn order from the first player."))


@dataclass(frozen=True, kw_only=True)
class HandOrdersSupplied(Event):
    """A seat's choice in final scoring: the icons of its hand orders it supplies, none
    for an empty choice (R22). Each order supplied follows as in a sale."""
    seat: int = field(metadata=means("The seat choosing."))
    fills: tuple[tuple[str, str, int], ...] = field(metadata=means(
        "(order, good, units) for each hand order and good supplied, in the order the orders were dealt."))


@dataclass(frozen=True, kw_only=True)
class FinalScored(Event):
    seat: int
    line: str
    points: int


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    scores: dict[str, int]
    winners: tuple[int, ...]


CATALOGUE = Catalogue(
    MapChosen, PlayerCardsDealt, OrdersShuffled, SecretOrderDealt, PublicOrderRevealed, StartChosen, TrackDrawn,
    LineEnded, TrainMoved, TrainTurned, FactoryBuilt, GoodsGained, GoodsPaid, ShovelSpent, ShovelGained, PenaltyTaken,
    ResourceTaken, GoodsProcessed, GoodsSold, SecretOrderPlayed, IconsFilled, ScoreGained, TokensGained,
    OrderCompleted, OrderDiscarded, LocationPassed, Upgraded, EndTriggered, TurnEnded, ExtraTurnBegan,
    FinalScoringBegan, HandOrdersSupplied, FinalScored, GameEnded, name="toot_toot")
