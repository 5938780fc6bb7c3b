"""The bot-key attack, for the fault suite (benchmarks/fault_suite.py): a seat tries to freeze
the bots by taking, ahead of the bot runner, the idempotency keys it will use (`bot:GAME:V`,
predictable by design), and the store already holds such keys from before clients were
refused them (moves stored under them by an older server). Measured from outside, against
a real gunicorn and a real `caboose bots run` process:

- the attacker's requests, one per version it guesses the bots will move at: each must be
  refused (400), none stored;
- the planted keys: moves of the opening stored straight into the store under keys of
  versions the bots may move at, as an older server let them be, and, once the bots hold
  every seat, a dispute stored under the key of the very version they move at next;
- then the referee hands every seat to a bot, and the runner must play the game to its end,
  passing over every planted key for a fresh one, with no traceback in its log.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service import command_ids  # noqa: E402
from service import referee as desk  # noqa: E402
from service.application import Caboose  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.support.live_server import LiveServer  # noqa: E402
from tests.support.volley import Game, keep_openings, legal_moves, new_game, summary  # noqa: E402

GUESSES = 20
"""Versions the attacker guesses the bots will move at, one request each."""
PLANTED = 8
"""Moves stored under bot keys as an older server let them be (one more command follows)."""
PLAY_LIMIT = 120.0
"""Seconds the bots have to play the game out."""


def attack(db: str, schema: str | None, folder: Path, env: dict[str, str]) -> dict[str, Any]:
    server = LiveServer(db, schema, workers=2, threads=4, log_path=folder / "gunicorn-bot-keys.log").start()
    try:
        client = server.client()
        game = new_game(client, players=("ada", "bo"), seed="b0" * 32)
        keep_openings(client, game)
        guessed = guesses(client, game)
        app = Caboose(Settings(db=db, schema=schema))
        try:
            planted = plant(app, game)
            for seat in (0, 1):
                taken = client.post(f"{game.path}/seats/{seat}/bot", {"level": "random"}, token=game.referee_token)
                if taken.status != 201:
                    raise RuntimeError(f"the takeover of seat {seat} answered {taken.status}: {taken.body}")
            planted.add(plant_next(app, game))
            runner_log, finished = play_out(server, game, db, env, folder)
            records = app.records(game.game_id)
        finally:
            app.close()
    finally:
        server.stop()
    bot_moves = [r for r in records if r["command_id"] and r["command_id"].startswith("bot:") and r["actor"].startswith("seat:")]
    passed_over = {r["command_id"].rsplit(":", 1)[0] for r in bot_moves if r["command_id"].count(":") == 3}
    return {
        "attack_requests": len(guessed), "attack_2xx": sum(1 for s in guessed if 200 <= s < 300),
        "attack_refused_400": sum(1 for s in guessed if s == 400),
        "planted_keys": len(planted), "planted_keys_met": len(passed_over & planted),
        "bot_moves": len({r["command_id"] for r in bot_moves}), "game_finished": finished,
        "runner_tracebacks": runner_log.count("Traceback"),
        **({"runner_log_tail": runner_log[runner_log.index("Traceback"):][:1500]} if "Traceback" in runner_log else {}),
    }


def guesses(client: Any, game: Game) -> list[int]:
    """The active seat's move, sent under the bot key of each version it guesses: the statuses."""
    now = summary(client, game)
    seat = now["active_seats"][0]
    move = legal_moves(client, game, seat)[0]
    return [client.post(f"{game.path}/moves", move, token=game.seat_tokens[seat],
                        headers={"Idempotency-Key": command_ids.bot_move(game.game_id, now["version"] + i)}).status
            for i in range(1, GUESSES + 1)]


def plant(app: Caboose, game: Game) -> set[str]:
    """Moves stored straight into the store under the keys of versions the bots will move at
    once they hold every seat (every other version or so, a move being one or two events)."""
    planted = set()
    for i in range(PLANTED):
        now = app.game(game.game_id)
        seat = min(now.decider.active_seats(now.state))
        key = command_ids.bot_move(game.game_id, now.version + PLANTED + 1 + 3 * i)
        app.play(game.game_id, seat, now.decider.legal_moves(now.state, seat)[0], idempotency_key=key)
        planted.add(key)
    return planted


def plant_next(app: Caboose, game: Game) -> str:
    """A command of one event (a dispute) stored under the key of the version it leaves the
    game at: the version the bots, which hold every seat now, move at next."""
    key = command_ids.bot_move(game.game_id, app.game(game.game_id).version + 1)
    desk.raise_dispute(app, game.game_id, "Rita", 2, "seat:0", "stored under a bot's key", idempotency_key=key)
    return key


def play_out(server: LiveServer, game: Game, db: str, env: dict[str, str], folder: Path) -> tuple[str, bool]:
    """`caboose bots run` until the game ends (or `PLAY_LIMIT`): its log, and whether it ended."""
    log_path = folder / "bots-runner.log"
    with log_path.open("w") as log:
        runner = subprocess.Popen([str(Path(sys.executable).parent / "caboose"), "bots", "run", "--interval", "0.2", "--db", db],
                                  env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            finished, until = False, time.monotonic() + PLAY_LIMIT
            while not finished and time.monotonic() < until and runner.poll() is None:
                time.sleep(0.5)
                finished = summary(server.client(), game)["status"] == "finished"
        finally:
            runner.terminate()
            runner.wait(timeout=30)
    return log_path.read_text(errors="replace"), finished


def failures(where: str, figures: dict[str, Any]) -> list[str]:
    found = []
    if figures["attack_2xx"] or figures["attack_refused_400"] != figures["attack_requests"]:
        found.append(f"{where}: {figures['attack_2xx']} of {figures['attack_requests']} moves under a bot's key were stored, "
                     f"{figures['attack_refused_400']} refused with 400")
    if not figures["game_finished"]:
        found.append(f"{where}: the bots did not play the game out ({figures['bot_moves']} bot moves)")
    if not figures["planted_keys_met"]:
        found.append(f"{where}: the bots met none of the {figures['planted_keys']} planted keys: the fault did not land")
    if figures["runner_tracebacks"]:
        found.append(f"{where}: {figures['runner_tracebacks']} tracebacks in the bot runner's log")
    return found


if __name__ == "__main__":
    import json
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="caboose-bot-keys-"))
    database = f"sqlite:///{folder}/bot-keys.sqlite"
    result = attack(database, None, folder, {**os.environ, "PYTHONPATH": str(ROOT)})
    print(json.dumps({"figures": result, "failures": failures("sqlite", result)}, indent=1))
