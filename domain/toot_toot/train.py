"""The train (R4, R5): moving along track the way it faces (main action B, and extra action
a, up to 5 steps for 1 wood or coal) and turning to face another edge (main action C, for a
penalty token), read top to bottom: the events, the checks, the moves and turns a seat has,
what each records, and how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.toot_toot import penalties
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.goods import GoodsPaid
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.penalties import PenaltyTaken
from domain.toot_toot.state import LOCATION, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

FUEL_STEPS = 5
"""Steps a move paid with wood or coal goes at most (R4)."""
FUELS = ("wood", "coal")

# --- the events ---------------------------------------------------------------------------


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


# --- the moves and turns a seat has -------------------------------------------------------


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Action B to every place a move may end, and action C to every other edge a segment
    under the train ends at, while the supply has a penalty token."""
    board = ctx.board
    out = [{"type": "drive", "hex": h, "facing": f} for h, f in sorted(board.destinations(ctx.seat, None))]
    if penalties.available(ctx.state):
        out += [{"type": "turn", "facing": f} for f in board.turns(ctx.seat)]
    return out


def fuel_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Extra action a, for each fuel the seat holds."""
    out: list[dict[str, Any]] = []
    for fuel in FUELS:
        if ctx.me.goods.get(fuel, 0):
            out += [{"type": "fuel_move", "fuel": fuel, "hex": h, "facing": f}
                    for h, f in sorted(ctx.board.destinations(ctx.seat, FUEL_STEPS))]
    return out


# --- moving (R4) --------------------------------------------------------------------------


def move(steps: Steps, hex_: str, facing: int, fuel: str | None) -> None:
    """Action B (no fuel), or the extra move paid with `fuel`: the shortest path to the place."""
    ctx = steps.ctx
    if fuel is not None and ctx.me.goods.get(fuel, 0) < 1:
        raise IllegalMove("missing_goods", f"An extra move costs 1 {fuel}, which you do not hold (R4).")
    ends = ctx.board.destinations(ctx.seat, FUEL_STEPS if fuel else None)
    path = ends.get((hex_, facing))
    if path is None:
        reach = f"within {FUEL_STEPS} steps " if fuel else ""
        raise IllegalMove("unreachable", f"Your train cannot end a move {reach}on hex {hex_} facing {facing}: "
                          "it follows track the way it faces and may not stop on another train (R4).")
    steps.emit(TrainMoved(seat=ctx.seat, path=path, fuel=fuel))
    if fuel:
        steps.emit(GoodsPaid(seat=ctx.seat, good=fuel, count=1, reason="move"))


# --- turning (R5) -------------------------------------------------------------------------


def turn(steps: Steps, facing: int) -> None:
    ctx = steps.ctx
    if facing not in ctx.board.turns(ctx.seat):
        raise IllegalMove("cannot_turn", f"No segment of hex {ctx.me.hex} ends at edge {facing} other than the one "
                          "the train faces (R5).")
    penalties.check_available(ctx.state, "turn")
    steps.emit(TrainTurned(seat=ctx.seat, hex=str(ctx.me.hex), facing=facing))
    steps.emit(PenaltyTaken(seat=ctx.seat, reason="turned"))


# --- the events applied -------------------------------------------------------------------


def _moved(content: Content, s: State, e: TrainMoved) -> State:
    hex_, facing = e.path[-1]
    s = replace_seat(s, e.seat, hex=hex_, facing=facing)
    # An extra move leaves the turn at its step; action B is the main action done.
    return s if e.fuel else replace(s, step=LOCATION)


def _turned(content: Content, s: State, e: TrainTurned) -> State:
    return replace(replace_seat(s, e.seat, facing=e.facing), step=LOCATION)


APPLY: Handlers = {TrainMoved: _moved, TrainTurned: _turned}
KINDS = tuple(APPLY)
