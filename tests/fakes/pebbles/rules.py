"""The rules of `pebbles`: seats take turns taking 1 to `most_taken` pebbles from one heap;
whoever takes the last pebble wins. The heap's size and the most a seat may take come
from the game's content pack. The setup rolls for the first seat, so the record has a
random outcome for the audit to check.

Only the required members of the game contract and its event kinds (the `events`
catalogue every game declares) are written: every other optional hook keeps its default,
which is part of what the toy shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.core.catalogue import Catalogue, UnknownKind
from domain.core.content import Pack, Reader
from domain.core.decider import Bound, DemoPlan, Setup, Unbound
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Audience, Event
from domain.core.figures import Projector
from domain.core.kinds import roll
from domain.core.randomness import Randomness
from domain.core.words import N_
from tests.fakes.pebbles.events import FirstSeatRolled, GameEnded, PebblesState, PebblesTaken
from tests.fakes.pebbles.figures import PebblesProjector


@dataclass(frozen=True)
class Heap:
    """The content of a pack: the heap a game starts with."""

    pebbles: int
    most_taken: int


class HeapSchema:
    """`heap.json`: `{"pebbles": n, "most_taken": k}`."""

    game = "pebbles"
    files = ("heap.json",)

    def load(self, reader: Reader) -> Heap | None:
        entry = reader.entry("heap.json", "heap")
        if entry is None:
            return None
        return Heap(entry.integer("pebbles", 1, 99), entry.integer("most_taken", 1, 9))

    def nameable(self, content: Heap) -> dict[str, tuple[str, ...]]:
        return {}  # a heap of pebbles has nothing people call by name


REFUSALS = {"too_many_pebbles": N_("You may take 1 to %(most)s pebbles.")}
"""Its one refusal code beyond the core's, in words."""

BOARD_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["heap"], "properties": {
    "heap": {"type": "object", "additionalProperties": False, "required": ["pebbles", "most_taken"], "properties": {
        "pebbles": {"type": "integer", "description": "The heap a game starts with."},
        "most_taken": {"type": "integer", "description": "The most a seat may take at once."}}}}}
"""The JSON Schema of its static board: the heap it starts with."""


class Pebbles(Bound[PebblesState]):
    name = "pebbles"
    ruleset_version = "1"
    state_type = PebblesState
    min_seats = 2
    max_seats = 3
    content_schema = HeapSchema()
    pack_option = "heap"
    default_pack = "small"
    events = Catalogue(FirstSeatRolled, PebblesTaken, GameEnded, name="pebbles")
    title = "Pebbles"
    own_title = "Pebbles (a heap)"
    refusals = REFUSALS
    board_schema = BOARD_SCHEMA
    demo = DemoPlan(seats=3)

    def __init__(self, pack: Pack) -> None:
        super().__init__(pack)
        self.heap: Heap = pack.content

    def static_board(self) -> dict[str, Any] | None:
        return {"heap": {"pebbles": self.heap.pebbles, "most_taken": self.heap.most_taken}}

    @property
    def figures(self) -> Projector:
        return PebblesProjector()

    def options(self, requested: Mapping[str, Any], seats: int) -> dict[str, Any]:
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedMove("bad_options", f"Pebbles needs {self.min_seats} to {self.max_seats} seats, not {seats}.")
        if not isinstance(requested, Mapping):
            raise MalformedMove("bad_options", "Options must be a JSON object such as {\"heap\": \"small\"}.")
        unknown = sorted(set(requested) - {self.pack_option})
        if unknown:
            raise MalformedMove("bad_options", f"Unknown option(s) {', '.join(unknown)}; the only one is \"heap\".")
        return {self.pack_option: self.pack.id}

    def initial_state(self, setup: Setup) -> PebblesState:
        return PebblesState(seats=len(setup.seats), left=self.heap.pebbles, taken=(0,) * len(setup.seats))

    def setup(self, state: PebblesState, rng: Randomness) -> list[Event]:
        first = rng.randbelow(state.seats)
        return [FirstSeatRolled(seat=first, random=roll(state.seats, first), automatic=True)]

    def evolve(self, state: PebblesState, event: Event) -> PebblesState:
        if isinstance(event, FirstSeatRolled):
            return replace(state, turn=event.seat)
        if isinstance(event, PebblesTaken):
            seat = event.seat
            taken = tuple(n + event.count if s == seat else n for s, n in enumerate(state.taken))
            return replace(state, left=event.left, taken=taken, turn=(seat + 1) % state.seats)
        if isinstance(event, GameEnded):
            return replace(state, turn=None, winner=event.winners[0])
        raise UnknownKind(event.kind, "pebbles")

    def decide(self, state: PebblesState, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        if move.get("type") != "take":
            raise MalformedMove("unknown_move_type", f"Unknown move type {move.get('type')!r}; pebbles has only \"take\".")
        count = move.get("count")
        if not isinstance(count, int) or isinstance(count, bool):
            raise MalformedMove("bad_field", "\"count\" must be a whole number.")
        most = min(self.heap.most_taken, state.left)
        if not 1 <= count <= most:
            raise IllegalMove("too_many_pebbles", f"You may take 1 to {most} pebbles, not {count}.", {"most": most})
        left = state.left - count
        events: list[Event] = [PebblesTaken(seat=seat, count=count, left=left)]
        if left == 0:
            scores = {str(s): int(s == seat) for s in range(state.seats)}
            events.append(GameEnded(scores=scores, winners=(seat,), automatic=True))
        return events

    def active_seats(self, state: PebblesState) -> frozenset[int]:
        return frozenset() if state.turn is None else frozenset({state.turn})

    def legal_moves(self, state: PebblesState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        return [{"type": "take", "count": n} for n in range(1, min(self.heap.most_taken, state.left) + 1)]

    def is_over(self, state: PebblesState) -> bool:
        return state.winner is not None

    def scores(self, state: PebblesState) -> dict[int, int]:
        return {s: int(s == state.winner) for s in range(state.seats)}

    def view(self, state: PebblesState, audience: Audience) -> dict[str, Any]:
        return {"left": state.left, "turn": state.turn, "winner": state.winner,
                "seats": [{"seat": s, "taken": n} for s, n in enumerate(state.taken)]}

    def move_of(self, event: Event) -> dict[str, Any] | None:
        return {"type": "take", "count": event.count} if isinstance(event, PebblesTaken) else None


RULES = Unbound(Pebbles)
"""Not yet bound to a heap: the registry binds it to a pack."""
