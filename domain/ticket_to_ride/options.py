"""The options a game is recorded with. The map is a content pack (`"map": PACK_ID`, the
USA map by default); the rest cannot be chosen, but the map's printed numbers and the
project's rulings (rules page, "the project's rulings") are written out as explicit values
so a record says which rules it was played under."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.errors import MalformedMove
from domain.ticket_to_ride.board import Board

MAX_MARKET_WIPES = 3
"""Ruling 1: after this many wipes in a row the market stays as dealt."""
MIN_SEATS = 2
MAX_SEATS = 5


def full_options(board: Board, map_id: str, seats: int) -> dict[str, Any]:
    return {
        "map": map_id,
        "trains_per_seat": board.trains_per_seat,
        "longest_path_bonus": board.longest_path_bonus,
        "market_wipe_locomotives": board.wipe_locomotives,
        # Ruling 1.
        "max_market_wipes": MAX_MARKET_WIPES,
        "market_wipe_needs_refill": True,
        # Ruling 2.
        "market_slots_may_stay_empty": True,
        # Ruling 3.
        "short_ticket_draw": True,
        # Ruling 4.
        "pass_only_without_legal_move": True,
        # Ruling 5.
        "replacement_locomotive_as_second_card": False,
        "double_routes_both_usable": seats >= board.doubles_both_usable_from,
        # Not in the rulebook: once every seat has passed in a row nothing can ever change,
        # so the game goes to final scoring instead of passing forever.
        "end_when_every_seat_passes": True,
    }


def options(board: Board, map_id: str, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Accepts `{}` or `{"map": map_id}`, and also a full set of options as this function
    returns it, so recorded options can be passed back in. Which pack `map` names is
    settled before (`domain/games.py`): `board` is that pack's map."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise MalformedMove("bad_options", f"Ticket to Ride needs {MIN_SEATS} to {MAX_SEATS} seats, not {seats}.")
    if not isinstance(requested, Mapping):
        raise MalformedMove("bad_options", "Options must be a JSON object such as {\"map\": \"usa\"}.")
    full = full_options(board, map_id, seats)
    for key, value in requested.items():
        if key not in full:
            raise MalformedMove("bad_options", f"Unknown option {key!r}; the only choice is the map, e.g. \"map\": \"usa\".")
        if value != full[key] or type(value) is not type(full[key]):
            raise MalformedMove(
                "bad_options", f"Option {key!r} must be {full[key]!r} for {seats} seats, not {value!r}."
            )
    return full
