"""The state of a game: frozen dataclasses of plain values only (ints, strings, bools, None,
tuples, dicts, frozensets), so the snapshot codec can store it and `evolve` can share what it
does not change. Per-seat data are tuples indexed by seat."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.age_of_steam.tiles import MIX
from domain.core.state import Frozen

SETUP = "setup"
"""Before the setup events: nobody may move."""
SHARES = "shares"
AUCTION = "auction"
ACTIONS = "actions"
BUILD = "build"
MOVE = "move"
PRODUCTION = "production"
"""The Production holder places the goods drawn for them on the display."""
BETWEEN = "between"
"""Automatic steps (income to goods growth) in progress; nobody may move."""
OVER = "over"

FIRST_MOVE = "first_move"
FIRST_BUILD = "first_build"
ENGINEER = "engineer"
LOCOMOTIVE = "locomotive"
URBANIZATION = "urbanization"
PRODUCTION_ACTION = "production"
TURN_ORDER = "turn_order"
ACTIONS_LIST: tuple[str, ...] = (FIRST_MOVE, FIRST_BUILD, ENGINEER, LOCOMOTIVE, URBANIZATION, PRODUCTION_ACTION, TURN_ORDER)


@dataclass(frozen=True)
class Placed:
    """A tile on a hex. `owners` follows the order of `tiles.SEGMENTS[(tile, rotation, town)]`:
    one owner (or None) per path, or per exit on a town hex."""

    tile: str
    rotation: int
    owners: tuple[int | None, ...]
    disc: bool = False
    """A white town disc makes an ordinary tile a town of 2 or 4 exits."""


@dataclass(frozen=True)
class Seat:
    name: str
    cash: int = 0
    income: int = 0
    shares: int = 0
    locomotive: int = 1
    """Links the seat's locomotive pulls a good over; a new game starts it at the map's
    `start_locomotive`."""
    eliminated: bool = False
    built: bool = False
    """Whether the seat has placed a tile: its first must run into a city."""
    income_gained: int = 0
    """Every +1 income from a delivery, kept apart from `income` so the two can be checked."""
    income_lost: int = 0
    """Every income step lost to a shortfall or an income reduction."""
    final_vp: int | None = None


@dataclass(frozen=True)
class Auction(Frozen):
    seats: tuple[int, ...]
    """Everyone in the auction, in the player order it started from."""
    bidders: tuple[int, ...]
    """Those still in, in that order."""
    current: int | None
    high: int = 0
    high_bidder: int | None = None
    bids: dict[int, int] = field(default_factory=dict)
    """Each seat's last bid (0 if it never bid)."""
    dropped: tuple[int, ...] = ()
    """In the order they dropped out: the first takes the last place."""
    pass_holder: int | None = None
    """The seat that may still use the Turn Order pass in this auction."""


@dataclass(frozen=True)
class BuildTurn:
    seat: int
    limit: int
    placed: tuple[str, ...] = ()
    """Hexes built on this turn, in order (no two placements on one hex)."""
    urbanized: bool = False
    at_risk: tuple[tuple[str, int], ...] = ()
    """(anchor port, length) of the seat's and unowned incomplete links when the turn began:
    those not extended by its end lose their owner."""


@dataclass(frozen=True)
class State(Frozen):
    seats: tuple[Seat, ...]
    last_turn: int
    coexisting_upgrade_cost: int = 2
    phase: str = SETUP
    turn: int = 0
    order: tuple[int, ...] = ()
    """Player order of the seats still in the game."""
    queue: tuple[int, ...] = ()
    """Seats still to act in the current phase, next first (moving goods: both rounds)."""
    auction: Auction | None = None
    actions: dict[str, int] = field(default_factory=dict)
    """Action -> the seat holding it this turn."""
    turn_order_pass: int | None = None
    """Last turn's Turn Order holder, who may pass once in this turn's auction."""
    build: BuildTurn | None = None
    loco_upgraded: frozenset[int] = frozenset()
    """Seats that raised their locomotive instead of moving a good this turn."""
    board: dict[str, Placed] = field(default_factory=dict)
    new_cities: dict[str, str] = field(default_factory=dict)
    """Urbanized town hex -> new-city letter."""
    stock: dict[str, int] = field(default_factory=lambda: dict(MIX))
    discs: int = 0
    """Town discs in the supply (a new game: the map's `town_discs`)."""
    bag: dict[str, int] = field(default_factory=dict)
    """Goods in the bag by colour (a new game: the map's bag)."""
    display: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    """Display column -> its spaces, top first (a new game: every space empty)."""
    cubes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """City hex -> the goods on it, sorted."""
    production: tuple[str, ...] = ()
    """Goods drawn for the Production holder, still to be placed."""
    bank: int = 0
    """Money the bank has paid to players minus what it received."""
    winners: tuple[int, ...] = ()
