"""The options a game is recorded with. There is one map, but the project's rulings (rules page,
"the project's rulings") and the engine's own decisions where the sources are silent are
written out as explicit values, so a record says which rules it was played under."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.age_of_steam.board import (
    MAX_LOCOMOTIVE,
    MAX_SHARES,
    REDIRECT,
    SHARE_PRICE,
    TOWN_UPGRADE,
    TURNS_BY_PLAYERS,
    UPGRADE_TO_CROSSING,
    Map,
)
from domain.core.errors import MalformedMove

MIN_SEATS = 3
MAX_SEATS = 6
COEXISTING_UPGRADE_COSTS = (2, 3)
"""Ruling 2: $2 by default; a tournament may record $3 instead."""


def full_options(map_: Map, seats: int, map_id: str = "rust_belt") -> dict[str, Any]:
    return {
        "map": map_id,
        "turns": TURNS_BY_PLAYERS[seats],
        "max_shares": MAX_SHARES,
        "share_price": SHARE_PRICE,
        "max_locomotive": MAX_LOCOMOTIVE,
        "ownership_markers": map_.ownership_markers,
        "town_discs": map_.town_discs,
        # Ruling 1.
        "hex_8_0_is_lake": True,
        # Ruling 2.
        "upgrade_simple_to_coexisting_cost": 2,
        "upgrade_simple_to_crossing_cost": UPGRADE_TO_CROSSING,
        "town_exit_addition_cost": TOWN_UPGRADE,
        "redirect_cost": REDIRECT,
        # Ruling 3.
        "growth_takes_top_cube": True,
        # Ruling 4.
        "track_vp_once_per_tile": True,
        # The engine's decisions where the sources are silent (each tested):
        # a good may not visit any city or town twice, towns included;
        "no_stop_visited_twice_towns_included": True,
        # the game ends after the last turn's income reduction: goods growth then could
        # change nothing that scores;
        "goods_growth_in_last_turn": False,
        # one placement either adds track (upgrade) or redirects, never both;
        "upgrade_and_redirect_in_one_placement": False,
        # tied initial dice are re-rolled by the tied players only.
        "initial_order_ties_reroll": True,
    }


def options(map_: Map, requested: Mapping[str, Any], seats: int, map_id: str = "rust_belt") -> dict[str, Any]:
    """Accepts `{}` or `{"map": "rust_belt"}`, a full set of options as this function returns
    it (so recorded options can be passed back in), and ruling 2's other reading."""
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise MalformedMove(
            "bad_seats",
            f"Age of Steam (Rust Belt) is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats}; "
            "2 players is not a base-game count for this map.",
        )
    if not isinstance(requested, Mapping):
        raise MalformedMove("bad_options", "Options must be a JSON object such as {\"map\": \"rust_belt\"}.")
    full = full_options(map_, seats, map_id)
    for key, value in requested.items():
        if key not in full:
            raise MalformedMove("bad_options", f"Unknown option {key!r}; the only choice is \"map\": \"rust_belt\".")
        if key == "upgrade_simple_to_coexisting_cost" and value in COEXISTING_UPGRADE_COSTS and type(value) is int:
            full[key] = value
            continue
        if value != full[key] or type(value) is not type(full[key]):
            raise MalformedMove("bad_options", f"Option {key!r} must be {full[key]!r} for {seats} seats, not {value!r}.")
    return full
