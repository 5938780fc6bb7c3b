"""The end of play (`docs/rules/ticket_to_ride.md`, "End of the game"; ruling 4), read top to
bottom: the events, when a seat may pass, the pass a seat has, what a pass records, how the
end of a turn sets off the last round (a seat left with few enough trains: every seat, it
included, has one more turn) or ends play (that seat's last turn, or every seat passing in a
row), and how each event changes the state. Final scoring follows (`scoring`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event, means
from domain.core.state import replace
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.claim_route import affordable_routes
from domain.ticket_to_ride.ledger import Handlers
from domain.ticket_to_ride.state import State

if TYPE_CHECKING:
    from domain.ticket_to_ride.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnPassed(Event):
    """A seat passed, having no other legal move."""

    seat: int = field(metadata=means("The seat, from 0."))


@dataclass(frozen=True, kw_only=True)
class FinalRoundBegan(Event):
    """A seat ended its turn with few enough trains: every seat, it included, has one more turn."""

    seat: int = field(metadata=means("The seat, from 0."))
    trains_left: int = field(metadata=means("The seat's trains left."))


@dataclass(frozen=True, kw_only=True)
class PlayStalled(Event):
    """Every seat passed in a row, so nothing can change any more: the game goes to final scoring."""

    passes: int = field(metadata=means("How many passes in a row."))


# --- passing (ruling 4) -------------------------------------------------------------------


def has_move_besides_pass(board: Board, state: State, seat: int) -> bool:
    if state.deck or state.ticket_deck or any(card is not None for card in state.market):
        return True
    return next(affordable_routes(board, state, seat), None) is not None


def check_pass(board: Board, state: State, seat: int) -> None:
    if has_move_besides_pass(board, state, seat):
        raise IllegalMove("pass_not_allowed", "You may pass only when no other move is possible.")


def legal_moves() -> list[dict[str, Any]]:
    """The move of a seat that has no other."""
    return [{"type": "pass"}]


def pass_turn(steps: Steps, seat: int) -> None:
    check_pass(steps.board, steps.state, seat)
    steps.emit(TurnPassed(seat=seat))


# --- the end of a turn --------------------------------------------------------------------


def ends_play(steps: Steps, seat: int) -> bool:
    """Whether play is over at the end of `seat`'s turn: the last round it set off has come
    back to it, or every seat has passed in a row, so the state can no longer change. A seat
    left with few enough trains sets the last round off."""
    state = steps.state
    trains = state.seats[seat].trains
    if state.final_round_trigger is None:
        if trains <= steps.board.end_trigger_trains:
            steps.emit(FinalRoundBegan(seat=seat, trains_left=trains, automatic=True))
    elif state.final_round_trigger == seat:
        return True
    if state.passes_in_a_row >= len(state.seats):
        steps.emit(PlayStalled(passes=state.passes_in_a_row, automatic=True))
        return True
    return False


# --- the events applied -------------------------------------------------------------------


def _passed(board: Board, state: State, event: TurnPassed) -> State:
    return replace(state, passes_in_a_row=state.passes_in_a_row + 1)


def _final_round_began(board: Board, state: State, event: FinalRoundBegan) -> State:
    return replace(state, final_round_trigger=event.seat)


def _stalled(board: Board, state: State, event: PlayStalled) -> State:
    # The passes are already counted; final scoring follows as events of its own.
    return state


APPLY: Handlers = {TurnPassed: _passed, FinalRoundBegan: _final_round_began, PlayStalled: _stalled}
KINDS = tuple(APPLY)
