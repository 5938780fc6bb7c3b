"""Phase 2, expansion (`docs/rules/railway_boom.md`, R14-R18, R25), read top to bottom: the
events, the marked cities revealed, the station and rails a seat may place, what a station, a
rail (with the city tile or tourist effect it reaches) and extra power record, and how each
event changes the state. Where a rail may go and what it costs is `building`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.state import replace, replace_seat
from domain.railway_boom import building, effects
from domain.railway_boom.bidding import conversion_for
from domain.railway_boom.content import EXTRA_POWER, TRACKS, Content
from domain.railway_boom.effects import CardUsed, PowerGained
from domain.railway_boom.ledger import Handlers, add, convert, unchanged, without
from domain.railway_boom.resources import converting, with_conversion
from domain.railway_boom.state import State, Turn

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StationCardsRevealed(Event):
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class StationBuilt(Event):
    """A station on a marked city; a rail of the seat's there came back to its supply, and
    `income` names the extra track raised for it (R14)."""

    seat: int
    city: str
    card: str
    income: str | None = None
    rail_returned: bool = False


@dataclass(frozen=True, kw_only=True)
class RailLaid(Event):
    """A rail on `hex`: its power cost, the surcharge for other players' pieces, and how it
    was paid (power, then money); a free rail pays nothing (R25)."""

    seat: int
    hex: str
    cost: int
    surcharge: int
    power: int
    money: int
    free: bool = False
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class TileGained(Event):
    """A resource tile from a normal city's tile (R18)."""

    seat: int
    hex: str
    tile: str


@dataclass(frozen=True, kw_only=True)
class TouristVisited(Event):
    seat: int
    hex: str
    tile: str


# --- the marked cities --------------------------------------------------------------------

STATIONS = "expansion: station cards revealed"
"""What the draw is called at a table (`rng.draw`'s `what`)."""


def reveal(steps: Steps) -> None:
    """The marked cities of the round: a station card per player."""
    steps.emit(StationCardsRevealed(cards=steps.draw("station", steps.state.players, STATIONS), automatic=True))


# --- the moves ----------------------------------------------------------------------------


def actions(content: Content, state: State, seat: int) -> list[dict[str, Any]]:
    """A station first (R15); then extra power, and each rail the seat can pay for."""
    turn, me = state.turn, state.seats[seat]
    if not turn.station:
        return _stations(content, state, seat) if me.stations else []
    moves: list[dict[str, Any]] = [{"type": "use_card", "card": c} for c in me.developments
                                   if content.developments[c].effect.type == EXTRA_POWER and c not in me.sideways]
    for hex_id in building.rail_spots(content, state, seat):
        _, money = building.split(state, seat, sum(building.rail_cost(content, state, seat, hex_id)))
        convert = conversion_for(me, "money", money)
        if convert is not None:
            moves.append(with_conversion({"type": "lay_rail", "hex": hex_id}, convert))
    return moves


def _stations(content: Content, state: State, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for card in state.offer:
        city = content.station_cards[card].city
        if city in state.stations:
            continue
        if seat in state.rails.get(city, ()):
            # R14: the rail there comes back, and any one income level rises too.
            out += [{"type": "place_station", "city": city, "income": track} for track in TRACKS]
        else:
            out.append({"type": "place_station", "city": city})
    return out


def place_station(steps: Steps, seat: int, c: Command) -> None:
    state, city = steps.state, c["city"]
    if state.turn.station:
        raise IllegalMove("station_built", "You have built your station this turn.")
    if not state.seats[seat].stations:
        raise IllegalMove("no_station_left", "You have no station left on your board.")
    card = next((x for x in state.offer if steps.content.station_cards[x].city == city), None)
    if card is None or city in state.stations:
        raise IllegalMove("city_not_marked", f"{city} is not a marked city nobody has picked (R15).")
    returning = seat in state.rails.get(city, ())
    if returning != (c["income"] is not None):
        raise IllegalMove("income_choice", "Name an \"income\" track to raise exactly when your rail is on that city (R14)."
                          if returning else "An \"income\" choice is only for a city holding your rail.")
    steps.emit(StationBuilt(seat=seat, city=city, card=card, income=c["income"], rail_returned=returning))
    tile = steps.content.city_tiles[steps.state.city_tiles[city]]
    effects.raise_levels(steps, seat, tile.resource, 1, f"station:{city}")
    if returning:
        effects.raise_levels(steps, seat, c["income"], 1, f"station:{city}")
    steps.emit(PowerGained(seat=seat, amount=tile.power, source=f"city:{city}", automatic=True))


def lay(steps: Steps, seat: int, hex_id: str, free: bool, convert: Mapping[str, int] | None = None, first: bool = True) -> None:
    """One rail (R17, R25): pay, then the city tile or tourist effect, then automatic cards."""
    content = steps.content
    if hex_id not in building.rail_spots(content, steps.state, seat, free=free):
        raise IllegalMove("rail_not_allowed", f"A rail cannot go on {hex_id}: it must be land without a piece of yours, "
                          "next to this turn's station or rails (R17), and you need a rail left.")
    cost, surcharge = (0, 0) if free else building.rail_cost(content, steps.state, seat, hex_id)
    power, money = building.split(steps.state, seat, cost + surcharge)
    recorded = None if free else converting(steps.state, seat, "money", convert, money)
    steps.emit(RailLaid(seat=seat, hex=hex_id, cost=cost, surcharge=surcharge, power=power, money=money, free=free,
                        convert=recorded, automatic=not first))
    place = content.hexes[hex_id]
    tile_id = steps.state.city_tiles.get(hex_id)
    if place.city == "normal" and tile_id is not None:
        kind = content.city_tiles[tile_id].resource
        if steps.state.tile_supply.get(kind, 0) > 0:
            steps.emit(TileGained(seat=seat, hex=hex_id, tile=kind, automatic=True))
    elif place.city == "tourist" and tile_id is not None:
        steps.emit(TouristVisited(seat=seat, hex=hex_id, tile=tile_id, automatic=True))
        tourist = content.city_tiles[tile_id].effect
        if tourist is not None:
            effects.apply(steps, seat, tourist, f"tourist:{hex_id}")
    effects.after_rail(steps, seat, place.terrain)


def lay_rail(steps: Steps, seat: int, c: Command) -> None:
    if not steps.state.turn.station:
        raise IllegalMove("station_first", "Build your station before laying rails (R15).")
    lay(steps, seat, c["hex"], False, c["convert"])


def use_card(steps: Steps, seat: int, c: Command) -> None:
    me, card = steps.state.seats[seat], c["card"]
    printed = steps.content.developments[card]
    if card not in me.developments or printed.effect.type != EXTRA_POWER or card in me.sideways:
        raise IllegalMove("card_not_usable", f"{card} is not an unused extra-power card of yours.")
    if not steps.state.turn.station:
        raise IllegalMove("station_first", "Extra power is used after building your station.")
    steps.emit(CardUsed(seat=seat, card=card))
    effects.apply(steps, seat, printed.effect, card)


# --- the events applied -------------------------------------------------------------------


def _stations_revealed(c: Content, s: State, e: StationCardsRevealed) -> State:
    return replace(s, decks={**s.decks, "station": without(s.decks["station"], *e.cards)}, offer=e.cards)


def _station(c: Content, s: State, e: StationBuilt) -> State:
    if e.rail_returned:
        s = _returned(s, e.seat, e.city)
    s = replace_seat(s, e.seat, stations=s.seats[e.seat].stations - 1)
    return replace(s, stations={**s.stations, e.city: e.seat}, offer=without(s.offer, e.card),
                   boxed=(*s.boxed, e.card), turn=Turn(station=e.city))


def _returned(s: State, seat: int, hex_id: str) -> State:
    s = replace_seat(s, seat, rails=s.seats[seat].rails + 1)
    left = tuple(x for x in s.rails[hex_id] if x != seat)
    rails = {h: v for h, v in s.rails.items() if h != hex_id}
    return replace(s, rails={**rails, hex_id: left} if left else rails)


def _rail(c: Content, s: State, e: RailLaid) -> State:
    s = convert(s, e.seat, "money", e.convert)
    seat = s.seats[e.seat]
    s = replace_seat(s, e.seat, rails=seat.rails - 1, power=seat.power - e.power,
                     resources=add(seat.resources, "money", -e.money))
    turn = replace(s.turn, laid=(*s.turn.laid, e.hex)) if s.turn.station else s.turn
    return replace(s, rails={**s.rails, e.hex: (*s.rails.get(e.hex, ()), e.seat)}, turn=turn)


def _tile(c: Content, s: State, e: TileGained) -> State:
    s = replace_seat(s, e.seat, tiles=add(s.seats[e.seat].tiles, e.tile, 1))
    return replace(s, tile_supply=add(s.tile_supply, e.tile, -1))


APPLY: Handlers = {StationCardsRevealed: _stations_revealed, StationBuilt: _station, RailLaid: _rail, TileGained: _tile,
                   TouristVisited: unchanged}
KINDS = tuple(APPLY)
