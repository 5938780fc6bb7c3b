"""Every event kind Toot-Toot Train records: the order of play's (`events`) and those each
mechanism module declares beside its rules."""

from __future__ import annotations

from domain.core.catalogue import Catalogue
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

EVENTS = Catalogue(
    *setup.KINDS, *orders.KINDS, *draw_track.KINDS, *train.KINDS, *build_factory.KINDS, *goods.KINDS,
    *penalties.KINDS, *locations.KINDS, *technology.KINDS, *end_of_game.KINDS, *events.KINDS,
    *final_scoring.KINDS, name="toot_toot",
)
"""Toot-Toot Train's own kinds; a record's other kinds are the core's (`domain/core/kinds.py`)."""
