"""Seats played by bots over a real HTTP server, as a referee and a player meet them: bots and
a deadline from creation, a seat handed to a bot, its old token refused, bad requests refused
with nothing stored, the bot's moves arriving, a hand-back with a fresh token; and the
same from the shell."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from domain.core.takeover import strongest
from service.api import create_app
from service.application import Caboose
from service.bots import BotRunner
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.settings import RateLimits, Settings
from tests.e2e.conftest import Client, serving
from tests.support.receiver import receiving


def create(client: Client, **extra: object) -> dict:
    reply = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Bob", "Cy"],
                                          "seed": "ab" * 32, **extra})
    assert reply.status == 201, reply.body
    return reply.body


def test_a_referee_hands_a_seat_to_a_bot_and_back_over_http(client: Client, store: Caboose) -> None:
    game = create(client, bots={"2": "random"}, move_deadline="PT24H")
    game_id, referee = game["game_id"], game["referee_token"]
    base = f"/api/v1/games/{game_id}"
    assert game["bots"] == {"2": "random"} and game["move_deadline"] == 86400

    summary = client.get(base).body
    seat = summary["active_seats"][0] if summary["active_seats"][0] != 2 else None
    assert seat is not None, "seat 2's bot is to act first; the runner has not run yet"

    # Refused, with nothing stored: a seat's token, an unknown level, a seat a bot holds already.
    version = summary["version"]
    for token, body, status, code in [
        (game["seat_tokens"][str(seat)], {"level": "random"}, 403, None),
        (referee, {"level": "grandmaster"}, 400, "unknown_bot"),
        (referee, {"level": "random", "extra": 1}, 400, "malformed_request"),
    ]:
        reply = client.post(f"{base}/seats/{seat}/bot", body, token=token)
        assert reply.status == status, reply.body
        if code:
            assert reply.body["code"] == code and reply.body["detail"]
    reply = client.post(f"{base}/seats/{seat}/bot", {"level": "grandmaster"}, token=referee)
    assert "random, playout" in reply.body["detail"]  # the levels this game offers
    reply = client.post(f"{base}/seats/2/bot", {"level": "playout"}, token=referee)
    assert reply.status == 422 and reply.body["code"] == "seat_held_by_bot"
    assert client.get(base).body["version"] == version

    reply = client.post(f"{base}/seats/{seat}/bot", {"level": "playout", "reason": "Ann dropped out"}, token=referee)
    assert reply.status == 201, reply.body
    assert reply.body["events"][0]["kind"] == "SeatTakenOver"
    assert reply.body["events"][0]["data"]["reason"] == "Ann dropped out"
    version = reply.body["version"]

    # The dropped player's token no longer moves for the seat.
    old = game["seat_tokens"][str(seat)]
    move = client.get(f"{base}/legal-moves", token=old).body["moves"][0]
    reply = client.post(f"{base}/moves", move, token=old)
    assert reply.status == 422 and reply.body["code"] == "seat_held_by_bot"
    assert client.get(base).body["version"] == version

    # The runner moves for the bots: the seat's move arrives like any other.
    assert BotRunner(store).run_once() >= 1
    events = client.get(f"{base}/events?after={version}").body["events"]
    assert any(e["actor"] == f"seat:{seat}" for e in events)

    reply = client.post(f"{base}/seats/{seat}/hand-back", {"reason": "Ann is back"}, token=referee)
    assert reply.status == 201, reply.body
    fresh = reply.body["token"]
    assert reply.body["events"][0]["kind"] == "SeatHandedBack" and fresh != old
    assert client.get(f"{base}/legal-moves", token=old).status == 401
    assert client.get(f"{base}/legal-moves", token=fresh).body["seat"] == seat
    assert client.get(base).body["bots"] == {"2": "random"}

    # The deadline: bad values refused, then lifted.
    for value in ["tomorrow", 0, True]:
        reply = client.request("PUT", f"{base}/deadline", {"move_deadline": value}, token=referee)
        assert reply.status in (400, 422) and reply.body["code"] == "bad_deadline", reply.body
    reply = client.request("PUT", f"{base}/deadline", {"move_deadline": None}, token=referee)
    assert reply.status == 201 and reply.body["events"][0]["data"]["seconds"] is None
    assert client.get(base).body["move_deadline"] is None

    audit = client.get(f"{base}/audit").body
    assert audit["ok"], audit


def test_a_token_replaced_by_another_server_speaks_no_more_on_this_one(store: Caboose, tmp_path: Path) -> None:
    """Two servers over one store, as two workers or hosts: this one has let the seat's token
    in (and keeps its seat), the other hands the seat back with a fresh token. The old token
    is refused here from then on, for reads and moves alike, with nothing stored; the fresh
    one is let in here too."""
    other = Caboose(Settings(db=store.settings.db, rate_limits=store.settings.rate_limits))
    with serving(store) as here, serving(other) as there:
        game = create(here)
        game_id, referee = game["game_id"], game["referee_token"]
        base = f"/api/v1/games/{game_id}"
        seat = here.get(base).body["active_seats"][0]
        old = game["seat_tokens"][str(seat)]
        assert here.get(f"{base}/legal-moves", token=old).status == 200  # this server now knows the token
        assert there.post(f"{base}/seats/{seat}/bot", {"level": "random"}, token=referee).status == 201
        reply = there.post(f"{base}/seats/{seat}/hand-back", {"reason": "Ann is back"}, token=referee)
        assert reply.status == 201, reply.body
        fresh, version = reply.body["token"], reply.body["version"]

        assert here.get(f"{base}/legal-moves", token=old).status == 401
        assert here.get(f"{base}/state", token=old).status == 401
        move = here.get(f"{base}/legal-moves", token=fresh).body["moves"][0]
        refused = here.post(f"{base}/moves", move, token=old)
        assert refused.status == 401 and refused.headers["content-type"] == "application/problem+json", refused.body
        assert here.get(base).body["version"] == version
        assert here.post(f"{base}/moves", move, token=fresh).status == 201


def test_bad_bots_at_creation_are_refused_and_nothing_is_stored(client: Client, store: Caboose) -> None:
    for extra, code in [({"bots": {"1": "grandmaster"}}, "unknown_bot"), ({"bots": {"5": "random"}}, "bad_seat"),
                        ({"move_deadline": "P"}, "bad_deadline")]:
        reply = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Bob"], **extra})
        assert reply.status in (400, 422) and reply.body.get("code") == code, reply.body
    reply = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["Ann", "Bob"], "bots": {"one": "random"}})
    assert reply.status == 400 or reply.status == 422
    assert client.get("/api/v1/games").body["games"] == []


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_bots_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/shell.sqlite"
    game_id = run("new", "ticket_to_ride", "--player", "Ann", "--player", "Bob", "--bot", "1=random",
                  "--move-deadline", "3600", "--db", db).splitlines()[0]
    run("referee", "bot", game_id, "--seat", "0", "--level", "playout", "--reason", "Ann left", "--db", db)
    refused = CliRunner().invoke(cli, ["referee", "bot", game_id, "--seat", "0", "--level", "random", "--db", db])
    assert refused.exit_code != 0 and "seat_held_by_bot" in refused.output
    assert "MoveDeadlineSet" in run("referee", "deadline", game_id, "--move-deadline", "PT2H", "--db", db)
    stored = run("bots", "run", "--once", "--db", db)
    assert int(stored.split()[0]) > 10, stored  # both seats are bots now: they play the game out
    audit = run("audit", game_id, "--db", db)
    assert audit.startswith("OK"), audit
    assert "game_over" in CliRunner().invoke(cli, ["referee", "hand-back", game_id, "--seat", "0", "--db", db]).output


def test_the_turn_notification_announces_the_deadline(tmp_path: Path) -> None:
    store = Caboose(Settings(db=f"sqlite:///{tmp_path}/n.sqlite", rate_limits=RateLimits.every("1000000/minute"),
                             webhook_allow_networks=("127.0.0.0/8",)))
    lobby = Lobby(store)
    notifier = Notifier(store, lobby.seating.engine)
    with receiving() as receiver, serving(store, create_app(store, lobby, notifier)) as client:
        created = create(client, move_deadline="PT24H")
        base, tokens = f"/api/v1/games/{created['game_id']}", created["seat_tokens"]
        for seat in ("0", "1", "2"):
            reply = client.request("PUT", f"{base}/notifications", {"webhook_url": f"http://127.0.0.1:{receiver.server_port}/hook"},
                                   token=tokens[seat])
            assert reply.status == 200, reply.body
        for _ in range(3):  # the opening's ticket choices, then turns
            summary = client.get(base).body
            seat = str(summary["active_seats"][0])
            move = client.get(f"{base}/legal-moves", token=tokens[seat]).body["moves"][0]
            assert client.post(f"{base}/moves", move, token=tokens[seat]).status == 201
        # Nobody moves for a day: the bot moves for the late seat, which is told.
        game = store.game(created["game_id"])
        late = min(game.decider.active_seats(game.state))
        since = datetime.fromisoformat(game.updated_at.replace("Z", "+00:00"))
        assert BotRunner(store, lambda: since + timedelta(hours=24)).run_once() == 1
        notifier.run_once()
    told = [json.loads(body) for _, body in receiver.received]
    passed = [t for t in told if t["event"] == "deadline_passed"]
    assert [t["seat"] for t in passed] == [late]
    # The game's strongest bot moves for a late seat (whatever levels the game offers today).
    level = strongest(store.game(created["game_id"]).decider)
    assert level != "random"
    assert f"The move deadline passed: the {level} bot makes your next move" in passed[0]["summary"]
    # Whoever was to act when the deadline was set (right after the opening) is told, then each seat whose turn comes.
    changed = [t for t in told if t["event"] == "deadline_set"]
    assert changed and changed[0]["summary"].startswith("The move deadline changed in Ticket to Ride with ")
    assert ": move by " in changed[0]["summary"]
    turns = [t for t in told if t["event"] == "your_turn" and t["version"] > changed[0]["version"]]
    assert turns, told
    for turn in [*changed, *turns]:
        due = datetime.fromisoformat(turn["time"].replace("Z", "+00:00")) + timedelta(hours=24)
        assert turn["deadline"] == due.isoformat(timespec="seconds").replace("+00:00", "Z")
        assert f"move by {turn['deadline']}, or the {level} bot moves for you" in turn["summary"], turn
