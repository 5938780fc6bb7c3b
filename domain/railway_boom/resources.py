"""Resources and VP (`docs/rules/railway_boom.md`, R1, R11, R13, R36), read top to bottom: the
events every payment, gain, conversion and score line records, the check that a conversion
covers what is due, and how each event changes the state. Every rule pays, gains and
converts through the game's `Steps` (`steps.py`), which emits these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.railway_boom.content import Content
from domain.railway_boom.ledger import Handlers, add_resource, score
from domain.railway_boom.state import State

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ResourcesConverted(Event):
    """2 of one resource became 1 of another, `pairs` times (R11)."""

    seat: int
    source: str
    into: str
    pairs: int


@dataclass(frozen=True, kw_only=True)
class ResourceGained(Event):
    seat: int
    resource: str
    amount: int
    source: str
    lost: int = 0
    """Above the pack's `resource_max` (R36)."""


@dataclass(frozen=True, kw_only=True)
class ResourcePaid(Event):
    seat: int
    resource: str
    amount: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class VPScored(Event):
    seat: int
    amount: int
    source: str


# --- the check ----------------------------------------------------------------------------


def converting(state: State, seat: int, into: str, convert: Mapping[str, int] | None, due: int) -> dict[str, int] | None:
    """Check a conversion (R11) and that it covers `due`; the plain dict to record, or None."""
    me = state.seats[seat]
    convert = dict(convert or {})
    for source, pairs in convert.items():
        if source == into:
            raise IllegalMove("cannot_convert", f"Converting {source} into itself does nothing.")
        if me.resources[source] < 2 * pairs:
            raise IllegalMove("cannot_convert",
                              f"Converting {pairs} pair(s) of {source} needs {2 * pairs}; you hold {me.resources[source]}.")
    have = me.resources[into] + sum(convert.values())
    if have < due:
        raise IllegalMove(f"not_enough_{into}", f"This needs {due} {into}; you would hold {have} (R13).")
    return convert or None


def with_conversion(move: dict[str, Any], convert: dict[str, int] | None) -> dict[str, Any]:
    """A legal move with the conversion it needs, if any."""
    return {**move, "convert": convert} if convert else move


# --- the events applied -------------------------------------------------------------------


def _converted(c: Content, s: State, e: ResourcesConverted) -> State:
    s = add_resource(s, e.seat, e.source, -2 * e.pairs)
    return add_resource(s, e.seat, e.into, e.pairs)


def _gained(c: Content, s: State, e: ResourceGained) -> State:
    return add_resource(s, e.seat, e.resource, e.amount - e.lost)


def _paid(c: Content, s: State, e: ResourcePaid) -> State:
    return add_resource(s, e.seat, e.resource, -e.amount)


def _vp(c: Content, s: State, e: VPScored) -> State:
    return score(s, e.seat, e.amount, e.source)


APPLY: Handlers = {ResourcesConverted: _converted, ResourceGained: _gained, ResourcePaid: _paid, VPScored: _vp}
KINDS = tuple(APPLY)
