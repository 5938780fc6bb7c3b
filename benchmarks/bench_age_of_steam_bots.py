"""Age of Steam bots: the `greedy` level against the `random` and `playout` levels, every seat
of a game played by one level, the same seeds for every level, all in one run.

    python benchmarks/bench_age_of_steam_bots.py [--games 200] [--players 3 4 5 6] [--seed 1]
        [--levels greedy playout random] [--start 0] [--log games.jsonl]
    python benchmarks/bench_age_of_steam_bots.py --summarize games.jsonl [more.jsonl ...] [--markdown]

Per level and player count: the share of games that end with at least one solvent seat (not
bankrupt), seats bankrupt per game, track hexes on the final board (mean, min, deciles, share
with 60+), the mean final score of the seats still in, deliveries per game, and games per
second (rules and bot alone, in memory). Prints JSON, one line per level and count, then the
whole table. Issue 16's target for `greedy`: ≥ 98 % of games with a solvent seat and boards of
60+ track hexes.

`--log` appends one JSON line per game as it ends (level, players, index, the game's figures and
its CPU seconds), so a long run can be stopped and summarized as far as it got; `--start N` plays
the games from index N on (game N has the same seed whatever the run), so a sample grows by
later runs. `--summarize` prints the table from such lines (each game counted once).
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


def game_row(level: str, players: int, seed: int, index: int) -> dict[str, Any]:
    """One game's figures, as one `--log` line."""
    started = time.process_time()
    state, delivered = play(level, players, seed_of(seed, players, index), seed * 1_000_003 + index)
    live = [seat for seat in state.seats if not seat.eliminated]
    return {
        "level": level, "players": players, "seed": seed, "index": index,
        "solvent": bool(live), "bankrupt": len(state.seats) - len(live), "delivered": delivered,
        "hexes": len(state.board), "scores": [seat.final_vp for seat in live if seat.final_vp is not None],
        "cpu_s": round(time.process_time() - started, 3),
    }


def summary(rows: list[dict[str, Any]], elapsed: float | None = None) -> dict[str, Any]:
    """The figures of one level and player count from its games' rows."""
    games = len(rows)
    hexes = [row["hexes"] for row in rows]
    scores = [score for row in rows for score in row["scores"]]
    cpu = sum(row["cpu_s"] for row in rows)
    return {
        "level": rows[0]["level"], "players": rows[0]["players"], "games": games,
        "games_with_a_solvent_seat": round(sum(row["solvent"] for row in rows) / games, 3),
        "bankrupt_seats_per_game": round(sum(row["bankrupt"] for row in rows) / games, 2),
        "track_hexes": {"mean": round(statistics.mean(hexes), 1), "min": min(hexes), "max": max(hexes),
                        "deciles": deciles(hexes), "share_60_plus": round(sum(h >= 60 for h in hexes) / games, 3)},
        "mean_final_score": round(statistics.mean(scores), 1) if scores else None,
        "deliveries_per_game": round(sum(row["delivered"] for row in rows) / games, 1),
        "cpu_s_per_game": round(cpu / games, 2),
        **({"games_per_s": round(games / elapsed, 3)} if elapsed else {}),
    }


def measure(level: str, players: int, games: int, seed: int, start: int = 0, log: Path | None = None) -> dict[str, Any]:
    rows = []
    started = time.perf_counter()
    for index in range(start, start + games):
        row = game_row(level, players, seed, index)
        rows.append(row)
        if log is not None:
            with log.open("a") as out:
                out.write(json.dumps(row) + "\n")
    return summary(rows, time.perf_counter() - started)


def summarize(paths: list[Path]) -> list[dict[str, Any]]:
    """The table from `--log` files: one row per level and player count, each game once."""
    games: dict[tuple[str, int, int, int], dict[str, Any]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                games[(row["level"], row["players"], row["seed"], row["index"])] = row
    by: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for (level, players, _, _), row in sorted(games.items()):
        by.setdefault((players, level), []).append(row)
    return [summary(rows) for _, rows in sorted(by.items())]


def markdown(rows: list[dict[str, Any]]) -> str:
    """The table as docs/performance.md shows it."""
    lines = ["| players | level | games | games with a solvent seat | bankrupt seats / game | track hexes: mean (min–max) "
             "| deciles 10 %…90 % | games with 60+ | mean final score | deliveries / game | CPU s / game |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        hexes = row["track_hexes"]
        score = row["mean_final_score"]
        lines.append(
            f"| {row['players']} | {row['level']} | {row['games']} | {row['games_with_a_solvent_seat']:.1%} "
            f"| {row['bankrupt_seats_per_game']:.2f} | {hexes['mean']:.1f} ({hexes['min']}–{hexes['max']}) "
            f"| {' '.join(f'{d:g}' for d in hexes['deciles'])} | {hexes['share_60_plus']:.0%} "
            f"| {'–' if score is None else f'{score:.1f}'.replace('-', '−')} | {row['deliveries_per_game']:.1f} "
            f"| {row['cpu_s_per_game']:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--levels", nargs="+", default=["greedy", "playout", "random"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="the first game's index")
    parser.add_argument("--log", type=Path, help="append one JSON line per game to this file")
    parser.add_argument("--summarize", type=Path, nargs="+", help="print the table from --log files, play nothing")
    parser.add_argument("--markdown", action="store_true", help="with --summarize: the table in Markdown")
    args = parser.parse_args()
    if args.summarize:
        rows = summarize(args.summarize)
        print(markdown(rows) if args.markdown else "\n".join(json.dumps(row) for row in rows))
        return
    table = []
    for players in args.players:
        for level in args.levels:
            row = measure(level, players, args.games, args.seed, args.start, args.log)
            print(json.dumps(row), flush=True)
            table.append(row)
    print(json.dumps({"games": args.games, "seed": args.seed, "start": args.start, "rows": table}, indent=1))


if __name__ == "__main__":
    main()
