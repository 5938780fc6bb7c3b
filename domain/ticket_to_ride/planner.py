"""Ticket to Ride's `planner` bot: the greedy bot (`bots.py`) with a better plan, more
tickets, and an eye on the other seats. It joins its tickets in the order that finishes the
most points for the fewest trains (every order, for up to four tickets still to join), on
paths that favour long routes; it keeps riskier tickets and draws new ones later in the game,
but none once it is clearly ahead, when it lays its routes to end the game sooner; and of the
planned routes it can pay for it claims first those next to where other seats are building,
before they block them. In two-player games it beats the greedy bot in a little more than half
of the games (56 % of the benchmark's 200; docs/performance.md, "Bots").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from domain.ticket_to_ride.board import Route
from domain.ticket_to_ride.bots import GreedyBot
from domain.ticket_to_ride.plan import Network, Plan, make_plan
from domain.ticket_to_ride.scoring import connected, routes_of
from domain.ticket_to_ride.state import State

ORDERS_UP_TO = 4
"""Every order of this many tickets is tried (24 plans); more are planned most valuable first."""
LONG_ROUTE_BONUS = 3
"""How much a route's points lower its cost on a path, against 10 a train."""
OTHERS_TICKETS = 30
"""What another seat's tickets are guessed to add to its score (they are secret): a seat is
clearly ahead when its own total beats every other score by more."""


class PlannerBot(GreedyBot):
    level = "planner"
    ticket_trains = 8
    ticket_turns = 4
    boldness = 1.2
    # (Against the greedy bot over the same 200 two-player games: boldness 1.2 won 58 %, 1.4 won 52 %.)

    def plan(self, state: State, seat: int, net: Network, tickets: Sequence[str]) -> Plan:
        board, trains = self.board, state.seats[seat].trains
        first = make_plan(board, net, tickets, trains, cost_of=self.cost_of)
        # Finished tickets cost nothing in any order: only the others are reordered.
        open_ = [t for t in tickets if t not in first.done]
        if len(open_) < 2 or len(open_) > ORDERS_UP_TO:
            return first

        def worth(plan: Plan) -> tuple[int, int]:
            points = sum(board.tickets[t].points for t in plan.pursued)
            return points - sum(board.tickets[t].points for t in plan.dropped), -plan.trains

        plans = [make_plan(board, net, [*first.done, *order], trains, in_order=True, cost_of=self.cost_of)
                 for order in permutations(open_)]
        return max([first, *plans], key=worth)

    def cost_of(self, route: Route) -> int:
        """Trains, less a little for the points: of two paths of about the same trains, the
        one of longer routes scores more."""
        return route.length * 10 + 1 - LONG_ROUTE_BONUS * self.board.route_points[route.length]

    def wants_tickets(self, state: State, seat: int) -> bool:
        return super().wants_tickets(state, seat) and not self._ahead(state, seat)

    def _ahead(self, state: State, seat: int) -> bool:
        """Its score with its tickets as they stand, against the others' with a guess for theirs."""
        board = self.board
        me = state.seats[seat]
        owned = routes_of(board, state, seat)
        mine = me.score + sum(board.tickets[t].points if connected(owned, board.tickets[t].a, board.tickets[t].b)
                              else -board.tickets[t].points for t in me.tickets)
        return all(mine > other.score + OTHERS_TICKETS for i, other in enumerate(state.seats) if i != seat)

    def urgency(self, state: State, seat: int, route: Route) -> tuple[int, ...]:
        """Routes at a city where another seat has built are the likeliest to be taken."""
        others = {city for other in range(len(state.seats)) if other != seat
                  for r in routes_of(self.board, state, other) for city in (r.a, r.b)}
        return (int(route.a in others or route.b in others), route.length)
