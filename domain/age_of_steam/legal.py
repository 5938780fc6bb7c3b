"""Who may act now, whether a move belongs to the phase, and the list of every legal move for
clients, bots and playouts, gathered from the mechanism whose phase it is (each keeps its own
checks, which `decide` runs before it emits anything, beside the moves it lists)."""

from __future__ import annotations

from typing import Any

from domain.age_of_steam import actions, auction, build_track, growth, move_goods, shares
from domain.age_of_steam.board import Map
from domain.age_of_steam.moves import (
    Bid,
    Build,
    BuildStep,
    Command,
    Deliver,
    Drop,
    EndBuild,
    IssueShares,
    PassMove,
    PlaceProduction,
    SelectAction,
    TurnOrderPass,
    UpgradeLocomotive,
    Urbanize,
)
from domain.age_of_steam.options import MAX_SEATS
from domain.age_of_steam.state import (
    ACTIONS,
    AUCTION,
    BUILD,
    MOVE,
    PRODUCTION,
    SHARES,
    State,
)
from domain.core.errors import IllegalMove

_ONLY = tuple(frozenset((seat,)) for seat in range(MAX_SEATS))
_NOBODY: frozenset[int] = frozenset()
_QUEUED = frozenset({SHARES, ACTIONS, BUILD, MOVE, PRODUCTION})

_PHASE_OF: dict[type, str] = {
    IssueShares: SHARES,
    Bid: AUCTION,
    Drop: AUCTION,
    TurnOrderPass: AUCTION,
    SelectAction: ACTIONS,
    Build: BUILD,
    BuildStep: BUILD,
    Urbanize: BUILD,
    EndBuild: BUILD,
    Deliver: MOVE,
    UpgradeLocomotive: MOVE,
    PassMove: MOVE,
    PlaceProduction: PRODUCTION,
}
_EXPECTED: dict[str, str] = {
    SHARES: "issue shares (or none)",
    AUCTION: "bid, drop out, or use the Turn Order pass",
    ACTIONS: "select an action",
    BUILD: "build track, urbanize, or end your build",
    MOVE: "deliver a good, raise your locomotive, or pass",
    PRODUCTION: "place a good drawn by Production on the display",
}


def active_seats(state: State) -> frozenset[int]:
    if state.phase == AUCTION:
        bidding = state.auction
        return _NOBODY if bidding is None or bidding.current is None else _ONLY[bidding.current]
    if state.phase in _QUEUED and state.queue:
        return _ONLY[state.queue[0]]
    return _NOBODY


def check_phase(state: State, command: Command) -> None:
    phase = _PHASE_OF[type(command)]
    if phase != state.phase:
        expected = _EXPECTED.get(state.phase, "wait")
        raise IllegalMove("wrong_phase", f"That move belongs to the {phase} phase; in the {state.phase} phase you {expected}.")


# --- the full list --------------------------------------------------------------------------


def legal_moves(map_: Map, state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in active_seats(state):
        return []
    phase = state.phase
    if phase == SHARES:
        return shares.legal_moves(state, seat)
    if phase == AUCTION:
        return auction.legal_moves(state, seat)
    if phase == ACTIONS:
        return actions.legal_moves(state)
    if phase == BUILD:
        return build_track.legal_moves(map_, state, seat)
    if phase == MOVE:
        return move_goods.legal_moves(map_, state, seat)
    if phase == PRODUCTION:
        return growth.legal_moves(state)
    return []
