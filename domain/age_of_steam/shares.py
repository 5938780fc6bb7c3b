"""Issuing shares (`docs/rules/age_of_steam.md`, "1. Issue shares"; cases 1–2): in player order
each player issues any number of shares, $5 each, at most 15 in a game; never bought back. The
last to issue opens the auction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.age_of_steam import auction
from domain.age_of_steam.board import MAX_SHARES, SHARE_PRICE
from domain.age_of_steam.ledger import Handlers, pay, pop
from domain.age_of_steam.state import State
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace_seat

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps


@dataclass(frozen=True, kw_only=True)
class SharesIssued(Event):
    """A seat issued shares for $5 each (possibly none), with its total after."""

    seat: int
    count: int
    total: int


def check_shares(state: State, seat: int, count: int) -> None:
    if count < 0:
        raise IllegalMove("shares_never_bought_back", "Shares are never bought back; issue 0 or more.")
    shares = state.seats[seat].shares
    if shares + count > MAX_SHARES:
        raise IllegalMove(
            "share_limit", f"At most {MAX_SHARES} shares may be issued in a game; you have {shares}, so {MAX_SHARES - shares} more at most."
        )


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "issue_shares", "count": n} for n in range(MAX_SHARES - state.seats[seat].shares + 1)]


def issue(steps: Steps, seat: int, count: int) -> None:
    state = steps.state
    check_shares(state, seat, count)
    steps.moved(SharesIssued(seat=seat, count=count, total=state.seats[seat].shares + count))
    if not steps.state.queue:
        auction.begin(steps)


def _issued(state: State, event: SharesIssued) -> State:
    seat = event.seat
    state = replace_seat(state, seat, shares=state.seats[seat].shares + event.count)
    return pop(pay(state, seat, -SHARE_PRICE * event.count), seat)


APPLY: Handlers = {SharesIssued: _issued}
KINDS = tuple(APPLY)
