"""The greedy bot's money sense (`bots.py`): what a seat must keep for its expenses, how many
shares its plans need and its income can carry, and the most it may bid.

A seat goes bankrupt when, at expenses, its cash and income together fall short of $1 per
share and per locomotive link by more than its income. So the bot always keeps this turn's
expenses less its income (`reserve`); near the share limit, when new shares can no longer pay
the later turns' expenses, it keeps those too. Shares pay for plans only while the expenses
they add stay within what its income (present and expected) carries to the end of the game.
Deliveries raise income for good, so both count on a seat's income growing each turn by what
its network delivers now (`growth`, fading as goods run out): a seat that counted on no growth
kept back, for later expenses, the very cash its shares had just brought for building.
"""

from __future__ import annotations

from domain.age_of_steam.board import MAX_SHARES, SHARE_PRICE
from domain.age_of_steam.income import reduction
from domain.age_of_steam.state import Seat, State

EARLY_SLACK = 10
"""Expenses beyond income a seat may take on in its first turns, while it has no income yet."""
SLACK = 6
"""...and later, when a network should be paying its way."""
EARLY_TURNS = 3
FADE = 0.7
"""How much of a turn's growth in income the next turn keeps (goods run out, rivals take them)."""


def expenses(me: Seat, shares: int = 0) -> int:
    return me.shares + shares + me.locomotive


def turns_left(state: State) -> int:
    """Turns still to pay expenses in, this one included."""
    return max(1, state.last_turn - state.turn + 1)


def reserve(state: State, seat: int, growth: float = 0.0) -> int:
    """Cash the seat keeps for expenses: this turn's less its income, and, where the shares
    still to issue cannot cover the later turns' shortfall, that too. Income that grows by
    `growth` a turn (fading: `FADE`) shrinks the later shortfall."""
    me = state.seats[seat]
    burn = max(0, expenses(me) - me.income)
    later, income = 0.0, float(me.income)
    for _ in range(turns_left(state) - 1):
        income += growth
        growth *= FADE
        later += max(0.0, expenses(me) - income)
    # A share brings $5 and costs $1 a turn from then on: about $4 towards the next turn.
    covered = (MAX_SHARES - me.shares) * (SHARE_PRICE - 1)
    return burn + max(0, int(later) - covered)


def spare(state: State, seat: int, growth: float = 0.0) -> int:
    """What the seat may spend now without risking its expenses."""
    return state.seats[seat].cash - reserve(state, seat, growth)


def carries(me: Seat, shares: int, turns: int, expected: int, growth: float = 0.0) -> bool:
    """Whether the seat's income (plus `expected` more from the deliveries it is about to
    make) pays the expenses of `shares` more shares to the end, with the shares still
    unissued and its cash to cover each turn's gap. Deliveries raise income for good, so a
    network that delivers `growth` a turn now earns more each later turn (less as its goods
    run out: `FADE`)."""
    cash = me.cash + SHARE_PRICE * shares
    held = me.shares + shares
    income = me.income + expected
    for _ in range(turns):
        cash += income - (held + me.locomotive)
        income += int(growth)
        growth *= FADE
        while cash < 0 and held < MAX_SHARES:
            held += 1
            cash += SHARE_PRICE - 1
        if cash < 0:
            return False
        income -= reduction(income)
    return True


def shares_to_issue(state: State, seat: int, wanted: int, expected: int, growth: float = 0.0) -> int:
    """How many shares to issue for `wanted` dollars of plans this turn (builds, a bid) on top
    of the expenses: the fewest that pay for them, and no more than the seat's income carries.
    This turn's expenses are covered whatever the plans."""
    me = state.seats[seat]
    room = MAX_SHARES - me.shares
    must = _fewest(me, max(0, expenses(me) - me.income), room)
    if must is None:
        return room
    turns = turns_left(state)
    slack = EARLY_SLACK if state.turn <= EARLY_TURNS else SLACK
    best = must
    for count in range(must + 1, room + 1):
        if me.cash + (SHARE_PRICE - 1) * best >= wanted + max(0, expenses(me) - me.income):
            break
        if expenses(me, count) - (me.income + expected) > slack or not carries(me, count, turns, expected, growth):
            break
        best = count
    return best


def _fewest(me: Seat, due: int, room: int) -> int | None:
    """The fewest shares that leave `due` in cash at expenses (each adds $1 to them)."""
    for count in range(room + 1):
        if me.cash + SHARE_PRICE * count >= due + count:
            return count
    return None
