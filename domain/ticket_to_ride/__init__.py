"""Ticket to Ride (USA map): the rules of `docs/rules/ticket_to_ride.md` as a decider.

Read in this order: `board` (the map and the printed constants), `options` (the project's
rulings as recorded values), `state`, `moves` (what clients send), `legal` (what is allowed
now, and the list of legal moves), `decide` with `steps` (events applied as they are
emitted), `market` (refills, wipes, reshuffles) and `deal` (the setup), `evolve`, `scoring`,
`views`, `invariants`, and `decider`, which puts them all behind the core `Decider` protocol.
"""

from domain.ticket_to_ride.decider import DECIDER, TicketToRide
from domain.ticket_to_ride.state import Seat, State

__all__ = ["DECIDER", "Seat", "State", "TicketToRide"]
