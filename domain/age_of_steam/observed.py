"""The opening of a game played at a table, as it was laid out there (`Decider.table_setup`).

A referee does not re-enact 78 draws in the engine's order and the order dice with their
re-rolls: they write down what is on the table. The observed form is

    {"player_order": ["Ann", "Bob", "Cat"],                     # names (or seat numbers)
     "goods_display": {"L1": ["red", "blue", "black"], ...,     # every column, top first
                       "A": ["yellow", "red"], ...},
     "city_cubes": {"Pittsburgh": ["red", "red", "blue"], ...}} # every city, by name or hex

and it is checked against the rules of setup (`docs/rules/age_of_steam.md`, "Setup"): every
display space filled, each city with its printed number of cubes, no more cubes of a colour
than the bag holds. The events are the seeded opening's, without the order dice: the order,
the starting capital, each display space and city cube drawn (their `random` outcome the
first cube of that colour in the bag read as one list, so the colour re-derives as for any
draw), then the first turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.events import CityCubeDrawn, DisplayCubeDrawn, PlayerOrderSet, StartingCapitalTaken, outcome
from domain.age_of_steam.evolve import evolve
from domain.age_of_steam.flow import begin_turn
from domain.age_of_steam.goods import index_of
from domain.age_of_steam.state import State
from domain.age_of_steam.steps import Steps
from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.table import ImpossibleOutcome

FIELDS = ("player_order", "goods_display", "city_cubes")


def _bad(message: str) -> MalformedMove:
    return MalformedMove("bad_setup", f"observed setup: {message}")


def table_setup(map_: Map, state: State, observed: Mapping[str, Any]) -> list[Event]:
    if not isinstance(observed, Mapping):
        raise _bad("write it as a JSON object with " + ", ".join(FIELDS))
    unknown = sorted(set(observed) - set(FIELDS))
    if unknown:
        raise _bad(f"unknown field(s) {', '.join(unknown)}; the fields are {', '.join(FIELDS)}")
    missing = [name for name in FIELDS if name not in observed]
    if missing:
        raise _bad(f"missing {', '.join(missing)}")
    order = player_order(state, observed["player_order"])
    display = goods_display(map_, observed["goods_display"])
    cities = city_cubes(map_, observed["city_cubes"])
    _check_bag(map_, display, cities)

    steps = Steps(map_, state, evolve)
    steps.emit(PlayerOrderSet(order=order))
    for seat in range(len(state.seats)):
        steps.emit(StartingCapitalTaken(seat=seat, shares=map_.start_shares, cash=map_.start_money))
    for column, space in map_.display_fill_order:
        cube = display[column][space]
        steps.emit(DisplayCubeDrawn(column=column, space=space, cube=cube, random=_taken(steps.state, cube)))
    for city in map_.cities:
        for cube in cities[city.hex]:
            steps.emit(CityCubeDrawn(hex=city.hex, city=city.name, cube=cube, random=_taken(steps.state, cube)))
    begin_turn(steps, 1)
    return steps.events


def _taken(state: State, colour: str) -> dict[str, int]:
    return outcome(sum(state.bag.values()), index_of(state.bag, colour))


def player_order(state: State, written: Any) -> tuple[int, ...]:
    names = [seat.name for seat in state.seats]
    if not isinstance(written, list):
        raise _bad(f"player_order lists every player, first to last: e.g. {names}")
    order: list[int] = []
    for entry in written:
        if isinstance(entry, int) and not isinstance(entry, bool) and 0 <= entry < len(names):
            order.append(entry)
            continue
        match = [seat for seat, name in enumerate(names) if isinstance(entry, str) and name.lower() == entry.strip().lower()]
        if not match:
            raise _bad(f"player_order: {entry!r} is not a player of this game ({', '.join(names)})")
        order.append(match[0])
    if sorted(order) != list(range(len(names))):
        twice = sorted({names[seat] for seat in order if order.count(seat) > 1})
        absent = [names[seat] for seat in range(len(names)) if seat not in order]
        raise _bad("player_order names every player once" + (f"; twice: {', '.join(twice)}" if twice else "")
                   + (f"; missing: {', '.join(absent)}" if absent else ""))
    return tuple(order)


def _cubes(map_: Map, where: str, written: Any, count: int) -> tuple[str, ...]:
    if not isinstance(written, list) or len(written) != count:
        raise _bad(f"{where} holds {count} cubes at the start, written as a list of {count} colours, not {written!r}")
    cubes: list[str] = []
    for cube in written:
        colour = cube.strip().lower() if isinstance(cube, str) else cube
        if colour not in map_.colours:
            raise _bad(f"{where}: {cube!r} is not a goods colour ({', '.join(map_.colours)})")
        cubes.append(colour)
    return tuple(cubes)


def goods_display(map_: Map, written: Any) -> dict[str, tuple[str, ...]]:
    columns = map_.column_spaces
    if not isinstance(written, Mapping):
        raise _bad("goods_display maps each column (" + ", ".join(columns) + ") to its cubes, top first")
    out: dict[str, tuple[str, ...]] = {}
    for key, cubes in written.items():
        column = key.strip().upper() if isinstance(key, str) else key
        if column not in columns:
            raise _bad(f"goods_display: {key!r} is not a display column ({', '.join(columns)})")
        if column in out:
            raise _bad(f"goods_display: column {column} is written twice")
        out[column] = _cubes(map_, f"display column {column}", cubes, columns[column])
    absent = [column for column in columns if column not in out]
    if absent:
        raise _bad(f"goods_display: every space is filled at the start; columns {', '.join(absent)} are missing")
    return out


def city_cubes(map_: Map, written: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(written, Mapping):
        raise _bad("city_cubes maps each city (by name) to the cubes on it")
    by_name = {name.lower(): hex_ for name, hex_ in map_.city_by_name.items()}
    out: dict[str, tuple[str, ...]] = {}
    for key, cubes in written.items():
        hex_ = key if key in map_.city_at else by_name.get(key.strip().lower()) if isinstance(key, str) else None
        if hex_ is None:
            raise _bad(f"city_cubes: {key!r} is not a city of the map")
        city = map_.city_at[hex_]
        if hex_ in out:
            raise _bad(f"city_cubes: {city.name} is written twice")
        out[hex_] = _cubes(map_, city.name, cubes, city.starting_cubes)
    absent = [city.name for city in map_.cities if city.hex not in out]
    if absent:
        raise _bad(f"city_cubes: every city starts with cubes; missing: {', '.join(absent)}")
    return out


def _check_bag(map_: Map, display: Mapping[str, Sequence[str]], cities: Mapping[str, Sequence[str]]) -> None:
    laid = Counter(cube for cubes in (*display.values(), *cities.values()) for cube in cubes)
    over = [(colour, n) for colour, n in sorted(laid.items()) if n > map_.bag.get(colour, 0)]
    if over:
        raise ImpossibleOutcome("observed setup: " + "; ".join(
            f"the bag holds {map_.bag.get(colour, 0)} {colour} cubes, but the display and the cities show {n}"
            for colour, n in over))
