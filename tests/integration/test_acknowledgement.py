"""The promise behind every acknowledgement, checked from the caller's side.

A caller that is answered with records must find exactly those records in the store, under
its own command id; a caller that is refused must find nothing of its own there. Each test
fires concurrent callers at one game (threads share the application and its cache, as the
threads of one server worker do) and then reads the store back.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from domain.core.errors import RuleError
from service.application import Caboose
from service.errors import ServiceError


def race_game(app: Caboose) -> str:
    return app.create_game("race", ["ann", "bob"], {"goal": 1000}, seed=bytes(range(32)))


def ticket_game(app: Caboose) -> str:
    return app.create_game("ticket_to_ride", ["ann", "bob", "cleo"], seed=bytes(32))


def at_once(callers: list[Callable[[], Any]]) -> list[tuple[str, Any]]:
    """Run every caller at the same moment; each outcome is ("ok", records) or ("refused", error)."""
    barrier = threading.Barrier(len(callers))
    outcomes: list[tuple[str, Any]] = [("missing", None)] * len(callers)

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = ("ok", callers[i]())
        except (ServiceError, RuleError) as error:
            outcomes[i] = ("refused", error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(callers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def check_acknowledged(app: Caboose, game_id: str, acknowledged: list[tuple[str, list[dict[str, Any]]]]) -> None:
    """Every answer's records are stored as they were answered, under that caller's command
    id, and every stored command was acknowledged to someone."""
    stored = {r["version"]: r for r in app.records(game_id)}
    assert sorted(stored) == list(range(1, len(stored) + 1))
    for command_id, records in acknowledged:
        assert records, "an acknowledgement with no records"
        for record in records:
            assert stored[record["version"]] == record
            assert record["command_id"] == command_id
    answered = {command_id for command_id, _ in acknowledged}
    commands = {r["command_id"] for r in stored.values()} - {stored[1]["command_id"]}
    assert commands <= answered
    assert app.audit(game_id).ok


@pytest.mark.parametrize("rounds", [5])
def test_one_version_different_keys_one_winner(app: Caboose, rounds: int) -> None:
    game_id = race_game(app)
    acknowledged = []
    for _ in range(rounds):
        version = app.game(game_id).version
        seat = app.summary(game_id)["active_seats"][0]
        keys = [str(uuid.uuid4()) for _ in range(8)]
        outcomes = at_once([
            (lambda k=k, by=by, seat=seat, version=version: app.play(game_id, seat, {"type": "advance", "by": by},
                                                                 expected_version=version, idempotency_key=k))
            for k, by in zip(keys, [1, 2, 3] * 3, strict=False)])
        winners = [(k, o[1]) for k, o in zip(keys, outcomes, strict=True) if o[0] == "ok"]
        assert len(winners) == 1, outcomes
        acknowledged += winners
    check_acknowledged(app, game_id, acknowledged)


def test_concurrent_retries_of_one_request_store_it_once(app: Caboose) -> None:
    game_id = race_game(app)
    acknowledged = []
    for _ in range(5):
        seat = app.summary(game_id)["active_seats"][0]
        key = str(uuid.uuid4())
        version = app.game(game_id).version
        outcomes = at_once([(lambda v=v, seat=seat, key=key: app.play(game_id, seat, {"type": "advance", "by": 2}, expected_version=v,
                                                                       idempotency_key=key))
                            for v in [version, None] * 4])
        assert [o[0] for o in outcomes] == ["ok"] * 8, outcomes
        first = outcomes[0][1]
        assert all(o[1] == first for o in outcomes)
        acknowledged.append((key, first))
    check_acknowledged(app, game_id, acknowledged)


@pytest.mark.parametrize("keyed", [True, False], ids=["keys", "no-keys"])
def test_seats_of_a_sealed_phase_moving_at_once_each_store_their_own(app: Caboose, keyed: bool) -> None:
    game_id = ticket_game(app)
    keeps = {seat: app.legal_moves(game_id, seat)[0] for seat in range(3)}
    keys = {seat: str(uuid.uuid4()) if keyed else None for seat in range(3)}
    outcomes = at_once([(lambda s=s: app.play(game_id, s, keeps[s], idempotency_key=keys[s])) for s in range(3)])
    assert [o[0] for o in outcomes] == ["ok"] * 3, outcomes
    check_acknowledged(app, game_id, [(outcomes[s][1][0]["command_id"], outcomes[s][1]) for s in range(3)])
    assert all(keys[s] in (None, outcomes[s][1][0]["command_id"]) for s in range(3))
    kept = [r for r in app.records(game_id) if r["kind"] == "TicketsKept"]
    assert sorted(r["data"]["seat"] for r in kept) == [0, 1, 2]


def test_moves_without_keys_racing_are_each_stored_or_refused(app: Caboose) -> None:
    game_id = ticket_game(app)
    opening = [app.play(game_id, seat, app.legal_moves(game_id, seat)[0]) for seat in range(3)]
    seat = app.summary(game_id)["active_seats"][0]
    draws = [m for m in app.legal_moves(game_id, seat) if m["type"] == "draw_card"] * 2
    outcomes = at_once([(lambda d=d: app.play(game_id, seat, d)) for d in draws])
    acknowledged = [(o[1][0]["command_id"], o[1]) for o in outcomes if o[0] == "ok"]
    assert acknowledged
    acknowledged += [(records[0]["command_id"], records) for records in opening]
    check_acknowledged(app, game_id, acknowledged)


def test_a_loaded_game_shares_nothing_mutable_with_the_next_load(app: Caboose) -> None:
    game_id = ticket_game(app)
    first = app.game(game_id)
    first.commands["forged"] = (1, 1, None)
    first.waiting_since["0"] = "1970-01-01T00:00:00Z"
    first.thinking_seconds["0"] = 1e9
    with pytest.raises(TypeError):
        first.state.seats[0].hand["red"] += 99  # type: ignore[index]
    with pytest.raises(TypeError):
        first.state.claims["x"] = 1  # type: ignore[index]
    again = app.game(game_id)
    assert "forged" not in again.commands
    assert again.waiting_since.get("0") != "1970-01-01T00:00:00Z"
    assert again.thinking_seconds.get("0", 0.0) < 1e9
    assert again.state.seats[0].hand == first.state.seats[0].hand


def test_a_loaded_age_of_steam_state_refuses_changes_in_place(app: Caboose) -> None:
    game_id = app.create_game("age_of_steam", ["ann", "bob", "cleo"], seed=bytes(32))
    state = app.game(game_id).state
    for mapping in (state.stock, state.bag, state.cubes, state.board, state.display):
        with pytest.raises(TypeError):
            mapping["x"] = 1  # type: ignore[index]
