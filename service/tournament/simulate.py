"""A whole tournament played by bots through the same application as real play
(`caboose tournament simulate`): created, every player registered, each round paired by the
organiser, each table's game played to its end by bots of the level asked for (each move
adjudicated by the game's aggregate, the game stored in one transaction, as `caboose
simulate` stores its games), the results settled, until the tournament ends and reveals its
secret. The run repeats exactly from its seed: the secret and every chooser are derived
from it."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain import games
from service import people
from service.simulation import played_held, seat_levels
from service.tournament.organiser import Organiser
from service.tournament.views import computed, meetings

MAX_ROUNDS = 100


@dataclass(frozen=True)
class Simulated:
    tournament_id: str
    rounds: int
    tables: int
    moves: int
    summary: dict[str, Any]
    referee_token: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"tournament_id": self.tournament_id, "rounds": self.rounds, "tables": self.tables, "moves": self.moves,
                **self.summary}


def secret_of(seed: int) -> bytes:
    return hashlib.sha256(f"caboose-tournament:{seed}".encode()).digest()


def simulate(organiser: Organiser, game: str, players: int, kind: str, rounds: int, levels: str, seed: int,
             table_size: int | None = None, options: dict[str, Any] | None = None,
             progress: Callable[[dict[str, Any]], None] | None = None, names: Sequence[str] | None = None,
             **settings: Any) -> Simulated:
    """Play a tournament of `players` bots (named `names`, else by `people.seat_names`) to its end;
    `progress` hears of each round played."""
    decider = games.current(game)
    seat_levels(decider, levels, decider.min_seats)  # an unknown level is refused before anything is stored
    created = organiser.create(f"Simulated {game} {kind} (seed {seed})", game, kind=kind, rounds=rounds,
                               table_size=table_size, options=options, secret=secret_of(seed), **settings)
    tournament_id = created.tournament_id
    for name in names or people.seat_names(players, seed):
        organiser.register(tournament_id, name)
    tables = moves = 0
    for _ in range(MAX_ROUNDS):
        if organiser.shelf.get(tournament_id).state.finished:
            break
        opened = organiser.pair(tournament_id)
        for table in opened:
            chooser = random.Random(f"{seed}:{table.round}:{table.table}")
            aggregate = organiser.caboose.game(str(table.game_id))  # seeded tables: opened with their round
            moves += played_held(organiser.caboose, aggregate, seat_levels(aggregate.decider, levels, len(table.seats)),
                                 chooser, 20_000)
        tables += len(opened)
        organiser.settle(tournament_id)
        if progress is not None:
            progress({"rounds": sorted({t.round for t in opened}), "tables": len(opened)})
    tournament = organiser.shelf.get(tournament_id)
    state = tournament.state
    top = computed(tournament)["standings"][:3]
    summary = {"game": game, "format": kind, "players": players, "finished": state.finished,
               "top": [{"rank": r["rank"], "player": r["player"], "points": r["points"], "wins": r["wins"]} for r in top],
               **meetings(state)}
    return Simulated(tournament_id, len(state.rounds), tables, moves, summary, created.referee_token)
