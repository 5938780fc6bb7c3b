"""Age of Steam's `greedy` bot: a player that looks one step ahead for its own income.

- Shares: enough for this turn's expenses, and for the build it plans, while the expenses
  they add stay within what its income carries to the end (`bot_finance`), counting on its
  income to grow by what its network delivers now. In its second and third turns a seat
  whose income is still $2 or less issues a share more when it is short of its best line:
  else such a seat never has cash for track again, and a whole table of them stalls.
- Auction: bids a little ($2 at most) for an early pick only with money no plan and no
  expense needs: every seat bidding $4 a turn cost the table more track than the picks won.
- Actions: Locomotive when a longer locomotive would earn more, Urbanization when a new city
  opens deliveries, First Build or Engineer when it has a line to build, else Turn Order.
- Build: the line (`bot_track`) whose finished link adds most to its delivery potential
  (`bot_goods`) for its cost, carried on from its own loose ends first; stops when no line
  pays or its cash is needed for expenses (in its first turns it counts on a first link's
  two goods a turn, before its network delivers anything).
- Move goods: the delivery that earns it most (own links, less a little for rivals' links);
  raises its locomotive instead when that earns more over the turns left.

Pure: it reads the state and the seat's legal moves, and its only randomness is the
`chooser` it is given (ties are broken by the order moves are listed, so it uses none). Every
move it returns is one of `moves`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.age_of_steam import bot_finance as finance
from domain.age_of_steam.board import MAX_LOCOMOTIVE, MAX_SHARES, SHARE_PRICE, Map
from domain.age_of_steam.bot_goods import Goods, best_route, deliveries, goods_of, potential, potential_of, route_value
from domain.age_of_steam.bot_track import Board, Line, move_for
from domain.age_of_steam.state import (
    ACTIONS,
    AUCTION,
    BUILD,
    ENGINEER,
    FIRST_BUILD,
    FIRST_MOVE,
    LOCOMOTIVE,
    MOVE,
    PRODUCTION,
    PRODUCTION_ACTION,
    SHARES,
    TURN_ORDER,
    URBANIZATION,
    State,
)
from domain.age_of_steam.track import network
from domain.core.bots import Bot

Move = dict[str, Any]

INCOME_WORTH = 4.0
"""Dollars one more income per turn is worth to a plan (it pays every turn and scores 3 VP)."""
TRACK_WORTH = 1.0
"""Dollars a tile of a completed link is worth (1 VP at the end)."""
FUTURE_WORTH = 0.6
"""Dollars per good on the display bound for one end of a link whose other end takes it."""
UNFINISHED = 3.0
"""What leaving a line unfinished until next turn costs (it may be blocked or lost)."""
MAX_BID = 2
RICH = 15
"""Spare dollars beyond which a seat builds for points as much as for income."""
JOINED = 2.5
"""Dollars a line is worth for touching a stop the seat's own links already reach."""
OPENING_GROWTH = 2
"""Income a turn a seat counts on in its first turns, before its network delivers: two goods
over a first link of its own."""


class GreedyBot(Bot):
    level = "greedy"

    def __init__(self, map_: Map) -> None:
        self.map = map_

    def choose(self, state: Any, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        chosen = self.choice(state, seat, moves)
        return chosen if chosen is not None else moves[0]

    def choice(self, state: State, seat: int, moves: Sequence[Move]) -> Move | None:
        phase = state.phase
        if phase == SHARES:
            return _of(moves, "issue_shares", count=issue(self.map, state, seat))
        if phase == AUCTION:
            return bid(self.map, state, seat, moves)
        if phase == ACTIONS:
            return action(self.map, state, seat, moves)
        if phase == BUILD:
            return build(self.map, state, seat, moves)
        if phase == MOVE:
            return move_goods(self.map, state, seat, moves)
        if phase == PRODUCTION:
            return place_production(self.map, state, seat, moves)
        return None


def bots(map_: Map) -> Mapping[str, Bot]:
    """The levels Age of Steam adds to the core's `random` and `playout`."""
    return {"greedy": GreedyBot(map_)}


def _of(moves: Sequence[Move], kind: str, **fields: Any) -> Move | None:
    for move in moves:
        if move["type"] == kind and all(move.get(k) == v for k, v in fields.items()):
            return move
    return None


# --- plans ----------------------------------------------------------------------------------


def _expected(goods: Goods, seat: int, locomotive: int) -> int:
    """Income this turn's two deliveries would add, as things stand."""
    return int(sum(sorted(deliveries(goods, seat, locomotive), reverse=True)[:2]))


def spare(state: State, seat: int, goods: Goods) -> int:
    """What the seat may spend now (`bot_finance.spare`), counting on its income to grow by
    what its network delivers now (in the opening, by what a first link delivers)."""
    growth = _expected(goods, seat, state.seats[seat].locomotive)
    if state.turn <= finance.EARLY_TURNS:
        growth = max(growth, OPENING_GROWTH)
    return finance.spare(state, seat, growth=growth)


_PLANS: dict[tuple[object, ...], tuple[tuple[object, ...], list[tuple[float, Line, int]]]] = {}
_PLANS_KEPT = 8


def plans(map_: Map, state: State, seat: int, goods: Goods | None = None) -> list[tuple[float, Line, int]]:
    """(worth, line, placements left to lay) of every line the seat could build now, best
    first; worth is in dollars, the line's cost already taken off. Kept for the last few
    positions asked about: the shares, the auction and the actions ask about the same board
    (the state's parts are immutable, so the same objects mean the same position)."""
    goods = goods if goods is not None else goods_of(map_, state)
    parts = (map_, state.board, state.new_cities, state.display, state.cubes)
    key = (seat, *map(id, parts), state.seats[seat].locomotive, _left(state, seat), dollar_worth(state, seat, goods))
    hit = _PLANS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], parts, strict=True)):
        return hit[1]
    found = _plans(map_, state, seat, goods)
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.pop(next(iter(_PLANS)))
    _PLANS[key] = (parts, found)
    return found


def _left(state: State, seat: int) -> int:
    """Placements the seat may still make in this build (a whole build's outside one)."""
    if state.build is not None and state.build.seat == seat:
        return state.build.limit - len(state.build.placed)
    return 3


def _plans(map_: Map, state: State, seat: int, goods: Goods) -> list[tuple[float, Line, int]]:
    me = state.seats[seat]
    board = Board(map_, state, seat)
    # Plans look one locomotive link ahead: a network is built for the engine it will have.
    now = potential_of(goods, seat, min(MAX_LOCOMOTIVE, me.locomotive + 1))
    bound = _bound(map_, state)
    gains: dict[tuple[str, str], float] = {}
    mine = _my_stops(map_, state, seat)
    out: list[tuple[float, Line, int]] = []
    left = _left(state, seat)
    lines = board.lines()
    price = dollar_worth(state, seat, goods)
    into: dict[str, list[Line]] = {}
    for line in lines:
        into.setdefault(line.target, []).append(line)

    def waiting(a: str, b: str) -> int:
        return sum(bound[(here, colour)] for here, there in ((a, b), (b, a)) if (colour := goods.colours.get(there)) is not None)

    def onward(origin: str, town: str) -> float:
        """A link into a town pays once a link from the town runs on to a city: half the best
        such pair's worth, less the second line's cost."""
        cheapest: dict[str, int] = {}
        for other in into.get(town, ()):
            if other.origin != origin and other.origin in goods.colours:
                cheapest[other.origin] = min(other.dollars, cheapest.get(other.origin, other.dollars))
        best = 0.0
        for city, dollars in cheapest.items():
            both = INCOME_WORTH * now.gain_of(((origin, town), (town, city)))
            best = max(best, both + FUTURE_WORTH * waiting(origin, city) - dollars)
        return best / 2

    for line in lines:
        pair = (line.origin, line.target)
        if pair not in gains:
            gains[pair] = INCOME_WORTH * now.gain(*pair) + FUTURE_WORTH * waiting(*pair)
            if line.target in map_.towns and line.target not in state.new_cities:
                gains[pair] += onward(*pair)
        worth = gains[pair]
        worth += TRACK_WORTH * len(line.steps) - price * line.dollars - 2.0 * line.sharp
        if line.origin in mine or line.target in mine:
            worth += JOINED  # links that join its own network let its goods travel further
        if line.placements > left:
            if line.placements > left + 3:
                continue
            worth -= UNFINISHED
        out.append((worth, line, left))
    out.sort(key=lambda item: (-item[0], item[1].dollars, item[1].origin, item[1].target, item[1].hexes))
    return out


def dollar_worth(state: State, seat: int, goods: Goods) -> float:
    """What a dollar spent on track is worth against the plans' other dollars: less near the
    end, when cash scores nothing and a completed link's tiles score, and less to a seat whose
    spare cash has nothing better to do."""
    turns = finance.turns_left(state)
    worth = 1.0 if turns > 3 else 0.6 if turns > 1 else 0.3
    return worth / 2 if spare(state, seat, goods) >= RICH else worth


def _my_stops(map_: Map, state: State, seat: int) -> set[str]:
    net = network(map_, state.board, state.new_cities)
    return {end.hex for link in net.owned(seat) for end in (link.a, link.b) if end.stop}


def _bound(map_: Map, state: State) -> Counter[tuple[str, str]]:
    """(city, colour) -> goods of that colour waiting on the display for that city."""
    out: Counter[tuple[str, str]] = Counter()
    for column, spaces in state.display.items():
        city = map_.column_city(column, state.new_cities)
        if city is not None:
            for cube in spaces:
                if cube is not None:
                    out[(city, cube)] += 1
    return out


def build_budget(map_: Map, state: State, seat: int, goods: Goods, tiles: int = 3) -> int:
    """Dollars the seat wants for building: the best lines that pay, about `tiles` tiles."""
    spend, laid, used = 0, 0, set[str]()
    for worth, line, _ in plans(map_, state, seat, goods):
        if worth <= 0 or laid >= tiles:
            break
        if used.intersection(line.hexes) or line.target in used:
            continue
        used.update(line.hexes)
        used.add(line.target)
        spend += line.dollars
        laid += line.placements
    return spend


# --- the phases ---------------------------------------------------------------------------


def issue(map_: Map, state: State, seat: int) -> int:
    """Shares to issue now (`bot_finance.shares_to_issue`): none for plans in the last turn,
    when a share costs more points than the track it would pay for earns."""
    goods = goods_of(map_, state)
    me = state.seats[seat]
    wanted = 0
    if state.turn < state.last_turn:
        # The build (in the opening, two turns' worth: a network earns nothing until its
        # links are done), and the next turn's expenses beyond income.
        tiles = 6 if state.turn <= 2 else 3
        wanted = build_budget(map_, state, seat, goods, tiles) + max(0, finance.expenses(me) - me.income)
    expected = _expected(goods, seat, me.locomotive)
    count = finance.shares_to_issue(state, seat, wanted, expected, growth=expected)
    if 2 <= state.turn <= finance.EARLY_TURNS and me.income <= 2:
        # A seat whose first links deliver next to nothing never has cash for track again:
        # a share more pays for the best link it still lacks.
        lines = plans(map_, state, seat, goods)
        if lines and lines[0][0] > 0:
            short = lines[0][1].dollars - spare(state, seat, goods) - (SHARE_PRICE - 1) * count
            if short > 0:
                count = min(count + 1, MAX_SHARES - me.shares)
    return count


def bid(map_: Map, state: State, seat: int, moves: Sequence[Move]) -> Move | None:
    """The lowest bid while it stays within the money neither expenses nor the planned build
    need (never more than `MAX_BID`); else the Turn Order pass, else drop out."""
    goods = goods_of(map_, state)
    spend = build_budget(map_, state, seat, goods)
    limit = min(MAX_BID, spare(state, seat, goods) - spend)
    bids = [m for m in moves if m["type"] == "bid"]
    if bids and bids[0]["amount"] <= limit:
        return bids[0]
    return _of(moves, "turn_order_pass") or _of(moves, "drop")


def action(map_: Map, state: State, seat: int, moves: Sequence[Move]) -> Move | None:
    goods = goods_of(map_, state)
    me = state.seats[seat]
    worth: dict[str, float] = {TURN_ORDER: 0.5, PRODUCTION_ACTION: 0.3, FIRST_MOVE: 0.4}
    if me.locomotive < MAX_LOCOMOTIVE:
        gain = potential(goods, seat, me.locomotive + 1) - potential(goods, seat, me.locomotive)
        turns = finance.turns_left(state)
        # A link more pays from this turn's deliveries on, for $1 a turn.
        worth[LOCOMOTIVE] = gain * 1.5 - (0.5 if turns > 1 else 2.0) + (1.0 if me.locomotive < 2 and gain > 0 else 0.0)
    lines = plans(map_, state, seat, goods)
    if lines and lines[0][0] > 0:
        worth[FIRST_BUILD] = 1.0
        worth[ENGINEER] = 1.5 if spare(state, seat, goods) >= 10 else 0.2
    urban = best_new_city(map_, state, seat, goods, anywhere=True)
    if urban is not None:
        worth[URBANIZATION] = urban[0] * 1.5
    offered = {m["action"]: m for m in moves}
    ranked = sorted(offered, key=lambda name: (-worth.get(name, 0.0), name))
    return offered[ranked[0]]


def best_new_city(map_: Map, state: State, seat: int, goods: Goods, anywhere: bool = False
                  ) -> tuple[float, str, str] | None:
    """(income gained, town, letter) of the new city that adds most to the seat's delivery
    potential, among towns its own links reach (or, `anywhere`, any town next to them)."""
    mine = _my_stops(map_, state, seat)
    letters = [letter for letter in map_.new_city if letter not in state.new_cities.values()]
    towns = [t for t in map_.towns if t not in state.new_cities and (t in mine or anywhere)]
    if not letters or not towns:
        return None
    me = state.seats[seat]
    now = potential(goods, seat, me.locomotive)
    best: tuple[float, str, str] | None = None
    for town in sorted(towns):
        if town not in goods.graph:
            continue
        for letter in sorted(letters):
            gain = potential(goods.with_city(town, map_.new_city[letter].colour), seat, me.locomotive) - now
            if best is None or gain > best[0]:
                best = (gain, town, letter)
    return best if best is not None and best[0] > 0 else None


def build(map_: Map, state: State, seat: int, moves: Sequence[Move]) -> Move | None:
    goods = goods_of(map_, state)
    end = _of(moves, "end_build")
    if any(m["type"] == "urbanize" for m in moves):
        chosen = best_new_city(map_, state, seat, goods, anywhere=True)
        if chosen is not None:
            move = _of(moves, "urbanize", hex=chosen[1], city=chosen[2])
            if move is not None:
                return move
    budget = spare(state, seat, goods)
    for worth, line, _ in plans(map_, state, seat, goods):
        if worth <= 0:
            break
        if line.dollars > budget:
            continue
        move = move_for(line, moves)
        if move is not None and move["cost"] <= budget:
            return move
    return end


def move_goods(map_: Map, state: State, seat: int, moves: Sequence[Move]) -> Move | None:
    """The best-paying delivery, or a locomotive link when that earns more over the turns left."""
    me = state.seats[seat]
    links = network(map_, state.board, state.new_cities).by_id
    best: tuple[float, Move] | None = None
    for move in moves:
        if move["type"] != "deliver":
            continue
        owners = [links[i].owner for i in move["path"]]
        value = route_value(sum(o == seat for o in owners), sum(o is not None and o != seat for o in owners))
        if best is None or value > best[0]:
            best = (value, move)
    upgrade = _of(moves, "upgrade_locomotive")
    if upgrade is not None:
        goods = goods_of(map_, state)
        turns = finance.turns_left(state)
        gain = potential(goods, seat, me.locomotive + 1, ahead=2) - potential(goods, seat, me.locomotive, ahead=2)
        now = best[0] if best is not None else 0.0
        # The longer locomotive pays in later turns; the delivery given up pays once... for good.
        affordable = spare(state, seat, goods) >= 1 and finance.carries(me, 0, turns, int(now) + 1)
        if turns > 1 and gain * (turns - 1) > now * 2 and gain > 0 and affordable:
            return upgrade
    if best is not None and best[0] > 0:
        return best[1]
    return _of(moves, "pass_move")


def place_production(map_: Map, state: State, seat: int, moves: Sequence[Move]) -> Move | None:
    """The space whose city sends the drawn good furthest over the seat's own links."""
    goods = goods_of(map_, state)
    cube = state.production[0] if state.production else None
    locomotive = state.seats[seat].locomotive
    best: tuple[float, Move] | None = None
    for move in moves:
        city = map_.column_city(move["column"], state.new_cities)
        value = best_route(goods, city, cube, locomotive, seat) if city is not None and cube is not None else 0.0
        if best is None or value > best[0]:
            best = (value, move)
    return best[1] if best is not None else None
