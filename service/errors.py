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
    """The game moved on since the client read it; nothing was stored. `expected` is the
    version (or versions) the client asked for, None when it asked for none."""

    code = "version_conflict"

    def __init__(self, expected: int | frozenset[int] | None, current: int) -> None:
        if expected is None:
            message = f"Another move was stored first (the game is now at version {current}); try again."
        else:
            wanted = sorted([expected] if isinstance(expected, int) else expected)
            named = ", ".join(map(str, wanted)) if wanted else "no version of this game (weak or non-numeric tags never match)"
            message = f"The game is at version {current}, not {named}; reload it and try again."
        super().__init__(message)
        self.expected = expected
        self.current = current


class TokenReplaced(ServiceError):
    """The seat's token was replaced (its seat handed back from a bot with a fresh token)
    after the request was let in; nothing was stored."""

    code = "token_replaced"

    def __init__(self) -> None:
        super().__init__("This token no longer speaks for the seat: a referee gave it a fresh token.")


class TokenShownOnce(ServiceError):
    """A retried hand-back whose seat has changed hands since it was stored: the fresh token
    it gave was shown once (only its hash is kept), and no other can stand in for it now."""

    code = "token_shown_once"


class BadRequest(ServiceError):
    code = "bad_request"


class IdempotencyKeyReused(ServiceError):
    """The same Idempotency-Key came with a different request."""

    code = "idempotency_key_reused"

    def __init__(self, key: str) -> None:
        super().__init__(f"Idempotency-Key {key!r} was already used for a different request; use a new key for a new move.")


class StoreInconsistent(ServiceError):
    """What the store holds contradicts what the game says of itself; nothing is answered
    from it (a client retrying later gets the truth)."""

    code = "store_inconsistent"


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


class Withheld(ServiceError):
    """The public asked for a game that continues the hidden cards of a game still running
    (a fork of it, or a record imported from one): until that game ends, this one is shown
    only with its own tokens."""

    code = "withheld"

    def __init__(self, game_id: str, running: str) -> None:
        super().__init__(f"Game {game_id} continues the hidden cards of game {running}, which is still running: until "
                         "that game ends, this one is shown only with its own seats' or referee's tokens.")
        self.running = running
