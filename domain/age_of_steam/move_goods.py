"""Moving goods (`docs/rules/age_of_steam.md`, "5. Move goods"; cases 44–48): two rounds, in each
of which every player delivers one good, raises their locomotive instead (once a turn), or
passes. The events each records, the checks, the moves a player has, and how each event changes
the state; which routes a good may take is `goods.routes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.age_of_steam.board import MAX_LOCOMOTIVE, Map
from domain.age_of_steam.goods import Route, check_route, routes
from domain.age_of_steam.ledger import Handlers, pop
from domain.age_of_steam.moves import Deliver, PassMove, UpgradeLocomotive
from domain.age_of_steam.state import State
from domain.age_of_steam.track import network
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GoodsDelivered(Event):
    """A seat moved a goods cube along links to a city of its colour; each link's owner
    gained one income per link."""

    seat: int
    round: int
    cube: str
    source: str = field(metadata={"key": "from"})
    to: str
    stops: tuple[str, ...]
    places: tuple[str, ...]
    links: tuple[str, ...]
    owners: tuple[int | None, ...]
    income: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class LocomotiveUpgradedInsteadOfMove(Event):
    """A seat upgraded its locomotive instead of one delivery."""

    seat: int
    round: int
    before: int
    after: int


@dataclass(frozen=True, kw_only=True)
class MovePassed(Event):
    """A seat passed one round of moving goods."""

    seat: int
    round: int


# --- the checks and the moves -------------------------------------------------------------


def check_upgrade(state: State, seat: int) -> None:
    if seat in state.loco_upgraded:
        raise IllegalMove("locomotive_once_per_turn", "You may raise your locomotive instead of moving a good only once a turn.")
    if state.seats[seat].locomotive >= MAX_LOCOMOTIVE:
        raise IllegalMove("locomotive_max", f"Your locomotive is already at the maximum of {MAX_LOCOMOTIVE} links.")


def check_deliver(map_: Map, state: State, seat: int, command: Deliver) -> Route:
    return check_route(
        map_, network(map_, state.board, state.new_cities), state.new_cities, state.cubes, command.city, command.cube,
        list(command.path), state.seats[seat].locomotive,
    )


def legal_moves(map_: Map, state: State, seat: int) -> list[dict[str, Any]]:
    net = network(map_, state.board, state.new_cities)
    locomotive = state.seats[seat].locomotive
    moves: list[dict[str, Any]] = []
    for city in (*map_.city_at, *state.new_cities):
        for cube in sorted(set(state.cubes.get(city, ()))):
            for route in routes(map_, net, state.new_cities, city, cube, locomotive):
                moves.append({"type": "deliver", "city": city, "cube": cube, "path": [link.id for link in route.links]})
    try:
        check_upgrade(state, seat)
        moves.append({"type": "upgrade_locomotive"})
    except IllegalMove:
        pass
    moves.append({"type": "pass_move"})
    return moves


def move(steps: Steps, seat: int, command: Deliver | UpgradeLocomotive | PassMove) -> None:
    state, map_ = steps.state, steps.map
    # Every player acts once per round: the queue holds both rounds, the first one longer.
    round_ = 1 if len(state.queue) > len(state.order) else 2
    if isinstance(command, Deliver):
        route = check_deliver(map_, state, seat, command)
        steps.moved(GoodsDelivered(
            seat=seat, round=round_, cube=command.cube, source=route.source, to=route.destination,
            stops=tuple(route.stops), places=tuple(map_.place_name(stop, state.new_cities) for stop in route.stops),
            links=tuple(link.id for link in route.links), owners=tuple(link.owner for link in route.links),
            income={str(owner): gained for owner, gained in sorted(route.income().items())},
        ))
    elif isinstance(command, UpgradeLocomotive):
        check_upgrade(state, seat)
        before = state.seats[seat].locomotive
        steps.moved(LocomotiveUpgradedInsteadOfMove(seat=seat, round=round_, before=before, after=before + 1))
    else:
        steps.moved(MovePassed(seat=seat, round=round_))


# --- the events applied -------------------------------------------------------------------


def _delivered(state: State, event: GoodsDelivered) -> State:
    source, cube = event.source, event.cube
    cubes = dict(state.cubes)
    held = list(cubes[source])
    held.remove(cube)
    cubes[source] = tuple(held)
    bag = dict(state.bag)
    bag[cube] += 1
    state = replace(state, cubes=cubes, bag=bag)
    for key, gained in event.income.items():
        seat = int(key)
        before = state.seats[seat]
        state = replace_seat(state, seat, income=before.income + gained, income_gained=before.income_gained + gained)
    return pop(state, event.seat)


def _upgraded(state: State, event: LocomotiveUpgradedInsteadOfMove) -> State:
    seat = event.seat
    state = replace_seat(state, seat, locomotive=event.after)
    return pop(replace(state, loco_upgraded=state.loco_upgraded | {seat}), seat)


def _passed(state: State, event: MovePassed) -> State:
    return pop(state, event.seat)


APPLY: Handlers = {GoodsDelivered: _delivered, LocomotiveUpgradedInsteadOfMove: _upgraded, MovePassed: _passed}
KINDS = tuple(APPLY)
