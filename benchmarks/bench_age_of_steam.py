"""Age of Steam rules benchmarks, each figure with its baseline from the same run.

    python benchmarks/bench_age_of_steam.py [--games 20] [--seed 1]

- Random complete games per second, rules alone in memory (the decider, `SeededRandom`,
  the decider's `playout_choice`), against the same number of random Ticket to Ride games.
- Legal-move listing during build turns on a crowded late-game board: the build states of
  the last turns of the most built-up of a few random games, `legal_moves` timed on each;
  median and max ms. Target: under 20 ms.
- Full re-adjudication (`domain.core.audit.audit`) of a stored game, in events per second,
  against a plain fold (`domain.core.fold.replay`) of the same records.

Prints JSON. Machines here are noisy: read the ratios, and run it twice.
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

from domain import games
from domain.age_of_steam.state import BUILD
from domain.core.audit import audit
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one
from tests.rust_belt import DECIDER as AOS

TTR = games.current("ticket_to_ride")  # the rules bound to the shipped USA map


def seed_of(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"bench-age-of-steam:{seed}:{index}".encode()).digest()


def play(decider: Any, players: int, seed: bytes, chooser: random.Random, watch: Any = None,
         max_moves: int = 20_000) -> tuple[Any, int]:
    """One random game, rules alone; returns the final state and the number of events."""
    state = decider.initial_state(Setup(tuple(f"p{i}" for i in range(players)), decider.options({}, players)))
    rng = SeededRandom(seed)
    events = 0
    for event in decider.setup(state, rng):
        state = decider.evolve(state, event)
        events += 1
    for _ in range(max_moves):
        active = sorted(decider.active_seats(state))
        if not active:
            break
        seat = chooser.choice(active)
        if watch is not None:
            watch(state, seat)
        moves = decider.legal_moves(state, seat)
        move = decider.playout_choice(state, seat, moves, chooser) or chooser.choice(moves)
        for event in decider.decide(state, seat, move, rng):
            state = decider.evolve(state, event)
            events += 1
    assert decider.is_over(state), "a random game did not end"
    return state, events


def games_per_second(decider: Any, games: int, players: int, seed: int) -> dict[str, Any]:
    chooser = random.Random(seed)
    events = 0
    started = time.perf_counter()
    for index in range(games):
        events += play(decider, players, seed_of(seed, index), chooser)[1]
    elapsed = time.perf_counter() - started
    return {"games": games, "players": players, "seconds": round(elapsed, 3), "games_per_s": round(games / elapsed, 2),
            "events_per_game": round(events / games, 1)}


def legal_moves_late(seed: int, candidates: int = 6) -> dict[str, Any]:
    """Build-turn states from the last turns of the most built-up of a few random games."""
    best: tuple[int, list[tuple[Any, int]]] = (-1, [])
    for index in range(candidates):
        builds: list[tuple[Any, int]] = []

        def watch(state: Any, seat: int, builds: list[tuple[Any, int]] = builds) -> None:
            if state.phase == BUILD:
                builds.append((state, seat))

        final, _ = play(AOS, 4, seed_of(seed + 1000, index), random.Random(seed + index), watch)
        if not builds:
            continue
        last_turn = max(state.turn for state, _ in builds)
        late = [(state, seat) for state, seat in builds if state.turn >= last_turn - 1]
        if len(final.board) > best[0]:
            best = (len(final.board), late)
    hexes, late = best
    timings: list[float] = []
    moves: list[int] = []
    for state, seat in late:
        for _ in range(3):
            started = time.perf_counter()
            listed = AOS.legal_moves(state, seat)
            timings.append((time.perf_counter() - started) * 1000)
        moves.append(len(listed))
    return {"states": len(late), "board_hexes_at_end": hexes,
            "board_hexes_timed": [min(len(s.board) for s, _ in late), max(len(s.board) for s, _ in late)],
            "moves_listed": {"median": statistics.median(moves), "max": max(moves)},
            "median_ms": round(statistics.median(timings), 3), "max_ms": round(max(timings), 3), "target_ms": 20,
            "met": max(timings) < 20}


def adjudication(seed: int, repeats: int = 3) -> dict[str, Any]:
    app = Caboose(Settings(db="memory"))
    game_id = play_one(app, "age_of_steam", 4, game_seed(seed, 0), random.Random(seed), check=False).game_id
    records = app.records(game_id)
    fold = min(_timed(lambda: fold.replay(records)) for _ in range(repeats))
    report = audit(records)
    judged = min(_timed(lambda: audit(records)) for _ in range(repeats))
    app.close()
    return {"events": len(records), "audit_ok": report.ok, "rules_check": report.rules.detail,
            "audit_events_per_s": round(len(records) / judged), "replay_events_per_s": round(len(records) / fold),
            "audit_over_replay_time": round(judged / fold, 1)}


def _timed(work: Any) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    steam = games_per_second(AOS, args.games, args.players, args.seed)
    ride = games_per_second(TTR, args.games, args.players, args.seed)
    out = {
        "random_games": {"age_of_steam": steam, "ticket_to_ride_baseline": ride,
                         "age_of_steam_over_ticket_to_ride_time": round(steam["seconds"] / ride["seconds"], 2)},
        "legal_moves_build_late": legal_moves_late(args.seed),
        "re_adjudication": adjudication(args.seed),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
