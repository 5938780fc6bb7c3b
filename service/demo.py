"""Demo games for a first look: one finished, one in progress, with their seat tokens."""

from __future__ import annotations

import random

from service.lobby import Lobby
from service.simulation import game_seed, play_one

DEMO_GAME = "ticket_to_ride"


def seed_demo(lobby: Lobby, base_url: str) -> list[str]:
    """Store the demo games and return lines telling where to look."""
    app = lobby.caboose
    chooser = random.Random(2004)
    finished = play_one(app, DEMO_GAME, 4, game_seed(2004, 0), chooser, check=False, lobby=lobby)
    running, issued = lobby.open_game(DEMO_GAME, ["Ann", "Ben", "Cleo"], seed=game_seed(2004, 1))
    for _ in range(40):
        game = app.game(running)
        seat = min(game.decider.active_seats(game.state))
        app.play(running, seat, chooser.choice(game.decider.legal_moves(game.state, seat)))
    boom = play_one(app, "railway_boom", 3, game_seed(2025, 0), chooser, check=False, lobby=lobby)
    toot = play_one(app, "toot_toot", 3, game_seed(2004, 2), chooser, check=False, lobby=lobby)
    lines = []
    for label, game_id in (("finished 4-player game", finished.game_id), ("game in progress", running),
                           ("finished Railway Boom game", boom.game_id), ("finished Toot-Toot Train game", toot.game_id)):
        api = f"{base_url}/api/v1/games/{game_id}"
        lines += [f"Demo {label}: {api}", f"  replay: {base_url}/games/{game_id}/replay",
                  f"  state:  {api}/state", f"  events: {api}/events",
                  f"  audit:  caboose audit {game_id} --db {app.settings.db}"]
    lines += [f"  Ann's token (seat 0): {issued.seat_tokens[0]}  — e.g. curl -H 'Authorization: Bearer {issued.seat_tokens[0]}' "
              f"{base_url}/api/v1/games/{running}/legal-moves",
              f"  Ann's view of the replay: {base_url}/games/{running}/replay?token={issued.seat_tokens[0]}",
              f"  referee token: {issued.referee_token}"]
    return lines
