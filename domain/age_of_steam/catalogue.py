"""Every event kind Age of Steam records: the order of play's (`events`) and those each
mechanism module declares beside its rules."""

from __future__ import annotations

from domain.age_of_steam import actions, auction, build_track, events, growth, income, move_goods, scoring, shares
from domain.core.catalogue import Catalogue, declared_by

MECHANISMS = (events, shares, auction, actions, build_track, move_goods, income, growth, scoring)
"""The modules that declare the game's kinds, in the catalogue's order; `evolve` applies
the kinds of each by its `APPLY`."""

EVENTS = Catalogue(*declared_by(MECHANISMS), name="age_of_steam")
"""Every kind Age of Steam records."""
