"""A builder's turn (`docs/rules/age_of_steam.md`, "4. Build track"; cases 16–43, Urbanization
64–65), read top to bottom: the events it records, the turn's own limits (placements per turn,
one per hex, Urbanization first), the moves a builder has, what a placement, a new city and the
end of the turn record, and how each event changes the state. Whether one placement is allowed
is `track.assess`; which placements to list is `building.placements`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING, Any

from domain.age_of_steam.board import BUILDS_PER_TURN, ENGINEER_BUILDS, Map
from domain.age_of_steam.building import placements
from domain.age_of_steam.ledger import Handlers, pay, pop
from domain.age_of_steam.moves import Build, BuildStep, Urbanize
from domain.age_of_steam.state import ENGINEER, URBANIZATION, BuildTurn, Placed, State
from domain.age_of_steam.track import Placement, abandoned, apply_placement, assess, incomplete_at_risk, unown, urbanize
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BuildTurnBegan(Event):
    """A seat's build step began: how many tiles it may place, and its incomplete links at
    risk of being abandoned (anchor, length)."""

    seat: int
    limit: int
    at_risk: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class TrackBuilt(Event):
    """A seat placed, upgraded or redirected a track tile, paying its cost; `owners` is the
    tile's owner per path, `taken` the segments it newly owns elsewhere."""

    seat: int
    hex: str
    place: str
    tile: str
    rotation: int
    cost: int
    placement: str = field(metadata={"key": "kind"})
    owners: tuple[int | None, ...]
    disc: bool
    disc_delta: int
    returned: str | None
    taken: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class BuildStepWritten(Event):
    """A seat's build step written as one line, its placements in any order: `placements`
    (hex, tile, rotation) as written, `order` the order they were laid in (the first, from
    the one written, in which each is legal when it is laid); a `TrackBuilt` follows for each."""

    seat: int
    placements: tuple[tuple[str, str, int], ...]
    order: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class CityUrbanized(Event):
    """A seat placed a new city on a town (the Urbanization action); the town's tile, if
    any, went back to the supply."""

    seat: int
    hex: str
    town: str
    city: str
    colour: str
    returned: str | None
    claimed: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class BuildEnded(Event):
    """A seat ended its build step, having placed `placed` tiles."""

    seat: int
    placed: int


@dataclass(frozen=True, kw_only=True)
class TrackAbandoned(Event):
    """A seat's incomplete links at risk were not extended this turn and lost their owner."""

    seat: int
    links: tuple[str, ...]
    segments: tuple[tuple[str, int], ...]


# --- the turn's limits --------------------------------------------------------------------


def check_build(map_: Map, state: State, seat: int, command: Build) -> Placement:
    build = state.build
    assert build is not None
    if len(build.placed) >= build.limit:
        raise IllegalMove("build_limit", f"You have placed your {build.limit} tiles this turn; end your build.")
    if command.hex in build.placed:
        raise IllegalMove("hex_built_this_turn", f"You already built on {map_.place_name(command.hex, state.new_cities)} this turn.")
    placement = assess(map_, state, seat, command.hex, command.tile, command.rotation)
    if command.cost is not None and command.cost != placement.cost:
        raise IllegalMove("cost_mismatch", f"This placement costs ${placement.cost}, not ${command.cost}.")
    return placement


def urbanize_reason(state: State, seat: int) -> IllegalMove | None:
    """Why `seat` may not urbanize now at all, or None."""
    build = state.build
    assert build is not None
    if state.actions.get(URBANIZATION) != seat:
        return IllegalMove("no_urbanization", "Only the Urbanization holder may place a new city.")
    if build.urbanized:
        return IllegalMove("already_urbanized", "You have already placed your new city this turn.")
    if build.placed:
        return IllegalMove("urbanize_before_building", "Urbanization happens before building; you have already placed track.")
    return None


def check_urbanize(map_: Map, state: State, seat: int, command: Urbanize) -> None:
    reason = urbanize_reason(state, seat)
    if reason is not None:
        raise reason
    name = map_.place_name(command.hex, state.new_cities)
    if command.hex in state.new_cities:
        raise IllegalMove("already_a_city", f"{name} is already a city.")
    if command.hex not in map_.towns:
        raise IllegalMove("not_a_town", f"A new city is placed on a town; {name} is not one.")
    if command.city in state.new_cities.values():
        raise IllegalMove("new_city_used", f"New city {command.city} is already on the map.")


def legal_moves(map_: Map, state: State, seat: int) -> list[dict[str, Any]]:
    build = state.build
    assert build is not None
    moves: list[dict[str, Any]] = []
    if urbanize_reason(state, seat) is None:
        letters = [letter for letter in map_.new_city if letter not in state.new_cities.values()]
        moves += [
            {"type": "urbanize", "hex": town, "city": letter}
            for town in map_.towns
            if town not in state.new_cities
            for letter in letters
        ]
    if len(build.placed) < build.limit:
        moves += [
            {"type": "build", "hex": p.hex, "tile": p.tile, "rotation": p.rotation, "cost": p.cost}
            for p in placements(map_, state, seat)
        ]
    moves.append({"type": "end_build"})
    return moves


# --- the turn -----------------------------------------------------------------------------


def begin_turn(steps: Steps, seat: int) -> None:
    """3 placements (4 with Engineer); the seat's incomplete track is at risk from now."""
    state = steps.state
    limit = ENGINEER_BUILDS if state.actions.get(ENGINEER) == seat else BUILDS_PER_TURN
    at_risk = incomplete_at_risk(steps.map, state.board, state.new_cities, seat)
    steps.emit(BuildTurnBegan(seat=seat, limit=limit, at_risk=at_risk))


def build(steps: Steps, seat: int, command: Build, own: bool = True) -> None:
    """One placement: the seat's own move, or (`own` false) one laid for a written build step."""
    state, map_ = steps.state, steps.map
    try:
        placement = check_build(map_, state, seat, command)
    except IllegalMove as error:
        if own and error.code == "not_connected":
            # A town tile written before the track that reaches it: say how to write the step.
            raise IllegalMove(error.code, f"{error.message} The ruling: {ORDER_RULING}. Write the build step on "
                              "one line, its placements separated by `;`, to have them laid in an order that is "
                              "legal.") from None
        raise
    after, claimed = apply_placement(map_, state.board, state.new_cities, placement, seat)
    taken = tuple(
        (hex_, index)
        for hex_ in claimed
        for index, owner in enumerate(after[hex_].owners)
        if owner == seat and state.board[hex_].owners[index] is None
    )
    built = TrackBuilt(
        seat=seat, hex=command.hex, place=map_.place_name(command.hex, state.new_cities), tile=command.tile,
        rotation=command.rotation, cost=placement.cost, placement=placement.kind, owners=after[command.hex].owners,
        disc=placement.placed.disc, disc_delta=placement.disc_delta, returned=placement.returned, taken=taken,
    )
    if own:
        steps.moved(built)
    else:
        steps.emit(built)


ORDER_RULING = ("placements are judged one at a time, each legal when it is laid; a build step written in "
                "another order than it was laid is accepted if some legal order exists")
"""The ruling on a build step's order (`docs/notation-age-of-steam.md`), quoted in refusals."""


def build_step(steps: Steps, seat: int, command: BuildStep) -> None:
    """The placements laid in the first order, from the one written, in which each is legal
    when it is laid (at most 4 placements: 24 orders to try)."""
    first: IllegalMove | None = None
    for order in permutations(range(len(command.placements))):
        trial = steps.trial()
        try:
            for index in order:
                build(trial, seat, command.placements[index], own=False)
        except IllegalMove as error:
            first = first or error
            continue
        steps.moved(BuildStepWritten(
            seat=seat, placements=tuple((p.hex, p.tile, p.rotation) for p in command.placements), order=order))
        for index in order:
            build(steps, seat, command.placements[index], own=False)
        return
    assert first is not None
    raise IllegalMove(first.code, f"No order of these placements is legal ({ORDER_RULING}); "
                      f"in the order written: {first.message}")


def place_new_city(steps: Steps, seat: int, command: Urbanize) -> None:
    state, map_ = steps.state, steps.map
    check_urbanize(map_, state, seat, command)
    old = state.board.get(command.hex)
    _, _, claimed = urbanize(map_, state.board, state.new_cities, command.hex, command.city, seat)
    steps.moved(CityUrbanized(
        seat=seat, hex=command.hex, town=map_.towns[command.hex], city=command.city,
        colour=map_.new_city[command.city].colour, returned=old.tile if old is not None else None,
        claimed=tuple(claimed),
    ))


def end_turn(steps: Steps, seat: int) -> None:
    """The end of the seat's build step: its track at risk that it did not extend is lost."""
    turn = steps.state.build
    assert turn is not None
    steps.moved(BuildEnded(seat=seat, placed=len(turn.placed)))
    state = steps.state
    lost = abandoned(steps.map, state.board, state.new_cities, seat, turn.at_risk)
    if lost:
        steps.emit(TrackAbandoned(
            seat=seat,
            links=tuple(link.id for link in lost),
            segments=tuple((hex_, index) for link in lost for hex_, index in link.segments),
        ))


# --- the events applied -------------------------------------------------------------------


def _turn_began(state: State, event: BuildTurnBegan) -> State:
    at_risk = tuple((port, length) for port, length in event.at_risk)
    return replace(state, build=BuildTurn(event.seat, event.limit, at_risk=at_risk))


def _built(state: State, event: TrackBuilt) -> State:
    seat, hex_, tile = event.seat, event.hex, event.tile
    board = dict(state.board)
    board[hex_] = Placed(tile, event.rotation, tuple(event.owners), event.disc)
    for other, index in event.taken:
        placed = board[other]
        owners = list(placed.owners)
        owners[index] = seat
        board[other] = Placed(placed.tile, placed.rotation, tuple(owners), placed.disc)
    stock = dict(state.stock)
    stock[tile] -= 1
    if event.returned is not None:
        stock[event.returned] += 1
    turn = state.build
    assert turn is not None
    state = replace(
        state, board=board, stock=stock, discs=state.discs - event.disc_delta,
        build=replace(turn, placed=(*turn.placed, hex_)),
    )
    if not state.seats[seat].built:
        state = replace_seat(state, seat, built=True)
    return pay(state, seat, event.cost)


def urbanized(map_: Map, state: State, event: CityUrbanized) -> State:
    """The one event whose bookkeeping reads the map: the new city takes over the track it
    completes."""
    hex_ = event.hex
    old = state.board.get(hex_)
    board, new_cities, _ = urbanize(map_, state.board, state.new_cities, hex_, event.city, event.seat)
    stock = state.stock
    discs = state.discs
    if old is not None:
        stock = dict(stock)
        stock[old.tile] += 1
        discs += int(old.disc)
    cubes = state.cubes if hex_ in state.cubes else {**state.cubes, hex_: ()}
    turn = state.build
    assert turn is not None
    return replace(
        state, board=board, new_cities=new_cities, stock=stock, discs=discs, cubes=cubes,
        build=replace(turn, urbanized=True),
    )


def _step_written(state: State, event: BuildStepWritten) -> State:
    # The placements' own `TrackBuilt` events that follow change the board.
    return state


def _ended(state: State, event: BuildEnded) -> State:
    return pop(state, event.seat)


def _abandoned(state: State, event: TrackAbandoned) -> State:
    return replace(state, board=unown(state.board, [(h, i) for h, i in event.segments]))


APPLY: Handlers = {BuildTurnBegan: _turn_began, TrackBuilt: _built, BuildStepWritten: _step_written, BuildEnded: _ended,
                   TrackAbandoned: _abandoned}
KINDS: tuple[type[Event], ...] = (*APPLY, CityUrbanized)
