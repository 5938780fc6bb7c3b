"""The bid track (phases 1, 2, 3 and 6): who acts, which spaces a seat may reach, the
ranks and the payments by the priority table (R7-R13)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.railway_boom.content import ANY, FULL, HALF, RESOURCES, Content
from domain.railway_boom.state import Seat, State


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
