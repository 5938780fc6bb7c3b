"""Errors of the application layer (the rules' own errors live in domain.core.errors)."""

from __future__ import annotations


class ServiceError(Exception):
    code = "service_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(ServiceError):
    code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"No game with id {game_id!r}.")


class VersionConflict(ServiceError):
    """The game moved on since the client read it; nothing was stored."""

    code = "version_conflict"

    def __init__(self, expected: int | None, current: int) -> None:
        super().__init__(
            f"The game is at version {current}, not {expected}; reload it and try again."
            if expected is not None else f"Another move was stored first (the game is now at version {current}); try again."
        )
        self.expected = expected
        self.current = current


class BadRequest(ServiceError):
    code = "bad_request"


class IdempotencyKeyReused(ServiceError):
    """The same Idempotency-Key came with a different request."""

    code = "idempotency_key_reused"

    def __init__(self, key: str) -> None:
        super().__init__(f"Idempotency-Key {key!r} was already used for a different request; use a new key for a new move.")


class NoSuchVersion(ServiceError):
    """Time travel asked for a version the game has not reached."""

    code = "bad_version"

    def __init__(self, at: int, current: int) -> None:
        super().__init__(f"There is no version {at} yet: the game is at version {current}.")
        self.current = current


class NoSuchSeat(ServiceError):
    """A seat number beyond the game's seats."""

    code = "bad_seat"

    def __init__(self, seat: int, seats: int) -> None:
        super().__init__(f"There is no seat {seat} in this game: its seats are 0 to {seats - 1}.")
