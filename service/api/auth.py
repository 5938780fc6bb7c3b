"""Who is calling: a seat's or the referee's bearer token, or the public (no token)."""

from __future__ import annotations

from enum import Enum

from flask import current_app, request
from werkzeug.exceptions import Forbidden, Unauthorized

from domain.core.events import PUBLIC, Audience
from service.aggregate import Game
from service.commands import SeatToken
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


def audience_of(game_id: str, caller: Caller) -> tuple[Audience, Game | None]:
    """The caller's audience for this game, refused unless it is one `caller` admits:
    404 for an unknown game first, then 401 without a valid token, 403 with the wrong one;
    with the game as the token was checked against (None where no token was checked)."""
    token = bearer_token()
    if caller is Caller.INVITE or (caller is Caller.PUBLIC and token is None):
        return PUBLIC, None  # nothing to check here; the view answers 404 for an unknown game
    # The request's one load of its game: the view decides and answers from this copy.
    game = lobby().caboose.game(game_id)
    if token is None:
        raise Unauthorized(f"This needs {caller.value}.")
    audience = lobby().seating.audience(game_id, token, game)
    if audience is None:
        raise Unauthorized("This token is not valid for this game.")
    if caller is Caller.REFEREE and not audience.referee:
        raise Forbidden("Only the game's referee may do this; a seat's token may not.")
    if caller is Caller.SEAT and audience.seat is None:
        raise Forbidden("This belongs to a seat: use that seat's bearer token, not the referee's.")
    return audience, game


def seat_token(audience: Audience, loaded: Game | None) -> SeatToken | None:
    """The request's seat token as the guard let it in against `loaded` (`commands.SeatToken`);
    None for the public's or a referee's request, whose token is never replaced."""
    if audience.seat is None or loaded is None:
        return None
    return SeatToken(audience.seat, loaded.version)


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
