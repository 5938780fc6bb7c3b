"""The deployment's transparency log: every stored event a leaf of one Merkle tree
(RFC 9162), in the store's own order, with signed checkpoints and the proofs a referee,
a player or a witness asks for.

**Sequencing.** Leaves are assigned after the events commit, by whichever process runs
`sequence` (the `caboose serve` process, or `caboose log follow` in a deployment): it locks
the log's one head row, reads the notification log after the last notification the tree
holds, and appends a leaf per stored event with every complete subtree that closes, in one
transaction. The event store inserts under a table lock (the eventsourcing library's
PostgreSQL recorder takes it; SQLite has one writer), so notification ids become visible in
the order they were issued: reading after the last one sequenced never passes over an event
that commits later. A leaf is never moved or rewritten: the tree only grows, and a
checkpoint once signed stays true of every later tree.

**Checkpoints** are made by `checkpoint` whenever the tree has grown since the last one;
witnesses' cosignatures are kept beside them and published with them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from domain.core import merkle
from domain.tournament.record import ID as TOURNAMENT_ID
from service import stored
from service.tlog.notes import Checkpoint, Note, NoteError, Signer, Verifier
from service.tlog.tables import CHECKPOINTS, COSIGNATURES, HEAD, LEAVES, NODES

T = TypeVar("T")
BATCH = 5000
"""Notifications read per round of sequencing."""
LOG_INTERVAL = 1.0
"""Seconds between rounds of sequencing and checkpointing while a server runs."""


class LogError(Exception):
    """A proof or checkpoint asked for that cannot be given; the message says why."""

    code = "log_unavailable"
    status = 404


@dataclass(frozen=True)
class Inclusion:
    leaf_index: int
    tree_size: int
    leaf_hash: bytes
    hashes: list[bytes]


@dataclass(frozen=True)
class Signed:
    """A checkpoint as published: its note (the log's signature and every cosignature)."""

    checkpoint: Checkpoint
    note: str
    cosigners: tuple[str, ...]


class TransparencyLog:
    def __init__(self, engine: Engine, signer: Signer, witnesses: Sequence[Verifier] = ()) -> None:
        self.engine, self.signer = engine, signer
        self.witnesses = {w.name: w for w in witnesses}
        """Witnesses whose cosignatures are taken, and required on a published checkpoint."""

    @property
    def verifier(self) -> Verifier:
        return self.signer.verifier

    # -- growing the tree ---------------------------------------------------------------

    def sequence(self, app: Any, limit: int | None = None) -> int:
        """Append a leaf for every event stored since the last round (at most `limit`);
        returns the tree's size after."""
        while True:
            with self.engine.begin() as connection:
                # Locking the head row first makes concurrent sequencers take turns.
                connection.execute(update(HEAD).where(HEAD.c.id == 1).values(size=HEAD.c.size))
                size, last = connection.execute(select(HEAD.c.size, HEAD.c.last_notification).where(HEAD.c.id == 1)).one()
                notifications = app.recorder.select_notifications(start=last + 1, limit=min(BATCH, limit or BATCH))
                if not notifications:
                    return int(size)
                events = sealed(app, notifications)
                leaves = [merkle.leaf_hash(event_hash) for *_, event_hash in events]
                frontier = dict(self._nodes(connection, merkle.frontier_nodes(size)))
                made = merkle.appended(size, frontier.__getitem__, leaves)
                if events:
                    connection.execute(LEAVES.insert(), [
                        {"leaf_index": size + i, "notification_id": nid, "game_id": stream, "version": version,
                         "event_hash": event_hash} for i, (nid, stream, version, event_hash) in enumerate(events)])
                    connection.execute(NODES.insert(), [{"level": level, "idx": idx, "hash": h} for (level, idx), h in made])
                size += len(events)
                connection.execute(update(HEAD).where(HEAD.c.id == 1).values(
                    size=size, last_notification=notifications[-1].id))
            if limit is not None:
                limit -= len(notifications)
                if limit <= 0:
                    return int(size)

    def checkpoint(self) -> Checkpoint:
        """Sign a checkpoint of the tree as it is, unless the last one has its size already."""
        with self.engine.connect() as connection:
            size = self._size(connection)
            latest = connection.scalar(select(func.max(CHECKPOINTS.c.size)))
            if latest is not None and latest == size:
                return Checkpoint.parse(Note.parse(self._note(connection, size)).text)
            checkpoint = Checkpoint(self.signer.name, size, self._root(connection, size))
        note = checkpoint.text + "\n" + self.signer.signature_line(checkpoint.text)
        try:
            with self.engine.begin() as connection:
                connection.execute(CHECKPOINTS.insert().values(size=size, note=note, made_at=datetime.now(UTC)))
        except IntegrityError:
            pass  # another process signed this size a moment ago: Ed25519 signs alike
        return checkpoint

    def follow(self, app: Any, interval: float, stop: Any) -> None:
        """Sequence and checkpoint every `interval` seconds until `stop` (an Event) is set."""
        while not stop.wait(interval):
            self.round(app)

    def round(self, app: Any) -> Checkpoint:
        self.sequence(app)
        return self.checkpoint()

    # -- reading ------------------------------------------------------------------------

    def size(self) -> int:
        with self.engine.connect() as connection:
            return self._size(connection)

    def published(self, *, latest: bool = False) -> Signed:
        """The checkpoint the log publishes: the newest one every required witness has
        cosigned (with `latest`, or when no witness is required, the newest one)."""
        with self.engine.connect() as connection:
            sizes = [row[0] for row in connection.execute(select(CHECKPOINTS.c.size).order_by(CHECKPOINTS.c.size.desc()).limit(1000))]
            for size in sizes:
                lines = dict(connection.execute(select(COSIGNATURES.c.witness, COSIGNATURES.c.line)
                                                .where(COSIGNATURES.c.size == size)).all())
                if latest or all(name in lines for name in self.witnesses):
                    note = self._note(connection, size) + "".join(lines[name] for name in sorted(lines))
                    checkpoint = Checkpoint.parse(Note.parse(note).text)
                    return Signed(checkpoint, note, tuple(sorted(lines)))
        required = ", ".join(sorted(self.witnesses))
        raise LogError("No checkpoint has been signed yet." if not sizes else
                       f"No checkpoint is cosigned yet by every required witness ({required}).")

    def inclusion(self, game_id: str, version: int, size: int | None = None) -> Inclusion:
        """The audit path of the event (game, version) in the tree of `size` leaves (by
        default the newest checkpoint's)."""
        current = select(HEAD.c.size).where(HEAD.c.id == 1).scalar_subquery()
        signed = select(func.max(CHECKPOINTS.c.size)).scalar_subquery()
        with self.engine.connect() as connection:
            # The leaf, the tree's size and the newest checkpoint's in one round trip.
            found = connection.execute(select(LEAVES.c.leaf_index, LEAVES.c.event_hash, current, signed).where(
                LEAVES.c.game_id == game_id, LEAVES.c.version == version)).first()
            if found is None:
                raise LogError(f"Event {version} of game {game_id} is not in the log (yet): unknown, or stored "
                               "less than a round of the sequencer ago.")
            index, event_hash, tree_size, newest = found
            size = self._within(int(tree_size), size if size is not None else newest)
            if index >= size:
                raise LogError(f"Event {version} of game {game_id} is leaf {index}, not in a tree of {size} leaves: "
                               "ask with a later checkpoint's size.")
            hashes = self._proof(connection, lambda get: merkle.inclusion_proof(index, size, get))
        return Inclusion(index, size, merkle.leaf_hash(event_hash), hashes)

    def consistency(self, old: int, new: int) -> list[bytes]:
        with self.engine.connect() as connection:
            current = self._size(connection)
            if not 0 < old <= new <= current:
                raise LogError(f"No consistency proof from {old} to {new}: the sizes must satisfy "
                               f"0 < from <= to <= {current} (the tree's size).")
            return self._proof(connection, lambda get: merkle.consistency_proof(old, new, get))

    def leaf_hashes(self, game_id: str) -> dict[int, bytes]:
        """version -> the event hash the log holds for each of a game's events."""
        with self.engine.connect() as connection:
            return {int(v): bytes(h) for v, h in connection.execute(
                select(LEAVES.c.version, LEAVES.c.event_hash).where(LEAVES.c.game_id == game_id))}

    # -- witnesses ----------------------------------------------------------------------

    def cosign(self, note: str) -> str:
        """Keep the cosignatures of known witnesses on one of this log's checkpoints; returns
        the names of the witnesses whose cosignature was taken."""
        parsed = Note.parse(note)
        if not parsed.signed_by(self.verifier):
            raise NoteError("the note carries no signature of this log")
        checkpoint = Checkpoint.parse(parsed.text)
        with self.engine.connect() as connection:
            ours = connection.scalar(select(CHECKPOINTS.c.note).where(CHECKPOINTS.c.size == checkpoint.size))
        if ours is None or Note.parse(ours).text != parsed.text:
            raise NoteError(f"this log signed no checkpoint of size {checkpoint.size} with that root")
        taken = []
        for name, witness in self.witnesses.items():
            line = parsed.line_of(name)
            if line is not None and parsed.cosigned_by(witness) is not None:
                try:
                    with self.engine.begin() as connection:
                        connection.execute(COSIGNATURES.insert().values(size=checkpoint.size, witness=name,
                                                                        line=line, made_at=datetime.now(UTC)))
                except IntegrityError:
                    pass  # cosigned before: the first is kept
                taken.append(name)
        if not taken:
            raise NoteError("the note carries no cosignature of a witness this log knows: start the server with the "
                            "witness's key (`caboose serve --witness-key`)")
        return ", ".join(taken)

    # -- inside -------------------------------------------------------------------------

    @staticmethod
    def _size(connection: Any) -> int:
        return int(connection.scalar(select(HEAD.c.size).where(HEAD.c.id == 1)) or 0)

    @staticmethod
    def _within(current: int, size: int | None) -> int:
        if size is None:
            raise LogError("No checkpoint has been signed yet.")
        if not 0 < size <= current:
            raise LogError(f"The tree has {current} leaves: ask for a size from 1 to {current}.")
        return int(size)

    @staticmethod
    def _note(connection: Any, size: int) -> str:
        return str(connection.scalar(select(CHECKPOINTS.c.note).where(CHECKPOINTS.c.size == size)))

    @staticmethod
    def _nodes(connection: Any, nodes: Iterable[merkle.Node]) -> list[tuple[merkle.Node, bytes]]:
        wanted = list(dict.fromkeys(nodes))
        if not wanted:
            return []
        # OR of (level, idx) pairs: both stores look each up by the primary key (SQLite scans
        # the whole table for a row-value IN list).
        rows = connection.execute(select(NODES.c.level, NODES.c.idx, NODES.c.hash).where(
            or_(*(and_(NODES.c.level == level, NODES.c.idx == idx) for level, idx in wanted))))
        return [((int(level), int(idx)), bytes(h)) for level, idx, h in rows]

    def _proof(self, connection: Any, proof: Callable[[merkle.Hashes], T]) -> T:
        wanted = merkle.needed(proof)
        nodes = dict(self._nodes(connection, wanted))
        missing = [n for n in wanted if n not in nodes]
        if missing:
            raise LogError(f"The log's tree lacks {len(missing)} of its nodes: it is damaged; tell the operator.")
        return proof(nodes.__getitem__)

    def _root(self, connection: Any, size: int) -> bytes:
        return self._proof(connection, lambda get: merkle.root(size, get))


def sealed(app: Any, notifications: Sequence[Any]) -> list[tuple[int, str, int, bytes]]:
    """(notification, game or tournament id, version, event hash) of each sealed record a
    stretch of the notification log holds: a game's records (read the fast way), and a
    tournament's (`entry`, through the library's mapper)."""
    games = {nid: record for nid, record, _ in app.logged([n for n in notifications if n.topic in stored.TOPICS])}
    found = []
    for notification in notifications:
        record = games.get(notification.id)
        if record is not None:
            found.append((notification.id, record["game_id"], record["version"], bytes.fromhex(record["hash"])))
            continue
        if notification.topic in stored.TOPICS:
            continue
        entry = getattr(app.mapper.to_domain_event(notification), "entry", None)
        if isinstance(entry, dict) and isinstance(entry.get(TOURNAMENT_ID), str):
            found.append((notification.id, entry[TOURNAMENT_ID], entry["version"], bytes.fromhex(entry["hash"])))
    return found


def wait_for(log: TransparencyLog, app: Any, game_id: str, version: int, timeout: float = 5.0) -> None:
    """Sequence until the event (game, version) is a leaf (an export asks its proof)."""
    deadline = time.monotonic() + timeout
    while True:
        log.sequence(app)
        with log.engine.connect() as connection:
            if connection.execute(select(LEAVES.c.leaf_index).where(
                    LEAVES.c.game_id == game_id, LEAVES.c.version == version)).first() is not None:
                return
        if time.monotonic() > deadline:
            raise LogError(f"Event {version} of game {game_id} did not reach the log within {timeout} s.")
        time.sleep(0.05)
