"""Ticket to Ride on the read models: the board is each claimed route and its owner; VP
come from routes, tickets and the longest path; the one resource track is trains left.
The game has no income, so income is None."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.events import Event
from domain.core.figures import Figures, Projector, Scored, SeatFigures
from domain.ticket_to_ride.state import State


class TicketToRideProjector(Projector):
    sources = ("routes", "tickets", "longest_path")
    relevant = frozenset({"RouteClaimed", "TicketScored", "LongestPathScored"})

    def start(self, decider: Scored, state: State) -> Figures:
        return Figures({}, tuple(SeatFigures(dict.fromkeys(self.sources, 0), None, {"trains": seat.trains})
                                 for seat in state.seats))

    def apply(self, figures: Figures, event: Event, state: State) -> Figures | None:
        data = event.data
        if event.kind == "RouteClaimed":
            seat = data["seat"]
            figures = figures.with_cell(data["route"], seat).add_vp(seat, "routes", data["points"])
            return figures.with_track(seat, "trains", data["trains_left"])
        if event.kind == "TicketScored":
            return figures.add_vp(data["seat"], "tickets", data["points"])
        if event.kind == "LongestPathScored":
            for seat in data["winners"]:
                figures = figures.add_vp(seat, "longest_path", data["points"])
            return figures
        return super().apply(figures, event, state)

    def adjusted(self, figures: Figures, adjustment: Mapping[str, Any], state: State) -> Figures | None:
        if adjustment["kind"] != "piece":
            return super().adjusted(figures, adjustment, state)
        seat = adjustment["seat"]
        route = adjustment["detail"]["route"]
        # The adjustment took the route's points off as a scoring step of its own (its map's
        # points, `domain/ticket_to_ride/referee.py`): the state's last step for the seat.
        taken_off = state.seats[seat].scored[-1]
        figures = figures.with_cell(route, None).add_vp(seat, "routes", taken_off)
        return figures.with_track(seat, "trains", state.seats[seat].trains)

