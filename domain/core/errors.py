"""Typed errors of the rules. Each carries a stable machine `code` and a sentence a
player understands; the service maps them to HTTP problems and CLI messages. `params`
holds the particulars a sentence in another language needs (the service words the code
in the reader's language; the rules stay in English)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def counted(count: int, noun: str) -> str:
    """`1 card`, `3 cards`: a number and a regular noun in a message."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


class RuleError(Exception):
    """Base of every error the rules raise about a move or a record."""

    code: str = "rule_error"

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})

    def __str__(self) -> str:
        return self.message


class IllegalMove(RuleError):
    """A well-formed move the rules do not allow now (wrong turn, unaffordable, closed route)."""


class MalformedMove(RuleError):
    """A move that is not a move of this game: unknown type, missing or mistyped fields.
    `field` names the offending field (`cards.red`, `keep[1]`) where there is one."""

    def __init__(self, code: str, message: str, field: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code, message, params)
        self.field = field


class NotYourTurn(IllegalMove):
    """The seat is not among those who may act now. With the seats' `names` and the seats
    that may act, it says who by name, as a score sheet and the players do."""

    def __init__(self, seat: int, names: Sequence[str] = (), active: Iterable[int] = ()) -> None:
        def name(index: int) -> str:
            return names[index] if 0 <= index < len(names) else f"seat {index}"
        to_move = ", ".join(name(index) for index in sorted(active))
        told = f"It is not {name(seat)}'s turn to act" + (f"; to move: {to_move}." if to_move else ".")
        super().__init__("not_your_turn", told, {"seat": seat, "name": name(seat), "to_move": to_move or "—"})
        self.seat = seat


class GameOver(IllegalMove):
    def __init__(self) -> None:
        super().__init__("game_over", "The game has ended; no more moves can be made.")


class RecordError(RuleError):
    """A game record that does not verify; `version` names the first bad event."""

    def __init__(self, code: str, message: str, version: int | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code, message, params)
        self.version = version
