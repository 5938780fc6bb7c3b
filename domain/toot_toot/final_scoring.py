"""Final scoring ("Final scoring"; R22, R23, R33), read top to bottom: the events; which seats
are asked to choose the hand orders they supply (those holding a good one of their hand
orders wants), in turn order from the first player; the checks on a choice and the choices a
seat has; what supplying hand orders records, by the selling rules without a city (ruleset 1
filled them by itself, in the order dealt); steps 2-5 (leftover goods, influence and order
scoring per colour, 1pt/2 cards, penalty tokens), the totals and the winners, all tied
leaders; and how each event changes the state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event, means
from domain.core.state import replace, replace_seat
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.goods import GoodsPaid
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.orders import IconsFilled, OrderCompleted, OrderDiscarded, SecretOrderPlayed, points, spread, unfilled, wants
from domain.toot_toot.seats import level
from domain.toot_toot.state import OVER, SCORING, Seat, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

Fills = Mapping[str, Mapping[str, int]]
"""Order -> good -> units supplied."""
HAND_ORDERS = "hand_orders"
SUPPLY = "supply_hand_orders"
"""Final scoring's one move (R22, R33)."""

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FinalScoringBegan(Event):
    """The last turn has ended and these seats, in this order, choose which hand orders to
    supply (R22, R33): the seats holding a good one of their hand orders wants. (Ruleset 1
    filled hand orders by itself and never records it.)"""
    choosing: tuple[int, ...] = field(metadata=means("The seats asked, in turn order from the first player."))


@dataclass(frozen=True, kw_only=True)
class HandOrdersSupplied(Event):
    """A seat's choice in final scoring: the icons of its hand orders it supplies, none
    for an empty choice (R22). Each order supplied follows as in a sale."""
    seat: int = field(metadata=means("The seat choosing."))
    fills: tuple[tuple[str, str, int], ...] = field(metadata=means(
        "(order, good, units) for each hand order and good supplied, in the order the orders were dealt."))


@dataclass(frozen=True, kw_only=True)
class FinalScored(Event):
    seat: int
    line: str
    points: int


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    scores: dict[str, int]
    winners: tuple[int, ...]


# --- the seats asked (R33) ----------------------------------------------------------------


def choosing(content: Content, state: State) -> tuple[int, ...]:
    """The seats final scoring asks, in turn order from the first player (R32, R33): those
    with more than one choice. A seat none of whose hand orders wants a good it holds can
    supply only nothing, so it is not asked and nothing is recorded for its hand."""
    return tuple(seat for seat in range(len(state.seats)) if wants(content, state, state.seats[seat].hand,
                                                                     state.seats[seat].goods))


def begin(steps: Steps) -> None:
    """After the last turn (ruleset 2): the seats asked, or straight to steps 2-5 when none is."""
    asked = choosing(steps.ctx.content, steps.ctx.state)
    if asked:
        steps.emit(FinalScoringBegan(choosing=asked, automatic=True))
    else:
        closing(steps)


# --- the checks ---------------------------------------------------------------------------


def check_choice(ctx: Ctx, fills: Fills) -> None:
    """A seat's choice of hand-order icons to supply (R22): its own hand orders only, no more
    units of a good than the order has icons of it, within the goods held."""
    content, me = ctx.content, ctx.me
    wanted: dict[str, int] = {}
    for order_id, units in fills.items():
        order = content.order.get(order_id)
        if order is None or order_id not in me.hand:
            hand = ", ".join(me.hand) or "none"
            raise IllegalMove("not_in_hand", f"{order_id!r} is not one of your hand orders (yours: {hand}); final "
                              "scoring supplies only your own hand orders (R22).")
        if not units:
            raise IllegalMove("nothing_supplied", f"Name at least one good for order {order_id}, or leave it out.")
        for good, count in units.items():
            if count > len(unfilled(order, (), good)):
                raise IllegalMove("not_wanted", f"Order {order_id} has fewer than {count} {good} icons (R22).")
            wanted[good] = wanted.get(good, 0) + count
    short = sorted(g for g, n in wanted.items() if me.goods.get(g, 0) < n)
    if short:
        raise IllegalMove("missing_goods", f"You do not hold enough {', '.join(short)} to supply these orders.")


# --- the choices a seat has ---------------------------------------------------------------


def choices(content: Content, state: State, seat: int) -> list[dict[str, dict[str, int]]]:
    """Every subset of the seat's hand-order icons its goods can supply (R22), as fills;
    the empty one (supply nothing) first. Icons of one good on one order are alike, so a
    subset is how many of each good each order gets."""
    me = state.seats[seat]
    return list(spread(wants(content, state, me.hand, me.goods), me.goods))


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    return [{"type": SUPPLY, "fills": fills} for fills in choices(ctx.content, ctx.state, ctx.seat)]


# --- supplying hand orders (R22) ----------------------------------------------------------


def supply_hand_orders(steps: Steps, fills: Fills) -> None:
    """A seat's choice (ruleset 2): its record, the orders supplied and its hand-order line;
    after the last seat's, the rest of final scoring."""
    ctx = steps.ctx
    check_choice(ctx, fills)
    supplied(steps, ctx.state, ctx.seat, fills)
    if len(ctx.state.choosing) == 1:
        closing(steps)


def supplied(steps: Steps, state: State, seat: int, fills: Fills) -> None:
    """A seat's choice, the orders it supplies and its hand-order line."""
    content, me = steps.ctx.content, state.seats[seat]
    steps.emit(HandOrdersSupplied(seat=seat, fills=tuple(
        (o, g, n) for o in me.hand if o in fills for g, n in sorted(fills[o].items()))))
    total = supply(steps, content, seat, me, fills)
    if total:
        steps.emit(FinalScored(seat=seat, line=HAND_ORDERS, points=total, automatic=True))


def supply(steps: Steps, content: Content, seat: int, me: Seat, fills: Fills) -> int:
    """Supplying `fills` to the seat's hand orders (in the order dealt), by the selling rules
    without a city (R22): a completed order is kept as influence, one filled in part is
    discarded; and the points it scores (Sell+1 applies; no tokens are gained)."""
    bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
    total = 0
    for order_id in me.hand:
        units = {good: n for good, n in fills.get(order_id, {}).items() if n}
        if not units:
            continue
        order = content.order[order_id]
        icons = tuple(i for good, n in sorted(units.items()) for i in unfilled(order, (), good)[:n])
        steps.emit(SecretOrderPlayed(seat=seat, order=order_id, automatic=True))
        steps.emit(IconsFilled(order=order_id, icons=icons, automatic=True))
        for good, n in sorted(units.items()):
            steps.emit(GoodsPaid(seat=seat, good=good, count=n, reason="hand order", automatic=True))
        total += points(content, bonus, order, units)
        done = OrderCompleted if len(icons) == len(order.icons) else OrderDiscarded
        steps.emit(done(seat=seat, order=order_id, automatic=True))
    return total


def filled_in_dealt_order(steps: Steps) -> None:
    """Ruleset 1's final scoring: each hand order, in the order dealt, filled with as many of
    its icons as the goods still held allow, with no choice asked."""
    content, state = steps.ctx.content, steps.ctx.state
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
        hand.append({HAND_ORDERS: supply(steps, content, seat, me, fills)})
    closing(steps, hand)


# --- steps 2-5, the totals and the winners (R22, R23) -------------------------------------


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


def closing(steps: Steps, first: Sequence[Mapping[str, int]] = ()) -> None:
    """Every seat's lines of steps 2-5 from the state reached (after `first`, lines not yet
    scored), then `GameEnded` with the totals and the winners, all tied leaders (R23)."""
    rest = lines(steps.ctx.content, steps.state)
    for seat in range(len(steps.state.seats)):
        seat_lines = {**(first[seat] if first else {}), **rest[seat]}
        for line, value in seat_lines.items():
            if value:
                steps.emit(FinalScored(seat=seat, line=line, points=value, automatic=True))
    scores = {seat: me.track + sum(me.final.values()) for seat, me in enumerate(steps.state.seats)}
    best = max(scores.values())
    steps.emit(GameEnded(scores={str(s): t for s, t in scores.items()},
                         winners=tuple(s for s, t in scores.items() if t == best), automatic=True))


# --- the events applied -------------------------------------------------------------------


def _scoring(content: Content, s: State, e: FinalScoringBegan) -> State:
    return replace(s, phase=SCORING, choosing=e.choosing)


def _supplied(content: Content, s: State, e: HandOrdersSupplied) -> State:
    return replace(s, choosing=s.choosing[1:])


def _final(content: Content, s: State, e: FinalScored) -> State:
    seat = s.seats[e.seat]
    return replace_seat(s, e.seat, final={**seat.final, e.line: seat.final.get(e.line, 0) + e.points})


def _ended(content: Content, s: State, e: GameEnded) -> State:
    return replace(s, phase=OVER, choosing=(), totals={int(seat): total for seat, total in e.scores.items()},
                   winners=tuple(e.winners))


APPLY: Handlers = {FinalScoringBegan: _scoring, HandOrdersSupplied: _supplied, FinalScored: _final,
                   GameEnded: _ended}
KINDS = tuple(APPLY)
