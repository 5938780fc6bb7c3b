"""What the bot runner costs per move, against the same moves played directly.

    python benchmarks/bots_runner.py [--games 3] [--game ticket_to_ride] [--seats 2]

Games whose every seat is held by a `playout` bot are played to the end by `BotRunner` on a
SQLite file: each move is chosen by the bot, sent through `Caboose.play` with its expected
version and idempotency key, and the runner reads the game's last record to see what is due.
The baseline, measured in the same run on another file, plays the same games with the same
bot and the same choosers through `Caboose.play` directly, without the runner. Prints one
JSON object: moves per second both ways and their ratio (1.0: the runner adds nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import bots, command_ids
from service.application import Caboose
from service.lobby import Lobby
from service.settings import Settings
from service.simulation import game_seed

RUNNERS: dict[int, bots.BotRunner] = {}


def by_runner(app: Caboose, game: str, seats: int, index: int) -> int:
    bots.open_game(Lobby(app), game, [f"bot {s}" for s in range(seats)], {}, game_seed(index, 0),
                   {str(s): "playout" for s in range(seats)})
    runner = RUNNERS.setdefault(id(app), bots.BotRunner(app))  # one runner, as a deployment has
    return runner.run_once()


def directly(app: Caboose, game: str, seats: int, index: int) -> int:
    game_id, _ = Lobby(app).open_game(game, [f"bot {s}" for s in range(seats)], {}, game_seed(index, 0))
    moves = 0
    while not (state := app.game(game_id)).is_over:
        seat = min(state.decider.active_seats(state.state))
        legal = state.decider.legal_moves(state.state, seat)
        move = state.decider.bots["playout"].choose(state.state, seat, legal, bots.chooser_for(game_id, state.version, seat))
        app.play(game_id, seat, move, expected_version=state.version, idempotency_key=command_ids.bot_move(game_id, state.version))
        moves += 1
    return moves


def measure(play: object, folder: str, game: str, seats: int, games: int) -> tuple[int, float]:
    app = Caboose(Settings(db=f"sqlite:///{folder}/bench.sqlite"))
    moves, start = 0, time.perf_counter()
    for index in range(games):
        moves += play(app, game, seats, index)  # type: ignore[operator]
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--game", default="ticket_to_ride")
    parser.add_argument("--seats", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as runner_dir, tempfile.TemporaryDirectory() as direct_dir:
        direct_moves, direct_seconds = measure(directly, direct_dir, args.game, args.seats, args.games)
        runner_moves, runner_seconds = measure(by_runner, runner_dir, args.game, args.seats, args.games)
    direct_rate, runner_rate = direct_moves / direct_seconds, runner_moves / runner_seconds
    print(json.dumps({"game": args.game, "seats": args.seats, "games": args.games,
                      "runner_moves": runner_moves, "runner_moves_per_second": round(runner_rate, 1),
                      "direct_moves": direct_moves, "direct_moves_per_second": round(direct_rate, 1),
                      "ratio": round(runner_rate / direct_rate, 2)}))


if __name__ == "__main__":
    main()
