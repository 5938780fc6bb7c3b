"""Where a move's time goes between the WSGI server and the application, on SQLite.

    python benchmarks/profile_request.py [--moves 300]

The same client work per move as `load_http.py` (the game's summary, its legal moves, the
move with If-Match and an Idempotency-Key), twice in the same run, taking turns game by game:
through the Flask app (`create_app`, called as a WSGI server calls it: an environ as gunicorn
builds it, no sockets and no test client, whose building of each request is not a server's
cost) and straight through the application (`Caboose.summary`, `legal_moves_at`, `play`).
Prints both rates and CPU milliseconds a move (the CPU ratio is the one the disk's commit
latency does not move), and the functions that take the most time under the Flask path
(cProfile, cumulative), which is what sits between the server and the application.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.api import create_app
from service.application import Caboose
from service.lobby import Lobby
from service.settings import RateLimits, Settings
from service.simulation import game_seed


def wsgi_call(app: Callable[..., Any], method: str, path: str, token: str, body: Any = None,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """One request as a WSGI server hands it to the app: (status, the JSON answer)."""
    data = json.dumps(body).encode() if body is not None else b""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "40000",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
               "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
               "HTTP_HOST": "127.0.0.1:8000", "HTTP_AUTHORIZATION": f"Bearer {token}", "CONTENT_TYPE": "application/json"}
    if body is not None:
        environ["CONTENT_LENGTH"] = str(len(data))
    environ.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in (headers or {}).items()})
    status: list[str] = []
    answer = b"".join(app(environ, lambda line, _headers, _info=None: status.append(line)))
    return int(status[0][:3]), json.loads(answer)


def over_flask(app: Callable[..., Any], lobby: Lobby, moves: int, chooser: random.Random, index: int) -> int:
    game_id, issued = lobby.open_game("ticket_to_ride", ["a", "b", "c"], seed=game_seed(13, index))
    base, done = f"/api/v1/games/{game_id}", 0
    while done < moves:
        _, summary = wsgi_call(app, "GET", base, issued.referee_token)
        if summary["status"] != "active":
            break
        seat = chooser.choice(summary["active_seats"])
        token = issued.seat_tokens[seat]
        _, listed = wsgi_call(app, "GET", f"{base}/legal-moves", token)
        status, answer = wsgi_call(app, "POST", f"{base}/moves", token, chooser.choice(listed["moves"]),
                                   {"If-Match": f'"{listed["version"]}"', "Idempotency-Key": str(uuid.uuid4())})
        assert status == 201, answer
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
        lobby = Lobby(app)
        plain = Caboose(Settings(db=f"sqlite:///{tmp}/direct.sqlite"))
        spent = {"flask": 0.0, "direct": 0.0}
        cpu = {"flask": 0.0, "direct": 0.0}
        done = {"flask": 0, "direct": 0}
        profile = cProfile.Profile()
        index = 0
        while min(done.values()) < args.moves:
            chooser = random.Random(index)
            started, used = time.perf_counter(), time.process_time()
            done["direct"] += direct(plain, args.per_game, chooser, index)
            spent["direct"] += time.perf_counter() - started
            cpu["direct"] += time.process_time() - used
            chooser = random.Random(index)
            started, used = time.perf_counter(), time.process_time()
            done["flask"] += over_flask(flask_app, lobby, args.per_game, chooser, index)
            spent["flask"] += time.perf_counter() - started
            cpu["flask"] += time.process_time() - used
            index += 1
        # Profiled apart from the timed rounds (the profiler slows what it watches).
        profile.enable()
        over_flask(flask_app, lobby, args.per_game, random.Random(999), 999)
        profile.disable()
    rates = {k: round(done[k] / spent[k], 1) for k in spent}
    cpu_ms = {k: round(cpu[k] / done[k] * 1000, 3) for k in cpu}
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(45)
    print(json.dumps({"moves": done, "moves_per_s": rates, "flask_ratio_to_application": round(rates["flask"] / rates["direct"], 3),
                      "cpu_ms_per_move": cpu_ms, "flask_ratio_by_cpu": round(cpu_ms["direct"] / cpu_ms["flask"], 3),
                      "load_average": [round(x, 2) for x in os.getloadavg()]}, indent=2))
    print(text.getvalue())


if __name__ == "__main__":
    main()
