"""Where the bot places its technology tokens (R17): abilities that score on the track
during play first, since the end trigger counts track points only."""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.toot_toot.context import Ctx
from domain.toot_toot.plan import Plan, Planner
from domain.toot_toot.seats import card

Move = dict[str, Any]

LIKING = ("space", "order", "plus", "extra_turn", "sell", "double", "shovel", "pairs", "colour_scoring",
          "waterway", "max")
"""Effects by liking. MAX comes last: it fills the storage with one resource, which blocks the
goods the orders want unless that resource is wanted several times."""


def choose_upgrade(ctx: Ctx, upgrades: list[Move], plan: Plan | None) -> Move | None:
    if not upgrades:
        return None
    abilities = card(ctx.content, ctx.me).ability
    wanted = Planner(ctx).wanted() if ctx.me.hex is not None else Counter()
    made = Counter(good for r in plan.make for good in r.outputs) if plan else Counter()
    colour = plan.colour if plan else ""

    def liking(move: Move) -> tuple[int, int, str]:
        ability = abilities[move["ability"]]
        rank = LIKING.index(ability.effect) if ability.effect in LIKING else len(LIKING)
        # Within an effect: the good the plan makes or the orders want most; the plan's colour.
        fit = -(made[ability.good] * 10 + wanted[ability.good]) if ability.good else 0
        if ability.colour:
            fit = 0 if ability.colour == colour else 1
        if ability.effect == "shovel" and ctx.me.shovel:
            rank = len(LIKING)
        return (rank, fit, ability.id)

    return min(upgrades, key=liking)
