"""The walk of one POST move: which of the project's modules serving it enters, traced as it
runs (`sys.setprofile`), and where the calls cross from the rules (`domain/`) back into the
service. Used by `benchmarks/walk_of_a_move.py` (which prints it) and by
`tests/integration/test_walk_of_a_move.py` (which holds it to a ceiling).

The move is served in this process through Flask's test client, after a warm-up move, so
imports and first-call caches are not counted: what is left is what every move walks."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "service", "projections", "cli")


def module_of(frame: FrameType) -> str | None:
    """The project module `frame` runs in (None: the standard library, a library, a test)."""
    path = frame.f_code.co_filename
    if not path.startswith(str(ROOT)) or f"{os.sep}.venv{os.sep}" in path:
        return None
    relative = os.path.relpath(path, ROOT)
    if not relative.startswith(LAYERS) or not relative.endswith(".py"):
        return None
    return relative[:-3].replace(os.sep, ".")


@dataclass
class Walk:
    """The modules entered, in the order first entered, and each call from `domain` into `service`."""

    entered: list[str] = field(default_factory=list)
    back: set[tuple[str, str]] = field(default_factory=set)

    def layer(self, name: str) -> list[str]:
        return [m for m in self.entered if m.split(".")[0] == name]


def traced(write: Callable[[], Any]) -> Walk:
    walk = Walk()
    seen: set[str] = set()

    def profile(frame: FrameType, event: str, _: Any) -> None:
        if event != "call":
            return
        module = module_of(frame)
        if module is None:
            return
        if module not in seen:
            seen.add(module)
            walk.entered.append(module)
        caller = frame.f_back
        while caller is not None and module_of(caller) is None:
            caller = caller.f_back
        calling = module_of(caller) if caller is not None else None
        if calling is not None and calling.startswith("domain") and module.startswith("service"):
            walk.back.add((calling, module))

    sys.setprofile(profile)
    try:
        write()
    finally:
        sys.setprofile(None)
    return walk


def walk_of_a_move(db: str, game: str = "ticket_to_ride") -> Walk:
    """Create a game, make one move through the HTTP API to warm up, then trace the next
    POST move (a seat's token, `If-Match` and an `Idempotency-Key`, as a client sends it)."""
    from service.api import create_app
    from service.application import Caboose
    from service.lobby import Lobby
    from service.settings import RateLimits, Settings
    from service.simulation import game_seed

    caboose = Caboose(Settings(db=db, rate_limits=RateLimits.every("1000000/minute")))
    lobby = Lobby(caboose)
    client = create_app(caboose, lobby).test_client()
    game_id, issued = lobby.open_game(game, ["a", "b", "c"], seed=game_seed(13, 0))
    base = f"/api/v1/games/{game_id}"

    def next_move() -> Callable[[], Any]:
        now = caboose.game(game_id)
        seat = min(now.decider.active_seats(now.state))
        move = now.decider.legal_moves(now.state, seat)[0]
        headers = {"Authorization": f"Bearer {issued.seat_tokens[seat]}", "If-Match": f'"{now.version}"',
                   "Idempotency-Key": str(uuid.uuid4())}

        def post() -> None:
            reply = client.post(f"{base}/moves", json=move, headers=headers)
            assert reply.status_code in (201, 202), reply.get_data(as_text=True)
        return post

    next_move()()  # warm-up
    return traced(next_move())
