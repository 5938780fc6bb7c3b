"""Ticket to Ride: the rules of `docs/rules/ticket_to_ride.md` as a decider, played on a
map from a content pack (the USA map by default).

Read in this order: `board` (a map and its printed numbers, and how a pack declares them),
`options` (the project's rulings as recorded values), `state`, `moves` (what clients send),
`legal` (what is allowed now, and the list of legal moves), `decide` with `steps` (events
applied as they are emitted), `market` (refills, wipes, reshuffles) and `deal` (the setup),
`evolve`, `scoring`, `views`, `invariants`, and `decider`, which puts them all behind the
core `Decider` contract, bound to one map. A game played at a table: `draws` (every card and
ticket taken from a deck, asked of the randomness in the table's words), `observed` (the
opening as laid out), `names` and `notation` (one line per move, docs/notation-ticket-to-ride.md).
What the service shows of the game: `words` (its title and refusal sentences), `geometry` (the
static board and its JSON Schema, with `layouts/` placing each map's cities) and `figures`
(the read models' board and VP).
"""

from typing import Any

from domain.ticket_to_ride.decider import TicketToRide
from domain.ticket_to_ride.state import Seat, State

__all__ = ["DECIDER", "Seat", "State", "TicketToRide"]


def __getattr__(name: str) -> Any:
    # `DECIDER`: the rules bound to the default map, found on the installed shelf when
    # first asked for (the domain reads no files itself).
    if name == "DECIDER":
        from domain import games

        return games.current(TicketToRide.name)
    raise AttributeError(name)
