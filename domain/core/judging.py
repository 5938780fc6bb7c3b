"""What every judge of a referee action or takeback checks, shared by `referee.py` and
`takeover.py`: the situation an action is judged in, who is a referee, and the fields every
action carries (a seat, a text, a whole number). It imports neither of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import log
from domain.core.decider import Decider
from domain.core.errors import IllegalMove, MalformedMove

REFEREE_PREFIX = "referee:"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$")


def referee_actor(name: str) -> str:
    """`referee:NAME`; a name is 1–64 letters, digits, spaces, `._@-`, starting alphanumeric."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise MalformedMove("bad_referee", "A referee's name is 1–64 letters, digits, spaces or ._@- (starting with a letter or digit).")
    return REFEREE_PREFIX + name


def referee_of(actor: str) -> str | None:
    return actor[len(REFEREE_PREFIX):] if actor.startswith(REFEREE_PREFIX) else None


@dataclass(frozen=True)
class Situation:
    """What the rules of an action look at: the game's full records so far and the state
    after the last of them."""

    records: Sequence[dict[str, Any]]
    decider: Decider[Any]
    state: Any

    @property
    def version(self) -> int:
        return len(self.records)


def require_referee(actor: str) -> str:
    name = referee_of(actor)
    if name is None:
        raise IllegalMove("referee_only", "Only a referee may do this.")
    referee_actor(name)
    return name


def seat_count(situation: Situation) -> int:
    return len(log.created_of(situation.records[0]).seats)


def seat_in(situation: Situation, seat: Any) -> int:
    if not is_int(seat) or not 0 <= seat < seat_count(situation):
        raise MalformedMove("bad_seat", f"`seat` must be a seat of this game, 0 to {seat_count(situation) - 1}.")
    return int(seat)


def text_field(value: Any, name: str, limit: int, required: bool = True) -> str:
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        need = "a non-empty text" if required else "a text"
        raise MalformedMove("bad_field", f"`{name}` must be {need} of at most {limit} characters.")
    return value


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
