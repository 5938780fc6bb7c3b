"""The playout bot: it wants the goods the orders in sight want. It heads for a useful
building (a city wanting goods it holds, a site or factory for wanted goods), lays track
ahead of its train towards it, drives there, takes, processes and sells; it places its
tokens, spends goods nobody wants and now and then builds a factory. It avoids penalty
tokens unless the gain is worth it."""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from typing import Any

from domain.toot_toot.content import CITY, FACTORY, OPEN, SITE, Building
from domain.toot_toot.context import Ctx
from domain.toot_toot.hexes import Hex, coords, exits_from, neighbour, opp, segment
from domain.toot_toot.orders import points, unfilled
from domain.toot_toot.seats import card, level, room
from domain.toot_toot.state import AFTER, DRAWING, MAIN, STARTS

Move = dict[str, Any]
PRIORITY = ("max", "sell", "space", "double", "extra", "scoring", "pairs", "plus", "order", "waterway", "shovel")
"""Abilities by the bot's liking (by the first word of their id)."""


def distance(a: Hex, b: Hex) -> int:
    def axial(h: Hex) -> tuple[int, int]:
        col, row = coords(h)
        return col - (row - (row & 1)) // 2, row
    (q1, r1), (q2, r2) = axial(a), axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


class Bot:
    def __init__(self, ctx: Ctx, moves: Sequence[Move], chooser: random.Random) -> None:
        self.ctx, self.chooser = ctx, chooser
        self.by_type: dict[str, list[Move]] = {}
        for move in moves:
            self.by_type.setdefault(move["type"], []).append(move)
        content, me = ctx.content, ctx.me
        self.wanted = self._wanted()
        self.recipes = card(content, me).recipes
        self.inputs = {g for r in self.recipes if set(r.outputs) & self.wanted for g in r.inputs}
        self.keep = {g: n + (2 if g in self.inputs else 0) for g, n in self._need().items()}
        self.keep.update({g: 2 for g in self.inputs if g not in self.keep})
        self.short = {g for g, n in self.keep.items() if me.goods.get(g, 0) < n}
        """The goods worth taking or making now."""
        self.near = ctx.board.locations(ctx.seat, level(content, me, "waterway") > 0)

    def _wanted(self) -> set[str]:
        """The goods the orders in sight want more of than the seat holds."""
        need: dict[str, int] = {}
        for order_id in (*self.ctx.state.public, *self.ctx.me.hand):
            order = self.ctx.content.order[order_id]
            for good in set(order.icons):
                need[good] = need.get(good, 0) + len(unfilled(order, self.ctx.state.filled.get(order_id, ()), good))
        return {g for g, n in need.items() if n > self.ctx.me.goods.get(g, 0)}

    def _sellable(self) -> set[str]:
        out: set[str] = set()
        for order_id in (*self.ctx.state.public, *self.ctx.me.hand):
            order = self.ctx.content.order[order_id]
            out |= {g for g in set(order.icons) if unfilled(order, self.ctx.state.filled.get(order_id, ()), g)}
        return out

    def free(self, move: Move) -> bool:
        building = move.get("site") or move.get("factory") or move.get("city")
        return not self.near.get(str(building), False)

    def pick(self, kind: str, keep: Any = None) -> Move | None:
        moves = [m for m in self.by_type.get(kind, []) if keep is None or keep(m)]
        return self.chooser.choice(moves) if moves else None

    # --- the choice ----------------------------------------------------------------------

    def choose(self) -> Move | None:
        ctx = self.ctx
        if ctx.state.phase == STARTS:
            return None
        upgrades = self.by_type.get("upgrade", [])
        if upgrades:
            return min(upgrades, key=lambda m: (PRIORITY.index(m["ability"].split("_")[0])
                                                if m["ability"].split("_")[0] in PRIORITY else len(PRIORITY),
                                                self.chooser.random()))
        if ctx.state.step == DRAWING:
            return self._draw(self.by_type.get("draw_track", []), self.targets()) or {"type": "stop_drawing"}
        location = self._location()
        if location is not None:
            return location
        spend = self._spend()
        if spend is not None:
            return spend
        if ctx.state.step == AFTER:
            return {"type": "end_turn"}
        if ctx.state.step == MAIN:
            return self._main()
        if "pass" in self.by_type:
            return {"type": "pass"}
        # A location action is due and none is useful: the cheapest one.
        due = [m for kind in ("take", "process", "sell") for m in self.by_type.get(kind, [])]
        return min(due, key=lambda m: not self.free(m)) if due else None

    def _location(self) -> Move | None:
        sells = self.by_type.get("sell", [])
        if sells:
            best = max(sells, key=lambda m: (self._sale(m), self.free(m)))
            if self.free(best) or self._sale(best) >= 5:
                return best
        useful = lambda m: self.free(m) and set(card(self.ctx.content, self.ctx.me).recipe[m["recipe"]].outputs) & self.wanted  # noqa: E731
        process = self.pick("process", useful)
        if process is not None:
            return process
        if room(self.ctx.content, self.ctx.me):
            take = self.pick("take", lambda m: self.free(m) and self._site_good(m) in self.short)
            if take is not None:
                return take
        return None

    def _site_good(self, move: Move) -> str:
        building = self.ctx.board.building(move["site"])
        return building.good if building is not None else ""

    def _sale(self, move: Move) -> int:
        content, me = self.ctx.content, self.ctx.me
        bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
        return sum(points(content, bonus, content.order[o], units) for o, units in move["fills"].items())

    def _need(self) -> dict[str, int]:
        need: dict[str, int] = {}
        for order_id in (*self.ctx.state.public, *self.ctx.me.hand):
            order = self.ctx.content.order[order_id]
            for good in set(order.icons):
                need[good] = need.get(good, 0) + len(unfilled(order, self.ctx.state.filled.get(order_id, ()), good))
        return need

    def _surplus(self) -> set[str]:
        """Goods held beyond what the orders in sight want and a couple kept for recipes."""
        return {g for g, n in self.ctx.me.goods.items() if n > self.keep.get(g, 0)}

    def _spend(self) -> Move | None:
        """Spend goods nobody wants (they only fill the storage), or build a factory."""
        me = self.ctx.me
        idle = self._surplus()
        targets = self.targets()
        for fuel in ("wood", "coal"):
            if fuel in idle or (me.goods.get(fuel, 0) and self.chooser.random() < 0.3):
                moves = [m for m in self.by_type.get("fuel_move", []) if m["fuel"] == fuel]
                if moves and (fuel in idle or min(self._closest(targets, m["hex"]) for m in moves)
                              < self._closest(targets, str(me.hex))):
                    return min(moves, key=lambda m: self._closest(targets, m["hex"]))
        if "iron" in idle:
            iron = self.pick("iron_track")
            if iron is not None:
                return iron
        if self.chooser.random() < 0.05 or "stone" in idle:
            wanted_kinds = {r.factory for r in self.recipes if set(r.outputs) & self.wanted}
            build = self.pick("build_factory", lambda m: m["payment"] != "penalty" and m["kind"] in wanted_kinds)
            if build is None and "stone" in idle:
                build = self.pick("build_factory", lambda m: m["payment"] == "stone")
            if build is not None:
                return build
        return None

    # --- getting somewhere ---------------------------------------------------------------

    def targets(self) -> list[Hex]:
        """The opening positions of the buildings worth going to now."""
        ctx, me = self.ctx, self.ctx.me
        board, full = ctx.board, room(ctx.content, me) == 0
        sellable = {g for g in me.goods if g in self._sellable()}
        units = sum(me.goods[g] for g in sellable)
        colours = {ctx.content.order[o].colour for o in (*ctx.state.public, *me.hand)
                   if any(unfilled(ctx.content.order[o], ctx.state.filled.get(o, ()), g) for g in sellable)}
        useful: list[Building] = []
        buildings = [*board.map.buildings, *(b for h in board.state.factories if (b := board.building_at(h)))]
        for b in buildings:
            sell = b.kind == CITY and b.colour in colours and (full or units >= 2 or not self.wanted)
            take = b.kind == SITE and not full and b.good in self.short
            make = b.kind == FACTORY and any(r.factory == b.factory and set(r.outputs) & self.wanted and
                                             all(me.goods.get(g, 0) >= n for g, n in r.inputs.items())
                                             for r in self.recipes)
            if sell or take or make:
                useful.append(b)
        out = []
        for b in useful:
            for side, kind in b.sides.items():
                hex_, _, edge = side.partition("/")
                there = neighbour(hex_, int(edge))
                if kind == OPEN and board.trackable(there):
                    out.append(there)
        if not out:
            # Nothing useful in sight: wait by a city for new orders.
            out = [neighbour(h, int(e)) for b in board.map.buildings if b.kind == CITY for side, kind in b.sides.items()
                   if kind == OPEN for h, _, e in [side.partition("/")] if board.trackable(neighbour(h, int(e)))]
        return out

    @staticmethod
    def _closest(targets: list[Hex], hex_: Hex) -> int:
        return min(distance(hex_, t) for t in targets)

    def plan(self, targets: set[Hex]) -> list[tuple[Hex, int, bool]]:
        """The cheapest way to a target hex: (hex, facing) steps, each on existing track or
        a segment still to draw (cost 1, an existing step 0.1, a turn first 3)."""
        ctx, me = self.ctx, self.ctx.me
        assert me.hex is not None
        board = ctx.board
        others = board.trains(but=ctx.seat)
        starts = [(0.0, (me.hex, me.facing), True)] + [(3.0, (me.hex, f), True) for f in board.turns(ctx.seat)]
        best: dict[tuple[Hex, int], float] = {}
        back: dict[tuple[Hex, int], tuple[tuple[Hex, int], bool] | None] = {}
        heap: list[tuple[float, tuple[Hex, int]]] = []
        for cost, place, _ in starts:
            best[place] = cost
            back[place] = None
            heapq.heappush(heap, (cost, place))
        while heap:
            cost, place = heapq.heappop(heap)
            if cost > best.get(place, 1e9):
                continue
            if place[0] in targets and place[0] != me.hex and place[0] not in others:
                steps: list[tuple[Hex, int, bool]] = []
                at: tuple[Hex, int] | None = place
                while at is not None and back.get(at) is not None:
                    prev, new = back[at]  # type: ignore[misc]
                    steps.append((at[0], at[1], new))
                    at = prev
                steps.reverse()
                self.turn_first = at is not None and at[1] != me.facing
                self.turn_to = at[1] if at is not None else me.facing
                return steps
            hex_, facing = place
            nxt, entry = neighbour(hex_, facing), opp(facing)
            if not ctx.map.on_map(nxt):
                continue
            have = board.segments(nxt)
            for far in exits_from(entry):
                exists = segment(entry, far) in have
                if not exists and not board.can_draw(nxt, entry, far):
                    continue
                step_cost = cost + (0.1 if exists else 1.0)
                if step_cost < best.get((nxt, far), 1e9):
                    best[(nxt, far)] = step_cost
                    back[(nxt, far)] = (place, not exists)
                    heapq.heappush(heap, (step_cost, (nxt, far)))
        return []

    def _main(self) -> Move:
        me, chooser = self.ctx.me, self.chooser
        targets = set(self.targets())
        if me.hex in targets and self.chooser.random() < 0.5:
            targets.discard(me.hex)
        self.turn_first, self.turn_to = False, me.facing
        steps = self.plan(targets) if targets else []
        if steps:
            if self.turn_first:
                turn = {"type": "turn", "facing": self.turn_to}
                if turn in self.by_type.get("turn", []):
                    return turn
            new = [i for i, (_, _, fresh) in enumerate(steps) if fresh]
            if not new:
                move = self._move_along(steps)
                if move is not None:
                    return move
            else:
                first = new[0]
                hex_, far, _ = steps[first]
                entry = opp(steps[first - 1][1]) if first else opp(me.facing)
                draw = {"type": "draw_track", "hex": hex_, "from": entry, "to": far}
                if draw in self.by_type.get("draw_track", []):
                    self.line = steps[first + 1:]
                    return draw
                move = self._move_along(steps[:first])
                if move is not None:
                    return move
        moves = self.by_type.get("move", [])
        if moves:
            return chooser.choice(moves)
        draws = self.by_type.get("draw_track", [])
        if draws:
            return chooser.choice(draws)
        return chooser.choice([m for ms in self.by_type.values() for m in ms])

    def _move_along(self, steps: list[tuple[Hex, int, bool]]) -> Move | None:
        """A move to the furthest place along `steps` a move may end on."""
        legal = {(m["hex"], m["facing"]) for m in self.by_type.get("move", [])}
        for hex_, facing, _ in reversed(steps):
            if (hex_, facing) in legal:
                return {"type": "move", "hex": hex_, "facing": facing}
        return None

    def _draw(self, draws: list[Move], targets: list[Hex]) -> Move | None:
        """Go on with the line: the next segment of the plan when it has one."""
        if not draws:
            return None
        me = self.ctx.me
        self.turn_first, self.turn_to = False, me.facing
        steps = self.plan(set(targets)) if targets else []
        wanted = {(h, f) for h, f, fresh in steps if fresh}
        for move in draws:
            if (move["hex"], move["to"]) in wanted:
                return move
        return None


def choose(ctx: Ctx, moves: Sequence[Move], chooser: random.Random) -> Move | None:
    return Bot(ctx, moves, chooser).choose()
