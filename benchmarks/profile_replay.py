"""Where a replay's time goes, per event: each part of reading a stored game and folding it.

    python benchmarks/profile_replay.py [--games 3] [--repeat 15]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = Caboose(Settings(db=f"sqlite:///{tmp}/replay.sqlite"))
        ids = [play_one(app, "ticket_to_ride", 4, game_seed(11, index), random.Random(index), check=False).game_id
               for index in range(args.games)]
        print(json.dumps(profile(app, ids, args.repeat), indent=2))
        app.close()


if __name__ == "__main__":
    main()
