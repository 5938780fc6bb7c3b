"""The turn's end and the game's: tokens for gears passed (R16), the end trigger at 25
(R21), extra turns (R20), and after the last turn final scoring (`final.py`)."""

from __future__ import annotations

from domain.core.events import Event
from domain.toot_toot import final
from domain.toot_toot.context import Ctx
from domain.toot_toot.events import EndTriggered, ExtraTurnBegan, FinalScoringBegan, TokensGained, TurnEnded
from domain.toot_toot.seats import gears_passed

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
    if not state.ends_with(ctx.seat):
        return events
    if not ctx.hand_choice:
        return events + final.filled_in_dealt_order(ctx.content, state)
    asked = final.choosing(ctx.content, state)
    if asked:
        return [*events, FinalScoringBegan(choosing=asked, automatic=True)]
    return events + final.closing(ctx.content, state)
