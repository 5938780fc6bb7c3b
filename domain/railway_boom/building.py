"""Stations and rails (phase 2, R15-R19, and free rails, R25): where a piece may go and
what it costs."""

from __future__ import annotations

from domain.railway_boom.content import Content
from domain.railway_boom.state import State


def mine(state: State, seat: int) -> set[str]:
    """The hexes holding a piece (rail or station) of `seat`."""
    return {h for h, seats in state.rails.items() if seat in seats} | {c for c, s in state.stations.items() if s == seat}


def others(state: State, seat: int, hex_id: str) -> int:
    """Other players' pieces on a hex: +1 power each for a rail there (R17)."""
    rails = sum(1 for s in state.rails.get(hex_id, ()) if s != seat)
    station = state.stations.get(hex_id)
    return rails + (1 if station is not None and station != seat else 0)


def rail_spots(content: Content, state: State, seat: int, free: bool = False) -> list[str]:
    """Hexes a rail of `seat` may go on now: land without a piece of its own, next to this
    turn's station or rails (R17), or for a free rail outside the build next to any piece of
    its own (R25)."""
    if state.seats[seat].rails <= 0:
        return []
    own = mine(state, seat)
    turn = state.turn
    sources = {turn.station, *turn.laid} if turn.station else own if free else set()
    spots = {n for h in sources for n in content.adjacent[h]}
    return sorted(h for h in spots if h not in own and content.hexes[h].terrain != "sea")


def rail_cost(content: Content, state: State, seat: int, hex_id: str) -> tuple[int, int]:
    """(the hex's power cost, the surcharge for other players' pieces)."""
    return content.hexes[hex_id].power, others(state, seat, hex_id)


def split(state: State, seat: int, due: int) -> tuple[int, int]:
    """How `due` is paid: (from this turn's power, in money 1:1)."""
    power = min(due, state.seats[seat].power)
    return power, due - power
