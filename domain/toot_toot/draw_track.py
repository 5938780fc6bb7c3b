"""Drawing track (R1, R2: main action A, a line of up to 3 segments; extra action b, 1
segment anywhere for 1 iron), read top to bottom: the events, the checks on a segment, the
segments a seat may draw, what a drawing records, and how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.state import replace
from domain.toot_toot.board import Board
from domain.toot_toot.content import Content
from domain.toot_toot.context import Ctx
from domain.toot_toot.goods import GoodsPaid
from domain.toot_toot.hexes import neighbour, opp, segment
from domain.toot_toot.ledger import Handlers
from domain.toot_toot.state import DRAWING, LOCATION, State

if TYPE_CHECKING:
    from domain.toot_toot.steps import Steps

LINE = 3
"""Segments one action A draws at most (R2)."""

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TrackDrawn(Event):
    seat: int
    hex: str
    edges: tuple[int, int]
    """From and to: a line goes on across the second edge (R2)."""
    action: str
    """`main` (action A) or `iron` (the extra action)."""


@dataclass(frozen=True, kw_only=True)
class LineEnded(Event):
    seat: int
    segments: int


# --- the checks ---------------------------------------------------------------------------


def check_segment(ctx: Ctx, hex_: str, a: int, b: int) -> None:
    board = ctx.board
    if not ctx.map.on_map(hex_):
        raise IllegalMove("off_map", f"Hex {hex_} is not on map {ctx.map.id}.")
    if (b - a) % 6 not in (2, 3, 4):
        raise IllegalMove("bad_segment", f"Edges {a} and {b} are neighbours or the same; a segment is straight or "
                          "a gentle curve (R1).")
    if not board.trackable(hex_):
        raise IllegalMove("no_track_here", f"Hex {hex_} holds a building or blocked terrain; no track there (R2).")
    if segment(a, b) in board.segments(hex_):
        raise IllegalMove("track_exists", f"Hex {hex_} already has a segment from {a} to {b} (R2).")


def check_line(ctx: Ctx, hex_: str, a: int) -> None:
    """A line's next segment lies across the end of the last one (R2)."""
    line = ctx.state.line if ctx.state.step == DRAWING else None
    if line is not None and (hex_ != neighbour(line[0], line[1]) or a != opp(line[1])):
        raise IllegalMove("line_broken", f"The line goes on in hex {neighbour(line[0], line[1])} from edge "
                          f"{opp(line[1])}, across the end of the last segment (R2).")


# --- the segments a seat may draw ---------------------------------------------------------


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Action A: a line's first segment anywhere, or while drawing the segments that go on
    with it and stopping."""
    state, board = ctx.state, ctx.board
    if state.step == DRAWING:
        assert state.line is not None
        out = [{"type": "draw_track", "hex": h, "from": a, "to": b} for h, a, b in board.continuations(*state.line[:2])]
        return [*out, {"type": "stop_drawing"}]
    return [{"type": "draw_track", "hex": h, "from": a, "to": b} for h, a, b in board.draws()]


def iron_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """The extra action: one segment anywhere for 1 iron (each segment listed once)."""
    if not ctx.me.goods.get("iron", 0):
        return []
    return [{"type": "iron_track", "hex": h, "from": a, "to": b} for h, a, b in ctx.board.draws() if a < b]


# --- the drawing --------------------------------------------------------------------------


def draw_track(steps: Steps, hex_: str, a: int, b: int) -> None:
    """One segment of action A's line; the line ends by itself after its third, or when
    nothing can go on from the segment's end."""
    ctx = steps.ctx
    check_line(ctx, hex_, a)
    check_segment(ctx, hex_, a, b)
    line = ctx.state.line if ctx.state.step == DRAWING else None
    steps.emit(TrackDrawn(seat=ctx.seat, hex=hex_, edges=(a, b), action="main"))
    drawn = (line[2] if line else 0) + 1
    if drawn < LINE and not any(Board(ctx.map, steps.state).continuations(hex_, b)):
        steps.emit(LineEnded(seat=ctx.seat, segments=drawn, automatic=True))


def stop_drawing(steps: Steps) -> None:
    line = steps.ctx.state.line
    assert line is not None
    steps.emit(LineEnded(seat=steps.ctx.seat, segments=line[2]))


def iron_track(steps: Steps, hex_: str, a: int, b: int) -> None:
    ctx = steps.ctx
    if ctx.me.goods.get("iron", 0) < 1:
        raise IllegalMove("missing_goods", "Drawing a segment as an extra action costs 1 iron (R2).")
    check_segment(ctx, hex_, a, b)
    steps.emit(TrackDrawn(seat=ctx.seat, hex=hex_, edges=(a, b), action="iron"))
    steps.emit(GoodsPaid(seat=ctx.seat, good="iron", count=1, reason="track"))


# --- the events applied -------------------------------------------------------------------


def _drawn(content: Content, s: State, e: TrackDrawn) -> State:
    a, b = e.edges
    s = replace(s, track={**s.track, e.hex: (*s.track.get(e.hex, ()), segment(a, b))})
    if e.action != "main":
        return s
    drawn = (s.line[2] if s.step == DRAWING and s.line else 0) + 1
    if drawn >= LINE:
        return replace(s, step=LOCATION, line=None)
    return replace(s, step=DRAWING, line=(e.hex, b, drawn))


def _line_ended(content: Content, s: State, e: LineEnded) -> State:
    return replace(s, step=LOCATION, line=None)


APPLY: Handlers = {TrackDrawn: _drawn, LineEnded: _line_ended}
KINDS = tuple(APPLY)
