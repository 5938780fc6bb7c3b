"""A game's commands (for idempotency) kept in its snapshot as one text: a retry still finds
what its first attempt stored, from before and after the snapshot, on both real stores, and
snapshots taken before (commands as a mapping, no hand-back versions, no fork origins) still
load."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.core.events import PUBLIC
from service import referee as desk
from service.aggregate import Commands, Game
from service.application import Caboose
from service.errors import IdempotencyKeyReused, Withheld
from service.settings import Settings

# Ids a client may send: spaces, quotes, a newline, a backslash and non-ASCII must neither
# break the text nor match another command's line.
ODD_KEYS = ["plain", "with space", 'a "quoted" 1 2 -', "two\nlines", "back\\slash", "zug-zürich", "with"]


def fresh(app: Caboose) -> Caboose:
    """The same store through a new application, so games load from their snapshots."""
    return Caboose(app.settings, env={"POSTGRES_SCHEMA": app.settings.schema} if app.settings.schema else None)


def test_retries_find_their_moves_across_snapshots(app: Caboose) -> None:
    game_id = app.create_game("race", ["ann", "bob"], {"goal": 10**6}, seed=bytes(range(32)))
    first: dict[str, list[dict]] = {}
    for index in range(25):  # the fixtures snapshot every 10 events
        key = ODD_KEYS[index] if index < len(ODD_KEYS) else f"move-{index}"
        seat = app.summary(game_id)["active_seats"][0]
        first[key] = app.play(game_id, seat, {"type": "advance", "by": 1}, idempotency_key=key)
    reader = fresh(app)
    loaded = reader.game(game_id)
    assert isinstance(loaded.commands, Commands)
    snapshots = list(reader.snapshots.get(UUID(game_id), desc=True, limit=1))  # type: ignore[union-attr]
    assert snapshots and isinstance(snapshots[0].state["commands"], str), "the snapshot holds the commands as text"
    version = loaded.version
    for key, records in first.items():
        seat = int(records[0]["actor"].split(":")[1])
        assert reader.play(game_id, seat, {"type": "advance", "by": 1}, idempotency_key=key) == records, key
        with pytest.raises(IdempotencyKeyReused):
            reader.play(game_id, seat, {"type": "advance", "by": 2}, idempotency_key=key)
    assert reader.game(game_id).version == version, "a retry stores nothing"
    assert "never-sent" not in loaded.commands and "with" in loaded.commands
    assert set(loaded.commands) >= set(first) and len(loaded.commands) == len(set(loaded.commands))


def test_commands_text_round_trip_and_later_lines_win() -> None:
    commands = Commands()
    for version, key in enumerate(ODD_KEYS, start=2):
        commands.note(key, version, f"{version:064x}")
        commands.note(key, version + 100, None)  # a command's later event keeps its first version and digest
    loaded = Commands(commands.text())
    assert dict(loaded) == {key: (v, v + 100, f"{v:064x}") for v, key in enumerate(ODD_KEYS, start=2)}
    loaded["plain"] = (500, 501, None)
    assert Commands(loaded.text())["plain"] == (500, 501, None)
    copy = loaded.copy()
    copy["forged"] = (1, 1, None)
    assert "forged" not in loaded and "forged" in copy
    with pytest.raises(KeyError):
        loaded["missing"]


def test_a_snapshot_with_commands_as_a_mapping_still_loads(sqlite_app: Caboose) -> None:
    game_id = sqlite_app.create_game("race", ["ann", "bob"], {"goal": 10**6}, seed=bytes(range(32)))
    key = "before-text"
    stored = sqlite_app.play(game_id, 0 if sqlite_app.summary(game_id)["active_seats"] == [0] else 1,
                             {"type": "advance", "by": 1}, idempotency_key=key)
    game = sqlite_app.game(game_id)
    snapshot = Game.Snapshot.take(game)
    snapshot.state.pop("class_version")  # as snapshots were, before their layout had a version
    snapshot.state["commands"] = {k: list(v) for k, v in game.commands.items()}  # as they were
    sqlite_app.snapshots.put([snapshot])  # type: ignore[union-attr]
    reader = Caboose(Settings(db=sqlite_app.settings.db, snapshot_interval=10))
    assert reader.game(game_id).commands[key] == (stored[0]["version"], stored[-1]["version"], game.commands[key][2])
    assert reader.play(game_id, int(stored[0]["actor"].split(":")[1]), {"type": "advance", "by": 1}, idempotency_key=key) == stored


def test_a_snapshot_without_hand_back_versions_is_folded_from_the_events(sqlite_app: Caboose) -> None:
    game_id = sqlite_app.create_game("race", ["ann", "bob"], {"goal": 10**6}, seed=bytes(range(32)))
    sqlite_app.play(game_id, sqlite_app.summary(game_id)["active_seats"][0], {"type": "advance", "by": 1})
    game = sqlite_app.game(game_id)
    snapshot = Game.Snapshot.take(game)
    snapshot.state.pop("class_version")
    del snapshot.state["handed_back"]  # as snapshots were before seats' tokens were checked against hand-backs
    sqlite_app.snapshots.put([snapshot])  # type: ignore[union-attr]
    loaded = Caboose(Settings(db=sqlite_app.settings.db)).game(game_id)
    assert loaded.handed_back_at(0) == 0 and loaded.version == game.version and loaded.state == game.state


def test_a_forks_snapshot_without_its_origins_is_folded_from_the_events(sqlite_app: Caboose) -> None:
    # Who may see a fork waits on its origins: a snapshot taken before they were kept must
    # not make a fork of a running game look like a game of its own.
    origin = sqlite_app.create_game("race", ["ann", "bob"], {"goal": 10**6}, seed=bytes(range(32)))
    sqlite_app.play(origin, sqlite_app.summary(origin)["active_seats"][0], {"type": "advance", "by": 1})
    fork_id = desk.fork(sqlite_app, origin, "rita", sqlite_app.game(origin).version, "what if")
    fork = sqlite_app.game(fork_id)
    snapshot = Game.Snapshot.take(fork)
    snapshot.state.pop("class_version")
    del snapshot.state["origins"]  # as snapshots were before a fork's origins were kept
    sqlite_app.snapshots.put([snapshot])  # type: ignore[union-attr]
    reader = Caboose(Settings(db=sqlite_app.settings.db))
    loaded = reader.game(fork_id)
    assert loaded.origins == [origin] and reader.running_origin(loaded) == origin
    with pytest.raises(Withheld):
        reader.view_records(fork_id, PUBLIC)


def test_a_snapshot_from_before_packs_bots_deadlines_and_tables_is_upcast_as_it_loads(sqlite_app: Caboose) -> None:
    # The library's upcasting (`Game.class_version`, `Game.upcast_v1_v2`) gives a snapshot of
    # the first layout the values such a game had; nothing reads a field that may be missing.
    game_id = sqlite_app.create_game("race", ["ann", "bob"], {"goal": 10**6}, seed=bytes(range(32)))
    sqlite_app.play(game_id, sqlite_app.summary(game_id)["active_seats"][0], {"type": "advance", "by": 1})
    game = sqlite_app.game(game_id)
    snapshot = Game.Snapshot.take(game)
    assert snapshot.state["class_version"] == Game.class_version == 2
    snapshot.state.pop("class_version")
    for field in ("content", "bot_seats", "move_deadline", "tournament", "table", "awaiting"):
        del snapshot.state[field]
    sqlite_app.snapshots.put([snapshot])  # type: ignore[union-attr]
    reader = Caboose(Settings(db=sqlite_app.settings.db))
    loaded = reader.game(game_id)
    assert (loaded.content, loaded.held_by_bots, loaded.deadline, loaded.at_table, loaded.is_table, loaded.pending) == \
        (None, {}, None, None, False, None)
    assert loaded.version == game.version and loaded.state == game.state and loaded.decider is not None
    moved = reader.play(game_id, reader.summary(game_id)["active_seats"][0], {"type": "advance", "by": 1})
    assert moved and reader.audit(game_id).ok


def test_the_games_events_keep_their_stored_layout(sqlite_app: Caboose) -> None:
    # Only the snapshots' layout has a version: the stored events hold exactly their
    # attributes, as the records' readers (`service/stored.py`) expect.
    game_id = sqlite_app.create_game("race", ["ann", "bob"], {"goal": 10**6}, seed=bytes(range(32)))
    for item in sqlite_app.recorder.select_events(UUID(game_id)):
        assert b"class_version" not in item.state
