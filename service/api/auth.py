"""Who is calling: a seat's or the referee's bearer token, or the public (no token)."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from flask import current_app, g, request
from werkzeug.exceptions import Forbidden, Unauthorized

from domain.core.events import PUBLIC, Audience
from service.aggregate import Game
from service.lobby import Lobby


class Caller(Enum):
    """Who may call a route; on a game's route the token is resolved to that game's audience."""

    PUBLIC = "anyone (a token, if sent, must be this game's and chooses what is shown)"
    INVITE = "anyone holding an invite (the body's invite is the credential)"
    PLAYER = "a seat's or the referee's bearer token"
    SEAT = "a seat's bearer token"
    REFEREE = "the game's referee bearer token"


def lobby() -> Lobby:
    return current_app.extensions["caboose.lobby"]


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`; the scheme's case and the spaces
    around and between the parts do not matter (`bearer  X` is `Bearer X`)."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        raise Unauthorized("The Authorization header must be `Bearer <token>`.")
    return parts[1]


def audience_of(game_id: str, caller: Caller) -> Audience:
    """The caller's audience for this game, refused unless it is one `caller` admits:
    404 for an unknown game first, then 401 without a valid token, 403 with the wrong one."""
    token = bearer_token()
    if caller is Caller.INVITE or (caller is Caller.PUBLIC and token is None):
        return PUBLIC  # nothing to check here; the view answers 404 for an unknown game
    # The request's one load of its game: the view decides and answers from this copy.
    game = lobby().caboose.game(game_id)
    g.loaded_game = (game_id, game)
    if token is None:
        raise Unauthorized(f"This needs {caller.value}.")
    audience = lobby().seating.audience(game_id, token, game)
    if audience is None:
        raise Unauthorized("This token is not valid for this game.")
    if caller is Caller.REFEREE and not audience.referee:
        raise Forbidden("Only the game's referee may do this; a seat's token may not.")
    if caller is Caller.SEAT and audience.seat is None:
        raise Forbidden("This belongs to a seat: use that seat's bearer token, not the referee's.")
    return audience


def token_speaks_for(game_id: str, audience: Audience) -> Callable[[Game], bool] | None:
    """For a seat's write: whether the request's token still speaks for its seat in a given
    version of the game, asked of each version the command is decided against (a referee
    may hand the seat back, with a fresh token, from any process at any moment). None for a
    referee's request, whose token is never replaced."""
    token = bearer_token()
    if audience.seat is None or token is None:
        return None
    seat, seating = audience.seat, lobby().seating
    return lambda game: seating.seat_of(game_id, token, game) == seat


def loaded_game(game_id: str) -> Game | None:
    """The game as this request's guard loaded it (the request's own copy), or None."""
    loaded = g.get("loaded_game")
    return loaded[1] if loaded is not None and loaded[0] == game_id else None


def acting_seat(audience: Audience, seat: int | None) -> int:
    """The seat a move is made for: a seat token acts for itself, a referee for any seat."""
    if audience.referee:
        if seat is None:
            raise Forbidden("A referee must name the seat the move is for (`seat`).")
        return seat
    if audience.seat is None:
        raise Unauthorized("Moves need a seat's bearer token.")
    if seat is not None and seat != audience.seat:
        raise Forbidden(f"Your token is seat {audience.seat}'s; it cannot act for seat {seat}.")
    return audience.seat
