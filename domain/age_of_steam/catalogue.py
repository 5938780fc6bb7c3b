"""Every event kind Age of Steam records: the order of play's (`events`) and those each
mechanism module declares beside its rules."""

from __future__ import annotations

from domain.age_of_steam import actions, auction, build_track, events, growth, income, move_goods, scoring, shares
from domain.core.catalogue import Catalogue

EVENTS = Catalogue(
    *events.KINDS, *shares.KINDS, *auction.KINDS, *actions.KINDS, *build_track.KINDS, *move_goods.KINDS,
    *income.KINDS, *growth.KINDS, *scoring.KINDS, name="age_of_steam",
)
"""Every kind Age of Steam records."""
