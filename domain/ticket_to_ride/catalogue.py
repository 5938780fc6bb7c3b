"""Every event kind Ticket to Ride records: the order of play's (`events`) and those each
mechanism module declares beside its rules."""

from __future__ import annotations

from domain.core.catalogue import Catalogue, declared_by
from domain.ticket_to_ride import claim_route, events, last_round, opening, scoring, tickets, train_cards

MECHANISMS = (events, opening, tickets, train_cards, claim_route, last_round, scoring)
"""The modules that declare the game's kinds, in the catalogue's order; `evolve` applies
the kinds of each by its `APPLY`."""

EVENTS = Catalogue(*declared_by(MECHANISMS), name="ticket_to_ride")
"""Ticket to Ride's own kinds; a record's other kinds are the core's (`domain/core/kinds.py`)."""
