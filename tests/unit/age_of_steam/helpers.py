"""Helpers for the Age of Steam rules tests: games started with a fixed seed, positions built
directly as `State` (with every cube, tile, disc and dollar accounted for, so the invariants
hold), and moves played through `decide` + `evolve`. The conformance cases use them too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from domain.age_of_steam.state import AUCTION, BUILD, MOVE, PRODUCTION, Auction, BuildTurn, Placed, Seat, State
from domain.age_of_steam.tiles import MIX, SEGMENTS, needs_disc
from domain.age_of_steam.track import incomplete_at_risk
from domain.core.errors import RuleError
from domain.core.events import Event
from domain.core.randomness import Randomness, RecordedRandom, SeededRandom
from tests import playouts
from tests.rust_belt import CITY_BY_NAME, DECIDER, MAP, TOWNS

SEED = bytes(32)


def fold(state: State, events: Iterable[Event]) -> State:
    return playouts.fold(DECIDER, state, events)


def new_game(seats: int = 3, seed: bytes = SEED) -> tuple[State, list[Event], SeededRandom]:
    """A game right after its setup events: the first seat in order is issuing shares."""
    return playouts.set_up(DECIDER, seats, seed)


def play(state: State, seat: int, move: Mapping[str, Any], rng: Randomness | None = None) -> tuple[State, list[Event]]:
    events = DECIDER.decide(state, seat, move, rng or SeededRandom(SEED))
    after = fold(state, events)
    assert DECIDER.invariants(after) == [], DECIDER.invariants(after)
    return after, events


def refused(state: State, seat: int, move: Mapping[str, Any], error: type[RuleError] = RuleError) -> RuleError:
    """The error `move` is refused with (failing the test if it is accepted)."""
    with pytest.raises(error) as caught:
        DECIDER.decide(state, seat, move, SeededRandom(SEED))
    return caught.value


def dice(*faces: int) -> RecordedRandom:
    """A generator that rolls the given die faces, in order."""
    return RecordedRandom({"below": 6, "value": face - 1} for face in faces)


def kinds(events: Iterable[Event]) -> list[str]:
    return [event.kind for event in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def hex_of(place: str) -> str:
    """A city's hex from its name, a town's hex from its name, or a hex id as it is."""
    if place in CITY_BY_NAME:
        return CITY_BY_NAME[place]
    for hex_, name in TOWNS.items():
        if name == place:
            return hex_
    return place


def tile(hex_: str, tile_: str, rotation: int, *owners: int | None) -> dict[str, Any]:
    """A tile spec for `table`; owners default to one unowned segment each."""
    return {"hex": hex_of(hex_), "tile": tile_, "rotation": rotation, "owners": list(owners)}


def table(
    seats: int = 3,
    *,
    phase: str = BUILD,
    turn: int = 1,
    cash: Sequence[int] | None = None,
    income: Sequence[int] | None = None,
    shares: Sequence[int] | None = None,
    locomotive: Sequence[int] | None = None,
    eliminated: Sequence[int] = (),
    order: Sequence[int] | None = None,
    queue: Sequence[int] | None = None,
    actions: Mapping[str, int] | None = None,
    turn_order_pass: int | None = None,
    board: Sequence[Mapping[str, Any]] = (),
    new_cities: Mapping[str, str] | None = None,
    cubes: Mapping[str, Sequence[str]] | None = None,
    display: Mapping[str, Sequence[str | None]] | None = None,
    full_display: bool = True,
    production: Sequence[str] = (),
    placed: Sequence[str] = (),
    limit: int | None = None,
    urbanized: bool = False,
    loco_upgraded: Sequence[int] = (),
    bids: Mapping[int, int] | None = None,
    high_bidder: int | None = None,
    dropped: Sequence[int] = (),
    bidders: Sequence[int] | None = None,
    current: int | None = None,
    pass_holder: int | None = None,
    last_turn: int | None = None,
    coexisting_cost: int = 2,
    built: Sequence[int] | None = None,
) -> State:
    """A position built directly. Cubes not on cities or the display are in the bag; unless
    `full_display` is off, display columns not given are filled from the bag in fill order;
    tiles not on the board are in stock; money held is what the bank paid out. A seat has
    built before when it owns track, unless `built` lists the seats that have."""
    order = list(order if order is not None else [s for s in range(seats) if s not in eliminated])
    cash = list(cash if cash is not None else [10] * seats)
    income = list(income if income is not None else [0] * seats)
    shares = list(shares if shares is not None else [2] * seats)
    locomotive = list(locomotive if locomotive is not None else [1] * seats)
    new_cities = {hex_of(h): letter for h, letter in (new_cities or {}).items()}
    city_cubes = {hex_of(h): tuple(sorted(c)) for h, c in (cubes or {}).items()}
    bag = Counter(MAP.bag)
    for held in city_cubes.values():
        bag.subtract(held)
    bag.subtract(production)
    spaces: dict[str, tuple[str | None, ...]] = {c: (None,) * n for c, n in MAP.column_spaces.items()}
    for column, given in (display or {}).items():
        spaces[column] = tuple(given)
        bag.subtract(c for c in given if c is not None)
    if full_display:
        for column, space in MAP.display_fill_order:
            if column in (display or {}):
                continue
            colour = next(c for c in sorted(bag) if bag[c] > 0)
            bag[colour] -= 1
            column_spaces = list(spaces[column])
            column_spaces[space] = colour
            spaces[column] = tuple(column_spaces)
    assert all(n >= 0 for n in bag.values()), "the position uses more goods than the bag holds"
    tiles: dict[str, Placed] = {}
    for spec in board:
        hex_ = hex_of(spec["hex"])
        town = hex_ in TOWNS
        count = len(SEGMENTS[(spec["tile"], spec["rotation"], town)])
        owners = tuple(spec.get("owners") or ()) or (None,) * count
        assert len(owners) == count, f"{hex_}: {count} segments, owners {owners}"
        tiles[hex_] = Placed(spec["tile"], spec["rotation"], owners, town and needs_disc(spec["tile"]))
    stock = dict(MIX)
    for placed_tile in tiles.values():
        stock[placed_tile.tile] -= 1
    assert all(n >= 0 for n in stock.values())
    seat_list = tuple(
        Seat(
            f"player {i + 1}",
            cash=cash[i],
            income=income[i],
            shares=shares[i],
            locomotive=locomotive[i],
            eliminated=i in eliminated,
            built=i in built if built is not None else any(i in p.owners for p in tiles.values()),
            income_gained=max(income[i], 0),
            income_lost=max(-income[i], 0),
        )
        for i in range(seats)
    )
    state = State(
        seats=seat_list,
        last_turn=last_turn if last_turn is not None else {3: 10, 4: 8, 5: 7, 6: 6}[seats],
        coexisting_upgrade_cost=coexisting_cost,
        phase=phase,
        turn=turn,
        order=tuple(order),
        queue=tuple(queue if queue is not None else ((order + order) if phase == MOVE else order)),
        actions=dict(actions or {}),
        turn_order_pass=turn_order_pass,
        loco_upgraded=frozenset(loco_upgraded),
        board=tiles,
        new_cities=new_cities,
        stock=stock,
        discs=MAP.town_discs - sum(p.disc for p in tiles.values()),
        bag=dict(bag),
        display=spaces,
        cubes={**dict.fromkeys((*CITY_BY_NAME.values(), *new_cities), ()), **city_cubes},
        production=tuple(production),
        bank=sum(cash),
    )
    if phase == BUILD:
        seat = state.queue[0]
        engineer = (actions or {}).get("engineer") == seat
        state = _replace(
            state,
            build=BuildTurn(
                seat,
                limit if limit is not None else (4 if engineer else 3),
                tuple(hex_of(h) for h in placed),
                urbanized,
                incomplete_at_risk(MAP, state.board, state.new_cities, seat),
            ),
        )
    if phase == AUCTION:
        seats_in = tuple(order)
        still = tuple(bidders if bidders is not None else [s for s in seats_in if s not in dropped])
        all_bids = {s: 0 for s in seats_in} | dict(bids or {})
        high = max(all_bids.values()) if all_bids else 0
        state = _replace(
            state,
            auction=Auction(
                seats=seats_in,
                bidders=still,
                current=current if current is not None else still[0],
                high=high,
                high_bidder=high_bidder,
                bids=all_bids,
                dropped=tuple(dropped),
                pass_holder=pass_holder,
            ),
        )
    if phase == PRODUCTION:
        state = _replace(state, queue=tuple(queue if queue is not None else [actions["production"]] * len(production)))  # type: ignore[index]
    problems = DECIDER.invariants(state)
    assert problems == [], problems
    return state


def _replace(state: State, **changes: Any) -> State:
    from domain.core.state import replace

    return replace(state, **changes)
