"""Plain-JSON encoding of game states, driven by their type hints.

Snapshots store a game's state; JSON has no tuples, frozensets or integer keys, so the
types come back from the dataclass annotations rather than from tags in the data. A field
typed as a union of several types (`Build | Auction`) is decoded as the one member the data
fits: for dataclasses, the one whose fields the data's keys are. Snapshots carry no tags, so
two dataclasses of one union must differ in their fields.
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
        return decode(inner[0] if len(inner) == 1 else _member(inner, data), data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
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


def _member(members: list[Any], data: Any) -> Any:
    """The member of a union `data` was encoded from."""
    fitting = [m for m in members if _fits(m, data)]
    classes = [m for m in fitting if isinstance(m, type) and dataclasses.is_dataclass(m)]
    if len(classes) > 1:
        raise TypeError(
            f"cannot tell which of {', '.join(c.__name__ for c in classes)} the keys {sorted(data)} encode; "
            "give the dataclasses of a union different fields"
        )
    if classes:
        return classes[0]
    # Plain values (ints, strings, lists) decode alike whichever member they fit.
    return fitting[0] if fitting else Any


def _fits(hint: Any, data: Any) -> bool:
    if dataclasses.is_dataclass(hint):
        if not isinstance(data, dict):
            return False
        fields = dataclasses.fields(hint)
        required = {f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        return required <= data.keys() <= {f.name for f in fields}
    kind = typing.get_origin(hint) or hint
    if kind in (tuple, list, frozenset):
        return isinstance(data, list)
    if kind is dict:
        return isinstance(data, dict)
    if kind is bool:
        return isinstance(data, bool)
    if kind is int:
        return isinstance(data, int) and not isinstance(data, bool)
    if kind is float:
        return isinstance(data, (int, float)) and not isinstance(data, bool)
    return not isinstance(kind, type) or isinstance(data, kind)


def decode_key(hint: Any, key: str) -> Any:
    return int(key) if hint is int else key


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
