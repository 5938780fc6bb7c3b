"""Move notation: one short human-readable line per move, like chess's SAN.

Each game reads and writes its moves in its own words through its `Notation` (the
`Decider.notation` hook), for the CLI, the transcription prompt, score sheets, the viewer's
event list and the export's text form. `parse(format(move)) == move` for every legal move.

The default here is the generic form every game gets from its move definitions:
`Ann: claim_route route=denver-omaha color=red`, each field as `name=value` (a bare word
where it is one, JSON otherwise). A game overrides `format` and `parse` with its own short
forms and may keep accepting the generic form as a fallback (`generic_parse`).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain.core.errors import MalformedMove

S = TypeVar("S")

_BARE = re.compile(r"^[A-Za-z0-9_\-.]+$")


@dataclass(frozen=True)
class Line:
    """A parsed line: which seat makes which move."""

    seat: int
    move: dict[str, Any]


class Notation(Generic[S]):
    """A game's notation. `seats` are the seats' names, in seat order."""

    def format(self, state: S, seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
        return generic_format(seats, seat, move)

    def parse(self, state: S, seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> Line:
        """The move `text` names. `active` are the seats that may move now, so a line may
        leave out the seat's name when only one may move."""
        return generic_parse(seats, text, active)


def generic_format(seats: Sequence[str], seat: int, move: dict[str, Any]) -> str:
    fields = " ".join(f"{key}={_value(value)}" for key, value in move.items() if key != "type")
    return f"{seats[seat]}: {move['type']}{' ' + fields if fields else ''}"


def _value(value: Any) -> str:
    if isinstance(value, str) and _BARE.match(value) and not value.isdigit():
        return value
    return shlex.quote(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def split_seat(seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> tuple[int, str]:
    """The seat a line starts with (its name, or `seat N`, with or without a colon), and
    the rest. Without a name, the one active seat."""
    stripped = text.strip()
    lowered = stripped.lower()
    for seat, name in sorted(enumerate(seats), key=lambda pair: -len(pair[1])):
        if lowered.startswith(name.lower()) and (len(stripped) == len(name) or not stripped[len(name)].isalnum()):
            return seat, stripped[len(name):].lstrip(" :")
    match = re.match(r"^seat\s*(\d+)\s*:?\s*", stripped, re.IGNORECASE)
    if match and int(match.group(1)) < len(seats):
        return int(match.group(1)), stripped[match.end():]
    if len(active) == 1:
        return next(iter(active)), stripped
    names = ", ".join(seats)
    raise MalformedMove("bad_notation", f"start the line with the seat that moves ({names}): {text.strip()!r}")


def generic_parse(seats: Sequence[str], text: str, active: frozenset[int] = frozenset()) -> Line:
    seat, rest = split_seat(seats, text, active)
    try:
        words = shlex.split(rest)
    except ValueError as error:
        raise MalformedMove("bad_notation", f"cannot read {rest!r}: {error}") from None
    if not words:
        raise MalformedMove("bad_notation", f"no move after the seat's name in {text.strip()!r}")
    move: dict[str, Any] = {"type": words[0]}
    for word in words[1:]:
        key, eq, raw = word.partition("=")
        if not eq or not key:
            raise MalformedMove("bad_notation", f"expected name=value, found {word!r} in {text.strip()!r}")
        try:
            move[key] = json.loads(raw)
        except ValueError:
            move[key] = raw
    return Line(seat, move)
