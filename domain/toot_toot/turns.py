"""The turn's end and the game's: tokens for gears passed (R16), the end trigger at 25
(R21), extra turns (R20), and final scoring line by line (R22, R23)."""

from __future__ import annotations

from domain.core.events import Event
from domain.toot_toot.context import Ctx
from domain.toot_toot.events import (
    EndTriggered,
    ExtraTurnBegan,
    FinalScored,
    GameEnded,
    GoodsPaid,
    IconsFilled,
    OrderCompleted,
    OrderDiscarded,
    SecretOrderPlayed,
    TokensGained,
    TurnEnded,
)
from domain.toot_toot.orders import points, unfilled
from domain.toot_toot.seats import gears_passed, level
from domain.toot_toot.state import State

END_SCORE = 25
EXTRA_ROUNDS = 2


def after_score(ctx: Ctx, gained: int) -> list[Event]:
    """The tokens a score gain brings, and the end trigger when it reaches 25."""
    me, state = ctx.me, ctx.state
    events: list[Event] = []
    gears = gears_passed(ctx.content.gears, me.track, me.track + gained, me.gained)
    if gears:
        events.append(TokensGained(seat=ctx.seat, count=len(gears), gears=gears, automatic=True))
    if me.track + gained >= END_SCORE and state.last_round is None:
        events.append(EndTriggered(seat=ctx.seat, score=me.track + gained, last_round=state.round + EXTRA_ROUNDS,
                                   automatic=True))
    return events


def end_turn(ctx: Ctx) -> list[Event]:
    state = ctx.state
    events: list[Event] = [TurnEnded(seat=ctx.seat)]
    if state.extra_turn:
        return [*events, ExtraTurnBegan(seat=ctx.seat, automatic=True)]
    last = min(state.round_limit, state.last_round or state.round_limit)
    if round_wraps(state, ctx.seat) and state.round >= last:
        events += final_scoring(ctx)
    return events


def final_scoring(ctx: Ctx) -> list[Event]:
    """Every seat's final-scoring lines, then `GameEnded` (R22, R23)."""
    state, content = ctx.state, ctx.content
    events: list[Event] = []
    kept = [list(s.kept) for s in state.seats]
    goods = [dict(s.goods) for s in state.seats]
    lines: list[dict[str, int]] = [{} for _ in state.seats]
    for seat, me in enumerate(state.seats):
        # Step 1: the hand orders, filled as far as the goods held allow, in hand order.
        bonus = {c: level(content, me, "sell", colour=c) for c in content.colours}
        total = 0
        for order_id in me.hand:
            order = content.order[order_id]
            units: dict[str, int] = {}
            for good in order.icons:
                if goods[seat].get(good, 0) > units.get(good, 0):
                    units[good] = units.get(good, 0) + 1
            if not units:
                continue
            for good, n in units.items():
                goods[seat][good] -= n
            icons = tuple(i for good, n in sorted(units.items()) for i in unfilled(order, (), good)[:n])
            events += [SecretOrderPlayed(seat=seat, order=order_id, automatic=True),
                       IconsFilled(order=order_id, icons=icons, automatic=True),
                       *(GoodsPaid(seat=seat, good=g, count=n, reason="hand order", automatic=True)
                         for g, n in sorted(units.items()))]
            total += points(content, bonus, order, units)
            if len(icons) == len(order.icons):
                events.append(OrderCompleted(seat=seat, order=order_id, automatic=True))
                kept[seat].append(order_id)
            else:
                events.append(OrderDiscarded(seat=seat, order=order_id, automatic=True))
        lines[seat]["hand_orders"] = total
    for seat, me in enumerate(state.seats):
        lines[seat]["leftover_goods"] = sum(content.good[g].value * n for g, n in goods[seat].items()) // 3
        for colour in content.colours:
            mine = [sum(content.order[o].colour == colour for o in k) for k in kept]
            if mine[seat]:
                lines[seat][f"influence_{colour}"] = mine[seat] * (2 if mine[seat] == max(mine) else 1)
            scoring = level(content, me, "colour_scoring", colour=colour)
            if scoring and mine[seat]:
                lines[seat][f"order_scoring_{colour}"] = scoring * (3 * (mine[seat] // 2) + mine[seat] % 2)
        lines[seat]["completed_pairs"] = level(content, me, "pairs") * (len(kept[seat]) // 2)
        lines[seat]["penalties"] = -3 * me.penalties
    for seat, seat_lines in enumerate(lines):
        events += [FinalScored(seat=seat, line=line, points=value, automatic=True)
                   for line, value in seat_lines.items() if value]
    totals = {seat: s.track + sum(lines[seat].values()) for seat, s in enumerate(state.seats)}
    best = max(totals.values())
    events.append(GameEnded(scores={str(s): t for s, t in totals.items()},
                            winners=tuple(s for s, t in totals.items() if t == best), automatic=True))
    return events


def round_wraps(state: State, seat: int) -> bool:
    return (seat + 1) % len(state.seats) == 0
