"""Every event kind Toot-Toot Train records: the order of play's (`events`) and those each
mechanism module declares beside its rules."""

from __future__ import annotations

from domain.core.catalogue import Catalogue, declared_by
from domain.toot_toot import (
    build_factory,
    draw_track,
    end_of_game,
    events,
    final_scoring,
    goods,
    locations,
    orders,
    penalties,
    setup,
    technology,
    train,
)

MECHANISMS = (setup, orders, draw_track, train, build_factory, goods, penalties, locations, technology, end_of_game, events, final_scoring)
"""The modules that declare the game's kinds, in the catalogue's order; `evolve` applies
the kinds of each by its `APPLY`."""

EVENTS = Catalogue(*declared_by(MECHANISMS), name="toot_toot")
"""Toot-Toot Train's own kinds; a record's other kinds are the core's (`domain/core/kinds.py`)."""
