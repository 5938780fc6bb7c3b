"""Pieces of the JSON Schemas games publish for their views (`Decider.view_schema`, shown in
the OpenAPI document as the typed `state` of `GET /games/{id}/state`)."""

from __future__ import annotations

from typing import Any


def of(kind: str, description: str = "", nullable: bool = False, **more: Any) -> dict[str, Any]:
    """A value of one JSON type (OpenAPI 3.0: `nullable` for one that may be null)."""
    out: dict[str, Any] = {"type": kind, **more}
    if description:
        out["description"] = description
    if nullable:
        out["nullable"] = True
    return out


def array_of(kind: str, description: str = "") -> dict[str, Any]:
    return of("array", description, items={"type": kind})


def mapping_of(kind: str, description: str = "") -> dict[str, Any]:
    """An object whose keys are ids (a hex, a colour, a seat) and whose values are of `kind`."""
    return of("object", description, additionalProperties={"type": kind})


OBJECT = {"type": "object"}
"""An object described in the game's rules (docs/) rather than field by field."""
