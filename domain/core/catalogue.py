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
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, Union

from domain.core.codec import decode, decoder
from domain.core.errors import RecordError
from domain.core.events import Event, Secret, Untyped, record_key
from domain.core.state import Frozen, frozen
from domain.core.upcasting import check, upcast


class UnknownKind(RecordError):
    """A record (or an event handed to `evolve`) of a kind the game does not declare."""

    def __init__(self, kind: str, where: str) -> None:
        super().__init__("unknown_kind", f"{where} has no event kind {kind!r}", None)
        self.kind = kind


def declared_by(mechanisms: Sequence[ModuleType]) -> tuple[type[Event], ...]:
    """The kinds a game's modules declare, each module's `KINDS` in the modules' order (a game
    laid out by mechanism keeps a rule's events beside it, `docs/architecture.md`)."""
    return tuple(kind for module in mechanisms for kind in module.KINDS)


def applied_by(mechanisms: Sequence[ModuleType]) -> dict[type[Event], Callable[..., Any]]:
    """Each kind's state change, from the `APPLY` of the modules that declare one. A kind two
    modules apply is a mistake, refused here rather than one handler quietly replacing the other."""
    handlers: dict[type[Event], Callable[..., Any]] = {}
    for module in mechanisms:
        for kind, apply in getattr(module, "APPLY", {}).items():
            if kind in handlers:
                raise TypeError(f"{kind.__name__} is applied by two modules, {module.__name__} among them")
            handlers[kind] = apply
    return handlers


class Catalogue:
    """Event kinds by name. Catalogues add up: `CORE + Catalogue(...)`."""

    def __init__(self, *kinds: type[Event], name: str = "") -> None:
        self.name = name
        self.kinds: dict[str, type[Event]] = {}
        self._sums: dict[int, tuple[Catalogue, Catalogue]] = {}
        self._quick: dict[str, Quick] = {}
        """Each kind read back -> how its record's data is built (`_quick_of`)."""
        for kind in kinds:
            self._add(kind)

    def _add(self, kind: type[Event]) -> None:
        if not (isinstance(kind, type) and issubclass(kind, Event) and dataclasses.is_dataclass(kind)):
            raise TypeError(f"{kind!r} is not an Event dataclass")
        if kind.kind in self.kinds and self.kinds[kind.kind] is not kind:
            raise TypeError(f"two event kinds are named {kind.kind!r}")
        check(kind)
        self.kinds[kind.kind] = kind
        self._quick.pop(kind.kind, None)

    def __getstate__(self) -> dict[str, Any]:
        # The functions written out per kind are made again where a copy is read, as needed.
        return {**self.__dict__, "_quick": {}}

    def _quick_of(self, kind: str) -> Quick:
        """How a record of `kind` is built when its data fits: `_quick`, after the upcast of
        a kind whose layout changed; for a kind not declared or without one, nothing."""
        cls = self.kinds.get(kind)
        quick = None if cls is None else _quick(cls)
        if cls is None or quick is None:
            return _not_quick
        if cls.class_version == 1:  # most kinds never changed layout: no copy, no look
            return quick
        kind_cls, built = cls, quick
        return lambda data, secrets, automatic: built(upcast(kind_cls, data), secrets, automatic)

    def __add__(self, other: Catalogue) -> Catalogue:
        # Every record read asks for a game's catalogue (the core's plus its own): join once.
        known = self._sums.get(id(other))
        if known is not None and known[0] is other:
            return known[1]
        joined = Catalogue(*self.kinds.values(), name=other.name or self.name)
        for kind in other.kinds.values():
            joined._add(kind)
        self._sums[id(other)] = (other, joined)
        return joined

    def __contains__(self, kind: object) -> bool:
        return kind in self.kinds

    def __iter__(self) -> typing.Iterator[type[Event]]:
        return iter(self.kinds.values())

    def __len__(self) -> int:
        return len(self.kinds)

    def event(self, kind: str, data: Mapping[str, Any], secrets: Iterable[Secret] = (), automatic: bool = False) -> Event:
        """The typed event a record holds; an `Untyped` one for a kind not declared here.
        Data in an older layout of its kind is upcast first, on a copy (`upcasting.py`)."""
        if type(secrets) is not tuple:
            secrets = tuple(secrets)
        quick = self._quick.get(kind)
        if quick is None:
            quick = self._quick[kind] = self._quick_of(kind)
        made = quick(data, secrets, automatic)
        if made is not None:
            return made
        cls = self.kinds.get(kind)
        if cls is None:
            return Untyped(kind, dict(data), secrets=secrets, automatic=automatic)
        if cls.class_version != 1:  # most kinds never changed layout: no copy, no look
            data = upcast(cls, data)
        readers = _readers(cls)
        if not readers.keys() >= data.keys():
            unknown = data.keys() - readers.keys()
            raise RecordError("bad_event_data", f"{kind} has no field {', '.join(sorted(unknown))}", None)
        try:
            values = {}
            for key, value in data.items():
                name, hint = readers[key]
                values[name] = value if hint is None else decode(hint, value)
            return _maker(cls)(values, secrets, automatic)
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
            hint = hints[f.name]
            if f.default is None:  # left out of `data` while None, so never recorded as null
                hint = _without_none(hint)
            prop = json_schema(hint)
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
_READERS: dict[type, dict[str, tuple[str, Any]]] = {}
_AS_STORED = (int, str, bool, float, Any)


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _readers(cls: type) -> dict[str, tuple[str, Any]]:
    """A kind's record keys -> its field names and the hint to decode the value with (None
    where the stored JSON already is the value). Every record read back asks: worked out
    once per kind."""
    if cls not in _READERS:
        hints = _hints(cls)
        _READERS[cls] = {record_key(f): (f.name, None if _as_stored(hints[f.name]) else hints[f.name])
                         for f in dataclasses.fields(cls) if f.name not in Event.BASE_FIELDS}
    return _READERS[cls]


_MAKERS: dict[type, typing.Callable[[dict[str, Any], tuple[Secret, ...], bool], Event]] = {}


def _maker(cls: type[Event]) -> typing.Callable[[dict[str, Any], tuple[Secret, ...], bool], Event]:
    """How a kind's event is built from its record: what the dataclass's `__init__` does
    (defaults, a missing field refused, mappings frozen by `Frozen.__post_init__`) without
    its frozen-attribute checks, which were most of the cost of reading a record. A kind
    with its own `__post_init__` or fields outside `__init__` is built by its `__init__`."""
    if cls in _MAKERS:
        return _MAKERS[cls]
    fields = dataclasses.fields(cls)
    if getattr(cls, "__post_init__", None) is not Frozen.__post_init__ or any(not f.init for f in fields) \
            or not hasattr(cls, "__dict__") or "__slots__" in cls.__dict__:
        def made(values: dict[str, Any], secrets: tuple[Secret, ...], automatic: bool) -> Event:
            return cls(**values, secrets=secrets, automatic=automatic)
    else:
        own = [f for f in fields if f.name not in Event.BASE_FIELDS]
        defaults = {f.name: f.default for f in own if f.default is not dataclasses.MISSING}
        factories = {f.name: f.default_factory for f in own if f.default_factory is not dataclasses.MISSING}
        required = frozenset(f.name for f in own if f.name not in defaults and f.name not in factories)

        def made(values: dict[str, Any], secrets: tuple[Secret, ...], automatic: bool) -> Event:
            if not required <= values.keys():
                raise TypeError(f"{cls.__name__} lacks {', '.join(sorted(required - values.keys()))}")
            event = object.__new__(cls)
            held = event.__dict__
            held.update(defaults)
            for name, factory in factories.items():
                if name not in values:
                    held[name] = factory()  # type: ignore[misc]
            held.update(values)
            held["secrets"], held["automatic"] = secrets, automatic
            Frozen.__post_init__(event)
            return event
    _MAKERS[cls] = made
    return made


Quick = typing.Callable[[Mapping[str, Any], tuple[Secret, ...], bool], Event | None]
_QUICK: dict[type, Quick | None] = {}


def _quick(cls: type[Event]) -> Quick | None:
    """A kind's event built straight from its record's data, for data that fits the kind
    (every key a field's, every required field there); None for data that does not, which
    the general path refuses with its reason. It is `_maker` and `_readers` in one pass,
    written out for the kind as `dataclasses` writes a class's `__init__`: every record read
    back is built here, and a loop over the kind's fields with their defaults and readers
    cost as much again as the building. Kinds `_maker` builds by `__init__` have none."""
    if cls in _QUICK:
        return _QUICK[cls]
    fields = dataclasses.fields(cls)
    if getattr(cls, "__post_init__", None) is not Frozen.__post_init__ or any(not f.init for f in fields) \
            or not hasattr(cls, "__dict__") or "__slots__" in cls.__dict__:
        _QUICK[cls] = None
        return None
    readers = _readers(cls)
    by_name = {name: (key, hint) for key, (name, hint) in readers.items()}
    scope: dict[str, Any] = {"cls": cls, "new": object.__new__, "frozen": frozen, "missing": object()}
    required = [f for f in fields if f.name not in Event.BASE_FIELDS
                and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    # Every key read is a field's and keys are distinct, so the data holds no other key
    # exactly when it has as many keys as fields were found in it.
    lines = [f"    found = {len(required)}"]
    held = []
    for index, f in enumerate(f for f in fields if f.name not in Event.BASE_FIELDS):
        key, hint = by_name[f.name]
        value = f"v{index}"
        if f in required:
            lines.append(f"    {value} = data[{key!r}]")
            if hint is not None:
                scope[f"read{index}"] = decoder_of(hint)
                lines.append(f"    {value} = read{index}({value})")
        else:
            scope[f"default{index}"] = f.default if f.default_factory is dataclasses.MISSING else f.default_factory
            made = f"default{index}" if f.default_factory is dataclasses.MISSING else f"default{index}()"
            lines += [f"    {value} = data.get({key!r}, missing)",
                      f"    if {value} is missing:", f"        {value} = {made}",
                      "    else:", "        found += 1"]
            if hint is not None:
                scope[f"read{index}"] = decoder_of(hint)
                lines.append(f"        {value} = read{index}({value})")
        lines.append(f"    if type({value}) is dict:")
        lines.append(f"        {value} = frozen({value})")
        held.append(f"{f.name}={value}")
    source = "\n".join([
        "def quick(data, secrets, automatic):", "    try:", *("    " + line for line in lines),
        "    except (TypeError, ValueError, KeyError):", "        return None",
        "    if found != len(data):", "        return None",
        "    event = new(cls)",
        f"    event.__dict__.update({', '.join(held)}{', ' if held else ''}secrets=secrets, automatic=automatic)",
        "    return event"])
    exec(source, scope)  # the source is written above from the kind's own fields
    quick = typing.cast(Quick, scope["quick"])
    _QUICK[cls] = quick
    return quick


def _not_quick(data: Mapping[str, Any], secrets: tuple[Secret, ...], automatic: bool) -> Event | None:
    return None


def decoder_of(hint: Any) -> typing.Callable[[Any], Any]:
    """`codec.decode` for one hint, worked out once where the hint allows."""
    try:
        return decoder(hint)
    except TypeError:
        return lambda value: decode(hint, value)


def _as_stored(hint: Any) -> bool:
    """Whether a value typed `hint` reads back as its JSON (mappings are frozen by the event)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in _AS_STORED or hint is type(None) or origin is typing.Literal:
        return True
    if origin in (Union, types.UnionType):
        return all(_as_stored(a) for a in args)
    return origin is dict and args[0] is str and _as_stored(args[1])


def _without_none(hint: Any) -> Any:
    """`X` of `X | None` (a wider union is left as it is)."""
    members = [a for a in typing.get_args(hint) if a is not type(None)]
    return members[0] if len(members) == 1 else hint
