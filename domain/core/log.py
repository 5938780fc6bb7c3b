"""A game's log as the rules see it: the events the core itself records around every
game (`GameCreated`, `SeedRevealed`), and the one path by which a move becomes events.

The aggregate, the auditor and the simulator all go through `play`, so a game is judged
the same way when it is played, replayed and audited; every reader folds the events it
stores or reads with `domain/core/fold.py`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any

from domain.core import registry
from domain.core.decider import Decider, Decision, Move, Setup
from domain.core.envelope import to_event
from domain.core.errors import GameOver, NotYourTurn, RecordError
from domain.core.events import Event
from domain.core.kinds import (
    CORE,
    NOTES,
    REWINDS,
    AdjustmentMade,
    AtTable,
    DisputeRaised,
    ForkedFrom,
    GameCreated,
    GameRewound,
    MoveTakenBack,
    PinnedPack,
    RulingMade,
    SeatJoined,
    SeatName,
    SeedRevealed,
    TakebackAccepted,
    TakebackRefused,
    TakebackRequested,
)
from domain.core.randomness import Randomness

GAME_CREATED = GameCreated.kind
SEED_REVEALED = SeedRevealed.kind
GAME_ENDED = "GameEnded"
"""The last rules event of a finished game, so a verifier without the rules sees the end
(each game declares its own, with its own fields)."""
# Referee tools and takebacks (built and judged in `domain/core/referee.py`). The kinds are
# the classes of `domain/core/kinds.py`; these names are their `kind`, for code that reads
# stored records.
GAME_REWOUND = GameRewound.kind
MOVE_TAKEN_BACK = MoveTakenBack.kind
TAKEBACK_REQUESTED = TakebackRequested.kind
TAKEBACK_ACCEPTED = TakebackAccepted.kind
TAKEBACK_REFUSED = TakebackRefused.kind
DISPUTE_RAISED = DisputeRaised.kind
RULING_MADE = RulingMade.kind
ADJUSTMENT_MADE = AdjustmentMade.kind
FORKED_FROM = ForkedFrom.kind
# A seat left open at creation, taken by whoever held its invite (`JoinSeat` in referee.py).
SEAT_JOINED = SeatJoined.kind
REWIND_KINDS = frozenset(kind.kind for kind in REWINDS)
"""After these the state is the state at an earlier version, `data.to_version`."""
NOTE_KINDS = frozenset(kind.kind for kind in NOTES)
"""Recorded for the history; they leave the game state as it is."""
REFEREE_KINDS = REWIND_KINDS | NOTE_KINDS | {ADJUSTMENT_MADE}
CORE_KINDS = frozenset({GAME_CREATED, SEED_REVEALED, SEAT_JOINED}) | NOTE_KINDS


def game_created(decider: Decider[Any], setup: Setup, seed_commitment: str | None, seed_source: str,
                 tournament: AtTable | None = None, rated: bool = False) -> GameCreated:
    # A game played with a content pack pins it: id, version and sha256 (`domain/core/registry.py`).
    pack = decider.pack
    return GameCreated(
        game=decider.name,
        ruleset_version=decider.ruleset_version,
        seats=tuple(SeatName(i, name) for i, name in enumerate(setup.seats)),
        options=dict(setup.options),
        seed_commitment=seed_commitment,
        seed_source=seed_source,
        content=PinnedPack(**pack.pinned) if pack is not None else None,
        tournament=tournament,
        rated=True if rated else None,  # absent unless rated: records made before ratings read the same
        automatic=True,
    )


def seed_revealed(seed: bytes) -> SeedRevealed:
    return SeedRevealed(seed=seed.hex(), automatic=True)


def created_of(record: Mapping[str, Any]) -> GameCreated:
    """A game's first record as its `GameCreated` (a core kind: no game's rules needed)."""
    event = to_event(record, CORE)
    if not isinstance(event, GameCreated):
        raise RecordError("no_game_created", "a game record starts with GameCreated", 1)
    return event


def names_of(created: GameCreated) -> list[str]:
    """The seats' names in seat order, as the game was created."""
    return [s.name for s in sorted(created.seats, key=lambda s: s.seat)]


def setup_of(created: dict[str, Any]) -> Setup:
    seats = sorted(created["seats"], key=lambda s: s["seat"])
    return Setup(seats=tuple(s["name"] for s in seats), options=created["options"])


def decider_of(created: dict[str, Any]) -> Decider[Any]:
    """The rules a recorded game was created with, bound to the content pack it recorded."""
    return registry.ruleset(created["game"], created["ruleset_version"], created.get("content"), created.get("options"))


def play(decider: Decider[Any], state: Any, seat: int, move: Move, rng: Randomness, seed: bytes | None) -> list[Event]:
    """The events `move` by `seat` causes, with the seed's reveal when the game ends.
    Raises the rules' errors; nothing is changed."""
    return list(played(decider, state, seat, move, rng, seed).events)


def played(decider: Decider[Any], state: Any, seat: int, move: Move, rng: Randomness, seed: bytes | None) -> Decision[Any]:
    """`play`, with the states the move passed through (`Decider.decision`)."""
    if decider.is_over(state):
        raise GameOver()
    if seat not in decider.active_seats(state):
        raise NotYourTurn(seat)
    decision = decider.decision(state, seat, move, rng)
    if decider.is_over(decision.state) and seed is not None:
        # The reveal is a core kind: it leaves the state as it is.
        return Decision((*decision.events, seed_revealed(seed)), (*decision.states, decision.state))
    return decision


class by_name:  # lower case: used as a function is, `with log.by_name(...)`
    """Inside, a `NotYourTurn` names the seats (`names`) instead of numbering them, and says
    who is to move (`active`). A class rather than a `contextlib` generator: every move
    is decided inside one, and a generator's context cost a move a few times as much."""

    __slots__ = ("active", "names")

    def __init__(self, names: Sequence[str], active: Iterable[int]) -> None:
        self.names, self.active = names, active

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if isinstance(error, NotYourTurn):
            raise NotYourTurn(error.seat, self.names, self.active) from None


def joined(state: Any, seat: int, name: str) -> Any:
    """The state with `seat` under the name it joined with. Games keep their players' names
    where their views show them, `state.seats[N].name`; a state without names is unchanged."""
    seats = getattr(state, "seats", None)
    if not isinstance(seats, tuple) or not 0 <= seat < len(seats) or not hasattr(seats[seat], "name") \
            or not dataclasses.is_dataclass(seats[seat]):
        return state
    renamed = dataclasses.replace(seats[seat], name=name)
    return dataclasses.replace(state, seats=(*seats[:seat], renamed, *seats[seat + 1:]))


def restored(then: Any, now: Any) -> Any:
    """The state a rewind restores: the game as it stood `then`, its seats still under the
    names they joined with since (a rewind takes back moves, not players)."""
    names = [getattr(seat, "name", None) for seat in getattr(now, "seats", ())] if isinstance(getattr(now, "seats", None), tuple) else []
    for seat, name in enumerate(names):
        if isinstance(name, str):
            then = joined(then, seat, name)
    return then


def open_seat_name(seat: int) -> str:
    """The name a seat left open at creation is recorded under until someone joins it
    (`SeatJoined`): the record has no other mark of an open seat."""
    return f"open seat {seat}"


def open_seats(names: Iterable[str]) -> list[int]:
    """The seats still under their open-seat name."""
    return [seat for seat, name in enumerate(names) if name == open_seat_name(seat)]


def renamed(names: Iterable[str], seat: int, name: str) -> list[str]:
    """The seats' names after `seat` joined as `name`."""
    return [name if index == seat else old for index, old in enumerate(names)]


def adjusted(decider: Decider[Any], state: Any, adjustment: dict[str, Any]) -> Any:
    """The state after a referee's adjustment, through the game's `adjust` hook (by default
    every adjustment is refused, `Decider.adjust`)."""
    return decider.adjust(state, adjustment)
