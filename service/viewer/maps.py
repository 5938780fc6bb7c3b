"""The static half of each game's board, as the game declares it (`Decider.static_board`):
what never changes during a game (cities and routes, hexes, terrain, tiles), for the replay
page's renderers and for the API's `GET /api/v1/games/{id}/map`.

Built by the rules bound to the game's content pack, so a client draws exactly the board the
rules judge. A game that declares no board is still replayed, with the generic renderer.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain import games
from domain.core.decider import Decider
from domain.core.state import FrozenDict


def game_map(rules: Decider[Any]) -> dict[str, Any] | None:
    """The board of a game played under `rules` (bound to that game's pack)."""
    return _built(rules)


@cache
def _built(rules: Decider[Any]) -> dict[str, Any] | None:
    # Bound rules are shared, one per pack (`registry.bind`), so this holds one board per pack.
    board = rules.static_board()
    if board is None:
        return None
    # What people call the pack's things in each language (its `names.json`): every language,
    # so one board answer serves every reader and caches as one.
    names = rules.pack.names if rules.pack is not None else {}
    return _read_only({**board, "game": rules.name, "names": names})


def _read_only(value: Any) -> Any:
    # Shared by every request: its mappings refuse changes and its lists are tuples.
    if isinstance(value, dict):
        return FrozenDict({key: _read_only(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_read_only(item) for item in value)
    return value


def has_board(game: str) -> bool:
    """Whether `game` declares a static board (its rules publish the board's schema)."""
    return games.current_rules(game).board_schema is not None if game in games.names() else False


def board_map(game: str) -> dict[str, Any] | None:
    """The board of a new game of `game`, on its default pack (the replay page's map)."""
    return game_map(games.current(game)) if has_board(game) else None
