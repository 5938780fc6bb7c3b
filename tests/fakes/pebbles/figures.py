"""`pebbles` on the read models, as a shipped game's `domain/<game>/figures.py`: the board's
one cell is the heap, the one VP source is the win, the one track is pebbles taken. Its rules
hand it out as `Pebbles.figures`."""

from __future__ import annotations

from typing import Any

from domain.core.events import Event
from domain.core.figures import Figures, Projector, Scored, SeatFigures
from tests.fakes.pebbles.events import GameEnded, PebblesState, PebblesTaken

HEAP = "heap"


def board(state: PebblesState) -> dict[str, Any]:
    """The board the read models show for `state` (an empty heap is an empty cell)."""
    return {HEAP: state.left} if state.left else {}


class PebblesProjector(Projector):
    sources = ("win",)
    relevant = frozenset({PebblesTaken.kind, GameEnded.kind})

    def start(self, decider: Scored, state: PebblesState) -> Figures:
        seats = tuple(SeatFigures(dict.fromkeys(self.sources, 0), None, {"taken": 0}) for _ in range(state.seats))
        return Figures(board(state), seats)

    def apply(self, figures: Figures, event: Event, state: PebblesState) -> Figures | None:
        if isinstance(event, PebblesTaken):
            figures = figures.with_cell(HEAP, event.left or None)
            return figures.with_track(event.seat, "taken", state.taken[event.seat])
        if isinstance(event, GameEnded):
            for seat in event.winners:
                figures = figures.add_vp(seat, "win", 1)
            return figures
        return super().apply(figures, event, state)

