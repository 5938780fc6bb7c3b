"""The static half of each game's board: what never changes during a game (the TTR cities
and routes, the Rust Belt's hexes, terrain, cities and towns), for the replay page's
renderers and for the API's `GET /api/v1/games/{id}/map`.

Built from the games' own data (the rules bound to the game's content pack), so a client
draws exactly the board the rules judge; only what the rules do not need (where to draw a
city) comes from the viewer's own files. A game without an entry here is still replayed,
with the generic renderer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from domain import games
from domain.age_of_steam.board import EDGE_NAMES
from domain.age_of_steam.tiles import SEGMENTS, TILE_TYPES, TOWN
from domain.core.decider import Decider
from domain.core.state import FrozenDict
from domain.railway_boom.views import static_board
from domain.toot_toot.views import static_maps


def _static_json(*parts: str) -> dict[str, Any] | None:
    path = resources.files(__package__).joinpath("static", *parts)
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def ticket_to_ride(rules: Decider[Any]) -> dict[str, Any]:
    board = rules.board  # type: ignore[attr-defined]
    pack = rules.pack.id if rules.pack is not None else rules.default_pack  # type: ignore[attr-defined]
    # Where to draw each city is the viewer's own file, for the maps it has one for.
    layout = _static_json("maps", f"{pack}_layout.json")
    if layout is not None:
        missing = set(board.cities) - set(layout["cities"])
        if missing:  # a new map city without a position would be drawn at the origin
            raise ValueError(f"{pack}_layout.json lacks {sorted(missing)}")
    place = (lambda c: {"x": layout["cities"][c]["x"], "y": layout["cities"][c]["y"]}) if layout else (lambda c: {})
    return {
        "game": "ticket_to_ride", "map": pack,
        "width": layout["width"] if layout else None, "height": layout["height"] if layout else None,
        "cities": {c: place(c) for c in board.cities},
        "routes": [{"id": r.id, "a": r.a, "b": r.b, "length": r.length, "colour": r.colour, "double": r.double,
                    "lane": r.lane, "points": r.points} for r in board.routes.values()],
        "tickets": {t.id: {"a": t.a, "b": t.b, "points": t.points} for t in board.tickets.values()},
    }


def age_of_steam(rules: Decider[Any]) -> dict[str, Any]:
    board, towns = rules.map, rules.map.towns  # type: ignore[attr-defined]
    return {
        "game": "age_of_steam", "map": rules.pack.id if rules.pack else None,
        "layout": "flat-topped hexes in columns, odd-q offset (odd columns half a hex lower); hex id 'col,row'",
        "edges": list(EDGE_NAMES),
        "hexes": {h: {"terrain": terrain, **({"town": towns[h]} if h in towns else {})} for h, terrain in board.terrain.items()},
        "cities": {h: {"name": c.name, "colour": c.colour, "group": c.group, "number": c.number}
                   for h, c in board.city_at.items()},
        "new_cities": {n.letter: {"colour": n.colour, "group": n.group, "die": n.die} for n in board.new_cities},
        # What each tile lays at each rotation, so the play page draws a build before it is made.
        "tiles": {t.name: {where: [[list(seg) for seg in SEGMENTS[(t.name, r, where == "town")]] for r in range(6)]
                           for where in ("plain", "town")} for t in TILE_TYPES},
        "town_centre": TOWN,
    }


def railway_boom(rules: Decider[Any]) -> dict[str, Any]:
    return static_board(rules.content)  # type: ignore[attr-defined]


def toot_toot(rules: Decider[Any]) -> dict[str, Any]:
    return static_maps(rules.content)  # type: ignore[attr-defined]


BUILDERS: dict[str, Callable[[Decider[Any]], dict[str, Any]]] = {
    "ticket_to_ride": ticket_to_ride, "age_of_steam": age_of_steam, "railway_boom": railway_boom, "toot_toot": toot_toot}
"""Game name -> its board from the rules bound to a pack; a new game adds its builder here
and a renderer module."""


def game_map(rules: Decider[Any]) -> dict[str, Any] | None:
    """The board of a game played under `rules` (bound to that game's pack)."""
    return _built(rules)


@cache
def _built(rules: Decider[Any]) -> dict[str, Any] | None:
    # Bound rules are shared, one per pack (`registry.bind`), so this holds one board per pack.
    builder = BUILDERS.get(rules.name)
    if builder is None:
        return None
    # What people call the pack's things in each language (its `names.json`): every language,
    # so one board answer serves every reader and caches as one.
    names = rules.pack.names if rules.pack is not None else {}
    return _read_only({**builder(rules), "names": names})


def _read_only(value: Any) -> Any:
    # Shared by every request: its mappings refuse changes and its lists are tuples.
    if isinstance(value, dict):
        return FrozenDict({key: _read_only(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_read_only(item) for item in value)
    return value


def board_map(game: str) -> dict[str, Any] | None:
    """The board of a new game of `game`, on its default pack (the replay page's map)."""
    return game_map(games.current(game)) if game in BUILDERS else None
