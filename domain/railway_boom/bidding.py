"""The bid track (`docs/rules/railway_boom.md`, R7-R13; phases 1, 2, 3 and 6), read top to
bottom: the events, who bids, which spaces a seat may reach, the ranks and the payments by
the priority table, the bids a seat has, what a bid, a lock-in and a "?" payment record, the
settling once every seat has locked in, and how each event changes the state."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.state import replace
from domain.railway_boom.content import ANY, FULL, HALF, RESOURCES, Content
from domain.railway_boom.ledger import Handlers, add_resource, convert
from domain.railway_boom.resources import converting, with_conversion
from domain.railway_boom.state import ACT, PAY, Pending, Seat, State

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BidRaised(Event):
    """A seat moved its disc to an empty higher space, holding `holding` of the resource."""

    seat: int
    space: int
    resource: str
    holding: int
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class BidLocked(Event):
    """A seat locked in its bid and left the auction."""

    seat: int
    space: int


@dataclass(frozen=True, kw_only=True)
class BidPaid(Event):
    """A seat paid for its rank by the priority table (R10)."""

    seat: int
    rank: int
    bid: int
    share: str
    paid: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class PaymentAwaited(Event):
    """A "?" bid is due and the seat chooses the mix it pays in (R12); its `pay` move
    answers with the BidPaid."""

    seat: int
    rank: int
    bid: int
    share: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class ActionOrderSet(Event):
    """The discs returned to the white spaces; the action step runs in `ranks` order."""

    ranks: tuple[int, ...]
    order: tuple[int, ...]


# --- the track ----------------------------------------------------------------------------


def position(state: State, seat: int) -> tuple[int, int]:
    """Where a disc is, left to right: the white spaces (bid 0) in order, then 1..max."""
    return (state.bids.get(seat, 0), state.order.index(seat))


def to_bid(state: State) -> int | None:
    """The seat with the left-most unlocked disc (R8); None when all are locked in."""
    open_seats = [s for s in range(state.players) if s not in state.locked]
    return min(open_seats, key=lambda s: position(state, s)) if open_seats else None


def holding(seat: Seat, resource: str) -> int:
    """How much a seat holds towards a bid: the resource, or for "?" all four (R12)."""
    return sum(seat.resources.values()) if resource == ANY else seat.resources[resource]


def reachable(seat: Seat, resource: str) -> int:
    """The most a seat could hold of `resource` after converting 2:1 into it (R11)."""
    if resource == ANY:
        return holding(seat, resource)
    return seat.resources[resource] + sum(seat.resources[r] // 2 for r in RESOURCES if r != resource)


def conversion_for(seat: Seat, resource: str, wanted: int) -> dict[str, int] | None:
    """The fewest conversions (from the largest other stocks first) that bring `resource`
    up to `wanted`; {} when none is needed, None when it cannot be reached."""
    if resource == ANY or seat.resources[resource] >= wanted:
        return {} if holding(seat, resource) >= wanted else None
    short = wanted - seat.resources[resource]
    out: dict[str, int] = {}
    for source in sorted((r for r in RESOURCES if r != resource), key=lambda r: (-seat.resources[r], r)):
        pairs = min(short, seat.resources[source] // 2)
        if pairs:
            out[source] = pairs
            short -= pairs
        if not short:
            return out
    return None


def buys(state: State, seat: int, resource: str, cards: list[tuple[str, int]], kind: str) -> list[dict[str, Any]]:
    """A `kind` move for each card the seat can pay its price for in `resource`, converting as it must."""
    out: list[dict[str, Any]] = []
    for card, price in cards:
        convert = conversion_for(state.seats[seat], resource, price)
        if convert is not None:
            out.append(with_conversion({"type": kind, "card": card}, convert))
    return out


def spaces(content: Content, state: State, seat: int) -> list[int]:
    """The empty higher spaces `seat` may move its disc to (R7, R11)."""
    taken = set(state.bids.values())
    most = reachable(state.seats[seat], state.bid_resource)
    return [n for n in range(state.bids.get(seat, 0) + 1, min(most, content.bid_track_max) + 1) if n not in taken]


def ranks(state: State) -> tuple[int, ...]:
    """Rank 1 first: the right-most disc, then leftwards (R9)."""
    return tuple(sorted(range(state.players), key=lambda s: position(state, s), reverse=True))


def share(content: Content, players: int, rank: int) -> str:
    return content.priority[players][rank - 1]


def amount(payment: str, bid: int) -> int:
    return bid if payment == FULL else (bid + 1) // 2 if payment == HALF else 0


def mixes(seat: Seat, due: int) -> Iterator[dict[str, int]]:
    """Every way a "?" bid of `due` can be paid (R12): any mix of the four resources, each
    part at most what the seat holds, never VP; zero parts left out. At most C(due + 3, 3)
    mixes (5,456 for the reference track's highest bid, 30)."""
    stocks = [min(seat.resources[r], due) for r in RESOURCES]

    def split(index: int, left: int) -> Iterator[tuple[int, ...]]:
        if index == len(RESOURCES) - 1:
            if left <= stocks[index]:
                yield (left,)
            return
        for part in range(min(left, stocks[index]) + 1):
            for rest in split(index + 1, left - part):
                yield (part, *rest)

    for parts in split(0, due):
        yield {r: n for r, n in zip(RESOURCES, parts, strict=True) if n}


def forced_mix(seat: Seat, due: int) -> dict[str, int] | None:
    """The one mix a "?" payment can take, when there is only one (nothing due, one kind
    held, or everything held is due); None when the seat has a choice."""
    first = None
    for mix in mixes(seat, due):
        if first is not None:
            return None
        first = mix
    return first


# --- the bids -----------------------------------------------------------------------------


def legal_moves(content: Content, state: State, seat: int) -> list[dict[str, Any]]:
    """Each empty higher space the seat can pay for (converting if it must), then locking in."""
    me = state.seats[seat]
    moves: list[dict[str, Any]] = []
    for space in spaces(content, state, seat):
        convert = conversion_for(me, state.bid_resource, space)
        if convert is not None:
            moves.append(with_conversion({"type": "bid", "space": space}, convert))
    return [*moves, {"type": "lock_in"}]


def payments(state: State) -> list[dict[str, Any]]:
    """Every mix the first pending "?" payment may be paid in (R12)."""
    pending = state.pending[0]
    return [{"type": "pay", "paid": mix} for mix in mixes(state.seats[pending.seat], pending.amount)]


def bid(steps: Steps, seat: int, c: Command) -> None:
    state = steps.state
    space = c["space"]
    if space in state.bids.values() or space <= state.bids.get(seat, 0):
        raise IllegalMove("space_not_free", f"Space {space} is not an empty space above your disc (R7).")
    resource = state.bid_resource
    if c["convert"] and resource not in RESOURCES:
        raise IllegalMove("cannot_convert", "A \"?\" bid counts all four resources; there is nothing to convert (R12).")
    if resource in RESOURCES:
        convert = converting(steps.state, seat, resource, c["convert"], space)
    elif holding(state.seats[seat], resource) < space:
        raise IllegalMove("not_enough_resources", f"Your four resources total less than {space} (R12).")
    else:
        convert = None
    held = holding(state.seats[seat], resource) + sum((convert or {}).values())
    steps.emit(BidRaised(seat=seat, space=space, resource=resource, holding=held, convert=convert))


def pay(steps: Steps, seat: int, c: Command) -> None:
    """The mix a seat pays its "?" bid in (R12): any of its four resources, exactly the
    amount due, each part held, never VP."""
    pending, me = steps.state.pending[0], steps.state.seats[seat]
    paid = {resource: amount for resource, amount in c["paid"].items() if amount}
    if sum(paid.values()) != pending.amount:
        raise IllegalMove("wrong_amount", f"Your \"?\" bid costs {pending.amount}; this mix adds up to "
                          f"{sum(paid.values())} (R10, R12).")
    for resource, amount in paid.items():
        if me.resources[resource] < amount:
            raise IllegalMove(f"not_enough_{resource}", f"You hold {me.resources[resource]} {resource}, "
                              f"not the {amount} this mix pays (R13).")
    # The discs stay on the track until everyone has paid, so the rank is still where it was.
    rank = ranks(steps.state).index(seat) + 1
    bid = steps.state.bids.get(seat, 0)
    steps.emit(BidPaid(seat=seat, rank=rank, bid=bid, share=share(steps.content, steps.state.players, rank),
                       paid={r: paid[r] for r in RESOURCES if r in paid}))


def lock_in(steps: Steps, seat: int, c: Command) -> None:
    steps.emit(BidLocked(seat=seat, space=steps.state.bids.get(seat, 0)))


# --- settling -----------------------------------------------------------------------------


def settle(steps: Steps) -> bool:
    """Everyone locked in: each pays by rank (R10), the discs go back (R9). A "?" payment
    with more than one possible mix waits for its seat to choose the mix (R12); settling
    goes on from the next rank once it is paid. Whether every rank has paid."""
    state, content = steps.state, steps.content
    ranked = ranks(state)
    for rank, seat in enumerate(ranked, start=1):
        if seat in steps.state.settled:
            continue
        bid = state.bids.get(seat, 0)
        payment = share(content, state.players, rank)
        due = amount(payment, bid)
        resource = state.bid_resource
        paid = forced_mix(steps.state.seats[seat], due) if resource == ANY else ({resource: due} if due else {})
        if paid is None:
            steps.emit(PaymentAwaited(seat=seat, rank=rank, bid=bid, share=payment, amount=due, automatic=True))
            return False
        steps.emit(BidPaid(seat=seat, rank=rank, bid=bid, share=payment, paid=paid, automatic=True))
    steps.emit(ActionOrderSet(ranks=ranked, order=tuple(reversed(ranked)), automatic=True))
    return True


# --- the events applied -------------------------------------------------------------------


def _raised(c: Content, s: State, e: BidRaised) -> State:
    s = convert(s, e.seat, e.resource, e.convert)
    return replace(s, bids={**s.bids, e.seat: e.space})


def _locked(c: Content, s: State, e: BidLocked) -> State:
    return replace(s, locked=(*s.locked, e.seat))


def _paid_bid(c: Content, s: State, e: BidPaid) -> State:
    for resource, amount in e.paid.items():
        s = add_resource(s, e.seat, resource, -amount)
    pending = s.pending[1:] if s.pending and s.pending[0].effect == PAY else s.pending
    return replace(s, settled=(*s.settled, e.seat), pending=pending)


def _payment_awaited(c: Content, s: State, e: PaymentAwaited) -> State:
    return replace(s, pending=(*s.pending, Pending(e.seat, PAY, "", e.amount)))


def _order(c: Content, s: State, e: ActionOrderSet) -> State:
    return replace(s, order=e.order, acting=e.ranks, step=ACT, bids={}, locked=(), settled=())


APPLY: Handlers = {BidRaised: _raised, BidLocked: _locked, BidPaid: _paid_bid, PaymentAwaited: _payment_awaited,
                   ActionOrderSet: _order}
KINDS = tuple(APPLY)
