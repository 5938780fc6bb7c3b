"""Toot-Toot Train on the read models: the board is the drawn map (every segment by hex,
each factory, each train by owner) and the public order row; VP come from sales and each
final-scoring line; the resource tracks are each seat's goods, tokens and penalty tokens."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.core.events import Event
from domain.core.figures import Figures, Projector, Scored, SeatFigures
from domain.toot_toot.state import State

SOURCES = ("sales", "hand_orders", "leftover_goods", "influence", "technology", "penalties")
BOARD_KINDS = frozenset({"MapChosen", "StartChosen", "TrackDrawn", "TrainMoved", "TrainTurned", "FactoryBuilt",
                         "PublicOrderRevealed", "IconsFilled", "OrderCompleted", "OrderDiscarded"})
SEAT_KINDS = frozenset({"ResourceTaken", "GoodsGained", "GoodsPaid", "GoodsSold", "TokensGained", "Upgraded",
                        "PenaltyTaken"})


def board(state: State) -> dict[str, Any]:
    """The board a state shows: `track:<hex>` (segments as [from, to]), `factory:<hex>`,
    `train:<seat>` ([hex, facing]) and `orders` (the public row with its filled icons)."""
    cells: dict[str, Any] = {f"track:{h}": [list(s) for s in segs] for h, segs in state.track.items()}
    cells.update({f"factory:{h}": {"kind": f.kind, "exit": f.exit} for h, f in state.factories.items()})
    cells.update({f"train:{i}": [s.hex, s.facing] for i, s in enumerate(state.seats) if s.hex is not None})
    if state.public:
        cells["orders"] = [{"order": o, "filled": list(state.filled.get(o, ()))} for o in state.public]
    return cells


def source(line: str) -> str:
    """The VP source a final-scoring line counts under."""
    if line.startswith("influence"):
        return "influence"
    if line.startswith("order_scoring") or line == "completed_pairs":
        return "technology"
    return line


def tracks(state: State, seat: int) -> dict[str, Any]:
    held = state.seats[seat]
    return {"goods": dict(held.goods), "tokens": held.tokens, "penalties": held.penalties}


class TootTootProjector(Projector):
    sources = SOURCES
    relevant = BOARD_KINDS | SEAT_KINDS | {"ScoreGained", "FinalScored"}

    def start(self, decider: Scored, state: State) -> Figures:
        return Figures(board(state), tuple(SeatFigures(dict.fromkeys(SOURCES, 0), None, tracks(state, i))
                                           for i in range(len(state.seats))))

    def apply(self, figures: Figures, event: Event, state: State) -> Figures | None:
        data = event.data
        if event.kind in BOARD_KINDS:
            figures = replace(figures, board=board(state))
        if event.kind == "ScoreGained":
            figures = figures.add_vp(data["seat"], "sales", data["points"])
        elif event.kind == "FinalScored":
            figures = figures.add_vp(data["seat"], source(data["line"]), data["points"])
        if "seat" in data and event.kind in SEAT_KINDS | {"TrainMoved"}:
            figures = figures.with_seat(data["seat"], tracks=tracks(state, data["seat"]))
        return figures if event.kind in self.relevant else super().apply(figures, event, state)

