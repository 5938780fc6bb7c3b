"""Building a factory (extra action c; R8-R10), read top to bottom: the events, the checks
(its payment: 2 stone, the shovel or a penalty token; its site next to the train; its exit;
never splitting the map, `split.py`), the factories a seat may build, what a building
records, and how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.toot_toot import penalties
from domain.toot_toot.board import Board
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.goods import GoodsPaid
from domain.toot_toot.hexes import coords, neighbours
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.penalties import PenaltyTaken
from domain.toot_toot.state import Factory, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

FACTORY_STONE = 2
"""Stone a factory costs (R8)."""

# --- the events ---------------------------------------------------------------------------


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
class ShovelSpent(Event):
    seat: int


# --- the checks ---------------------------------------------------------------------------


def check_payment(ctx: Ctx, payment: str) -> None:
    me = ctx.me
    if payment == "stone" and me.goods.get("stone", 0) < FACTORY_STONE:
        raise IllegalMove("missing_goods", f"A factory paid with stone costs {FACTORY_STONE} stone (R8).")
    if payment == "shovel" and not me.shovel:
        raise IllegalMove("no_shovel", "You do not hold your shovel (R10).")
    if payment == "penalty":
        penalties.check_available(ctx.state, "pay for a factory with a penalty token")


def check_site(ctx: Ctx, hex_: str, exit_: int) -> None:
    board = ctx.board
    sites = board.factory_sites(ctx.seat)
    if hex_ not in sites:
        raise IllegalMove("bad_factory_site", f"A factory cannot go on {hex_}: it must be next to your train, on a "
                          "plain hex without track or building, not on an opening position and not in front of "
                          "another train (R8).")
    if exit_ not in sites[hex_]:
        raise IllegalMove("bad_factory_exit", f"The exit {exit_} of a factory on {hex_} must face a plain on-map hex "
                          "without a building (R8).")
    cut = board.splits(hex_)
    if cut is not None:
        raise IllegalMove("splits_map", f"A factory on {hex_} would split the map, cutting off {describe(board, cut)} (R9).")


def describe(board: Board, region: set[str]) -> str:
    """A region in words: its hexes and the buildings it borders."""
    hexes = sorted(region, key=lambda h: coords(h)[::-1])
    beside = sorted({b.id for h in region for _, o in neighbours(h) if (b := board.building_at(o)) is not None})
    shown = ", ".join(hexes[:8]) + (f" and {len(hexes) - 8} more" if len(hexes) > 8 else "")
    near = f", beside {', '.join(beside)}" if beside else ""
    return f"the region of {len(hexes)} hex{'es' if len(hexes) != 1 else ''} {shown}{near}"


# --- the factories a seat may build -------------------------------------------------------


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Every kind, site, exit and payment the seat has."""
    board, me = ctx.board, ctx.me
    payments = [p for p, ok in (("stone", me.goods.get("stone", 0) >= FACTORY_STONE), ("shovel", me.shovel),
                                ("penalty", penalties.available(ctx.state))) if ok]
    out: list[dict[str, Any]] = []
    if payments:
        for hex_, exits in sorted(board.factory_sites(ctx.seat).items()):
            if board.splits(hex_) is None:
                out += [{"type": "build_factory", "hex": hex_, "kind": k, "exit": e, "payment": p}
                        for k in ctx.content.factories for e in exits for p in payments]
    return out


# --- the building -------------------------------------------------------------------------


def build_factory(steps: Steps, hex_: str, kind: str, exit_: int, payment: str) -> None:
    ctx = steps.ctx
    check_payment(ctx, payment)
    check_site(ctx, hex_, exit_)
    steps.emit(FactoryBuilt(seat=ctx.seat, hex=hex_, factory=kind, exit=exit_, payment=payment))
    if payment == "stone":
        steps.emit(GoodsPaid(seat=ctx.seat, good="stone", count=FACTORY_STONE, reason="factory"))
    elif payment == "shovel":
        steps.emit(ShovelSpent(seat=ctx.seat))
    else:
        steps.emit(PenaltyTaken(seat=ctx.seat, reason="paid for a factory"))


# --- the events applied -------------------------------------------------------------------


def _factory(content: Content, s: State, e: FactoryBuilt) -> State:
    return replace(s, factories={**s.factories, e.hex: Factory(e.factory, e.exit)})


def _shovel_spent(content: Content, s: State, e: ShovelSpent) -> State:
    return replace_seat(s, e.seat, shovel=False)


APPLY: Handlers = {FactoryBuilt: _factory, ShovelSpent: _shovel_spent}
KINDS = tuple(APPLY)
