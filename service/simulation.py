"""Random legal playouts through the real application, checking invariants after every
event (`caboose simulate`)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.core import fold
from domain.core.codec import encode
from domain.core.envelope import redact, to_event
from domain.core.events import PUBLIC, Audience
from domain.core.leaks import leaks
from service.application import Caboose
from service.lobby import Lobby


class InvariantBroken(AssertionError):
    def __init__(self, game_id: str, version: int, problems: list[str]) -> None:
        super().__init__(f"game {game_id} at version {version}: " + "; ".join(problems))
        self.game_id, self.version, self.problems = game_id, version, problems


@dataclass
class Playout:
    game_id: str
    events: int
    scores: dict[str, int]
    winners: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "events": self.events, "scores": self.scores, "winners": self.winners}


def game_seed(seed: int, index: int) -> bytes:
    """Each simulated game's seed, derived from the run's seed so a run repeats exactly."""
    return hashlib.sha256(f"caboose-simulate:{seed}:{index}".encode()).digest()


def simulate(app: Caboose, game: str, games: int, players: int, seed: int, check: bool = True,
             max_moves: int = 5000, lobby: Lobby | None = None,
             options: Mapping[str, Any] | None = None) -> Iterator[Playout]:
    chooser = random.Random(seed)
    for index in range(games):
        yield play_one(app, game, players, game_seed(seed, index), chooser, check, max_moves, lobby, options)


def play_one(app: Caboose, game: str, players: int, seed: bytes, chooser: random.Random,
             check: bool = True, max_moves: int = 5000, lobby: Lobby | None = None,
             options: Mapping[str, Any] | None = None) -> Playout:
    """One random game to its end, with the game's `options` (refused as the game refuses
    them, before anything is stored). Through `lobby`, the game is created as every entry
    point creates one (with its tokens, so it is listed); without, only its events are stored."""
    names: list[str | None] = [f"player {i + 1}" for i in range(players)]
    game_id = (lobby.open_game(game, names, options, seed=seed)[0] if lobby
               else app.create_game(game, [str(n) for n in names], options, seed=seed))
    checker = _Checker(app, game_id) if check else None
    if checker:
        checker.catch_up()
    # The player's own picture of the game, folded from the records each move returns, as
    # a client would keep it: the store is read only to check it.
    seen = fold.replay(app.records(game_id))
    decider, state, version = seen.decider, seen.state, seen.version
    for _ in range(max_moves):
        active = sorted(decider.active_seats(state))
        if not active:
            break
        seat = chooser.choice(active)
        moves = decider.legal_moves(state, seat)
        if not moves:
            raise InvariantBroken(game_id, version, [f"seat {seat} is active but has no legal move"])
        # A game may steer playouts towards purposeful play (build, deliver); None is random.
        move = decider.playout_choice(state, seat, moves, chooser)
        move = chooser.choice(moves) if move is None else move
        for record in app.play(game_id, seat, move, expected_version=version):
            state, version = fold.step(decider, state, to_event(record, decider.catalogue)), record["version"]
        if checker:
            checker.catch_up()
    if not decider.is_over(state):
        raise InvariantBroken(game_id, version, [f"no end after {max_moves} moves"])
    ended = [r for r in app.records(game_id, after=version - 3) if r["kind"] == "GameEnded"]
    winners = ended[0]["data"].get("winners", []) if ended else []
    scores = {str(k): v for k, v in decider.scores(state).items()}
    return Playout(game_id, version, scores, winners)


class _Checker:
    """Follows the stored log and checks every new event."""

    def __init__(self, app: Caboose, game_id: str) -> None:
        self.app, self.game_id = app, game_id
        self.history: fold.History | None = None

    @property
    def version(self) -> int:
        return self.history.version if self.history is not None else 0

    def catch_up(self) -> None:
        new = self.app.records(self.game_id, after=self.version)
        for record in new:
            if self.history is None:
                self.history = fold.History(record)
            else:
                self.history.add(record)
            self._check_event(record)
        if new:
            self._check_state()

    def _check_event(self, record: dict[str, Any]) -> None:
        assert self.history is not None
        decider, state, created = self.history.decider, self.history.state, self.history.created
        problems = list(decider.invariants(state))
        if not decider.is_over(state):
            for seat in range(len(created["seats"])):
                seen = redact(record, Audience(seat=seat))
                problems += [f"seat {seat} receives a secret of {record['kind']} meant for {s['to']}"
                             for s in seen["secrets"] if "value" in s and seat not in s["to"]]
            seats = {seat: decider.view(state, Audience(seat=seat)) for seat in range(len(created["seats"]))}
            problems += leaks(decider.view(state, PUBLIC), seats)
        if problems:
            raise InvariantBroken(self.game_id, record["version"], problems)

    def _check_state(self) -> None:
        assert self.history is not None
        live = self.app.game(self.game_id)
        if live.version != self.version or encode(live.state) != encode(self.history.state):
            raise InvariantBroken(self.game_id, self.version, ["the live state differs from a fresh replay of the log"])
