"""Penalty tokens (R5-R8; option `penalty_supply`, R6), read top to bottom: the event of a
token taken, the check that the supply has one left, and how the event changes the state. A
turn, a factory paid with a token and a location used from a side that is not open each take
one (`train`, `build_factory`, `locations`); each counts -3 in final scoring."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.toot_toot.content import Content
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.state import State

# --- the event ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PenaltyTaken(Event):
    seat: int
    reason: str


# --- the check ----------------------------------------------------------------------------


def available(state: State) -> bool:
    """Whether the supply has a penalty token left (always, without a limit)."""
    supply = state.penalty_supply
    return supply is None or state.penalties_out < supply


def check_available(state: State, what: str) -> None:
    if not available(state):
        raise IllegalMove("no_penalty_tokens", f"All {state.penalty_supply} penalty tokens of this game's supply "
                          f"are out, so you cannot {what}.")


# --- the event applied --------------------------------------------------------------------


def _penalty(content: Content, s: State, e: PenaltyTaken) -> State:
    s = replace(s, penalties_out=s.penalties_out + 1)
    return replace_seat(s, e.seat, penalties=s.seats[e.seat].penalties + 1)


APPLY: Handlers = {PenaltyTaken: _penalty}
KINDS = tuple(APPLY)
