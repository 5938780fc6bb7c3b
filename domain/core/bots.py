"""Bots: players the rules can seat, one interface for every game and level.

A bot is pure domain code: given the state, its seat and that seat's legal moves, it picks
one. It never reads a clock or the global random generator: its randomness comes in as a
`random.Random` the caller seeds (the service seeds it from the game and its version, so a
bot's choice is reproducible from the record). Its moves go through `decide` like anyone's,
so audit re-adjudicates them like any other.

Every game has the `random` level (a uniformly random legal move) and the `playout` level
(the game's `playout_choice`, the steered play simulations have always used). A game offers
stronger levels (`greedy`, `planner`) by overriding `Decider.bots`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from domain.core.errors import MalformedMove

Move = dict[str, Any]

LEVELS = ("random", "playout", "greedy", "planner")
"""Every level a game may offer, weakest first (a game offers `random` and `playout` at least)."""


class Bot(ABC):
    """One level of play for one game."""

    level: str

    @abstractmethod
    def choose(self, state: Any, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        """One of `moves` (the seat's legal moves now, never empty) for `seat` to play."""


class Rules(Protocol):
    """What a bot asks of a game's rules (every `Decider` answers it): the game's name, the
    levels it offers and its steered playout move."""

    @property
    def name(self) -> str: ...

    @property
    def bots(self) -> Mapping[str, Bot]: ...

    def playout_choice(self, state: Any, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move | None: ...


class RandomBot(Bot):
    """A uniformly random legal move: for fuzzing, never for a seat a person watches."""

    level = "random"

    def choose(self, state: Any, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        return chooser.choice(list(moves))


class PlayoutBot(Bot):
    """The game's `playout_choice`, falling back to a random move where it has no opinion."""

    level = "playout"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def choose(self, state: Any, seat: int, moves: Sequence[Move], chooser: random.Random) -> Move:
        return self.rules.playout_choice(state, seat, moves, chooser) or chooser.choice(list(moves))


def bot_of(rules: Rules, level: str) -> Bot:
    """The bot of `level` for `rules`, or `MalformedMove` (code `unknown_bot`) naming the
    levels this game offers."""
    offered = rules.bots
    if level not in offered:
        raise MalformedMove("unknown_bot", f"{rules.name} has no {level!r} bot; its levels are "
                                           f"{', '.join(sorted(offered, key=_strength))}.")
    return offered[level]


def _strength(level: str) -> int:
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)


def base_bots(rules: Rules) -> Mapping[str, Bot]:
    """The levels every game has."""
    return {"random": RandomBot(), "playout": PlayoutBot(rules)}
