"""The read models' figures of a game, declared by the game (`Decider.figures`): how its
events show on the board, the income tracks and the VP tallies. The runner, the tables
and the queries are the projections' (`projections/`), shared by every game.

A game's projector is a `Projector` subclass in its own package; its rules hand it out
as `figures`. The contract:

- `start(decider, state) -> Figures`: the figures right after `GameCreated` (empty
  board, each seat's starting VP sources at 0, starting income and resources).
- `apply(figures, event, state) -> Figures | None`: the figures after one event, given
  the figures before it and the game state after it; None when nothing changed.
  `Figures` are treated as immutable: return a new one (`with_cell`, `add_vp`,
  `with_seat`...), never change the one passed in.
- `relevant`: the event kinds that can change a figure (None: every kind). Others
  are not even passed to `apply`, which keeps rebuilds fast.

The runner handles what is common to every game: rewinds restore the figures of the
version rewound to, so `apply` never sees `GameRewound` or `MoveTakenBack`; VP
adjustments land in the `adjustment` source (override `adjusted` for a game's other
adjustment kinds: a piece put back, cash, income). A game that declares no projector gets
`ScoresOnly`: no board, VP from `decider.scores` under the source `score`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from domain.core.events import Event
from domain.core.kinds import AdjustmentMade

ADJUSTMENT = "adjustment"


class Scored(Protocol):
    """What figures ask of a game's rules: its scores (the rules, `Decider`, are one)."""

    def scores(self, state: Any) -> dict[int, int]: ...


@dataclass(frozen=True)
class SeatFigures:
    """One seat's figures: VP by source, income (None for games without one) and other
    resource levels (`tracks`: trains left, shares, cash...)."""

    by_source: Mapping[str, int]
    income: int | None = None
    tracks: Mapping[str, Any] = field(default_factory=dict)

    @property
    def vp(self) -> int:
        return sum(self.by_source.values())


@dataclass(frozen=True)
class Figures:
    """Everything the read models show of a game at one version."""

    board: Mapping[str, Any]
    """Cell (route, hex, edge id) -> what is there (any JSON); an empty cell is absent."""
    seats: tuple[SeatFigures, ...]

    def with_cell(self, cell: str, value: Any) -> Figures:
        board = dict(self.board)
        if value is None:
            board.pop(cell, None)
        else:
            board[cell] = value
        return replace(self, board=board)

    def with_seat(self, seat: int, **changes: Any) -> Figures:
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], **changes)
        return replace(self, seats=tuple(seats))

    def add_vp(self, seat: int, source: str, points: int) -> Figures:
        by_source = dict(self.seats[seat].by_source)
        by_source[source] = by_source.get(source, 0) + points
        return self.with_seat(seat, by_source=by_source)

    def with_track(self, seat: int, track: str, value: Any) -> Figures:
        return self.with_seat(seat, tracks={**self.seats[seat].tracks, track: value})


class Projector:
    """Base of every game's projector; see the module's docstring for the contract."""

    sources: tuple[str, ...] = ()
    """The VP sources every seat starts with at 0, so the tallies keep one shape."""
    relevant: frozenset[str] | None = None

    def start(self, decider: Scored, state: Any) -> Figures:
        seats = len(getattr(state, "seats", ())) or len(decider.scores(state))
        return Figures({}, tuple(SeatFigures(dict.fromkeys(self.sources, 0)) for _ in range(seats)))

    def apply(self, figures: Figures, event: Event, state: Any) -> Figures | None:
        if event.kind == AdjustmentMade.kind:
            return self.adjusted(figures, event.data, state)
        return None

    def adjusted(self, figures: Figures, adjustment: Mapping[str, Any], state: Any) -> Figures | None:
        if adjustment["kind"] == "vp":
            return figures.add_vp(adjustment["seat"], ADJUSTMENT, adjustment["amount"])
        return None

    def kinds(self) -> frozenset[str] | None:
        """`relevant` with the core's adjustments added."""
        return None if self.relevant is None else self.relevant | {AdjustmentMade.kind}


class ScoresOnly(Projector):
    """For games without a projector of their own: VP as `decider.scores` says."""

    sources = ("score",)

    def __init__(self, decider: Scored) -> None:
        self.decider = decider

    def start(self, decider: Scored, state: Any) -> Figures:
        scores = decider.scores(state)
        return Figures({}, tuple(SeatFigures({"score": scores.get(seat, 0)}) for seat in range(len(scores))))

    def apply(self, figures: Figures, event: Event, state: Any) -> Figures | None:
        scores = self.decider.scores(state)
        changed = [seat for seat, total in scores.items() if seat < len(figures.seats) and figures.seats[seat].vp != total]
        for seat in changed:
            figures = figures.with_seat(seat, by_source={"score": scores[seat]})
        return figures if changed else None
