"""The turn-order auction (`docs/rules/age_of_steam.md`, "2. Auction for player order"; cases
3–13), read top to bottom: the events it records, who bids next, the checks on a bid and on the
Turn Order pass, the moves a bidder has, what a move records, how the auction ends and what each
player pays, and how each event changes the state.

Who bids next is decided when a move is made and recorded in the move's event (`next_bidder`),
so a replay needs none of this reasoning. Records of ruleset 1 predate the field: for them
`with_next_bidder` works it out (`ruleset1.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.age_of_steam.events import PhaseBegan
from domain.age_of_steam.ledger import Handlers, pay
from domain.age_of_steam.moves import Bid, Drop, TurnOrderPass
from domain.age_of_steam.state import ACTIONS, AUCTION, Auction, State
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps

_NEXT = {"meaning": "The seat that bids next; absent once one bidder is left, and in records of ruleset 1."}

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BidPlaced(Event):
    """A seat raised the high bid for turn order."""

    seat: int
    amount: int
    next_bidder: int | None = field(default=None, metadata=_NEXT)


@dataclass(frozen=True, kw_only=True)
class AuctionDropped(Event):
    """A seat dropped out of the auction, taking the last place still open, with its bid."""

    seat: int
    place: int
    bid: int
    next_bidder: int | None = field(default=None, metadata=_NEXT)


@dataclass(frozen=True, kw_only=True)
class TurnOrderPassUsed(Event):
    """The Turn Order Pass holder passed a round of bidding without dropping out."""

    seat: int
    next_bidder: int | None = field(default=None, metadata=_NEXT)


@dataclass(frozen=True, kw_only=True)
class AuctionSettled(Event):
    """The auction's outcome: the new player order, every bid, the order of dropping out and
    what each seat paid."""

    order: tuple[int, ...]
    bids: dict[str, int]
    drop_order: tuple[int, ...]
    payments: dict[str, int]


BidMade = BidPlaced | AuctionDropped | TurnOrderPassUsed
"""A bidder's move, each naming who bids next."""

# --- who bids next ------------------------------------------------------------------------


def opened(state: State) -> Auction:
    """The auction as it opens: everyone in, in player order, the first player to bid."""
    order = state.order
    return Auction(seats=order, bidders=order, current=order[0], bids=dict.fromkeys(order, 0),
                   pass_holder=state.turn_order_pass if state.turn_order_pass in order else None)


def next_bidder(auction: Auction, after: int) -> int | None:
    """Bidding goes round in the auction's order from `after`, skipping those out and the
    high bidder; None once a single bidder is left."""
    if len(auction.bidders) <= 1:
        return None
    seats = auction.seats
    start = seats.index(after)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step) % len(seats)]
        if seat in auction.bidders and seat != auction.high_bidder:
            return seat
    return None


def _after(auction: Auction, made: BidMade) -> Auction:
    """The auction once `made` is on the table (before the next bidder is named)."""
    seat = made.seat
    if isinstance(made, BidPlaced):
        return replace(auction, high=made.amount, high_bidder=seat, bids={**auction.bids, seat: made.amount})
    if isinstance(made, AuctionDropped):
        return replace(auction, bidders=tuple(s for s in auction.bidders if s != seat), dropped=(*auction.dropped, seat))
    return replace(auction, pass_holder=None)


# --- the checks and the moves -------------------------------------------------------------


def check_bid(state: State, seat: int, amount: int) -> None:
    auction = state.auction
    assert auction is not None
    if amount < max(1, auction.high + 1):
        raise IllegalMove(
            "bid_too_low",
            f"A bid must beat the high bid of ${auction.high} by at least $1." if auction.high else "The first bid is at least $1.",
        )
    cash = state.seats[seat].cash
    if amount > cash:
        raise IllegalMove("bid_over_cash", f"You cannot bid ${amount}: you have ${cash}.")


def check_turn_order_pass(state: State, seat: int) -> None:
    auction = state.auction
    assert auction is not None
    if auction.pass_holder != seat:
        raise IllegalMove(
            "no_turn_order_pass", "Only last turn's Turn Order holder may pass, once per auction, without dropping out."
        )
    if len(auction.bidders) <= 2:
        raise IllegalMove("pass_with_two_bidders", "The Turn Order pass may not be used when only two bidders remain.")


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    auction = state.auction
    assert auction is not None
    moves: list[dict[str, Any]] = [
        {"type": "bid", "amount": n} for n in range(max(1, auction.high + 1), state.seats[seat].cash + 1)
    ]
    if auction.pass_holder == seat and len(auction.bidders) > 2:
        moves.append({"type": "turn_order_pass"})
    moves.append({"type": "drop"})
    return moves


def begin(steps: Steps) -> None:
    steps.emit(PhaseBegan(phase=AUCTION, queue=steps.state.order))


def bid(steps: Steps, seat: int, command: Bid | Drop | TurnOrderPass) -> None:
    """A bidder's move, recorded with who bids next; the settlement when one bidder is left."""
    state = steps.state
    auction = state.auction
    assert auction is not None
    made: BidMade
    if isinstance(command, Bid):
        check_bid(state, seat, command.amount)
        made = BidPlaced(seat=seat, amount=command.amount)
    elif isinstance(command, TurnOrderPass):
        check_turn_order_pass(state, seat)
        made = TurnOrderPassUsed(seat=seat)
    else:
        # The first to drop out takes the last place, the next the place before it.
        made = AuctionDropped(seat=seat, place=len(auction.bidders), bid=auction.bids[seat])
    steps.moved(replace(made, next_bidder=next_bidder(_after(auction, made), seat)))
    after = steps.state.auction
    assert after is not None
    if len(after.bidders) == 1:
        _settle(steps, after)


# --- the end of the auction ---------------------------------------------------------------


def payments(auction: Auction) -> dict[int, int]:
    """The winner and the last to drop out pay their full bid; the first to drop out pays
    nothing; everyone between pays half their bid, rounded up."""
    paid: dict[int, int] = {}
    dropped = auction.dropped
    for index, seat in enumerate(dropped):
        bid_ = auction.bids[seat]
        if index == 0:
            paid[seat] = 0
        elif index == len(dropped) - 1:
            paid[seat] = bid_
        else:
            paid[seat] = (bid_ + 1) // 2
    winner = auction.bidders[0]
    paid[winner] = auction.bids[winner]
    return paid


def _settle(steps: Steps, auction: Auction) -> None:
    paid = payments(auction)
    steps.emit(AuctionSettled(
        order=(auction.bidders[0], *reversed(auction.dropped)),
        bids={str(seat): auction.bids[seat] for seat in auction.seats},
        drop_order=auction.dropped,
        payments={str(seat): paid[seat] for seat in auction.seats},
    ))
    steps.emit(PhaseBegan(phase=ACTIONS, queue=steps.state.order))


# --- the events applied -------------------------------------------------------------------


def _bid_made(state: State, event: BidMade) -> State:
    auction = state.auction
    assert auction is not None
    state = replace(state, auction=replace(_after(auction, event), current=event.next_bidder))
    return replace(state, turn_order_pass=None) if isinstance(event, TurnOrderPassUsed) else state


def _settled(state: State, event: AuctionSettled) -> State:
    for key, amount in event.payments.items():
        state = pay(state, int(key), amount)
    return replace(state, order=tuple(event.order), auction=None)


APPLY: Handlers = {BidPlaced: _bid_made, AuctionDropped: _bid_made, TurnOrderPassUsed: _bid_made, AuctionSettled: _settled}
KINDS = tuple(APPLY)


# --- records of ruleset 1 -----------------------------------------------------------------


def with_next_bidder(state: State, event: Event) -> Event:
    """A bidder's event of ruleset 1, which did not record who bids next, with it worked out."""
    if isinstance(event, (BidPlaced, AuctionDropped, TurnOrderPassUsed)) and event.next_bidder is None:
        assert state.auction is not None
        return replace(event, next_bidder=next_bidder(_after(state.auction, event), event.seat))
    return event


def without_next_bidder(event: Event) -> Event:
    """A bidder's event as ruleset 1 recorded it."""
    if isinstance(event, (BidPlaced, AuctionDropped, TurnOrderPassUsed)):
        return replace(event, next_bidder=None)
    return event
