"""The playout bot: purposeful enough that random games look like real ones (everyone
bids, builds, buys and scores; trains run every round)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.railway_boom.content import Content
from domain.railway_boom.state import BID, State


def _value(content: Content, state: State, move: dict[str, Any]) -> float:
    kind = move["type"]
    if kind == "operate":
        return sum(content.trains[c].vp for train in move["runs"] for c in train) * 3 + len(move["tiles"])
    if kind == "take_locomotive":
        card = content.trains[move["card"]]
        return card.vp + card.slots - card.coal
    if kind in ("buy_car", "buy_development"):
        return 2.0 - len(move.get("convert", {}))
    if kind == "lay_rail":
        place = content.hexes[move["hex"]]
        return 3.0 - place.power + (2 if place.city else 0) - 2 * len(move.get("convert", {}))
    if kind == "resolve":
        return 0.0 if move["choice"] == "none" else 1.0
    if kind == "done":
        return 0.5
    return 1.0


def choose(content: Content, state: State, seat: int, moves: Sequence[dict[str, Any]],
           chooser: random.Random) -> dict[str, Any] | None:
    if moves[0]["type"] == "pay":
        # Pay a "?" bid mostly from the largest stocks, keeping a spread of resources.
        held = state.seats[seat].resources
        return min(moves, key=lambda m: max(held[r] - m["paid"].get(r, 0) for r in held))
    if state.step == BID and not state.pending:
        # Bid a little, mostly without converting, then lock in.
        plain = [m for m in moves if m["type"] == "bid" and "convert" not in m and m["space"] <= 4 + state.round]
        if plain and chooser.random() < 0.6:
            return chooser.choice(plain[:3])
        return {"type": "lock_in"}
    best = max(_value(content, state, m) for m in moves)
    top = [m for m in moves if _value(content, state, m) >= best - 0.5]
    return chooser.choice(top)
