"""An example of every move type of every game, for the API documentation.

Built from the JSON Schema each game publishes for its moves (`Decider.move_schemas`, which
`domain/core/moves.py` derives from the move declarations), so a new game's moves get
examples without a line here. An example is well formed (the game's parser accepts it);
whether it is allowed at a given moment is the rules' business, as for any move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Schema = Mapping[str, Any]


def example(schema: Schema) -> Any:
    """A value that `schema` accepts: the first name of an enumeration, the lowest number
    allowed (at least 1 where nothing says otherwise), one item of a list."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        value = low if low is not None else 1
        return min(value, high) if high is not None else value
    if kind == "array":
        return [example(schema.get("items", {}))]
    if kind == "object":
        return _object(schema)
    return "text"


def _object(schema: Schema) -> dict[str, Any]:
    properties: Mapping[str, Schema] = schema.get("properties", {})
    if "required" not in schema:
        # A map from names the game has (card kinds…) to values: one entry shows the shape.
        first = next(iter(properties), None)
        if first is not None:
            return {first: example(properties[first])}
        extra = schema.get("additionalProperties")
        return {"name": example(extra)} if isinstance(extra, Mapping) else {}
    value = {name: example(properties[name]) for name in schema["required"] if name in properties}
    for condition in schema.get("allOf", ()):
        # A field present exactly when another field has a given value (`Field.when`).
        present = condition.get("anyOf", [{}])[0]
        other, field = present.get("required", [None, None])[:2]
        wanted = present.get("properties", {}).get(other, {}).get("enum", [])
        if field in properties and value.get(other) in wanted:
            value[field] = example(properties[field])
    return value


def move_examples(games: Mapping[str, Mapping[str, Schema]]) -> dict[str, dict[str, Any]]:
    """`{"game.move_type": {"summary", "value"}}` for every game (by name) and move type
    (by type, with its JSON Schema), as OpenAPI's `examples` of a request body."""
    return {f"{game}.{move_type}": {"summary": f"{game}: {move_type}", "description": schema.get("description", ""),
                                    "value": example(schema)}
            for game, schemas in games.items() for move_type, schema in schemas.items()}
