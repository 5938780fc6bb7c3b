"""The static half of each game's board, for the replay page's renderers: what never changes
during a game (the TTR cities and routes, the Rust Belt's hexes, terrain, cities and towns).

Built from the games' own data modules, so the page draws exactly the board the rules
judge; only what the rules do not need (where to draw a city) comes from the viewer's
own files. A game without an entry here is still replayed, with the generic renderer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any


def _static_json(*parts: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("static", *parts).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def ticket_to_ride() -> dict[str, Any]:
    from domain import games

    # The shipped USA map: where to draw each city is the viewer's own file.
    board = games.current("ticket_to_ride").board
    layout = _static_json("maps", "usa_layout.json")
    missing = set(board.cities) - set(layout["cities"])
    if missing:  # a new map city without a position would be drawn at the origin
        raise ValueError(f"usa_layout.json lacks {sorted(missing)}")
    return {
        "game": "ticket_to_ride", "map": "usa", "width": layout["width"], "height": layout["height"],
        "cities": {c: {"x": layout["cities"][c]["x"], "y": layout["cities"][c]["y"]} for c in board.cities},
        "routes": [{"id": r.id, "a": r.a, "b": r.b, "length": r.length, "colour": r.colour, "double": r.double,
                    "lane": r.lane, "points": r.points} for r in board.routes.values()],
        "tickets": {t.id: {"a": t.a, "b": t.b, "points": t.points} for t in board.tickets.values()},
    }


def age_of_steam() -> dict[str, Any]:
    from domain.age_of_steam.board import CITIES, EDGE_NAMES, NEW_CITIES, TERRAIN, TOWNS

    return {
        "game": "age_of_steam", "map": "rust_belt",
        "layout": "flat-topped hexes in columns, odd-q offset (odd columns half a hex lower); hex id 'col,row'",
        "edges": list(EDGE_NAMES),
        "hexes": {h: {"terrain": terrain, **({"town": TOWNS[h]} if h in TOWNS else {})} for h, terrain in TERRAIN.items()},
        "cities": {h: {"name": c.name, "colour": c.colour, "group": c.group, "number": c.number} for h, c in CITIES.items()},
        "new_cities": {n.letter: {"colour": n.colour, "group": n.group, "die": n.die} for n in NEW_CITIES.values()},
    }


def toot_toot() -> dict[str, Any]:
    from domain import games
    from domain.toot_toot.views import static_maps

    return static_maps(games.current("toot_toot").content)


BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {"ticket_to_ride": ticket_to_ride, "age_of_steam": age_of_steam,
                                                      "toot_toot": toot_toot}
"""Game name -> its board; a new game adds its builder here and a renderer module."""


@cache
def board_map(game: str) -> dict[str, Any] | None:
    builder = BUILDERS.get(game)
    return None if builder is None else builder()
