"""Age of Steam bots: the `greedy` level against the `random` and `playout` levels, every seat
of a game played by one level, the same seeds for every level, all in one run.

    python benchmarks/bench_age_of_steam_bots.py [--games 200] [--players 3 4 5 6] [--seed 1]
        [--levels greedy playout random]

Per level and player count: the share of games that end with at least one solvent seat (not
bankrupt), seats bankrupt per game, track hexes on the final board (mean, min, deciles, share
with 60+), the mean final score of the seats still in, deliveries per game, and games per
second (rules and bot alone, in memory). Prints JSON, one line per level and count, then the
whole table. Issue 16's target for `greedy`: ≥ 98 % of games with a solvent seat and boards of
60+ track hexes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.age_of_steam.state import State
from domain.core.bots import bot_of
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from tests.rust_belt import DECIDER as AOS


def seed_of(seed: int, players: int, index: int) -> bytes:
    return hashlib.sha256(f"bench-age-of-steam-bots:{seed}:{players}:{index}".encode()).digest()


def play(level: str, players: int, seed: bytes, chooser_seed: int, max_moves: int = 20_000) -> tuple[State, int]:
    """One game with every seat played by `level`; the final state and its deliveries."""
    bot = bot_of(AOS, level)
    state = AOS.initial_state(Setup(tuple(f"p{i}" for i in range(players)), AOS.options({}, players)))
    rng = SeededRandom(seed)
    chooser = random.Random(chooser_seed)
    for event in AOS.setup(state, rng):
        state = AOS.evolve(state, event)
    delivered = 0
    for _ in range(max_moves):
        active = sorted(AOS.active_seats(state))
        if not active:
            break
        seat = active[0]
        move = bot.choose(state, seat, AOS.legal_moves(state, seat), chooser)
        for event in AOS.decide(state, seat, move, rng):
            delivered += event.kind == "GoodsDelivered"
            state = AOS.evolve(state, event)
    assert AOS.is_over(state), f"a {level} game did not end"
    return state, delivered


def deciles(values: list[int]) -> list[float]:
    return [round(q, 1) for q in statistics.quantiles(values, n=10)] if len(values) > 1 else list(map(float, values))


def measure(level: str, players: int, games: int, seed: int) -> dict[str, Any]:
    solvent_games = bankrupt = delivered = 0
    hexes: list[int] = []
    scores: list[int] = []
    started = time.perf_counter()
    for index in range(games):
        state, count = play(level, players, seed_of(seed, players, index), seed * 1_000_003 + index)
        live = [seat for seat in state.seats if not seat.eliminated]
        solvent_games += bool(live)
        bankrupt += len(state.seats) - len(live)
        delivered += count
        hexes.append(len(state.board))
        scores += [seat.final_vp for seat in live if seat.final_vp is not None]
    elapsed = time.perf_counter() - started
    return {
        "level": level, "players": players, "games": games,
        "games_with_a_solvent_seat": round(solvent_games / games, 3),
        "bankrupt_seats_per_game": round(bankrupt / games, 2),
        "track_hexes": {"mean": round(statistics.mean(hexes), 1), "min": min(hexes), "max": max(hexes),
                        "deciles": deciles(hexes), "share_60_plus": round(sum(h >= 60 for h in hexes) / games, 3)},
        "mean_final_score": round(statistics.mean(scores), 1) if scores else None,
        "deliveries_per_game": round(delivered / games, 1),
        "games_per_s": round(games / elapsed, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--levels", nargs="+", default=["greedy", "playout", "random"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = []
    for players in args.players:
        for level in args.levels:
            row = measure(level, players, args.games, args.seed)
            print(json.dumps(row), flush=True)
            table.append(row)
    print(json.dumps({"games": args.games, "seed": args.seed, "rows": table}, indent=1))


if __name__ == "__main__":
    main()
