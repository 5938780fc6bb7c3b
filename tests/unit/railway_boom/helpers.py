"""Positions of Railway Boom for tests, built from a real opening on the reference pack (a
first game, so the city tiles are the pack's fixed layout) and changed only where a test
says, keeping every card, rail and tile accounted for.

Around city B11 (plain; tile N09: coal, power 3; station card ST97):
B12 forest 2, C12 plain 1, C11 plain 1, B10 plain 1, A11 plain 1, A12 sea; the tourist
city A13 (forest 2) is next to B12 and A12; C13 (mountain 3) and C10 (forest 2) and A10
(forest 2) are normal cities nearby.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain import games
from domain.core.decider import Setup
from domain.core.events import Event
from domain.core.randomness import SeededRandom
from domain.core.sealed import open_phase
from domain.core.state import replace, replace_seat
from domain.railway_boom.decider import RailwayBoom
from domain.railway_boom.state import Pending, State, Turn
from service import content as installed

installed.install()
RULES: RailwayBoom = games.current("railway_boom")  # type: ignore[assignment]
CONTENT = RULES.content
SEED = bytes(range(32))


def opening(players: int = 3, first_game: bool = True) -> State:
    setup = Setup(tuple(f"p{i}" for i in range(players)), RULES.options({"first_game": first_game}, players))
    state = RULES.initial_state(setup)
    return fold(state, RULES.setup(state, SeededRandom(SEED)))


def fold(state: State, events: Sequence[Event]) -> State:
    for event in events:
        state = RULES.evolve(state, event)
    return state


def _take(state: State, cards: Sequence[str]) -> State:
    """`state` with `cards` taken out of wherever they lie (decks, offer, rows, boxed)."""
    gone = set(cards)
    decks = {name: tuple(c for c in deck if c not in gone) for name, deck in state.decks.items()}
    return replace(state, decks=decks, offer=tuple(c for c in state.offer if c not in gone),
                   rows=tuple(tuple(c for c in row if c not in gone) for row in state.rows),
                   boxed=tuple(c for c in state.boxed if c not in gone))


def _seat(state: State, seat: int, spec: Mapping[str, Any]) -> State:
    me = state.seats[seat]
    changes: dict[str, Any] = {}
    if "resources" in spec:
        changes["resources"] = {**me.resources, **spec["resources"]}
    if "income" in spec:
        changes["income"] = {**me.income, **spec["income"]}
    for key in ("trains", "developments"):
        if key in spec:
            state = _take(state, spec[key])
            changes[key] = (*getattr(me, key), *spec[key])
    if "tiles" in spec:
        changes["tiles"] = {**me.tiles, **spec["tiles"]}
        state = replace(state, tile_supply={k: v - spec["tiles"].get(k, 0) for k, v in state.tile_supply.items()})
    if "loaded" in spec:
        changes["loaded"] = {card: tuple(kinds) for card, kinds in spec["loaded"].items()}
        used: dict[str, int] = {}
        for kinds in spec["loaded"].values():
            for kind in kinds:
                used[kind] = used.get(kind, 0) + 1
        state = replace(state, tile_supply={k: v - used.get(k, 0) for k, v in state.tile_supply.items()})
    for key in ("power", "sideways", "goal_cubes"):
        if key in spec:
            changes[key] = tuple(spec[key]) if key == "sideways" else spec[key]
    return replace_seat(state, seat, **changes)


def table(players: int = 3, *, seats: Mapping[int, Mapping[str, Any]] | None = None,
          offer: Sequence[str] | None = None, rows: Sequence[Sequence[str]] | None = None,
          turn: Mapping[str, Any] | None = None, stations: Mapping[str, int] | None = None,
          rails: Mapping[str, Sequence[int]] | None = None, pending: Sequence[Mapping[str, Any]] = (),
          city_tiles: Mapping[str, str] | None = None, operation: bool = False, first_game: bool = True,
          submitted: Mapping[int, Mapping[str, Any]] | None = None,
          **fields: Any) -> State:
    """The opening (round 1, the trains auction) changed as asked. `fields` are State fields
    set as given (phase, step, round, order, bids, locked, bid_resource, acting, chosen_rows,
    spaces, goals...)."""
    state = opening(players, first_game)
    if (offer is None and fields.get("phase", "trains") != "trains") or operation:
        # The round's revealed trains were dealt with in phase 1.
        state = replace(state, offer=(), boxed=(*state.boxed, *state.offer))
    if offer is not None:
        state = replace(_take(replace(state, decks={**state.decks}, offer=()), [*offer, *state.offer]),
                        offer=tuple(offer), boxed=(*state.boxed, *[c for c in state.offer if c not in offer]))
    if rows is not None:
        flat = [c for row in rows for c in row]
        state = replace(_take(state, flat), rows=tuple(tuple(r) for r in rows))
    for seat, spec in (seats or {}).items():
        state = _seat(state, seat, spec)
    for city, seat in (stations or {}).items():
        state = replace_seat(replace(state, stations={**state.stations, city: seat}), seat,
                             stations=state.seats[seat].stations - 1)
    for hex_id, owners in (rails or {}).items():
        state = replace(state, rails={**state.rails, hex_id: tuple(owners)})
        for seat in owners:
            state = replace_seat(state, seat, rails=state.seats[seat].rails - 1)
    if city_tiles:
        state = replace(state, city_tiles={**state.city_tiles, **city_tiles})
    if turn is not None:
        state = replace(state, turn=Turn(**{k: tuple(v) if isinstance(v, list) else v for k, v in turn.items()}))
    if pending:
        state = replace(state, pending=tuple(Pending(**{k: tuple(v) if isinstance(v, list) else v for k, v in p.items()})
                                             for p in pending))
        drawn = [c for p in pending for c in p.get("drawn", ())]
        state = _take(state, drawn) if drawn else state
    if operation:
        fields = {"phase": "operation", "step": "", **fields}
        sealed = open_phase("operation", tuple(range(players)))
        for seat, plan in (submitted or {}).items():
            sealed = sealed.submitted(seat, dict(plan))
        state = replace(state, sealed=sealed)
    converted = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return replace(state, **converted)


def decide(state: State, seat: int, move: Mapping[str, Any]) -> tuple[list[Event], State]:
    events = RULES.decide(state, seat, move, SeededRandom(SEED))
    return events, fold(state, events)
