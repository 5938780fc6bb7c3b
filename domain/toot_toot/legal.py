"""Who may act now, which moves each step of a turn allows (R18, R19, R24, R30), and the
list of every legal move for clients, bots and playouts, gathered from the mechanisms (each
keeps its own checks, which `decide` runs before it emits anything, beside the moves it
lists)."""

from __future__ import annotations

from typing import Any

from domain.core.errors import IllegalMove
from domain.core.moves import Command
from domain.toot_toot import build_factory, draw_track, final_scoring, locations, setup, technology, train
from domain.toot_toot.context import Ctx
from domain.toot_toot.final_scoring import SUPPLY
from domain.toot_toot.state import AFTER, DRAWING, LOCATION, MAIN, PLAY, SCORING, SECOND, STARTS, State

MAIN_ACTIONS = ("draw_track", "drive", "turn")
EXTRAS = ("fuel_move", "iron_track", "build_factory", "upgrade")
ALLOWED = {
    MAIN: (*MAIN_ACTIONS, *locations.ACTIONS, "pass_location", *EXTRAS),
    DRAWING: ("draw_track", "stop_drawing"),
    LOCATION: (*locations.ACTIONS, "pass_location", *EXTRAS),
    SECOND: (*locations.ACTIONS, "pass_location"),
    AFTER: (*EXTRAS, "end_turn"),
}
"""The moves each step of a turn allows; extra actions and upgrades never inside an action
nor between the two actions of 2!=2 (R18)."""
WORDS = {MAIN: "the main action", DRAWING: "the rest of action A's line", LOCATION: "the location action",
         SECOND: "a second, different location action (2!=2) or a pass", AFTER: "extra actions or the end of your turn"}


def mover(state: State) -> int | None:
    if state.phase in (STARTS, SCORING):
        # Between the last choice of hand orders and the end of the game nobody is to move.
        return state.choosing[0] if state.choosing else None
    return state.current if state.phase == PLAY else None


def active_seats(state: State) -> frozenset[int]:
    seat = mover(state)
    return frozenset() if seat is None else frozenset({seat})


def check_stage(ctx: Ctx, cmd: Command) -> None:
    """Start positions first, then the steps of a turn in order, then final scoring."""
    state = ctx.state
    if state.phase == STARTS:
        if cmd.type != "choose_start":
            raise IllegalMove("choose_start_first", "Every seat first chooses a start position (R3).")
        return
    if state.phase == SCORING:
        if cmd.type != SUPPLY:
            raise IllegalMove("not_now", f"A {cmd.type} move is not allowed now: the game is over but for final "
                              "scoring, where you choose which hand orders to supply (R22).")
        return
    if cmd.type == SUPPLY:
        raise IllegalMove("not_now", "Hand orders are supplied from the goods held in final scoring, after the last "
                          f"turn (R22); it is time for {WORDS[state.step]}.")
    if cmd.type not in ALLOWED[state.step]:
        raise IllegalMove("not_now", f"A {cmd.type} move is not allowed now: it is time for {WORDS[state.step]}.")
    if cmd.type in locations.ACTIONS and state.step == SECOND and cmd.type in state.done:
        raise IllegalMove("same_kind", f"With 2!=2 the second location action must be of another kind than "
                          f"{state.done[0]} (R19).")


# --- the full list ------------------------------------------------------------------------


def legal_moves(ctx: Ctx) -> list[dict[str, Any]]:
    """Every move the seat may make now."""
    state = ctx.state
    if mover(state) != ctx.seat:
        return []
    if state.phase == STARTS:
        return setup.legal_moves(ctx)
    if state.phase == SCORING:
        return final_scoring.legal_moves(ctx)
    step = state.step
    if step == DRAWING:
        return draw_track.legal_moves(ctx)
    out: list[dict[str, Any]] = []
    if step == MAIN:
        out += draw_track.legal_moves(ctx)
        out += train.legal_moves(ctx)
    if step in (MAIN, LOCATION, SECOND):
        out += locations.legal_moves(ctx)
    if step in (MAIN, LOCATION, AFTER):
        out += train.fuel_moves(ctx)
        out += draw_track.iron_moves(ctx)
        out += build_factory.legal_moves(ctx)
        out += technology.legal_moves(ctx)
    if step == AFTER:
        out.append({"type": "end_turn"})
    return out
