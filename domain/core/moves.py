"""Checking the shape of a move before a game reads it: the same sentences for every game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.errors import MalformedMove

Fields = Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]
"""Per move type: its required fields and its optional ones."""


def move_type(move: Any, fields: Fields) -> str:
    """The move's type, once it is an object of a known type with exactly its fields."""
    if not isinstance(move, Mapping):
        raise MalformedMove("not_an_object", "A move must be a JSON object with a \"type\" field.")
    kind = move.get("type")
    if kind not in fields:
        raise MalformedMove("unknown_move_type", f"Unknown move type {kind!r}; a move is one of: {', '.join(fields)}.")
    required, optional = fields[kind]
    for name in required:
        if name not in move:
            raise MalformedMove("missing_field", f"A {kind} move needs a {name!r} field.")
    extra = sorted(set(move) - {"type", *required, *optional})
    if extra:
        raise MalformedMove("unexpected_field", f"A {kind} move has no field {extra[0]!r}.")
    return str(kind)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_field(move: Mapping[str, Any], name: str, kind: str) -> int:
    value = move[name]
    if not is_int(value):
        raise MalformedMove("bad_field", f"{name!r} of a {kind} move must be a whole number, not {value!r}.")
    return int(value)


def str_field(move: Mapping[str, Any], name: str, kind: str) -> str:
    value = move[name]
    if not isinstance(value, str):
        raise MalformedMove("bad_field", f"{name!r} of a {kind} move must be a string, not {value!r}.")
    return value
