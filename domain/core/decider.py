"""The decider protocol every game implements.

A game is a set of pure functions over its own state: `setup` records the opening (deal,
market, goods) as events, `decide` turns a seat's move into events or raises `IllegalMove`,
`evolve` applies one event and never validates or draws randomness. Several seats may be
active at once (`active_seats`): a sealed simultaneous phase accepts each seat's move as it
arrives, and the game keeps each choice secret to its seat until all are in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from domain.core.events import Audience, Event
from domain.core.randomness import Randomness

S = TypeVar("S")

Move = Mapping[str, Any]
"""A move as clients send it: a JSON object with a `type` and that type's fields."""


@dataclass(frozen=True)
class Setup:
    """What a game is created with: one name per seat (seat = index) and the options."""

    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


class Decider(Protocol[S]):
    name: str
    """The ruleset name recorded in `GameCreated.data.game`, e.g. `ticket_to_ride`."""
    ruleset_version: str
    """Bumped whenever a rule changes; old versions stay registered so old games replay."""
    state_type: type[S]
    min_seats: int
    max_seats: int

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """The full options a game is recorded with (defaults and rulings filled in).
        Raises `MalformedMove` (code `bad_options`) for an unknown or invalid option."""
        ...

    def initial_state(self, setup: Setup) -> S:
        """The state before any setup event."""
        ...

    def setup(self, state: S, rng: Randomness) -> list[Event]:
        """The opening, as events: shuffles, deals, the first market."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """The state after `event`. Returns a new state; never changes `state`."""
        ...

    def decide(self, state: S, seat: int, move: Move, rng: Randomness) -> list[Event]:
        """The events `move` by `seat` causes, including the automatic steps it triggers
        (refills, end of game, final scoring). Raises `MalformedMove` or `IllegalMove`."""
        ...

    def active_seats(self, state: S) -> frozenset[int]:
        """The seats that may move now (several in a simultaneous phase; none when over)."""
        ...

    def legal_moves(self, state: S, seat: int) -> list[dict[str, Any]]:
        """Every move `seat` may make now, each a complete move body."""
        ...

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> dict[int, int]:
        """Each seat's current total."""
        ...

    def view(self, state: S, audience: Audience) -> dict[str, Any]:
        """The state as `audience` may see it, as plain JSON."""
        ...

    def move_of(self, event: Event) -> dict[str, Any] | None:
        """The move a seat's first event of a command records (for re-adjudication)."""
        ...
