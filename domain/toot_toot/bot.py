"""The playout bot: it picks a goal order (the one nearest completion it can supply) and
works towards it: it takes the basic goods the order wants, or the inputs of the processed
ones and processes them (drawing a factory where the map has none), then sells at the
order's city, selling anything else it can on the way. To get somewhere it lays track ahead
of its train along the cheapest route and drives along it. It places its tokens, spends goods
it has no use for and avoids penalty tokens unless the gain is worth it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.toot_toot.content import CITY, FACTORY, OPEN, SITE, Building, Recipe
from domain.toot_toot.context import Ctx
from domain.toot_toot.hexes import Hex, coords, neighbour, opp
from domain.toot_toot.orders import points
from domain.toot_toot.route import Step, route
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
        self.recipes = card(content, me).recipes
        self.near = ctx.board.locations(ctx.seat, level(content, me, "waterway") > 0)
        self.buildings = [*ctx.map.buildings, *(b for h in ctx.state.factories if (b := ctx.board.building_at(h)))]
        self.sellable = self._sellable()
        self.goal, self.missing = self._goal()
        self.short = self._short()
        """The goods worth taking or making now."""
        self.turn_first, self.turn_to = False, me.facing

    # --- what to aim for -----------------------------------------------------------------

    def _orders(self) -> list[str]:
        return [*self.ctx.state.public, *self.ctx.me.hand]

    def _unfilled(self, order_id: str) -> list[str]:
        order = self.ctx.content.order[order_id]
        filled = self.ctx.state.filled.get(order_id, ())
        return [g for i, g in enumerate(order.icons) if i not in filled]

    def _sellable(self) -> set[str]:
        return {g for o in self._orders() for g in self._unfilled(o)}

    def _recipe(self, good: str) -> Recipe | None:
        return next((r for r in self.recipes if good in r.outputs), None)

    def _goal(self) -> tuple[str | None, list[str]]:
        """The order to work on and the goods it still lacks beyond those held."""
        best: tuple[int, int, str] | None = None
        lacking: dict[str, list[str]] = {}
        for order_id in self._orders():
            held = dict(self.ctx.me.goods)
            lack = []
            for good in self._unfilled(order_id):
                if held.get(good, 0):
                    held[good] -= 1
                else:
                    lack.append(good)
            cost = sum(1 if self.ctx.content.good[g].basic else 3 for g in lack)
            if any(not self.ctx.content.good[g].basic and self._recipe(g) is None for g in lack):
                continue
            key = (cost, -len(self._unfilled(order_id)), order_id)
            lacking[order_id] = lack
            if best is None or key < best:
                best = key
        return (best[2], lacking[best[2]]) if best else (None, [])

    def _short(self) -> set[str]:
        """The basic goods to take next: the goal's, or the inputs of its processed goods."""
        out: set[str] = set()
        held = dict(self.ctx.me.goods)
        for good in self.missing:
            if self.ctx.content.good[good].basic:
                out.add(good)
                continue
            recipe = self._recipe(good)
            if recipe is not None:
                out |= {g for g, n in recipe.inputs.items() if held.get(g, 0) < n}
        return out

    def _makeable(self) -> set[str]:
        """The factory kinds whose recipe the goal wants and whose inputs are held."""
        out = set()
        for good in self.missing:
            recipe = self._recipe(good)
            if recipe is not None and all(self.ctx.me.goods.get(g, 0) >= n for g, n in recipe.inputs.items()):
                out.add(recipe.factory)
        return out

    def _needed(self) -> dict[str, int]:
        """Units of each good the goal still needs: held or basic ones as they are, the
        inputs of processed ones not held."""
        out: dict[str, int] = {}
        lacking = list(self.missing)
        for good in self._unfilled(self.goal) if self.goal else ():
            recipe = self._recipe(good) if good in lacking and not self.ctx.content.good[good].basic else None
            if good in lacking:
                lacking.remove(good)
            for g, n in (recipe.inputs.items() if recipe else [(good, 1)]):
                out[g] = out.get(g, 0) + n
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
        upgrade = self._upgrade()
        if upgrade is not None:
            return upgrade
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
        if "pass_location" in self.by_type:
            return {"type": "pass_location"}
        # A location action is due and none is useful: the cheapest one.
        due = [m for kind in ("take", "process", "sell") for m in self.by_type.get(kind, [])]
        return min(due, key=lambda m: not self.free(m)) if due else None

    def _upgrade(self) -> Move | None:
        upgrades = self.by_type.get("upgrade", [])
        maxes = [m for m in upgrades if m["ability"] in {f"max_{g}" for g in self.short}]
        if maxes:
            return maxes[0]
        if not upgrades:
            return None
        def liking(m: Move) -> tuple[int, float]:
            word = m["ability"].split("_")[0]
            return (PRIORITY.index(word) if word in PRIORITY else len(PRIORITY), self.chooser.random())
        return min(upgrades, key=liking)

    def _location(self) -> Move | None:
        sells = self.by_type.get("sell", [])
        if sells:
            best = max(sells, key=lambda m: (self._sale(m), self.free(m)))
            if self.free(best) or self._sale(best) >= 5:
                return best
        makeable = self._makeable()
        process = self.pick("process", lambda m: self.free(m) and self._building(m["factory"]).factory in makeable
                            and any(self._recipe(g) is not None and self._recipe(g).id == m["recipe"]  # type: ignore[union-attr]
                                    for g in self.missing))
        if process is not None:
            return process
        if room(self.ctx.content, self.ctx.me):
            take = self.pick("take", lambda m: self.free(m) and self._building(m["site"]).good in self.short)
            if take is not None:
                return take
        return None

    def _building(self, building_id: str) -> Building:
        building = self.ctx.board.building(building_id)
        assert building is not None
        return building

    def _sale(self, move: Move) -> int:
        content, me = self.ctx.content, self.ctx.me
        bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
        return sum(points(content, bonus, content.order[o], units) for o, units in move["fills"].items())

    def _spend(self) -> Move | None:
        """Spend goods of no use (they only fill the storage); draw a factory the goal needs
        when the map has none of its kind."""
        me = self.ctx.me
        useful = self.sellable | self.short | {g for r in self.recipes if set(r.outputs) & set(self.missing) for g in r.inputs}
        idle = {g for g in me.goods if g not in useful}
        targets = self.targets()
        needed = self._needed()
        for fuel in ("wood", "coal"):
            if fuel in idle or me.goods.get(fuel, 0) > needed.get(fuel, 0):
                moves = [m for m in self.by_type.get("fuel_move", []) if m["fuel"] == fuel]
                here = self._closest(targets, str(me.hex))
                if moves and (fuel in idle or min(self._closest(targets, m["hex"]) for m in moves) < here):
                    return min(moves, key=lambda m: self._closest(targets, m["hex"]))
        if "iron" in idle:
            iron = self.pick("iron_track")
            if iron is not None:
                return iron
        kinds = {b.factory for b in self.buildings if b.kind == FACTORY}
        lacking = {r.factory for g in self.missing if (r := self._recipe(g)) is not None} - kinds
        if lacking:
            for payment in ("stone", "shovel", "penalty"):
                build = self.pick("build_factory", lambda m, p=payment: m["payment"] == p and m["kind"] in lacking)
                if build is not None:
                    return build
        if "stone" in idle:
            return self.pick("build_factory", lambda m: m["payment"] == "stone")
        return None

    # --- getting somewhere ---------------------------------------------------------------

    def targets(self) -> list[Hex]:
        """The opening positions of the buildings worth going to now."""
        ctx, me = self.ctx, self.ctx.me
        full = room(ctx.content, me) == 0
        sale_colours = {ctx.content.order[o].colour for o in self._orders()
                        if any(me.goods.get(g, 0) for g in self._unfilled(o))}
        goal_colour = ctx.content.order[self.goal].colour if self.goal else None
        makeable = self._makeable()
        useful: list[Building] = []
        for b in self.buildings:
            sell = b.kind == CITY and b.colour in sale_colours and (full or not self.missing or (b.colour == goal_colour
                                                                     and not self.short))
            take = b.kind == SITE and not full and b.good in self.short
            make = b.kind == FACTORY and b.factory in makeable
            if sell or take or make:
                useful.append(b)
        if not useful:
            # Nothing to do in sight: wait by a city for new orders.
            useful = [b for b in self.buildings if b.kind == CITY and (b.colour in sale_colours or not sale_colours)]
        out = []
        for b in useful:
            for side, kind in b.sides.items():
                hex_, _, edge = side.partition("/")
                there = neighbour(hex_, int(edge))
                if kind == OPEN and ctx.board.trackable(there):
                    out.append(there)
        return out

    @staticmethod
    def _closest(targets: list[Hex], hex_: Hex) -> int:
        return min((distance(hex_, t) for t in targets), default=0)

    def plan(self, targets: set[Hex]) -> list[Step]:
        found = route(self.ctx.board, self.ctx.seat, targets)
        self.turn_first = found.turn_to is not None
        self.turn_to = found.turn_to if found.turn_to is not None else self.ctx.me.facing
        return list(found.steps)

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
        moves = self.by_type.get("drive", [])
        if moves:
            return chooser.choice(moves)
        draws = self.by_type.get("draw_track", [])
        if draws:
            return chooser.choice(draws)
        return chooser.choice([m for ms in self.by_type.values() for m in ms])

    def _move_along(self, steps: list[tuple[Hex, int, bool]]) -> Move | None:
        """A move to the furthest place along `steps` a move may end on."""
        legal = {(m["hex"], m["facing"]) for m in self.by_type.get("drive", [])}
        for hex_, facing, _ in reversed(steps):
            if (hex_, facing) in legal:
                return {"type": "drive", "hex": hex_, "facing": facing}
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
