"""`evolve`: the state after one event. It never validates and never draws randomness: every
event carries what it changed (a placement's owners, the cube a draw gave), so applying it is
bookkeeping, and a replay never needs the rules' reasoning again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.age_of_steam import events
from domain.age_of_steam.board import SHARE_PRICE, Map
from domain.age_of_steam.goods import colour_at
from domain.age_of_steam.state import AUCTION, OVER, Auction, BuildTurn, Placed, State
from domain.age_of_steam.track import owned_refs, unown, urbanize
from domain.core.catalogue import UnknownKind
from domain.core.events import Event
from domain.core.state import replace, replace_seat


def evolve(map_: Map, state: State, event: Event) -> State:
    if type(event) in _ON_THE_MAP:
        return _ON_THE_MAP[type(event)](map_, state, event)
    apply = _APPLY.get(type(event))
    if apply is None:
        # The core folds its own kinds (creation, the seed's reveal, rewinds) itself, so a
        # kind reaching here that Age of Steam does not declare is a mistake, not a no-op.
        raise UnknownKind(event.kind, "Age of Steam")
    return apply(state, event)


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


def _drawn(state: State, outcome: events.Outcome) -> tuple[str, dict[str, int]]:
    # The colour follows from the bag and the stored index; the event's `cube` says the same
    # for readers.
    colour = colour_at(state.bag, outcome["value"])
    return colour, _take_from_bag(state.bag, colour)


# --- setup ------------------------------------------------------------------------------


def _unchanged(state: State, event: events.OrderDieRolled | events.GrowthDieRolled | events.TurnEnded | events.TieBreakRolled) -> State:
    return state


def _player_order_set(state: State, event: events.PlayerOrderSet) -> State:
    return replace(state, order=tuple(event.order))


def _starting_capital(state: State, event: events.StartingCapitalTaken) -> State:
    seat = event.seat
    state = replace_seat(state, seat, shares=state.seats[seat].shares + event.shares)
    return _pay(state, seat, -event.cash)


def _display_cube_drawn(state: State, event: events.DisplayCubeDrawn) -> State:
    colour, bag = _drawn(state, event.random)
    return replace(state, bag=bag, display=_set_space(state.display, event.column, event.space, colour))


def _city_cube_drawn(state: State, event: events.CityCubeDrawn) -> State:
    colour, bag = _drawn(state, event.random)
    return replace(state, bag=bag, cubes=_add_cube(state.cubes, event.hex, colour))


# --- turn and phases --------------------------------------------------------------------


def _turn_began(state: State, event: events.TurnBegan) -> State:
    holder = state.actions.get("turn_order")
    if holder is not None and state.seats[holder].eliminated:
        holder = None
    return replace(state, turn=event.turn, actions={}, turn_order_pass=holder, loco_upgraded=frozenset(), build=None)


def _phase_began(state: State, event: events.PhaseBegan) -> State:
    phase, queue = event.phase, tuple(event.queue)
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


def _shares_issued(state: State, event: events.SharesIssued) -> State:
    seat, count = event.seat, event.count
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


def _bid_placed(state: State, event: events.BidPlaced) -> State:
    auction = state.auction
    assert auction is not None
    seat, amount = event.seat, event.amount
    bids = dict(auction.bids)
    bids[seat] = amount
    auction = replace(auction, high=amount, high_bidder=seat, bids=bids)
    return replace(state, auction=replace(auction, current=_next_bidder(auction, seat)))


def _auction_dropped(state: State, event: events.AuctionDropped) -> State:
    auction = state.auction
    assert auction is not None
    seat = event.seat
    auction = replace(
        auction, bidders=tuple(s for s in auction.bidders if s != seat), dropped=(*auction.dropped, seat)
    )
    return replace(state, auction=replace(auction, current=_next_bidder(auction, seat)))


def _turn_order_pass_used(state: State, event: events.TurnOrderPassUsed) -> State:
    auction = state.auction
    assert auction is not None
    auction = replace(auction, pass_holder=None)
    return replace(state, turn_order_pass=None, auction=replace(auction, current=_next_bidder(auction, event.seat)))


def _auction_settled(state: State, event: events.AuctionSettled) -> State:
    for key, amount in event.payments.items():
        state = _pay(state, int(key), amount)
    return replace(state, order=tuple(event.order), auction=None)


# --- actions and track ------------------------------------------------------------------


def _action_selected(state: State, event: events.ActionSelected) -> State:
    actions = dict(state.actions)
    actions[event.action] = event.seat
    return _pop(replace(state, actions=actions), event.seat)


def _locomotive_increased(state: State, event: events.LocomotiveIncreased) -> State:
    return replace_seat(state, event.seat, locomotive=event.after)


def _build_turn_began(state: State, event: events.BuildTurnBegan) -> State:
    at_risk = tuple((port, length) for port, length in event.at_risk)
    return replace(state, build=BuildTurn(event.seat, event.limit, at_risk=at_risk))


def _city_urbanized(map_: Map, state: State, event: events.CityUrbanized) -> State:
    hex_, seat = event.hex, event.seat
    old = state.board.get(hex_)
    board, new_cities, _ = urbanize(map_, state.board, state.new_cities, hex_, event.city, seat)
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


def _track_built(state: State, event: events.TrackBuilt) -> State:
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
    build = state.build
    assert build is not None
    state = replace(
        state, board=board, stock=stock, discs=state.discs - event.disc_delta,
        build=replace(build, placed=(*build.placed, hex_)),
    )
    if not state.seats[seat].built:
        state = replace_seat(state, seat, built=True)
    return _pay(state, seat, event.cost)


def _build_ended(state: State, event: events.BuildEnded) -> State:
    return _pop(state, event.seat)


def _track_abandoned(state: State, event: events.TrackAbandoned) -> State:
    return replace(state, board=unown(state.board, [(h, i) for h, i in event.segments]))


# --- moving goods -----------------------------------------------------------------------


def _goods_delivered(state: State, event: events.GoodsDelivered) -> State:
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
    return _pop(state, event.seat)


def _locomotive_upgraded_instead(state: State, event: events.LocomotiveUpgradedInsteadOfMove) -> State:
    seat = event.seat
    state = replace_seat(state, seat, locomotive=event.after)
    return _pop(replace(state, loco_upgraded=state.loco_upgraded | {seat}), seat)


def _move_passed(state: State, event: events.MovePassed) -> State:
    return _pop(state, event.seat)


# --- income, expenses, goods growth -------------------------------------------------------


def _income_collected(state: State, event: events.IncomeCollected) -> State:
    return _pay(state, event.seat, -event.amount)


def _expenses_paid(state: State, event: events.ExpensesPaid) -> State:
    seat = event.seat
    before = state.seats[seat]
    state = replace_seat(
        state, seat, income=before.income - event.income_lost, income_lost=before.income_lost + event.income_lost
    )
    return _pay(state, seat, event.paid)


def _player_bankrupt(state: State, event: events.PlayerBankrupt) -> State:
    seat = event.seat
    board = unown(state.board, owned_refs(state.board, seat))
    state = replace_seat(state, seat, eliminated=True)
    return replace(state, board=board, order=tuple(s for s in state.order if s != seat))


def _income_reduced(state: State, event: events.IncomeReduced) -> State:
    seat = event.seat
    before = state.seats[seat]
    return replace_seat(state, seat, income=event.after, income_lost=before.income_lost + event.reduction)


def _production_drawn(state: State, event: events.ProductionDrawn) -> State:
    colour, bag = _drawn(state, event.random)
    return replace(state, bag=bag, production=(*state.production, colour))


def _goods_produced(state: State, event: events.GoodsProduced) -> State:
    cube = state.production[0]
    display = _set_space(state.display, event.column, event.space, cube)
    return _pop(replace(state, display=display, production=state.production[1:]), event.seat)


def _goods_grown(state: State, event: events.GoodsGrown) -> State:
    column, space = event.column, event.space
    cube = state.display[column][space]
    assert cube is not None
    display = _set_space(state.display, column, space, None)
    return replace(state, display=display, cubes=_add_cube(state.cubes, event.hex, cube))


# --- the end ------------------------------------------------------------------------------


def _final_scored(state: State, event: events.FinalScored) -> State:
    return replace_seat(state, event.seat, final_vp=event.vp)


def _game_ended(state: State, event: events.GameEnded) -> State:
    return replace(state, phase=OVER, queue=(), auction=None, build=None, winners=tuple(event.winners))


_APPLY: dict[type[Event], Callable[[State, Any], State]] = {
    events.OrderDieRolled: _unchanged,
    events.PlayerOrderSet: _player_order_set,
    events.StartingCapitalTaken: _starting_capital,
    events.DisplayCubeDrawn: _display_cube_drawn,
    events.CityCubeDrawn: _city_cube_drawn,
    events.TurnBegan: _turn_began,
    events.PhaseBegan: _phase_began,
    events.SharesIssued: _shares_issued,
    events.BidPlaced: _bid_placed,
    events.AuctionDropped: _auction_dropped,
    events.TurnOrderPassUsed: _turn_order_pass_used,
    events.AuctionSettled: _auction_settled,
    events.ActionSelected: _action_selected,
    events.LocomotiveIncreased: _locomotive_increased,
    events.BuildTurnBegan: _build_turn_began,
    events.TrackBuilt: _track_built,
    events.BuildEnded: _build_ended,
    events.TrackAbandoned: _track_abandoned,
    events.GoodsDelivered: _goods_delivered,
    events.LocomotiveUpgradedInsteadOfMove: _locomotive_upgraded_instead,
    events.MovePassed: _move_passed,
    events.IncomeCollected: _income_collected,
    events.ExpensesPaid: _expenses_paid,
    events.PlayerBankrupt: _player_bankrupt,
    events.IncomeReduced: _income_reduced,
    events.ProductionDrawn: _production_drawn,
    events.GoodsProduced: _goods_produced,
    events.GrowthDieRolled: _unchanged,
    events.GoodsGrown: _goods_grown,
    events.TurnEnded: _unchanged,
    events.FinalScored: _final_scored,
    events.TieBreakRolled: _unchanged,
    events.GameEnded: _game_ended,
}

_ON_THE_MAP: dict[type[Event], Callable[[Map, State, Any], State]] = {
    events.CityUrbanized: _city_urbanized,
}
"""The one kind whose bookkeeping reads the map: a new city takes over the track it completes."""
