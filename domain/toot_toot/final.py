"""Final scoring (R22, R23, R33). Step 1: each seat's hand orders, supplied from the goods it
holds as it chooses (ruleset 1 filled them by itself, in the order dealt); then leftover
goods, influence, penalty tokens and technology for every seat, the totals and the winners."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.core.events import Event
from domain.toot_toot.content import Content
from domain.toot_toot.events import (
    FinalScored,
    GameEnded,
    GoodsPaid,
    HandOrdersSupplied,
    IconsFilled,
    OrderCompleted,
    OrderDiscarded,
    SecretOrderPlayed,
)
from domain.toot_toot.evolve import evolve
from domain.toot_toot.orders import points, spread, unfilled, wants
from domain.toot_toot.seats import level
from domain.toot_toot.state import Seat, State

Fills = Mapping[str, Mapping[str, int]]
"""Order -> good -> units supplied."""
HAND_ORDERS = "hand_orders"


def choices(content: Content, state: State, seat: int) -> list[dict[str, dict[str, int]]]:
    """Every subset of the seat's hand-order icons its goods can supply (R22), as fills;
    the empty one (supply nothing) first. Icons of one good on one order are alike, so a
    subset is how many of each good each order gets."""
    me = state.seats[seat]
    return list(spread(wants(content, state, me.hand, me.goods), me.goods))


def choosing(content: Content, state: State) -> tuple[int, ...]:
    """The seats final scoring asks, in turn order from the first player (R32, R33): those
    with more than one choice. A seat none of whose hand orders wants a good it holds can
    supply only nothing, so it is not asked and nothing is recorded for its hand."""
    return tuple(seat for seat in range(len(state.seats)) if wants(content, state, state.seats[seat].hand,
                                                                     state.seats[seat].goods))


def supply(content: Content, seat: int, me: Seat, fills: Fills) -> tuple[list[Event], int]:
    """The events of supplying `fills` to the seat's hand orders (in the order dealt), by the
    selling rules without a city (R22): a completed order is kept as influence, one filled in
    part is discarded; and the points it scores (Sell+1 applies; no tokens are gained)."""
    bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
    events: list[Event] = []
    total = 0
    for order_id in me.hand:
        units = {good: n for good, n in fills.get(order_id, {}).items() if n}
        if not units:
            continue
        order = content.order[order_id]
        icons = tuple(i for good, n in sorted(units.items()) for i in unfilled(order, (), good)[:n])
        events += [SecretOrderPlayed(seat=seat, order=order_id, automatic=True),
                   IconsFilled(order=order_id, icons=icons, automatic=True),
                   *(GoodsPaid(seat=seat, good=g, count=n, reason="hand order", automatic=True)
                     for g, n in sorted(units.items()))]
        total += points(content, bonus, order, units)
        done = OrderCompleted if len(icons) == len(order.icons) else OrderDiscarded
        events.append(done(seat=seat, order=order_id, automatic=True))
    return events, total


def chosen(content: Content, state: State, seat: int, fills: Fills) -> list[Event]:
    """A seat's choice (ruleset 2): its record, the orders supplied and its hand-order line;
    after the last seat's, the rest of final scoring."""
    events = supplied(content, state, seat, fills)
    if len(state.choosing) == 1:
        events += closing(content, fold(content, state, events))
    return events


def supplied(content: Content, state: State, seat: int, fills: Fills) -> list[Event]:
    """A seat's choice, the orders it supplies and its hand-order line."""
    me = state.seats[seat]
    events: list[Event] = [HandOrdersSupplied(seat=seat, fills=tuple(
        (o, g, n) for o in me.hand if o in fills for g, n in sorted(fills[o].items())))]
    played, total = supply(content, seat, me, fills)
    events += played
    if total:
        events.append(FinalScored(seat=seat, line=HAND_ORDERS, points=total, automatic=True))
    return events


def filled_in_dealt_order(content: Content, state: State) -> list[Event]:
    """Ruleset 1's final scoring: each hand order, in the order dealt, filled with as many of
    its icons as the goods still held allow, with no choice asked."""
    events: list[Event] = []
    hand: list[dict[str, int]] = []
    for seat, me in enumerate(state.seats):
        goods = dict(me.goods)
        fills: dict[str, dict[str, int]] = {}
        for order_id in me.hand:
            units: dict[str, int] = {}
            for good in content.order[order_id].icons:
                if goods.get(good, 0) > units.get(good, 0):
                    units[good] = units.get(good, 0) + 1
            for good, n in units.items():
                goods[good] -= n
            fills[order_id] = units
        supplied, total = supply(content, seat, me, fills)
        events += supplied
        hand.append({HAND_ORDERS: total})
    return events + closing(content, fold(content, state, events), hand)


def lines(content: Content, state: State) -> list[dict[str, int]]:
    """Steps 2-5 for every seat, from what the seats hold now: leftover goods, influence and
    order scoring per colour, 1pt/2 cards and penalty tokens (R22)."""
    out: list[dict[str, int]] = [{} for _ in state.seats]
    for seat, me in enumerate(state.seats):
        out[seat]["leftover_goods"] = sum(content.good[g].value * n for g, n in me.goods.items()) // 3
        for colour in content.colours:
            mine = [sum(content.order[o].colour == colour for o in s.kept) for s in state.seats]
            if mine[seat]:
                out[seat][f"influence_{colour}"] = mine[seat] * (2 if mine[seat] == max(mine) else 1)
            scoring = level(content, me, "colour_scoring", colour=colour)
            if scoring and mine[seat]:
                out[seat][f"order_scoring_{colour}"] = scoring * (3 * (mine[seat] // 2) + mine[seat] % 2)
        out[seat]["completed_pairs"] = level(content, me, "pairs") * (len(me.kept) // 2)
        out[seat]["penalties"] = -3 * me.penalties
    return out


def totals(content: Content, state: State) -> dict[int, int]:
    """Each seat's total were final scoring to end now: its track, the final lines already
    scored, and steps 2-5."""
    return {seat: me.track + sum(me.final.values()) + sum(rest.values())
            for seat, (me, rest) in enumerate(zip(state.seats, lines(content, state), strict=True))}


def closing(content: Content, state: State, first: Sequence[Mapping[str, int]] = ()) -> list[Event]:
    """Every seat's lines of steps 2-5 (after `first`, lines not yet scored), then
    `GameEnded` with the totals and the winners, all tied leaders (R23)."""
    rest = lines(content, state)
    events: list[Event] = []
    for seat in range(len(state.seats)):
        seat_lines = {**(first[seat] if first else {}), **rest[seat]}
        events += [FinalScored(seat=seat, line=line, points=value, automatic=True)
                   for line, value in seat_lines.items() if value]
    ended = fold(content, state, events)
    scores = {seat: me.track + sum(me.final.values()) for seat, me in enumerate(ended.seats)}
    best = max(scores.values())
    return [*events, GameEnded(scores={str(s): t for s, t in scores.items()},
                               winners=tuple(s for s, t in scores.items() if t == best), automatic=True)]


def fold(content: Content, state: State, events: Sequence[Event]) -> State:
    for event in events:
        state = evolve(content, state, event)
    return state
