"""`evolve`: the state after one event. It never validates and never draws randomness: every
event carries what it changed (a placement's owners, the cube a draw gave), so applying it is
bookkeeping, and a replay never needs the rules' reasoning again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.age_of_steam.board import COLUMN_SPACES, SHARE_PRICE
from domain.age_of_steam.goods import colour_at
from domain.age_of_steam.state import AUCTION, OVER, Auction, BuildTurn, Placed, State
from domain.age_of_steam.track import owned_refs, unown, urbanize
from domain.core.events import Event
from domain.core.randomness import RANDOM_KEY
from domain.core.state import replace, replace_seat


def evolve(state: State, event: Event) -> State:
    apply = _APPLY.get(event.kind)
    # Kinds that are not this game's (the service's own GameCreated, SeedRevealed...) leave
    # the board as it is.
    return state if apply is None else apply(state, event.data)


def _pay(state: State, seat: int, amount: int) -> State:
    """Money from the seat to the bank (negative: from the bank to the seat)."""
    state = replace_seat(state, seat, cash=state.seats[seat].cash - amount)
    return replace(state, bank=state.bank - amount)


def _pop(state: State, seat: int) -> State:
    assert state.queue and state.queue[0] == seat, (state.queue, seat)
    return replace(state, queue=state.queue[1:])


def _take_from_bag(bag: dict[str, int], colour: str) -> dict[str, int]:
    out = dict(bag)
    out[colour] -= 1
    return out


def _add_cube(cubes: dict[str, tuple[str, ...]], hex_: str, colour: str) -> dict[str, tuple[str, ...]]:
    out = dict(cubes)
    out[hex_] = tuple(sorted((*out.get(hex_, ()), colour)))
    return out


def _set_space(display: dict[str, tuple[str | None, ...]], column: str, space: int, cube: str | None) -> dict[str, tuple[str | None, ...]]:
    out = dict(display)
    spaces = list(out[column])
    spaces[space] = cube
    out[column] = tuple(spaces)
    return out


def _drawn(state: State, data: dict[str, Any]) -> tuple[str, dict[str, int]]:
    # The colour follows from the bag and the stored index; the event's `cube` says the same
    # for readers.
    outcome = data[RANDOM_KEY]
    colour = colour_at(state.bag, outcome["value"])
    return colour, _take_from_bag(state.bag, colour)


# --- setup ------------------------------------------------------------------------------


def _unchanged(state: State, data: dict[str, Any]) -> State:
    return state


def _player_order_set(state: State, data: dict[str, Any]) -> State:
    return replace(state, order=tuple(data["order"]))


def _starting_capital(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    state = replace_seat(state, seat, shares=state.seats[seat].shares + data["shares"])
    return _pay(state, seat, -data["cash"])


def _display_cube_drawn(state: State, data: dict[str, Any]) -> State:
    colour, bag = _drawn(state, data)
    return replace(state, bag=bag, display=_set_space(state.display, data["column"], data["space"], colour))


def _city_cube_drawn(state: State, data: dict[str, Any]) -> State:
    colour, bag = _drawn(state, data)
    return replace(state, bag=bag, cubes=_add_cube(state.cubes, data["hex"], colour))


# --- turn and phases --------------------------------------------------------------------


def _turn_began(state: State, data: dict[str, Any]) -> State:
    holder = state.actions.get("turn_order")
    if holder is not None and state.seats[holder].eliminated:
        holder = None
    return replace(state, turn=data["turn"], actions={}, turn_order_pass=holder, loco_upgraded=frozenset(), build=None)


def _phase_began(state: State, data: dict[str, Any]) -> State:
    phase, queue = data["phase"], tuple(data["queue"])
    state = replace(state, phase=phase, queue=queue)
    if phase == AUCTION:
        order = state.order
        state = replace(
            state,
            auction=Auction(
                seats=order,
                bidders=order,
                current=order[0],
                bids=dict.fromkeys(order, 0),
                pass_holder=state.turn_order_pass if state.turn_order_pass in order else None,
            ),
        )
    return state


# --- shares and the auction -------------------------------------------------------------


def _shares_issued(state: State, data: dict[str, Any]) -> State:
    seat, count = data["seat"], data["count"]
    state = replace_seat(state, seat, shares=state.seats[seat].shares + count)
    return _pop(_pay(state, seat, -SHARE_PRICE * count), seat)


def _next_bidder(auction: Auction, after: int) -> int | None:
    """The next seat round the auction's order after `after` still in and not holding the
    high bid; None once a single bidder is left."""
    if len(auction.bidders) <= 1:
        return None
    seats = auction.seats
    start = seats.index(after)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step) % len(seats)]
        if seat in auction.bidders and seat != auction.high_bidder:
            return seat
    return None


def _bid_placed(state: State, data: dict[str, Any]) -> State:
    auction = state.auction
    assert auction is not None
    seat, amount = data["seat"], data["amount"]
    bids = dict(auction.bids)
    bids[seat] = amount
    auction = replace(auction, high=amount, high_bidder=seat, bids=bids)
    return replace(state, auction=replace(auction, current=_next_bidder(auction, seat)))


def _auction_dropped(state: State, data: dict[str, Any]) -> State:
    auction = state.auction
    assert auction is not None
    seat = data["seat"]
    auction = replace(
        auction, bidders=tuple(s for s in auction.bidders if s != seat), dropped=(*auction.dropped, seat)
    )
    return replace(state, auction=replace(auction, current=_next_bidder(auction, seat)))


def _turn_order_pass_used(state: State, data: dict[str, Any]) -> State:
    auction = state.auction
    assert auction is not None
    auction = replace(auction, pass_holder=None)
    return replace(state, turn_order_pass=None, auction=replace(auction, current=_next_bidder(auction, data["seat"])))


def _auction_settled(state: State, data: dict[str, Any]) -> State:
    for key, amount in data["payments"].items():
        state = _pay(state, int(key), amount)
    return replace(state, order=tuple(data["order"]), auction=None)


# --- actions and track ------------------------------------------------------------------


def _action_selected(state: State, data: dict[str, Any]) -> State:
    actions = dict(state.actions)
    actions[data["action"]] = data["seat"]
    return _pop(replace(state, actions=actions), data["seat"])


def _locomotive_increased(state: State, data: dict[str, Any]) -> State:
    return replace_seat(state, data["seat"], locomotive=data["after"])


def _build_turn_began(state: State, data: dict[str, Any]) -> State:
    at_risk = tuple((port, length) for port, length in data["at_risk"])
    return replace(state, build=BuildTurn(data["seat"], data["limit"], at_risk=at_risk))


def _city_urbanized(state: State, data: dict[str, Any]) -> State:
    hex_, seat = data["hex"], data["seat"]
    old = state.board.get(hex_)
    board, new_cities, _ = urbanize(state.board, state.new_cities, hex_, data["city"], seat)
    stock = state.stock
    discs = state.discs
    if old is not None:
        stock = dict(stock)
        stock[old.tile] += 1
        discs += int(old.disc)
    cubes = state.cubes if hex_ in state.cubes else {**state.cubes, hex_: ()}
    build = state.build
    assert build is not None
    return replace(
        state, board=board, new_cities=new_cities, stock=stock, discs=discs, cubes=cubes,
        build=replace(build, urbanized=True),
    )


def _track_built(state: State, data: dict[str, Any]) -> State:
    seat, hex_, tile = data["seat"], data["hex"], data["tile"]
    board = dict(state.board)
    board[hex_] = Placed(tile, data["rotation"], tuple(data["owners"]), data["disc"])
    for other, index in data["taken"]:
        placed = board[other]
        owners = list(placed.owners)
        owners[index] = seat
        board[other] = Placed(placed.tile, placed.rotation, tuple(owners), placed.disc)
    stock = dict(state.stock)
    stock[tile] -= 1
    if data["returned"] is not None:
        stock[data["returned"]] += 1
    build = state.build
    assert build is not None
    state = replace(
        state, board=board, stock=stock, discs=state.discs - data["disc_delta"],
        build=replace(build, placed=(*build.placed, hex_)),
    )
    if not state.seats[seat].built:
        state = replace_seat(state, seat, built=True)
    return _pay(state, seat, data["cost"])


def _build_ended(state: State, data: dict[str, Any]) -> State:
    return _pop(state, data["seat"])


def _track_abandoned(state: State, data: dict[str, Any]) -> State:
    return replace(state, board=unown(state.board, [(h, i) for h, i in data["segments"]]))


# --- moving goods -----------------------------------------------------------------------


def _goods_delivered(state: State, data: dict[str, Any]) -> State:
    source, cube = data["from"], data["cube"]
    cubes = dict(state.cubes)
    held = list(cubes[source])
    held.remove(cube)
    cubes[source] = tuple(held)
    bag = dict(state.bag)
    bag[cube] += 1
    state = replace(state, cubes=cubes, bag=bag)
    for key, gained in data["income"].items():
        seat = int(key)
        before = state.seats[seat]
        state = replace_seat(state, seat, income=before.income + gained, income_gained=before.income_gained + gained)
    return _pop(state, data["seat"])


def _locomotive_upgraded_instead(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    state = replace_seat(state, seat, locomotive=data["after"])
    return _pop(replace(state, loco_upgraded=state.loco_upgraded | {seat}), seat)


def _move_passed(state: State, data: dict[str, Any]) -> State:
    return _pop(state, data["seat"])


# --- income, expenses, goods growth -------------------------------------------------------


def _income_collected(state: State, data: dict[str, Any]) -> State:
    return _pay(state, data["seat"], -data["amount"])


def _expenses_paid(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    before = state.seats[seat]
    state = replace_seat(
        state, seat, income=before.income - data["income_lost"], income_lost=before.income_lost + data["income_lost"]
    )
    return _pay(state, seat, data["paid"])


def _player_bankrupt(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    board = unown(state.board, owned_refs(state.board, seat))
    state = replace_seat(state, seat, eliminated=True)
    return replace(state, board=board, order=tuple(s for s in state.order if s != seat))


def _income_reduced(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    before = state.seats[seat]
    return replace_seat(state, seat, income=data["after"], income_lost=before.income_lost + data["reduction"])


def _production_drawn(state: State, data: dict[str, Any]) -> State:
    colour, bag = _drawn(state, data)
    return replace(state, bag=bag, production=(*state.production, colour))


def _goods_produced(state: State, data: dict[str, Any]) -> State:
    cube = state.production[0]
    display = _set_space(state.display, data["column"], data["space"], cube)
    return _pop(replace(state, display=display, production=state.production[1:]), data["seat"])


def _goods_grown(state: State, data: dict[str, Any]) -> State:
    column, space = data["column"], data["space"]
    cube = state.display[column][space]
    assert cube is not None and 0 <= space < COLUMN_SPACES[column]
    display = _set_space(state.display, column, space, None)
    return replace(state, display=display, cubes=_add_cube(state.cubes, data["hex"], cube))


# --- the end ------------------------------------------------------------------------------


def _final_scored(state: State, data: dict[str, Any]) -> State:
    return replace_seat(state, data["seat"], final_vp=data["vp"])


def _game_ended(state: State, data: dict[str, Any]) -> State:
    return replace(state, phase=OVER, queue=(), auction=None, build=None, winners=tuple(data["winners"]))


_APPLY: dict[str, Callable[[State, dict[str, Any]], State]] = {
    "OrderDieRolled": _unchanged,
    "PlayerOrderSet": _player_order_set,
    "StartingCapitalTaken": _starting_capital,
    "DisplayCubeDrawn": _display_cube_drawn,
    "CityCubeDrawn": _city_cube_drawn,
    "TurnBegan": _turn_began,
    "PhaseBegan": _phase_began,
    "SharesIssued": _shares_issued,
    "BidPlaced": _bid_placed,
    "AuctionDropped": _auction_dropped,
    "TurnOrderPassUsed": _turn_order_pass_used,
    "AuctionSettled": _auction_settled,
    "ActionSelected": _action_selected,
    "LocomotiveIncreased": _locomotive_increased,
    "BuildTurnBegan": _build_turn_began,
    "CityUrbanized": _city_urbanized,
    "TrackBuilt": _track_built,
    "BuildEnded": _build_ended,
    "TrackAbandoned": _track_abandoned,
    "GoodsDelivered": _goods_delivered,
    "LocomotiveUpgradedInsteadOfMove": _locomotive_upgraded_instead,
    "MovePassed": _move_passed,
    "IncomeCollected": _income_collected,
    "ExpensesPaid": _expenses_paid,
    "PlayerBankrupt": _player_bankrupt,
    "IncomeReduced": _income_reduced,
    "ProductionDrawn": _production_drawn,
    "GoodsProduced": _goods_produced,
    "GrowthDieRolled": _unchanged,
    "GoodsGrown": _goods_grown,
    "TurnEnded": _unchanged,
    "FinalScored": _final_scored,
    "TieBreakRolled": _unchanged,
    "GameEnded": _game_ended,
}
