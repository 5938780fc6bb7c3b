"""Who is calling: a seat's or the referee's bearer token, or the public (no token)."""

from __future__ import annotations

import hashlib

from flask import current_app, request
from werkzeug.exceptions import Forbidden, TooManyRequests, Unauthorized

from domain.core.events import Audience
from service.lobby import Lobby


def lobby() -> Lobby:
    return current_app.extensions["caboose.lobby"]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("The Authorization header must be `Bearer <token>`.")
    return token.strip()


def caller(game_id: str) -> Audience:
    """The caller's audience for this game; 401 for a token that is not this game's."""
    lobby().caboose.game(game_id)  # 404 first for an unknown game
    limit(game_id)
    audience = lobby().seating.audience(game_id, bearer_token())
    if audience is None:
        raise Unauthorized("This token is not valid for this game.")
    return audience


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


def limit(game_id: str) -> None:
    token = request.headers.get("Authorization") or request.remote_addr or "?"
    client = hashlib.sha256(token.encode()).hexdigest()
    wait = current_app.extensions["caboose.ratelimit"].allow(client, game_id)
    if wait is not None:
        error = TooManyRequests(f"Too many requests to this game; try again in {wait:.0f} s.")
        error.retry_after = max(1, round(wait))
        raise error
