"""Demo games for a first look: for every game Caboose records, one finished and one in
progress, played by the strongest bots that game has (so the first game a new user opens
looks like a real game), with the running games' seat tokens."""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain import games
from service.lobby import Lobby
from service.simulation import Playout, best_level, game_seed, play_one

SEED = 2004
FINISHED_SEATS = 4
RUNNING_SEATS = ("Ann", "Ben", "Cleo")
TITLES = {"ticket_to_ride": "Ticket to Ride", "age_of_steam": "Age of Steam", "railway_boom": "Railway Boom",
          "toot_toot": "Toot-Toot Train"}


@dataclass(frozen=True)
class Demo:
    """One game's two demo games."""

    game: str
    level: str
    finished: Playout
    running: Playout

    @property
    def title(self) -> str:
        return TITLES.get(self.game, self.game.replace("_", " ").capitalize())


def play_demo(lobby: Lobby) -> list[Demo]:
    """Store a finished and a running game of every game, each seat played by the game's
    strongest level; the running game stops half as many moves in as the finished one took."""
    app = lobby.caboose
    chooser = random.Random(SEED)
    out = []
    for index, rules in enumerate(games.GAMES):
        decider = games.current(rules.name)
        level = best_level(decider)
        seats = min(max(FINISHED_SEATS, decider.min_seats), decider.max_seats)
        finished = play_one(app, rules.name, seats, game_seed(SEED, 2 * index), chooser, check=False,
                            lobby=lobby, levels=level)
        names = RUNNING_SEATS[:max(decider.min_seats, min(len(RUNNING_SEATS), decider.max_seats))]
        running = play_one(app, rules.name, len(names), game_seed(SEED, 2 * index + 1), chooser, check=False,
                           lobby=lobby, levels=level, names=names, stop_after=max(1, finished.moves // 2))
        out.append(Demo(rules.name, level, finished, running))
    return out


def seed_demo(lobby: Lobby, base_url: str) -> list[str]:
    """Store the demo games and return lines telling where to look."""
    return demo_lines(play_demo(lobby), base_url, lobby.caboose.settings.db)


def demo_lines(demos: list[Demo], base_url: str, db: str) -> list[str]:
    """Where to look at each demo game, and the running games' tokens."""
    lines = []
    for demo in demos:
        for label, game in ((f"finished {demo.title} game", demo.finished), (f"{demo.title} game in progress", demo.running)):
            api = f"{base_url}/api/v1/games/{game.game_id}"
            lines += [f"Demo {label} ({len(game.levels)} seats, {demo.level} bots): {api}",
                      f"  replay: {base_url}/games/{game.game_id}/replay",
                      f"  state:  {api}/state", f"  events: {api}/events",
                      f"  audit:  caboose audit {game.game_id} --db {db}"]
        issued = demo.running.issued
        if issued is not None:
            token, game_id = issued.seat_tokens[0], demo.running.game_id
            lines += [f"  {RUNNING_SEATS[0]}'s token (seat 0): {token}  — e.g. curl -H 'Authorization: Bearer {token}' "
                      f"{base_url}/api/v1/games/{game_id}/legal-moves",
                      f"  {RUNNING_SEATS[0]}'s view of the replay: {base_url}/games/{game_id}/replay#token={token}",
                      f"  referee token: {issued.referee_token}"]
    return lines
