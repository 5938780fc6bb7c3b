"""What must hold after every event, as sentences (empty when all is well). The random
playouts and the service's simulator check these after each step."""

from __future__ import annotations

from collections import Counter

from domain.age_of_steam.board import MAX_LOCOMOTIVE, MAX_SHARES, Map
from domain.age_of_steam.scoring import sources, vp
from domain.age_of_steam.state import SETUP, State
from domain.age_of_steam.tiles import MIX, SEGMENTS, needs_disc
from domain.age_of_steam.track import network


def invariants(map_: Map, state: State) -> list[str]:
    return [*_cubes(map_, state), *_tiles(map_, state), *_money(state), *_seats(map_, state), *_track(map_, state)]


def _cubes(map_: Map, state: State) -> list[str]:
    counts: Counter[str] = Counter()
    for colour, n in state.bag.items():
        if n < 0:
            return [f"the bag holds {n} {colour} goods"]
        counts[colour] += n
    for column, spaces in state.display.items():
        if len(spaces) != map_.column_spaces[column]:
            return [f"display column {column} has {len(spaces)} spaces, not {map_.column_spaces[column]}"]
        counts.update(cube for cube in spaces if cube is not None)
    for cubes in state.cubes.values():
        counts.update(cubes)
    counts.update(state.production)
    problems = []
    for colour, expected in map_.bag.items():
        if counts[colour] != expected:
            problems.append(f"{counts[colour]} {colour} goods are accounted for, not {expected}")
    if set(counts) - set(map_.bag):
        problems.append(f"unknown goods in play: {sorted(set(counts) - set(map_.bag))}")
    return problems


def _tiles(map_: Map, state: State) -> list[str]:
    laid = Counter(placed.tile for placed in state.board.values())
    problems = [
        f"{state.stock.get(tile, 0)} {tile} tiles in stock and {laid[tile]} laid, not {count}"
        for tile, count in MIX.items()
        if state.stock.get(tile, 0) + laid[tile] != count or state.stock.get(tile, 0) < 0
    ]
    discs = sum(placed.disc for placed in state.board.values())
    if discs + state.discs != map_.town_discs or state.discs < 0:
        problems.append(f"{state.discs} town discs in the supply and {discs} on the board, not {map_.town_discs}")
    for hex_, placed in state.board.items():
        town = hex_ in map_.towns
        if len(placed.owners) != len(SEGMENTS[(placed.tile, placed.rotation, town)]):
            problems.append(f"the tile on {hex_} has {len(placed.owners)} owners for its track")
        if placed.disc != (town and needs_disc(placed.tile)):
            problems.append(f"the tile on {hex_} has a town disc where it should not, or lacks one")
        if not town and not SEGMENTS[(placed.tile, placed.rotation, False)]:
            problems.append(f"a town tile lies on {hex_}, which has no town")
    return problems


def _money(state: State) -> list[str]:
    problems = [f"seat {i} has ${seat.cash}" for i, seat in enumerate(state.seats) if seat.cash < 0]
    held = sum(seat.cash for seat in state.seats)
    if held != state.bank:
        problems.append(f"the players hold ${held} but the bank has paid out ${state.bank} net")
    return problems


def _seats(map_: Map, state: State) -> list[str]:
    problems = []
    live = [i for i, seat in enumerate(state.seats) if not seat.eliminated]
    if state.phase != SETUP and sorted(state.order) != live:
        problems.append(f"the player order {list(state.order)} is not the seats still in the game {live}")
    for index, seat in enumerate(state.seats):
        if seat.income != seat.income_gained - seat.income_lost:
            problems.append(
                f"seat {index} has income {seat.income} but its income events add up to {seat.income_gained - seat.income_lost}"
            )
        # Between a shortfall and the bankruptcy it causes, the expenses phase holds a negative
        # income for one event.
        if not seat.eliminated and seat.income < 0 and state.phase != "expenses":
            problems.append(f"seat {index} is still in the game with income {seat.income}")
        if state.phase != SETUP and not 0 <= seat.shares <= MAX_SHARES:
            problems.append(f"seat {index} has issued {seat.shares} shares (at most {MAX_SHARES})")
        if not 1 <= seat.locomotive <= MAX_LOCOMOTIVE:
            problems.append(f"seat {index} has a {seat.locomotive}-link locomotive")
        points = sources(map_, state, index)
        if seat.final_vp is None and vp(map_, state, index) != sum(points.values()):
            problems.append(f"seat {index}'s VP tally is not the sum of its sources")
        if seat.final_vp is not None and seat.final_vp != sum(points.values()):
            problems.append(f"seat {index} was scored {seat.final_vp} but its sources add up to {sum(points.values())}")
    return problems


def _track(map_: Map, state: State) -> list[str]:
    net = network(map_, state.board, state.new_cities)
    problems = []
    owned: Counter[int] = Counter()
    for link in net.links:
        if len(link.owners) > 1:
            problems.append(f"link {link.id} has track of several owners: {sorted(link.owners, key=repr)}")
        if link.complete and link.a.hex == link.b.hex:
            problems.append(f"link {link.id} loops back to the stop it left")
        if link.owner is not None:
            owned[link.owner] += 1
            if state.seats[link.owner].eliminated:
                problems.append(f"link {link.id} is owned by eliminated seat {link.owner}")
    for seat, count in owned.items():
        if count > map_.ownership_markers:
            problems.append(f"seat {seat} owns {count} links with {map_.ownership_markers} ownership markers")
    for hex_ in state.new_cities:
        if hex_ in state.board:
            problems.append(f"a tile lies on the new city at {hex_}")
    return problems
