"""What every rule module works with: the pack's content, the map in play, the options in
force, the ruleset's version of final scoring and of a sale's refill, and the state, for one seat."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from domain.toot_toot.board import Board
from domain.toot_toot.content import Content, Map
from domain.toot_toot.state import Seat, State


@dataclass(frozen=True)
class Ctx:
    content: Content
    state: State
    seat: int
    hand_choice: bool = True
    """Whether final scoring asks the seats which hand orders to supply (ruleset 2, R33), or
    fills them in the order dealt (ruleset 1)."""
    sale_discards_reshuffled: bool = True
    """Whether a sale's refill draws from the discards with the hand orders that sale
    discarded (ruleset 3, R35), or from the discards as they were before the sale (rulesets
    1 and 2, which lost those orders when the refill reshuffled the discards)."""

    @cached_property
    def map(self) -> Map:
        return self.content.map[self.state.map]

    @cached_property
    def board(self) -> Board:
        return Board(self.map, self.state)

    @property
    def me(self) -> Seat:
        return self.state.seats[self.seat]
