"""Memory per cached game: the games a server process keeps in `Caboose.cache` (1,000 by
default), of every shipped title, part-played to mixed lengths and some to the end.

    python benchmarks/bench_memory.py [--games 1000] [--store DIR]

The games are played into a SQLite store first (not measured); then a fresh application
loads each one once, which puts it in its cache, and `tracemalloc` counts the memory the
cache holds: the traced memory after loading them, less before (with one game of each title
loaded and dropped first, so the rules' own tables, loaded once per process, are not counted
against the games). Also the largest holders by source line, which is where to cut. Target:
at most 100 KB a game (issue 32).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import games
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one


def generate(db: str, count: int, finished: bool = False) -> list[str]:
    """`count` games of every title in turn, played by bots into the store at `db` (those it
    holds already count); `finished`: every game to its end (an archive, `bench_jobs.py`)."""
    app = Caboose(Settings(db=db))
    have = app.game_ids()
    chooser = random.Random(32)
    titles = sorted(games.names())
    for index in range(len(have), count):
        title = titles[index % len(titles)]
        decider = games.current(title)
        seats = chooser.randint(decider.min_seats, decider.max_seats)
        # Three in four part-played (10 to 150 moves), one in four to the end.
        stop = None if index % 4 == 3 or finished else chooser.randint(10, 150)
        have.append(play_one(app, title, seats, game_seed(32, index), chooser, check=False, stop_after=stop).game_id)
        if index % 100 == 99:
            print(f"  played {index + 1} games", file=sys.stderr)
    app.close()
    return have[:count]


def measure(db: str, ids: list[str]) -> dict[str, Any]:
    app = Caboose(Settings(db=db))
    app.cache.maxsize = len(ids)
    titles: dict[str, str] = {}
    for game_id in ids:  # one of each title, loaded and dropped: the per-process tables
        title = app.records(game_id, limit=1)[0]["data"]["game"]
        if title not in titles.values():
            titles[game_id] = title
            app.game(game_id)
    app.cache._games.clear()
    events = 0
    gc.collect()
    tracemalloc.start(12)
    before = tracemalloc.take_snapshot()
    started = time.perf_counter()
    for game_id in ids:
        events += app.game(game_id).version
    seconds = time.perf_counter() - started
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    by_line = after.compare_to(before, "lineno")[:12]
    per_title: Counter[str] = Counter()
    for game_id in ids:
        per_title[app.records(game_id, limit=1)[0]["data"]["game"]] += 1
    return {
        "games": len(ids), "games_by_title": dict(per_title), "events": events,
        "bytes_held": held, "kb_per_cached_game": round(held / len(ids) / 1024, 1),
        "bytes_per_event": round(held / events, 1), "load_seconds": round(seconds, 1), "target_kb": 100,
        "largest_holders": [{"where": f"{s.traceback[0].filename.rsplit('/', 3)[-1]}:{s.traceback[0].lineno}",
                             "kb": round(s.size_diff / 1024, 1), "blocks": s.count_diff} for s in by_line],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--store", default=None, help="Directory for the SQLite store (kept between runs).")
    args = parser.parse_args()
    folder = Path(args.store or tempfile.mkdtemp(prefix="caboose-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = f"sqlite:///{folder}/events.sqlite"
    ids = generate(db, args.games)
    print(json.dumps(measure(db, ids), indent=2))


if __name__ == "__main__":
    main()
