"""Phases 6–8 of a turn (`docs/rules/age_of_steam.md`, "6–8. Income, expenses, income
reduction"; cases 49–60), automatic steps run one after the other once the goods are moved:
collect income, pay expenses (a player who falls below zero income is bankrupt), and reduce
high incomes. Each step opens its phase and records one event per player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.age_of_steam.events import PhaseBegan
from domain.age_of_steam.ledger import Handlers, pay
from domain.age_of_steam.state import State
from domain.age_of_steam.track import owned_refs, unown
from domain.core.events import Event
from domain.core.state import replace, replace_seat

if TYPE_CHECKING:
    from domain.age_of_steam.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class IncomeCollected(Event):
    """A seat collected its income from the bank."""

    seat: int
    amount: int


@dataclass(frozen=True, kw_only=True)
class ExpensesPaid(Event):
    """A seat paid $1 per share and per locomotive link; what it could not pay came off
    its income."""

    seat: int
    due: int
    paid: int
    income_lost: int
    income_after: int


@dataclass(frozen=True, kw_only=True)
class PlayerBankrupt(Event):
    """A seat's income fell below zero: it is out, and its track is unowned."""

    seat: int
    income: int


@dataclass(frozen=True, kw_only=True)
class IncomeReduced(Event):
    """A seat's income was reduced by the band it was in."""

    seat: int
    before: int
    reduction: int
    after: int


# --- the steps ----------------------------------------------------------------------------


def collect_income(steps: Steps) -> None:
    """Each player takes cash equal to their income (a negative income pays)."""
    steps.emit(PhaseBegan(phase="income", queue=()))
    for seat in steps.state.order:
        steps.emit(IncomeCollected(seat=seat, amount=steps.state.seats[seat].income))


def pay_expenses(steps: Steps) -> None:
    """$1 per share and per locomotive link; a player short pays what they have and loses $1
    of income per $1 short, and is bankrupt once their income is below zero."""
    steps.emit(PhaseBegan(phase="expenses", queue=()))
    for seat in tuple(steps.state.order):
        me = steps.state.seats[seat]
        due = me.shares + me.locomotive
        paid = min(due, me.cash)
        lost = due - paid
        steps.emit(ExpensesPaid(seat=seat, due=due, paid=paid, income_lost=lost, income_after=me.income - lost))
        if me.income - lost < 0:
            steps.emit(PlayerBankrupt(seat=seat, income=me.income - lost))


REDUCTION_BANDS: tuple[tuple[int, int], ...] = ((50, 10), (41, 8), (31, 6), (21, 4), (11, 2))
"""(lowest income of the band, reduction): 11-20 -2, 21-30 -4, 31-40 -6, 41-49 -8, 50+ -10."""


def reduction(income: int) -> int:
    for lowest, amount in REDUCTION_BANDS:
        if income >= lowest:
            return amount
    return 0


def reduce_income(steps: Steps) -> None:
    """Each income above 10 drops by its band's reduction."""
    steps.emit(PhaseBegan(phase="income_reduction", queue=()))
    for seat in steps.state.order:
        income = steps.state.seats[seat].income
        cut = reduction(income)
        if cut:
            steps.emit(IncomeReduced(seat=seat, before=income, reduction=cut, after=income - cut))


# --- the events applied -------------------------------------------------------------------


def _collected(state: State, event: IncomeCollected) -> State:
    return pay(state, event.seat, -event.amount)


def _paid(state: State, event: ExpensesPaid) -> State:
    seat = event.seat
    before = state.seats[seat]
    state = replace_seat(
        state, seat, income=before.income - event.income_lost, income_lost=before.income_lost + event.income_lost
    )
    return pay(state, seat, event.paid)


def _bankrupt(state: State, event: PlayerBankrupt) -> State:
    seat = event.seat
    board = unown(state.board, owned_refs(state.board, seat))
    state = replace_seat(state, seat, eliminated=True)
    return replace(state, board=board, order=tuple(s for s in state.order if s != seat))


def _reduced(state: State, event: IncomeReduced) -> State:
    before = state.seats[event.seat]
    return replace_seat(state, event.seat, income=event.after, income_lost=before.income_lost + event.reduction)


APPLY: Handlers = {IncomeCollected: _collected, ExpensesPaid: _paid, PlayerBankrupt: _bankrupt, IncomeReduced: _reduced}
KINDS = tuple(APPLY)
