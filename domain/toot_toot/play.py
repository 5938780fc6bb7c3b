"""Deciding a move: which moves each step of a turn allows (R18, R19, R24, R30), the choice of
hand orders in final scoring (R22, R33), and the events of the one made. `legal` lists every
move `decide` accepts."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from domain.core.errors import IllegalMove, NotYourTurn
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.randomness import Randomness
from domain.toot_toot import actions, final, locations
from domain.toot_toot.context import Ctx
from domain.toot_toot.events import LocationPassed, StartChosen
from domain.toot_toot.orders import unfilled
from domain.toot_toot.seats import placeable
from domain.toot_toot.state import AFTER, DRAWING, LOCATION, MAIN, PLAY, SCORING, SECOND, STARTS
from domain.toot_toot.turns import end_turn

MAIN_ACTIONS = ("draw_track", "drive", "turn")
SUPPLY = "supply_hand_orders"
"""Final scoring's one move (R22, R33)."""
EXTRAS = ("fuel_move", "iron_track", "build_factory", "upgrade")
ALLOWED = {
    MAIN: (*MAIN_ACTIONS, *locations.KINDS, "pass_location", *EXTRAS),
    DRAWING: ("draw_track", "stop_drawing"),
    LOCATION: (*locations.KINDS, "pass_location", *EXTRAS),
    SECOND: (*locations.KINDS, "pass_location"),
    AFTER: (*EXTRAS, "end_turn"),
}
"""The moves each step of a turn allows; extra actions and upgrades never inside an action
nor between the two actions of 2!=2 (R18)."""
WORDS = {MAIN: "the main action", DRAWING: "the rest of action A's line", LOCATION: "the location action",
         SECOND: "a second, different location action (2!=2) or a pass", AFTER: "extra actions or the end of your turn"}


def mover(ctx: Ctx) -> int | None:
    state = ctx.state
    if state.phase in (STARTS, SCORING):
        # Between the last choice of hand orders and the end of the game nobody is to move.
        return state.choosing[0] if state.choosing else None
    return state.current if state.phase == PLAY else None


def decide(ctx: Ctx, cmd: Command, rng: Randomness) -> list[Event]:
    state = ctx.state
    if mover(ctx) != ctx.seat:
        raise NotYourTurn(ctx.seat)
    if state.phase == STARTS:
        if cmd.type != "choose_start":
            raise IllegalMove("choose_start_first", "Every seat first chooses a start position (R3).")
        return _start(ctx, cmd["hex"])
    if state.phase == SCORING:
        if cmd.type != SUPPLY:
            raise IllegalMove("not_now", f"A {cmd.type} move is not allowed now: the game is over but for final "
                              "scoring, where you choose which hand orders to supply (R22).")
        return _supply(ctx, cmd["fills"])
    if cmd.type == SUPPLY:
        raise IllegalMove("not_now", "Hand orders are supplied from the goods held in final scoring, after the last "
                          f"turn (R22); it is time for {WORDS[state.step]}.")
    if cmd.type not in ALLOWED[state.step]:
        raise IllegalMove("not_now", f"A {cmd.type} move is not allowed now: it is time for {WORDS[state.step]}.")
    if cmd.type in locations.KINDS and state.step == SECOND and cmd.type in state.done:
        raise IllegalMove("same_kind", f"With 2!=2 the second location action must be of another kind than "
                          f"{state.done[0]} (R19).")
    first, *rest = _do(ctx, cmd, rng)
    # What follows a seat's own action (its payments, scores, refills) is the game's step.
    return [first, *(e if e.automatic else dataclasses.replace(e, automatic=True) for e in rest)]


def _start(ctx: Ctx, hex_: str) -> list[Event]:
    taken = {s.hex for s in ctx.state.seats}
    for start in ctx.map.starts:
        if start.hex == hex_:
            if hex_ in taken:
                raise IllegalMove("start_taken", f"Start position {hex_} is taken (R3).")
            return [StartChosen(seat=ctx.seat, hex=hex_, facing=start.facing)]
    raise IllegalMove("not_a_start", f"{hex_} is not one of map {ctx.map.id}'s start positions (R3).")


def _supply(ctx: Ctx, fills: Mapping[str, Mapping[str, int]]) -> list[Event]:
    """A seat's choice of hand-order icons to supply (R22): its own hand orders only, no more
    units of a good than the order has icons of it, within the goods held."""
    content, me = ctx.content, ctx.me
    wanted: dict[str, int] = {}
    for order_id, units in fills.items():
        order = content.order.get(order_id)
        if order is None or order_id not in me.hand:
            hand = ", ".join(me.hand) or "none"
            raise IllegalMove("not_in_hand", f"{order_id!r} is not one of your hand orders (yours: {hand}); final "
                              "scoring supplies only your own hand orders (R22).")
        if not units:
            raise IllegalMove("nothing_supplied", f"Name at least one good for order {order_id}, or leave it out.")
        for good, count in units.items():
            if count > len(unfilled(order, (), good)):
                raise IllegalMove("not_wanted", f"Order {order_id} has fewer than {count} {good} icons (R22).")
            wanted[good] = wanted.get(good, 0) + count
    short = sorted(g for g, n in wanted.items() if me.goods.get(g, 0) < n)
    if short:
        raise IllegalMove("missing_goods", f"You do not hold enough {', '.join(short)} to supply these orders.")
    return final.chosen(content, ctx.state, ctx.seat, fills)


def _do(ctx: Ctx, cmd: Command, rng: Randomness) -> list[Event]:
    kind = cmd.type
    if kind == "draw_track":
        return actions.draw_track(ctx, cmd["hex"], cmd["from"], cmd["to"])
    if kind == "stop_drawing":
        return actions.stop_drawing(ctx)
    if kind == "drive":
        return actions.move(ctx, cmd["hex"], cmd["facing"], None)
    if kind == "fuel_move":
        return actions.move(ctx, cmd["hex"], cmd["facing"], cmd["fuel"])
    if kind == "turn":
        return actions.turn(ctx, cmd["facing"])
    if kind == "iron_track":
        return actions.iron_track(ctx, cmd["hex"], cmd["from"], cmd["to"])
    if kind == "build_factory":
        return actions.build_factory(ctx, cmd["hex"], cmd["kind"], cmd["exit"], cmd["payment"])
    if kind == "upgrade":
        return actions.upgrade(ctx, cmd["ability"], rng)
    if kind == "take":
        return locations.take(ctx, cmd["site"])
    if kind == "process":
        return locations.process(ctx, cmd["factory"], cmd["recipe"])
    if kind == "sell":
        return locations.sell(ctx, cmd["city"], cmd["fills"], rng)
    if kind == "pass_location":
        return _pass(ctx)
    return end_turn(ctx)


def _pass(ctx: Ctx) -> list[Event]:
    step = ctx.state.step
    if step != SECOND and _location_options(ctx, free=True):
        raise IllegalMove("must_act", "A location action is possible, so you may not pass (R24, R30).")
    return [LocationPassed(seat=ctx.seat, main=step == MAIN)]


def _location_options(ctx: Ctx, free: bool = False) -> list[dict[str, Any]]:
    """The location actions possible now; with `free`, only those needing no penalty
    token (one that does is never forced on a player, R24)."""
    kinds = tuple(k for k in locations.KINDS if k not in ctx.state.done)
    return locations.options(ctx, kinds, free)


def legal(ctx: Ctx) -> list[dict[str, Any]]:
    """Every move the seat may make now."""
    state = ctx.state
    if mover(ctx) != ctx.seat:
        return []
    if state.phase == STARTS:
        taken = {s.hex for s in state.seats}
        return [{"type": "choose_start", "hex": s.hex} for s in ctx.map.starts if s.hex not in taken]
    if state.phase == SCORING:
        return [{"type": SUPPLY, "fills": fills} for fills in final.choices(ctx.content, state, ctx.seat)]
    step, board = state.step, ctx.board
    out: list[dict[str, Any]] = []
    if step == DRAWING:
        assert state.line is not None
        out += [{"type": "draw_track", "hex": h, "from": a, "to": b} for h, a, b in board.continuations(*state.line[:2])]
        return [*out, {"type": "stop_drawing"}]
    if step == MAIN:
        out += [{"type": "draw_track", "hex": h, "from": a, "to": b} for h, a, b in board.draws()]
        out += [{"type": "drive", "hex": h, "facing": f} for h, f in sorted(board.destinations(ctx.seat, None))]
        if ctx.penalty_available():
            out += [{"type": "turn", "facing": f} for f in board.turns(ctx.seat)]
    if step in (MAIN, LOCATION, SECOND):
        out += _location_options(ctx)
        if step == SECOND or not _location_options(ctx, free=True):
            out.append({"type": "pass_location"})
    if step in (MAIN, LOCATION, AFTER):
        out += _extras(ctx)
    if step == AFTER:
        out.append({"type": "end_turn"})
    return out


def _extras(ctx: Ctx) -> list[dict[str, Any]]:
    board, me, out = ctx.board, ctx.me, []
    for fuel in ("wood", "coal"):
        if me.goods.get(fuel, 0):
            out += [{"type": "fuel_move", "fuel": fuel, "hex": h, "facing": f}
                    for h, f in sorted(board.destinations(ctx.seat, actions.FUEL_STEPS))]
    if me.goods.get("iron", 0):
        out += [{"type": "iron_track", "hex": h, "from": a, "to": b} for h, a, b in board.draws() if a < b]
    payments = [p for p, ok in (("stone", me.goods.get("stone", 0) >= actions.FACTORY_STONE), ("shovel", me.shovel),
                                ("penalty", ctx.penalty_available())) if ok]
    if payments:
        for hex_, exits in sorted(board.factory_sites(ctx.seat).items()):
            if board.splits(hex_) is None:
                out += [{"type": "build_factory", "hex": hex_, "kind": k, "exit": e, "payment": p}
                        for k in ctx.content.factories for e in exits for p in payments]
    out += [{"type": "upgrade", "ability": a} for a in placeable(ctx.content, me)]
    return out
