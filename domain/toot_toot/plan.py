"""The bot's sales plan: which orders of one city colour to supply next, what that means it
must still take and make beyond the goods it carries, and the stop to go to now.

A plan is recomputed from the state at every move (a bot keeps no memory between moves),
so it commits through what it carries: goods already held cost nothing more to deliver,
which keeps the same orders the best plan until they are sold or someone else fills them.
Plans are rated by points per turn, the turns estimated from hex distances between the
stops (exact routes are found only for the stop it drives to)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from domain.toot_toot.content import CITY, FACTORY, OPEN, SITE, Building, Recipe
from domain.toot_toot.context import Ctx
from domain.toot_toot.hexes import Hex, coords, neighbour
from domain.toot_toot.orders import points
from domain.toot_toot.seats import card, level, limit

HEXES_PER_TURN = 2.5
"""Travel per turn along a route partly to be drawn: 3 segments drawn one turn, driven the next,
with wood or coal moves between."""
COMPLETION = 2.0
"""What completing an order is worth beyond its goods: an influence card at the end, and a public
order nobody else can take from under us."""
PENALTY = 3


def distance(a: Hex, b: Hex) -> int:
    def axial(h: Hex) -> tuple[int, int]:
        col, row = coords(h)
        return col - (row - (row & 1)) // 2, row
    (q1, r1), (q2, r2) = axial(a), axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


@dataclass
class Plan:
    colour: str
    orders: tuple[str, ...]
    deliver: Counter[str]
    """Goods to sell at the city, by kind."""
    fetch: Counter[str] = field(default_factory=Counter)
    """Basic goods still to take at sites."""
    make: list[Recipe] = field(default_factory=list)
    """Processings still to do, one recipe per unit."""
    build: set[str] = field(default_factory=set)
    """Factory kinds the map lacks that the plan must draw."""
    value: float = 0.0
    turns: float = 1.0

    @property
    def rate(self) -> float:
        return self.value / self.turns

    def keeps(self) -> Counter[str]:
        """The goods held that the plan uses: to deliver, or to process."""
        out = Counter(self.deliver)
        for recipe in self.make:
            out.update(recipe.inputs)
        return out


class Planner:
    def __init__(self, ctx: Ctx, origin: Hex | None = None) -> None:
        self.ctx = ctx
        self.content, self.me = ctx.content, ctx.me
        self.origin = origin or ctx.me.hex or ""
        self.recipes = card(self.content, self.me).recipes
        self.buildings: list[Building] = [*ctx.map.buildings,
                                          *(b for h in ctx.state.factories if (b := ctx.board.building_at(h)))]
        self.bonus = {c: level(self.content, self.me, "sell", colour=c) for c in self.content.colours}
        self.limit = limit(self.content, self.me)
        self.maxed = {g.id for g in self.content.goods if level(self.content, self.me, "max", good=g.id)}
        self._sites = {g.id: [b for b in self.buildings if b.kind == SITE and b.good == g.id] for g in self.content.goods}
        self._factories = {k: [b for b in self.buildings if b.kind == FACTORY and b.factory == k]
                           for k in self.content.factories}
        self._cities = {c: [b for b in self.buildings if b.kind == CITY and b.colour == c] for c in self.content.colours}
        self._openings: dict[str, list[Hex]] = {}
        self._nearest: dict[tuple[int, Hex], tuple[Building, Hex, int] | None] = {}
        """By the identity of one of the lists above (they live as long as the planner) and hex."""
        self._kinds = {b.factory for b in self.buildings if b.kind == FACTORY}

    # --- what the orders still want --------------------------------------------------------

    def unfilled(self, order_id: str) -> list[str]:
        order = self.content.order[order_id]
        filled = self.ctx.state.filled.get(order_id, ())
        return [g for i, g in enumerate(order.icons) if i not in filled]

    def orders(self, colour: str) -> list[str]:
        return [o for o in (*self.ctx.state.public, *self.me.hand) if self.content.order[o].colour == colour]

    def wanted(self) -> Counter[str]:
        """Every unfilled icon this seat may supply, by good."""
        out: Counter[str] = Counter()
        for colour in self.content.colours:
            for order_id in self.orders(colour):
                out.update(self.unfilled(order_id))
        return out

    # --- plans -----------------------------------------------------------------------------

    def best(self) -> Plan | None:
        plans = [p for p in self.candidates() if p.value > 0]
        return max(plans, key=lambda p: (p.rate, p.value, p.orders)) if plans else None

    def candidates(self) -> list[Plan]:
        out = []
        for colour in self.content.colours:
            orders = self.orders(colour)
            # Whatever is held that the colour's orders want: a sale with nothing to fetch.
            held_sale = self._held_sale(orders)
            if held_sale:
                plan = self.rate(colour, tuple(orders), held_sale)
                if plan is not None:
                    out.append(plan)
            for first in orders:
                chosen = [first]
                plan = self.rate(colour, (first,), Counter(self.unfilled(first)))
                if plan is None:
                    continue
                out.append(plan)
                # Add the colour's other orders while the rate improves: one trip, several orders.
                for other in orders:
                    if other in chosen:
                        continue
                    wants = Counter(self.unfilled(other))
                    for o in chosen:
                        wants.update(self.unfilled(o))
                    bigger = self.rate(colour, (*chosen, other), wants)
                    if bigger is not None and bigger.rate >= plan.rate:
                        chosen.append(other)
                        plan = bigger
                        out.append(plan)
        return out

    def _held_sale(self, orders: list[str]) -> Counter[str]:
        """The public icons the goods held can fill now (hand orders only when completed)."""
        held = Counter(self.me.goods)
        out: Counter[str] = Counter()
        for order_id in orders:
            wants = Counter(self.unfilled(order_id))
            if order_id in self.me.hand and any(held[g] - out[g] < n for g, n in wants.items()):
                continue
            for good, n in wants.items():
                out[good] += min(n, held[good] - out[good])
        return +out

    def recipe_for(self, good: str, held: Counter[str]) -> Recipe | None:
        """The recipe making `good` that needs the fewest goods not held."""
        options = [r for r in self.recipes if good in r.outputs]
        if not options:
            return None
        return min(options, key=lambda r: (sum(max(0, n - held[g]) for g, n in r.inputs.items()), r.id))

    def rate(self, colour: str, orders: tuple[str, ...], deliver: Counter[str]) -> Plan | None:
        """The plan delivering `deliver` to `orders` at a `colour` city, or None when it cannot
        be done within the goods limit."""
        content = self.content
        held = Counter(self.me.goods)
        spare = Counter(held)
        plan = Plan(colour, orders, Counter(deliver))
        for good, n in deliver.items():
            use = min(n, spare[good])
            spare[good] -= use
            for _ in range(n - use):
                if content.good[good].basic:
                    plan.fetch[good] += 1
                    continue
                recipe = self.recipe_for(good, spare)
                if recipe is None:
                    return None
                plan.make.append(recipe)
                for g, k in recipe.inputs.items():
                    use_in = min(k, spare[g])
                    spare[g] -= use_in
                    plan.fetch[g] += k - use_in
        plan.build = {r.factory for r in plan.make} - self._kinds
        build_cost = 0.0
        if plan.build:
            if self.me.shovel and len(plan.build) == 1:
                build_cost = 0.5
            else:
                # Two stone for each factory beyond the shovel's.
                extra = len(plan.build) - (1 if self.me.shovel else 0)
                plan.fetch["stone"] += max(0, 2 * extra - spare["stone"])
                build_cost = 0.5 * len(plan.build)
        plan.fetch = +plan.fetch
        # The most held at once: everything held, plus all fetched before processing.
        if sum(held.values()) + sum(plan.fetch.values()) > self.limit:
            return None
        value = 0.0
        left = Counter(deliver)
        # Hand orders first and only when completed (a hand order filled in part is discarded).
        for order_id in sorted(orders, key=lambda o: o not in self.me.hand):
            order = content.order[order_id]
            wants = Counter(self.unfilled(order_id))
            got = {g: min(n, left[g]) for g, n in wants.items() if left[g]}
            complete = got == dict(wants)
            if order_id in self.me.hand and not complete:
                continue
            left.subtract(got)
            value += points(content, self.bonus, order, got) + (COMPLETION if complete else 0)
        plan.value = value
        plan.turns = self._turns(plan) + build_cost
        return plan

    # --- stops and their distances --------------------------------------------------------

    def openings(self, building: Building) -> list[Hex]:
        if building.id in self._openings:
            return self._openings[building.id]
        out = self._openings[building.id] = []
        for side, kind in building.sides.items():
            hex_, _, edge = side.partition("/")
            there = neighbour(hex_, int(edge))
            if kind == OPEN and self.ctx.board.trackable(there):
                out.append(there)
        return out

    def nearest(self, buildings: list[Building], here: Hex) -> tuple[Building, Hex, int] | None:
        key = (id(buildings), here)
        if key not in self._nearest:
            self._nearest[key] = self._find_nearest(buildings, here)
        return self._nearest[key]

    def _find_nearest(self, buildings: list[Building], here: Hex) -> tuple[Building, Hex, int] | None:
        best: tuple[Building, Hex, int] | None = None
        for b in buildings:
            for hex_ in self.openings(b):
                d = distance(here, hex_)
                if best is None or d < best[2]:
                    best = (b, hex_, d)
        return best

    def sites(self, good: str) -> list[Building]:
        return self._sites.get(good, [])

    def factories(self, kind: str) -> list[Building]:
        return self._factories.get(kind, [])

    def cities(self, colour: str) -> list[Building]:
        return self._cities.get(colour, [])

    def _turns(self, plan: Plan) -> float:
        here, hexes, actions = self.origin, 0, 0
        todo = dict(plan.fetch)
        while todo:
            # The nearest site of a good still to take.
            found = [(f, g) for g in todo if (f := self.nearest(self.sites(g), here)) is not None]
            if not found:
                return float("inf")
            (_, at, d), good = min(found, key=lambda x: (x[0][2], x[1]))
            takes = 1 if good in self.maxed else todo.pop(good)
            todo.pop(good, None)
            here, hexes, actions = at, hexes + d, actions + takes
        for kind in sorted({r.factory for r in plan.make} - plan.build):
            found_f = self.nearest(self.factories(kind), here)
            if found_f is None:
                return float("inf")
            here, hexes = found_f[1], hexes + found_f[2]
        actions += len(plan.make)
        city = self.nearest(self.cities(plan.colour), here)
        if city is None:
            return float("inf")
        hexes += city[2]
        actions += 1
        # Two location actions a turn (action D and the location step) at one stop.
        return 1.0 + hexes / HEXES_PER_TURN + actions / 2

    # --- where to go now ------------------------------------------------------------------

    def next_stop(self, plan: Plan) -> tuple[str, list[Building]]:
        """What to do next for `plan` and the buildings that would do: `take` at the sites of
        a good still to fetch, `process` at a factory (or `build` one) or `sell` at a city."""
        if plan.fetch:
            goods = sorted(plan.fetch)
            return "take", [b for g in goods for b in self.sites(g)]
        if plan.make:
            kinds = sorted({r.factory for r in plan.make})
            missing = [k for k in kinds if k in plan.build]
            if missing:
                return "build", []
            return "process", [b for k in kinds for b in self.factories(k)]
        return "sell", self.cities(plan.colour)
