"""The per-game part of the projections: how one ruleset's events show on the board, the
income tracks and the VP tallies. The runner, the tables and the queries are shared.

A game adds one module (`projections/<game>.py`) with a `Projector` subclass and calls
`register(...)` at import; `projections/__init__.py` imports the known ones. The contract:

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
adjustment kinds: a piece put back, cash, income). Games without a projector of their
own get `ScoresOnly`: no board, VP from `decider.scores` under the source `score`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from domain.core import log
from domain.core.decider import Decider
from domain.core.events import Event

ADJUSTMENT = "adjustment"


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

    name: str = ""
    sources: tuple[str, ...] = ()
    """The VP sources every seat starts with at 0, so the tallies keep one shape."""
    relevant: frozenset[str] | None = None

    def start(self, decider: Decider[Any], state: Any) -> Figures:
        seats = len(getattr(state, "seats", ())) or len(decider.scores(state))
        return Figures({}, tuple(SeatFigures(dict.fromkeys(self.sources, 0)) for _ in range(seats)))

    def apply(self, figures: Figures, event: Event, state: Any) -> Figures | None:
        if event.kind == log.ADJUSTMENT_MADE:
            return self.adjusted(figures, event.data, state)
        return None

    def adjusted(self, figures: Figures, adjustment: Mapping[str, Any], state: Any) -> Figures | None:
        if adjustment["kind"] == "vp":
            return figures.add_vp(adjustment["seat"], ADJUSTMENT, adjustment["amount"])
        return None

    def kinds(self) -> frozenset[str] | None:
        """`relevant` with the core's adjustments added."""
        return None if self.relevant is None else self.relevant | {log.ADJUSTMENT_MADE}


class ScoresOnly(Projector):
    """For games without a projector of their own: VP as `decider.scores` says."""

    sources = ("score",)

    def __init__(self, decider: Decider[Any]) -> None:
        self.decider = decider
        self.name = decider.name

    def start(self, decider: Decider[Any], state: Any) -> Figures:
        scores = decider.scores(state)
        return Figures({}, tuple(SeatFigures({"score": scores.get(seat, 0)}) for seat in range(len(scores))))

    def apply(self, figures: Figures, event: Event, state: Any) -> Figures | None:
        scores = self.decider.scores(state)
        changed = [seat for seat, total in scores.items() if seat < len(figures.seats) and figures.seats[seat].vp != total]
        for seat in changed:
            figures = figures.with_seat(seat, by_source={"score": scores[seat]})
        return figures if changed else None


_PROJECTORS: dict[str, Projector] = {}


def register(projector: Projector) -> None:
    _PROJECTORS[projector.name] = projector


def projector_for(decider: Decider[Any]) -> Projector:
    return _PROJECTORS.get(decider.name) or ScoresOnly(decider)


def registered() -> Iterable[str]:
    return sorted(_PROJECTORS)
