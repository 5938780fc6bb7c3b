"""Every event kind Ticket to Ride records: the order of play's (`events`) and those each
mechanism module declares beside its rules."""

from __future__ import annotations

from domain.core.catalogue import Catalogue
from domain.ticket_to_ride import claim_route, events, last_round, opening, scoring, tickets, train_cards

EVENTS = Catalogue(
    *events.KINDS, *opening.KINDS, *tickets.KINDS, *train_cards.KINDS, *claim_route.KINDS, *last_round.KINDS,
    *scoring.KINDS, name="ticket_to_ride",
)
"""Ticket to Ride's own kinds; a record's other kinds are the core's (`domain/core/kinds.py`)."""
