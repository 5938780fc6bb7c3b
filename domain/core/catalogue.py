"""The catalogue of event kinds: which kinds exist, their fields, and their JSON Schema.

Every stored record names its `kind`; a game's catalogue (the core's kinds plus its own)
turns the record's `data` and `secrets` back into that kind's dataclass, so the rules only
ever see typed events and a misspelt kind is an error, not a silently ignored event. The
schema each kind publishes is derived from the same dataclass (`caboose catalogue`).
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Union

from domain.core.codec import decode
from domain.core.errors import RecordError
from domain.core.events import Event, Secret, Untyped, record_key


class UnknownKind(RecordError):
    """A record (or an event handed to `evolve`) of a kind the game does not declare."""

    def __init__(self, kind: str, where: str) -> None:
        super().__init__("unknown_kind", f"{where} has no event kind {kind!r}", None)
        self.kind = kind


class Catalogue:
    """Event kinds by name. Catalogues add up: `CORE + Catalogue(...)`."""

    def __init__(self, *kinds: type[Event], name: str = "") -> None:
        self.name = name
        self.kinds: dict[str, type[Event]] = {}
        for kind in kinds:
            self._add(kind)

    def _add(self, kind: type[Event]) -> None:
        if not (isinstance(kind, type) and issubclass(kind, Event) and dataclasses.is_dataclass(kind)):
            raise TypeError(f"{kind!r} is not an Event dataclass")
        if kind.kind in self.kinds and self.kinds[kind.kind] is not kind:
            raise TypeError(f"two event kinds are named {kind.kind!r}")
        self.kinds[kind.kind] = kind

    def __add__(self, other: Catalogue) -> Catalogue:
        joined = Catalogue(*self.kinds.values(), name=other.name or self.name)
        for kind in other.kinds.values():
            joined._add(kind)
        return joined

    def __contains__(self, kind: object) -> bool:
        return kind in self.kinds

    def __iter__(self) -> typing.Iterator[type[Event]]:
        return iter(self.kinds.values())

    def __len__(self) -> int:
        return len(self.kinds)

    def event(self, kind: str, data: Mapping[str, Any], secrets: Iterable[Secret] = (), automatic: bool = False) -> Event:
        """The typed event a record holds; an `Untyped` one for a kind not declared here."""
        cls = self.kinds.get(kind)
        if cls is None:
            return Untyped(kind, dict(data), secrets=tuple(secrets), automatic=automatic)
        hints = _hints(cls)
        names = {record_key(f): f.name for f in dataclasses.fields(cls) if f.name not in Event.BASE_FIELDS}
        unknown = set(data) - set(names)
        if unknown:
            raise RecordError("bad_event_data", f"{kind} has no field {', '.join(sorted(unknown))}", None)
        try:
            values = {names[key]: decode(hints[names[key]], value) for key, value in data.items()}
            return cls(**values, secrets=tuple(secrets), automatic=automatic)
        except (TypeError, ValueError, KeyError) as exc:
            raise RecordError("bad_event_data", f"{kind}: {exc}", None) from exc

    def schema(self, kind: str) -> dict[str, Any]:
        """The JSON Schema of the `data` of `kind`."""
        cls = self.kinds[kind]
        hints = _hints(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        for f in dataclasses.fields(cls):
            if f.name in Event.BASE_FIELDS:
                continue
            prop = json_schema(hints[f.name])
            if meaning := f.metadata.get("meaning"):
                prop = {**prop, "description": meaning}
            properties[record_key(f)] = prop
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(record_key(f))
        return {"title": kind, "description": meaning_of(cls), "type": "object", "properties": properties,
                "required": required, "additionalProperties": False}


def meaning_of(cls: type) -> str:
    """A kind's meaning: the first paragraph of its docstring."""
    doc = inspect.getdoc(cls) or ""
    return " ".join(doc.split("\n\n")[0].split())


def json_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a value typed `hint`, as `codec.encode` writes it."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return {}
    if origin in (Union, types.UnionType):
        members = [json_schema(a) for a in args]
        return {"anyOf": members}
    if hint is type(None):
        return {"type": "null"}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is float:
        return {"type": "number"}
    if hint is str:
        return {"type": "string"}
    if origin in (tuple, list, frozenset) or hint in (tuple, list, frozenset):
        if origin is tuple and args and args[-1] is not Ellipsis:
            return {"type": "array", "prefixItems": [json_schema(a) for a in args], "minItems": len(args), "maxItems": len(args)}
        return {"type": "array", "items": json_schema(args[0]) if args else {}}
    if origin in (dict, Mapping) or hint in (dict, Mapping) or origin is typing.get_origin(Mapping[str, int]):
        value = json_schema(args[1]) if args else {}
        return {"type": "object", "additionalProperties": value}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        inner = _hints(hint)
        return {"type": "object", "properties": {f.name: json_schema(inner[f.name]) for f in dataclasses.fields(hint)},
                "required": [f.name for f in dataclasses.fields(hint) if f.default is dataclasses.MISSING
                             and f.default_factory is dataclasses.MISSING], "additionalProperties": False}
    raise TypeError(f"no JSON Schema for {hint!r}")


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    # Resolving the hints evaluates every annotation's text: once per kind, not per record.
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints
