"""Where a replay's time goes, per event: each part of reading a stored game and folding it.

    python benchmarks/profile_replay.py [--games 3] [--repeat 15] [--kinds]

Plays `--games` random four-seat Ticket to Ride games into a fresh SQLite store, then times,
over their stored rows, each part of what `bench_store.py`'s replay does (`Caboose.records`
then `fold.replay`), cumulatively: selecting the rows; orjson parsing their stored JSON; the
transcoder's decoding (orjson and its own work); the mapper (the library's event, with the
decoding); the records read (the rows selected and mapped); the typed events built from the
records; the fold of those events (`fold.step` in a transient) and, of it, the game's own
`evolve` called on the game's own events alone; `fold.replay` of the records;
the whole replay. Also the library's own read of the same rows (`select_events`), the
baseline of the issue-32 ratio. Each figure is the least CPU time (`time.process_time`) of
`--repeat` rounds, per event: CPU time leaves out what the machine's other work takes from
the wall clock, not all of what it does to the caches; run it twice.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
import timeit
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.core import fold, log
from domain.core.envelope import to_event
from domain.core.kinds import CORE
from domain.core.state import transient
from service import stored
from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed, play_one


def profile(app: Caboose, ids: list[str], repeat: int) -> dict[str, float]:
    keys = [uuid.UUID(game_id) for game_id in ids]
    rows = [stored._stored_events(app, key) for key in keys]
    events = sum(len(game_rows) for game_rows in rows)
    transcoder, mapper = app.mapper.transcoder, app.mapper
    records = [app.records(game_id) for game_id in ids]
    deciders = [log.decider_of(game[0]["data"]) for game in records]
    typed = [[to_event(record, decider.catalogue) for record in game[1:]] for game, decider in zip(records, deciders, strict=True)]

    # The game's own events, for its `evolve` alone (the core's kinds are `fold.step`'s).
    own = [[event for event in game_events if event.kind not in CORE] for game_events in typed]

    def evolved() -> None:
        for game, decider, game_events in zip(records, deciders, own, strict=True):
            state = decider.initial_state(log.setup_of(game[0]["data"]))
            with transient():
                for event in game_events:
                    state = decider.evolve(state, event)

    def folded() -> None:
        for game, decider, game_events in zip(records, deciders, typed, strict=True):
            state = decider.initial_state(log.setup_of(game[0]["data"]))
            with transient():
                for event in game_events:
                    state = fold.step(decider, state, event)

    parts: dict[str, Callable[[], Any]] = {
        "library_read": lambda: [app.recorder.select_events(key) for key in keys],
        "select": lambda: [stored._stored_events(app, key) for key in keys],
        "orjson_parse": lambda: [[orjson.loads(row.state) for row in game_rows] for game_rows in rows],
        "transcoder_decode": lambda: [[transcoder.decode(row.state) for row in game_rows] for game_rows in rows],
        "mapper": lambda: [[mapper.to_domain_event(row) for row in game_rows] for game_rows in rows],
        "records": lambda: [app.records(game_id) for game_id in ids],
        "typed_events": lambda: [[to_event(record, decider.catalogue) for record in game[1:]]
                                 for game, decider in zip(records, deciders, strict=True)],
        "fold_steps": folded,
        "game_evolve_alone": evolved,
        "fold_replay": lambda: [fold.replay(game) for game in records],
        "replay": lambda: [fold.replay(app.records(game_id)) for game_id in ids],
    }
    us = {name: min(timeit.repeat(part, number=5, repeat=repeat, timer=time.process_time)) / 5 / events * 1e6
          for name, part in parts.items()}
    out = {f"{name}_us": round(value, 3) for name, value in us.items()}
    out["transcoder_own_us"] = round(us["transcoder_decode"] - us["orjson_parse"], 3)
    out["mapper_own_us"] = round(us["mapper"] - us["transcoder_decode"], 3)
    out["replay_ratio_to_library_read"] = round(us["library_read"] / us["replay"], 3)
    out["events"] = events
    return out


def per_kind(app: Caboose, ids: list[str], repeat: int) -> dict[str, Any]:
    """The game's `evolve` per kind of its own events, in a transient as a replay folds."""
    records = [app.records(game_id) for game_id in ids]
    deciders = [log.decider_of(game[0]["data"]) for game in records]
    own = [[event for event in (to_event(record, decider.catalogue) for record in game[1:]) if event.kind not in CORE]
           for game, decider in zip(records, deciders, strict=True)]
    counts = collections.Counter(event.kind for game_events in own for event in game_events)
    best: dict[str, float] = {}
    clock = time.perf_counter
    for _ in range(repeat):
        spent: collections.Counter[str] = collections.Counter()
        for game, decider, game_events in zip(records, deciders, own, strict=True):
            state = decider.initial_state(log.setup_of(game[0]["data"]))
            with transient():
                for event in game_events:
                    start = clock()
                    state = decider.evolve(state, event)
                    spent[event.kind] += clock() - start
        best = {kind: min(best.get(kind, seconds), seconds) for kind, seconds in spent.items()}
    timer = min(timeit.repeat("clock() - clock()", globals={"clock": clock}, number=10_000, repeat=5)) / 10_000
    total, events = sum(best.values()), sum(counts.values())
    return {
        "events": events,
        "evolve_us": round(total / events * 1e6, 3),
        "timer_us": round(timer * 1e6, 3),
        "kinds": {kind: {"events": count, "share_of_events": round(count / events, 3),
                         "us": round(best[kind] / count * 1e6, 3), "share_of_time": round(best[kind] / total, 3)}
                  for kind, count in sorted(counts.items(), key=lambda item: -best[item[0]])},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--kinds", action="store_true", help="Also the game's evolve per kind of event.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = Caboose(Settings(db=f"sqlite:///{tmp}/replay.sqlite"))
        ids = [play_one(app, "ticket_to_ride", 4, game_seed(11, index), random.Random(index), check=False).game_id
               for index in range(args.games)]
        out: dict[str, Any] = profile(app, ids, args.repeat)
        if args.kinds:
            out["evolve_by_kind"] = per_kind(app, ids, args.repeat)
        print(json.dumps(out, indent=2))
        app.close()


if __name__ == "__main__":
    main()
