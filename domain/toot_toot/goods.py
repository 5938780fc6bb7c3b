"""Goods in a seat's hold ("Components"; R11, R12, R34), read top to bottom: the events of
goods gained (a processing's outputs) and paid (fuel, iron, stone, a recipe's inputs, hand
orders in final scoring), and how each changes the state. What a seat may hold, and what the
supply has left, is its card's (`seats.py`); a take or a sale records its own goods."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.events import Event
from domain.core.state import replace_seat
from domain.toot_toot.content import Content
from domain.toot_toot.ledger import Handlers, goods
from domain.toot_toot.state import State

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GoodsGained(Event):
    seat: int
    good: str
    count: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class GoodsPaid(Event):
    seat: int
    good: str
    count: int
    reason: str


# --- the events applied -------------------------------------------------------------------


def _gained(content: Content, s: State, e: GoodsGained) -> State:
    return replace_seat(s, e.seat, goods=goods(s.seats[e.seat], e.good, e.count))


def _paid(content: Content, s: State, e: GoodsPaid) -> State:
    return replace_seat(s, e.seat, goods=goods(s.seats[e.seat], e.good, -e.count))


APPLY: Handlers = {GoodsGained: _gained, GoodsPaid: _paid}
KINDS = tuple(APPLY)
