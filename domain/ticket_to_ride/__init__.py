"""Ticket to Ride: the rules of `docs/rules/ticket_to_ride.md` as a decider, played on a
map from a content pack (the USA map by default).

Laid out by mechanism, as Age of Steam is: each rule's events, checks, legal moves, what a
move records and how each event changes the state (`APPLY`) sit in one module, read top to
bottom. Read in this order: `board` (a map and its printed numbers, and how a pack declares
them), `options` (the project's rulings as recorded values), `state`, `moves` (what clients
send), `ledger` (the bookkeeping the mechanisms share) and `steps` (events applied as they are
emitted); then the mechanisms: `opening` (the setup), `tickets` (keeping the first tickets,
drawing more), `train_cards` (the draw, the market, its refills, wipes and reshuffles),
`claim_route` (double routes included), `last_round` (the end of play, passing) and `scoring`
(final scoring); then `events` (the order of play's kinds), `flow` (what comes next),
`evolve` and `catalogue` (gathering every mechanism's `APPLY` and kinds), `legal` (who may
act, the full list of legal moves), `decide`, `views`, `invariants`, and `decider`, which puts
them all behind the core `Decider` contract, bound to one map. A game played at a table:
`draws` (every card and ticket taken from a deck, asked of the randomness in the table's
words), `observed` (the opening as laid out), `names` and `notation` (one line per move,
docs/notation-ticket-to-ride.md). What the service shows of the game: `words` (its title and
refusal sentences), `geometry` (the static board and its JSON Schema, with `layouts/` placing
each map's cities) and `figures` (the read models' board and VP).
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
