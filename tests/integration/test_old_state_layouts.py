"""A game state stored in an older layout of its class (a snapshot's, taken before the
layout changed) loads through the library's upcasting (`domain/core/upcasting.py`): Ticket
to Ride's opening, stored before it was a sealed phase, goes on as if stored today."""

from __future__ import annotations

from uuid import UUID

from service.aggregate import Game
from service.application import Caboose
from service.settings import Settings


def test_a_snapshot_of_an_opening_stored_before_it_was_sealed_loads_and_plays_on(sqlite_app: Caboose) -> None:
    game_id = sqlite_app.create_game("ticket_to_ride", ["ann", "bob", "cy"], {}, seed=bytes(range(32)))
    game = sqlite_app.game(game_id)
    offered = list(game.state.seats[2].offered)
    sqlite_app.play(game_id, 2, {"type": "keep_tickets", "keep": offered[1:]})
    game = sqlite_app.game(game_id)
    assert game.state.sealed is not None and 2 in game.state.sealed.choices
    snapshot = Game.Snapshot.take(game)
    stored = snapshot.state["state"]
    del stored["sealed"]  # as the opening was stored: the choice in the seat, no sealed phase
    for index, seat in enumerate(stored["seats"]):
        seat["returning"] = offered[:1] if index == 2 else []
    stored["seats"][2]["tickets"] = offered[1:]
    sqlite_app.snapshots.put([snapshot])  # type: ignore[union-attr]
    reader = Caboose(Settings(db=sqlite_app.settings.db, snapshot_interval=10))
    loaded = reader.game(game_id)
    assert next(iter(reader.snapshots.get(UUID(game_id), desc=True, limit=1))).state["state"] == stored  # type: ignore[union-attr]
    assert loaded.state == game.state and loaded.version == game.version
    for seat in (0, 1):
        reader.play(game_id, seat, {"type": "keep_tickets", "keep": list(loaded.state.seats[seat].offered)})
    assert reader.game(game_id).state.seats[2].tickets == tuple(offered[1:])
    assert reader.audit(game_id).ok
