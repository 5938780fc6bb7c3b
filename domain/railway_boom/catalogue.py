"""Every event kind Railway Boom records: the core's sealed submissions, the order of play's
(`events`) and those each mechanism module declares beside its rules."""

from __future__ import annotations

from domain.core.catalogue import Catalogue
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

EVENTS = SEALED_EVENTS + Catalogue(
    *events.KINDS, *setup.KINDS, *resources.KINDS, *bidding.KINDS, *effects.KINDS, *trains.KINDS, *expansion.KINDS,
    *development.KINDS, *choices.KINDS, *operation.KINDS, *goals.KINDS, *scoring.KINDS, name="railway_boom",
)
"""Every kind Railway Boom records."""
