"""A game's moves, each declared once: its fields with their JSON types and constraints.

From one `MoveType` per move come the parser (a client's JSON object to the game's typed
command, refusing a bad shape with `MalformedMove` naming the field), the move's JSON Schema
(draft 2020-12, and within OpenAPI 3.0's subset: no `const`, no `if`) and, where the first
event of the move records its fields, `move_of`. The same sentences serve every game.

Parsing only checks shape: whether a well-formed move is allowed now is the rules' business.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.state import FrozenDict

JSONType = Literal["string", "integer", "array", "object"]
_WORDS = {"string": "a string", "integer": "a whole number", "array": "a list", "object": "an object"}
_LISTED = 12
"""An enumeration this short is spelled out in a refusal; a longer one is described."""


@dataclass(frozen=True)
class Field:
    """One field of a move (or the items / values of a list / object field)."""

    name: str
    type: JSONType
    description: str
    enum: tuple[Any, ...] | None = None
    """The only values allowed (for strings: names this game has)."""
    unknown: str = "bad_field"
    """The refusal's code for a value outside `enum`, e.g. `unknown_route`."""
    minimum: int | None = None
    maximum: int | None = None
    items: Field | None = None
    """For an array: what each item is."""
    keys: Field | None = None
    """For an object: what each key is (a string field with an `enum`)."""
    values: Field | None = None
    """For an object: what each value is."""
    shape: tuple[Field, ...] = ()
    """For an object with named fields (an item written as another move's fields): how its
    schema publishes them, each with its own type and whether it is required."""
    optional: bool = False
    when: tuple[str, Any] | None = None
    """(other field, value): this field is present exactly when the other one has that value."""
    recorded_as: str | None = None
    """Its key in the data of the move's first event, when that is not its name."""
    recorded: bool = True
    """Whether that event records it (so `move_of` gives it back)."""
    of_pack: bool = False
    """Its `enum` is the names of the game's content pack (routes, tickets, hexes, cards), which
    another pack names otherwise: `portable` publishes it without them."""

    @property
    def required(self) -> bool:
        return not self.optional and self.when is None

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": self.type, "description": self.description}
        if self.enum is not None:
            schema["enum"] = list(self.enum)
            if self.of_pack:
                schema[PACK_NAMES] = True
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.items is not None:
            schema["items"] = self.items.schema()
        if self.shape:
            schema["properties"] = {f.name: f.schema() for f in self.shape}
            schema["required"] = [f.name for f in self.shape if f.required]
            schema["additionalProperties"] = False
        elif self.keys is not None and self.keys.enum is not None:
            # Spelt as properties, not `propertyNames` (which OpenAPI 3.0 lacks).
            value = self.values.schema() if self.values is not None else {}
            schema["properties"] = {key: value for key in self.keys.enum}
            schema["additionalProperties"] = False
            if self.keys.of_pack:
                schema[PACK_KEYS] = value
        elif self.values is not None:
            schema["additionalProperties"] = self.values.schema()
        return schema

    def check(self, value: Any, path: str, kind: str) -> None:
        """Refuse `value` (at `path`, e.g. `cards.red`) unless it is of this field's type
        and within its constraints."""
        label = f"\"{path}\" of a {kind} move"
        if not _is(self.type, value):
            raise MalformedMove("bad_field", f"{label} must be {_WORDS[self.type]}, not {value!r}.", path)
        if self.enum is not None and value not in self.enum:
            choices = (f"one of {', '.join(map(str, self.enum))}" if len(self.enum) <= _LISTED
                       else self.description[0].lower() + self.description[1:].rstrip("."))
            raise MalformedMove(self.unknown, f"{label} must be {choices}, not {value!r}.", path)
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"from {low} to {high}" if low is not None and high is not None else (
                f"at least {low}" if low is not None else f"at most {high}")
            raise MalformedMove("bad_field", f"{label} must be {bounds}, not {value!r}.", path)
        if self.items is not None:
            for index, item in enumerate(value):
                self.items.check(item, f"{path}[{index}]", kind)
        for key, item in value.items() if self.type == "object" else ():
            if self.keys is not None:
                self.keys.check(key, f"{path}.{key}", kind)
            if self.values is not None:
                self.values.check(item, f"{path}.{key}", kind)


PACK_NAMES = "x-pack-names"
"""Marks an enumeration of a content pack's names in a published schema (`portable`)."""
PACK_KEYS = "x-pack-keys"
"""Marks an object keyed by a content pack's names; its value is the schema of each value."""


def portable(schema: Any) -> Any:
    """A published move schema that holds on every content pack of its game: an enumeration
    of the pack's names becomes a string with the first of them as its example (the map's
    own names are `GET …/map`'s), an object keyed by them an object of such keys."""
    if isinstance(schema, list):
        return [portable(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: portable(value) for key, value in schema.items() if key not in (PACK_NAMES, PACK_KEYS)}
    if schema.get(PACK_NAMES):
        names = out.pop("enum")
        out["example"] = names[0] if names else None
        out["description"] = f"{out.get('description', '')} (named by the game's content pack: GET …/map)".strip()
    if PACK_KEYS in schema:
        out.pop("properties", None)
        out["additionalProperties"] = portable(schema[PACK_KEYS])
    return out


def _is(json_type: JSONType, value: Any) -> bool:
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "array":
        return isinstance(value, (list, tuple))
    return isinstance(value, Mapping)


Build = Callable[[Mapping[str, Any]], Any]
"""The typed command of a checked move (its fields by name; an absent optional one is None)."""


@dataclass(frozen=True)
class Command:
    """A checked move as a game without a command class per move type reads it: its type
    and its fields by name (an absent optional one is None)."""

    type: str
    fields: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


def command(name: str) -> Build:
    """The `build` of a move type whose checked move is a plain `Command`."""
    return lambda fields: Command(name, FrozenDict(fields))


@dataclass(frozen=True)
class MoveType:
    name: str
    description: str
    fields: tuple[Field, ...]
    build: Build
    event: str | None = None
    """The kind of the move's first event, whose data records the fields (for `move_of`)."""
    recover: Callable[[Event], dict[str, Any] | None] | None = None
    """`move_of` for a move whose event does not record its fields in its public data."""

    def parse(self, move: Mapping[str, Any]) -> Any:
        kind = self.name
        for field in self.fields:
            if field.required and field.name not in move:
                raise MalformedMove("missing_field", f"A {kind} move needs a \"{field.name}\" field "
                                    f"({field.description.rstrip('.')}).", field.name)
        extra = sorted(set(move) - {"type", *(f.name for f in self.fields)})
        if extra:
            raise MalformedMove("unexpected_field", f"A {kind} move has no field \"{extra[0]}\"; its fields are: "
                                f"{', '.join(f.name for f in self.fields) or 'none'}.", extra[0])
        for field in self.fields:
            if field.name in move:
                field.check(move[field.name], field.name, kind)
        for field in self.fields:
            if field.when is not None:
                other, value = field.when
                wanted, present = move.get(other) == value, field.name in move
                if wanted and not present:
                    raise MalformedMove("missing_field", f"A {kind} move with \"{other}\" {value!r} needs a "
                                        f"\"{field.name}\" field ({field.description.rstrip('.')}).", field.name)
                if present and not wanted:
                    raise MalformedMove("bad_field", f"A {kind} move takes a \"{field.name}\" only with "
                                        f"\"{other}\" {value!r}.", field.name)
        return self.build({f.name: move.get(f.name) for f in self.fields})

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "description": self.description,
            "properties": {"type": {"type": "string", "enum": [self.name]}, **{f.name: f.schema() for f in self.fields}},
            "required": ["type", *(f.name for f in self.fields if f.required)],
            "additionalProperties": False,
        }
        conditions = [_present_when(f) for f in self.fields if f.when is not None]
        if conditions:
            schema["allOf"] = conditions
        return schema

    def move_of(self, event: Event) -> dict[str, Any] | None:
        if self.recover is not None:
            return self.recover(event)
        move: dict[str, Any] = {"type": self.name}
        for field in self.fields:
            value = event.data.get(field.recorded_as or field.name)
            if field.recorded and (field.required or value is not None):
                move[field.name] = _plain(value)
        return move


def _present_when(field: Field) -> dict[str, Any]:
    other, value = field.when or ("", None)
    return {"anyOf": [
        {"properties": {other: {"enum": [value]}}, "required": [other, field.name]},
        {"properties": {other: {"not": {"enum": [value]}}}, "not": {"required": [field.name]}},
    ]}


def _plain(value: Any) -> Any:
    """A recorded value as a move carries it: lists and objects, not tuples and read-only maps."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Moves:
    """Every move type of one game (bound to its content), in the order clients read them."""

    types: tuple[MoveType, ...]

    @cached_property
    def by_name(self) -> dict[str, MoveType]:
        return {t.name: t for t in self.types}

    @cached_property
    def by_event(self) -> dict[str, MoveType]:
        return {t.event: t for t in self.types if t.event}

    def parse(self, move: Any) -> Any:
        """The typed command of `move`, or `MalformedMove` naming what is wrong."""
        if not isinstance(move, Mapping):
            raise MalformedMove("not_an_object", "A move must be a JSON object with a \"type\" field.")
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in self.by_name:
            raise MalformedMove("unknown_move_type", f"Unknown move type {kind!r}; a move is one of: "
                                f"{', '.join(self.by_name)}.", "type")
        return self.by_name[kind].parse(move)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """Each move type's JSON Schema, by type."""
        return {t.name: t.schema() for t in self.types}

    def move_of(self, event: Event) -> dict[str, Any] | None:
        """The move that caused `event` when it is the first event of a seat's move."""
        move_type = self.by_event.get(event.kind)
        return move_type.move_of(event) if move_type is not None else None
