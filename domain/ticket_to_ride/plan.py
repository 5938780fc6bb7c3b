"""A seat's plan, as a bot makes it: which of its tickets it can still finish, along which
open routes (the shortest connections in trains, over the routes it holds for free), and
which train cards those routes still want.

Only what the seat may see is read: its own hand, tickets and trains, the claimed routes,
and the seats' train counts. Never the deck, the ticket deck or another seat's tickets.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.ticket_to_ride.board import GRAY, LOCOMOTIVE, Board, Route
from domain.ticket_to_ride.state import State

Pair = frozenset[str]
"""Two cities joined by one route, or by both lanes of a double."""


@dataclass(frozen=True)
class Link:
    """A connection the plan still has to claim: any open lane between two cities."""

    pair: Pair
    length: int
    lanes: tuple[Route, ...]

    @property
    def gray(self) -> bool:
        return any(lane.colour == GRAY for lane in self.lanes)


@dataclass(frozen=True)
class Plan:
    links: tuple[Link, ...]
    """What is still to claim, the most valuable ticket's connections first."""
    pursued: tuple[str, ...]
    """Tickets not yet finished that the links finish."""
    done: tuple[str, ...]
    """Tickets the seat's routes already join."""
    dropped: tuple[str, ...]
    """Tickets it cannot finish: blocked, or beyond its trains."""

    @property
    def trains(self) -> int:
        return sum(link.length for link in self.links)


@dataclass(frozen=True)
class Network:
    """The board as one seat sees it: the connections it holds and the ones still open to it."""

    held: frozenset[Pair]
    open: Mapping[Pair, tuple[Route, ...]]

    def links(self, pairs: Iterable[Pair]) -> tuple[Link, ...]:
        return tuple(Link(pair, self.open[pair][0].length, self.open[pair]) for pair in pairs)


def network(board: Board, state: State, seat: int) -> Network:
    held: set[Pair] = set()
    closed: set[str] = set(state.claims)
    for route_id, owner in state.claims.items():
        route = board.routes[route_id]
        if owner == seat:
            held.add(frozenset((route.a, route.b)))
        twin = board.twin.get(route_id)
        # The other lane of a double closes with fewer seats than the map's threshold, and
        # never opens to the seat that holds the first.
        if twin is not None and (not state.doubles_both_usable or owner == seat):
            closed.add(twin)
    open_: dict[Pair, list[Route]] = {}
    for route in board.routes.values():
        pair = frozenset((route.a, route.b))
        if route.id not in closed and pair not in held:
            open_.setdefault(pair, []).append(route)
    return Network(frozenset(held), {pair: tuple(lanes) for pair, lanes in open_.items()})


def shortest(route: Route) -> int:
    """A route's cost on a path: its trains, and on equal trains fewer routes."""
    return route.length * 10 + 1


def connection(board: Board, net: Network, free: set[Pair], a: str, b: str,
               cost_of: Callable[[Route], int] = shortest) -> list[Pair] | None:
    """The open connections the cheapest path from `a` to `b` still needs (`free` ones cost
    nothing), or None when no path is left. Cost is trains, and on equal trains fewer routes
    (longer routes score more per train)."""
    best: dict[str, int] = {a: 0}
    came: dict[str, tuple[str, Pair]] = {}
    queue = [(0, a)]
    while queue:
        cost, city = heapq.heappop(queue)
        if city == b:
            break
        if cost > best.get(city, cost):
            continue
        for route in board.routes_at[city]:
            other = route.b if route.a == city else route.a
            pair = frozenset((city, other))
            if pair in free:
                step = 0
            elif pair in net.open:
                step = cost_of(route)
            else:
                continue
            if cost + step < best.get(other, cost + step + 1):
                best[other] = cost + step
                came[other] = (city, pair)
                heapq.heappush(queue, (cost + step, other))
    if b not in best:
        return None
    path: list[Pair] = []
    city = b
    while city != a:
        city, pair = came[city]
        if pair not in free:
            path.append(pair)
    return path[::-1]


def make_plan(board: Board, net: Network, tickets: Sequence[str], trains: int, in_order: bool = False,
              cost_of: Callable[[Route], int] = shortest) -> Plan:
    """The connections that finish the most valuable tickets within `trains` (or the tickets
    `in_order` as given), each ticket joined over what the ones before it already planned."""
    free: set[Pair] = set(net.held)
    planned: list[Pair] = []
    pursued: list[str] = []
    done: list[str] = []
    dropped: list[str] = []
    budget = trains
    held_only = set(net.held)
    for ticket_id in tickets if in_order else sorted(tickets, key=lambda t: (-board.tickets[t].points, t)):
        ticket = board.tickets[ticket_id]
        if connection(board, net, held_only, ticket.a, ticket.b) == []:
            done.append(ticket_id)
            continue
        path = connection(board, net, free, ticket.a, ticket.b, cost_of)
        cost = sum(net.open[pair][0].length for pair in path or ())
        if path is None or cost > budget:
            dropped.append(ticket_id)
            continue
        budget -= cost
        planned += path
        free.update(path)
        pursued.append(ticket_id)
    return Plan(net.links(planned), tuple(pursued), tuple(done), tuple(dropped))


# --- the cards a plan wants ---------------------------------------------------------------


def colour_of(link: Link, hand: Mapping[str, int], colours: Sequence[str]) -> str:
    """The colour the seat would pay `link` with: the lane's own colour it holds most of,
    or for a gray lane the colour it holds most of overall."""
    if link.gray:
        return max(colours, key=lambda c: (hand[c], c))
    return max((lane.colour for lane in link.lanes), key=lambda c: (hand[c], c))


def missing(board: Board, links: Sequence[Link], hand: Mapping[str, int]) -> int:
    """About how many more train cards the links need: each coloured link is paid from its
    colour, gray links from what is left over, locomotives fill the rest."""
    left = {c: hand[c] for c in board.colours}
    short = 0
    for link in sorted(links, key=lambda link: link.gray):
        colour = colour_of(link, left, board.colours)
        taken = min(left[colour], link.length)
        left[colour] -= taken
        short += link.length - taken
    return max(0, short - hand[LOCOMOTIVE])


def deficit(link: Link, hand: Mapping[str, int], colours: Sequence[str]) -> int:
    """How many cards the seat lacks to claim `link` now."""
    return max(0, link.length - hand[colour_of(link, hand, colours)] - hand[LOCOMOTIVE])


def turns_needed(board: Board, links: Sequence[Link], hand: Mapping[str, int]) -> int:
    """Turns to finish the links: two cards a drawing turn, one turn a claim."""
    return (missing(board, links, hand) + 1) // 2 + len(links)


def turns_left(board: Board, state: State) -> float:
    """About how many more turns the seat gets: the game ends soon after any seat is down
    to the map's trigger, and a seat lays a train or two a turn on average."""
    if state.final_round_trigger is not None:
        return 1
    fewest = min(seat.trains for seat in state.seats)
    return 1 + max(0, fewest - board.end_trigger_trains) / 2.2
