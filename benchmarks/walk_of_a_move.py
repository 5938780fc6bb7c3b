"""How many of the project's modules one POST move walks through, and where it crosses from
the rules back into the service (issue 34: "at most about a dozen, no crossing back").

    python benchmarks/walk_of_a_move.py [--game ticket_to_ride]

Served in this process through Flask's test client on a fresh SQLite store, after a warm-up
move (`tests/support/walk.py`). Prints the count, the modules by layer in the order first
entered, and every call from `domain/` into `service/`. A count, not a timing: it is the same
on any machine.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.walk import LAYERS, walk_of_a_move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ticket_to_ride")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        walk = walk_of_a_move(f"sqlite:///{folder}/walk.sqlite", args.game)
    print(f"one POST move ({args.game}) enters {len(walk.entered)} project modules")
    for layer in LAYERS:
        modules = walk.layer(layer)
        if modules:
            print(f"  {layer} ({len(modules)}): {', '.join(modules)}")
    print(f"calls from domain back into service: {len(walk.back)}")
    for calling, called in sorted(walk.back):
        print(f"  {calling} -> {called}")


if __name__ == "__main__":
    main()
