"""Demo games for a first look: for every game Caboose records, one finished and one in
progress, played by the strongest bots that game has (so the first game a new user opens
looks like a real game). Each game in progress stops where Ann (seat 0) is to move, her
other seats played on by the same bots, so the printed link is a game she can play at once;
every game's referee token is printed too."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from domain import games
from domain.core.decider import Game
from service.bots import take_over
from service.i18n import ENGLISH, title_of
from service.lobby import Lobby
from service.people import FIRST_NAMES
from service.simulation import Playout, best_level, game_seed, play_one, played_held
from service.tournament.organiser import Organiser
from service.tournament.simulate import secret_of, simulate

SEED = 2004
FINISHED_SEATS = 4
RUNNING_SEATS = FIRST_NAMES[:3]  # Ann, Ben, Cleo
PLAYER = 0
"""The seat the person trying the demo plays (Ann); the bots play the others."""


@dataclass(frozen=True)
class Demo:
    """One game's two demo games."""

    game: str
    level: str
    finished: Playout
    running: Playout

    @property
    def title(self) -> str:
        return title_of(self.game, ENGLISH.locale)


def play_demo(lobby: Lobby, shown: Sequence[Game] = games.GAMES) -> list[Demo]:
    """Store a finished and a running game of every game (`shown`: the shipped ones), each
    seat played by the game's strongest level, as many seats as its `DemoPlan` asks; the
    running game stops about half as many moves in as the finished one took, once Ann is to
    move, and its other seats are handed to bots of that level."""
    app = lobby.caboose
    chooser = random.Random(SEED)
    out = []
    for index, rules in enumerate(shown):
        decider = games.current(rules.name)
        level = best_level(decider)
        seats = min(max(decider.demo.seats, decider.min_seats), decider.max_seats)
        finished = play_one(app, rules.name, seats, game_seed(SEED, 2 * index), chooser, check=False,
                            lobby=lobby, levels=level)
        names = RUNNING_SEATS[:max(decider.min_seats, min(len(RUNNING_SEATS), decider.max_seats))]
        running = play_one(app, rules.name, len(names), game_seed(SEED, 2 * index + 1), chooser, check=False,
                           lobby=lobby, levels=level, names=names, stop_after=max(1, finished.moves // 2),
                           until_seat=PLAYER)
        for seat in range(len(names)):
            if seat != PLAYER:
                take_over(app, running.game_id, seat, level, f"demo: the {level} bot plays {names[seat]}")
        out.append(Demo(rules.name, level, finished, running))
    return out


def seed_demo(lobby: Lobby, base_url: str, organiser: Organiser | None = None) -> list[str]:
    """Store the demo games (and, with an organiser, the demo tournaments) and return lines
    telling where to look."""
    lines = demo_lines(play_demo(lobby), base_url, lobby.caboose.settings.db)
    if organiser is not None:
        lines += tournament_lines(play_tournaments(organiser), base_url)
    return lines


def tournament_game() -> str:
    """The game the demo's tournaments are played at: the first game that asks for them
    (`DemoPlan.tournament`)."""
    chosen = [rules.name for rules in games.GAMES if rules.demo.tournament]
    if not chosen:
        raise LookupError("no game asks for the demo's tournaments (DemoPlan(tournament=True))")
    return chosen[0]


TOURNAMENT_PLAYERS = FIRST_NAMES[:9]  # Ann ... Ivo


def play_tournaments(organiser: Organiser) -> dict[str, tuple[str, str]]:
    """A finished Swiss tournament of the game that asks for them (9 players, 3 rounds) and a
    running one (its second round half played), every seat the bot level the game names."""
    game = tournament_game()
    level = games.current(game).demo.tournament_level
    finished = simulate(organiser, game, len(TOURNAMENT_PLAYERS), "swiss", 3, level, SEED, table_size=4,
                        names=TOURNAMENT_PLAYERS)
    created = organiser.create("Demo club night (in play)", game, kind="swiss", rounds=3, table_size=4,
                               secret=secret_of(SEED + 1))
    for name in TOURNAMENT_PLAYERS:
        organiser.register(created.tournament_id, name)
    chooser = random.Random(SEED)
    for round_ in (1, 2):
        opened = organiser.pair(created.tournament_id)
        for index, table in enumerate(opened):
            aggregate = organiser.caboose.game(str(table.game_id))  # seeded tables: opened with their round
            # The last round's last table stops half way: a round still in play.
            moves = 60 if round_ == 2 and index == len(opened) - 1 else 20_000
            played_held(organiser.caboose, aggregate, [level] * len(table.seats), chooser, moves)
        organiser.settle(created.tournament_id)
    return {"finished": (finished.tournament_id, finished.referee_token),
            "running": (created.tournament_id, created.referee_token)}


def tournament_lines(tournaments: dict[str, tuple[str, str]], base_url: str) -> list[str]:
    """Where to look at each demo tournament, and its referee's token."""
    lines = []
    for label, (tournament_id, token) in tournaments.items():
        lines += [f"Demo {label} tournament: {base_url}/tournaments/{tournament_id}",
                  f"  standings: {base_url}/api/v1/tournaments/{tournament_id}/standings",
                  f"  referee token: {token}"]
    return lines


def play_link(base_url: str, game_id: str, token: str) -> str:
    """A seat's play page: the replay page opened with its token, in the link's fragment,
    which a browser never sends (no server or proxy logs it)."""
    return f"{base_url}/games/{game_id}/replay#token={token}"


def demo_lines(demos: list[Demo], base_url: str, db: str) -> list[str]:
    """Where to look at each demo game and play the running ones: Ann's play page and token,
    and every game's referee token."""
    lines = [f"Lobby (every game, new games, joining by invite): {base_url}/"]
    for demo in demos:
        for label, game in ((f"finished {demo.title} game", demo.finished), (f"{demo.title} game in progress", demo.running)):
            api = f"{base_url}/api/v1/games/{game.game_id}"
            lines += [f"Demo {label} ({len(game.levels)} seats, {demo.level} bots): {api}",
                      f"  replay: {base_url}/games/{game.game_id}/replay",
                      f"  audit:  caboose audit {game.game_id} --db {db}"]
            issued = game.issued
            if issued is None:
                continue
            if game is demo.running:
                name, token = RUNNING_SEATS[PLAYER], issued.seat_tokens[PLAYER]
                lines += [f"  play as {name} (it is {name}'s move; the {demo.level} bots play the others): "
                          f"{play_link(base_url, game.game_id, token)}",
                          f"  {name}'s token (seat {PLAYER}): {token}  — e.g. curl -H 'Authorization: Bearer {token}' "
                          f"{api}/legal-moves"]
            lines += [f"  referee token: {issued.referee_token}  (the referee's view: "
                      f"{play_link(base_url, game.game_id, issued.referee_token)})"]
    return lines
