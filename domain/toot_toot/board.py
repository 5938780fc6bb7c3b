"""The map as play has changed it: printed buildings and drawn factories, track, trains.
Where track may go (R2), where a train may step (R4) and turn (R5), which locations a
train stands at (R7) and where a factory may go (R8, R9)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from domain.toot_toot.content import CLOSED, FACTORY, OPEN, WATERWAY, Building, Map
from domain.toot_toot.hexes import Hex, Segment, ends_at, exits_from, is_segment, neighbour, neighbours, opp, segment
from domain.toot_toot.split import cut_off
from domain.toot_toot.state import Factory, State

FACTORY_PREFIX = "factory@"
_ALL_SEGMENTS = tuple((a, b, segment(a, b)) for a in range(6) for b in exits_from(a))
"""Every (from, to) a segment may join, in the order `draws` lists them."""


def drawn_factory(hex_: Hex, factory: Factory) -> Building:
    """A drawn factory as a building: its exit open, its other sides closed (R8)."""
    return Building(f"{FACTORY_PREFIX}{hex_}", FACTORY, (hex_,), {f"{hex_}/{factory.exit}": OPEN}, factory=factory.kind)


@dataclass(frozen=True)
class Board:
    map: Map
    state: State

    def building_at(self, hex_: Hex) -> Building | None:
        if hex_ in self.state.factories:
            return drawn_factory(hex_, self.state.factories[hex_])
        return self.map.building_at.get(hex_)

    def building(self, building_id: str) -> Building | None:
        if building_id.startswith(FACTORY_PREFIX):
            hex_ = building_id[len(FACTORY_PREFIX):]
            factory = self.state.factories.get(hex_)
            return drawn_factory(hex_, factory) if factory is not None else None
        return self.map.building.get(building_id)

    def trackable(self, hex_: Hex) -> bool:
        return self.map.trackable(hex_) and hex_ not in self.state.factories

    def segments(self, hex_: Hex) -> tuple[Segment, ...]:
        return self.state.track.get(hex_, ())

    # --- track (R2) ----------------------------------------------------------------------

    def can_draw(self, hex_: Hex, a: int, b: int) -> bool:
        return is_segment(a, b) and self.trackable(hex_) and segment(a, b) not in self.segments(hex_)

    def draws(self) -> Iterator[tuple[Hex, int, int]]:
        """Every segment that may start a line or be drawn with iron: (hex, from, to)."""
        track = self.state.track
        for hex_ in sorted(self.map.terrain):
            if self.trackable(hex_):
                have = track.get(hex_, ())
                for a, b, seg in _ALL_SEGMENTS:
                    if seg not in have:
                        yield hex_, a, b

    def continuations(self, hex_: Hex, edge: int) -> Iterator[tuple[Hex, int, int]]:
        """The segments that go on with a line ending at `hex/edge` (R2)."""
        nxt, entry = neighbour(hex_, edge), opp(edge)
        for b in exits_from(entry):
            if self.can_draw(nxt, entry, b):
                yield nxt, entry, b

    # --- trains (R3, R4, R5) -------------------------------------------------------------

    def trains(self, but: int | None = None) -> dict[Hex, int]:
        return {s.hex: i for i, s in enumerate(self.state.seats) if s.hex is not None and i != but}

    def step(self, hex_: Hex, facing: int) -> Iterator[tuple[Hex, int]]:
        """Where one step along track leads: leave by the facing edge, enter at its
        opposite, follow a segment from there (the mover chooses at a junction)."""
        nxt, entry = neighbour(hex_, facing), opp(facing)
        for far in ends_at(self.segments(nxt), entry):
            yield nxt, far

    def destinations(self, seat: int, most: int | None) -> dict[tuple[Hex, int], tuple[tuple[Hex, int], ...]]:
        """Every (hex, facing) the seat's train may end a move on in 1 to `most` steps (any
        number for None), each with its shortest path; never on another train (R4)."""
        here = self.state.seats[seat]
        assert here.hex is not None
        others = self.trains(but=seat)
        paths: dict[tuple[Hex, int], tuple[tuple[Hex, int], ...]] = {}
        queue: deque[tuple[tuple[Hex, int], tuple[tuple[Hex, int], ...]]] = deque([((here.hex, here.facing), ())])
        while queue:
            (hex_, facing), path = queue.popleft()
            if most is not None and len(path) >= most:
                continue
            for place in self.step(hex_, facing):
                if place not in paths:
                    paths[place] = (*path, place)
                    queue.append((place, paths[place]))
        return {place: path for place, path in paths.items() if place[0] not in others}

    def turns(self, seat: int) -> list[int]:
        """The other edges of the train's hex where a segment ends (R5)."""
        here = self.state.seats[seat]
        assert here.hex is not None
        ends = {e for seg in self.segments(here.hex) for e in seg}
        return sorted(ends - {here.facing})

    # --- locations (R7) ------------------------------------------------------------------

    def locations(self, seat: int, waterway: bool) -> dict[str, bool]:
        """The buildings next to the seat's train -> whether using them needs a penalty
        token (no open side, or a waterway side without Waterway, faces the train)."""
        here = self.state.seats[seat].hex
        out: dict[str, bool] = {}
        if here is None:
            return out
        for edge, other in neighbours(here):
            building = self.building_at(other)
            if building is None:
                continue
            side = building.side(other, opp(edge))
            free = side == OPEN or (side == WATERWAY and waterway)
            out[building.id] = out.get(building.id, True) and not free
        return out

    # --- factories (R8, R9) --------------------------------------------------------------

    def factory_sites(self, seat: int) -> dict[Hex, list[int]]:
        """The hexes next to the seat's train a factory may go on, each with its possible
        exits; the map-splitting check is left to `splits`."""
        here = self.state.seats[seat].hex
        if here is None:
            return {}
        fronts = {neighbour(s.hex, s.facing) for i, s in enumerate(self.state.seats) if i != seat and s.hex is not None}
        out: dict[Hex, list[int]] = {}
        for _, target in neighbours(here):
            if not self.trackable(target) or self.segments(target) or target in fronts or self.is_opening(target):
                continue
            exits = [e for e, other in neighbours(target) if self.trackable(other)]
            if exits:
                out[target] = exits
        return out

    def is_opening(self, hex_: Hex) -> bool:
        """Whether `hex_` is across an open side of a building (a waterway side is fine)."""
        for edge, other in neighbours(hex_):
            building = self.building_at(other)
            if building is not None and building.side(other, opp(edge)) == OPEN:
                return True
        return False

    def splits(self, target: Hex) -> set[Hex] | None:
        """The region a factory on `target` would cut off (R9), or None."""
        return cut_off(self.trackable, target)


def side_name(side: str) -> str:
    return {OPEN: "an open side", WATERWAY: "a waterway side", CLOSED: "a closed side"}[side]
