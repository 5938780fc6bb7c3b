"""Domain events as the rules produce them, and the audiences that may read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Secret:
    """Content only the seats in `to` (and referees) may see; `to=()` is referees only."""

    to: tuple[int, ...]
    value: Any


@dataclass(frozen=True)
class Event:
    """One thing that happened. `automatic` events are the game's own steps (refills,
    scoring) and are stored with actor `system` even inside a seat's move."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    secrets: tuple[Secret, ...] = ()
    automatic: bool = False

    def secret(self, index: int = 0) -> Any:
        return self.secrets[index].value


@dataclass(frozen=True)
class Audience:
    """Who is looking: one seat, a referee (sees everything) or the public (no token)."""

    seat: int | None = None
    referee: bool = False

    def sees(self, to: tuple[int, ...] | list[int]) -> bool:
        return self.referee or (self.seat is not None and self.seat in to)

    @property
    def label(self) -> str:
        if self.referee:
            return "referee"
        return "public" if self.seat is None else f"seat:{self.seat}"

    @classmethod
    def parse(cls, text: str) -> Audience:
        """`public`, `referee`, or `seat:N`."""
        if text == "public":
            return PUBLIC
        if text == "referee":
            return REFEREE
        if text.startswith("seat:") and text[5:].isdigit():
            return cls(seat=int(text[5:]))
        raise ValueError(f"unknown audience {text!r}: use public, referee or seat:N")


PUBLIC = Audience()
REFEREE = Audience(referee=True)
