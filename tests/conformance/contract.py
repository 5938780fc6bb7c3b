"""What every game must satisfy, checked on one played game without knowing the game.

A played game (`tests/playouts.py`) is walked again event by event from its record; each
check takes what it needs from the walk and fails with a sentence naming the game, the
event and what went wrong. `test_every_game.py` runs them for every registered game.
"""

from __future__ import annotations

import dataclasses
import json
import random
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema

from cli.catalogue import published
from domain import games
from domain.core import fold
from domain.core.codec import decode, encode
from domain.core.decider import Decider
from domain.core.errors import MalformedMove
from domain.core.events import Audience, Event
from domain.core.leaks import leaks
from domain.core.randomness import SeededRandom
from domain.core.state import FrozenDict
from projections.handlers import ScoresOnly, projector_for
from projections.runner import rebuild
from projections.store import read_store_for
from service.application import Caboose
from service.settings import Settings
from tests import playouts
from tests.fakes.race import RACE

LABEL = "conformance"


def deciders() -> dict[str, Decider[Any]]:
    """Every game new games can be created with, and the test fake."""
    return {name: games.current(name) for name in games.names()} | {RACE.name: RACE}


@dataclass(frozen=True)
class Step:
    """One event of a played game, with the states around it."""

    before: Any
    event: Event
    after: Any


@dataclass(frozen=True)
class Decision:
    """One move of a played game: the state it was made in, and the events it caused."""

    state: Any
    seat: int
    move: dict[str, Any]
    events: list[Event]


@dataclass(frozen=True)
class Walk:
    decider: Decider[Any]
    game: playouts.Playout
    steps: list[Step]
    decisions: list[Decision]

    def states(self, stride: int = 1) -> list[Any]:
        """Every `stride`-th state reached, the final one included."""
        states = [step.after for step in self.steps]
        return [*states[::stride], states[-1]]


@cache
def walk(name: str, seats: int, index: int) -> Walk:
    """Game `index` of `name` played to its end (steered by the game's own bot, when it has
    one, every other game), then folded again from its events alone."""
    decider = deciders()[name]
    steer = index % 2 == 0
    game = playouts.play_out(decider, LABEL, index, seats, check=False, steer=steer)
    state = decider.initial_state(game.setup)
    steps: list[Step] = []
    for event in game.opening:
        steps.append(Step(state, event, decider.evolve(state, event)))
        state = steps[-1].after
    decisions = []
    for seat, move, events in game.commands:
        decisions.append(Decision(state, seat, move, events))
        for event in events:
            steps.append(Step(state, event, decider.evolve(state, event)))
            state = steps[-1].after
    return Walk(decider, game, steps, decisions)


# --- the checks --------------------------------------------------------------------------


def invariants(decider: Decider[Any], state: Any) -> list[str]:
    """The game's own invariants (an optional hook; a game without it declares none)."""
    return list(decider.invariants(state))


def mutable_mappings(value: Any, path: str = "state") -> list[str]:
    """Where `value` holds a mapping that can be changed in place."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [p for f in dataclasses.fields(value) for p in mutable_mappings(getattr(value, f.name), f"{path}.{f.name}")]
    if isinstance(value, Mapping):
        here = [] if isinstance(value, FrozenDict) else [path]
        return here + [p for k, v in value.items() for p in mutable_mappings(v, f"{path}[{k!r}]")]
    if isinstance(value, (tuple, list, frozenset)):
        return [p for i, v in enumerate(value) for p in mutable_mappings(v, f"{path}[{i}]")]
    return []


def snapshot(decider: Decider[Any], state: Any) -> Any:
    """`state` through the codec and JSON, as a stored snapshot brings it back."""
    return decode(decider.state_type, json.loads(json.dumps(encode(state))))


def check_snapshot(decider: Decider[Any], state: Any) -> None:
    back = snapshot(decider, state)
    assert back == state, f"{decider.name}: a snapshot does not restore the state it was taken of"
    assert mutable_mappings(back) == [], f"{decider.name}: a restored state can be changed in place"


def check_evolve(decider: Decider[Any], step: Step) -> None:
    """`evolve` leaves its input as it was, and what it returns is immutable too."""
    before, data = encode(step.before), json.dumps(step.event.data, sort_keys=True)
    again = decider.evolve(step.before, step.event)
    assert encode(step.before) == before, f"{decider.name}: evolving {step.event.kind} changed the state it was given"
    assert json.dumps(step.event.data, sort_keys=True) == data, f"{decider.name}: evolving {step.event.kind} changed the event"
    assert again == step.after, f"{decider.name}: evolving {step.event.kind} twice gave two states"
    assert mutable_mappings(step.after) == [], f"{decider.name}: the state after {step.event.kind} can be changed in place"


def check_move_of(decider: Decider[Any], decision: Decision) -> None:
    """The move `move_of` reads from a command's first event, decided again with the same
    random outcomes, gives the same events (which is how the auditor re-plays a record);
    and deciding changes neither the state nor the move."""
    first = decision.events[0]
    recovered = decider.move_of(first)
    assert recovered is not None, f"{decider.name}: move_of({first.kind}) recovers no move"
    state, move = encode(decision.state), json.dumps(recovered, sort_keys=True)
    again = decider.decide(decision.state, decision.seat, recovered, playouts.outcomes(decision.events))
    assert again == decision.events, f"{decider.name}: {recovered} (from {first.kind}) does not give the events it recorded"
    assert encode(decision.state) == state, f"{decider.name}: deciding {recovered} changed the state"
    assert json.dumps(recovered, sort_keys=True) == move, f"{decider.name}: deciding {recovered} changed the move"


def check_views(decider: Decider[Any], state: Any) -> None:
    """Views are plain JSON, and a seat's view shows nothing hidden from the public outside
    that seat's own part."""
    seats = len(decider.scores(state))
    public = decider.view(state, Audience())
    views = {seat: decider.view(state, Audience(seat=seat)) for seat in range(seats)}
    for view in (public, *views.values(), decider.view(state, Audience(referee=True))):
        assert json.loads(json.dumps(view)) == view, f"{decider.name}: a view is not plain JSON"
        validator = view_validator(decider)
        if validator is not None:
            # As jsonschema.validate reports it (the best match of the errors), with the
            # schema checked once per game, not once per view: it was most of this check.
            error = jsonschema.exceptions.best_match(view_errors(validator, view))
            if error is not None:
                raise error
    assert leaks(public, views) == []


SHALLOW_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "description", "title"})
"""A view schema made of these only checks each of the view's fields against its own part of
the schema (`properties`), whatever the other fields hold."""

_VALID_FIELDS: set[tuple[int, str, str]] = set()
"""(validator, field, the field's JSON) found valid: a board or a track is the same in most
views of a game (every seat's, state after state), and was checked again in each, most of
this module's time."""


def view_errors(validator: jsonschema.protocols.Validator, view: Any) -> list[jsonschema.ValidationError]:
    """Every error `validator.iter_errors(view)` finds, each field's value checked once
    whatever the number of views that hold it (a schema of other shapes: the whole view)."""
    schema = validator.schema
    if not isinstance(schema, dict) or not isinstance(view, dict) or not set(schema) <= SHALLOW_KEYWORDS:
        return list(validator.iter_errors(view))
    fields = schema.get("properties", {})
    # The view itself, each field's own schema taken as "anything": type, required, extra fields.
    errors = list(validator.evolve(schema={**schema, "properties": dict.fromkeys(fields, True)}).iter_errors(view))
    for field, part in fields.items():
        if field not in view:
            continue
        seen = (id(validator), field, json.dumps(view[field], sort_keys=True))
        if seen in _VALID_FIELDS:
            continue
        found = list(validator.evolve(schema=part).iter_errors(view[field]))
        for error in found:
            error.path.appendleft(field)
            error.schema_path.extendleft(["properties", field][::-1])
        errors += found
        if not found:
            _VALID_FIELDS.add(seen)
    return errors


def json_schema(openapi: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` becomes a type that allows null."""
    if isinstance(openapi, list):
        return [json_schema(item) for item in openapi]
    if not isinstance(openapi, dict):
        return openapi
    out = {key: json_schema(value) for key, value in openapi.items() if key != "nullable"}
    if openapi.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


@cache
def view_validator(decider: Decider[Any]) -> jsonschema.protocols.Validator | None:
    """The game's published view schema, as JSON Schema, checked against its meta-schema."""
    if decider.view_schema is None:
        return None
    schema = json_schema(decider.view_schema)
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return validator(schema)


@cache
def move_schema(decider: Decider[Any]) -> jsonschema.protocols.Validator | None:
    """The game's published move schemas as one: a move must be exactly one of them."""
    schemas = decider.move_schemas
    if not schemas:
        return None
    schema = {"oneOf": list(schemas.values())}
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return validator(schema)


def check_legal_moves(decider: Decider[Any], state: Any, sample: int | None, chooser: random.Random) -> int:
    """Every legal move of every active seat (or `sample` of them per seat) fits the published
    schema and is accepted; a seat that may not move has no legal move. Returns how many
    moves were tried."""
    schema, active, tried = move_schema(decider), decider.active_seats(state), 0
    for seat in range(len(decider.scores(state))):
        moves = decider.legal_moves(state, seat)
        if seat not in active:
            assert moves == [], f"{decider.name}: seat {seat} may not move but has legal moves"
            continue
        assert moves, f"{decider.name}: seat {seat} may move but has no legal move"
        for move in moves if sample is None or len(moves) <= sample else chooser.sample(moves, sample):
            if schema is not None:
                schema.validate(move)
            events = decider.decide(state, seat, move, SeededRandom(bytes(32)))
            assert events and not events[0].automatic, f"{decider.name}: {move} caused no move of the seat's own"
            problems = invariants(decider, playouts.fold(decider, state, events))
            assert problems == [], f"{decider.name}: after {move}: {problems}"
            tried += 1
    return tried


def no_board(state: Any) -> dict[str, Any]:
    return {}


def check_projections(decider: Decider[Any], game: playouts.Playout,
                      board_of: Callable[[Any], dict[str, Any]] | None = None, stride: int = 1) -> int:
    """The read models rebuilt from the game's record (imported into an in-memory store)
    equal a fresh fold of that record at every version: each seat's VP is the rules' score,
    the board is `board_of(state)` (empty for a game without a projector of its own, not
    checked for a game with one but no `board_of`), and the game index says where the game
    stands. Every `stride`-th version is compared, and the last; returns how many were."""
    records = playouts.record_of(decider, game, str(uuid.UUID(bytes=game.seed[:16])))
    history = fold.History(records[0])
    states = [None, history.state, *(history.add(record) for record in records[1:])]
    if board_of is None and isinstance(projector_for(decider), ScoresOnly):
        board_of = no_board
    app = Caboose(Settings(db="memory"))
    store = read_store_for(app)
    try:
        game_id = app.import_record(records)
        rebuild(app, store)
        versions = sorted({*range(1, len(states), stride), len(states) - 1})
        for version in versions:
            scores = decider.scores(states[version])
            shown = store.scores(game_id, version)["seats"]
            assert [s["total"] for s in shown] == [scores[seat] for seat in sorted(scores)], \
                f"{decider.name}: the read models' VP at version {version} are not the rules' scores"
            if board_of is not None:
                assert store.board(game_id, version)["board"] == board_of(states[version]), \
                    f"{decider.name}: the read models' board at version {version} is not the state's"
        [entry] = store.games()
        final = states[-1]
        assert (entry["version"], entry["status"], entry["active_seats"]) == (
            len(states) - 1, "finished" if decider.is_over(final) else "active", sorted(decider.active_seats(final)))
    finally:
        store.close()
        app.close()
    return len(versions)


@cache
def published_schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """The published catalogue (`caboose catalogue --json`) of every game here: its `$defs`,
    and per game which kinds and moves it has."""
    document = published(deciders().values())
    jsonschema.Draft202012Validator.check_schema(document)
    return document["$defs"], document["games"]


def check_event_published(decider: Decider[Any], kind: str, data: Any) -> None:
    """An event's data fits the JSON Schema its kind publishes. A game that declares its own
    kinds publishes every kind it records; one that declares none yet (its events are still
    untyped) is checked on the core's kinds alone."""
    defs, listing = published_schemas()
    events = listing[decider.name]["events"]
    if kind not in events:
        assert not listing[decider.name]["own_events_declared"], \
            f"{decider.name}: {kind} is recorded but not declared in the game's catalogue"
        return
    schema = {"$defs": defs, "$ref": events[kind]}
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]
    assert errors == [], f"{decider.name}: {kind} {data} does not fit its published schema: {errors}"


def check_typed(decider: Decider[Any], event: Event) -> None:
    """A game that declares its kinds produces events of those kinds, never untyped ones."""
    if len(decider.events):
        assert type(event) is decider.catalogue.kinds.get(event.kind), \
            f"{decider.name}: {event.kind} is produced as {type(event).__name__}, not as the kind its catalogue declares"


def option_values(schema: dict[str, Any]) -> list[Any]:
    """Every value a client may choose for an option (its enum, both bounds and a value
    between them, true and false), or none for a read-only one."""
    if schema.get("readOnly"):
        return []
    if "enum" in schema:
        return list(schema["enum"])
    if schema.get("type") == "boolean":
        return [True, False]
    low, high = schema.get("minimum"), schema.get("maximum")
    return [v for v in (low, high, (low + high) // 2 if low is not None and high is not None else None) if v is not None]


def check_option_schemas(decider: Decider[Any], seats: int) -> None:
    """The options' schemas are the options the game records: the same names, each default
    what `options({})` records, every value a schema offers accepted and recorded as sent,
    and each read-only option refusing any other value."""
    schemas, recorded = decider.option_schemas(seats), decider.options({}, seats)
    assert set(schemas) == set(recorded), (set(schemas) ^ set(recorded))
    for name, schema in schemas.items():
        assert schema["default"] == recorded[name], name
        if decider.content_schema is not None and name == decider.pack_option:
            continue  # which pack is settled when the rules are bound to it (`games.for_options`)
        jsonschema.validate(recorded[name], {**schema, "type": [schema["type"], "null"]} if schema.get("nullable") else schema)
        for value in option_values(schema):
            assert decider.options({name: value}, seats)[name] == value, (name, value)
        for bad in ("5", "null", 1.5, [] if schema.get("readOnly") else None):
            if bad is None or bad in (schema.get("enum") or ()) or (bad == recorded[name]):
                continue
            try:
                decider.options({name: bad}, seats)
            except MalformedMove:
                continue
            raise AssertionError(f"option {name} accepted {bad!r}")
