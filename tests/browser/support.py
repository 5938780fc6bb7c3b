"""Helpers for the browser tests: the site under test, a watched page, screenshots."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.application import Caboose
from service.lobby import Lobby
from service.simulation import game_seed

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


@dataclass
class Site:
    """A live server and what is stored behind it."""

    base: str
    app: Caboose
    lobby: Lobby
    games: dict[str, str] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    def replay(self, game: str, query: str = "") -> str:
        return f"{self.base}/games/{self.games[game]}/replay{'?' + query if query else ''}"


def play_random(app: Caboose, game_id: str, moves: int, chooser: random.Random) -> None:
    for _ in range(moves):
        game = app.game(game_id)
        active = sorted(game.decider.active_seats(game.state))
        if not active:
            return
        seat = active[0]
        app.play(game_id, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))


def play_until(site: Site, game: str, wanted: str, seed: int,
               options: dict[str, Any] | None = None) -> tuple[str, int, str, list[dict[str, Any]]]:
    """A new game of `game` played (by the playout bot) until its first active seat may make a
    `wanted` move: the game, that seat, its token and its legal moves then."""
    app = site.app
    game_id, issued = site.lobby.open_game(game, ["Ann", "Ben", "Cleo"], options=options, seed=game_seed(seed, 0))
    chooser = random.Random(seed)
    for _ in range(3000):
        state = app.game(game_id)
        assert not state.is_over, f"{game} ended before a {wanted} move was offered"
        seat = sorted(state.decider.active_seats(state.state))[0]
        legal = state.decider.legal_moves(state.state, seat)
        if any(m["type"] == wanted for m in legal):
            return game_id, seat, issued.seat_tokens[seat], [{"seat": seat, **m} for m in legal]
        app.play(game_id, seat, state.decider.playout_choice(state.state, seat, legal, chooser) or chooser.choice(legal))
    raise AssertionError(f"no {wanted} move in 3000 moves")


def keeping_errors(page: Any) -> Any:
    """`page`, keeping what went wrong in it: uncaught errors and console errors (`page.errors`)."""
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    return page


@dataclass
class Watched:
    """A page, with every JSON body the server sent it and every error it logged."""

    page: Any
    responses: list[Any] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def bodies(self) -> list[Any]:
        """Every JSON body received so far, those the page came with (its first board) among
        them (read after the fact: a response's body cannot be read from inside Playwright's
        event handler)."""
        carried = self.page.evaluate(
            "() => [...document.querySelectorAll('script[data-first-board]')].map((s) => s.textContent)")
        return [json.loads(text) for text in carried] + [json.loads(r.body()) for r in list(self.responses)]

    def ready(self) -> Any:
        self.page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=20_000)
        return self.page

    def go(self, version: int) -> None:
        self.page.evaluate("(v) => replay.go(v)", version)

    def position(self) -> int:
        return int(self.page.get_attribute("#board", "data-version"))


def shot(page: Any, artifacts: Path, name: str) -> Path:
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def canonical(move: dict[str, Any]) -> str:
    """A move as one string, its keys sorted: moves compared whatever order their fields came in."""
    return json.dumps(move, sort_keys=True)


def keys_anywhere(value: Any) -> set[str]:
    """Every key of every object inside a JSON value."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(key)
            found |= keys_anywhere(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= keys_anywhere(inner)
    return found



def watched_page(context: Any, url: str) -> Any:
    """A new page of `context` that keeps its script errors and console errors in `errors`, at `url`."""
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    return page
