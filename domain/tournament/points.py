"""Places at a table and the tournament points they earn.

A table's places come from its game's own order of finish (`Decider.finish`: a key per seat,
higher ahead, equal keys sharing a place). Seats that share places split the points of those
places equally: two players level for 2nd at a table scoring 3 / 1.5 / 0.5 / 0 each get
(1.5 + 0.5) / 2 = 1. A forfeited seat is placed after every other, forfeits level with each
other.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from functools import cache

WBC_PLACE_POINTS = (1000, 100, 10, 1)
"""The World Boardgaming Championships' place points (1st 1000 / 2nd 100 / 3rd 10 / 4th 1),
the `place_points` tie-break."""


def places(finish: Sequence[Sequence[int]], forfeited: Collection[int] = ()) -> tuple[int, ...]:
    """Each seat's place (1 first) from the game's order of finish: a seat's place is one
    more than the number of seats ahead of it."""
    keys = [(0 if seat in forfeited else 1, tuple(key)) for seat, key in enumerate(finish)]
    return tuple(1 + sum(other > mine for other in keys) for mine in keys)


@cache
def points(table_places: tuple[int, ...], place_points: tuple[float, ...]) -> tuple[float, ...]:
    """Each seat's tournament points: the points of the places it shares, split equally
    (a place beyond the list scores 0). Kept: the standings ask it of every table."""
    worth = [Fraction(str(p)) for p in place_points]
    out = []
    for place in table_places:
        level = sum(1 for p in table_places if p == place)
        shared = sum((worth[i] if i < len(worth) else Fraction(0) for i in range(place - 1, place - 1 + level)), Fraction(0))
        out.append(as_number(shared / level))
    return tuple(out)


def as_number(value: Fraction) -> float:
    """A number for the record: whole numbers stay whole, others to six decimals."""
    return int(value) if value.denominator == 1 else round(float(value), 6)


def seat_of(seats: Sequence[str]) -> Mapping[str, int]:
    return {player: seat for seat, player in enumerate(seats)}
