"""Where a move's time goes between the WSGI server and the application, on SQLite.

    python benchmarks/profile_request.py [--moves 300]

The same client work per move as `load_http.py` (the game's summary, its legal moves, the
move with If-Match and an Idempotency-Key), twice in the same run, taking turns game by game:
through the Flask app (`create_app`, called as a WSGI server calls it, no sockets) and
straight through the application (`Caboose.summary`, `legal_moves_at`, `play`). Prints both
rates, their ratio, and the functions that take the most time under the Flask path that are
not the application's (cProfile, cumulative), which is what sits between the server and the
application.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.simulation import game_seed


def over_flask(client: object, lobby: Lobby, moves: int, chooser: random.Random, index: int) -> int:
    game_id, issued = lobby.open_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(13, index))
    base, done = f"/api/v1/games/{game_id}", 0
    referee = {"Authorization": f"Bearer {issued.referee_token}"}
    while done < moves:
        summary = client.get(base, headers=referee).get_json()  # type: ignore[attr-defined]
        if summary["status"] != "active":
            break
        seat = chooser.choice(summary["active_seats"])
        auth = {"Authorization": f"Bearer {issued.seat_tokens[seat]}"}
        listed = client.get(f"{base}/legal-moves", headers=auth).get_json()  # type: ignore[attr-defined]
        reply = client.post(f"{base}/moves", json=chooser.choice(listed["moves"]),  # type: ignore[attr-defined]
                            headers={**auth, "If-Match": f'"{listed["version"]}"', "Idempotency-Key": str(uuid.uuid4())})
        assert reply.status_code == 201, reply.get_data(as_text=True)
        done += 1
    return done


def direct(app: Caboose, moves: int, chooser: random.Random, index: int) -> int:
    game_id = app.create_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(14, index))
    done = 0
    while done < moves:
        summary = app.summary(game_id)
        if summary["status"] != "active":
            break
        seat = chooser.choice(summary["active_seats"])
        version, legal = app.legal_moves_at(game_id, seat)
        app.play(game_id, seat, chooser.choice(legal), expected_version=version)
        done += 1
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--per-game", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(db=f"sqlite:///{tmp}/http.sqlite", rate_limits=RateLimits.every("1000000/minute"))
        app = Caboose(settings)
        flask_app = create_app(app)
        client = flask_app.test_client()
        lobby = Lobby(app)
        plain = Caboose(Settings(db=f"sqlite:///{tmp}/direct.sqlite"))
        spent = {"flask": 0.0, "direct": 0.0}
        done = {"flask": 0, "direct": 0}
        profile = cProfile.Profile()
        index = 0
        while min(done.values()) < args.moves:
            chooser = random.Random(index)
            started = time.perf_counter()
            done["direct"] += direct(plain, args.per_game, chooser, index)
            spent["direct"] += time.perf_counter() - started
            chooser = random.Random(index)
            started = time.perf_counter()
            done["flask"] += over_flask(client, lobby, args.per_game, chooser, index)
            spent["flask"] += time.perf_counter() - started
            index += 1
        # Profiled apart from the timed rounds (the profiler slows what it watches).
        profile.enable()
        over_flask(client, lobby, args.per_game, random.Random(999), 999)
        profile.disable()
    rates = {k: round(done[k] / spent[k], 1) for k in spent}
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(45)
    print(json.dumps({"moves": done, "moves_per_s": rates, "flask_ratio_to_application": round(rates["flask"] / rates["direct"], 3)},
                     indent=2))
    print(text.getvalue())


if __name__ == "__main__":
    main()
