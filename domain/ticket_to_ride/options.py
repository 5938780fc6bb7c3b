"""The options a game is recorded with. There is one map and nothing to choose, but the
project's rulings (rules page, "the project's rulings") are written out as explicit values
so a record says which rules it was played under."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.errors import MalformedMove
from domain.ticket_to_ride.board import (
    DOUBLES_BOTH_USABLE_FROM,
    LONGEST_PATH_BONUS,
    TRAINS_PER_SEAT,
    WIPE_LOCOMOTIVES,
)

MAX_MARKET_WIPES = 3
"""Ruling 1: after this many wipes in a row the market stays as dealt."""
MIN_SEATS = 2
MAX_SEATS = 5


def full_options(seats: int) -> dict[str, Any]:
    return {
        "map": "usa",
        "trains_per_seat": TRAINS_PER_SEAT,
        "longest_path_bonus": LONGEST_PATH_BONUS,
        "market_wipe_locomotives": WIPE_LOCOMOTIVES,
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
        "double_routes_both_usable": seats >= DOUBLES_BOTH_USABLE_FROM,
        # Not in the rulebook: once every seat has passed in a row nothing can ever change,
        # so the game goes to final scoring instead of passing forever.
        "end_when_every_seat_passes": True,
    }


def options(requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Accepts `{}` or `{"map": "usa"}`, and also a full set of options as this function
    returns it, so recorded options can be passed back in."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise MalformedMove("bad_options", f"Ticket to Ride needs {MIN_SEATS} to {MAX_SEATS} seats, not {seats}.")
    if not isinstance(requested, Mapping):
        raise MalformedMove("bad_options", "Options must be a JSON object such as {\"map\": \"usa\"}.")
    full = full_options(seats)
    for key, value in requested.items():
        if key not in full:
            raise MalformedMove("bad_options", f"Unknown option {key!r}; the only choice is \"map\": \"usa\".")
        if value != full[key] or type(value) is not type(full[key]):
            raise MalformedMove(
                "bad_options", f"Option {key!r} must be {full[key]!r} for {seats} seats, not {value!r}."
            )
    return full
