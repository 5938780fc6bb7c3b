"""The path of a write through the command pipeline, traced as it runs: which of the
project's modules a move enters from `Caboose.execute` on, and that the rules never call
back into the service while they decide (the one exception: the content shelf, asked
whether the installed packs changed since the game found its rules)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from service.application import Caboose
from service.commands import Act, Play
from service.settings import Settings
from service.simulation import game_seed

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "service", "projections", "cli")
SERVICE_ON_THE_WRITE_PATH = {"service.application", "service.commands", "service.aggregate", "service.cache",
                             "service.command_ids", "service.stored", "service.transcoder"}
"""What a write enters of the service: the pipeline, the commands, the aggregate, the game
cache, the command ids, and (for an action judged against the record) the stored records,
read through the application's mapper and transcoder."""
CALLBACKS = {("domain.core.registry", "service.content")}
"""The calls the rules may make into the service: the content shelf's generation."""


def module_of(frame: FrameType) -> str | None:
    path = frame.f_code.co_filename
    if not path.startswith(str(ROOT)) or f"{os.sep}.venv{os.sep}" in path:
        return None
    relative = os.path.relpath(path, ROOT)
    if not relative.startswith(LAYERS) or not relative.endswith(".py"):
        return None
    return relative[:-3].replace(os.sep, ".")


def traced(write: Callable[[], Any]) -> tuple[set[str], set[tuple[str, str]]]:
    """The project's modules `write` enters, and each (caller, callee) from domain into service."""
    entered: set[str] = set()
    back: set[tuple[str, str]] = set()

    def profile(frame: FrameType, event: str, _: Any) -> None:
        if event != "call":
            return
        module = module_of(frame)
        if module is None:
            return
        entered.add(module)
        caller = frame.f_back
        while caller is not None and module_of(caller) is None:
            caller = caller.f_back
        calling = module_of(caller) if caller is not None else None
        if calling is not None and calling.startswith("domain") and module.startswith("service"):
            back.add((calling, module))

    sys.setprofile(profile)
    try:
        write()
    finally:
        sys.setprofile(None)
    return entered, back


@pytest.fixture
def app() -> Caboose:
    return Caboose(Settings(db="memory"))


@pytest.mark.parametrize("game", ["ticket_to_ride", "age_of_steam"])
def test_a_move_enters_the_pipeline_and_the_rules_and_never_crosses_back(app: Caboose, game: str) -> None:
    game_id = app.create_game(game, ["a", "b", "c"], seed=game_seed(4, 1))
    now = app.game(game_id)
    seat = min(now.decider.active_seats(now.state))
    move = now.decider.legal_moves(now.state, seat)[0]
    entered, back = traced(lambda: app.execute(Play(game_id, seat, move), idempotency_key="traced"))
    assert app.records(game_id)[-1]["command_id"] == "traced"
    service = {m for m in entered if m.startswith("service")}
    assert service <= SERVICE_ON_THE_WRITE_PATH | {"service.content"}, service - SERVICE_ON_THE_WRITE_PATH
    assert {"service.application", "service.commands", "service.aggregate"} <= service
    assert back <= CALLBACKS, back - CALLBACKS
    assert not {m for m in entered if m.startswith(("projections", "cli"))}


def test_a_referees_action_enters_the_same_pipeline(app: Caboose) -> None:
    from domain.core.referee import RaiseDispute, referee_actor

    game_id = app.create_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(4, 1))
    action = Act(game_id, referee_actor("Rita"), RaiseDispute(2, "seat:1", "a miscount"))
    entered, back = traced(lambda: app.execute(action, idempotency_key="dispute"))
    service = {m for m in entered if m.startswith("service")}
    assert service <= SERVICE_ON_THE_WRITE_PATH | {"service.content"}, service - SERVICE_ON_THE_WRITE_PATH
    assert back <= CALLBACKS, back - CALLBACKS
