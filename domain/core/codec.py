"""Plain-JSON encoding of game states, driven by their type hints.

Snapshots store a game's state; JSON has no tuples, frozensets or integer keys, so the
types come back from the dataclass annotations rather than from tags in the data.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union

T = TypeVar("T")


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((encode(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(hint: Any, data: Any) -> Any:
    """Rebuild a value of type `hint` from what `encode` produced."""
    if data is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return decode(inner[0], data) if len(inner) == 1 else data
    if dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        return hint(**{name: decode(hints[name], data[name]) for name in data})
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin is frozenset:
        return frozenset(decode(args[0], v) for v in data)
    if origin is list:
        return [decode(args[0], v) for v in data]
    if origin is dict:
        key_type, value_type = args
        return {decode_key(key_type, k): decode(value_type, v) for k, v in data.items()}
    return data


def decode_key(hint: Any, key: str) -> Any:
    return int(key) if hint is int else key


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
