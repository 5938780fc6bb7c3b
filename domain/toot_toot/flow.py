"""The order of play ("A turn"; R18, R20, R21): the end of a turn, which a seat chooses
(`end_turn`) once its main and location actions are done. An extra turn follows when a 1Turn
was placed this turn (R20); after the game's last turn (`State.ends_with`, `end_of_game`),
final scoring (`final_scoring`); otherwise play passes to the next seat, as `evolve` applies
`TurnEnded`. What happens within a turn is its mechanism's; this module only says what
comes next."""

from __future__ import annotations

from domain.toot_toot import final_scoring
from domain.toot_toot.events import ExtraTurnBegan, TurnEnded
from domain.toot_toot.steps import Steps


def end_turn(steps: Steps) -> None:
    ctx = steps.ctx
    state = ctx.state
    steps.emit(TurnEnded(seat=ctx.seat))
    if state.extra_turn:
        steps.emit(ExtraTurnBegan(seat=ctx.seat, automatic=True))
    elif state.ends_with(ctx.seat):
        if ctx.hand_choice:
            final_scoring.begin(steps)
        else:
            final_scoring.filled_in_dealt_order(steps)
