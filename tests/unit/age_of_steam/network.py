"""A small finished network around Indianapolis, shared by the delivery and scoring tests.

    Evansville (blue) --9,8-- Indianapolis (town) ==11,8 / 11,7== Cincinnati (blue) --12,7-- Fort Wayne (town)

`owners` gives the owner of each link: Evansville-Indianapolis, the two Indianapolis-Cincinnati
links (via 11,8 and via 11,7), and Cincinnati-Fort Wayne.
"""

from __future__ import annotations

from typing import Any

from domain.age_of_steam.state import State
from domain.age_of_steam.track import network
from tests.rust_belt import MAP

from .helpers import tile

EVANSVILLE, INDIANAPOLIS, CINCINNATI, FORT_WAYNE = "9,9", "10,8", "12,8", "11,6"


def board(ei: int | None = 0, ic_south: int | None = 1, ic_north: int | None = 2, cf: int | None = 0) -> list[dict[str, Any]]:
    return [
        tile("9,8", "gentle_curve", 1, ei),
        # Indianapolis' exits 1, 2, 4 lead to 11,7, 11,8 and 9,8.
        tile(INDIANAPOLIS, "town_3_left_leaner", 1, ic_north, ic_south, ei),
        tile("11,8", "gentle_curve", 5, ic_south),
        tile("11,7", "gentle_curve", 2, ic_north),
        tile("12,7", "gentle_curve", 3, cf),
        tile(FORT_WAYNE, "town_1", 2, cf),
    ]


def link(state: State, a: str, b: str, via: str | None = None) -> str:
    """The id of the completed link between stops `a` and `b` (through hex `via`)."""
    for candidate in network(MAP, state.board, state.new_cities).links:
        if candidate.complete and {candidate.a.hex, candidate.b.hex} == {a, b} and (via is None or via in candidate.hexes):
            return candidate.id
    raise AssertionError(f"no link {a}-{b} via {via}")
