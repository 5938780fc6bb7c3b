"""The Ticket to Ride decider: the rules of this package behind the core `Decider`
protocol, bound to one map (a content pack, `board.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.bots import Bot, base_bots
from domain.core.content import Pack
from domain.core.decider import Bound, Decision, DemoPlan, Setup, Unbound
from domain.core.events import Audience, Event
from domain.core.figures import Projector
from domain.core.moves import Moves
from domain.core.randomness import Randomness
from domain.ticket_to_ride import decide, evolve, geometry, invariants, legal, moves, referee, scoring, views, words
from domain.ticket_to_ride import observed as observed_setup
from domain.ticket_to_ride import options as rulings
from domain.ticket_to_ride.board import SCHEMA, Board
from domain.ticket_to_ride.bots import GreedyBot
from domain.ticket_to_ride.catalogue import EVENTS
from domain.ticket_to_ride.figures import TicketToRideProjector
from domain.ticket_to_ride.notation import TicketToRideNotation
from domain.ticket_to_ride.planner import PlannerBot
from domain.ticket_to_ride.state import OVER, Seat, State


class TicketToRide(Bound[State]):
    name = "ticket_to_ride"
    ruleset_version = "1"
    state_type = State
    min_seats = rulings.MIN_SEATS
    max_seats = rulings.MAX_SEATS
    content_schema = SCHEMA
    pack_option = "map"
    """The option that names the map's pack (recorded options always carry it)."""
    default_pack = "usa"
    events = EVENTS
    view_schema = views.VIEW_SCHEMA
    title = words.TITLE
    refusals = words.REFUSALS
    board_schema = geometry.BOARD_SCHEMA
    demo = DemoPlan(tournament=True)
    """The demo's tournaments are played at Ticket to Ride: quick tables, played as people do."""

    def __init__(self, pack: Pack) -> None:
        super().__init__(pack)
        self.board: Board = pack.content

    def static_board(self) -> dict[str, Any] | None:
        return geometry.static_board(self.board, self.pack.id)

    @property
    def figures(self) -> Projector:
        return TicketToRideProjector()

    @property
    def moves(self) -> Moves:
        """Every move of the game on this map, declared once (parser, JSON Schema, `move_of`)."""
        return moves.moves_of(self.board)

    @property
    def move_schemas(self) -> dict[str, dict[str, Any]]:
        return self.moves.schemas()

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return rulings.options(self.board, self.pack.id, requested, seats)

    def initial_state(self, setup: Setup) -> State:
        board = self.board
        chosen = self.options(setup.options, len(setup.seats))
        # The decks start in printed order, so every card and ticket is accounted for even
        # before the first shuffle.
        return State(
            seats=tuple(Seat(name, trains=board.trains_per_seat, hand=dict.fromkeys(board.card_kinds, 0))
                        for name in setup.seats),
            doubles_both_usable=chosen["double_routes_both_usable"],
            market=(None,) * board.market_size,
            deck=board.train_cards,
            ticket_deck=tuple(board.tickets),
        )

    def setup(self, state: State, rng: Randomness) -> list[Event]:
        return decide.setup(self.board, state, rng)

    def table_setup(self, state: State, observed: Mapping[str, Any]) -> list[Event]:
        """The opening as laid out at a table: hands, market, tickets, first player
        (`observed.py`)."""
        return observed_setup.table_setup(self.board, state, observed)

    @property
    def notation(self) -> TicketToRideNotation:
        """`Ann claims Denver–Omaha with 4 red`, or `Ann DEN-OMA 4r` (`notation.py`)."""
        return TicketToRideNotation(self.board)

    def evolve(self, state: State, event: Event) -> State:
        return evolve.evolve(self.board, state, event)

    def decide(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        return decide.decide(self.board, state, seat, move, rng)

    def decision(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Decision[State]:
        # `decide` evolves as it goes (steps.py): hand over what it reached.
        return decide.decided(self.board, state, seat, move, rng).decision()

    def active_seats(self, state: State) -> frozenset[int]:
        return legal.active_seats(state)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_moves(self.board, state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> dict[int, int]:
        return {index: seat.score for index, seat in enumerate(state.seats)}

    def finish(self, state: State) -> dict[int, tuple[int, ...]]:
        return scoring.finish(self.board, state)

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return views.view(state, audience)

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return self.moves.move_of(event)

    def invariants(self, state: State) -> list[str]:
        return invariants.invariants(self.board, state)

    def adjust(self, state: State, adjustment: Mapping[str, Any]) -> State:
        """A referee's adjustment (the contract's optional `adjust` hook)."""
        return referee.adjust(self.board, state, adjustment)

    @property
    def bots(self) -> Mapping[str, Bot]:
        """`random` and `playout` as every game, and this game's `greedy` (`bots.py`) and
        `planner` (`planner.py`)."""
        return {**base_bots(self), "greedy": GreedyBot(self.board), "planner": PlannerBot(self.board)}

    def reveals(self, event: Event) -> bool:
        """Whether a public event showed a hidden card (optional hook, for takebacks)."""
        return referee.reveals(event)


RULES = Unbound(TicketToRide)
"""The rules, not yet bound to a map: the registry (`domain/core/registry.py`) binds them to a pack."""
