"""Scoring: route points (during play), and the final scoring steps — each ticket won or
lost, the longest continuous path, the winners."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.ticket_to_ride.board import Board, Route
from domain.ticket_to_ride.events import GameEnded, LongestPathScored, TicketScored
from domain.ticket_to_ride.state import State
from domain.ticket_to_ride.steps import Steps


def route_points(board: Board, length: int) -> int:
    return board.route_points[length]


def routes_of(board: Board, state: State, seat: int) -> list[Route]:
    return [board.routes[route] for route, owner in state.claims.items() if owner == seat]


def connected(routes: Iterable[Route], a: str, b: str) -> bool:
    """Whether a continuous path of `routes` joins cities `a` and `b`."""
    links: dict[str, list[str]] = {}
    for route in routes:
        links.setdefault(route.a, []).append(route.b)
        links.setdefault(route.b, []).append(route.a)
    seen, frontier = {a}, [a]
    while frontier:
        city = frontier.pop()
        if city == b:
            return True
        for other in links.get(city, ()):
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return False


def longest_path(routes: Sequence[Route]) -> int:
    """The longest trail in train cars: a route is used at most once, a city may be passed
    through again (the rulebook's loops count), branches do not add up."""
    links: dict[str, list[tuple[int, str, int]]] = {}
    for index, route in enumerate(routes):
        links.setdefault(route.a, []).append((index, route.b, route.length))
        links.setdefault(route.b, []).append((index, route.a, route.length))
    used = [False] * len(routes)
    best = 0

    def walk(city: str, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for index, other, cars in links[city]:
            if not used[index]:
                used[index] = True
                walk(other, length + cars)
                used[index] = False

    for city in links:
        walk(city, 0)
    return best


def winners_of(
    totals: Sequence[int], completed: Sequence[int], longest_path_holders: Iterable[int]
) -> list[int]:
    """Highest total; ties go to most completed tickets, then to the longest-path holder;
    whoever is still tied shares the win."""
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    most = max(completed[seat] for seat in tied)
    tied = [seat for seat in tied if completed[seat] == most]
    holding = set(longest_path_holders)
    holders = [seat for seat in tied if seat in holding]
    return holders or tied


def finish(board: Board, state: State) -> dict[int, tuple[int, ...]]:
    """The order of finish by `winners_of`'s rules for every place: total, then completed
    tickets, then holding the longest path; seats still level share a place."""
    seats = range(len(state.seats))
    completed = [sum(connected(routes_of(board, state, seat), board.tickets[t].a, board.tickets[t].b)
                     for t in state.seats[seat].tickets) for seat in seats]
    longest = max(state.longest_paths, default=0)
    return {seat: (state.seats[seat].score, completed[seat],
                   int(longest > 0 and state.longest_paths[seat] == longest)) for seat in seats}


def final_scoring(steps: Steps) -> None:
    """Every ticket of every seat, then the longest path, then the result."""
    state = steps.state
    seats = range(len(state.seats))
    owned = [routes_of(steps.board, state, seat) for seat in seats]
    completed = [0 for _ in seats]
    for seat in seats:
        for ticket_id in state.seats[seat].tickets:
            ticket = steps.board.tickets[ticket_id]
            done = connected(owned[seat], ticket.a, ticket.b)
            completed[seat] += done
            points = ticket.points if done else -ticket.points
            steps.emit(TicketScored(seat=seat, ticket=ticket_id, completed=done, points=points, automatic=True))
    lengths = [longest_path(owned[seat]) for seat in seats]
    longest = max(lengths)
    # Nobody holds a path when nobody has claimed a route, so nobody gets the bonus.
    holders = [seat for seat in seats if longest > 0 and lengths[seat] == longest]
    steps.emit(LongestPathScored(lengths={str(seat): lengths[seat] for seat in seats}, longest=longest,
                                 winners=tuple(holders), points=steps.board.longest_path_bonus, automatic=True))
    totals = [seat.score for seat in steps.state.seats]
    steps.emit(GameEnded(scores={str(seat): totals[seat] for seat in seats},
                         completed_tickets={str(seat): completed[seat] for seat in seats},
                         winners=tuple(winners_of(totals, completed, holders)), automatic=True))
