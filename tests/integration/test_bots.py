"""The bot runner on real stores (SQLite and PostgreSQL): it plays a seat to the end of a game
through the same path as any move, two runners at once store each bot move once, a
hand-back stops the bot, and a passed deadline makes exactly one move. Time is an injected
clock, never a sleep."""

from __future__ import annotations

import logging
import random
import threading
from datetime import datetime, timedelta

import pytest

from domain.core.envelope import group_by_command, to_event
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.takeover import strongest
from service import bots, command_ids
from service.application import Caboose
from service.commands import Play, SeatToken
from service.errors import TokenReplaced
from service.lobby import Lobby
from service.referee import full_audit
from service.settings import Settings
from service.simulation import game_seed


def moves_by_seat(app: Caboose, game_id: str) -> list[tuple[int, str, str]]:
    """(first version, actor, command id) of every move group after the opening."""
    groups = group_by_command(app.records(game_id))[1:]
    return [(g[0]["version"], g[0]["actor"], g[0]["command_id"]) for g in groups if g[0]["actor"].startswith("seat:")]


def test_the_runner_plays_a_seat_to_the_end_and_the_audit_says_ok(app: Caboose) -> None:
    lobby = Lobby(app)
    game_id, _ = bots.open_game(lobby, "ticket_to_ride", ["Ann", "Bob"], {}, game_seed(5, 0), {"1": "playout"})
    runner, chooser = bots.BotRunner(app), random.Random(5)
    assert app.summary(game_id)["bots"] == {"1": "playout"}
    for _ in range(2000):
        runner.run_once()
        game = app.game(game_id)
        if game.is_over:
            break
        assert 1 not in game.decider.active_seats(game.state), "the bot left its turn unplayed"
        move = chooser.choice(game.decider.legal_moves(game.state, 0))
        app.play(game_id, 0, move, expected_version=game.version)
    assert app.game(game_id).is_over
    bot_moves = [m for m in moves_by_seat(app, game_id) if m[1] == "seat:1"]
    assert len(bot_moves) > 10
    # Every bot move went through `play` with the key made of the game and the version it saw.
    assert all(key == command_ids.bot_move(game_id, first - 1) for first, _, key in bot_moves)
    report = full_audit(app, game_id, projections=False)
    assert report.ok, report.text()


def test_a_bot_s_choice_is_reproducible_from_the_record(app: Caboose) -> None:
    lobby = Lobby(app)
    game_id, _ = bots.open_game(lobby, "age_of_steam", ["A", "B", "C"], {}, game_seed(6, 0), {"0": "random", "1": "random", "2": "random"})
    bots.BotRunner(app).tend(game_id)
    game = app.game(game_id)
    assert game.is_over
    # Replaying any bot move from the state before it, with the chooser the record names, makes the same move.
    records = app.records(game_id)
    for first, actor, _ in moves_by_seat(app, game_id)[::25]:
        before = app.game(game_id, at=first - 1)
        seat = int(actor[5:])
        legal = before.decider.legal_moves(before.state, seat)
        chosen = before.decider.bots["random"].choose(before.state, seat, legal, bots.chooser_for(game_id, first - 1, seat))
        recorded = before.decider.move_of(to_event(records[first - 1], before.decider.catalogue))
        assert recorded == chosen


def test_two_runners_at_once_store_each_bot_move_once(app: Caboose, tmp_path: object) -> None:
    lobby = Lobby(app)
    game_id, _ = bots.open_game(lobby, "ticket_to_ride", ["Ann", "Bob", "Cy"], {}, game_seed(7, 0),
                                {"0": "playout", "1": "playout", "2": "random"})
    # A second process's application on the same store.
    other = Caboose(Settings(db=app.settings.db, schema=app.settings.schema, snapshot_interval=10))
    try:
        runners = [bots.BotRunner(app), bots.BotRunner(other)]
        errors: list[BaseException] = []

        def run(runner: bots.BotRunner) -> None:
            try:
                for _ in range(400):
                    runner.run_once()
                    if app.game(game_id).is_over:
                        return
            except BaseException as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=run, args=(r,)) for r in runners]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        assert not errors, errors
    finally:
        other.close()
    assert app.game(game_id).is_over
    moves = moves_by_seat(app, game_id)
    keys = [key for _, _, key in moves]
    assert len(keys) == len(set(keys))
    assert all(key == command_ids.bot_move(game_id, first - 1) for first, _, key in moves)
    report = full_audit(app, game_id, projections=False)
    assert report.ok, report.text()


def test_the_seat_s_token_cannot_move_for_a_bot_and_a_hand_back_stops_the_bot(app: Caboose) -> None:
    lobby = Lobby(app)
    game_id, issued = bots.open_game(lobby, "ticket_to_ride", ["Ann", "Bob"], {}, game_seed(8, 0))
    game = app.game(game_id)
    seat = min(game.decider.active_seats(game.state))
    bots.take_over(app, game_id, seat, "random", "Ann dropped out")
    game = app.game(game_id)
    with pytest.raises(IllegalMove) as refused:
        app.play(game_id, seat, game.decider.legal_moves(game.state, seat)[0])
    assert refused.value.code == "seat_held_by_bot"
    assert app.game(game_id).version == game.version  # nothing stored
    # The referee may still enter a move for the seat (recorded as the referee's).
    entered = app.play(game_id, seat, game.decider.legal_moves(game.state, seat)[0], actor="referee:referee",
                       expected_version=game.version)
    assert entered[0]["actor"] == "referee:referee"
    play_others_until(app, game_id, seat)

    runner = bots.BotRunner(app)
    # The bot played its seat's turn (a card draw takes two moves; the bot's choices follow
    # from the game id, new each run), and the other seat is to act now.
    assert runner.run_once() >= 1
    game = app.game(game_id)
    assert seat not in game.decider.active_seats(game.state)
    records, token = bots.hand_back(lobby, game_id, seat, "Ann is back")
    assert records[0]["kind"] == "SeatHandedBack"
    assert lobby.seating.audience(game_id, token, app.game(game_id)).seat == seat
    assert lobby.seating.audience(game_id, issued.seat_tokens[seat], app.game(game_id)) is None
    # Play until the handed-back seat is to act again: the runner leaves it alone.
    play_others_until(app, game_id, seat)
    game = app.game(game_id)
    assert seat in game.decider.active_seats(game.state)
    assert runner.run_once() == 0 and app.game(game_id).version == game.version
    app.play(game_id, seat, game.decider.legal_moves(game.state, seat)[0])  # the person moves again
    assert full_audit(app, game_id, projections=False).ok


def test_a_move_decided_again_after_a_hand_back_asks_for_the_fresh_token(app: Caboose) -> None:
    """A move let in with the seat's token, then outrun by a takeover and a hand-back stored
    elsewhere: its next round is decided against the game after the hand-back, where the
    old token speaks for no one, so it is refused (and nothing stored), not stored."""
    lobby = Lobby(app)
    game_id, issued = lobby.open_game("ticket_to_ride", ["Ann", "Bob"], seed=game_seed(8, 0))
    seen = app.game(game_id)
    seat = min(seen.decider.active_seats(seen.state))
    old = issued.seat_tokens[seat]
    assert lobby.seating.seat_of(game_id, old, seen) == seat  # let in at this version
    elsewhere = Lobby(Caboose(app.settings))
    bots.take_over(elsewhere.caboose, game_id, seat, "random", "Ann dropped out")
    _, fresh = bots.hand_back(elsewhere, game_id, seat, "Ann is back")
    version = app.game(game_id).version

    move = seen.decider.legal_moves(seen.state, seat)[0]
    with pytest.raises(TokenReplaced):
        app.execute(Play(game_id, seat, move), loaded=seen, credential=SeatToken(seat, seen.version))
    assert app.game(game_id).version == version
    now = app.game(game_id)
    assert lobby.seating.seat_of(game_id, fresh, now) == seat  # the fresh token, let in at the version after the hand-back
    assert app.execute(Play(game_id, seat, move), credential=SeatToken(seat, now.version)).records


def play_others_until(app: Caboose, game_id: str, seat: int) -> None:
    """The other seats' moves until `seat` is to act."""
    chooser = random.Random(seat)
    for _ in range(20):
        game = app.game(game_id)
        active = game.decider.active_seats(game.state)
        if seat in active:
            return
        other = min(active)
        app.play(game_id, other, chooser.choice(game.decider.legal_moves(game.state, other)))
    raise AssertionError(f"seat {seat} never came to act")


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_a_passed_deadline_makes_one_move_for_the_late_seat(app: Caboose) -> None:
    lobby = Lobby(app)
    game_id, _ = bots.open_game(lobby, "ticket_to_ride", ["Ann", "Bob"], {}, game_seed(9, 0), move_deadline="PT24H")
    game = app.game(game_id)
    assert game.deadline == 24 * 3600
    late = min(game.decider.active_seats(game.state))
    since = datetime.fromisoformat(game.updated_at.replace("Z", "+00:00"))
    clock = Clock(since + timedelta(hours=23, minutes=59))
    runner = bots.BotRunner(app, clock)
    assert runner.run_once() == 0 and app.game(game_id).version == game.version  # not yet

    clock.now = since + timedelta(hours=24)
    assert runner.run_once() == 1
    after = app.records(game_id, after=game.version)
    assert after[0]["kind"] == "DeadlinePassed" and after[0]["actor"] == "system"
    assert after[0]["data"] == {"seat": late, "seconds": 86400, "since": game.updated_at, "level": strongest(game.decider)}
    assert after[1]["actor"] == f"seat:{late}" and after[1]["command_id"] == command_ids.bot_move(game_id, game.version + 1)
    assert [r["kind"] for r in after].count("DeadlinePassed") == 1
    # The next seat's deadline runs from the bot's move: it is not late yet.
    assert runner.run_once() == 0
    assert full_audit(app, game_id, projections=False).ok


def test_bad_bots_and_deadlines_at_creation_store_nothing(app: Caboose) -> None:
    lobby = Lobby(app)
    for bots_asked, deadline, code in [({"1": "grandmaster"}, None, "unknown_bot"), ({"7": "random"}, None, "bad_seat"),
                                       ({"x": "random"}, None, "bad_seat"), ({}, "tomorrow", "bad_deadline"),
                                       ({}, 0, "bad_deadline")]:
        with pytest.raises(Exception) as refused:
            bots.open_game(lobby, "ticket_to_ride", ["Ann", "Bob"], {}, None, bots_asked, deadline)
        assert getattr(refused.value, "code", None) == code, refused.value
    assert app.game_ids() == []


@pytest.mark.parametrize(("given", "seconds"), [("PT24H", 86400), ("P2DT12H", 216000), ("pt90m", 5400), ("PT45S", 45),
                                                (3600, 3600), (None, None)])
def test_a_deadline_is_seconds_or_an_iso_8601_duration(given: object, seconds: int | None) -> None:
    assert bots.deadline_seconds(given) == seconds


@pytest.mark.parametrize("given", ["P", "PT", "24h", "P1Y", "PT-5S", 0, -3, True, 1.5, 10**9, "PT0S"])
def test_a_bad_deadline_says_what_a_deadline_is(given: object) -> None:
    with pytest.raises(MalformedMove) as refused:
        bots.deadline_seconds(given)
    assert refused.value.code == "bad_deadline" and "seconds" in refused.value.message


def test_a_takeover_the_runner_passed_by_is_still_seen(app: Caboose) -> None:
    """On PostgreSQL a transaction may commit after one with a later number: the runner
    reads its last stretch of the log again each round."""
    lobby = Lobby(app)
    game_id, _ = bots.open_game(lobby, "ticket_to_ride", ["Ann", "Bob"], {}, game_seed(10, 0))
    runner = bots.BotRunner(app)
    runner.run_once()
    game = app.game(game_id)
    seat = min(game.decider.active_seats(game.state))
    bots.take_over(app, game_id, seat, "random", "gone")
    runner.position += 5  # as if it had read past the takeover before it was committed
    assert runner.run_once() >= 1
    assert app.records(game_id)[-1]["actor"] in (f"seat:{seat}", "system")


# -- a bot's key taken by another command (a record stored before clients were refused the
# -- namespace `bot:`): the runner moves under a fresh key instead of stopping for good ----

def planted_race(app: Caboose) -> tuple[str, int, int, int]:
    """A race game in which seat `mover` stored its move under `bot:GAME:V` (as a server
    before this one let it), where V is the version a takeover of that seat will stand at
    after the other seat's move: (game id, mover, other, V)."""
    game_id, _ = Lobby(app).open_game("race", ["Ann", "Bob"], {"goal": 40})
    game = app.game(game_id)
    mover = min(game.decider.active_seats(game.state))
    return game_id, mover, 1 - mover, game.version + 3


def bot_choice(app: Caboose, game_id: str, seat: int, version: int) -> dict[str, int]:
    """The random bot's move for `seat` at `version` (in a race, it never depends on the state)."""
    game = app.game(game_id)
    legal = [{"type": "advance", "by": n} for n in (1, 2, 3)]
    return dict(game.decider.bots["random"].choose(game.state, seat, legal, bots.chooser_for(game_id, version, seat)))


def bot_moved_at(app: Caboose, game_id: str, version: int, seat: int) -> dict[str, object]:
    after = app.records(game_id, after=version)
    assert after and after[0]["actor"] == f"seat:{seat}", after[:1]
    return after[0]


def test_a_bot_whose_key_was_taken_by_another_move_still_moves(app: Caboose, caplog: pytest.LogCaptureFixture) -> None:
    game_id, mover, other, version = planted_race(app)
    key = command_ids.bot_move(game_id, version)
    app.play(game_id, mover, {"type": "advance", "by": 1 + bot_choice(app, game_id, mover, version)["by"] % 3}, idempotency_key=key)
    app.play(game_id, other, {"type": "advance", "by": 1})
    bots.take_over(app, game_id, mover, "random", "Ann left")
    assert app.game(game_id).version == version
    with caplog.at_level(logging.WARNING):
        runner = bots.BotRunner(app)
        assert runner.run_once() == 1
    moved = bot_moved_at(app, game_id, version, mover)
    assert str(moved["command_id"]).startswith(f"{key}:")
    assert not [r for r in caplog.records if r.exc_info], "the runner logged a traceback"
    assert any(key in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert full_audit(app, game_id, projections=False).ok


def test_a_bot_whose_key_was_taken_by_the_same_move_earlier_still_moves(app: Caboose) -> None:
    """The planted move is the very move the bot will choose, so its key answers the bot with
    the old move's records: they are told apart by their version, and the bot moves."""
    game_id, mover, other, version = planted_race(app)
    chosen = bot_choice(app, game_id, mover, version)
    app.play(game_id, mover, chosen, idempotency_key=command_ids.bot_move(game_id, version))
    app.play(game_id, other, {"type": "advance", "by": 1})
    bots.take_over(app, game_id, mover, "random", "Ann left")
    assert bots.BotRunner(app).run_once() == 1
    assert bot_moved_at(app, game_id, version, mover)["data"] == {"seat": mover, "counter": chosen["by"] + 1 + chosen["by"],
                                                                  "by": chosen["by"]}
