"""The location action ("Location action"; R7, R11-R15, R19, R24, R30), read top to bottom:
the events; where a train may act (across an open side of the building, or for a penalty
token ignoring it, R7); taking at a resource site (R11), processing at a factory (R12) and
selling at a city to its public orders and the seat's secret ones (R13-R15: the orders
supplied, `orders`; the tokens and the end trigger the points bring, `technology` and
`end_of_game`; the public row refilled); passing when no location action is possible (R24,
R30); the location actions a seat has; and how each event changes the state. A location
action is main action D or the turn's location step; with 2!=2 the step may be two
different ones (R19, `ledger.location_done`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.core.state import replace, replace_seat
from domain.toot_toot import end_of_game, penalties, technology
from domain.toot_toot.content import CITY, FACTORY, SITE, Building, Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.goods import GoodsGained, GoodsPaid
from domain.toot_toot.ledger import Handlers, goods, location_done
from domain.toot_toot.orders import (
    Deck,
    IconsFilled,
    OrderCompleted,
    OrderDiscarded,
    SecretOrderPlayed,
    points,
    spread,
    unfilled,
    wants,
)
from domain.toot_toot.penalties import PenaltyTaken
from domain.toot_toot.seats import card, level, room, supply_left
from domain.toot_toot.state import AFTER, LOCATION, MAIN, SECOND, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

ACTIONS = ("take", "process", "sell")
"""The three location actions; with 2!=2 the second is of another kind than the first (R19)."""

# --- the events ---------------------------------------------------------------------------


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
class ScoreGained(Event):
    seat: int
    points: int
    order: str
    """The order supplied; one event per order of a sale."""


@dataclass(frozen=True, kw_only=True)
class LocationPassed(Event):
    """No location action was possible (R24)."""
    seat: int
    main: bool


# --- where a train may act (R7) -----------------------------------------------------------


def _at(ctx: Ctx, building_id: str, kind: str, noun: str) -> tuple[Building, bool]:
    """The building and whether using it costs a penalty token (R7)."""
    building = ctx.board.building(building_id)
    if building is None or building.kind != kind:
        raise IllegalMove("unknown_building", f"{building_id!r} is not a {noun} on map {ctx.map.id}.")
    near = ctx.board.locations(ctx.seat, level(ctx.content, ctx.me, "waterway") > 0)
    if building.id not in near:
        raise IllegalMove("not_at_location", f"Your train is not next to {building.id}; a location action needs "
                          f"your train on one of its opening positions (R7).")
    if near[building.id]:
        penalties.check_available(ctx.state, f"use {building.id} from a side that is not open")
    return building, near[building.id]


def _penalty(steps: Steps, ignore: bool, building: Building) -> None:
    if ignore:
        steps.emit(PenaltyTaken(seat=steps.ctx.seat, reason=f"used {building.id} from a side that is not open"))


# --- taking (R11) -------------------------------------------------------------------------


def take(steps: Steps, site: str) -> None:
    ctx = steps.ctx
    building, ignore = _at(ctx, site, SITE, "resource site")
    space = room(ctx.content, ctx.me)
    if space == 0:
        raise IllegalMove("storage_full", "You hold as many goods as you may; there is nothing to take (R11).")
    count = 1 if level(ctx.content, ctx.me, "max", good=building.good) == 0 else space
    left = supply_left(ctx.content, ctx.state, building.good)
    if left is not None:
        if left == 0:
            raise IllegalMove("supply_empty", f"No {building.good} is left in this game's limited supply.")
        count = min(count, left)
    main = ctx.state.step == MAIN
    steps.emit(ResourceTaken(seat=ctx.seat, site=building.id, good=building.good, count=count, main=main,
                             ignore_exit=ignore or None))
    _penalty(steps, ignore, building)


# --- processing (R12) ---------------------------------------------------------------------


def process(steps: Steps, factory: str, recipe_id: str) -> None:
    ctx = steps.ctx
    building, ignore = _at(ctx, factory, FACTORY, "factory")
    recipe = card(ctx.content, ctx.me).recipe.get(recipe_id)
    if recipe is None or recipe.factory != building.factory:
        raise IllegalMove("wrong_recipe", f"Recipe {recipe_id!r} is not one of your card's recipes for a "
                          f"{building.factory} (R12).")
    short = [g for g, n in recipe.inputs.items() if ctx.me.goods.get(g, 0) < n]
    if short:
        raise IllegalMove("missing_goods", f"Recipe {recipe_id} needs {', '.join(short)} you do not hold (R12).")
    space = room(ctx.content, ctx.me) + sum(recipe.inputs.values())
    gains, lost = [], 0
    for good, count in recipe.outputs.items():
        count += level(ctx.content, ctx.me, "plus", good=good)
        left = supply_left(ctx.content, ctx.state, good)
        kept = min(count, space, count if left is None else left)
        space, lost = space - kept, lost + count - kept
        if kept:
            gains.append(GoodsGained(seat=ctx.seat, good=good, count=kept, reason="processing"))
    steps.emit(GoodsProcessed(seat=ctx.seat, factory=building.id, recipe=recipe.id, main=ctx.state.step == MAIN,
                              lost=lost or None, ignore_exit=ignore or None))
    _penalty(steps, ignore, building)
    for good, count in recipe.inputs.items():
        steps.emit(GoodsPaid(seat=ctx.seat, good=good, count=count, reason="processing"))
    for gain in gains:
        steps.emit(gain)


# --- selling (R13-R15) --------------------------------------------------------------------


def check_sale(ctx: Ctx, building: Building, fills: Mapping[str, Mapping[str, int]]) -> None:
    state, content, me = ctx.state, ctx.content, ctx.me
    wanted: dict[str, int] = {}
    for order_id, units in fills.items():
        order = content.order.get(order_id)
        if order is None or (order_id not in state.public and order_id not in me.hand):
            raise IllegalMove("unknown_order", f"{order_id!r} is neither a public order nor one of your secret orders.")
        if order.colour != building.colour:
            raise IllegalMove("wrong_colour", f"Order {order_id} is {order.colour}; {building.id} is {building.colour} (R13).")
        for good, count in units.items():
            if count > len(unfilled(order, state.filled.get(order_id, ()), good)):
                raise IllegalMove("not_wanted", f"Order {order_id} has fewer than {count} unfilled {good} icons (R13).")
            wanted[good] = wanted.get(good, 0) + count
    if not wanted:
        raise IllegalMove("nothing_sold", "A sale sells at least 1 good (R13).")
    short = [g for g, n in wanted.items() if me.goods.get(g, 0) < n]
    if short:
        raise IllegalMove("missing_goods", f"You do not hold enough {', '.join(sorted(short))} for this sale.")


def sell(steps: Steps, city: str, fills: Mapping[str, Mapping[str, int]], rng: Randomness) -> None:
    """The sale, each order supplied in turn (a secret one shown as it leaves the hand), its
    points; then the tokens and end trigger they bring, and the public row refilled."""
    ctx = steps.ctx
    building, ignore = _at(ctx, city, CITY, "city")
    check_sale(ctx, building, fills)
    state, content, me = ctx.state, ctx.content, ctx.me
    fills_t = tuple((o, g, n) for o in sorted(fills) for g, n in sorted(fills[o].items()))
    steps.emit(GoodsSold(seat=ctx.seat, city=building.id, fills=fills_t, main=state.step == MAIN,
                         ignore_exit=ignore or None))
    _penalty(steps, ignore, building)
    bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
    gained, completed = 0, 0
    for order_id in sorted(fills):
        order, units = content.order[order_id], fills[order_id]
        secret = order_id in me.hand
        before = state.filled.get(order_id, ())
        icons = tuple(i for good, count in sorted(units.items()) for i in unfilled(order, before, good)[:count])
        if secret:
            steps.emit(SecretOrderPlayed(seat=ctx.seat, order=order_id))
        steps.emit(IconsFilled(order=order_id, icons=icons))
        score = points(content, bonus, order, units)
        gained += score
        steps.emit(ScoreGained(seat=ctx.seat, points=score, order=order_id))
        if len(before) + len(icons) == len(order.icons):
            steps.emit(OrderCompleted(seat=ctx.seat, order=order_id))
            completed += not secret
        elif secret:
            steps.emit(OrderDiscarded(seat=ctx.seat, order=order_id))
    technology.gain_tokens(steps, gained)
    end_of_game.trigger(steps, gained)
    # The refill draws from the deck and the discards as the sale left them, its discarded hand
    # orders with them, so a reshuffle shuffles those in too (R15, R35). Rulesets 1 and 2 drew
    # from the discards from before the sale, and their reshuffle lost those orders.
    deck = steps.state if ctx.sale_discards_reshuffled else state
    Deck(steps, deck, rng).refill(len(state.public) - completed, len(state.seats) + 1)


# --- passing (R24, R30) -------------------------------------------------------------------


def pass_location(steps: Steps) -> None:
    ctx = steps.ctx
    step = ctx.state.step
    if step != SECOND and options(ctx, free=True):
        raise IllegalMove("must_act", "A location action is possible, so you may not pass (R24, R30).")
    steps.emit(LocationPassed(seat=ctx.seat, main=step == MAIN))


# --- the location actions a seat has ------------------------------------------------------


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Every location action possible now, and a pass when none is possible without a
    penalty token (one that needs a token is never forced on a player, R24) or after the
    first action of 2!=2."""
    out = options(ctx)
    if ctx.state.step == SECOND or not options(ctx, free=True):
        out.append({"type": "pass_location"})
    return out


def _near(ctx: Ctx, free: bool) -> dict[str, bool]:
    near = ctx.board.locations(ctx.seat, level(ctx.content, ctx.me, "waterway") > 0)
    if free or not penalties.available(ctx.state):
        near = {b: cost for b, cost in near.items() if not cost}
    return near


def options(ctx: Ctx, free: bool = False) -> list[dict[str, Any]]:
    """Every location action the seat could take now, of the kinds not yet taken this step,
    as moves (with `free`, only those that need no penalty token)."""
    kinds = tuple(k for k in ACTIONS if k not in ctx.state.done)
    out: list[dict[str, Any]] = []
    for building_id in sorted(_near(ctx, free)):
        building = ctx.board.building(building_id)
        assert building is not None
        if building.kind == SITE and "take" in kinds and room(ctx.content, ctx.me) > 0 \
                and supply_left(ctx.content, ctx.state, building.good) != 0:
            out.append({"type": "take", "site": building_id})
        elif building.kind == FACTORY and "process" in kinds:
            for recipe in card(ctx.content, ctx.me).recipes:
                if recipe.factory == building.factory and all(ctx.me.goods.get(g, 0) >= n for g, n in recipe.inputs.items()):
                    out.append({"type": "process", "factory": building_id, "recipe": recipe.id})
        elif building.kind == CITY and "sell" in kinds:
            out += ({"type": "sell", "city": building_id, "fills": fills} for fills in sales(ctx, building))
    return out


def sales(ctx: Ctx, city: Building) -> Iterator[dict[str, dict[str, int]]]:
    """Every different sale at `city`: for each order of its colour (public or in hand) and
    each good it still wants, how many units, within the goods held."""
    state, me = ctx.state, ctx.me
    orders = [o for o in (*state.public, *me.hand) if ctx.content.order[o].colour == city.colour]
    yield from (fills for fills in spread(wants(ctx.content, state, orders, me.goods), me.goods) if fills)


# --- the events applied -------------------------------------------------------------------


def _taken(content: Content, s: State, e: ResourceTaken) -> State:
    s = replace_seat(s, e.seat, goods=goods(s.seats[e.seat], e.good, e.count)) if e.count else s
    return location_done(content, s, e.seat, "take", e.main)


def _processed(content: Content, s: State, e: GoodsProcessed) -> State:
    return location_done(content, s, e.seat, "process", e.main)


def _sold(content: Content, s: State, e: GoodsSold) -> State:
    for _, good, count in e.fills:
        s = replace_seat(s, e.seat, goods=goods(s.seats[e.seat], good, -count))
    return location_done(content, s, e.seat, "sell", e.main)


def _score(content: Content, s: State, e: ScoreGained) -> State:
    return replace_seat(s, e.seat, track=s.seats[e.seat].track + e.points)


def _passed(content: Content, s: State, e: LocationPassed) -> State:
    return replace(s, step=LOCATION if e.main else AFTER)


APPLY: Handlers = {ResourceTaken: _taken, GoodsProcessed: _processed, GoodsSold: _sold, ScoreGained: _score,
                   LocationPassed: _passed}
KINDS = tuple(APPLY)
