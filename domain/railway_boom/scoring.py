"""Final scoring (`docs/rules/railway_boom.md`, R30-R34), read top to bottom: the events, the
goal conditions counted, the route a seat scores and the tie-break, every line of the final
scoring its own event, and how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core.events import Event
from domain.core.state import replace
from domain.railway_boom import building
from domain.railway_boom.content import (
    DEVELOPMENT_CARDS,
    DIRECTIONS,
    INCOME_LEVEL,
    LONGEST_STRAIGHT,
    RAILS_ON_TERRAIN,
    RESOURCES,
    SHARED_HEXES,
    TERRAINS_REACHED,
    TRAIN_CARDS,
    Content,
    Goal,
)
from domain.railway_boom.ledger import Handlers, score
from domain.railway_boom.state import OVER, State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GoalScored(Event):
    seat: int
    goal: str
    count: int
    multiplier: int
    vp: int


@dataclass(frozen=True, kw_only=True)
class LeftoversScored(Event):
    seat: int
    total: int
    vp: int


@dataclass(frozen=True, kw_only=True)
class RouteScored(Event):
    seat: int
    route: str | None
    rails: int
    vp: int


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    scores: dict[str, int]
    winners: tuple[int, ...]
    tie_break: dict[str, tuple[int, ...]]


# --- the tally ----------------------------------------------------------------------------


ROUTE_VP = 2
"""VP per own rail on the chosen route card (R32)."""


def rails_of(state: State, seat: int) -> list[str]:
    return [h for h, seats in state.rails.items() if seat in seats]


def longest_straight(content: Content, state: State, seat: int) -> int:
    """The most rails of `seat` in a row along one hex axis."""
    at = {(h.q, h.r): h.id for h in content.hexes.values()}
    rails = set(rails_of(state, seat))
    best = 0
    for hex_id in rails:
        here = content.hexes[hex_id]
        for dq, dr in DIRECTIONS[:3]:
            if at.get((here.q - dq, here.r - dr)) in rails:
                continue  # not the start of a run
            length, q, r = 0, here.q, here.r
            while at.get((q, r)) in rails:
                length, q, r = length + 1, q + dq, r + dr
            best = max(best, length)
    return best


def count(content: Content, state: State, seat: int, goal: Goal) -> int:
    """How many times `seat` meets the goal's condition, divided by its `per` (R30)."""
    me = state.seats[seat]
    rails = rails_of(state, seat)
    if goal.condition == RAILS_ON_TERRAIN:
        n = sum(1 for h in rails if content.hexes[h].terrain == goal.terrain)
    elif goal.condition == TERRAINS_REACHED:
        n = len({content.hexes[h].terrain for h in rails})
    elif goal.condition == DEVELOPMENT_CARDS:
        n = len(me.developments)
    elif goal.condition == TRAIN_CARDS:
        n = len(me.trains)
    elif goal.condition == INCOME_LEVEL:
        n = me.income[goal.track]
    elif goal.condition == LONGEST_STRAIGHT:
        n = longest_straight(content, state, seat)
    elif goal.condition == SHARED_HEXES:
        n = sum(1 for h in building.mine(state, seat) if building.others(state, seat, h))
    else:
        raise ValueError(f"unknown goal condition {goal.condition!r}")
    return n // goal.per


def route_choice(state: State, routes: dict[str, tuple[str, ...]], seat: int) -> tuple[str | None, int]:
    """R32: the revealed route with most of `seat`'s rails (first revealed wins a tie)."""
    mine = set(rails_of(state, seat))
    best: tuple[str | None, int] = (None, 0)
    for route in state.routes:
        rails = sum(1 for h in routes[route] if h in mine)
        if rails > best[1]:
            best = (route, rails)
    return best


def tie_break(state: State, seat: int) -> tuple[int, int, int, int]:
    """R33: VP, then rails on the board, then resource tiles (on trains too), then the more
    right-hand disc."""
    me = state.seats[seat]
    tiles = sum(me.tiles.values()) + sum(len(t) for t in me.loaded.values())
    return (me.vp, len(rails_of(state, seat)), tiles, state.order.index(seat))


# --- the final scoring --------------------------------------------------------------------


def final(steps: Steps) -> None:
    content = steps.content
    players = range(steps.state.players)
    for goal_id in steps.state.goals:
        goal = content.goals[goal_id]
        for space, holder in enumerate(steps.state.spaces[goal_id]):
            if holder >= 0:
                n = count(content, steps.state, holder, goal)
                steps.emit(GoalScored(seat=holder, goal=goal_id, count=n, multiplier=goal.multipliers[space],
                                      vp=n * goal.multipliers[space], automatic=True))
    for seat in players:
        total = sum(steps.state.seats[seat].resources[r] for r in RESOURCES)
        steps.emit(LeftoversScored(seat=seat, total=total, vp=total // 2, automatic=True))
    routes = {r.id: r.hexes for r in content.routes.values()}
    for seat in players:
        route, rails = route_choice(steps.state, routes, seat)
        steps.emit(RouteScored(seat=seat, route=route, rails=rails, vp=ROUTE_VP * rails, automatic=True))
    keys = {seat: tie_break(steps.state, seat) for seat in players}
    winner = max(players, key=lambda seat: keys[seat])
    steps.emit(GameEnded(scores={str(s): steps.state.seats[s].vp for s in players}, winners=(winner,),
                         tie_break={str(s): keys[s] for s in players}, automatic=True))


# --- the events applied -------------------------------------------------------------------


def _goal(c: Content, s: State, e: GoalScored) -> State:
    return score(s, e.seat, e.vp, "goals")


def _leftovers(c: Content, s: State, e: LeftoversScored) -> State:
    return score(s, e.seat, e.vp, "leftovers")


def _route(c: Content, s: State, e: RouteScored) -> State:
    return score(s, e.seat, e.vp, "route")


def _ended(c: Content, s: State, e: GameEnded) -> State:
    return replace(s, phase=OVER, step="", acting=(), winners=e.winners)


APPLY: Handlers = {GoalScored: _goal, LeftoversScored: _leftovers, RouteScored: _route, GameEnded: _ended}
KINDS = tuple(APPLY)
