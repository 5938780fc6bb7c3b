"""The state of a game of Railway Boom: frozen dataclasses of plain values, so snapshots
store it and `evolve` shares what an event does not change."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.sealed import Sealed
from domain.core.state import Frozen

SETUP, TRAINS, EXPANSION, DEVELOPMENT, INCOME, OPERATION, GOALS, OVER = (
    "setup", "trains", "expansion", "development", "income", "operation", "goals", "over")
AUCTIONS = {TRAINS: "materials", EXPANSION: "money", DEVELOPMENT: "technology"}
"""The resource each auction of phases 1-3 is bid with (phase 6 bids its goal card's)."""
BID, ACT = "bid", "act"
PAY = "pay"
"""The pending choice of a "?" payment's mix (R12)."""
FREE, BLOCKED = -1, -2
"""A goal multiplier space that is free, or covered by a blocking cube (else: the seat's cube)."""
ROUNDS = 4


@dataclass(frozen=True)
class Seat(Frozen):
    colour: str
    resources: dict[str, int]
    """money, materials, technology, coal (never below 0, R13)."""
    income: dict[str, int]
    """Track -> level (1 up)."""
    rails: int
    stations: int
    goal_cubes: int = 4
    vp: int = 0
    scored: dict[str, int] = field(default_factory=dict)
    """VP by source; `vp` is always their sum."""
    trains: tuple[str, ...] = ()
    developments: tuple[str, ...] = ()
    sideways: tuple[str, ...] = ()
    """Once-per-round cards used this round (R21)."""
    tiles: dict[str, int] = field(default_factory=dict)
    """Resource tiles held, by kind."""
    loaded: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Train card -> the tiles placed on it for good (R28)."""
    power: int = 0
    """Power left in this seat's build turn (lost at its end)."""


@dataclass(frozen=True)
class Pending(Frozen):
    """A choice waiting for its seat: an effect's (R22: a chosen income raise, a free rail,
    a draw-two-buy-one) or the mix of a "?" payment (R12, effect `pay`)."""

    seat: int
    effect: str
    card: str
    """The card whose effect waits ("" for a payment)."""
    amount: int = 1
    """The effect's amount, or what the payment costs."""
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """What the acting seat has done in its action step so far."""

    locomotive: str = ""
    cars: tuple[str, ...] = ()
    station: str = ""
    laid: tuple[str, ...] = ()
    """Rails laid this turn from this turn's station (R17)."""
    row: int | None = None


@dataclass(frozen=True)
class State(Frozen):
    seats: tuple[Seat, ...]
    first_game: bool = False
    phase: str = SETUP
    round: int = 0
    step: str = ""
    order: tuple[int, ...] = ()
    """The discs on the white spaces, left to right (the right-most is rank 1)."""
    bids: dict[int, int] = field(default_factory=dict)
    """Seat -> the numbered space its disc is on, while bidding (absent: still on white)."""
    locked: tuple[int, ...] = ()
    settled: tuple[int, ...] = ()
    """Seats that have paid for their bid in the settlement under way (R10, R12)."""
    bid_resource: str = ""
    acting: tuple[int, ...] = ()
    """The action step's seats still to act, the one acting first."""
    decks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """locomotive, car, station, development: top first."""
    offer: tuple[str, ...] = ()
    """Cards revealed for this phase and not yet taken."""
    rows: tuple[tuple[str, ...], ...] = ()
    """The development rows (each cheapest first); a chosen row is emptied as it is taken."""
    chosen_rows: tuple[int, ...] = ()
    turn: Turn = Turn()
    """What the acting seat has done this turn."""
    city_tiles: dict[str, str] = field(default_factory=dict)
    stations: dict[str, int] = field(default_factory=dict)
    rails: dict[str, tuple[int, ...]] = field(default_factory=dict)
    tile_supply: dict[str, int] = field(default_factory=dict)
    goals: tuple[str, ...] = ()
    routes: tuple[str, ...] = ()
    spaces: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Goal -> its multiplier spaces: FREE, BLOCKED or the seat whose cube is there."""
    boxed: tuple[str, ...] = ()
    pending: tuple[Pending, ...] = ()
    sealed: Sealed | None = None
    winners: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.seats)
