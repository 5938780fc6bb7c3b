"""The Age of Steam decider: the rules of this package behind the core `Decider` contract."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.age_of_steam import decide, evolve, invariants, legal, moves, playout, views
from domain.age_of_steam import options as rulings
from domain.age_of_steam.content import SCHEMA, check_playable
from domain.age_of_steam.scoring import vp
from domain.age_of_steam.state import OVER, Seat, State
from domain.core.content import Pack
from domain.core.decider import Decider, Decision, Setup
from domain.core.events import Audience, Event
from domain.core.randomness import Randomness


class AgeOfSteam(Decider[State]):
    name = "age_of_steam"
    ruleset_version = "1"
    state_type = State
    min_seats = rulings.MIN_SEATS
    max_seats = rulings.MAX_SEATS
    content_schema = SCHEMA
    pack_option = "map"
    default_pack = "rust_belt"

    def __init__(self, pack: Pack | None = None) -> None:
        # Ruleset 1 reads the Rust Belt from `rust_belt.py`; the pack pins which map a game
        # was recorded with, and only that map's pack is accepted (`content.check_playable`).
        self.pack = pack

    def with_pack(self, pack: Pack) -> AgeOfSteam:
        check_playable(pack.id, pack.content)
        return AgeOfSteam(pack)

    moves = moves.MOVES
    """Every move of the game, declared once (parser, JSON Schema, `move_of`)."""

    @property
    def move_schemas(self) -> dict[str, dict[str, Any]]:
        return self.moves.schemas()

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return rulings.options(requested, seats, self.pack.id if self.pack else self.default_pack)

    def initial_state(self, setup: Setup) -> State:
        chosen = self.options(setup.options, len(setup.seats))
        # Cash and shares start at zero: the setup's StartingCapitalTaken events hand out the
        # opening $10 and 2 shares, so every dollar from the bank is an event.
        return State(
            seats=tuple(Seat(name) for name in setup.seats),
            last_turn=chosen["turns"],
            coexisting_upgrade_cost=chosen["upgrade_simple_to_coexisting_cost"],
        )

    def setup(self, state: State, rng: Randomness) -> list[Event]:
        return decide.setup(state, rng)

    def evolve(self, state: State, event: Event) -> State:
        return evolve.evolve(state, event)

    def decide(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        return decide.decide(state, seat, move, rng)

    def decision(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Decision[State]:
        # `decide` evolves as it goes (steps.py): hand over what it reached.
        return decide.decided(state, seat, move, rng).decision()

    def active_seats(self, state: State) -> frozenset[int]:
        return legal.active_seats(state)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_moves(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> dict[int, int]:
        return {seat: vp(state, seat) for seat in range(len(state.seats))}

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return views.view(state, audience)

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return moves.move_of(event)

    def invariants(self, state: State) -> list[str]:
        return invariants.invariants(state)

    def playout_choice(
        self, state: State, seat: int, moves: Sequence[dict[str, Any]], chooser: random.Random
    ) -> dict[str, Any]:
        return playout.playout_choice(state, seat, moves, chooser)


DECIDER = AgeOfSteam()
