"""`race`: a tiny game for testing the core and the service apart from any real ruleset.

Seats take turns advancing a shared counter by 1–3; whoever brings it to the goal wins.
The setup rolls for the first seat and deals each seat a secret number, so the fake
exercises randomness, secrets, redaction and the end of a game; its last step is a union of
two dataclasses, so the snapshot codec's unions are exercised too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from domain.core.catalogue import Catalogue, UnknownKind
from domain.core.decider import Decider, choice
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Audience, Event, Secret, means
from domain.core.kinds import Roll, roll
from domain.core.randomness import Randomness, rolled


@dataclass(frozen=True, kw_only=True)
class SecretDealt(Event):
    """A seat was dealt its secret number (the secret holds it and its draw)."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class FirstSeatRolled(Event):
    """The seat to move first was drawn at random."""

    seat: int
    random: Roll


@dataclass(frozen=True, kw_only=True)
class CounterAdvanced(Event):
    """A seat advanced the shared counter."""

    seat: int
    by: int = field(metadata=means("By how much, 1 to 3."))
    counter: int = field(metadata=means("The counter afterwards."))


@dataclass(frozen=True, kw_only=True)
class RaceWon(Event):
    """A seat brought the counter to the goal and won."""

    seat: int


@dataclass(frozen=True)
class Advanced:
    seat: int
    by: int


@dataclass(frozen=True)
class Won:
    seat: int


@dataclass(frozen=True)
class RaceState:
    seats: int
    goal: int
    counter: int = 0
    turn: int | None = None
    secrets: tuple[int, ...] = ()
    winner: int | None = None
    last: Advanced | Won | None = None


class Race(Decider[RaceState]):
    name = "race"
    title = "Race"
    ruleset_version = "1"
    state_type = RaceState
    min_seats = 2
    max_seats = 4
    events = Catalogue(SecretDealt, FirstSeatRolled, CounterAdvanced, RaceWon, name="race")

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        unknown = set(requested) - {"goal"}
        if unknown:
            raise MalformedMove("bad_options", f"unknown option(s): {', '.join(sorted(unknown))}")
        goal = requested.get("goal", 10)
        if not isinstance(goal, int) or isinstance(goal, bool) or goal < 1:
            raise MalformedMove("bad_options", f"option goal is a whole number of at least 1, not {goal!r}")
        return {"goal": goal}

    def option_schemas(self, seats: int) -> dict[str, dict[str, Any]]:
        return {"goal": choice("integer", 10, "The score that wins.", minimum=1, maximum=1000)}

    def initial_state(self, setup: Any) -> RaceState:
        return RaceState(seats=len(setup.seats), goal=setup.options["goal"])

    def setup(self, state: RaceState, rng: Randomness) -> list[Event]:
        events: list[Event] = []
        for s in range(state.seats):
            number = rng.randbelow(100)
            dealt = Secret((s,), {"number": number + 1, **rolled(100, number)})
            events.append(SecretDealt(seat=s, secrets=(dealt,), automatic=True))
        first = rng.randbelow(state.seats)
        return [*events, FirstSeatRolled(seat=first, random=roll(state.seats, first), automatic=True)]

    def evolve(self, state: RaceState, event: Event) -> RaceState:
        if isinstance(event, SecretDealt):
            return replace(state, secrets=(*state.secrets, event.secret()["number"]))
        if isinstance(event, FirstSeatRolled):
            return replace(state, turn=event.seat)
        if isinstance(event, CounterAdvanced):
            return replace(state, counter=event.counter, turn=(event.seat + 1) % state.seats, last=Advanced(event.seat, event.by))
        if isinstance(event, RaceWon):
            return replace(state, winner=event.seat, turn=None, last=Won(event.seat))
        raise UnknownKind(event.kind, "race")

    def decide(self, state: RaceState, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        if move.get("type") != "advance":
            raise MalformedMove("unknown_move_type", f"unknown move type {move.get('type')!r}")
        by = move.get("by")
        if not isinstance(by, int) or isinstance(by, bool):
            raise MalformedMove("bad_field", "'by' must be a whole number")
        if not 1 <= by <= 3:
            raise IllegalMove("bad_step", f"You may advance by 1, 2 or 3, not {by}.")
        counter = min(state.goal, state.counter + by)
        events: list[Event] = [CounterAdvanced(seat=seat, by=by, counter=counter)]
        if counter == state.goal:
            events.append(RaceWon(seat=seat, automatic=True))
        return events

    def active_seats(self, state: RaceState) -> frozenset[int]:
        return frozenset() if state.turn is None else frozenset({state.turn})

    def legal_moves(self, state: RaceState, seat: int) -> list[dict[str, Any]]:
        return [{"type": "advance", "by": n} for n in (1, 2, 3)] if seat in self.active_seats(state) else []

    def is_over(self, state: RaceState) -> bool:
        return state.winner is not None

    def scores(self, state: RaceState) -> dict[int, int]:
        return {s: int(s == state.winner) for s in range(state.seats)}

    def view(self, state: RaceState, audience: Audience) -> dict[str, Any]:
        # As in every game, what only seat N may see lives under `seats[N]`.
        return {"counter": state.counter, "turn": state.turn, "winner": state.winner,
                "seats": [{"seat": s, **({"secret": n} if audience.sees((s,)) else {})} for s, n in enumerate(state.secrets)]}

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return {"type": "advance", "by": event.by} if isinstance(event, CounterAdvanced) else None

    def invariants(self, state: RaceState) -> list[str]:
        return [] if 0 <= state.counter <= state.goal else [f"counter {state.counter} out of range"]


RACE = Race()
