"""The transparency log on each real store: every stored event becomes one leaf, in the store's
own order, whoever sequences and however many sequence at once; checkpoints grow and every
proof between them verifies with the referee's independent checker (docs/verify_log.py)."""

from __future__ import annotations

import importlib.util
import random
import threading
from pathlib import Path

from sqlalchemy import select

from domain.core import merkle
from service.application import Caboose
from service.bootstrap import Services, bootstrap
from service.simulation import play_one
from service.tlog import open_log
from service.tlog.tables import LEAVES

spec = importlib.util.spec_from_file_location("verify_log", Path(__file__).parents[2] / "docs" / "verify_log.py")
assert spec is not None and spec.loader is not None
verify_log = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify_log)


def services_of(app: Caboose) -> Services:
    return bootstrap(caboose=app)


def stored_events(app: Caboose) -> list[tuple[str, int, str]]:
    """(game, version, hash) of every stored event, in the notification log's order."""
    found, start = [], 1
    while batch := app.recorder.select_notifications(start=start, limit=1000):
        found += [(r["game_id"], r["version"], r["hash"]) for _, r, _ in app.logged(batch)]
        start = batch[-1].id + 1
    return found


def leaves(services: Services) -> list[tuple[str, int, str]]:
    with services.log.engine.connect() as connection:
        return [(g, v, bytes(h).hex()) for g, v, h in connection.execute(
            select(LEAVES.c.game_id, LEAVES.c.version, LEAVES.c.event_hash).order_by(LEAVES.c.leaf_index))]


def play(app: Caboose, game: str, seed: int, moves: int) -> None:
    play_one(app, game, 2 if game == "ticket_to_ride" else 3, bytes([seed]) * 32, random.Random(seed), check=False,
             stop_after=moves, per_move=True)


def test_every_stored_event_is_one_leaf_in_the_stores_order(app: Caboose) -> None:
    services = services_of(app)
    play(app, "ticket_to_ride", 1, 15)
    services.log.sequence(app)
    play(app, "age_of_steam", 2, 10)
    play(app, "ticket_to_ride", 3, 5)
    size = services.log.sequence(app)
    expected = stored_events(app)
    assert leaves(services) == expected
    assert size == len(expected) > 100


def test_checkpoints_grow_and_every_proof_between_them_verifies(app: Caboose) -> None:
    services = services_of(app)
    log, key = services.log, str(services.log.verifier)
    checkpoints = []
    for seed in range(1, 5):
        play(app, "ticket_to_ride", seed, 6)
        log.round(app)
        note = log.published().note
        checkpoints.append(verify_log.parse_checkpoint(verify_log.open_note(note, key)))
    sizes = [size for _, size, _ in checkpoints]
    assert sizes == sorted(sizes) and len(set(sizes)) == 4
    for _, old, old_root in checkpoints:
        for _, new, new_root in checkpoints:
            if old <= new:
                verify_log.verify_consistency(old, new, log.consistency(old, new), old_root, new_root)
    rng = random.Random(4)
    events = stored_events(app)
    for game_id, version, event_hash in rng.sample(events, 60):
        for _, size, root in checkpoints:
            index = events.index((game_id, version, event_hash))
            if index < size:
                proof = log.inclusion(game_id, version, size)
                assert proof.leaf_index == index
                verify_log.verify_inclusion(index, size, verify_log.leaf_hash(bytes.fromhex(event_hash)), proof.hashes, root)


def test_sequencers_running_at_once_take_turns(app: Caboose) -> None:
    services = services_of(app)
    stop, failures = threading.Event(), []

    def sequencer() -> None:
        log = open_log(services.settings, services.lobby.seating.engine)
        while not stop.is_set():
            try:
                log.sequence(app)
            except Exception as error:
                failures.append(error)
                return

    threads = [threading.Thread(target=sequencer) for _ in range(3)]
    for thread in threads:
        thread.start()
    for seed in range(1, 5):
        play(app, "ticket_to_ride", seed, 8)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    services.log.sequence(app)
    expected = stored_events(app)
    assert leaves(services) == expected
    nodes = dict(merkle.appended(0, {}.__getitem__, [merkle.leaf_hash(bytes.fromhex(h)) for _, _, h in expected]))
    assert services.log.checkpoint().root == merkle.root(len(expected), nodes.__getitem__)


def test_the_logs_key_is_made_once_and_kept(app: Caboose) -> None:
    services = services_of(app)
    first = services.log.verifier
    assert open_log(services.settings, services.lobby.seating.engine).verifier == first
    assert services_of(app).log.verifier == first


def test_a_tournaments_records_are_leaves_beside_its_games(app: Caboose) -> None:
    services = services_of(app)
    organiser = services.organiser
    created = organiser.create("Club night", "ticket_to_ride", kind="swiss", rounds=1, table_size=2)
    for name in ("Ann", "Ben", "Cleo", "Dev"):
        organiser.register(created.tournament_id, name)
    opened = organiser.pair(created.tournament_id)
    services.log.round(app)
    logged = {(stream, version) for stream, version, _ in leaves(services)}
    tournament_versions = {v for stream, v in logged if stream == created.tournament_id}
    assert tournament_versions == set(range(1, len(tournament_versions) + 1)) and len(tournament_versions) >= 6
    assert all((table.game_id, 1) in logged for table in opened)
    assert services.log.size() == len(logged) == len(stored_events(app)) + len(tournament_versions)
    proof = services.log.inclusion(created.tournament_id, 2)
    verify_log.verify_inclusion(proof.leaf_index, proof.tree_size, proof.leaf_hash, proof.hashes, services.log.checkpoint().root)
