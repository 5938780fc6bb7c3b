"""The events of one decision in the making. Each event is applied as soon as it is
emitted, so the rule that runs next sees its effect, and what `decide` returns always
evolves to the state it reasoned about."""

from __future__ import annotations

from domain.core.events import Event
from domain.railway_boom import events as ev
from domain.railway_boom.content import RESOURCES, Content
from domain.railway_boom.evolve import evolve
from domain.railway_boom.state import State


class Steps:
    def __init__(self, content: Content, state: State) -> None:
        self.content = content
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.content, self.state, event)

    def gain(self, seat: int, resource: str, amount: int, source: str) -> None:
        """`amount` of a resource, or VP for the fifth kind (R1)."""
        if amount <= 0:
            return
        if resource not in RESOURCES:
            self.emit(ev.VPScored(seat=seat, amount=amount, source=source, automatic=True))
            return
        cap = self.content.resource_max
        have = self.state.seats[seat].resources[resource]
        lost = max(0, have + amount - cap) if cap is not None else 0
        self.emit(ev.ResourceGained(seat=seat, resource=resource, amount=amount, source=source, lost=lost, automatic=True))

    def pay(self, seat: int, resource: str, amount: int, reason: str) -> None:
        if amount > 0:
            self.emit(ev.ResourcePaid(seat=seat, resource=resource, amount=amount, reason=reason, automatic=True))

    def convert(self, seat: int, into: str, convert: dict[str, int] | None) -> None:
        for source, pairs in sorted((convert or {}).items()):
            if pairs:
                self.emit(ev.ResourcesConverted(seat=seat, source=source, into=into, pairs=pairs, automatic=True))
