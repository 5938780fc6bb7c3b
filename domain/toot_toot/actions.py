"""The main actions (R2, R4, R5) and the extra actions (R2, R4, R8-R10, R17): each checks
the move, then returns its events, the action's own event first."""

from __future__ import annotations

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.randomness import Randomness
from domain.core.state import replace
from domain.toot_toot.board import Board
from domain.toot_toot.context import Ctx
from domain.toot_toot.events import (
    FactoryBuilt,
    GoodsPaid,
    LineEnded,
    PenaltyTaken,
    ShovelGained,
    ShovelSpent,
    TrackDrawn,
    TrainMoved,
    TrainTurned,
    Upgraded,
)
from domain.toot_toot.hexes import coords, neighbour, neighbours, opp, segment
from domain.toot_toot.orders import Deck
from domain.toot_toot.seats import card, placeable
from domain.toot_toot.state import DRAWING

LINE = 3
"""Segments one action A draws at most (R2)."""
FUEL_STEPS = 5
FACTORY_STONE = 2


def _segment_ok(ctx: Ctx, hex_: str, a: int, b: int) -> None:
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


def draw_track(ctx: Ctx, hex_: str, a: int, b: int) -> list[Event]:
    line = ctx.state.line if ctx.state.step == DRAWING else None
    if line is not None and (hex_ != neighbour(line[0], line[1]) or a != opp(line[1])):
        raise IllegalMove("line_broken", f"The line goes on in hex {neighbour(line[0], line[1])} from edge "
                          f"{opp(line[1])}, across the end of the last segment (R2).")
    _segment_ok(ctx, hex_, a, b)
    events: list[Event] = [TrackDrawn(seat=ctx.seat, hex=hex_, edges=(a, b), action="main")]
    drawn = (line[2] if line else 0) + 1
    if drawn < LINE:
        after = replace(ctx.state, track={**ctx.state.track, hex_: (*ctx.board.segments(hex_), segment(a, b))})
        if not any(Board(ctx.map, after).continuations(hex_, b)):
            events.append(LineEnded(seat=ctx.seat, segments=drawn, automatic=True))
    return events


def stop_drawing(ctx: Ctx) -> list[Event]:
    assert ctx.state.line is not None
    return [LineEnded(seat=ctx.seat, segments=ctx.state.line[2])]


def iron_track(ctx: Ctx, hex_: str, a: int, b: int) -> list[Event]:
    if ctx.me.goods.get("iron", 0) < 1:
        raise IllegalMove("missing_goods", "Drawing a segment as an extra action costs 1 iron (R2).")
    _segment_ok(ctx, hex_, a, b)
    return [TrackDrawn(seat=ctx.seat, hex=hex_, edges=(a, b), action="iron"),
            GoodsPaid(seat=ctx.seat, good="iron", count=1, reason="track")]


def move(ctx: Ctx, hex_: str, facing: int, fuel: str | None) -> list[Event]:
    if fuel is not None and ctx.me.goods.get(fuel, 0) < 1:
        raise IllegalMove("missing_goods", f"An extra move costs 1 {fuel}, which you do not hold (R4).")
    ends = ctx.board.destinations(ctx.seat, FUEL_STEPS if fuel else None)
    path = ends.get((hex_, facing))
    if path is None:
        reach = f"within {FUEL_STEPS} steps " if fuel else ""
        raise IllegalMove("unreachable", f"Your train cannot end a move {reach}on hex {hex_} facing {facing}: "
                          "it follows track the way it faces and may not stop on another train (R4).")
    events: list[Event] = [TrainMoved(seat=ctx.seat, path=path, fuel=fuel)]
    if fuel:
        events.append(GoodsPaid(seat=ctx.seat, good=fuel, count=1, reason="move"))
    return events


def turn(ctx: Ctx, facing: int) -> list[Event]:
    if facing not in ctx.board.turns(ctx.seat):
        raise IllegalMove("cannot_turn", f"No segment of hex {ctx.me.hex} ends at edge {facing} other than the one "
                          "the train faces (R5).")
    ctx.need_penalty("turn")
    return [TrainTurned(seat=ctx.seat, hex=str(ctx.me.hex), facing=facing),
            PenaltyTaken(seat=ctx.seat, reason="turned")]


def build_factory(ctx: Ctx, hex_: str, kind: str, exit_: int, payment: str) -> list[Event]:
    me, board = ctx.me, ctx.board
    if payment == "stone" and me.goods.get("stone", 0) < FACTORY_STONE:
        raise IllegalMove("missing_goods", f"A factory paid with stone costs {FACTORY_STONE} stone (R8).")
    if payment == "shovel" and not me.shovel:
        raise IllegalMove("no_shovel", "You do not hold your shovel (R10).")
    if payment == "penalty":
        ctx.need_penalty("pay for a factory with a penalty token")
    sites = board.factory_sites(ctx.seat)
    if hex_ not in sites:
        raise IllegalMove("bad_factory_site", f"A factory cannot go on {hex_}: it must be next to your train, on a "
                          "plain hex without track or building, not on an opening position and not in front of "
                          "another train (R8).")
    if exit_ not in sites[hex_]:
        raise IllegalMove("bad_factory_exit", f"The exit {exit_} of a factory on {hex_} must face a plain on-map hex "
                          "without a building (R8).")
    cut = board.splits(hex_)
    if cut is not None:
        raise IllegalMove("splits_map", f"A factory on {hex_} would split the map, cutting off {describe(board, cut)} (R9).")
    events: list[Event] = [FactoryBuilt(seat=ctx.seat, hex=hex_, factory=kind, exit=exit_, payment=payment)]
    if payment == "stone":
        events.append(GoodsPaid(seat=ctx.seat, good="stone", count=FACTORY_STONE, reason="factory"))
    elif payment == "shovel":
        events.append(ShovelSpent(seat=ctx.seat))
    else:
        events.append(PenaltyTaken(seat=ctx.seat, reason="paid for a factory"))
    return events


def describe(board: Board, region: set[str]) -> str:
    """A region in words: its hexes and the buildings it borders."""
    hexes = sorted(region, key=lambda h: coords(h)[::-1])
    beside = sorted({b.id for h in region for _, o in neighbours(h) if (b := board.building_at(o)) is not None})
    shown = ", ".join(hexes[:8]) + (f" and {len(hexes) - 8} more" if len(hexes) > 8 else "")
    near = f", beside {', '.join(beside)}" if beside else ""
    return f"the region of {len(hexes)} hex{'es' if len(hexes) != 1 else ''} {shown}{near}"


def upgrade(ctx: Ctx, ability_id: str, rng: Randomness) -> list[Event]:
    ability = card(ctx.content, ctx.me).ability.get(ability_id)
    if ability is None:
        raise IllegalMove("unknown_ability", f"Your card has no ability {ability_id!r}.")
    if ctx.me.tokens < 1:
        raise IllegalMove("no_tokens", "You have no technology token to place (R16).")
    if ability_id not in placeable(ctx.content, ctx.me):
        raise IllegalMove("cannot_upgrade", f"{ability_id} is full, or its column needs more tokens in the columns "
                          "before it (R17).")
    events: list[Event] = [Upgraded(seat=ctx.seat, ability=ability_id)]
    if ability.effect == "shovel" and not ctx.me.shovel:
        events.append(ShovelGained(seat=ctx.seat, automatic=True))
    elif ability.effect == "order":
        deck = Deck(ctx.state, rng)
        deck.deal_secret(ctx.seat, "order ability")
        events += deck.events
    return events

