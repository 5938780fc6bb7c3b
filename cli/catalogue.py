"""`caboose catalogue`: every registered game's event kinds and moves, with their fields,
types and meanings, as text, as Markdown (docs/catalogue.md is its output) or as one JSON
Schema document.

Everything shown is derived from the code: a kind from its dataclass (`domain/core/kinds.py`,
each game's `events`), a move from its declaration (`Decider.move_schemas`), so the page
cannot drift from what is recorded and accepted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import click

from domain import games
from domain.core.decider import Decider
from domain.core.kinds import CORE
from service import content  # noqa: F401  (installs the shelf of packs the games are bound to)

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_LISTED = 8
"""An enumeration this short is spelt out; a longer one (a map's routes) is counted."""


def registered() -> list[Decider[Any]]:
    """Every registered game's current rules (bound to its default pack)."""
    return [games.current(name) for name in games.names()]


def _ref(name: str) -> str:
    return f"#/$defs/{name}"


def published(deciders: Iterable[Decider[Any]]) -> dict[str, Any]:
    """The catalogue as one JSON Schema document (draft 2020-12). Under `$defs`: the data of
    each core kind (`core.GameCreated`), of each game's own kinds (`<game>.<Kind>`)
    and each move (`<game>.move.<type>`); per game, a record's `kind` and `data`
    (`<game>.record`) and a move (`<game>.move`) as a `oneOf`. Under `games`:
    which kinds and moves each game has, as references into `$defs`, and whether it declares
    kinds of its own (a game that does not yet records its own kinds untyped)."""
    defs: dict[str, Any] = {f"core.{kind.kind}": CORE.schema(kind.kind) for kind in CORE}
    listing: dict[str, Any] = {}
    for decider in sorted(deciders, key=lambda d: d.name):
        name = decider.name
        defs.update({f"{name}.{kind.kind}": decider.events.schema(kind.kind) for kind in decider.events})
        events = {kind: _ref(f"core.{kind}" if kind in CORE else f"{name}.{kind}") for kind in decider.catalogue.kinds}
        defs[f"{name}.record"] = {
            "description": f"The kind and data of a {name} record.",
            "oneOf": [{"type": "object", "properties": {"kind": {"const": kind}, "data": {"$ref": ref}},
                       "required": ["kind", "data"]} for kind, ref in events.items()],
        }
        moves = {move: _ref(f"{name}.move.{move}") for move in decider.move_schemas}
        defs.update({f"{name}.move.{move}": schema for move, schema in decider.move_schemas.items()})
        if moves:
            defs[f"{name}.move"] = {"description": f"A {name} move.", "oneOf": [{"$ref": ref} for ref in moves.values()]}
        listing[name] = {"ruleset_version": decider.ruleset_version, "events": events, "moves": moves,
                         "own_events_declared": len(decider.events) > 0}
    return {"$schema": DIALECT, "title": "Caboose event and move catalogue",
            "description": "Every game's event kinds (a record's kind and data, docs/FORMAT.md) and moves.",
            "$defs": defs, "games": listing}


# --- words ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One kind or move as the text and Markdown show it."""

    name: str
    meaning: str
    fields: list[tuple[str, str, bool, str]]
    """(field, type in words, required, meaning)."""


def entry(name: str, schema: dict[str, Any]) -> Entry:
    required, when = set(schema.get("required", ())), _conditions(schema)
    fields = [(field, type_words(prop), field in required, prop.get("description", "") + when.get(field, ""))
              for field, prop in schema.get("properties", {}).items()]
    if fields and fields[0][0] == "type" and not fields[0][3]:
        fields[0] = (*fields[0][:3], "The move's type.")
    return Entry(name, schema.get("description", ""), fields)


def _conditions(schema: dict[str, Any]) -> dict[str, str]:
    """A move field present exactly when another has a value (`domain/core/moves.py`
    writes it as `allOf: [{anyOf: [{properties: {other: {enum: [value]}}, required: [other,
    field]}, ...]}]`), in words."""
    out = {}
    for condition in schema.get("allOf", ()):
        present = condition.get("anyOf", [{}])[0]
        other, field = (present.get("required") or [None, None])[:2]
        values = present.get("properties", {}).get(other, {}).get("enum", [])
        if field is not None and values:
            out[field] = f" Present exactly when `{other}` is {json.dumps(values[0])}."
    return out


def type_words(schema: dict[str, Any]) -> str:
    """A field's JSON Schema in a few words: `integer ≥ 1`, `list of string`, `integer or null`."""
    if "anyOf" in schema:
        return " or ".join(type_words(member) for member in schema["anyOf"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        values = schema["enum"]
        if len(values) <= _LISTED:
            return " | ".join(json.dumps(v) for v in values)
        return f"{schema.get('type', 'value')}: one of {len(values)} names"
    kind = schema.get("type")
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(type_words(item) for item in schema["prefixItems"]) + "]"
        return f"list of {type_words(schema.get('items', {}))}"
    if kind == "object":
        if "properties" in schema and schema.get("additionalProperties") is False:
            return "object {" + ", ".join(schema["properties"]) + "}"
        value = schema.get("additionalProperties")
        return f"object of {type_words(value)}" if isinstance(value, dict) and value else "object"
    if kind is None:
        return "any JSON"
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"{kind} {low}–{high}"
    if low is not None:
        return f"{kind} ≥ {low}"
    return f"{kind} ≤ {high}" if high is not None else str(kind)


def sections(decider: Decider[Any]) -> tuple[list[Entry], list[Entry]]:
    """A game's own kinds and its moves."""
    kinds = [entry(kind.kind, decider.events.schema(kind.kind)) for kind in decider.events]
    moves = [entry(move, schema) for move, schema in decider.move_schemas.items()]
    return kinds, moves


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(item: Entry) -> list[str]:
    if not item.fields:
        return ["No fields."]
    lines = ["| field | type | meaning |", "| --- | --- | --- |"]
    for field, words, required, meaning in item.fields:
        optional = "" if required else " (optional)"
        lines.append(f"| `{field}` | {_cell(words)}{optional} | {_cell(meaning)} |")
    return lines


def _items(items: Sequence[Entry], level: str) -> list[str]:
    lines: list[str] = []
    for item in items:
        lines += ["", f"{level} `{item.name}`", "", item.meaning, "", *_table(item)]
    return lines


def markdown(deciders: Iterable[Decider[Any]]) -> str:
    ordered = sorted(deciders, key=lambda d: d.name)
    lines = [
        "# Event and move catalogue",
        "",
        "<!-- Generated by `caboose catalogue --markdown > docs/catalogue.md`; do not edit by hand"
        " (tests/test_catalogue_page.py fails when this page is not what the code generates). -->",
        "",
        "Every record of a game is one event: its `kind` is one of the kinds below and its `data` holds that",
        "kind's fields ([FORMAT.md](FORMAT.md)); a field marked optional is absent from `data` when it does",
        "not apply. What only some seats may see is not a field but a secret of the event. A move is the",
        "body a seat sends (`POST /api/v1/games/{id}/moves`, `caboose move`); the names a move may use",
        "(routes, tickets, cities) are those of the game's default content pack. `caboose catalogue --json`",
        "gives all of this as one JSON Schema document.",
        "",
        "## Core events (every game)",
        "",
        "Recorded around every game by the service itself: its creation, the seed's reveal, seats joining,",
        "and the referee's and takeback actions ([architecture.md](architecture.md)).",
    ]
    lines += _items([entry(kind.kind, CORE.schema(kind.kind)) for kind in CORE], "###")
    for decider in ordered:
        kinds, moves = sections(decider)
        lines += ["", f"## `{decider.name}` (ruleset {decider.ruleset_version})", "", "### Events"]
        lines += _items(kinds, "####") if kinds else ["", "Not declared yet: this game's own kinds are recorded untyped."]
        lines += ["", "### Moves"]
        lines += _items(moves, "####") if moves else ["", "No move schemas published."]
    return "\n".join(lines) + "\n"


def text(deciders: Iterable[Decider[Any]]) -> str:
    def show(item: Entry) -> str:
        fields = ", ".join(f"{field}: {words}{'' if required else '?'}" for field, words, required, _ in item.fields)
        return f"    {item.name}({fields})  {item.meaning}"

    lines = ["core events (every game)", *(show(entry(kind.kind, CORE.schema(kind.kind))) for kind in CORE)]
    for decider in sorted(deciders, key=lambda d: d.name):
        kinds, moves = sections(decider)
        lines += [f"{decider.name} (ruleset {decider.ruleset_version})", "  events:", *map(show, kinds),
                  "  moves:", *map(show, moves)]
    return "\n".join(lines)


@click.command("catalogue")
@click.option("--json", "as_json", is_flag=True, help="One JSON Schema document (draft 2020-12).")
@click.option("--markdown", "as_markdown", is_flag=True, help="The page docs/catalogue.md is.")
def catalogue_cli(as_json: bool, as_markdown: bool) -> None:
    """Every registered game's event kinds and moves: fields, types and meanings."""
    if as_json and as_markdown:
        raise click.UsageError("choose one of --json and --markdown")
    deciders = registered()
    if as_json:
        click.echo(json.dumps(published(deciders), ensure_ascii=False, indent=1))
    elif as_markdown:
        click.echo(markdown(deciders), nl=False)
    else:
        click.echo(text(deciders))
