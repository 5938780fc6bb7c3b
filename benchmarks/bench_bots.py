"""How well the bots play, each level against the `random` level as the baseline of the same run.

    python benchmarks/bench_bots.py [--game ticket_to_ride] [--games 200] [--players 2,3,4,5] [--levels greedy] [--seed 1] [--text]

For each game (default: every game with a `greedy` level) and each player count, plays `--games`
games with every seat at each level above `playout` (`greedy`, `planner`; `--levels` to choose)
and the same deals with every seat `random`, rules alone in memory
(`service.simulation.play_in_memory`), and prints per level: games finished, mean and min final
score, the share of seats ending with a positive score, and for Ticket to Ride the share of kept
tickets completed. For two players it also plays each level against random, and each against the
level below it (the stronger seat alternating between seat 0 and 1), and prints the share of
games the first won outright.

Prints one JSON object per game and player count (`--text` for a table).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import games
from domain.core.decider import Decider
from domain.ticket_to_ride.scoring import connected, routes_of
from service import content
from service.simulation import Table, levels_of, play_in_memory

LEVEL = "greedy"
"""A game is benchmarked by default when it has this level."""
BASELINE = "random"


def seed_of(game: str, players: int, index: int) -> bytes:
    # The same deals for every level, so the levels are compared on equal games.
    return hashlib.sha256(f"bench-bots:{game}:{players}:{index}".encode()).digest()


def tickets_completed(table: Table, seat: int) -> tuple[int, int]:
    """Ticket to Ride: (kept tickets completed, kept tickets) of `seat`."""
    board, state = table.decider.board, table.state  # type: ignore[attr-defined]
    owned = routes_of(board, state, seat)
    kept = state.seats[seat].tickets
    return sum(connected(owned, board.tickets[t].a, board.tickets[t].b) for t in kept), len(kept)


EXTRAS: dict[str, Callable[[Table, int], tuple[int, int]]] = {"ticket_to_ride": tickets_completed}
"""Game -> (done, out of) for one seat, summed into a share: what "playing well" means there."""


def play(decider: Decider[Any], levels: Sequence[str], seed: bytes, index: int) -> Table | None:
    try:
        return play_in_memory(decider, levels, seed, random.Random(index))
    except AssertionError:
        return None


def level_figures(decider: Decider[Any], level: str, players: int, count: int, seed: int) -> dict[str, Any]:
    started = time.perf_counter()
    tables = [play(decider, [level] * players, seed_of(decider.name, players, seed * 100_000 + i), i) for i in range(count)]
    finished = [t for t in tables if t is not None]
    scores = [score for t in finished for score in decider.scores(t.state).values()]
    out: dict[str, Any] = {
        "games": count, "finished": len(finished),
        "mean_score": round(statistics.fmean(scores), 1) if scores else None,
        "min_score": min(scores) if scores else None,
        "positive_seats": round(sum(s > 0 for s in scores) / len(scores), 3) if scores else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    extra = EXTRAS.get(decider.name)
    if extra and finished:
        done = [extra(t, seat) for t in finished for seat in range(players)]
        out["tickets_completed"] = round(sum(d for d, _ in done) / max(1, sum(k for _, k in done)), 3)
    return out


def head_to_head(decider: Decider[Any], level: str, against: str, count: int, seed: int) -> dict[str, Any]:
    """Two players, `level` against `against`, the `level` seat alternating between 0 and 1."""
    won = finished = 0
    for i in range(count):
        seat = i % 2
        levels = [level, against] if seat == 0 else [against, level]
        table = play(decider, levels, seed_of(decider.name, 2, seed * 100_000 + i), i)
        if table is None:
            continue
        finished += 1
        won += _winners(decider, table) == [seat]
    return {"games": count, "finished": finished, "won": round(won / max(1, finished), 3)}


def _winners(decider: Decider[Any], table: Table) -> list[int]:
    """The game's own winners where its state records them (ties broken by its rules), else the best scores."""
    recorded = getattr(table.state, "winners", None)
    if recorded:
        return list(recorded)
    scores = decider.scores(table.state)
    best = max(scores.values())
    return [seat for seat, score in scores.items() if score == best]


def measured_levels(decider: Decider[Any], asked: str | None) -> list[str]:
    """The levels to measure: those asked for, or every level above `playout` the game has."""
    offered = levels_of(decider)
    if asked:
        return [level for level in asked.split(",") if level in offered]
    return [level for level in offered if level not in (BASELINE, "playout")]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (repeatable); default every game with a greedy level")
    parser.add_argument("--games", type=int, default=200, help="games per player count and level")
    parser.add_argument("--players", default=None, help="player counts, e.g. 2,3 (default: every count the game takes)")
    parser.add_argument("--levels", default=None, help="levels to measure, e.g. greedy (default: every level above playout)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--text", action="store_true", help="a table instead of JSON lines")
    args = parser.parse_args(argv)
    content.install()
    names = args.game or [name for name in games.names() if LEVEL in games.current(name).bots]
    for name in names:
        decider = games.current(name)
        counts = ([int(p) for p in args.players.split(",")] if args.players
                  else list(range(decider.min_seats, decider.max_seats + 1)))
        levels = measured_levels(decider, args.levels)
        for players in counts:
            row: dict[str, Any] = {"game": name, "players": players, "levels": {
                level: level_figures(decider, level, players, args.games, args.seed) for level in [*levels, BASELINE]}}
            if players == 2:
                # Each level against random, and each against the level below it.
                pairs = [(level, BASELINE) for level in levels] + list(zip(levels[1:], levels, strict=False))
                row["head_to_head"] = {f"{a} vs {b}": head_to_head(decider, a, b, args.games, args.seed) for a, b in pairs}
            print(text(row) if args.text else json.dumps(row), flush=True)


def text(row: dict[str, Any]) -> str:
    lines = [f"{row['game']}, {row['players']} players:"]
    for level, f in row["levels"].items():
        tickets = f" tickets completed {f['tickets_completed']:.0%}" if "tickets_completed" in f else ""
        lines.append(f"  {level:<7} finished {f['finished']}/{f['games']}  mean {f['mean_score']}  min {f['min_score']}  "
                     f"positive seats {f['positive_seats']:.0%}{tickets}  ({f['seconds']} s)")
    for pair, h in row.get("head_to_head", {}).items():
        a, b = pair.split(" vs ")
        lines.append(f"  {a} beat {b} in {h['won']:.0%} of {h['finished']} games")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
