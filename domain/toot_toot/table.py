"""Toot-Toot Train's opening as laid out at a table (`seed_source: "table"`).

The observed form names what was picked and drawn, in the game's words:

    {"map": "harbour",                      # the map picked (or the one the `map` option names)
     "secret_orders": ["Y3", "G7", "R1"],   # each seat's secret order, in seat order
     "public_orders": ["B2", "Y8", "G1", "R6"]}   # the players + 1 public orders, left to right

The referee writes down each seat's secret order as the seat shows it to them; the record
keeps each one sealed to its seat. Setup runs over these as the outcomes of its draws
(`TableRandom`), so an order named twice, an order of no pack or a map the option rules out is
refused in the game's words before anything is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.core.table import ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.toot_toot.content import Content
from domain.toot_toot.orders import PublicOrderRevealed, SecretOrderDealt
from domain.toot_toot.setup import MapChosen
from domain.toot_toot.state import State

KEYS = ("map", "secret_orders", "public_orders")


def _bad(message: str) -> MalformedMove:
    return MalformedMove("bad_setup", f"observed setup: {message}")


def _orders(observed: Mapping[str, Any], key: str, count: int, who: str) -> list[list[str]]:
    value = observed.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(f"`{key}` is a list of order cards ({who})")
    if len(value) != count:
        raise _bad(f"`{key}` names {len(value)} order card(s); setup draws {count} ({who})")
    return [[card] for card in value]


def table_setup(content: Content, state: State, observed: Mapping[str, Any], random_map: str,
                setup: Callable[[Content, State, Randomness], list[Event]]) -> list[Event]:
    """`setup` (the decider's opening) run over the observed opening."""
    if not isinstance(observed, Mapping):
        raise _bad("a JSON object with " + ", ".join(KEYS))
    unknown = sorted(set(observed) - set(KEYS))
    if unknown:
        raise _bad(f"unknown part(s) {', '.join(unknown)}; the parts are {', '.join(KEYS)}")
    outcomes: list[Any] = []
    chosen = observed.get("map")
    if state.requested_map == random_map:
        if not isinstance(chosen, str):
            raise _bad(f"`map` names the map picked: one of {', '.join(m.id for m in content.maps)}")
        outcomes.append(chosen)
    elif chosen not in (None, state.requested_map):
        raise _bad(f"the game's `map` option is {state.requested_map}, not {chosen!r}")
    players = len(state.seats)
    outcomes += _orders(observed, "secret_orders", players, "one per seat, in seat order")
    outcomes += _orders(observed, "public_orders", players + 1, "players + 1, left to right")
    rng = TableRandom(outcomes)
    try:
        events = setup(content, state, rng)
    except OutcomeNeeded as needed:
        raise _bad(f"the rules also need {needed.request.describe()}") from None
    except ImpossibleOutcome as error:
        raise ImpossibleOutcome(f"observed setup: {error.message}") from None
    return events


def observed_of(events: Sequence[Event]) -> dict[str, Any]:
    """The observed form of an opening already decided (a seeded one, say), secret orders
    included: what the referee would have written down at the table."""
    observed: dict[str, Any] = {"secret_orders": [], "public_orders": []}
    for event in events:
        if isinstance(event, MapChosen):
            observed["map"] = event.map
        elif isinstance(event, SecretOrderDealt):
            observed["secret_orders"].append(event.secret()["order"])
        elif isinstance(event, PublicOrderRevealed):
            observed["public_orders"].append(event.order)
    return observed
