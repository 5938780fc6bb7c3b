"""`view`: the state as plain JSON. Age of Steam has no secrets (cash, bids, dice, drawn goods
are all public), so every audience sees the same view; per-seat data still live under
`seats[N]`, the place any seat-private content would go."""

from __future__ import annotations

from typing import Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.legal import active_seats
from domain.age_of_steam.scoring import sources, vp
from domain.age_of_steam.state import AUCTION, BUILD, MOVE, OVER, State
from domain.age_of_steam.tiles import SEGMENTS, TOWN
from domain.age_of_steam.track import network
from domain.core.events import Audience


def view(map_: Map, map_id: str, state: State, audience: Audience) -> dict[str, Any]:
    net = network(map_, state.board, state.new_cities)
    out: dict[str, Any] = {
        "game": "age_of_steam",
        "map": map_id,
        "phase": state.phase,
        "active_seats": sorted(active_seats(state)),
        "turn": state.turn,
        "last_turn": state.last_turn,
        "order": list(state.order),
        "queue": list(state.queue),
        "actions": dict(sorted(state.actions.items())),
        "turn_order_pass": state.turn_order_pass,
        "seats": [_seat(map_, state, index) for index in range(len(state.seats))],
        "board": [_tile(map_, state, hex_) for hex_ in sorted(state.board)],
        "links": [
            {
                "id": link.id,
                "owner": link.owner,
                "complete": link.complete,
                "ends": [end.hex if end.stop else None for end in (link.a, link.b)],
                "hexes": list(link.hexes),
                "tiles": len(link.hexes),
            }
            for link in net.links
        ],
        "cities": {
            hex_: {
                "name": map_.place_name(hex_, state.new_cities),
                "colour": map_.city_colour(hex_, state.new_cities),
                "new_city": state.new_cities.get(hex_),
                "goods": list(state.cubes.get(hex_, ())),
            }
            for hex_ in (*map_.city_at, *sorted(state.new_cities))
        },
        "towns": {hex_: name for hex_, name in map_.towns.items() if hex_ not in state.new_cities},
        "goods_display": {column: list(spaces) for column, spaces in state.display.items()},
        "bag": dict(state.bag),
        "production_drawn": list(state.production),
        "tile_stock": dict(state.stock),
        "town_discs": state.discs,
        "scores": {str(index): vp(map_, state, index) for index in range(len(state.seats))},
    }
    if state.phase == AUCTION and state.auction is not None:
        auction = state.auction
        out["auction"] = {
            "bidders": list(auction.bidders),
            "high_bid": auction.high,
            "high_bidder": auction.high_bidder,
            "bids": {str(seat): bid for seat, bid in auction.bids.items()},
            "dropped": list(auction.dropped),
            "turn_order_pass": auction.pass_holder,
        }
    if state.phase == BUILD and state.build is not None:
        build = state.build
        out["build"] = {"seat": build.seat, "limit": build.limit, "placed": list(build.placed), "urbanized": build.urbanized}
    if state.phase == MOVE:
        out["move_round"] = 1 if len(state.queue) > len(state.order) else 2
    if state.phase == OVER:
        out["winners"] = list(state.winners)
    return out


def _seat(map_: Map, state: State, index: int) -> dict[str, Any]:
    me = state.seats[index]
    points = sources(map_, state, index)
    return {
        "seat": index,
        "name": me.name,
        "cash": me.cash,
        "income": me.income,
        "shares": me.shares,
        "locomotive": me.locomotive,
        "eliminated": me.eliminated,
        "action": next((a for a, s in state.actions.items() if s == index), None),
        "vp": {**points, "total": vp(map_, state, index)},
    }


def _tile(map_: Map, state: State, hex_: str) -> dict[str, Any]:
    placed = state.board[hex_]
    town = hex_ in map_.towns
    segments = SEGMENTS[(placed.tile, placed.rotation, town)]
    return {
        "hex": hex_,
        "place": map_.place_name(hex_, state.new_cities),
        "tile": placed.tile,
        "rotation": placed.rotation,
        "town_disc": placed.disc,
        "track": [
            {"exits": [e for e in seg if e != TOWN], "town": TOWN in seg, "owner": owner}
            for seg, owner in zip(segments, placed.owners, strict=True)
        ],
    }
