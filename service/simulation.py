"""Playouts through the real application, each seat played by a bot of the level asked for
(`playout`, the steered random play simulations have always used, unless told otherwise),
checking invariants after every event (`caboose simulate`, the demo); and the same games in
memory, rules alone, for the bots benchmark and tests (`play_in_memory`)."""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import games
from domain.core import fold
from domain.core.bots import LEVELS, Bot, bot_of
from domain.core.codec import encode
from domain.core.decider import Decider, Setup
from domain.core.envelope import redact, to_event
from domain.core.errors import MalformedMove
from domain.core.events import PUBLIC, Audience
from domain.core.leaks import leaks
from domain.core.randomness import SeededRandom
from service import people
from service.aggregate import Game, Stamp
from service.application import Caboose
from service.commands import Held, request_digest
from service.lobby import Lobby
from service.seating import Issued

DEFAULT_LEVEL = "playout"


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
    levels: tuple[str, ...] = ()
    """The level of the bot that played each seat, in seat order."""
    moves: int = 0
    over: bool = True
    issued: Issued | None = None
    """The game's tokens, when it was created through a lobby."""

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "events": self.events, "scores": self.scores, "winners": self.winners,
                "levels": list(self.levels)}


def seat_levels(decider: Decider[Any], asked: str | Sequence[str] | None, players: int) -> tuple[str, ...]:
    """The level each of `players` seats plays at: one level for every seat, or levels in
    seat order (a comma-separated string or a list), repeated when there are more seats.
    Raises `MalformedMove` (`unknown_bot`) naming the game's levels for a level it lacks."""
    if asked is None:
        asked = DEFAULT_LEVEL
    names = [name.strip() for name in asked.split(",")] if isinstance(asked, str) else list(asked)
    if not names or not all(names):
        raise MalformedMove("unknown_bot", f"Name a level for the seats, e.g. 'greedy' or 'greedy,random'; "
                                           f"{decider.name}'s levels are {', '.join(levels_of(decider))}.")
    for name in names:
        bot_of(decider, name)
    return tuple(names[index % len(names)] for index in range(players))


def levels_of(decider: Decider[Any]) -> list[str]:
    """The game's levels, weakest first."""
    return sorted(decider.bots, key=lambda level: LEVELS.index(level) if level in LEVELS else len(LEVELS))


def best_level(decider: Decider[Any]) -> str:
    """The strongest level the game offers."""
    return levels_of(decider)[-1]


def game_seed(seed: int, index: int) -> bytes:
    """Each simulated game's seed, derived from the run's seed so a run repeats exactly."""
    return hashlib.sha256(f"caboose-simulate:{seed}:{index}".encode()).digest()


def play_one(app: Caboose, game: str, players: int, seed: bytes, chooser: random.Random,
             check: bool = True, max_moves: int = 5000, lobby: Lobby | None = None,
             options: Mapping[str, Any] | None = None, levels: str | Sequence[str] | None = None,
             names: Sequence[str] | None = None, stop_after: int | None = None,
             per_move: bool = False, until_seat: int | None = None) -> Playout:
    """One game to its end, each seat played by a bot of its level (`seat_levels`: the
    `playout` level unless told), with the game's `options`; an unknown level or a refused
    option is refused before anything is stored. Through `lobby`, the game is created as
    every entry point creates one (with its tokens, so it is listed); without, only its
    events are stored. `stop_after` moves, the game is left running where it stands.

    Each move is adjudicated by the game's aggregate as `Caboose.play` does it, and the game
    is stored once it stands still, in one transaction, as an import is: one durable commit
    per move, not the rules, set the rate of a simulation through a file store. With
    `per_move`, every move goes through `Caboose.play` and is its own commit, the path a
    client's move takes. Either way every event is stored, and with `check` each stored event
    is checked after it is stored. With `until_seat`, a game stopped after `stop_after` moves
    goes on until that seat is to act (a person given its token has a move to make)."""
    played = seat_levels(games.current(game), levels, players)
    if not per_move:
        return _play_held(app, game, played, seed, chooser, check, max_moves, lobby, options, names, stop_after,
                          until_seat)
    seat_names: list[str | None] = list(names or people.seat_names(players, seed))
    issued = None
    if lobby:
        game_id, issued = lobby.open_game(game, seat_names, options, seed=seed)
    else:
        game_id = app.create_game(game, [str(n) for n in seat_names], options, seed=seed)
    checker = _Checker(app, game_id) if check else None
    if checker:
        checker.catch_up()
    # The player's own picture of the game, folded from the records each move returns, as
    # a client would keep it: the store is read only to check it.
    seen = fold.replay(app.records(game_id))
    decider, state, version = seen.decider, seen.state, seen.version
    bots = [bot_of(decider, level) for level in played]
    moves = 0
    while True:
        active = sorted(decider.active_seats(state))
        if not going(moves, max_moves, stop_after, until_seat, active):
            break
        seat = chooser.choice(active)
        legal = decider.legal_moves(state, seat)
        if not legal:
            raise InvariantBroken(game_id, version, [f"seat {seat} is active but has no legal move"])
        move = bots[seat].choose(state, seat, legal, chooser)
        for record in app.play(game_id, seat, move, expected_version=version):
            state, version = fold.step(decider, state, to_event(record, decider.catalogue)), record["version"]
        moves += 1
        if checker:
            checker.catch_up()
    return _playout(app, game_id, decider, state, version, played, moves, issued, stop_after is None, max_moves)


def _playout(app: Caboose, game_id: str, decider: Decider[Any], state: Any, version: int, played: tuple[str, ...],
             moves: int, issued: Issued | None, to_the_end: bool, max_moves: int) -> Playout:
    """What a playout came to; a game that was to be played to its end and did not is broken."""
    over = decider.is_over(state)
    if not over and to_the_end:
        raise InvariantBroken(game_id, version, [f"no end after {max_moves} moves"])
    ended = [r for r in app.records(game_id, after=version - 3) if r["kind"] == "GameEnded"] if over else []
    # Each game declares its own `GameEnded`; the core names no field they share.
    winners = list(getattr(to_event(ended[0], decider.catalogue), "winners", ())) if ended else []
    scores = {str(k): v for k, v in decider.scores(state).items()}
    return Playout(game_id, version, scores, winners, played, moves, over, issued)


def going(moves: int, max_moves: int, stop_after: int | None, until_seat: int | None, active: Sequence[int]) -> bool:
    """Whether a bots' game goes on: a seat is to act, fewer than `max_moves` were made, and
    either fewer than `stop_after` or `until_seat` is not yet among the seats to act."""
    if not active or moves >= max_moves:
        return False
    return stop_after is None or moves < stop_after or (until_seat is not None and until_seat not in active)


def _play_held(app: Caboose, game: str, played: tuple[str, ...], seed: bytes, chooser: random.Random, check: bool,
               max_moves: int, lobby: Lobby | None, options: Mapping[str, Any] | None, names: Sequence[str] | None,
               stop_after: int | None, until_seat: int | None = None) -> Playout:
    """`play_one` with the game held in memory while it is played, then stored in one
    transaction. Without a lobby the game is created in that same transaction; through one,
    it is created first, as the lobby does, so its tokens exist before its moves."""
    seat_names: list[str | None] = list(names or people.seat_names(len(played), seed))
    issued = None
    if lobby:
        game_id, issued = lobby.open_game(game, seat_names, options, seed=seed)
        aggregate = app.game(game_id)
    else:
        aggregate = app.new_game(game, [str(n) for n in seat_names], options, seed=seed)
        game_id = str(aggregate.id)
    decider = aggregate.decider
    moves = played_held(app, aggregate, played, chooser, max_moves, stop_after, until_seat)
    if check:
        _Checker(app, game_id).catch_up()
    state, version = aggregate.state, aggregate.version
    return _playout(app, game_id, decider, state, version, played, moves, issued, stop_after is None, max_moves)


def played_held(app: Caboose, aggregate: Game, levels: Sequence[str], chooser: random.Random, max_moves: int,
                stop_after: int | None = None, until_seat: int | None = None) -> int:
    """Play a stored game held in memory, each seat by the bot of its level, for as long as
    it goes on (`going`); then store what was played in one transaction. Returns the moves."""
    decider, game_id = aggregate.decider, str(aggregate.id)
    bots = [bot_of(decider, level) for level in levels]
    moves = 0
    try:
        while True:
            active = sorted(decider.active_seats(aggregate.state))
            if not going(moves, max_moves, stop_after, until_seat, active):
                break
            seat = chooser.choice(active)
            legal = decider.legal_moves(aggregate.state, seat)
            if not legal:
                raise InvariantBroken(game_id, aggregate.version, [f"seat {seat} is active but has no legal move"])
            move = bots[seat].choose(aggregate.state, seat, legal, chooser)
            # What `commands.Play` decides for a move, less the pipeline's load and commit.
            aggregate.play(seat, move, aggregate.randomness(), Stamp.now(str(uuid.uuid4()), request_digest(seat, move)))
            moves += 1
    finally:  # what was played is stored even when the play broke down, to be looked into
        if aggregate.pending_events:
            app.execute(Held(aggregate))
    return moves


@dataclass
class Table:
    """A game played in memory by bots: its final state and how long it took."""

    decider: Decider[Any]
    levels: tuple[str, ...]
    state: Any
    moves: int
    events: int


def play_in_memory(decider: Decider[Any], levels: Sequence[str], seed: bytes, chooser: random.Random,
                   max_moves: int = 20_000) -> Table:
    """One game to its end with the rules alone (no store): each seat played by the bot of
    its level, the outcomes drawn from `seed`, the bots' choices from `chooser`."""
    bots: list[Bot] = [bot_of(decider, level) for level in levels]
    setup = Setup(tuple(people.seat_names(len(levels), seed)), decider.options({}, len(levels)))
    state, rng = decider.initial_state(setup), SeededRandom(seed)
    events = 0
    for event in decider.setup(state, rng):
        state, events = decider.evolve(state, event), events + 1
    moves = 0
    while moves < max_moves:
        active = sorted(decider.active_seats(state))
        if not active:
            break
        seat = chooser.choice(active)
        move = bots[seat].choose(state, seat, decider.legal_moves(state, seat), chooser)
        decision = decider.decision(state, seat, move, rng)
        state, events, moves = decision.state, events + len(decision.events), moves + 1
    if not decider.is_over(state):
        raise AssertionError(f"{decider.name}: no end after {max_moves} moves ({', '.join(levels)})")
    return Table(decider, tuple(levels), state, moves, events)


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
