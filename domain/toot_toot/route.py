"""The bot's route finding: the cheapest way for a train to reach one of some hexes, over
the track already drawn and the segments it could still draw."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from domain.toot_toot.board import Board
from domain.toot_toot.hexes import Hex, exits_from, neighbour, opp, segment

TURN_COST = 12.0
"""A turn (an action and a penalty token, 3 points) against drawn segments (1 each) in a route."""
EXISTING_COST = 0.1
"""A step on track already there: nearly free, so a route prefers it to drawing."""

Step = tuple[Hex, int, bool]
"""A hex entered, the edge faced there, and whether its segment is still to be drawn."""


@dataclass(frozen=True)
class Route:
    steps: tuple[Step, ...]
    turn_to: int | None = None
    """The facing to turn to first, when the route starts with a turn."""


def route(board: Board, seat: int, targets: set[Hex]) -> Route:
    """The cheapest route to a target hex no other train stands on; arriving with no way
    on ahead costs a turn more (the train must turn to leave again). Empty when
    there is none."""
    me = board.state.seats[seat]
    assert me.hex is not None
    others = board.trains(but=seat)
    best: dict[tuple[Hex, int], float] = {}
    back: dict[tuple[Hex, int], tuple[tuple[Hex, int], bool] | None] = {}
    heap: list[tuple[float, tuple[Hex, int], bool]] = []
    """Cost, place, and whether the place is an arrival already charged for a dead end."""
    for cost, place in [(0.0, (me.hex, me.facing)), *((TURN_COST, (me.hex, f)) for f in board.turns(seat))]:
        best[place], back[place] = cost, None
        heapq.heappush(heap, (cost, place, False))
    while heap:
        cost, place, arrival = heapq.heappop(heap)
        if arrival:
            return _walk_back(back, place, me.facing)
        if cost > best.get(place, float("inf")):
            continue
        if place[0] in targets and place[0] != me.hex and place[0] not in others:
            if _way_on(board, place):
                return _walk_back(back, place, me.facing)
            heapq.heappush(heap, (cost + TURN_COST, place, True))
        nxt, entry = neighbour(*place), opp(place[1])
        if not board.map.on_map(nxt):
            continue
        have = board.segments(nxt)
        for far in exits_from(entry):
            exists = segment(entry, far) in have
            if not exists and not board.can_draw(nxt, entry, far):
                continue
            step_cost = cost + (EXISTING_COST if exists else 1.0)
            if step_cost < best.get((nxt, far), float("inf")):
                best[(nxt, far)], back[(nxt, far)] = step_cost, (place, not exists)
                heapq.heappush(heap, (step_cost, (nxt, far), False))
    return Route(())


def _way_on(board: Board, place: tuple[Hex, int], depth: int = 4) -> bool:
    """Whether a train at `place` can go on for `depth` steps without turning, along track
    there is or could be drawn (one step ahead is often a dead end between buildings and the
    border)."""
    if depth == 0:
        return True
    ahead, entry = neighbour(*place), opp(place[1])
    if not board.trackable(ahead):
        return False
    have = board.segments(ahead)
    return any((segment(entry, far) in have or board.can_draw(ahead, entry, far)) and _way_on(board, (ahead, far), depth - 1)
               for far in exits_from(entry))


def _walk_back(back: dict[tuple[Hex, int], tuple[tuple[Hex, int], bool] | None], end: tuple[Hex, int],
               facing: int) -> Route:
    steps: list[Step] = []
    at = end
    while (link := back.get(at)) is not None:
        prev, new = link
        steps.append((at[0], at[1], new))
        at = prev
    return Route(tuple(reversed(steps)), at[1] if at[1] != facing else None)
