"""Toot-Toot Train's bots, level against level, on every reference map and player count.

    python benchmarks/bench_toot_toot_bot.py [--games 20] [--seed 1] [--maps harbour,forest,ridge]
                                             [--players 2,3,4] [--levels greedy,before,random]

For each map and player count, the same seeded games (same setup and dice) are played by every
seat at one level, rules alone in memory (the decider, `SeededRandom`, the level's `Bot`). Per
level: games ended by the 25-point end trigger against games stopped by the round limit (R31),
the mean final score per seat, the mean goods sold per seat, the mean rounds played and the
mean penalty tokens per seat. The first level is measured; the others are baselines: `before`,
the `playout` level as it was before the planner (its bot and route modules read from git at
commit 3b85fca; needs the repository's history), and `random` (a uniformly random legal
move). The table prints each figure beside the `before` one with the ratio. (`playout` itself
uses the same planner as `greedy` now, so it is no baseline.)

Prints one JSON line per map and player count, then a Markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.core.bots import Bot
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from domain.toot_toot.decider import TootToot
from service.content import load_folder

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "domain" / "toot_toot" / "packs" / "reference"
RULES = TootToot(load_folder(PACK))
BEFORE = "3b85fca"
"""The last commit with the playout bot before the sales planner."""


def module_at(commit: str, path: str, name: str, replace: tuple[str, str] = ("", "")) -> types.ModuleType:
    source = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source.replace(*replace), f"{commit}:{path}", "exec"), module.__dict__)
    return module


class BeforeBot(Bot):
    """The `playout` level as it was at `BEFORE`."""

    level = "before"

    def __init__(self) -> None:
        module_at(BEFORE, "domain/toot_toot/route.py", "toot_route_before")
        self.old = module_at(BEFORE, "domain/toot_toot/bot.py", "toot_bot_before",
                             ("from domain.toot_toot.route import", "from toot_route_before import"))

    def choose(self, state: Any, seat: int, moves: Any, chooser: random.Random) -> dict[str, Any]:
        move = self.old.choose(RULES.ctx(state, seat), moves, chooser)
        return move if move is not None else chooser.choice(list(moves))


def bot_for(level: str) -> Bot:
    return BeforeBot() if level == "before" else RULES.bots[level]


@dataclass
class Game:
    triggered: bool
    scores: list[int]
    sold: list[int]
    penalties: list[int]
    rounds: int


def play(level: str, map_id: str, players: int, index: int, seed: int) -> Game:
    """Game `index` of the run: its setup and dice depend on the map, player count and index
    only, so every level plays the same opening."""
    label = f"bench-toot-toot-bot:{seed}:{map_id}:{players}:{index}"
    rng = SeededRandom(hashlib.sha256(label.encode()).digest())
    chooser = random.Random(label)
    bot = bot_for(level)
    state = RULES.initial_state(Setup(tuple(f"p{i}" for i in range(players)), RULES.options({"map": map_id}, players)))
    for event in RULES.setup(state, rng):
        state = RULES.evolve(state, event)
    sold = [0] * players
    for _ in range(50_000):
        active = sorted(RULES.active_seats(state))
        if not active:
            break
        seat = active[0]
        move = bot.choose(state, seat, RULES.legal_moves(state, seat), chooser)
        for event in RULES.decide(state, seat, move, rng):
            if event.kind == "GoodsSold":
                sold[seat] += sum(count for _, _, count in event.data["fills"])
            state = RULES.evolve(state, event)
    assert RULES.is_over(state), f"{level} {map_id} {players}p game {index} did not end"
    scores = RULES.scores(state)
    return Game(state.last_round is not None, [scores[s] for s in range(players)], sold,
                [s.penalties for s in state.seats], state.round)  # the counter stops at the last round


def figures(games: list[Game]) -> dict[str, Any]:
    return {
        "trigger": sum(g.triggered for g in games),
        "round_limit": sum(not g.triggered for g in games),
        "score": round(statistics.mean(s for g in games for s in g.scores), 1),
        "sold": round(statistics.mean(s for g in games for s in g.sold), 1),
        "rounds": round(statistics.mean(g.rounds for g in games), 1),
        "penalties": round(statistics.mean(p for g in games for p in g.penalties), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--maps", default=",".join(m.id for m in RULES.content.maps))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--levels", default="greedy,before,random", help="the measured level first, then baselines")
    args = parser.parse_args()
    levels = args.levels.split(",")
    rows = []
    for map_id in args.maps.split(","):
        for players in (int(p) for p in args.players.split(",")):
            line: dict[str, Any] = {"map": map_id, "players": players, "games": args.games}
            for level in levels:
                started = time.perf_counter()
                line[level] = figures([play(level, map_id, players, i, args.seed) for i in range(args.games)])
                line[level]["seconds"] = round(time.perf_counter() - started, 1)
            print(json.dumps(line), flush=True)
            rows.append(line)
    measured, baseline = levels[0], levels[1] if len(levels) > 1 else levels[0]
    others = levels[1:]
    print(f"\n| map | players | trigger / round limit: {measured} ({'; '.join(others)}) | mean score | mean goods sold "
          f"| mean rounds | penalty tokens |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for line in rows:
        m, b = line[measured], line[baseline]
        ends = "; ".join(f"{line[level]['trigger']} / {line[level]['round_limit']}" for level in others)
        print(f"| {line['map']} | {line['players']} | {m['trigger']} / {m['round_limit']} "
              f"({ends}) | {pair(m, b, 'score')} | {pair(m, b, 'sold')} "
              f"| {pair(m, b, 'rounds')} | {m['penalties']} ({b['penalties']}) |")


def pair(measured: dict[str, Any], baseline: dict[str, Any], key: str) -> str:
    """A figure with its baseline in brackets, and their ratio when the baseline is above 0."""
    ratio = f", ×{measured[key] / baseline[key]:.1f}" if baseline[key] > 0 else ""
    return f"{measured[key]} ({baseline[key]}{ratio})"

if __name__ == "__main__":
    main()
