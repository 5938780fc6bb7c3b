"""A purposeful random player for simulations: it picks among the legal moves, but raises
money when short, bids modestly, carries its lines on towards cities that can take one of
its goods, stops building before it cannot pay its expenses, and delivers goods (over its
own links when it can). Uniformly random moves would rarely complete a link; these build and
deliver, so every phase gets exercised. Bankruptcies still happen often: income below zero
ends a company, and the bot is no economist."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.state import ACTIONS, AUCTION, BUILD, LOCOMOTIVE, MOVE, SHARES, State
from domain.age_of_steam.tiles import exits_of
from domain.age_of_steam.track import REDIRECTED, apply_placement, assess, network, trace
from domain.core.errors import IllegalMove

BUILD_BUDGET = 12
SHARE_CEILING = 8
SHORTLIST = 12


def playout_choice(map_: Map, state: State, seat: int, moves: Sequence[dict[str, Any]],
                   chooser: random.Random) -> dict[str, Any]:
    phase = state.phase
    if phase == SHARES:
        return _shares(state, seat, moves, chooser)
    if phase == AUCTION:
        return _auction(state, seat, moves, chooser)
    if phase == ACTIONS:
        return _action(state, seat, moves, chooser)
    if phase == BUILD:
        return _build(map_, state, seat, moves, chooser)
    if phase == MOVE:
        return _move(map_, state, seat, moves, chooser)
    return chooser.choice(list(moves))


def _of(moves: Sequence[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m for m in moves if m["type"] == kind]


def _shares(state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    me = state.seats[seat]
    # Never short of this turn's expenses (each new share adds $1 to them); below the
    # ceiling, also enough for a few tiles.
    survive = max(0, -(-(me.shares + me.locomotive - me.income - me.cash) // 4))
    budget = me.shares + me.locomotive + BUILD_BUDGET - me.income - me.cash
    grow = max(0, -(-budget // 5)) if me.shares < SHARE_CEILING else 0
    want = min(max(survive, min(grow, 3)), len(moves) - 1)
    if chooser.random() < 0.05:
        want = chooser.randint(0, min(2, len(moves) - 1))
    return next(m for m in moves if m["count"] == want)


def _auction(state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    passes = _of(moves, "turn_order_pass")
    if passes and chooser.random() < 0.5:
        return passes[0]
    bids = _of(moves, "bid")
    cash = state.seats[seat].cash
    if bids and bids[0]["amount"] <= max(1, cash // 8) and chooser.random() < 0.4:
        return bids[0]
    return _of(moves, "drop")[0]


def _action(state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    if state.seats[seat].locomotive < 3 and chooser.random() < 0.5:
        loco = [m for m in moves if m["action"] == LOCOMOTIVE]
        if loco:
            return loco[0]
    return chooser.choice(list(moves))


def _reach(map_: Map, hex_: str, tile: str, rotation: int) -> int:
    """How far the tile's exits lie from a city or town (0: it runs into one)."""
    total = 0
    for edge in exits_of(tile, rotation):
        other = map_.neighbours[hex_][edge]
        if other is None:
            total += 9
        elif other in map_.city_at or other in map_.towns:
            total += 0
        else:
            total += map_.distance_to_stop.get(other, 9)
    return total


def _build(map_: Map, state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    end = _of(moves, "end_build")[0]
    urbanize = _of(moves, "urbanize")
    if urbanize and chooser.random() < 0.6:
        return chooser.choice(urbanize)
    builds = _of(moves, "build")
    me = state.seats[seat]
    build = state.build
    placed = len(build.placed) if build is not None else 0
    reserve = max(0, me.shares + me.locomotive - me.income) + 1
    affordable = [m for m in builds if me.cash - m["cost"] >= reserve]
    if not affordable or (placed >= 2 and chooser.random() < 0.3):
        return end
    net = network(map_, state.board, state.new_cities)
    ends = {
        map_.neighbours[end.hex][end.edge]
        for link in net.owned(seat)
        if not link.complete
        for end in (link.a, link.b)
        if end.kind == "open"
    }
    extending = [m for m in affordable if m["hex"] in ends]
    others = sorted(
        (m for m in affordable if m["hex"] not in ends),
        key=lambda m: (_reach(map_, m["hex"], m["tile"], m["rotation"]) + m["cost"], chooser.random()),
    )
    shortlist = extending + others[: max(4, SHORTLIST - len(extending))]
    valued = sorted(((_value(map_, state, seat, m), chooser.random(), i) for i, m in enumerate(shortlist)), reverse=True)
    if chooser.random() < 0.1:
        return chooser.choice(affordable)
    if valued[0][0] < 0 and placed >= 1:
        return end
    return shortlist[valued[0][2]]


def _deliverable(map_: Map, state: State, a: str, b: str) -> bool:
    """Whether a good on one end could be delivered to the other."""
    colour_a, colour_b = map_.city_colour(a, state.new_cities), map_.city_colour(b, state.new_cities)
    return (colour_b is not None and colour_b in state.cubes.get(a, ())) or (
        colour_a is not None and colour_a in state.cubes.get(b, ())
    )


def _value(map_: Map, state: State, seat: int, move: dict[str, Any]) -> float:
    """How much a placement moves the seat towards completed links: completing one is best,
    then extending a line towards the nearest other stop; redirects and detours score low."""
    try:
        placement = assess(map_, state, seat, move["hex"], move["tile"], move["rotation"])
    except IllegalMove:
        return -100.0
    after, _ = apply_placement(map_, state.board, state.new_cities, placement, seat)
    from_city = map_.distance_from_city
    best = -50.0
    for index in placement.changed:
        link = trace(map_, after, state.new_cities, move["hex"], index)
        if link.complete:
            # Goods are only delivered to cities: a city-to-city link that carries a good now is best.
            cities = link.a.kind == "city" and link.b.kind == "city"
            value = (30.0 if cities else 5.0) + 2 * len(link.hexes) + (25 if _deliverable(map_, state, link.a.hex, link.b.hex) else 0)
        else:
            open_end = link.a if not link.a.stop else link.b
            anchor = link.b if open_end is link.a else link.a
            beyond = map_.neighbours[open_end.hex][open_end.edge]
            if beyond is None:
                continue
            targets = [c for c in from_city if c != anchor.hex and _deliverable(map_, state, anchor.hex, c)]
            distance = min((from_city[c].get(beyond, 20) for c in targets or from_city if c != anchor.hex), default=20)
            # Carrying a line on beats starting a new one.
            value = 10.0 - 3 * distance + (15 if len(link.segments) > 1 else 0)
        best = max(best, value)
    # Extra town exits and complex tiles only add cost.
    score = best - placement.cost - (8.0 if placement.kind == REDIRECTED else 0.0)
    return score


def _move(map_: Map, state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random) -> dict[str, Any]:
    deliveries = _of(moves, "deliver")
    upgrade = _of(moves, "upgrade_locomotive")
    if deliveries:
        links = network(map_, state.board, state.new_cities).by_id
        best = max(deliveries, key=lambda m: (sum(links[i].owner == seat for i in m["path"]), chooser.random()))
        # Even a delivery that pays only others keeps the table solvent.
        if sum(links[i].owner == seat for i in best["path"]) > 0 or chooser.random() < 0.8:
            return best
    me = state.seats[seat]
    if upgrade and (me.locomotive < 2 or (me.locomotive < 4 and me.income >= 3)):
        return upgrade[0]
    return _of(moves, "pass_move")[0]
