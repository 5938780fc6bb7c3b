"""`evolve`: the state after one event, dispatched on the event's type. It never checks a rule
or draws randomness: the event already says what happened. Each mechanism module applies its
own kinds (`APPLY`); the handlers here are for the order of play's (`events.py`)."""

from __future__ import annotations

from domain.core import sealed
from domain.core.catalogue import UnknownKind, applied_by
from domain.core.events import Event
from domain.core.state import replace, replace_seat
from domain.railway_boom.catalogue import MECHANISMS
from domain.railway_boom.content import Content
from domain.railway_boom.events import CardsBoxed, PhaseStarted, TurnEnded
from domain.railway_boom.ledger import Handlers, without
from domain.railway_boom.state import BID, State, Turn


def evolve(content: Content, state: State, event: Event) -> State:
    handler = _APPLY.get(type(event))
    if handler is None:
        raise UnknownKind(event.kind, "railway_boom")
    return handler(content, state, event)


def _phase(c: Content, s: State, e: PhaseStarted) -> State:
    bidding = bool(e.resource)
    return replace(s, round=e.round, phase=e.phase, step=BID if bidding else "", bids={}, locked=(), settled=(), acting=(),
                   bid_resource=e.resource, turn=Turn(), rows=(), chosen_rows=(),
                   sealed=sealed.open_phase(e.phase, tuple(range(s.players))) if e.phase == "operation" else None)


def _turn_ended(c: Content, s: State, e: TurnEnded) -> State:
    s = replace_seat(s, e.seat, power=0)
    return replace(s, acting=s.acting[1:], turn=Turn())


def _boxed(c: Content, s: State, e: CardsBoxed) -> State:
    return replace(s, offer=without(s.offer, *e.cards), boxed=(*s.boxed, *e.cards))


_APPLY: Handlers = {
    PhaseStarted: _phase,
    TurnEnded: _turn_ended,
    CardsBoxed: _boxed,
    **applied_by(MECHANISMS),
}
