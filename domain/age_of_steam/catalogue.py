"""Every event kind Age of Steam records: those of `events` and those each mechanism module
declares beside its rules."""

from __future__ import annotations

from domain.age_of_steam import auction, events, growth, income, shares
from domain.core.catalogue import Catalogue
from domain.core.events import Event

_OWN: tuple[type[Event], ...] = (
    events.OrderDieRolled, events.PlayerOrderSet, events.StartingCapitalTaken, events.DisplayCubeDrawn,
    events.CityCubeDrawn, events.TurnBegan, events.PhaseBegan, events.TurnEnded,
    events.ActionSelected, events.LocomotiveIncreased,
    events.BuildTurnBegan, events.TrackBuilt, events.CityUrbanized, events.BuildEnded, events.TrackAbandoned,
    events.GoodsDelivered, events.LocomotiveUpgradedInsteadOfMove, events.MovePassed,
    events.FinalScored, events.TieBreakRolled, events.GameEnded,
)

EVENTS = Catalogue(*_OWN, *shares.KINDS, *auction.KINDS, *income.KINDS, *growth.KINDS, name="age_of_steam")
"""Every kind Age of Steam records."""
