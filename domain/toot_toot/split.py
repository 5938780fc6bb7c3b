"""Never splitting the map (R9): a factory may not increase the number of connected groups
of trackable hexes. The refusal names the region that would be cut off."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from domain.toot_toot.hexes import Hex, coords, neighbours


def groups(hexes: Iterable[Hex]) -> list[set[Hex]]:
    """The connected groups of `hexes` (neighbours across any edge)."""
    left = set(hexes)
    out: list[set[Hex]] = []
    while left:
        seed = min(left, key=coords)
        group, frontier = {seed}, [seed]
        left.discard(seed)
        while frontier:
            hex_ = frontier.pop()
            for _, other in neighbours(hex_):
                if other in left:
                    left.discard(other)
                    group.add(other)
                    frontier.append(other)
        out.append(group)
    return out


def cut_off(trackable: Callable[[Hex], bool], target: Hex) -> set[Hex] | None:
    """The smallest region a building on `target` would cut off from the rest, or None when
    it cuts nothing. Only the target's trackable neighbours can fall apart, so the search
    starts from them and stops as soon as they are all joined again."""
    around = [h for _, h in neighbours(target) if trackable(h)]
    if len(around) < 2:
        return None
    # Joined groups of the neighbours, grown one breadth-first layer at a time from each.
    reached: dict[Hex, int] = {h: i for i, h in enumerate(around)}
    parent = list(range(len(around)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    regions: dict[int, set[Hex]] = {i: {h} for i, h in enumerate(around)}
    frontiers: dict[int, list[Hex]] = {i: [h] for i, h in enumerate(around)}
    while True:
        roots = {root(i) for i in range(len(around))}
        if len(roots) == 1:
            return None
        live = [r for r in roots if frontiers.get(r)]
        if len(live) < len(roots):
            dead = min((r for r in roots if not frontiers.get(r)), key=lambda r: len(regions[r]))
            return regions[dead]
        grow = min(live, key=lambda r: len(regions[r]))
        nxt: list[Hex] = []
        for hex_ in frontiers[grow]:
            for _, other in neighbours(hex_):
                if other == target or not trackable(other):
                    continue
                owner = reached.get(other)
                if owner is None:
                    reached[other] = grow
                    regions[grow].add(other)
                    nxt.append(other)
                elif root(owner) != grow:
                    merged = root(owner)
                    parent[merged] = grow
                    regions[grow] |= regions.pop(merged)
                    nxt += frontiers.pop(merged, [])
        frontiers[grow] = nxt
