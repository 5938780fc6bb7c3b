"""The Railway Boom decider: the rules of this package behind the core `Decider`
contract, bound to one content pack (`content.py`, `pack.py`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.content import Pack
from domain.core.decider import Bound, Decision, Setup, Unbound, choice, fixed_option
from domain.core.errors import MalformedMove
from domain.core.events import Audience, Event
from domain.core.figures import Projector
from domain.core.moves import Moves
from domain.core.notation import Notation
from domain.core.randomness import Randomness
from domain.railway_boom import decide, evolve, geometry, invariants, legal, playout, scoring, setup, table, views, words
from domain.railway_boom.catalogue import EVENTS
from domain.railway_boom.content import Content
from domain.railway_boom.figures import RailwayBoomProjector
from domain.railway_boom.moves import moves_of
from domain.railway_boom.notation import RailwayBoomNotation
from domain.railway_boom.pack import SCHEMA
from domain.railway_boom.state import OVER, State
from domain.railway_boom.view_schema import VIEW_SCHEMA

OPTIONS = ("content", "first_game")
REVEALING = frozenset({"TrainsRevealed", "StationCardsRevealed", "RowsDealt", "SubmissionsRevealed", "StartingOrderDrawn"})
"""Public events that turn up what was hidden (a deck's next cards, the sealed plans)."""


class RailwayBoom(Bound[State]):
    name = "railway_boom"
    view_schema = VIEW_SCHEMA
    ruleset_version = "1"
    state_type = State
    min_seats = 2
    max_seats = 4
    events = EVENTS
    content_schema = SCHEMA
    pack_option = "content"
    default_pack = "reference"
    title = words.TITLE
    refusals = words.REFUSALS
    board_schema = geometry.BOARD_SCHEMA

    def __init__(self, pack: Pack) -> None:
        super().__init__(pack)
        self.content: Content = pack.content
        self._moves: Moves | None = None

    def static_board(self) -> dict[str, Any] | None:
        return views.static_board(self.content)

    @property
    def figures(self) -> Projector:
        return RailwayBoomProjector(self.content)

    @property
    def moves(self) -> Moves:
        if self._moves is None:
            self._moves = moves_of(self.content)
        return self._moves

    @property
    def move_schemas(self) -> dict[str, dict[str, Any]]:
        return self.moves.schemas()

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedMove("bad_options", f"Railway Boom needs {self.min_seats} to {self.max_seats} seats, not {seats}.")
        if not isinstance(requested, Mapping):
            raise MalformedMove("bad_options", "Options must be a JSON object such as {\"first_game\": true}.")
        unknown = sorted(set(requested) - set(OPTIONS))
        if unknown:
            raise MalformedMove("bad_options", f"Unknown option(s) {', '.join(unknown)}; the options are: {', '.join(OPTIONS)}.")
        first_game = requested.get("first_game", False)
        if not isinstance(first_game, bool):
            raise MalformedMove("bad_options", f"Option \"first_game\" must be true or false, not {first_game!r} (R4).")
        return {"content": self.pack.id, "first_game": first_game}

    def option_schemas(self, seats: int) -> dict[str, dict[str, Any]]:
        return {"content": fixed_option(self.pack.id),
                "first_game": choice("boolean", False, "The first game: the suggested city tiles.")}

    def initial_state(self, setup_: Setup) -> State:
        chosen = self.options(setup_.options, len(setup_.seats))
        return setup.initial(self.content, len(setup_.seats), chosen["first_game"])

    def setup(self, state: State, rng: Randomness) -> list[Event]:
        return decide.setup(self.content, state, rng)

    def table_setup(self, state: State, observed: Mapping[str, Any]) -> list[Event]:
        """The opening as laid out at a table (`table.py` gives the observed form)."""
        return table.table_setup(self.content, state, observed)

    @property
    def notation(self) -> Notation[State]:
        return RailwayBoomNotation(self.content)

    def evolve(self, state: State, event: Event) -> State:
        return evolve.evolve(self.content, state, event)

    def decide(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        return decide.decide(self.content, self.moves, state, seat, move, rng)

    def decision(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Decision[State]:
        # `decide` evolves as it goes (`steps.py`): hand over what it reached.
        return decide.decided(self.content, self.moves, state, seat, move, rng).decision()

    def active_seats(self, state: State) -> frozenset[int]:
        return legal.active_seats(state)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_moves(self.content, state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> dict[int, int]:
        return {index: seat.vp for index, seat in enumerate(state.seats)}

    def finish(self, state: State) -> dict[int, tuple[int, ...]]:
        # R33's tie-break decides every place, not only the win: the keys never tie.
        return {seat: scoring.tie_break(state, seat) for seat in range(state.players)}

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return views.view(state, audience)

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return self.moves.move_of(event)

    def invariants(self, state: State) -> list[str]:
        return invariants.invariants(self.content, state)

    def reveals(self, event: Event) -> bool:
        """A takeback past these needs every seat's consent (the optional hook)."""
        return event.kind in REVEALING or (event.kind == "ChoiceAwaited" and bool(event.data.get("drawn")))

    def playout_choice(self, state: State, seat: int, moves: Sequence[dict[str, Any]],
                       chooser: random.Random) -> dict[str, Any] | None:
        return playout.choose(self.content, state, seat, moves, chooser)


RULES = Unbound(RailwayBoom)
"""The rules, not yet bound to a pack: the registry binds them to one."""
