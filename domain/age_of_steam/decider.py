"""The Age of Steam decider: the rules of this package behind the core `Decider` contract,
bound to one map (a content pack, `board.Map`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.age_of_steam import bots as greedy
from domain.age_of_steam import decide, evolve, geometry, invariants, legal, moves, observed, playout, views, words
from domain.age_of_steam import options as rulings
from domain.age_of_steam.board import Map
from domain.age_of_steam.catalogue import EVENTS
from domain.age_of_steam.content import SCHEMA, check_playable
from domain.age_of_steam.figures import AgeOfSteamProjector
from domain.age_of_steam.notation import AgeOfSteamNotation
from domain.age_of_steam.scoring import finish, vp
from domain.age_of_steam.state import OVER, Seat, State
from domain.age_of_steam.view_schema import VIEW_SCHEMA
from domain.core.bots import Bot, base_bots
from domain.core.content import Pack
from domain.core.decider import Bound, Decision, Setup, Unbound, choice
from domain.core.events import Audience, Event
from domain.core.figures import Projector
from domain.core.moves import Moves
from domain.core.notation import Notation
from domain.core.randomness import Randomness


class AgeOfSteam(Bound[State]):
    name = "age_of_steam"
    view_schema = VIEW_SCHEMA
    ruleset_version = "2"
    """2: a bidder's event records who bids next (ruleset 1, `ruleset1.py`, worked it out)."""
    state_type = State
    min_seats = rulings.MIN_SEATS
    max_seats = rulings.MAX_SEATS
    content_schema = SCHEMA
    pack_option = "map"
    default_pack = "rust_belt"
    title = words.TITLE
    refusals = words.REFUSALS
    board_schema = geometry.BOARD_SCHEMA

    def __init__(self, pack: Pack) -> None:
        # Every rule that needs the map is given `self.map`.
        super().__init__(pack)
        self.map: Map = pack.content
        self.moves: Moves = moves.declare(self.map)
        """Every move of the game on this map, declared once (parser, JSON Schema, `move_of`)."""
        self._notation: Notation[State] = AgeOfSteamNotation(self.map, self.moves)

    @classmethod
    def bound_to(cls, pack: Pack) -> AgeOfSteam:
        # The rules play only the printed Rust Belt (`content.check_playable`).
        check_playable(pack.id, pack.content)
        return cls(pack)

    def static_board(self) -> dict[str, Any] | None:
        return geometry.static_board(self.map, self.pack.id)

    @property
    def figures(self) -> Projector:
        return AgeOfSteamProjector(self.map)

    events = EVENTS
    """Every event kind the game records, each a dataclass (`events.py`)."""

    @property
    def notation(self) -> Notation[State]:
        # Lines in the game's own words (`notation.py`).
        return self._notation

    @property
    def move_schemas(self) -> dict[str, dict[str, Any]]:
        return self.moves.schemas()

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return rulings.options(self.map, requested, seats, self.pack.id)

    def option_schemas(self, seats: int) -> dict[str, dict[str, Any]]:
        schemas = super().option_schemas(seats)
        schemas["upgrade_simple_to_coexisting_cost"] = choice(
            "integer", 2, "What upgrading simple track to coexisting track costs (ruling 2).",
            enum=rulings.COEXISTING_UPGRADE_COSTS)
        return schemas

    def initial_state(self, setup: Setup) -> State:
        map_ = self.map
        chosen = self.options(setup.options, len(setup.seats))
        # Cash and shares start at zero: the setup's StartingCapitalTaken events hand out the
        # opening money and shares, so every dollar from the bank is an event.
        return State(
            seats=tuple(Seat(name, locomotive=map_.start_locomotive) for name in setup.seats),
            last_turn=chosen["turns"],
            coexisting_upgrade_cost=chosen["upgrade_simple_to_coexisting_cost"],
            discs=map_.town_discs,
            bag=dict(map_.bag),
            display={column: (None,) * spaces for column, spaces in map_.column_spaces.items()},
        )

    def setup(self, state: State, rng: Randomness) -> list[Event]:
        return decide.setup(self.map, state, rng)

    def table_setup(self, state: State, seen: Mapping[str, Any]) -> list[Event]:
        # The opening as laid out at the table (`observed.py`); the core's form, every
        # outcome listed in the order setup asks for them, is still accepted.
        if isinstance(seen, Mapping) and "outcomes" in seen:
            return super().table_setup(state, seen)
        return observed.table_setup(self.map, state, seen)

    def evolve(self, state: State, event: Event) -> State:
        return evolve.evolve(self.map, state, event)

    def decide(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        return decide.decide(self.map, self.moves, state, seat, move, rng)

    def decision(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Decision[State]:
        # `decide` evolves as it goes (steps.py): hand over what it reached.
        return decide.decided(self.map, self.moves, state, seat, move, rng).decision()

    def active_seats(self, state: State) -> frozenset[int]:
        return legal.active_seats(state)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_moves(self.map, state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> dict[int, int]:
        return {seat: vp(self.map, state, seat) for seat in range(len(state.seats))}

    def finish(self, state: State) -> dict[int, tuple[int, ...]]:
        return finish(self.map, state)

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return views.view(self.map, self.pack.id, state, audience)

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return self.moves.move_of(event)

    def invariants(self, state: State) -> list[str]:
        return invariants.invariants(self.map, state)

    def playout_choice(
        self, state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random
    ) -> dict[str, Any]:
        return playout.playout_choice(self.map, state, seat, moves, chooser)

    @property
    def bots(self) -> Mapping[str, Bot]:
        # `greedy` plans on the map.
        return {**base_bots(self), **greedy.bots(self.map)}


DECIDER = Unbound(AgeOfSteam)
