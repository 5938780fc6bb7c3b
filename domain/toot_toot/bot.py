"""The bot (the `playout` and `greedy` levels): it follows a sales plan (`plan.py`): it takes
the basic goods its orders want, processes them where a factory stands (drawing one when the
map has none of that kind), and sells several orders of one city at once. To get to the next
stop it lays track along the cheapest route (`route.py`) and drives along it, using spare wood
or coal to move after drawing and spare iron to draw one segment more. It does a useful
location action as its main action only when it has something else to do there too, draws
instead when the next stop needs track, and takes penalty tokens only where the rules force
it (a train with no way ahead must turn). In final scoring it supplies the hand-order icons
that leave it best placed (`best_supply`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from domain.core.bots import Bot
from domain.core.state import replace
from domain.toot_toot import final_scoring, locations
from domain.toot_toot.content import SITE, Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.evolve import evolve
from domain.toot_toot.hexes import Hex, neighbour, neighbours, opp, segment
from domain.toot_toot.orders import points
from domain.toot_toot.plan import HEXES_PER_TURN, Plan, Planner
from domain.toot_toot.route import TURN_COST, Step, route
from domain.toot_toot.seats import level, room
from domain.toot_toot.state import AFTER, DRAWING, LOCATION, MAIN, SCORING, SECOND, STARTS
from domain.toot_toot.steps import Steps
from domain.toot_toot.train import FUEL_STEPS, FUELS
from domain.toot_toot.upgrades import choose_upgrade

Move = dict[str, Any]


class Driver:
    """One move's choice for one seat: what its plan says to do now."""

    def __init__(self, ctx: Ctx, moves: Sequence[Move], chooser: random.Random) -> None:
        self.ctx, self.chooser = ctx, chooser
        self.by_type: dict[str, list[Move]] = {}
        for move in moves:
            self.by_type.setdefault(move["type"], []).append(move)
        self.planner = Planner(ctx) if ctx.me.hex is not None else None
        self.near = ctx.board.locations(ctx.seat, level(ctx.content, ctx.me, "waterway") > 0)
        self._routes: dict[frozenset[Hex], tuple[list[Step], int | None]] = {}

    @cached_property
    def plan(self) -> Plan | None:
        return self.planner.best() if self.planner else None

    # --- the choice ----------------------------------------------------------------------

    def choose(self) -> Move | None:
        step = self.ctx.state.step
        if self.ctx.state.phase == STARTS:
            return self._start()
        if self.ctx.state.phase == SCORING:
            return best_supply(self.ctx, self.by_type.get("supply_hand_orders", []))
        if "upgrade" in self.by_type:
            return choose_upgrade(self.ctx, self.by_type["upgrade"], self.plan)
        if step == DRAWING:
            return self._go_on_drawing()
        if step == SECOND:
            return self._useful_here() or {"type": "pass_location"}
        build = self._build()
        if build is not None:
            return build
        if step == MAIN:
            return self._main()
        if step == LOCATION:
            return self._location()
        assert step == AFTER
        if "iron_track" not in self.by_type:
            return {"type": "end_turn"}
        return self._iron() or {"type": "end_turn"}

    def _start(self) -> Move | None:
        """The free start position with the best first plan, counting the route from there
        to its first stop (some starts face a dead end)."""
        starts = self.by_type.get("choose_start", [])
        if not starts:
            return None
        ctx = self.ctx
        facing = {s.hex: s.facing for s in ctx.map.starts}

        def rating(move: Move) -> tuple[float, float]:
            seats = list(ctx.state.seats)
            seats[ctx.seat] = replace(ctx.me, hex=move["hex"], facing=facing[move["hex"]])
            there = Ctx(ctx.content, replace(ctx.state, seats=tuple(seats)), ctx.seat)
            planner = Planner(there)
            plan = planner.best()
            if plan is None:
                return (-1.0, self.chooser.random())
            _, buildings = planner.next_stop(plan)
            found = route(there.board, ctx.seat, {h for b in buildings for h in planner.openings(b)})
            if not found.steps:
                return (-1.0, self.chooser.random())
            drawn = sum(new for _, _, new in found.steps) + (TURN_COST if found.turn_to is not None else 0)
            return (plan.value / (plan.turns + drawn / HEXES_PER_TURN), self.chooser.random())
        return max(starts, key=rating)

    def _main(self) -> Move:
        here = self._useful_here()
        if here is not None:
            # Draw towards the next stop first when this is the only thing to do here: the
            # location step still does it, and the main action is not spent standing still.
            if here["type"] in ("take", "process") and not self._more_here_after(here):
                draw = self._move_on(after=here, draw_only=True)
                if draw is not None:
                    return draw
            return here
        fuel = self._fuel_to_target()
        if fuel is not None:
            return fuel
        return self._move_on() or self._fallback()

    def _location(self) -> Move:
        here = self._useful_here()
        if here is not None:
            return here
        fuel = self._fuel_to_target()
        if fuel is not None:
            return fuel
        if "pass_location" in self.by_type:
            return {"type": "pass_location"}
        return self._forced()

    # --- what is worth doing where the train stands -----------------------------------------

    def free(self, move: Move) -> bool:
        building = move.get("site") or move.get("factory") or move.get("city")
        return not self.near.get(str(building), True)

    def _sale_value(self, move: Move) -> float:
        """Points of a sale, plus a little per order it completes; minus for a hand order it
        would fill only in part (that order is then discarded)."""
        content, me, state = self.ctx.content, self.ctx.me, self.ctx.state
        bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
        value = 0.0
        for order_id, units in move["fills"].items():
            order = content.order[order_id]
            value += points(content, bonus, order, units)
            unfilled = len(order.icons) - len(state.filled.get(order_id, ()))
            if sum(units.values()) == unfilled:
                value += 1
            elif order_id in me.hand:
                return -1
        return value

    def _useful_here(self) -> Move | None:
        sells = [m for m in self.by_type.get("sell", []) if self.free(m) and self._sale_value(m) > 0]
        if sells:
            return max(sells, key=lambda m: (self._sale_value(m), sorted(m["fills"])))
        plan = self.plan
        if plan is None:
            return None
        recipes = {r.id for r in plan.make}
        for move in self.by_type.get("process", []):
            if self.free(move) and move["recipe"] in recipes:
                return move
        if room(self.ctx.content, self.ctx.me):
            for move in self.by_type.get("take", []):
                building = self.ctx.board.building(move["site"])
                if self.free(move) and building is not None and plan.fetch[building.good] > 0:
                    return move
        return None

    def _planned_here(self) -> Move | None:
        """The take or processing the plan wants where the train stands, while the moves
        offered now (drawing a line) do not list it."""
        plan, board = self.plan, self.ctx.board
        if plan is None:
            return None
        held = Counter(self.ctx.me.goods)
        for building_id, penalty in sorted(self.near.items()):
            building = board.building(building_id)
            if penalty or building is None:
                continue
            if building.kind == SITE and plan.fetch[building.good] and room(self.ctx.content, self.ctx.me):
                return {"type": "take", "site": building_id}
            for recipe in plan.make:
                if recipe.factory == building.factory and all(held[g] >= n for g, n in recipe.inputs.items()):
                    return {"type": "process", "factory": building_id, "recipe": recipe.id}
        return None

    def _more_here_after(self, move: Move) -> bool:
        """Whether the plan wants a second location action at this spot after `move`."""
        plan = self.plan
        if plan is None:
            return False
        if move["type"] == "take":
            building = self.ctx.board.building(move["site"])
            good = building.good if building is not None else ""
            takes = 1 if level(self.ctx.content, self.ctx.me, "max", good=good) else plan.fetch[good]
            return takes > 1 and room(self.ctx.content, self.ctx.me) > 1
        same = [r for r in plan.make if r.id == move["recipe"]]
        held = Counter(self.ctx.me.goods)
        return len(same) > 1 and all(held[g] >= 2 * n for g, n in same[0].inputs.items())

    def _forced(self) -> Move:
        """A location action is due and none is useful: the one that harms least."""
        for kind in ("sell", "process", "take"):
            options = [m for m in self.by_type.get(kind, []) if self.free(m)]
            if options:
                if kind == "sell":
                    return max(options, key=lambda m: (self._sale_value(m), sorted(m["fills"])))
                return options[0]
        return self.chooser.choice([m for ms in self.by_type.values() for m in ms])

    # --- the next stop ---------------------------------------------------------------------

    def targets(self, plan: Plan | None = None) -> set[Hex]:
        """The opening positions of the next stop's buildings, or of anything useful when
        there is no plan."""
        assert self.planner is not None
        plan = plan if plan is not None else self.plan
        if plan is None:
            buildings = [b for g in self.planner.wanted() if self.ctx.content.good[g].basic
                         for b in self.planner.sites(g)] if room(self.ctx.content, self.ctx.me) else []
            buildings = buildings or [b for c in self.ctx.content.colours for b in self.planner.cities(c)]
        else:
            kind, buildings = self.planner.next_stop(plan)
            if kind == "build":
                return self._build_spots()
        others = set(self.ctx.board.trains(but=self.ctx.seat))
        return {h for b in buildings for h in self.planner.openings(b)} - others

    def _build_spots(self) -> set[Hex]:
        """Hexes beside a plain hex a factory could go on (no track, not an opening): where
        to stand to draw the factory the plan lacks when it cannot be drawn here."""
        board, me = self.ctx.board, self.ctx.me
        others = set(board.trains(but=self.ctx.seat))
        out = set()
        for hex_ in self.ctx.map.terrain:
            if hex_ == me.hex or hex_ in others or not board.trackable(hex_):
                continue
            if any(board.trackable(n) and not board.segments(n) and not board.is_opening(n)
                   for _, n in neighbours(hex_)):
                out.add(hex_)
        return out

    def _route(self, targets: set[Hex]) -> tuple[list[Step], int | None]:
        key = frozenset(targets)
        if key not in self._routes:
            found = route(self.ctx.board, self.ctx.seat, targets) if targets else None
            self._routes[key] = (list(found.steps), found.turn_to) if found else ([], None)
        return self._routes[key]

    def _move_on(self, after: Move | None = None, draw_only: bool = False) -> Move | None:
        """The main action towards the next stop: turn if the route starts with a turn, draw
        the first segment still missing, or drive to the stop along track that is there.
        With `after`, the next stop is the one after that location action is done."""
        plan = self.plan
        if after is not None:
            plan = self._plan_after(after)
            if plan is None:
                return None
        steps, turn_to = self._route(self.targets(plan))
        if not steps:
            return None
        if turn_to is not None:
            if draw_only:
                return None
            turn = {"type": "turn", "facing": turn_to}
            return turn if turn in self.by_type.get("turn", []) else None
        fresh = [i for i, (_, _, new) in enumerate(steps) if new]
        if fresh:
            first = fresh[0]
            hex_, far, _ = steps[first]
            entry = opp(steps[first - 1][1]) if first else opp(self.ctx.me.facing)
            draw = {"type": "draw_track", "hex": hex_, "from": entry, "to": far}
            if draw in self.by_type.get("draw_track", []):
                return draw
            if draw_only:
                return None
            return self._drive_along(steps[:first])
        return None if draw_only else self._drive_along(steps)

    def _plan_after(self, move: Move) -> Plan | None:
        """The plan once `move` (a take or a processing, whose outcome holds nothing hidden)
        is done."""
        ctx = self.ctx
        trial = _trial(ctx)
        if move["type"] == "take":
            locations.take(trial, move["site"])
        else:
            locations.process(trial, move["factory"], move["recipe"])
        return Planner(Ctx(ctx.content, trial.state, ctx.seat)).best()

    def _drive_along(self, steps: list[Step]) -> Move | None:
        """A drive to the furthest place along `steps` a move may end on."""
        legal = {(m["hex"], m["facing"]) for m in self.by_type.get("drive", [])}
        for hex_, facing, _ in reversed(steps):
            if (hex_, facing) in legal:
                return {"type": "drive", "hex": hex_, "facing": facing}
        return None

    def _go_on_drawing(self) -> Move:
        """Go on with the line along the route while it draws new segments."""
        draws = self.by_type.get("draw_track", [])
        if draws and self.planner is not None:
            # A line drawn before a take or processing here heads for the stop after it.
            here = self._planned_here()
            plan = self._plan_after(here) if here is not None else self.plan
            steps, turn_to = self._route(self.targets(plan))
            if turn_to is None:
                wanted = {(h, f) for h, f, new in steps if new}
                for move in draws:
                    if (move["hex"], move["to"]) in wanted:
                        return move
        return {"type": "stop_drawing"}

    def _spare(self, good: str) -> int:
        """Units of `good` held beyond what the plan will deliver or process."""
        keeps = self.plan.keeps() if self.plan else Counter()
        return self.ctx.me.goods.get(good, 0) - keeps[good]

    def _fuel_to_target(self) -> Move | None:
        """A move paid with spare wood or coal along the route: onto the next stop when the
        track is there, or as far along it as 5 steps go."""
        fuels = [f for f in FUELS if self._spare(f) > 0]
        if not fuels or self.planner is None:
            return None
        steps, turn_to = self._route(self.targets())
        if not steps or turn_to is not None:
            return None
        there = []
        for hex_, facing, new in steps[:FUEL_STEPS]:
            if new:
                break
            there.append((hex_, facing))
        fuel = max(fuels, key=self._spare)
        legal = {(m["hex"], m["facing"]) for m in self.by_type.get("fuel_move", []) if m["fuel"] == fuel}
        for hex_, facing in reversed(there):
            if (hex_, facing) in legal:
                return {"type": "fuel_move", "fuel": fuel, "hex": hex_, "facing": facing}
        return None

    def _iron(self) -> Move | None:
        """Spare iron draws the next missing segment of the route."""
        if self._spare("iron") <= 0 or self.planner is None:
            return None
        steps, turn_to = self._route(self.targets())
        if turn_to is not None:
            return None
        for index, (hex_, far, new) in enumerate(steps):
            if new:
                entry = opp(steps[index - 1][1]) if index else opp(self.ctx.me.facing)
                a, b = segment(entry, far)
                move = {"type": "iron_track", "hex": hex_, "from": a, "to": b}
                return move if move in self.by_type.get("iron_track", []) else None
        return None

    def _build(self) -> Move | None:
        """Draw the factory the plan lacks once its inputs are held, its exit facing the
        train so the processing can follow at once; paid with the shovel or spare stone."""
        plan = self.plan
        if plan is None or not plan.build or plan.fetch:
            return None
        me = self.ctx.me
        payments = ["shovel"] if me.shovel else []
        if self._spare("stone") >= 2:
            payments.append("stone")
        builds = [m for m in self.by_type.get("build_factory", [])
                  if m["kind"] in plan.build and m["payment"] in payments]
        facing_me = [m for m in builds if neighbour(m["hex"], m["exit"]) == me.hex]
        options = facing_me or builds
        if not options:
            return None
        return min(options, key=lambda m: (payments.index(m["payment"]), m["hex"], m["exit"]))

    def _fallback(self) -> Move:
        """No route to a useful stop: drive on along the track there is, draw track ahead,
        or, in a dead end, turn."""
        me = self.ctx.me
        ahead = [m for m in self.by_type.get("draw_track", [])
                 if me.hex is not None and m["hex"] == neighbour(me.hex, me.facing) and m["from"] == opp(me.facing)]
        for kind in ("drive", "ahead", "turn", "pass_location", "draw_track", "take", "process", "sell"):
            options = ahead if kind == "ahead" else self.by_type.get(kind, [])
            if options:
                return self.chooser.choice(options)
        return self.chooser.choice([m for ms in self.by_type.values() for m in ms])


def best_supply(ctx: Ctx, moves: Sequence[Move]) -> Move | None:
    """The hand-order icons to supply in final scoring that leave the seat best placed: the
    largest lead over the best other seat (or the smallest gap), then the highest total. Every
    choice is tried (a hand holds a few orders, so there are few); the totals are those the
    seat can see: other seats' hand orders are hidden, so theirs count as not supplied."""
    content, state = ctx.content, ctx.state

    def placing(move: Move) -> tuple[int, int]:
        trial = _trial(ctx)
        final_scoring.supplied(trial, state, ctx.seat, move["fills"])
        totals = final_scoring.totals(content, trial.state)
        mine = totals.pop(ctx.seat)
        return mine - max(totals.values()), mine
    return max(moves, key=placing) if moves else None


def _trial(ctx: Ctx) -> Steps:
    """Steps to try a move on and throw away (a move whose outcome holds nothing hidden)."""
    return Steps(ctx, evolve)


def choose(ctx: Ctx, moves: Sequence[Move], chooser: random.Random) -> Move | None:
    return Driver(ctx, moves, chooser).choose()


class GreedyBot(Bot):
    """Toot-Toot Train's `greedy` level: the planning driver above (the `playout` level uses
    it too, through `playout_choice`)."""

    level = "greedy"

    def __init__(self, content: Content) -> None:
        self.content = content

    def choose(self, state: Any, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        move = Driver(Ctx(self.content, state, seat), moves, chooser).choose()
        return move if move is not None else chooser.choice(list(moves))
