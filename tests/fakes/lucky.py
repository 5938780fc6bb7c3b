"""`lucky`: a tiny game with dice and a bag, for testing games played at a table.

Seats take turns: `roll` throws the two race dice (the referee reads them) and moves the
shared counter on by their sum; `draw` takes a chip from the bag, a secret only the drawing
seat sees (that seat enters it). Whoever brings the counter to the goal wins. The setup picks
the first seat. With the bag empty, `roll` is a seat's only move (a forced move).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.core.catalogue import Catalogue, UnknownKind
from domain.core.decider import Decider, choice
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Audience, Event, Secret
from domain.core.kinds import Roll, roll

CHIPS = ("red", "red", "red", "blue", "blue", "black")


@dataclass(frozen=True, kw_only=True)
class FirstSeatChosen(Event):
    """The seat to move first."""

    seat: int
    random: Roll


@dataclass(frozen=True, kw_only=True)
class DiceRolled(Event):
    """A seat rolled the race dice and moved the counter on by their sum (`random`: the
    first die as drawn; the second is `SecondDie`'s, one stored outcome per payload)."""

    seat: int
    faces: list[int]
    counter: int
    random: Roll


@dataclass(frozen=True, kw_only=True)
class SecondDie(Event):
    """The second race die as drawn (for a seeded game's audit before the reveal)."""

    random: Roll


@dataclass(frozen=True, kw_only=True)
class ChipDrawn(Event):
    """A seat drew a chip from the bag (which, only it sees)."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class LuckyWon(Event):
    """A seat brought the counter to the goal."""

    seat: int


@dataclass(frozen=True)
class LuckyState:
    seats: int
    goal: int
    counter: int = 0
    turn: int | None = None
    bag: tuple[str, ...] = CHIPS
    hands: tuple[tuple[str, ...], ...] = ()
    winner: int | None = None


class Lucky(Decider[LuckyState]):
    name = "lucky"
    title = "Lucky"
    ruleset_version = "1"
    state_type = LuckyState
    min_seats = 2
    max_seats = 4
    events = Catalogue(FirstSeatChosen, DiceRolled, SecondDie, ChipDrawn, LuckyWon, name="lucky")

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        if set(requested) - {"goal"}:
            raise MalformedMove("bad_options", f"unknown option(s): {', '.join(sorted(set(requested) - {'goal'}))}")
        goal = requested.get("goal", 20)
        if not isinstance(goal, int) or isinstance(goal, bool) or goal < 1:
            raise MalformedMove("bad_options", f"option goal is a whole number of at least 1, not {goal!r}")
        return {"goal": goal}

    def option_schemas(self, seats: int) -> dict[str, dict[str, Any]]:
        return {"goal": choice("integer", 20, "The score that wins.", minimum=1, maximum=1000)}

    def initial_state(self, setup: Any) -> LuckyState:
        return LuckyState(seats=len(setup.seats), goal=setup.options["goal"], hands=((),) * len(setup.seats))

    def setup(self, state: LuckyState, rng: Any) -> list[Event]:
        seats = list(range(state.seats))
        index = rng.pick(seats, "the seat to start", label=lambda s: f"seat {s}")
        return [FirstSeatChosen(seat=seats[index], random=roll(len(seats), index), automatic=True)]

    def evolve(self, state: LuckyState, event: Event) -> LuckyState:
        if isinstance(event, FirstSeatChosen):
            return replace(state, turn=event.seat)
        if isinstance(event, DiceRolled):
            return replace(state, counter=event.counter, turn=(event.seat + 1) % state.seats)
        if isinstance(event, ChipDrawn):
            chip = event.secret()["chip"]
            bag = list(state.bag)
            bag.remove(chip)  # by value: at a table the bag has no order
            hands = tuple((*h, chip) if s == event.seat else h for s, h in enumerate(state.hands))
            return replace(state, bag=tuple(bag), hands=hands, turn=(event.seat + 1) % state.seats)
        if isinstance(event, SecondDie):
            return state
        if isinstance(event, LuckyWon):
            return replace(state, winner=event.seat, turn=None)
        raise UnknownKind(event.kind, "lucky")

    def decide(self, state: LuckyState, seat: int, move: Mapping[str, Any], rng: Any) -> list[Event]:
        kind = move.get("type")
        if set(move) != {"type"}:
            raise MalformedMove("bad_field", f"{kind} takes no fields")
        if kind == "roll":
            faces = rng.roll(2, "the race dice")
            counter = min(state.goal, state.counter + sum(faces))
            events: list[Event] = [DiceRolled(seat=seat, faces=list(faces), counter=counter, random=roll(6, faces[0] - 1)),
                                   SecondDie(random=roll(6, faces[1] - 1), automatic=True)]
            return [*events, LuckyWon(seat=seat, automatic=True)] if counter == state.goal else events
        if kind == "draw":
            if not state.bag:
                raise IllegalMove("bag_empty", "The bag is empty: there is no chip to draw.")
            chip = rng.draw(state.bag, 1, "a chip from the bag", by=seat)[0]
            return [ChipDrawn(seat=seat, secrets=(Secret((seat,), {"chip": chip}),))]
        raise MalformedMove("unknown_move_type", f"unknown move type {kind!r}")

    def active_seats(self, state: LuckyState) -> frozenset[int]:
        return frozenset() if state.turn is None else frozenset({state.turn})

    def legal_moves(self, state: LuckyState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        return [{"type": "roll"}, *([{"type": "draw"}] if state.bag else [])]

    def is_over(self, state: LuckyState) -> bool:
        return state.winner is not None

    def scores(self, state: LuckyState) -> dict[int, int]:
        return {s: int(s == state.winner) for s in range(state.seats)}

    def view(self, state: LuckyState, audience: Audience) -> dict[str, Any]:
        return {"counter": state.counter, "turn": state.turn, "winner": state.winner, "bag": len(state.bag),
                "seats": [{"seat": s, **({"chips": list(h)} if audience.sees((s,)) else {"chips": len(h)})}
                          for s, h in enumerate(state.hands)]}

    def move_of(self, event: Event) -> dict[str, Any] | None:
        if isinstance(event, DiceRolled):
            return {"type": "roll"}
        if isinstance(event, ChipDrawn):
            return {"type": "draw"}
        return None


LUCKY = Lucky()
