"""Ticket to Ride's `greedy` bot: it pursues its tickets along the shortest open paths
(`plan.py`), keeps the tickets it can plausibly finish, collects the colours its planned
routes need, claims a planned route as soon as it can pay for it, draws more tickets only
while there is time to finish them, and otherwise lays its longest routes, which ends the
game sooner when it is ahead.

Like every bot (`domain/core/bots.py`) it picks one of the legal moves it is given, reads
only what its seat may see (`plan.py`), and takes its randomness (ties) from the chooser.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.bots import Bot, Move
from domain.ticket_to_ride.board import LOCOMOTIVE, Board, Route
from domain.ticket_to_ride.claim_route import route_points
from domain.ticket_to_ride.plan import (
    Link,
    Network,
    Plan,
    colour_of,
    deficit,
    make_plan,
    missing,
    network,
    turns_left,
    turns_needed,
)
from domain.ticket_to_ride.scoring import connected, routes_of
from domain.ticket_to_ride.state import OPENING, State

TICKET_TRAINS = 12
"""Fewer trains than this and a new ticket would rarely be finished: draw none."""
TICKET_TURNS = 6
"""Nor with fewer turns than this left before the end."""


class GreedyBot(Bot):
    level = "greedy"
    ticket_trains = TICKET_TRAINS
    ticket_turns = TICKET_TURNS
    boldness = 1.0
    """How many turns it counts on for every turn it expects: above 1, it keeps riskier tickets."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def choose(self, state: State, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        kind = moves[0]["type"]
        if kind == "keep_tickets":
            return self._keep(state, seat, moves, chooser)
        if kind == "pass":
            return moves[0]
        board, me = self.board, state.seats[seat]
        net = network(board, state, seat)
        plan = self.plan(state, seat, net, me.tickets)
        if state.cards_drawn:
            return self._draw(state, seat, plan.links, moves, chooser)
        claim = self._claim(state, seat, plan, moves, chooser)
        if claim is not None:
            return claim
        if not plan.links:
            if self.wants_tickets(state, seat):
                drawn = [m for m in moves if m["type"] == "draw_tickets"]
                if drawn:
                    return drawn[0]
            target = self._free_target(state, seat, net)
            return self._draw(state, seat, target, moves, chooser)
        return self._draw(state, seat, plan.links, moves, chooser)

    def plan(self, state: State, seat: int, net: Network, tickets: Sequence[str]) -> Plan:
        """How the seat means to finish `tickets` (the most valuable first)."""
        return make_plan(self.board, net, tickets, state.seats[seat].trains)

    def urgency(self, state: State, seat: int, route: Route) -> tuple[int, ...]:
        """Which of the planned routes it can pay for to claim first: the longest."""
        return (route.length,)

    # --- tickets ------------------------------------------------------------------------

    def _keep(self, state: State, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        """The choice worth most: each kept ticket counts its points if the plan with it
        finishes it in time, and against it if not."""
        board, me = self.board, state.seats[seat]
        net = network(board, state, seat)
        time = turns_left(board, state)
        if state.phase == OPENING:
            time = 1 + board.trains_per_seat / 2.2
        held = list(me.tickets)

        def worth(move: Move) -> tuple[float, int, float]:
            kept = list(move["keep"])
            plan = self.plan(state, seat, net, held + kept)
            likely = _likelihood(turns_needed(board, plan.links, me.hand), time * self.boldness)
            value = 0.0
            for ticket in kept:
                points = board.tickets[ticket].points
                if ticket in plan.done:
                    value += points
                elif ticket in plan.pursued:
                    value += points * (2 * likely - 1)
                else:
                    value -= points
            # Tickets already held count too: a new one that crowds them out costs their points.
            for ticket in held:
                if ticket in plan.dropped:
                    value -= board.tickets[ticket].points
            return value, -plan.trains, chooser.random()

        return max(moves, key=worth)

    def wants_tickets(self, state: State, seat: int) -> bool:
        """With every ticket finished or given up: whether to draw more."""
        board, me = self.board, state.seats[seat]
        return (bool(state.ticket_deck) and state.final_round_trigger is None
                and me.trains >= self.ticket_trains and turns_left(board, state) >= self.ticket_turns)

    # --- routes -------------------------------------------------------------------------

    def _claim(self, state: State, seat: int, plan: Plan, moves: Sequence[Move], chooser: random.Random) -> Move | None:
        """A planned route it can pay for (the one that finishes a ticket first, then the
        longest); with nothing planned, or on its last turn, the best-scoring route."""
        board = self.board
        claims = [m for m in moves if m["type"] == "claim_route"]
        if not claims:
            return None
        planned = {link.pair for link in plan.links}
        ours = [m for m in claims if _pair(board, m) in planned]
        last_turn = state.final_round_trigger is not None
        if ours:
            finishing = self._finishing(state, seat, plan, ours)
            pool = finishing or ours
            best = max(pool, key=lambda m: (*self.urgency(state, seat, board.routes[m["route"]]), chooser.random()))
            return self._payment(state, seat, plan.links, best["route"], pool)
        if plan.links and not last_turn:
            return None
        trains = state.seats[seat].trains
        touching = _cities(board, state, seat)
        free_play = [m for m in claims if _worth_laying(board.routes[m["route"]].length, trains)]
        if last_turn:
            free_play = claims
        if not free_play:
            return None
        best = max(free_play, key=lambda m: (route_points(board, board.routes[m["route"]].length),
                                             bool(touching & {board.routes[m["route"]].a, board.routes[m["route"]].b}),
                                             chooser.random()))
        return self._payment(state, seat, plan.links, best["route"], free_play)

    def _finishing(self, state: State, seat: int, plan: Plan, claims: Sequence[Move]) -> list[Move]:
        """The claims that finish one of the seat's tickets."""
        board = self.board
        owned = routes_of(board, state, seat)
        out = []
        for move in claims:
            route = board.routes[move["route"]]
            with_it = [*owned, route]
            if any(connected(with_it, board.tickets[t].a, board.tickets[t].b)
                   and not connected(owned, board.tickets[t].a, board.tickets[t].b) for t in plan.pursued):
                out.append(move)
        return out

    def _payment(self, state: State, seat: int, links: Sequence[Link], route_id: str, claims: Sequence[Move]) -> Move:
        """Of the ways to pay for `route_id`, the one that leaves the rest of the plan
        wanting fewest cards, spending locomotives last."""
        board, hand = self.board, state.seats[seat].hand
        rest = [link for link in links if board.routes[route_id] not in link.lanes]
        options = [m for m in claims if m["route"] == route_id]

        def cost(move: Move) -> tuple[int, int]:
            after = dict(hand)
            for kind, count in move["cards"].items():
                after[kind] -= count
            return missing(board, rest, after), move["cards"].get(LOCOMOTIVE, 0)

        return min(options, key=cost)

    def _free_target(self, state: State, seat: int, net: Network) -> tuple[Link, ...]:
        """With no ticket to pursue: the longest open route its trains allow, next to its
        own network if one is as long, to collect cards for."""
        board, me = self.board, state.seats[seat]
        touching = _cities(board, state, seat)
        fitting = [link for link in net.links(net.open) if link.length <= me.trains]
        if not fitting:
            return ()
        best = max(fitting, key=lambda link: (link.length, bool(touching & link.pair),
                                              -deficit(link, me.hand, board.colours), sorted(link.pair)))
        return (best,)

    # --- train cards --------------------------------------------------------------------

    def _draw(self, state: State, seat: int, links: Sequence[Link], moves: Sequence[Move],
              chooser: random.Random) -> Move:
        """A face-up card of a colour the plan lacks (for the link nearest to being paid
        for), a face-up locomotive when few colours are wanted, else the deck."""
        board, hand = self.board, state.seats[seat].hand
        draws = [m for m in moves if m["type"] == "draw_card"]
        if not draws:
            return self._fallback(moves, chooser)
        wanted = _wanted(board, links, hand)
        face_up = [m for m in draws if m["source"] == "market"]
        useful = [m for m in face_up if state.market[m["slot"]] in wanted]
        if useful:
            return min(useful, key=lambda m: (wanted[str(state.market[m["slot"]])], m["slot"]))
        deck = [m for m in draws if m["source"] == "deck"]
        locomotives = [m for m in face_up if state.market[m["slot"]] == LOCOMOTIVE]
        if locomotives and wanted and (len(wanted) <= 2 or not deck):
            return locomotives[0]
        if deck:
            return deck[0]
        plain = [m for m in face_up if state.market[m["slot"]] != LOCOMOTIVE]
        return chooser.choice(plain or face_up)

    def _fallback(self, moves: Sequence[Move], chooser: random.Random) -> Move:
        return chooser.choice(list(moves))


def _wanted(board: Board, links: Sequence[Link], hand: Mapping[str, int]) -> dict[str, int]:
    """Colour -> the fewest cards still lacking for a planned link of that colour (the
    colour nearest to paying for a link is the most wanted)."""
    out: dict[str, int] = {}
    for link in links:
        short = deficit(link, hand, board.colours)
        if short:
            colour = colour_of(link, hand, board.colours)
            out[colour] = min(out.get(colour, short), short)
    return out


def _worth_laying(length: int, trains: int) -> bool:
    """Outside its plan a seat lays long routes (most points per train and per turn), and
    any route once its trains are nearly spent."""
    return length >= min(4, trains) or trains <= 6


def _likelihood(needed: int, time: float) -> float:
    """How likely a plan needing `needed` turns is finished with `time` turns left."""
    if needed <= 0.8 * time:
        return 1.0
    if needed >= 1.3 * time:
        return 0.0
    return (1.3 * time - needed) / (0.5 * time)


def _pair(board: Board, move: Mapping[str, Any]) -> frozenset[str]:
    route = board.routes[move["route"]]
    return frozenset((route.a, route.b))


def _cities(board: Board, state: State, seat: int) -> set[str]:
    return {city for route in routes_of(board, state, seat) for city in (route.a, route.b)}

