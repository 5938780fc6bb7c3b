"""Railway Boom's opening as laid out at a table (`seed_source: "table"`).

The observed form names what was turned up, in the game's words:

    {"goals": ["G03", "G11", "G07", "G15"],        # the 4 goal cards beside the board, in display order
     "routes": ["R2", "R5", "R1", "R7"],           # the 4 route cards beside the board
     "city_tiles": {"A10": "N04", "B11": "N09", ...},  # every city space's tile (not in a first game)
     "starting_stations": ["ST69", "ST12", "ST40"],    # the station card each seat revealed, seat order
     "locomotives": ["L05", "L17", "L02"],         # round 1's trains display: one per player
     "cars": ["C03", "C21", "C08", "C30", "C11"]}  # and players + 2 cars

Each is checked against the rules of setup by running setup over them as the outcomes of
its draws (`TableRandom`), so a card named twice, a card of another deck, a tile on a space
of the other kind or a missing space is refused in the game's words before anything is
stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.errors import MalformedMove
from domain.core.events import Event
from domain.core.table import ImpossibleOutcome, OutcomeNeeded, TableRandom
from domain.railway_boom import decide
from domain.railway_boom.content import Content
from domain.railway_boom.setup import CardsRevealedBeside, CityTilesPlaced, StartingOrderDrawn
from domain.railway_boom.state import State
from domain.railway_boom.trains import TrainsRevealed

KEYS = ("goals", "routes", "city_tiles", "starting_stations", "locomotives", "cars")


def _bad(message: str) -> MalformedMove:
    return MalformedMove("bad_setup", f"observed setup: {message}")


def _names(observed: Mapping[str, Any], key: str) -> list[str]:
    value = observed.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(f"`{key}` is a list of card names, as they were turned up")
    return list(value)


def _tiles(content: Content, state: State, observed: Mapping[str, Any]) -> list[list[str]]:
    """The tiles in the order setup turns them up: normal spaces, then tourist spaces,
    each in the board's order."""
    tiles = observed.get("city_tiles")
    if state.first_game:
        # R4: a first game's tiles lie where the pack says; nothing was drawn.
        layout = {h.id: h.first_game_tile for h in content.hexes.values() if h.city == "normal"}
        if tiles not in (None, layout):
            raise _bad("a first game places the normal city tiles by the pack's layout (R4); leave `city_tiles` out")
        return []
    if not isinstance(tiles, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tiles.items()):
        raise _bad("`city_tiles` maps each city space to the tile laid on it, e.g. {\"A10\": \"N04\"}")
    out = []
    spaces_of_kind: dict[str, list[str]] = {}
    for kind in ("normal", "tourist"):
        spaces_of_kind[kind] = [h.id for h in content.hexes.values() if h.city == kind]
    unknown = sorted(set(tiles) - {s for spaces in spaces_of_kind.values() for s in spaces})
    if unknown:
        raise _bad(f"{', '.join(unknown)} {'is not a city space' if len(unknown) == 1 else 'are not city spaces'}")
    for kind, spaces in spaces_of_kind.items():
        supply = [t.id for t in content.city_tiles.values() if t.kind == kind]
        wanted = spaces[:len(supply)]
        missing = [s for s in wanted if s not in tiles]
        if missing:
            raise _bad(f"no tile given for the {kind} city space(s) {', '.join(missing)}")
        out.append([tiles[s] for s in wanted])
    return out


def table_setup(content: Content, state: State, observed: Mapping[str, Any]) -> list[Event]:
    if not isinstance(observed, Mapping):
        raise _bad("a JSON object with " + ", ".join(KEYS))
    unknown = sorted(set(observed) - set(KEYS))
    if unknown:
        raise _bad(f"unknown part(s) {', '.join(unknown)}; the parts are {', '.join(KEYS)}")
    # The outcomes in the order setup asks for them (setup.py, then round 1's trains).
    outcomes: list[Any] = [_names(observed, "goals"), _names(observed, "routes"),
                           *_tiles(content, state, observed), _names(observed, "starting_stations"),
                           _names(observed, "locomotives"), _names(observed, "cars")]
    rng = TableRandom(outcomes)
    try:
        events = decide.setup(content, state, rng)
    except OutcomeNeeded as needed:  # a deck too short to give what the rules turn up
        raise _bad(f"the rules also need {needed.request.describe()}") from None
    except ImpossibleOutcome as error:
        raise ImpossibleOutcome(f"observed setup: {error.message}") from None
    if rng.used != len(outcomes):
        raise _bad(f"{len(outcomes) - rng.used} part(s) more than setup turns up")
    return events


def observed_of(events: Sequence[Event]) -> dict[str, Any]:
    """The observed form of an opening already decided (a seeded one, say): what a referee
    would have written down at the table."""
    observed: dict[str, Any] = {}
    tiles: dict[str, str] = {}
    for event in events:
        if isinstance(event, CardsRevealedBeside):
            observed[event.deck] = list(event.revealed)
        elif isinstance(event, CityTilesPlaced) and event.random is not None:
            tiles.update(event.tiles)
        elif isinstance(event, StartingOrderDrawn):
            observed["starting_stations"] = [event.cards[str(seat)] for seat in range(len(event.cards))]
        elif isinstance(event, TrainsRevealed) and "locomotives" not in observed:
            observed["locomotives"], observed["cars"] = list(event.locomotives), list(event.cars)
    if tiles:
        observed["city_tiles"] = tiles
    return observed
