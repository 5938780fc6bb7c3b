"""What must always hold (checked after every event of playouts): cards, pieces and tiles
conserved, nothing negative, VP the sum of its scoring events."""

from __future__ import annotations

from collections import Counter

from domain.railway_boom.content import Content
from domain.railway_boom.state import State


def invariants(content: Content, state: State) -> list[str]:
    problems: list[str] = []
    places: Counter[str] = Counter(state.boxed)
    for deck in state.decks.values():
        places.update(deck)
    places.update(state.offer)
    for row in state.rows:
        places.update(row)
    for pending in state.pending:
        places.update(pending.drawn)
    for seat in state.seats:
        places.update(seat.trains)
        places.update(seat.developments)
    every = Counter([*content.trains, *content.station_cards, *content.developments, *content.goals, *content.routes])
    places.update(state.goals)
    places.update(state.routes)
    if places != every:
        extra, missing = places - every, every - places
        problems.append(f"cards not conserved: extra {sorted(extra)}, missing {sorted(missing)}")
    for index, seat in enumerate(state.seats):
        for resource, amount in seat.resources.items():
            if amount < 0:
                problems.append(f"seat {index} has {amount} {resource}")
        if seat.vp != sum(seat.scored.values()) or seat.vp < 0:
            problems.append(f"seat {index}: VP {seat.vp} is not the sum of its scoring events {dict(seat.scored)}")
        on_board = sum(1 for seats in state.rails.values() if index in seats)
        if seat.rails + on_board != content.rails or seat.rails < 0:
            problems.append(f"seat {index}: {seat.rails} rails in hand and {on_board} on the board")
        built = sum(1 for s in state.stations.values() if s == index)
        if seat.stations + built != content.stations:
            problems.append(f"seat {index}: stations not conserved")
        for card, kinds in seat.loaded.items():
            if len(kinds) > content.trains[card].slots:
                problems.append(f"seat {index}: {card} holds more tiles than its slots")
    for kind, left in state.tile_supply.items():
        held = sum(s.tiles.get(kind, 0) + sum(k.count(kind) for k in s.loaded.values()) for s in state.seats)
        if left < 0 or left + held != content.tiles_per_kind:
            problems.append(f"{kind} tiles not conserved: {left} in supply, {held} held")
    for hex_id, seats in state.rails.items():
        if len(set(seats)) != len(seats) or state.stations.get(hex_id) in seats:
            problems.append(f"{hex_id} holds two pieces of one player")
        if content.hexes[hex_id].terrain == "sea":
            problems.append(f"a rail at sea on {hex_id}")
    return problems
