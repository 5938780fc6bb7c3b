"""Location actions (R7, R11-R13, R19): take at a site, process at a factory, sell at a
city. The train must stand across an open side of the building, or pay a penalty token to
ignore the exit."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.toot_toot.content import CITY, FACTORY, SITE, Building
from domain.toot_toot.context import Ctx
from domain.toot_toot.events import (
    GoodsGained,
    GoodsPaid,
    GoodsProcessed,
    GoodsSold,
    IconsFilled,
    OrderCompleted,
    OrderDiscarded,
    PenaltyTaken,
    ResourceTaken,
    ScoreGained,
    SecretOrderPlayed,
)
from domain.toot_toot.orders import Deck, points, spread, unfilled, wants
from domain.toot_toot.seats import card, level, room, supply_left
from domain.toot_toot.state import MAIN
from domain.toot_toot.turns import after_score

KINDS = ("take", "process", "sell")


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
        ctx.need_penalty(f"use {building.id} from a side that is not open")
    return building, near[building.id]


def _penalty(ctx: Ctx, ignore: bool, building: Building) -> list[Event]:
    return [PenaltyTaken(seat=ctx.seat, reason=f"used {building.id} from a side that is not open")] if ignore else []


def take(ctx: Ctx, site: str) -> list[Event]:
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
    return [ResourceTaken(seat=ctx.seat, site=building.id, good=building.good, count=count, main=main,
                          ignore_exit=ignore or None), *_penalty(ctx, ignore, building)]


def process(ctx: Ctx, factory: str, recipe_id: str) -> list[Event]:
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
    return [GoodsProcessed(seat=ctx.seat, factory=building.id, recipe=recipe.id, main=ctx.state.step == MAIN,
                           lost=lost or None, ignore_exit=ignore or None),
            *_penalty(ctx, ignore, building),
            *(GoodsPaid(seat=ctx.seat, good=g, count=n, reason="processing") for g, n in recipe.inputs.items()),
            *gains]


def sell(ctx: Ctx, city: str, fills: Mapping[str, Mapping[str, int]], rng: Randomness) -> list[Event]:
    building, ignore = _at(ctx, city, CITY, "city")
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
    fills_t = tuple((o, g, n) for o in sorted(fills) for g, n in sorted(fills[o].items()))
    events: list[Event] = [GoodsSold(seat=ctx.seat, city=building.id, fills=fills_t, main=state.step == MAIN,
                                     ignore_exit=ignore or None), *_penalty(ctx, ignore, building)]
    bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
    gained, completed = 0, 0
    for order_id in sorted(fills):
        order, units = content.order[order_id], fills[order_id]
        secret = order_id in me.hand
        before = state.filled.get(order_id, ())
        icons = tuple(i for good, count in sorted(units.items()) for i in unfilled(order, before, good)[:count])
        if secret:
            events.append(SecretOrderPlayed(seat=ctx.seat, order=order_id))
        events.append(IconsFilled(order=order_id, icons=icons))
        score = points(content, bonus, order, units)
        gained += score
        events.append(ScoreGained(seat=ctx.seat, points=score, order=order_id))
        if len(before) + len(icons) == len(order.icons):
            events.append(OrderCompleted(seat=ctx.seat, order=order_id))
            completed += not secret
        elif secret:
            events.append(OrderDiscarded(seat=ctx.seat, order=order_id))
    deck = Deck(state, rng)
    deck.refill(len(state.public) - completed, len(state.seats) + 1)
    return events + after_score(ctx, gained) + deck.events


def _near(ctx: Ctx, free: bool) -> dict[str, bool]:
    near = ctx.board.locations(ctx.seat, level(ctx.content, ctx.me, "waterway") > 0)
    if free or not ctx.penalty_available():
        near = {b: cost for b, cost in near.items() if not cost}
    return near


def options(ctx: Ctx, kinds: tuple[str, ...] = KINDS, free: bool = False) -> list[dict[str, Any]]:
    """Every location action the seat could take now, as moves (with `free`, only those
    that need no penalty token)."""
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
