"""The end of the game ("End of game"; R20, R21, R31), read top to bottom: the event, the
end trigger (a score reaching 25: the round is finished and 2 more full rounds are played),
and how it changes the state. Which turn is the last (`State.ends_with`: the last seat's in
the round the trigger or the round limit set, outside an extra turn still to come) is the
state's; what follows it is `flow`'s, then final scoring (`final_scoring`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core.events import Event
from domain.core.state import replace
from domain.toot_toot.content import Content
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.state import State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

END_SCORE = 25
EXTRA_ROUNDS = 2

# --- the event ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EndTriggered(Event):
    seat: int
    score: int
    last_round: int


# --- the trigger (R21) --------------------------------------------------------------------


def trigger(steps: Steps, gained: int) -> None:
    """The end trigger when a score gain of the move's seat reaches 25 from its track before
    the move, unless the end is already triggered."""
    ctx = steps.ctx
    me, state = ctx.me, ctx.state
    if me.track + gained >= END_SCORE and state.last_round is None:
        steps.emit(EndTriggered(seat=ctx.seat, score=me.track + gained, last_round=state.round + EXTRA_ROUNDS,
                                automatic=True))


# --- the event applied --------------------------------------------------------------------


def _triggered(content: Content, s: State, e: EndTriggered) -> State:
    return replace(s, last_round=e.last_round)


APPLY: Handlers = {EndTriggered: _triggered}
KINDS = tuple(APPLY)
