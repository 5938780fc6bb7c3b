"""`evolve`: the state after one event, dispatched on the event's type. No checks and no
randomness: `decide` made sure the event is allowed, and a drawn card or shuffle is read from
the event itself. Each mechanism module applies its own kinds (`APPLY`); the handlers here
are for the order of play's (`events.py`).

Each of the game's kinds has one handler; any other event is refused with `UnknownKind`, so a
misspelt or foreign kind is an error rather than a silently ignored event (the core's kinds
never get here: `fold.step` handles them)."""

from __future__ import annotations

from domain.core.catalogue import UnknownKind, applied_by
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.toot_toot import events
from domain.toot_toot.catalogue import MECHANISMS
from domain.toot_toot.content import Content
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.state import MAIN, State


def evolve(content: Content, state: State, event: Event) -> State:
    apply = _APPLY.get(type(event))
    if apply is None:
        raise UnknownKind(event.kind, "toot_toot")
    return apply(content, state, event)


def _turn_ended(content: Content, s: State, e: events.TurnEnded) -> State:
    last = s.ends_with(e.seat)
    s = replace(s, step=MAIN, line=None, done=())
    if s.extra_turn or last:
        # After the game's last turn no round or turn begins: the counters stop there.
        return s
    nxt = (e.seat + 1) % len(s.seats)
    s = replace(s, current=nxt, in_extra=False, round=s.round + (nxt == 0))
    return replace_seat(s, nxt, turns=s.seats[nxt].turns + 1)


def _extra(content: Content, s: State, e: events.ExtraTurnBegan) -> State:
    return replace(s, extra_turn=False, in_extra=True)


_APPLY: Handlers = {
    events.TurnEnded: _turn_ended,
    events.ExtraTurnBegan: _extra,
    **applied_by(MECHANISMS),
}
"""One handler per kind the game declares (`test_evolve_handles_every_declared_kind`)."""
