"""The game listing from the game index, on SQLite and PostgreSQL: every entry point's
games are listed; paging covers every game once while games are made and moved between
pages; each filter keeps exactly the games it names."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.main import cli
from projections.listing import Cursor, Filters
from service.application import Caboose
from service.lobby import Lobby
from service.settings import Settings
from service.simulation import game_seed, play_one


def run(app: Caboose, *args: str) -> str:
    """A `caboose` command against the test's store, in process."""
    env = {"CABOOSE_DB_SCHEMA": app.settings.schema} if app.settings.schema else {}
    result = CliRunner(env=env).invoke(cli, [*args, "--db", app.settings.db], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def everything(lobby: Lobby, filters: Filters | None = None, limit: int = 3) -> list[dict[str, Any]]:
    """Every page of a listing, followed by its `next` cursor."""
    filters = filters or Filters()
    seen: list[dict[str, Any]] = []
    page = lobby.listing(filters, limit)
    while True:
        seen += page.games
        if page.next is None:
            return seen
        page = lobby.listing(filters, limit, page.next)


def records_file(tmp_path: Path, name: str, seed: int) -> Path:
    """A finished game's records made in another store, as a file to import."""
    elsewhere = Caboose(Settings(db="memory"))
    game_id = play_one(elsewhere, "race", 2, game_seed(seed, 0), random.Random(seed), check=False).game_id
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in elsewhere.records(game_id)))
    return path


def advance(app: Caboose, game_id: str) -> None:
    seat = app.summary(game_id)["active_seats"][0]
    app.play(game_id, seat, {"type": "advance", "by": 1})


def test_every_entry_points_games_are_listed(app: Caboose, tmp_path: Path) -> None:
    lobby = Lobby(app)
    made = {"lobby": lobby.open_game("race", ["Ann", "Ben"])[0]}
    made["new"] = run(app, "new", "race", "--player", "Cy", "--player", "Di").splitlines()[0]
    made["import"] = run(app, "import", str(records_file(tmp_path, "one.jsonl", 1))).splitlines()[0]
    advance(app, made["new"])
    at_version = app.game(made["new"]).version
    made["fork"] = run(app, "referee", "fork", made["new"], "--at-version", str(at_version),
                       "--reason", "what if", "--referee", "Zed").splitlines()[0]
    made["simulate"] = json.loads(run(app, "simulate", "race", "--games", "1", "--players", "3").splitlines()[0])["game_id"]
    bulk = json.loads(run(app, "bulk", "import", str(records_file(tmp_path, "two.jsonl", 2)), "--json").splitlines()[0])
    made["bulk import"] = bulk["game_id"]

    listed = everything(lobby)
    assert sorted(g["game_id"] for g in listed) == sorted(made.values()) == sorted(app.game_ids())
    by_id = {g["game_id"]: g for g in listed}
    for how, game_id in made.items():
        summary = app.summary(game_id)
        entry = by_id[game_id]
        assert (entry["status"], entry["version"], entry["active_seats"]) == \
            (summary["status"], summary["version"], summary["active_seats"]), how
        assert [s["name"] for s in entry["seats"]] == [s["name"] for s in summary["seats"]], how
        assert entry["waiting_since"] == summary["waiting_since"], how
        assert entry["transcribed"] is False and entry["title"] == "race", how
    assert by_id[made["fork"]]["forked_from"] == {"game_id": made["new"], "version": at_version}
    assert [g["game_id"] for g in everything(lobby, Filters(forked_from=made["new"]))] == [made["fork"]]
    finished = {made["import"], made["simulate"], made["bulk import"]}
    assert {g["game_id"] for g in everything(lobby, Filters(status="finished"))} == finished
    assert all(by_id[g]["scores"] == {str(k): v for k, v in app.summary(g)["scores"].items()} for g in finished)


def test_pages_cover_every_game_once_while_games_are_made_and_moved(app: Caboose) -> None:
    lobby = Lobby(app)
    before = [lobby.open_game("race", [f"p{i}", "q"])[0] for i in range(11)]
    seen: list[str] = []
    made_meanwhile: list[str] = []
    page = lobby.listing(Filters(), 4)
    while True:
        seen += [g["game_id"] for g in page.games]
        if page.next is None:
            break
        # Between pages: a new game, and a game already seen moves (both go to the front).
        made_meanwhile.append(lobby.open_game("race", ["new", "game"])[0])
        advance(app, seen[0])
        page = lobby.listing(Filters(), 4, page.next)
    assert len(seen) == len(set(seen)), "a game was listed twice"
    assert sorted(seen) == sorted(before)
    assert seen == list(reversed(before))  # newest activity first: the last made is first
    # From the front again, the games made meanwhile and the moved ones lead.
    front = [g["game_id"] for g in everything(lobby, limit=5)]
    assert sorted(front) == sorted(before + made_meanwhile) and len(front) == len(set(front))
    assert front[0] == seen[0]  # moved last


def test_prev_pages_lead_back_to_the_newest(app: Caboose) -> None:
    lobby = Lobby(app)
    ids = [lobby.open_game("race", ["a", "b"])[0] for _ in range(7)]
    first = lobby.listing(Filters(), 3)
    second = lobby.listing(Filters(), 3, first.next)
    third = lobby.listing(Filters(), 3, second.next)
    assert [len(p.games) for p in (first, second, third)] == [3, 3, 1] and third.next is None and first.prev is None
    back = lobby.listing(Filters(), 3, third.prev)
    assert back.games == second.games and back.prev is not None
    newest = lobby.listing(Filters(), 3, back.prev)
    assert [g["game_id"] for g in newest.games] == list(reversed(ids))[:3] and newest.prev is None


def test_each_filter_keeps_exactly_its_games(app: Caboose) -> None:
    lobby = Lobby(app)
    waiting, issued = lobby.open_game("race", ["Ann", None])
    running, tokens = lobby.open_game("race", ["ann", "Ben", "Cy"])
    finished = play_one(app, "race", 2, game_seed(5, 0), random.Random(5), check=False, lobby=lobby).game_id

    def ids(**filters: Any) -> set[str]:
        return {g["game_id"] for g in everything(lobby, Filters(**filters))}

    assert ids(status="waiting") == {waiting} and ids(status="running") == {running}
    assert ids(status="finished") == {finished} and ids(status="active") == {waiting, running}
    assert ids(player="ANN") == {waiting, running} and ids(player="Cy") == {running} and ids(player="nobody") == set()
    assert ids(game="race") == {waiting, running, finished} and ids(game="ticket_to_ride") == set()
    assert ids(transcribed=False) == {waiting, running, finished} and ids(transcribed=True) == set()
    to_act = {game_id: app.summary(game_id)["active_seats"][0] for game_id in (waiting, running)}
    seats = frozenset({(waiting, to_act[waiting]), (running, to_act[running])})
    assert ids(waiting_for=seats) == {waiting, running}
    assert ids(waiting_for=frozenset({(running, (to_act[running] + 1) % 3)})) == set()
    assert ids(waiting_for=seats, player="Ben") == {running}
    assert ids(waiting_for=frozenset({(finished, 0), (finished, 1)})) == set()

    # Joining the open seat: the game is running now, under the joined name.
    lobby.join(waiting, issued.invites[1], "Eve")
    assert ids(status="waiting") == set() and ids(status="running") == {waiting, running}
    assert ids(player="eve") == {waiting}
    [entry] = [g for g in everything(lobby) if g["game_id"] == waiting]
    assert entry["seats"] == [{"seat": 0, "name": "Ann", "open": False}, {"seat": 1, "name": "Eve", "open": False}]
    assert tokens  # the running game's seats were issued tokens like any game's


def test_a_cursor_is_a_position_not_a_page_number(app: Caboose) -> None:
    lobby = Lobby(app)
    ids = [lobby.open_game("race", ["a", "b"])[0] for _ in range(4)]
    page = lobby.listing(Filters(), 2)
    assert page.next is not None and Cursor.decode(page.next.encode()) == page.next
    # Filters apply from the same position: the race games after the second newest.
    rest = lobby.listing(Filters(game="race"), 10, page.next)
    assert [g["game_id"] for g in rest.games] == list(reversed(ids))[2:]
