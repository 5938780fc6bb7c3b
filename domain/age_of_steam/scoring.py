"""Victory points (`docs/rules/age_of_steam.md`, "End and scoring"; cases 66–71): the running
tally by source, and final scoring with the tie-breakers (more cash, then more track, then a
die roll)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.events import Outcome, outcome
from domain.age_of_steam.ledger import Handlers
from domain.age_of_steam.state import OVER, State
from domain.age_of_steam.track import track_tiles
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.core.state import replace, replace_seat

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps

INCOME_VP = 3
SHARE_VP = -3

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FinalScored(Event):
    """A seat's final score by source: 3 per income, -3 per share, 1 per track tile."""

    seat: int
    income: int
    shares: int
    track: int
    income_vp: int
    shares_vp: int
    track_vp: int
    vp: int
    cash: int


@dataclass(frozen=True, kw_only=True)
class TieBreakRolled(Event):
    """A die rolled to break a tie left after score, cash and track."""

    seat: int
    round: int
    value: int
    random: Outcome


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The game is over: every seat's score, the winners, the seats eliminated and what
    decided the winner."""

    scores: dict[str, int]
    winners: tuple[int, ...]
    eliminated: tuple[int, ...]
    decided_by: str


# --- the tally ----------------------------------------------------------------------------



def sources(map_: Map, state: State, seat: int) -> dict[str, int]:
    """A seat's points by source; an eliminated seat scores nothing."""
    me = state.seats[seat]
    if me.eliminated:
        return {"income": 0, "shares": 0, "track": 0}
    return {
        "income": INCOME_VP * me.income,
        "shares": SHARE_VP * me.shares,
        "track": track_tiles(map_, state.board, state.new_cities, seat),
    }


def vp(map_: Map, state: State, seat: int) -> int:
    final = state.seats[seat].final_vp
    return final if final is not None else sum(sources(map_, state, seat).values())


def final_scoring(steps: Steps, rng: Randomness) -> None:
    """Every seat still in, by source; then the winner and the end of the game."""
    state, map_ = steps.state, steps.map
    live = [seat for seat in range(len(state.seats)) if not state.seats[seat].eliminated]
    for seat in live:
        me = state.seats[seat]
        points = sources(map_, state, seat)
        steps.emit(FinalScored(
            seat=seat,
            income=me.income,
            shares=me.shares,
            track=points["track"],
            income_vp=points["income"],
            shares_vp=points["shares"],
            track_vp=points["track"],
            vp=sum(points.values()),
            cash=me.cash,
        ))
    state = steps.state
    winners, decided_by = _winners(steps, rng, live)
    steps.emit(GameEnded(
        scores={str(seat): vp(map_, state, seat) for seat in range(len(state.seats))},
        winners=tuple(winners),
        eliminated=tuple(seat for seat in range(len(state.seats)) if state.seats[seat].eliminated),
        decided_by=decided_by,
    ))


def _winners(steps: Steps, rng: Randomness, live: list[int]) -> tuple[list[int], str]:
    state, map_ = steps.state, steps.map
    if not live:
        return [], "nobody_left"
    tied = _best(live, lambda s: vp(map_, state, s))
    if len(tied) == 1:
        return tied, "score"
    tied = _best(tied, lambda s: state.seats[s].cash)
    if len(tied) == 1:
        return tied, "cash"
    tied = _best(tied, lambda s: track_tiles(map_, state.board, state.new_cities, s))
    if len(tied) == 1:
        return tied, "track"
    round_ = 0
    while len(tied) > 1:
        round_ += 1
        # One die each, rolled in seat order, so a referee enters them as one line.
        names = ", ".join(state.seats[seat].name for seat in tied)
        again = "" if round_ == 1 else f" (tied again, roll {round_})"
        rolled = rng.roll(len(tied), f"tie-break: one die each for {names}{again}")
        faces = dict(zip(tied, rolled, strict=True))
        for seat in tied:
            steps.emit(TieBreakRolled(seat=seat, round=round_, value=faces[seat], random=outcome(6, faces[seat] - 1)))
        tied = _best(tied, faces.__getitem__)
    return tied, "dice"


def finish(map_: Map, state: State) -> dict[int, tuple[int, ...]]:
    """The order of finish by the rules that decide the winner, for every place: seats still
    in ahead of the eliminated, the winner (the dice decided a tie that survived cash and
    track) ahead of the rest, then VP, cash and track; seats still level share a place."""
    return {seat: (int(not me.eliminated), int(seat in state.winners), vp(map_, state, seat), me.cash,
                   track_tiles(map_, state.board, state.new_cities, seat))
            for seat, me in enumerate(state.seats)}


def _best(seats: list[int], key: Any) -> list[int]:
    top = max(key(s) for s in seats)
    return [s for s in seats if key(s) == top]


# --- the events applied -------------------------------------------------------------------


def _scored(state: State, event: FinalScored) -> State:
    return replace_seat(state, event.seat, final_vp=event.vp)


def _unchanged(state: State, event: TieBreakRolled) -> State:
    return state


def _ended(state: State, event: GameEnded) -> State:
    return replace(state, phase=OVER, queue=(), auction=None, build=None, winners=tuple(event.winners))


APPLY: Handlers = {FinalScored: _scored, TieBreakRolled: _unchanged, GameEnded: _ended}
KINDS = tuple(APPLY)
