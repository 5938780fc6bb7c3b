"""What a seat's player card and upgrades allow it (R11, R17, R26): its goods limit, its
abilities, and the tokens it may place."""

from __future__ import annotations

from domain.toot_toot.content import Content, PlayerCard
from domain.toot_toot.state import Seat, State

MOST_TOKENS = 10
"""Technology tokens a player gains at most (R16)."""


def card(content: Content, seat: Seat) -> PlayerCard:
    return content.card[seat.card]


def level(content: Content, seat: Seat, effect: str, good: str = "", colour: str = "") -> int:
    """Tokens placed on the seat's abilities of `effect` (for that good or colour)."""
    abilities = card(content, seat).abilities
    return sum(seat.upgrades.get(a.id, 0) for a in abilities
               if a.effect == effect and (not good or a.good == good) and (not colour or a.colour == colour))


def held(seat: Seat) -> int:
    return sum(seat.goods.values())


def limit(content: Content, seat: Seat) -> int:
    return card(content, seat).storage + level(content, seat, "space")


def room(content: Content, seat: Seat) -> int:
    return max(0, limit(content, seat) - held(seat))


def supply_left(content: Content, state: State, good: str) -> int | None:
    """Tokens of `good` left in the supply, or None when it is unlimited (R11)."""
    supply = content.good[good].supply
    if not state.goods_supply or supply is None:
        return None
    return max(0, supply - sum(s.goods.get(good, 0) for s in state.seats))


def placeable(content: Content, seat: Seat) -> list[str]:
    """The abilities a token may go on now: slots left, and enough tokens already in the
    earlier columns (R17)."""
    if seat.tokens < 1:
        return []
    player = card(content, seat)
    per_column = [0, 0, 0, 0, 0]
    for ability in player.abilities:
        per_column[ability.column] += seat.upgrades.get(ability.id, 0)
    return [a.id for a in player.abilities
            if seat.upgrades.get(a.id, 0) < a.slots and sum(per_column[1:a.column]) >= player.thresholds[a.column - 1]]


def gears_passed(gears: tuple[int, ...], before: int, after: int, gained: int) -> tuple[int, ...]:
    """The gear spaces reached or passed going from `before` to `after`, as many as the
    seat may still gain (R16)."""
    passed = tuple(g for g in gears if before < g <= after)
    return passed[:max(0, MOST_TOKENS - gained)]
