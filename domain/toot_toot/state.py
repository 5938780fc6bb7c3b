"""The state of a game: frozen dataclasses of plain values, so snapshots encode it and
`evolve` shares what an event does not change."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.state import Frozen
from domain.toot_toot.hexes import Hex, Segment

SETUP, STARTS, PLAY, SCORING, OVER = "setup", "starts", "play", "scoring", "over"
"""Phases: before the setup events; choosing start positions (R3); play; final scoring, while
seats choose which hand orders to supply (R22, R33); over."""
MAIN, DRAWING, LOCATION, SECOND, AFTER = "main", "drawing", "location", "second", "after"
"""Steps of a turn: the main action is due; a track line is being drawn (action A); the
location action is due; the second of two different location actions (2!=2) may follow;
everything done but extra actions and upgrades (R18)."""


@dataclass(frozen=True)
class Seat(Frozen):
    name: str
    card: str = ""
    hex: Hex | None = None
    facing: int = 0
    goods: dict[str, int] = field(default_factory=dict)
    """Goods held by kind; kinds at zero are left out."""
    hand: tuple[str, ...] = ()
    """Secret orders, not yet played (R29)."""
    kept: tuple[str, ...] = ()
    """Completed order cards held as influence."""
    shovel: bool = True
    penalties: int = 0
    tokens: int = 0
    """Technology tokens gained and not yet placed."""
    gained: int = 0
    """Technology tokens gained in all (at most 10, R16)."""
    upgrades: dict[str, int] = field(default_factory=dict)
    """Ability id -> tokens placed on it."""
    track: int = 0
    """The score track: sale points only; never goes down (R6)."""
    final: dict[str, int] = field(default_factory=dict)
    """Final-scoring line -> points (penalties negative)."""
    turns: int = 0
    """Ordinary turns begun (R20: extra turns are not counted)."""


@dataclass(frozen=True)
class Factory:
    kind: str
    exit: int


@dataclass(frozen=True)
class State(Frozen):
    seats: tuple[Seat, ...]
    map: str = ""
    phase: str = SETUP
    deck: tuple[str, ...] = ()
    """Order cards face down, top first (hidden, R29)."""
    discard: tuple[str, ...] = ()
    public: tuple[str, ...] = ()
    """Public orders in the row, left to right."""
    filled: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Order id -> the indexes of its icons filled so far."""
    track: dict[Hex, tuple[Segment, ...]] = field(default_factory=dict)
    """Every segment on the map, printed and drawn, by hex."""
    factories: dict[Hex, Factory] = field(default_factory=dict)
    """Factories drawn in play, by hex."""
    choosing: tuple[int, ...] = ()
    """Seats still to choose a start position (R3), or in final scoring which hand orders to
    supply (R33), in order."""
    current: int = 0
    step: str = MAIN
    line: tuple[Hex, int, int] | None = None
    """While drawing: the hex the last segment was drawn in, its end edge, and how many."""
    done: tuple[str, ...] = ()
    """The kinds of location action taken in this turn's location step."""
    extra_turn: bool = False
    """A 1Turn placed this turn: the same seat plays again next (R20)."""
    in_extra: bool = False
    round: int = 1
    last_round: int | None = None
    """Set when the end is triggered (R21): the game ends after this round."""
    penalties_out: int = 0
    requested_map: str = "random"
    """The option `map`: a map of the pack, or "random" (rolled at setup)."""
    penalty_supply: int | None = None
    """The option `penalty_supply` (R6): None for unlimited."""
    goods_supply: bool = False
    """The option `goods_supply` (R11): goods are capped at the pack's counts."""
    round_limit: int = 60
    """The option `round_limit` (R31): the game ends after this round at the latest."""
    totals: dict[int, int] = field(default_factory=dict)
    """Each seat's final total, once the game is over (as `GameEnded` records it)."""
    winners: tuple[int, ...] = ()
    """The seats with the highest total, once the game is over (R23: all tied leaders)."""

    @property
    def end_round(self) -> int:
        """The round the game ends after: the end trigger's (R21), or the round limit (R31)."""
        return min(self.round_limit, self.last_round or self.round_limit)

    def ends_with(self, seat: int) -> bool:
        """Whether `seat`'s turn ending now, outside an extra turn still to come (R20), is the
        game's last: the last seat's turn in the last round."""
        return (seat + 1) % len(self.seats) == 0 and self.round >= self.end_round and not self.extra_turn
