"""Railway Boom on the read models: the board is each hex with a station or rails (by seat);
VP come by source (trains, goals, leftovers, route, income, tourist, cards) exactly as the
seat's scoring events add up; the resource tracks are the four resources, the five income
levels with the "+" each pays (`plus_<track>`) and the seat's disc on the bid track.

The seat's `income` (the viewer's income chart) is what its income phase pays, the five
tracks together: the "+" beside each current level (R23), the four resources and VP. The
pack's "+" values are read once at the start; each later raise records its own `plus`.

The figures are read from the state after each event that can change them, as Age of
Steam's are."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.events import Event
from domain.core.figures import Figures, Projector, Scored, SeatFigures
from domain.railway_boom.content import RESOURCES, TRACKS, Content
from domain.railway_boom.state import Seat, State

SOURCES = ("trains", "goals", "leftovers", "route", "income", "tourist", "cards")

BOARD_KINDS = frozenset({"StationBuilt", "RailLaid"})
SEAT_KINDS = frozenset({
    "ResourceGained", "ResourcePaid", "ResourcesConverted", "VPScored", "IncomeRaised", "BidRaised", "BidPaid",
    "ActionOrderSet", "CarBought", "RailLaid", "DevelopmentBought", "ChoiceMade", "GoalScored", "LeftoversScored",
    "RouteScored", "StartingOrderDrawn",
})


def source_of(key: str) -> str:
    """The tally a seat's scoring source counts under."""
    if key == "trains" or key.startswith("tile:"):
        return "trains"
    if key in ("goals", "leftovers", "route", "income"):
        return key
    if key.startswith("icon:"):
        return "income"
    if key.startswith("tourist:"):
        return "tourist"
    return "cards"


def by_source(seat: Seat) -> dict[str, int]:
    out = dict.fromkeys(SOURCES, 0)
    for key, points in seat.scored.items():
        out[source_of(key)] += points
    return out


def board(state: State) -> dict[str, Any]:
    """Each hex holding a piece: its station's seat and the seats with a rail there."""
    out: dict[str, Any] = {}
    for hex_id in sorted({*state.stations, *state.rails}):
        cell: dict[str, Any] = {}
        if hex_id in state.stations:
            cell["station"] = state.stations[hex_id]
        if state.rails.get(hex_id):
            cell["rails"] = list(state.rails[hex_id])
        out[hex_id] = cell
    return out


def tracks(state: State, index: int, plus: Mapping[str, int]) -> dict[str, Any]:
    seat = state.seats[index]
    return {**{r: seat.resources[r] for r in RESOURCES}, **{f"income_{t}": seat.income[t] for t in TRACKS},
            **{f"plus_{t}": plus[t] for t in TRACKS},
            "bid": state.bids.get(index, 0), "disc": state.order.index(index) if index in state.order else None}


def pluses(figures: SeatFigures) -> dict[str, int]:
    return {t: figures.tracks[f"plus_{t}"] for t in TRACKS}


class RailwayBoomProjector(Projector):
    """The figures of games on one pack: the rules bound to it hand out their own
    (`RailwayBoom.figures`), since the income a track step gives is the pack's."""

    sources = SOURCES
    relevant = BOARD_KINDS | SEAT_KINDS

    def __init__(self, content: Content) -> None:
        self.content = content

    def start(self, decider: Scored, state: State) -> Figures:
        income = self.content.income
        seats = []
        for index, seat in enumerate(state.seats):
            plus = {t: income[t][seat.income[t] - 1].plus for t in TRACKS}
            seats.append(SeatFigures(by_source(seat), sum(plus.values()), tracks(state, index, plus)))
        return Figures(board(state), tuple(seats))

    def apply(self, figures: Figures, event: Event, state: State) -> Figures | None:
        if event.kind not in self.relevant:
            return super().apply(figures, event, state)
        out = figures
        if event.kind in BOARD_KINDS:
            now = board(state)
            for hex_id in {*figures.board, *now}:
                if figures.board.get(hex_id) != now.get(hex_id):
                    out = out.with_cell(hex_id, now.get(hex_id))
        for index, seat in enumerate(state.seats):
            before = out.seats[index]
            plus = pluses(before)
            if event.kind == "IncomeRaised" and event.data["seat"] == index:
                plus[event.data["track"]] = event.data["plus"]
            points, resources = by_source(seat), tracks(state, index, plus)
            if points != before.by_source or resources != before.tracks:
                out = out.with_seat(index, by_source=points, tracks=resources, income=sum(plus.values()))
        return None if out is figures else out

