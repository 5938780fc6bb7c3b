"""How many times the play path evolves each stored event.

    python benchmarks/evolve_count.py [--games 2]

Random Ticket to Ride (4 seats) and Age of Steam (3 seats) games are played through the
application on a SQLite file, and every call of each game's `evolve` made inside
`Caboose.play` is counted (the rules' own, as `decide` goes, and any made to store the
events), then divided by the events those calls stored. Loading a game is not counted:
the games stay in the application's cache, as they do between requests.

Prints one JSON object per game with the count per stored event and its ratio to the
baseline measured the same way before the play path handed its reached state to the
aggregate (`BASELINE`). The target is 1: each stored event is evolved once.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.application import Caboose
from service.settings import Settings
from service.simulation import game_seed
from tests.support.evolves import counting

BASELINE = {"ticket_to_ride": 2.996, "age_of_steam": 2.993}
"""Evolves per stored event on commit 1febf98, before this count was brought down (the
rules evolve as they decide, `log.play` folded the events again, and the aggregate
evolved each as it recorded it)."""

GAMES = {"ticket_to_ride": 4, "age_of_steam": 3}
def play(app: Caboose, game: str, seats: int, index: int) -> tuple[int, int]:
    """One random game to its end; returns (evolve calls inside `play`, events stored)."""
    chooser = random.Random(index)
    game_id = app.create_game(game, [f"p{i}" for i in range(seats)], seed=game_seed(17, index))
    calls = stored = 0
    while True:
        aggregate = app.game(game_id)
        decider, state = aggregate.decider, aggregate.state
        active = sorted(decider.active_seats(state))
        if not active:
            return calls, stored
        seat = chooser.choice(active)
        moves = decider.legal_moves(state, seat)
        move = decider.playout_choice(state, seat, moves, chooser) or chooser.choice(moves)
        with counting(game) as count:
            records = app.play(game_id, seat, move)
        calls += count[0]
        stored += len(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = Caboose(Settings(db=f"sqlite:///{tmp}/evolve.sqlite"))
        for game, seats in GAMES.items():
            calls = stored = 0
            for index in range(args.games):
                played = play(app, game, seats, index)
                calls, stored = calls + played[0], stored + played[1]
            per_event = calls / stored
            print(json.dumps({"game": game, "events_stored": stored, "evolves": calls,
                              "evolves_per_stored_event": round(per_event, 3),
                              "baseline": BASELINE[game], "ratio_to_baseline": round(per_event / BASELINE[game], 3)}))


if __name__ == "__main__":
    main()
