"""Age of Steam on the read models: the board is each hex with track (tile, rotation, town
disc, one owner per path or town exit) and each new city (its letter); VP come from income
(3 each), shares (-3 each) and track on completed links (one per tile), exactly as
`domain.age_of_steam.scoring.sources` counts them; the income track is each seat's income,
and shares, locomotive and cash are resource tracks.

Track VP need the whole network, so they are recounted only when the board changes (a
placement, an urbanization, abandoned track, a bankruptcy); income and shares are read from
the seat after any event that touches a seat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.age_of_steam.board import Map
from domain.age_of_steam.scoring import INCOME_VP, SHARE_VP, sources
from domain.age_of_steam.state import Seat, State
from domain.core.events import Event
from domain.core.figures import Figures, Projector, Scored, SeatFigures

SOURCES = ("income", "shares", "track")

BOARD_KINDS = frozenset({"TrackBuilt", "CityUrbanized", "TrackAbandoned", "PlayerBankrupt"})
"""Events that change the board, and with it the track VP."""
SEAT_KINDS = frozenset({
    "StartingCapitalTaken", "SharesIssued", "AuctionSettled", "LocomotiveIncreased", "GoodsDelivered",
    "LocomotiveUpgradedInsteadOfMove", "IncomeCollected", "ExpensesPaid", "IncomeReduced", "FinalScored",
})
"""Events that change a seat's cash, income, shares or locomotive (besides the board ones)."""


def cell(state: State, hex_: str) -> dict[str, Any] | None:
    """What the board shows on one hex: its tile, a new city, or both (None: nothing)."""
    out: dict[str, Any] = {}
    placed = state.board.get(hex_)
    if placed is not None:
        out.update(tile=placed.tile, rotation=placed.rotation, owners=list(placed.owners), town_disc=placed.disc)
    letter = state.new_cities.get(hex_)
    if letter is not None:
        out["new_city"] = letter
    return out or None


def board(state: State) -> dict[str, Any]:
    """The whole board as cells, as the projection shows it."""
    return {hex_: value for hex_ in sorted({*state.board, *state.new_cities}) if (value := cell(state, hex_)) is not None}


def tracks(seat: Seat) -> dict[str, int]:
    return {"shares": seat.shares, "locomotive": seat.locomotive, "cash": seat.cash}


class AgeOfSteamProjector(Projector):
    """The figures of games on one map: the rules bound to a pack hand out their own
    (`AgeOfSteam.figures`), since track VP are counted on the map's links."""

    sources = SOURCES
    relevant = BOARD_KINDS | SEAT_KINDS

    def __init__(self, map_: Map) -> None:
        self.map = map_

    def start(self, decider: Scored, state: State) -> Figures:
        return Figures(board(state), tuple(
            SeatFigures(dict(sources(self.map, state, index)), seat.income, tracks(seat)) for index, seat in enumerate(state.seats)
        ))

    def apply(self, figures: Figures, event: Event, state: State) -> Figures | None:
        if event.kind in BOARD_KINDS:
            return self._sync(figures, state, board_changed=True)
        if event.kind in SEAT_KINDS:
            return self._sync(figures, state, board_changed=False)
        return super().apply(figures, event, state)

    def adjusted(self, figures: Figures, adjustment: Mapping[str, Any], state: State) -> Figures | None:
        # The rules take no adjustments today; should one come, show whatever it changed.
        base = super().adjusted(figures, adjustment, state) or figures
        synced = self._sync(base, state, board_changed=True)
        return synced if synced is not None else (base if base is not figures else None)

    def _sync(self, figures: Figures, state: State, board_changed: bool) -> Figures | None:
        """The figures brought in line with the state; None when they already were."""
        out = figures
        map_ = self.map if board_changed else None
        if board_changed:
            now = board(state)
            for hex_ in {*figures.board, *now}:
                if figures.board.get(hex_) != now.get(hex_):
                    out = out.with_cell(hex_, now.get(hex_))
        for index, seat in enumerate(state.seats):
            before = out.seats[index]
            if map_ is not None:
                points = sources(map_, state, index)
            elif seat.eliminated:
                points = {"income": 0, "shares": 0, "track": 0}
            else:
                points = {"income": INCOME_VP * seat.income, "shares": SHARE_VP * seat.shares,
                          "track": before.by_source.get("track", 0)}
            by_source = {**before.by_source, **points}
            resources = tracks(seat)
            if by_source != before.by_source or seat.income != before.income or resources != before.tracks:
                out = out.with_seat(index, by_source=by_source, income=seat.income, tracks=resources)
        return None if out is figures else out

