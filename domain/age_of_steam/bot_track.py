"""Where the greedy bot (`bots.py`) builds: *lines*, runs of simple track across empty hexes
from a city (or from the loose end of the seat's own unfinished track) into another stop, each
valued by the deliveries the finished link would open.

A line enters each hex by one edge and leaves by another; a straight or gentle curve does for
most turns (48 and 55 in the box), a sharp curve (7) only when nothing else fits, so lines
prefer not to need one. Lines from each city are found once per map on the empty board
(`lines_from`) and kept while their hexes stay empty; lines from loose ends are searched for
on the board as it stands. Every placement the bot makes is one of the seat's legal moves: a
line whose next tile is not among them is passed over.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.age_of_steam.board import LAKE, TERRAIN_COST, Map
from domain.age_of_steam.state import State
from domain.age_of_steam.tiles import exits_of, opposite, paths_of
from domain.age_of_steam.track import network

LONGEST = 5
"""Hexes of track in the longest line the bot plans: longer ones tie up cash for turns."""
SHARP = 2.0
"""What a sharp curve costs the plan beyond its dollars: the box holds only seven."""
KEPT_PER_PAIR = 3
"""Lines remembered between two stops, cheapest first (others may block the best)."""


@dataclass(frozen=True)
class Line:
    """Track to lay: `steps` are (hex, entry edge, exit edge) from `origin` to `target`; a
    town target also needs an exit on the town itself (`town_entry`, its edge)."""

    origin: str
    target: str
    steps: tuple[tuple[str, int, int], ...]
    town_entry: int | None
    dollars: int
    sharp: int
    hexes: tuple[str, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", tuple(hex_ for hex_, _, _ in self.steps))

    @property
    def placements(self) -> int:
        return len(self.steps) + (self.town_entry is not None)


def _turn(entry: int, exit_: int) -> str:
    return {1: "sharp_curve", 5: "sharp_curve", 2: "gentle_curve", 4: "gentle_curve", 3: "straight"}[(exit_ - entry) % 6]


def _lines(map_: Map, origin: str, first: str, entry: int, empty: Any, is_stop: Any, town_open: Any,
           longest: int) -> Iterator[Line]:
    """Every line from `origin` whose first hex is `first` (entered by `entry`), at most
    `longest` hexes of track; `empty(hex)` says a hex may take new track, `is_stop(hex)` names
    a city or town, `town_open(town, edge)` whether a town takes an exit there."""
    steps: list[tuple[str, int, int]] = []

    def walk(hex_: str, entry_: int, dollars: int, sharp: int) -> Iterator[Line]:
        terrain = TERRAIN_COST[map_.terrain[hex_]]
        for exit_ in range(6):
            if exit_ == entry_:
                continue
            beyond = map_.neighbours[hex_][exit_]
            if beyond is None or map_.terrain[beyond] == LAKE or beyond == origin or any(h == beyond for h, _, _ in steps):
                continue
            sharp_here = sharp + (_turn(entry_, exit_) == "sharp_curve")
            steps.append((hex_, entry_, exit_))
            kind = is_stop(beyond)
            if kind == "city":
                yield Line(origin, beyond, tuple(steps), None, dollars + terrain, sharp_here)
            elif kind == "town":
                if town_open(beyond, opposite(exit_)):
                    yield Line(origin, beyond, tuple(steps), opposite(exit_), dollars + terrain + 2, sharp_here)
            elif len(steps) < longest and empty(beyond):
                yield from walk(beyond, opposite(exit_), dollars + terrain, sharp_here)
            steps.pop()

    if empty(first):
        yield from walk(first, entry, 0, 0)


_FROM: dict[tuple[int, str], tuple[Map, tuple[Line, ...]]] = {}
_LOCK = threading.Lock()


def lines_from(map_: Map, origin: str) -> tuple[Line, ...]:
    """Lines from the stop on `origin` (a printed city, or a town as if it were a new city)
    across the empty board, the cheapest few to each other stop; found once per map."""
    with _LOCK:
        hit = _FROM.get((id(map_), origin))
    if hit is not None and hit[0] is map_:
        return hit[1]

    def is_stop(hex_: str) -> str | None:
        return "city" if hex_ in map_.city_at else "town" if hex_ in map_.towns else None

    def empty(hex_: str) -> bool:
        return map_.terrain[hex_] != LAKE and is_stop(hex_) is None

    best: dict[str, list[Line]] = {}
    for edge, first in enumerate(map_.neighbours[origin]):
        if first is None:
            continue
        for line in _lines(map_, origin, first, opposite(edge), empty, is_stop, lambda town, edge: True, LONGEST):
            best.setdefault(line.target, []).append(line)
    found = tuple(
        line
        for target in sorted(best)
        for line in sorted(best[target], key=lambda kept: (kept.dollars + SHARP * kept.sharp, kept.hexes))[:KEPT_PER_PAIR * 2]
    )
    with _LOCK:
        _FROM[(id(map_), origin)] = (map_, found)
    return found


class Board:
    """The board as the bot's line search reads it for one seat."""

    def __init__(self, map_: Map, state: State, seat: int) -> None:
        self.map, self.state, self.seat = map_, state, seat
        self.net = network(map_, state.board, state.new_cities)

    def is_stop(self, hex_: str) -> str | None:
        if self.map.is_city(hex_, self.state.new_cities):
            return "city"
        return "town" if hex_ in self.map.towns else None

    def empty(self, hex_: str) -> bool:
        return hex_ not in self.state.board and self.map.terrain[hex_] != LAKE and self.is_stop(hex_) is None

    def town_open(self, town: str, edge: int) -> bool:
        """Whether a line may end on `town` entering it by `edge`: no track yet, or a tile
        without that exit (the line adds it)."""
        placed = self.state.board.get(town)
        return placed is None or edge not in exits_of(placed.tile, placed.rotation)

    def usable(self, line: Line) -> bool:
        """A line found on the empty board that the board still allows."""
        if not all(self.empty(hex_) for hex_ in line.hexes):
            return False
        if line.town_entry is not None and self.is_stop(line.target) == "town":
            return self.town_open(line.target, line.town_entry)
        return True

    def settled(self, line: Line) -> Line:
        """The line as the board stands: a target town made a city needs no town tile."""
        if line.town_entry is not None and self.is_stop(line.target) == "city":
            return Line(line.origin, line.target, line.steps, None, line.dollars - 2, line.sharp)
        return line

    def lines(self) -> list[Line]:
        """Lines the seat could build now: from every city (printed lines still open, and
        from new cities), and on from the loose ends of its own unfinished track."""
        origins = (*self.map.city_at, *self.state.new_cities)
        out = [self.settled(line) for origin in origins for line in lines_from(self.map, origin) if self.usable(line)]
        for link in self.net.owned(self.seat):
            if link.complete:
                continue
            loose = link.a if not link.a.stop else link.b
            anchor = link.b if loose is link.a else link.a
            first = self.map.neighbours[loose.hex][loose.edge]
            if not anchor.stop or first is None:
                continue
            if self.is_stop(first) == "town" and first != anchor.hex:
                # The track already runs up to a town: only the town's exit is missing.
                if self.town_open(first, opposite(loose.edge)):
                    out.append(Line(anchor.hex, first, (), opposite(loose.edge), 2, 0))
                continue
            for line in _lines(self.map, anchor.hex, first, opposite(loose.edge), self.empty, self.is_stop,
                               self.town_open, LONGEST):
                out.append(line)
        return out


def move_for(line: Line, moves: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The legal move that lays the line's next tile: a simple tile along its first step, or
    (with the track done) the town exit it ends in; the cheapest if several fit."""
    fitting: list[Mapping[str, Any]] = []
    if line.steps:
        hex_, entry, exit_ = line.steps[0]
        wanted = ((min(entry, exit_), max(entry, exit_)),)
        fitting = [m for m in moves if m["type"] == "build" and m["hex"] == hex_
                   and paths_of(m["tile"], m["rotation"]) == wanted]
    elif line.town_entry is not None:
        fitting = [m for m in moves if m["type"] == "build" and m["hex"] == line.target
                   and line.town_entry in exits_of(m["tile"], m["rotation"])]
    if not fitting:
        return None
    # Fewest exits first: a town exit nobody extends only ties up a tile.
    return dict(min(fitting, key=lambda m: (len(exits_of(m["tile"], m["rotation"])), m["cost"], m["tile"], m["rotation"])))
