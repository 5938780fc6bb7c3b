"""The latest loaded state of recently used games, shared by a process's requests.

An entry is never changed once it is put: a request folds new events onto a copy of it and
puts that copy back, and callers are handed copies of their own. So a request that loses a
race, or changes its game and then fails, leaves no trace for the next one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, Protocol, TypeVar
from uuid import UUID


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


G = TypeVar("G", bound=Versioned)


class GameCache(Generic[G]):
    def __init__(self, maxsize: int = 1000) -> None:
        self.maxsize = maxsize
        self._games: OrderedDict[UUID, G] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: UUID) -> G | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def put(self, game_id: UUID, game: G) -> None:
        """Keep `game` unless a later version of it is cached already (requests finish in
        any order). The caller must not change `game` afterwards."""
        with self._lock:
            cached = self._games.get(game_id)
            if cached is None or cached.version < game.version:
                self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.maxsize:
                self._games.popitem(last=False)

    def forget(self, game_id: UUID) -> None:
        with self._lock:
            self._games.pop(game_id, None)
