"""Final scoring (`docs/rules/ticket_to_ride.md`, "Final scoring"), read top to bottom: the
events, the tally (which routes join a ticket's cities, the longest continuous path, the
winners and the order of finish), the scoring steps it records (each ticket won or lost, the
longest path, the result), and how each event changes the state. Route points were scored as
each route was claimed (`claim_route`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domain.core.events import Event, means
from domain.core.state import replace, replace_seat
from domain.ticket_to_ride.board import Board, Route
from domain.ticket_to_ride.ledger import Handlers
from domain.ticket_to_ride.state import OVER, Seat, State

if TYPE_CHECKING:
    from domain.ticket_to_ride.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TicketScored(Event):
    """A seat's destination ticket was scored: its points if completed, as many lost if not."""

    seat: int = field(metadata=means("The seat, from 0."))
    ticket: str = field(metadata=means("The ticket's id, its two cities, e.g. Denver|El Paso."))
    completed: bool = field(metadata=means("Whether the seat's routes join the ticket's two cities."))
    points: int = field(metadata=means("The points gained (negative when lost)."))


@dataclass(frozen=True, kw_only=True)
class LongestPathScored(Event):
    """The longest continuous path was found; its holders each score the bonus."""

    lengths: dict[str, int] = field(metadata=means("Seat (as a string) to its longest path, in trains."))
    longest: int = field(metadata=means("The longest of them."))
    winners: tuple[int, ...] = field(metadata=means("The seats holding it (none when no route was claimed)."))
    points: int = field(metadata=means("The bonus each holder scores."))


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The game is over: the final scores and the winners."""

    scores: dict[str, int] = field(metadata=means("Seat (as a string) to its final score."))
    completed_tickets: dict[str, int] = field(metadata=means("Seat (as a string) to how many tickets it completed."))
    winners: tuple[int, ...] = field(metadata=means(
        "The winning seats: highest score, then most completed tickets, then the longest path."))


# --- the tally ----------------------------------------------------------------------------


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


# --- the scoring steps --------------------------------------------------------------------


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


# --- the events applied -------------------------------------------------------------------


def _ticket_scored(board: Board, state: State, event: TicketScored) -> State:
    seat, ticket = event.seat, board.tickets[event.ticket]
    before = state.seats[seat]
    points = ticket.points if event.completed else -ticket.points
    return replace_seat(state, seat, score=before.score + points, scored=(*before.scored, event.points))


def _longest_path_scored(board: Board, state: State, event: LongestPathScored) -> State:
    lengths = tuple(event.lengths[str(seat)] for seat in range(len(state.seats)))
    seats: list[Seat] = list(state.seats)
    for winner in event.winners:
        before = seats[winner]
        seats[winner] = replace(
            before, score=before.score + board.longest_path_bonus, scored=(*before.scored, event.points)
        )
    return replace(state, seats=tuple(seats), longest_paths=lengths)


def _game_ended(board: Board, state: State, event: GameEnded) -> State:
    return replace(state, phase=OVER, current=None, winners=tuple(event.winners))


APPLY: Handlers = {TicketScored: _ticket_scored, LongestPathScored: _longest_path_scored, GameEnded: _game_ended}
KINDS = tuple(APPLY)
