"""Plain-JSON encoding of game states, driven by their type hints.

Snapshots store a game's state; JSON has no tuples, frozensets or integer keys, so the
types come back from the dataclass annotations rather than from tags in the data. A field
typed as a union of several types (`Build | Auction`) is decoded as the one member the data
fits: for dataclasses, the one whose fields the data's keys are. Snapshots carry no tags, so
two dataclasses of one union must differ in their fields. A dataclass stored in an older
layout of its own is upcast (on a copy) before it is read (`upcasting.py`).
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union

from domain.core.upcasting import check, current_version, upcast

T = TypeVar("T")


_ATOMS = frozenset({str, int, bool, float, type(None)})
"""What `encode` gives back as it is, told by exact type first: most values in a state or an
event are these, and asking each whether it is a dataclass came first."""


def encode(value: Any) -> Any:
    if type(value) in _ATOMS:
        return value
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
    try:
        read = decoder(hint)
    except TypeError:  # a hint that cannot be a cache key: worked out afresh
        return _decode(hint, data)
    return read(data)


def _decode(hint: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return decode(inner[0] if len(inner) == 1 else _member(inner, data), data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        data = upcast(hint, data)
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


Read = typing.Callable[[Any], Any]


def _as_is(data: Any) -> Any:
    return data


@cache
def decoder(hint: Any) -> Read:
    """`decode` for one hint, worked out once: every record read and every snapshot loaded
    decodes values of the same few hints, and asking `typing` about each hint again for every
    value was most of the cost of turning a record into its event. Does exactly what
    `_decode` does, with the same errors for data that does not fit."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:
            return lambda data: None if data is None else decode(_member(inner, data), data)
        return _or_none(decoder(inner[0]))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _or_none(_dataclass_reader(hint))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = decoder(args[0])
            return _or_none(tuple if item is _as_is else lambda data: tuple([item(v) for v in data]))
        items = [decoder(a) for a in args]
        return _or_none(lambda data: tuple([read(v) for read, v in zip(items, data, strict=True)]))
    if origin is frozenset:
        item = decoder(args[0])
        return _or_none(frozenset if item is _as_is else lambda data: frozenset([item(v) for v in data]))
    if origin is list:
        item = decoder(args[0])
        return _or_none(list if item is _as_is else lambda data: [item(v) for v in data])
    if origin is dict:
        key_type, value_type = args
        value = decoder(value_type)
        if key_type is int:
            return _or_none(lambda data: {int(k): value(v) for k, v in data.items()})
        key = decoder(key_type)
        return _or_none(lambda data: {key(k): value(v) for k, v in data.items()})
    if hint is str:
        return _interned
    return _as_is


def _interned(data: Any) -> Any:
    """A string read once for all: the same card, city and route names fill every cached
    game's state, and JSON gives each occurrence its own copy."""
    return sys.intern(data) if type(data) is str else data


def _or_none(read: Read) -> Read:
    return lambda data: None if data is None else read(data)


def _dataclass_reader(cls: type) -> Read:
    fields: dict[str, Read] = {}
    layouts = current_version(cls) != 1
    if layouts:
        check(cls)

    def read(data: Any) -> Any:
        if not fields:  # filled on first use: a dataclass may refer to itself
            fields.update({name: _field(hint) for name, hint in _hints(cls).items()})
        if layouts:  # stored in an older layout of the class: read as today's (`upcasting.py`)
            data = upcast(cls, data)
        return cls(**{name: fields[name](data[name]) for name in data})

    return read


def _field(hint: Any) -> Read:
    try:
        return decoder(hint)
    except TypeError:
        return lambda data: _decode(hint, data)


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
