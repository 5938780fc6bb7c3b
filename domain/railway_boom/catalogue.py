"""Every event kind Railway Boom records: the core's sealed submissions, the order of play's
(`events`) and those each mechanism module declares beside its rules."""

from __future__ import annotations

from domain.core.catalogue import Catalogue, declared_by
from domain.core.sealed import SEALED_EVENTS
from domain.railway_boom import (
    bidding,
    choices,
    development,
    effects,
    events,
    expansion,
    goals,
    operation,
    resources,
    scoring,
    setup,
    trains,
)

MECHANISMS = (events, setup, resources, bidding, effects, trains, expansion, development, choices, operation, goals, scoring)
"""The modules that declare the game's kinds, in the catalogue's order; `evolve` applies
the kinds of each by its `APPLY`."""

EVENTS = SEALED_EVENTS + Catalogue(*declared_by(MECHANISMS), name="railway_boom")
"""Every kind Railway Boom records."""
